"""The ``nimmt`` command line: play series between house bots, verify and show replays.

::

    nimmt play --variant basic --bots mcs,heuristic,random,random --games 200 --out runs/demo
    nimmt replay verify runs/demo
    nimmt replay show runs/demo/game-00001.json

Exit status: 0 on success, 1 when a replay does not verify or cannot be read, 2 on bad usage
(unknown variant or bot, wrong number of players, bad numbers). Errors are one line on stderr,
never a traceback.

Each subcommand is one ``_add_*`` function in :data:`COMMANDS` that adds its parser and sets
``handler``; ``nimmt match`` and ``nimmt bot check`` slot in the same way.
"""

import argparse
import json
import math
import os
import re
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO, TypeAlias

from arena import __version__
from arena.bots import make_bot
from arena.engine import VARIANT_NAMES, ReplayError, variant
from arena.engine import replay as replays
from arena.local import bot_seed, play_game, series_game
from arena.runner.commands import add_commands as _add_match_and_bot
from arena.stats import SeatedGame, entry_names, format_table, summarize_series

# Not subscriptable at run time, hence the string.
Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

#: ``format`` of the ``summary.json`` that ``nimmt play --out`` writes beside the replays.
SUMMARY_FORMAT = "nimmt-summary/1"
_REPLAY_NAME = re.compile(r"game-\d{5,}\.json(\.gz)?")


class UsageError(Exception):
    """Bad input on the command line: exit status 2, with the subcommand's usage."""


class Failure(Exception):
    """The command ran but could not do its job (an unreadable file...): exit status 1."""


# ---------------------------------------------------------------------------- nimmt play


def _add_play(commands: Subcommands) -> None:
    p = commands.add_parser(
        "play",
        help="play a series of games between house bots",
        description=(
            "Play a series of games between house bots and print each bot's mean score "
            "(95%% confidence interval), win rate and mean rank. Game i (0-based) is dealt "
            "from seed S+i; bot k of --bots sits at seat (k+i) mod players, so every bot "
            "plays every seat; each bot's own seed is derived from S, i and its seat. "
            "A shared first place counts as a win for every bot sharing it."
        ),
    )
    p.add_argument(
        "--variant",
        default="basic",
        choices=VARIANT_NAMES,
        help="the game to play (default: basic)",
    )
    p.add_argument(
        "--bots",
        required=True,
        type=_bot_list,
        metavar="BOT,BOT,...",
        help="one house bot per seat, e.g. mcs,heuristic,random,random (options: mcs:playouts=50)",
    )
    p.add_argument(
        "--games", type=_at_least(1), default=100, metavar="N", help="games (default 100)"
    )
    p.add_argument("--seed", type=int, default=1, metavar="S", help="series seed (default 1)")
    p.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="write game-00001.json ... (one replay per game) and summary.json into DIR",
    )
    p.add_argument(
        "--jobs",
        type=_at_least(1),
        default=1,
        metavar="J",
        help="games played in parallel processes (default 1; the results do not depend on it)",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(handler=run_play, parser=p)


def run_play(args: argparse.Namespace) -> int:
    specs: list[str] = args.bots
    rules = variant(args.variant)
    try:
        rules.check_players(len(specs))
    except ValueError as exc:
        raise UsageError(f"--bots: {exc}") from None
    for spec in specs:
        try:
            make_bot(spec)
        except ValueError as exc:
            raise UsageError(f"--bots: {exc}") from None
    out: Path | None = args.out
    if out is not None:
        _prepare_out(out)

    names = entry_names(specs)
    tasks = [(args.variant, tuple(specs), args.seed, i) for i in range(args.games)]
    seated: list[SeatedGame] = []
    listing: list[dict[str, Any]] = []
    progress = Progress(args.games, quiet=args.quiet)
    started = time.monotonic()
    for i, replay in enumerate(_play_all(tasks, args.jobs)):
        game = series_game(args.seed, i, len(specs))
        result = replay["result"]
        seated.append(SeatedGame(game.seats, tuple(result["scores"]), tuple(result["ranks"])))
        entry = {
            "game": i + 1,
            "deal_seed": game.deal_seed,
            "seats": list(game.seats),
            "scores": result["scores"],
            "ranks": result["ranks"],
        }
        if out is not None:
            entry["file"] = f"game-{i + 1:05d}.json"
            replays.write(out / entry["file"], replay)
        listing.append(entry)
        progress.update(i + 1)
    progress.close()
    seconds = time.monotonic() - started

    table = summarize_series(names, seated)
    last_seed = args.seed + args.games - 1
    print(
        f"{args.variant} · {len(specs)} players · {args.games} games · "
        f"deal seeds {args.seed}..{last_seed} · {seconds:.1f} s"
    )
    print(format_table(table, rules.higher_is_better))
    if out is not None:
        summary = {
            "format": SUMMARY_FORMAT,
            "variant": args.variant,
            "bots": specs,
            "names": names,
            "games": args.games,
            "seed": args.seed,
            "rules": {
                "deal_seed": "game i (0-based) is dealt from seed + i",
                "seats": "bot k of 'bots' sits at seat (k + i) mod players",
                "bot_seed": "arena.local.bot_seed(seed, i, seat)",
                "wins": "rank 1; a shared first place counts as a win for each",
            },
            "higher_is_better": rules.higher_is_better,
            "table": [row.to_dict() for row in table],
            "results": listing,
        }
        (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
        print(f"replays and summary.json in {out}")
    return 0


def _play_one(task: tuple[str, tuple[str, ...], int, int]) -> dict[str, Any]:
    """Game ``index`` of a series (module level, so worker processes can run it)."""
    variant_name, specs, seed, index = task
    game = series_game(seed, index, len(specs))
    bots = [make_bot(specs[entry]) for entry in game.seats]
    names = [{"name": specs[entry], "entry": entry} for entry in game.seats]
    replay = play_game(
        variant_name,
        bots,
        game.deal_seed,
        [bot_seed(seed, index, seat) for seat in range(len(specs))],
        names,
        game_id=f"game-{index + 1:05d}",
    )
    replay["series"] = {"seed": seed, "game": index + 1}
    return replay


def _play_all(
    tasks: list[tuple[str, tuple[str, ...], int, int]], jobs: int
) -> Iterator[dict[str, Any]]:
    """The replays in task order, from this process or from ``jobs`` worker processes."""
    if jobs <= 1 or len(tasks) <= 1:
        yield from map(_play_one, tasks)
        return
    import multiprocessing

    # Ctrl-C reaches the workers too; only this process handles it (the pool is terminated).
    with multiprocessing.Pool(min(jobs, len(tasks)), initializer=_ignore_interrupts) as pool:
        yield from pool.imap(_play_one, tasks, chunksize=1)


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _prepare_out(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} exists and is not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
        # Replays of an earlier, longer run would be mistaken for this run's.
        stale = [p for p in out.iterdir() if _REPLAY_NAME.fullmatch(p.name)]
        for path in stale:
            path.unlink()
    except OSError as exc:
        raise UsageError(f"--out {out}: {exc.strerror or exc}") from None
    if stale:
        print(f"removed {len(stale)} replays of an earlier run from {out}", file=sys.stderr)


def _bot_list(text: str) -> list[str]:
    specs = [s.strip() for s in text.split(",")]
    if not all(specs):
        raise argparse.ArgumentTypeError(f"expected bot names separated by commas, got {text!r}")
    return specs


def _at_least(low: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        return value

    return parse


class Progress:
    """Progress of a series on stderr: a redrawn bar on a terminal, else a line every tenth."""

    def __init__(self, total: int, stream: TextIO | None = None, quiet: bool = False) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.quiet = quiet
        self.tty = self.stream.isatty()
        self.started = time.monotonic()
        self._drawn = 0.0
        self._step = max(1, math.ceil(total / 10))

    def update(self, done: int) -> None:
        if self.quiet:
            return
        elapsed = time.monotonic() - self.started
        if not self.tty:
            if done % self._step == 0 or done == self.total:
                self.stream.write(f"{done}/{self.total} games, {elapsed:.1f} s\n")
                self.stream.flush()
            return
        now = time.monotonic()
        if now - self._drawn < 0.1 and done < self.total:
            return
        self._drawn = now
        width = 30
        filled = width * done // self.total
        eta = elapsed / done * (self.total - done) if done else 0.0
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} games"
            f"  {elapsed:.0f} s, {eta:.0f} s left "
        )
        self.stream.flush()

    def close(self) -> None:
        if self.tty and not self.quiet:
            self.stream.write("\n")
            self.stream.flush()


# ---------------------------------------------------------------------------- nimmt replay


def _add_replay(commands: Subcommands) -> None:
    p = commands.add_parser("replay", help="verify or show replay files (nimmt-replay/1)")
    sub = p.add_subparsers(dest="replay_command", metavar="ACTION", required=True)

    v = sub.add_parser(
        "verify",
        help="re-simulate replays and report every disagreement",
        description=(
            "Re-simulate each replay with the rules engine. A folder means every *.json and "
            "*.json.gz below it (a summary.json written by 'nimmt play' is skipped). "
            "Exit status 1 if any replay disagrees or cannot be read."
        ),
    )
    v.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    v.set_defaults(handler=run_verify, parser=v)

    s = sub.add_parser("show", help="print a game turn by turn")
    s.add_argument("path", metavar="FILE")
    s.set_defaults(handler=run_show, parser=s)


def run_verify(args: argparse.Namespace) -> int:
    ok = mismatched = unreadable = skipped = 0
    for target in map(Path, args.paths):
        if not target.exists():
            print(f"UNREADABLE {target}: no such file or folder")
            unreadable += 1
            continue
        files = list(replays.iter_files(target))
        if not files:
            print(f"UNREADABLE {target}: no replay files (*.json, *.json.gz) in this folder")
            unreadable += 1
            continue
        for path in files:
            try:
                data = replays.read(path)
            except ReplayError as exc:
                if target.is_dir() and _other_nimmt_format(path):
                    skipped += 1
                    continue
                print(f"UNREADABLE {path}: {_strip_path(str(exc), path)}")
                unreadable += 1
                continue
            problems = _check(data)
            if problems:
                print(f"MISMATCH {path}")
                for problem in problems:
                    print(f"  {problem}")
                mismatched += 1
            else:
                print(f"OK {path}")
                ok += 1
    total = ok + mismatched + unreadable
    line = f"{total} replays: {ok} ok, {mismatched} mismatched, {unreadable} unreadable"
    print(line + (f" ({skipped} other files skipped)" if skipped else ""))
    return 1 if mismatched or unreadable else 0


def _check(data: dict[str, Any]) -> list[str]:
    """The verification problems of one replay; a replay that cannot even be re-simulated
    (its setup is inconsistent, a value has the wrong type...) is one problem, not a crash."""
    try:
        return replays.verify(data)
    except Exception as exc:  # one broken file must not stop the check of the others
        return [f"cannot re-simulate: {exc} ({type(exc).__name__})"]


def _other_nimmt_format(path: Path) -> bool:
    """True for a file of this project that is not a replay (``summary.json``)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("format") == SUMMARY_FORMAT


def _strip_path(message: str, path: Path) -> str:
    prefix = f"{path}: "
    return message[len(prefix) :] if message.startswith(prefix) else message


def run_show(args: argparse.Namespace) -> int:
    path = Path(args.path)
    if path.is_dir():
        raise UsageError(f"{path} is a folder; show takes one replay file")
    try:
        data = replays.read(path)
        lines = list(replays.render(data))
    except ReplayError as exc:
        raise Failure(str(exc)) from None
    except Exception as exc:  # a replay too broken to re-play
        raise Failure(f"{path}: cannot show this replay: {exc} ({type(exc).__name__})") from None
    for line in lines:
        print(line)
    return 0


# ---------------------------------------------------------------------------- the parser

#: Subcommands in the order ``nimmt --help`` lists them.
COMMANDS: tuple[Callable[[Subcommands], None], ...] = (_add_play, _add_replay, _add_match_and_bot)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nimmt",
        description="Nimmt Arena: play 6 nimmt! Brettspiel between bots, check and show replays.",
    )
    parser.add_argument("--version", action="version", version=f"nimmt-arena {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add in COMMANDS:
        add(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``nimmt`` with ``argv`` (default: the process's arguments); return the exit status."""
    parser = build_parser()
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
