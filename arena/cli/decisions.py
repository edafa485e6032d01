"""``nimmt replay decisions FILE --seat S BOT_DIR``: re-ask a bot every recorded decision of one
seat of a replay, in the sandbox (:mod:`arena.runner.recheck`), and list where it now answers
differently. Exit status 1 if any answer differs (or the bot stopped answering): a regression
test for bot authors.
"""

import argparse
import asyncio
from pathlib import Path

from arena.engine import ReplayError
from arena.engine import replay as replays
from arena.runner.lineup import MatchError
from arena.runner.manifest import ManifestError, load
from arena.runner.recheck import recheck, summary
from arena.runner.rules import MatchConfig

from .common import Failure, Subcommands, UsageError, at_least
from .match import add_rules


def add(replay_commands: Subcommands) -> None:
    d = replay_commands.add_parser(
        "decisions",
        help="re-ask a bot every recorded decision of a seat and list where it now differs",
        description=(
            "Start BOT_DIR the way a match does (its build, the sandbox) and ask it every "
            "decision seat S took in FILE, each in the view the seat had then, with the same "
            "seat, names and bot seed; list the decisions where its answer now differs from "
            "the recorded one. Exit status 1 if any differs or the bot stops answering."
        ),
    )
    d.add_argument("path", metavar="FILE")
    d.add_argument("bot_dir", type=Path, metavar="BOT_DIR")
    d.add_argument("--seat", type=at_least(0), required=True, metavar="S", help="0-based")
    add_rules(d, faults=False)
    d.set_defaults(handler=run_decisions, parser=d)


def run_decisions(args: argparse.Namespace) -> int:
    path = Path(args.path)
    if path.is_dir():
        raise UsageError(f"{path} is a folder; decisions takes one replay file")
    try:
        program = load(args.bot_dir)
    except ManifestError as exc:
        raise UsageError(str(exc)) from None
    try:
        data = replays.read(path)
    except ReplayError as exc:
        raise Failure(str(exc)) from None
    players = len(data.players)
    if args.seat >= players:
        raise UsageError(f"--seat {args.seat}: this game has seats 0 to {players - 1}")
    config = MatchConfig(
        variant=data.variant,
        games=1,
        seed=data.seed,
        decision_ms=args.decision_ms,
        bank_ms=args.bank_ms,
        unsafe_no_sandbox=args.unsafe_no_sandbox,
    )
    print(f"re-asking {program.name} ({args.bot_dir}) the decisions of seat {args.seat} in {path}")
    try:
        check = asyncio.run(recheck(data, args.seat, program, config))
    except (ReplayError, MatchError) as exc:
        raise Failure(str(exc)) from None
    faulted = sorted({f.turn + 1 for f in data.result.faults if f.seat == args.seat})
    if faulted:
        turns = ", ".join(map(str, faulted))
        print(
            f"seat {args.seat} had faults in turn {turns}: there (and after a drop) the arena "
            "played its default decisions, which the bot may well not repeat"
        )
    for answer in check.answers:
        if not answer.differs and not answer.problem:
            continue
        now = "nothing" if answer.decision is None else str(answer.decision)
        line = (
            f"turn {answer.recorded.turn}, {answer.recorded.kind.value}: "
            f"recorded {answer.recorded.decision}, now {now}"
        )
        print(line + (f" ({answer.problem})" if answer.problem else ""))
    print(summary(check))
    return 1 if check.differing or check.lost else 0
