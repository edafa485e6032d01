"""The ``nimmt match`` and ``nimmt bot check`` commands (hooked into ``arena.cli`` by
:func:`add_commands`).

``nimmt match BOT... --variant V --games N --seed S --out DIR`` plays a sandboxed match between
bot folders and house bots (``random``, ``heuristic``, ``mcs``, ``mcs:playouts=200``; they run as
their ``bots/<name>/`` programs) and ``connect:NAME`` (a bot its author starts by hand, e.g. in a
debugger), with a progress bar and the results table of ``nimmt play``.

``nimmt bot check BOT_DIR`` checks a bot folder the way the arena will run it: the manifest, a
start in the sandbox, and a few short games against ``random`` in three variants; it explains
what is wrong in plain words and exits 0 only if everything passed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from arena.bots.base import make_bot
from arena.engine.errors import NimmtError
from arena.engine.variants import VARIANT_NAMES
from arena.engine.variants import variant as get_variant
from arena.stats import entry_names, format_table

from .manifest import HOUSE_BOTS, BotProgram, ManifestError, house_program, load
from .rules import BANK_MS, DECISION_MS, MAX_FAULTS, START_MS

if TYPE_CHECKING:  # loaded when a command runs: gRPC is slow to import for the other commands
    from .match import Entrant, MatchResult

#: The smoke matches of ``nimmt bot check``: (variant, players, games).
CHECK_MATCHES = (("basic", 4, 3), ("pro+luck", 3, 2), ("classic", 4, 2))
#: Lines of the bot's log shown when the check fails.
LOG_LINES = 15


def add_commands(subparsers: Any) -> None:
    """Add ``match`` and ``bot check`` to the ``nimmt`` command's subparsers."""
    match = subparsers.add_parser(
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
        "--games", type=_positive, default=100, metavar="N", help="games (default 100)"
    )
    match.add_argument("--seed", type=int, default=1, metavar="S", help="match seed (default 1)")
    match.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="folder for replays, logs/ and match.json (default runs/match-<time>)",
    )
    _add_rules(match)
    match.add_argument(
        "--in-process",
        action="store_true",
        help="run the house bots in this process instead of as sandboxed programs (to compare)",
    )
    match.set_defaults(func=match_command, handler=match_command, parser=match)

    bot = subparsers.add_parser("bot", help="tools for bot authors")
    tools = bot.add_subparsers(dest="bot_command", metavar="COMMAND", required=True)
    check = tools.add_parser(
        "check",
        help="check a bot folder the way the arena runs it",
        description=(
            "Check BOT_DIR: its manifest, a start in the sandbox, and short games against "
            "random in " + ", ".join(v for v, _, _ in CHECK_MATCHES) + ". Explains what is "
            "wrong; exit status 0 only if everything passed."
        ),
    )
    check.add_argument("bot_dir", type=Path, metavar="BOT_DIR")
    check.add_argument(
        "--out", type=Path, metavar="DIR", help="keep replays and logs here (default: a temp dir)"
    )
    check.add_argument("--seed", type=int, default=1, metavar="S", help="seed (default 1)")
    _add_rules(check, faults=False)
    check.set_defaults(func=check_command, handler=check_command, parser=check)


def _add_rules(parser: argparse.ArgumentParser, faults: bool = True) -> None:
    parser.add_argument(
        "--decision-ms",
        type=_positive,
        metavar="MS",
        default=DECISION_MS,
        help=f"time allowed per decision, in ms (default {DECISION_MS})",
    )
    parser.add_argument(
        "--bank-ms",
        type=_non_negative,
        metavar="MS",
        default=BANK_MS,
        help=f"time bank per game, drawn on beyond --decision-ms (default {BANK_MS})",
    )
    if faults:
        parser.add_argument(
            "--max-faults",
            type=_positive,
            metavar="N",
            default=MAX_FAULTS,
            help=f"faults after which a bot is dropped from the match (default {MAX_FAULTS})",
        )
    parser.add_argument(
        "--unsafe-no-sandbox",
        action="store_true",
        help="run bot programs as plain processes (only for code you trust)",
    )


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, got {value}")
    return value


# ----------------------------------------------------------------------------- nimmt match


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
            made.append((options, partial(_external_entrant)))
        elif path.is_dir():
            made.append((load(path).name, partial(_program_entrant, load(path), False, {})))
        elif house in HOUSE_BOTS:
            if in_process:
                make_bot(spec)  # check the options now
                made.append((spec, partial(_in_process_entrant, spec)))
            else:
                env = {"NIMMT_BOT_OPTIONS": options} if options else {}
                made.append((spec, partial(_program_entrant, house_program(house), True, env)))
        else:
            raise ManifestError(
                f"{spec!r} is neither a bot folder nor a house bot ({', '.join(HOUSE_BOTS)})"
            )
    names = entry_names([base for base, _ in made])
    return [factory(name) for name, (_, factory) in zip(names, made, strict=True)]


def _program_entrant(program: BotProgram, trusted: bool, env: dict[str, str], name: str) -> Entrant:
    from .match import Entrant

    return Entrant(name, program=program, trusted=trusted, env=env)


def _external_entrant(name: str) -> Entrant:
    from .match import Entrant

    return Entrant(name, external=True)


def _announce(name: str, address: str, token: str) -> None:
    print(
        f"waiting for the bot {name!r}: start it yourself (in a debugger, say) with\n"
        f"  .venv/bin/python bot.py --connect {address} --token {token}",
        file=sys.stderr,
        flush=True,
    )


def _in_process_entrant(spec: str, name: str) -> Entrant:
    from .match import Entrant

    return Entrant(name, in_process=partial(make_bot, spec))


def match_command(args: argparse.Namespace) -> int:
    """``nimmt match``."""
    from .match import MatchConfig, MatchError, run_match

    try:
        entrants = entrants_for(args.bots, in_process=args.in_process)
        get_variant(args.variant).check_players(len(entrants))
    except (ManifestError, NimmtError, ValueError) as exc:
        print(f"nimmt match: {exc}", file=sys.stderr)
        return 2
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
    )
    from arena.cli import Progress  # here: arena.cli imports this module

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
    print(f"replays, logs/ and match.json in {out}")
    return 0


def report(result: MatchResult) -> str:
    """The results table, then the sandbox and each bot's faults."""
    summary = result.summary
    higher = get_variant(summary["variant"]).higher_is_better
    games, seed = summary["games"], summary["seed"]
    lines = [
        f"{summary['variant']} · {len(summary['bots'])} players · {games} games · deal seeds "
        f"{seed}..{seed + games - 1} · {summary['duration_s']:.1f} s",
        format_table(result.table, higher_is_better=higher),
        "",
    ]
    sandbox = summary["sandbox"]
    if sandbox["layers"]:
        active = [name for name, on in sandbox["layers"].items() if on]
        missing = [name for name, on in sandbox["layers"].items() if not on]
        state = "on" if sandbox["enabled"] else "OFF"
        text = f"sandbox {state}: {', '.join(active) or 'no layers'}"
        if missing:
            text += f" (missing: {', '.join(missing)})"
        lines.append(text)
    if sandbox.get("note"):
        lines.append(f"note: {sandbox['note']}")
    for bot in summary["bots"]:
        faults = {k: v for k, v in bot["faults"].items() if v}
        if faults or bot["dropped"]:
            text = ", ".join(f"{v} {k}" for k, v in faults.items())
            lines.append(f"{bot['name']}: faults: {text or 'none'}")
            if bot["dropped"]:
                d = bot["dropped"]
                lines.append(f"  dropped in game {d['game'] + 1} ({d['kind']}): {d['detail']}")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- nimmt bot check


def check_command(args: argparse.Namespace) -> int:
    """``nimmt bot check``."""
    ok = check_bot(
        args.bot_dir,
        out=args.out,
        seed=args.seed,
        decision_ms=args.decision_ms,
        bank_ms=args.bank_ms,
        unsafe_no_sandbox=args.unsafe_no_sandbox,
    )
    return 0 if ok else 1


def check_bot(
    bot_dir: Path,
    *,
    out: Path | None = None,
    seed: int = 1,
    decision_ms: int = DECISION_MS,
    bank_ms: int = BANK_MS,
    unsafe_no_sandbox: bool = False,
    start_ms: int = START_MS,
    matches: Sequence[tuple[str, int, int]] = CHECK_MATCHES,
    stream: TextIO = sys.stdout,
) -> bool:
    """Check ``bot_dir`` as :func:`check_command` does, writing the explanation to ``stream``."""
    from .match import Entrant, MatchConfig, MatchError, run_match

    def say(text: str = "") -> None:
        print(text, file=stream, flush=True)

    try:
        program = load(bot_dir)
    except ManifestError as exc:
        say(f"FAIL manifest: {exc}")
        return False
    say(f"ok   manifest: {program.name!r} runs `{' '.join(program.command)}` in {bot_dir}")
    root = out or Path(tempfile.mkdtemp(prefix="nimmt-check-"))
    for variant, players, games in matches:
        entrants = [Entrant(program.name, program=program)] + [
            Entrant("random" if i == 1 else f"random#{i}", in_process=lambda: make_bot("random"))
            for i in range(1, players)
        ]
        config = MatchConfig(
            variant=variant,
            games=games,
            seed=seed,
            out=root / variant.replace("+", "-"),
            decision_ms=decision_ms,
            bank_ms=bank_ms,
            max_faults=MAX_FAULTS,
            start_ms=start_ms,
            unsafe_no_sandbox=unsafe_no_sandbox,
        )
        try:
            result = run_match(config, entrants)
        except MatchError as exc:
            say(f"FAIL sandbox: {exc}")
            return False
        bot = result.summary["bots"][0]
        problems = explain(bot, result)
        where = f"{variant}, {players} players, {games} games"
        if problems:
            say(f"FAIL {where}:")
            for problem in problems:
                say(f"     {problem}")
            if bot.get("log") and config.out is not None:
                log = config.out / bot["log"]
                say(f"     the bot's log: {log}")
                lines = log.read_text(errors="replace").splitlines() if log.is_file() else []
                if lines:
                    say(f"     its last {min(len(lines), LOG_LINES)} lines:")
                    for line in lines[-LOG_LINES:]:
                        say(f"     | {line}")
            return False
        think = bot["think_ms"]
        say(
            f"ok   {where}: {bot['answers']} answers, {think['mean'] or 0:.1f} ms on average, "
            f"slowest {think['max']:.0f} ms; started in {bot['start_ms'] or 0:.0f} ms"
        )
        if think["max"] > decision_ms / 2:
            say(
                f"note the slowest answer took {think['max']:.0f} ms of the {decision_ms} ms "
                "allowance: on a busy machine that may be a timeout"
            )
    sandbox = result.summary["sandbox"]
    if sandbox["enabled"]:
        say(
            "ok   ran in the sandbox ("
            + ", ".join(k for k, v in sandbox["layers"].items() if v)
            + ")"
        )
    else:
        say(f"note ran WITHOUT the sandbox: {sandbox.get('note', '')}")
    say(f"PASS {program.name} is ready for the arena (replays and logs in {root})")
    return True


def explain(bot: dict[str, Any], result: MatchResult) -> list[str]:
    """Plain-words problems of one bot in a match (empty if none)."""
    problems: list[str] = []
    seat_faults = [
        (i, f)
        for i, replay in enumerate(result.replays)
        for f in replay["result"]["faults"]
        if replay["players"][f["seat"]]["name"] == bot["name"]
    ]
    dropped = bot["dropped"]
    if dropped is not None and bot["answers"] == 0 and dropped["kind"] == "crash":
        detail = dropped["detail"]
        if "before saying hello" in detail:
            problems.append(f"crashed at start: it {detail}")
        elif "never said hello" in detail:
            problems.append(
                f"it {detail}. A bot must connect to the address in $NIMMT_ENGINE and send "
                "Hello with the token from $NIMMT_TOKEN (the bot kit's run(bot) does this)"
            )
        else:
            problems.append(f"crashed before its first answer: {detail}")
        return problems
    kinds = {
        "timeout": "answer(s) too late",
        "illegal": "illegal move(s)",
        "protocol": "message(s) the arena could not use",
        "crash": "crash(es)",
    }
    for kind, words in kinds.items():
        found = [
            (i, f)
            for i, f in seat_faults
            if f["kind"] == kind and "dropped from" not in f["detail"]
        ]
        if found:
            game, first = found[0]
            problems.append(
                f"{len(found)} {words}; the first in game {game + 1}, turn {first['turn'] + 1}: "
                f"{first['detail']}"
            )
    if dropped is not None and dropped["kind"] != "crash":  # a crash is reported above
        problems.append(
            f"dropped from the match in game {dropped['game'] + 1}: {dropped['detail']}"
        )
    return problems
