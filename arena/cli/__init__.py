"""The ``nimmt`` command line: play series between house bots, verify and show replays, play
sandboxed matches and check bot folders.

::

    nimmt play --variant basic --bots mcs,heuristic,random,random --games 200 --out runs/demo
    nimmt replay verify runs/demo
    nimmt replay show runs/demo/game-00001.json
    nimmt match bots/starter-python heuristic random --games 50 --out runs/m
    nimmt bot check bots/starter-python

Exit status: 0 on success, 1 when a replay does not verify or cannot be read (or a match or check
fails), 2 on bad usage (unknown variant or bot, wrong number of players, bad numbers). Errors are
one line on stderr, never a traceback.

Each subcommand is a module of this package with an ``add(commands)`` function that adds its
parser and sets ``handler``; :data:`COMMANDS` lists them.
"""

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from arena import __version__

from .common import Failure, UsageError

# ---------------------------------------------------------------------------- the parser

#: Subcommands in the order ``nimmt --help`` lists them: the name typed, and the module of this
#: package that adds it. A command loads only its own module (``nimmt match`` neither the bot
#: check nor the replay viewer); ``nimmt --help`` and a mistyped command load them all.
COMMANDS: tuple[tuple[str, str], ...] = (
    ("play", "play"),
    ("replay", "replays"),
    ("match", "match"),
    ("bot", "bot"),
    ("dataset", "dataset"),
)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``nimmt`` parser: with every subcommand, or only ``command`` if it is one."""
    parser = argparse.ArgumentParser(
        prog="nimmt",
        description="Nimmt Arena: play 6 nimmt! Brettspiel between bots, check and show replays.",
    )
    parser.add_argument("--version", action="version", version=f"nimmt-arena {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    known = [name for name, _ in COMMANDS]
    for name, module in COMMANDS:
        if command in known and name != command:
            continue
        importlib.import_module(f"{__name__}.{module}").add(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``nimmt`` with ``argv`` (default: the process's arguments); return the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv[0] if argv else None)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse printed help, the version or a usage error
        return exc.code if isinstance(exc.code, int) else 2
    command: argparse.ArgumentParser = args.parser
    try:
        status: int = args.handler(args)
    except UsageError as exc:
        command.print_usage(sys.stderr)
        print(f"{command.prog}: error: {exc}", file=sys.stderr)
        return 2
    except Failure as exc:
        print(f"{command.prog}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"\n{command.prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``nimmt replay show ... | head``): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
