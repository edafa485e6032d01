"""``nimmt bot check BOT_DIR``: the arena's bot check (:mod:`arena.runner.check`), printed.

It reads the manifest, builds the bot if the manifest has a ``build`` (in the sandbox, once per
content of its folder), starts the bot in the sandbox and plays it against house bots in every
variant family at every player count the ladders play; it explains what is wrong in plain words
and exits 0 only if everything passed.
"""

import argparse
import contextlib
from pathlib import Path

from arena.runner.check import CHECK_PLAN, check_bot
from arena.runner.lineup import MatchError
from arena.runner.manifest import ManifestError, load

from .common import Subcommands
from .match import add_rules


def add(commands: Subcommands) -> None:
    bot = commands.add_parser("bot", help="tools for bot authors")
    tools = bot.add_subparsers(dest="bot_command", metavar="COMMAND", required=True)
    formats = sorted({game.variant for game in CHECK_PLAN})
    check = tools.add_parser(
        "check",
        help="check a bot folder the way the arena runs it",
        description=(
            "Check BOT_DIR: its manifest, a start in the sandbox, and a short game against "
            f"random bots in each of {', '.join(formats)} at "
            + ", ".join(sorted({str(game.players) for game in CHECK_PLAN}, key=int))
            + " players (the site checks uploads the same way). Explains what is wrong; exit "
            "status 0 only if everything passed."
        ),
    )
    check.add_argument("bot_dir", type=Path, metavar="BOT_DIR")
    check.add_argument(
        "--out", type=Path, metavar="DIR", help="keep replays and logs here (default: a temp dir)"
    )
    check.add_argument("--seed", type=int, default=1, metavar="S", help="seed (default 1)")
    add_rules(check, faults=False)
    check.set_defaults(handler=check_command, parser=check)


def check_command(args: argparse.Namespace) -> int:
    """``nimmt bot check``."""
    with contextlib.suppress(ManifestError):
        if load(args.bot_dir).build:
            print("building the bot in the sandbox first (once per content of its folder)")
    try:
        report = check_bot(
            args.bot_dir,
            out=args.out,
            seed=args.seed,
            decision_ms=args.decision_ms,
            bank_ms=args.bank_ms,
            unsafe_no_sandbox=args.unsafe_no_sandbox,
        )
    except MatchError as exc:
        print(f"FAIL sandbox: {exc}")
        return 1
    for line in report.lines():
        print(line, flush=True)
    return 0 if report.passed else 1
