"""``nimmt play``: a series of games between house bots in this process, with the results table
and, with ``--out``, one replay per game and ``summary.json``.

The series' rules (deal seeds, seat rotation, bot seeds) are :mod:`arena.local`'s, so that a
game can be re-run alone and ``--jobs`` changes nothing.
"""

import argparse
import json
import re
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from arena.bots.registry import make_bot
from arena.engine import VARIANT_NAMES, variant
from arena.engine import replay as replays
from arena.engine.record import GameRecord, Series
from arena.local import bot_seed, play_game, series_game
from arena.stats import SeatedGame, entry_names, format_table, summarize_series

from .common import Progress, Subcommands, UsageError, at_least

#: ``format`` of the ``summary.json`` that ``nimmt play --out`` writes beside the replays.
SUMMARY_FORMAT = "nimmt-summary/1"
_REPLAY_NAME = re.compile(r"game-\d{5,}\.json(\.gz)?")


def add(commands: Subcommands) -> None:
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
        "--games", type=at_least(1), default=100, metavar="N", help="games (default 100)"
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
        type=at_least(1),
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
    for i, record in enumerate(_play_all(tasks, args.jobs)):
        game = series_game(args.seed, i, len(specs))
        result = record.result
        seated.append(SeatedGame(game.seats, result.scores, result.ranks))
        entry: dict[str, Any] = {
            "game": i + 1,
            "deal_seed": game.deal_seed,
            "seats": list(game.seats),
            "scores": list(result.scores),
            "ranks": list(result.ranks),
        }
        if out is not None:
            entry["file"] = f"game-{i + 1:05d}.json"
            replays.write(out / entry["file"], record)
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


def _play_one(task: tuple[str, tuple[str, ...], int, int]) -> GameRecord:
    """Game ``index`` of a series (module level, so worker processes can run it; its record
    comes back from them pickled)."""
    variant_name, specs, seed, index = task
    game = series_game(seed, index, len(specs))
    bots = [make_bot(specs[entry]) for entry in game.seats]
    names = [{"name": specs[entry], "entry": entry} for entry in game.seats]
    return play_game(
        variant_name,
        bots,
        game.deal_seed,
        [bot_seed(seed, index, seat) for seat in range(len(specs))],
        names,
        game_id=f"game-{index + 1:05d}",
        series=Series(seed, index + 1),
    )


def _play_all(
    tasks: list[tuple[str, tuple[str, ...], int, int]], jobs: int
) -> Iterator[GameRecord]:
    """The records in task order, from this process or from ``jobs`` worker processes."""
    if jobs <= 1 or len(tasks) <= 1:
        yield from map(_play_one, tasks)
        return
    import multiprocessing

    # Workers start from a fresh interpreter (forkserver), never as a fork of a process that may
    # run threads (gRPC's, an event loop's): such a fork can hang in the child. Ctrl-C reaches
    # the workers too; only this process handles it (the pool is terminated).
    context = multiprocessing.get_context("forkserver")
    with context.Pool(min(jobs, len(tasks)), initializer=_ignore_interrupts) as pool:
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
