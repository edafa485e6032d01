"""Engine speed: random games per second in one process, and the mcs bot's time per decision.

    python benchmarks/engine.py [--seconds S] [--mcs-games N]

For every variant at 2, 4 and 6 players (the card game also at 10) it plays uniformly random
games for ``S`` seconds each way and prints games per second:

- **lean**: :func:`arena.engine.playout.random_game_scores` (deal and play on the lean path);
- **API**: :meth:`Game.new` and ``game.apply(seat, rng.choice(game.legal(seat)))`` to the end.

Then the ``mcs`` bot at its default budget plays ``N`` four-player games per variant against
random bots, and the wall-clock time of each of its decisions is summed up (mean, 95th
percentile, maximum). The load average is printed first: other work on the machine slows
everything down.
"""

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.bots.base import GameInfo
from arena.bots.registry import make_bot
from arena.engine import VARIANT_NAMES, Game
from arena.engine.observation import observe
from arena.engine.playout import random_game_scores

#: The issue's targets, in games per second of the lean path at four players.
TARGETS = {"basic": 15_000, "classic": 25_000}


def rate(play: Callable[[], object], seconds: float) -> float:
    """Games per second of ``play`` over about ``seconds`` (after a short warm-up)."""
    for _ in range(3):
        play()
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(10):
            play()
        games += 10
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - start)


def api_game(variant: str, players: int, rng: random.Random) -> None:
    game = Game.new(variant, players, rng.getrandbits(32))
    while (pending := game.pending) is not None:
        for seat in pending.seats:
            game.apply(seat, rng.choice(game.legal(seat)))


def player_counts(variant: str) -> tuple[int, ...]:
    return (2, 4, 6, 10) if variant == "classic" else (2, 4, 6)


def speed_table(seconds: float) -> None:
    print(f"{'variant':<11} {'players':>7} {'lean games/s':>13} {'API games/s':>12} {'ratio':>6}")
    rng = random.Random(1)
    for variant in VARIANT_NAMES:
        for players in player_counts(variant):
            lean = rate(partial(random_game_scores, variant, players, rng), seconds)
            api = rate(partial(api_game, variant, players, rng), seconds)
            target = TARGETS.get(variant) if players == 4 else None
            note = f"  (target {target:,})" if target else ""
            print(
                f"{variant:<11} {players:>7} {lean:>13,.0f} {api:>12,.0f} {lean / api:>5.1f}x{note}"
            )


def mcs_times(variant: str, games: int, spec: str) -> dict[str, list[float]]:
    """Milliseconds per mcs decision, by decision kind, over ``games`` games vs random bots."""
    times: dict[str, list[float]] = {}
    for seed in range(games):
        game = Game.new(variant, 4, 1000 + seed)
        seat_of_mcs = seed % 4
        bots = [make_bot(spec if s == seat_of_mcs else "random") for s in range(4)]
        for s, bot in enumerate(bots):
            bot.start_game(GameInfo(variant, 4, s, seed * 10 + s))
        while (pending := game.pending) is not None:
            for view in [observe(game, s) for s in pending.seats]:
                start = time.perf_counter()
                decision = bots[view.seat].decide(view)
                elapsed = (time.perf_counter() - start) * 1000
                if view.seat == seat_of_mcs:
                    times.setdefault(pending.kind.value, []).append(elapsed)
                game.apply(view.seat, decision)
    return times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def mcs_table(games: int, spec: str) -> None:
    print(f"\n{spec} (default budget) vs 3 random bots, {games} games per variant, 4 players")
    print(
        f"{'variant':<11} {'decision':<9} {'count':>6} {'mean ms':>8} {'p95 ms':>7} {'max ms':>7}"
    )
    for variant in VARIANT_NAMES:
        times = mcs_times(variant, games, spec)
        every = [t for ts in times.values() for t in ts]
        for kind, ts in [*sorted(times.items()), ("all", every)]:
            print(
                f"{variant:<11} {kind:<9} {len(ts):>6} {statistics.mean(ts):>8.1f} "
                f"{percentile(ts, 0.95):>7.1f} {max(ts):>7.1f}"
            )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="per measurement (1.0)")
    parser.add_argument("--mcs-games", type=int, default=4, help="games per variant (4)")
    parser.add_argument("--mcs", default="mcs", help="the bot spec to time (mcs)")
    parser.add_argument("--skip-speed", action="store_true", help="only time the mcs bot")
    args = parser.parse_args(argv)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load}\n")
    if not args.skip_speed:
        speed_table(args.seconds)
    if args.mcs_games > 0:
        mcs_table(args.mcs_games, args.mcs)


if __name__ == "__main__":
    main()
