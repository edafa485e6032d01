"""Decision analysis speed: wall time to analyse one seat of one game, per variant.

    python benchmarks/analysis.py [--games N] [--samples S] [--players P] [--policy house]

For every variant it plays ``N`` games of ``heuristic`` bots at ``P`` players, analyses seat 0
of each with :func:`arena.analysis.analyse` at ``S`` samples per decision (the site's default,
``NIMMT_ANALYSIS_SAMPLES``, is 200) and prints the decisions per game and the seconds per game
(mean and maximum), and the mean 95% half-width of the decisions' costs. The load average is
printed first: other work on the machine slows everything down.
"""

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.analysis import POLICIES, analyse
from arena.bots.heuristic import HeuristicBot
from arena.engine import VARIANT_NAMES
from arena.local import play_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--policy", choices=POLICIES, default="house")
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{args.samples} samples per decision, policy {args.policy}, {args.players} players")
    print(f"{'variant':12} {'games':>5} {'decisions':>9} {'s/game':>8} {'max s':>7} {'cost ±':>7}")
    for name in VARIANT_NAMES:
        times, decisions, halves = [], [], []
        for g in range(args.games):
            record = play_game(
                name,
                [HeuristicBot() for _ in range(args.players)],
                seed=1000 + g,
                bot_seeds=[g * 10 + k for k in range(args.players)],
                names=[f"h{k}" for k in range(args.players)],
            )
            result = analyse(record, 0, samples=args.samples, seed=g, policy=args.policy)
            times.append(result.seconds)
            decisions.append(len(result.decisions))
            halves += [d.cost_half for d in result.decisions]
        print(
            f"{name:12} {args.games:5d} {statistics.mean(decisions):9.1f} "
            f"{statistics.mean(times):8.2f} {max(times):7.2f} {statistics.mean(halves):7.2f}"
        )


if __name__ == "__main__":
    main()
