"""``nimmt match``: a sandboxed match between bot folders, house bots and bots started by hand,
with a progress bar and the results table of ``nimmt play``.

``nimmt match BOT... --variant V --games N --seed S --out DIR``: a BOT is a bot folder (with a
``nimmt-bot.toml``), a house bot (``random``, ``heuristic``, ``mcs``, ``mcs:playouts=200``; they
run as their ``bots/<name>/`` programs, or in this process with ``--in-process``) or
``connect:NAME``, a bot its author starts by hand (in a debugger, say).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from functools import partial
from pathlib import Path

from arena.bots.registry import make_bot
from arena.engine.errors import NimmtError
from arena.engine.variants import VARIANT_NAMES
from arena.engine.variants import variant as get_variant
from arena.runner.build import BuildFailed, ready
from arena.runner.lineup import Entrant, MatchError
from arena.runner.manifest import HOUSE_BOTS, BotProgram, ManifestError, house_program, load
from arena.runner.match import run_match
from arena.runner.results import MatchResult
from arena.runner.rules import BANK_MS, DECISION_MS, MAX_FAULTS, MatchConfig
from arena.sandbox import SandboxUnavailable
from arena.stats import entry_names, format_table
from arena.table.quote import quote

from .common import Progress, Subcommands, at_least


def add(commands: Subcommands) -> None:
    match = commands.add_parser(
        "match",
        help="play a sandboxed match between bot programs",
        description=(
            "Play a match between bot programs, each in its own sandbox, over the bot protocol. "
            "BOT is a bot folder (with a nimmt-bot.toml) or a house bot: "
            + ", ".join(HOUSE_BOTS)
            + " (options as in nimmt play, e.g. mcs:playouts=200). Games, seeds and seat "
            "rotation are those of nimmt play, so house bots play the same games. A bot that "
            "answers late, illegally or unreadably has a fault: the arena plays a default "
            "decision for it and ranks it last in that game; after --max-faults faults, or a "
            "crash, it is dropped from the match."
        ),
    )
    match.add_argument(
        "bots",
        nargs="+",
        metavar="BOT",
        help="a bot folder, a house bot name, or connect:NAME for a bot you start yourself "
        "(the command prints how; for debugging)",
    )
    match.add_argument("--variant", default="basic", choices=VARIANT_NAMES)
    match.add_argument(
        "--games", type=at_least(1), default=100, metavar="N", help="games (default 100)"
    )
    match.add_argument("--seed", type=int, default=1, metavar="S", help="match seed (default 1)")
    match.add_argument(
        "--duplicate",
        action="store_true",
        help="play each deal once per seat rotation, as the ladders do, so that the luck of the "
        "deal cancels out (--games must be a multiple of the number of bots); each rotation is "
        "played by fresh bot processes, so that no bot is dealt a deal twice",
    )
    match.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="folder for replays, logs/ and match.json (default runs/match-<time>)",
    )
    add_rules(match)
    match.add_argument(
        "--in-process",
        action="store_true",
        help="run the house bots in this process instead of as sandboxed programs (to compare)",
    )
    match.set_defaults(handler=match_command, parser=match)


def add_rules(parser: argparse.ArgumentParser, faults: bool = True) -> None:
    """The arena's rules as options (``nimmt match`` and ``nimmt bot check``)."""
    parser.add_argument(
        "--decision-ms",
        type=at_least(1),
        metavar="MS",
        default=DECISION_MS,
        help=f"time allowed per decision, in ms (default {DECISION_MS})",
    )
    parser.add_argument(
        "--bank-ms",
        type=at_least(0),
        metavar="MS",
        default=BANK_MS,
        help=f"time bank per game, drawn on beyond --decision-ms (default {BANK_MS})",
    )
    if faults:
        parser.add_argument(
            "--max-faults",
            type=at_least(1),
            metavar="N",
            default=MAX_FAULTS,
            help=f"faults after which a bot is dropped from the match (default {MAX_FAULTS})",
        )
    parser.add_argument(
        "--unsafe-no-sandbox",
        action="store_true",
        help="run bot programs as plain processes (only for code you trust)",
    )


def entrants_for(specs: Sequence[str], in_process: bool = False) -> list[Entrant]:
    """The lineup for ``specs``: bot folders, house bots by name (``name[:options]``), or
    ``connect:NAME`` for a bot started by hand.

    Names repeat as in ``nimmt play``: ``random``, ``random#2``...
    """
    made: list[tuple[str, Callable[[str], Entrant]]] = []
    for spec in specs:
        path = Path(spec)
        house, _, options = spec.partition(":")
        if house == "connect" and options:
            made.append((options, partial(Entrant, external=True)))
        elif path.is_dir():
            program = load(path)
            made.append((program.name, partial(_program, program, False, {})))
        elif house in HOUSE_BOTS:
            if in_process:
                make_bot(spec)  # check the options now
                made.append((spec, partial(_in_process, spec)))
            else:
                env = {"NIMMT_BOT_OPTIONS": options} if options else {}
                made.append((spec, partial(_program, house_program(house), True, env)))
        else:
            raise ManifestError(
                f"{spec!r} is neither a bot folder nor a house bot ({', '.join(HOUSE_BOTS)})"
            )
    names = entry_names([base for base, _ in made])
    return [factory(name) for name, (_, factory) in zip(names, made, strict=True)]


def _program(program: BotProgram, trusted: bool, env: dict[str, str], name: str) -> Entrant:
    return Entrant(name, program=program, trusted=trusted, env=env)


def _in_process(spec: str, name: str) -> Entrant:
    return Entrant(name, in_process=partial(make_bot, spec))


def _built(entrant: Entrant, sandboxed: bool) -> Entrant:
    """``entrant`` with its program built, if its manifest has a build (once per content)."""
    program = entrant.program
    if program is None or not program.build:
        return entrant
    print(f"building {entrant.name}: {' '.join(program.build)} ...", file=sys.stderr, flush=True)
    return replace(entrant, program=ready(program, sandboxed=sandboxed))


def _announce(name: str, address: str, token: str) -> None:
    print(
        f"waiting for the bot {name!r}: start it yourself (in a debugger, say) with\n"
        f"  .venv/bin/python bot.py --connect {address} --token {token}",
        file=sys.stderr,
        flush=True,
    )


def match_command(args: argparse.Namespace) -> int:
    """``nimmt match``."""
    try:
        entrants = entrants_for(args.bots, in_process=args.in_process)
        get_variant(args.variant).check_players(len(entrants))
        if args.duplicate and args.games % len(entrants):
            raise ValueError(
                f"--duplicate plays each deal once per seat rotation: --games must be a "
                f"multiple of the {len(entrants)} bots, got {args.games}"
            )
    except (ManifestError, NimmtError, ValueError) as exc:
        print(f"nimmt match: {exc}", file=sys.stderr)
        return 2
    try:
        entrants = [_built(entrant, not args.unsafe_no_sandbox) for entrant in entrants]
    except BuildFailed as failed:
        print(f"nimmt match: {failed}", file=sys.stderr)
        for line in failed.build.log_tail():
            print(f"  | {quote(line)}", file=sys.stderr)
        return 1
    except SandboxUnavailable as exc:
        print(f"nimmt match: cannot build in the sandbox: {exc}", file=sys.stderr)
        return 1
    out = args.out or Path("runs") / f"match-{datetime.now():%Y%m%d-%H%M%S}"
    config = MatchConfig(
        variant=args.variant,
        games=args.games,
        seed=args.seed,
        out=out,
        decision_ms=args.decision_ms,
        bank_ms=args.bank_ms,
        max_faults=args.max_faults,
        unsafe_no_sandbox=args.unsafe_no_sandbox,
        duplicate=args.duplicate,
    )
    progress = Progress(args.games)
    try:
        result = run_match(
            config,
            entrants,
            progress=lambda done, _total: progress.update(done),
            announce=_announce,
        )
    except MatchError as exc:
        progress.close()
        print(f"nimmt match: {exc}", file=sys.stderr)
        return 1
    progress.close()
    print(report(result))
    noted = sum(1 for name in result.notes_files if name is not None)
    notes = f", the bots' notes on {noted} of them (notes/game-*.json)" if noted else ""
    print(f"replays{notes}, logs/ and match.json in {out}")
    return 0


def report(result: MatchResult) -> str:
    """The results table, then the sandbox and each bot's faults (a bot's text in them is
    quoted: no escape sequence of a bot's reaches the terminal)."""
    settings = result.settings
    higher = get_variant(settings.variant).higher_is_better
    games, seed, players = len(result.replays), settings.seed, len(result.bots)
    if settings.duplicate:
        deals = f"duplicate: deal seeds {seed}..{seed + max(games // players, 1) - 1}, each deal "
        deals += f"in all {players} seat rotations"
    else:
        deals = f"deal seeds {seed}..{seed + games - 1}"
    lines = [
        f"{settings.variant} · {players} players · {games} games · {deals} · "
        f"{result.duration_s:.1f} s",
        format_table(list(result.table), higher_is_better=higher),
        "",
    ]
    if result.sandbox.describe():
        lines.append(result.sandbox.describe())
    if result.sandbox.note:
        lines.append(f"note: {result.sandbox.note}")
    for bot in result.bots:
        counts = {kind: n for kind, n in bot.fault_counts.items() if n}
        if counts or bot.dropped:
            text = ", ".join(f"{n} {kind.value}" for kind, n in counts.items())
            lines.append(f"{bot.name}: faults: {text or 'none'}")
            if bot.dropped is not None:
                lines.append(f"  {bot.dropped.describe()}")
    return "\n".join(lines)
