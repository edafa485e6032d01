"""Bot strength: mean score with a 95% interval per bot over many four-player games.

    python benchmarks/strength.py [--games N] [--variants basic,classic] [--jobs J]
                                  [--bots mcs,heuristic,random,random] [--seed S]

Per variant it plays ``N`` games of the lineup (by default mcs, heuristic and two random bots),
seats rotated from game to game, and prints each bot's mean score with its 95% confidence
interval (normal approximation, :mod:`arena.stats`), then whether the intervals of the lineup's
distinct bots are ordered without overlap as listed (for the default lineup: mcs above
heuristic above random; in the card game "above" means fewer penalty points). Games are seeded
as a series of :mod:`arena.local`, so a run is reproducible and ``--jobs`` changes nothing but
the time it takes.
"""

import argparse
import math
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.bots.registry import make_bot
from arena.engine.variants import variant as get_variant
from arena.local import play_game, series_game
from arena.stats import (
    BotSummary,
    SeatedGame,
    entry_names,
    format_table,
    summarize_series,
)

DEFAULT_BOTS = "mcs,heuristic,random,random"


def one_game(variant: str, specs: Sequence[str], seed: int, index: int) -> SeatedGame:
    """Game ``index`` of the series: the lineup seated by rotation, each bot seeded."""
    game = series_game(seed, index, len(specs))
    bots = [make_bot(specs[entry]) for entry in game.seats]
    names = [specs[entry] for entry in game.seats]
    replay = play_game(variant, bots, game.deal_seed, game.bot_seeds(seed), names)
    result = replay["result"]
    return SeatedGame(game.seats, tuple(result["scores"]), tuple(result["ranks"]))


def _one_game(job: tuple[str, tuple[str, ...], int, int]) -> SeatedGame:
    return one_game(*job)


def series(
    variant: str, specs: Sequence[str], games: int, seed: int, jobs: int
) -> list[SeatedGame]:
    work = [(variant, tuple(specs), seed, i) for i in range(games)]
    if jobs <= 1:
        return [_one_game(w) for w in work]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(_one_game, work, chunksize=4))


def ordered(rows: Sequence[BotSummary], higher_is_better: bool) -> bool:
    """Do the intervals of the distinct bots, in lineup order, lie strictly one above the next?"""
    distinct: list[BotSummary] = []
    for row in rows:
        if row.name.split("#")[0] not in [d.name.split("#")[0] for d in distinct]:
            distinct.append(row)
    sign = 1 if higher_is_better else -1
    for better, worse in pairwise(distinct):
        if math.isnan(better.ci95) or math.isnan(worse.ci95):
            return False
        low = sign * better.mean_score - better.ci95
        high = sign * worse.mean_score + worse.ci95
        if low <= high:
            return False
    return True


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per variant (2000)")
    parser.add_argument("--variants", default="basic,classic", help="comma-separated")
    parser.add_argument("--bots", default=DEFAULT_BOTS, help=f"lineup ({DEFAULT_BOTS})")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    parser.add_argument("--seed", type=int, default=1, help="series seed (1)")
    args = parser.parse_args(argv)
    specs = [s.strip() for s in args.bots.split(",")]
    names = entry_names(specs)
    for name in args.variants.split(","):
        v = get_variant(name)
        start = time.perf_counter()
        games = series(name, specs, args.games, args.seed, args.jobs)
        rows = summarize_series(names, games)
        elapsed = time.perf_counter() - start
        print(f"\n{name}: {args.games} games, {len(specs)} players, {elapsed:.0f} s")
        print(format_table(rows, v.higher_is_better))
        verdict = "yes" if ordered(rows, v.higher_is_better) else "no"
        print(f"intervals ordered as listed without overlap: {verdict}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
