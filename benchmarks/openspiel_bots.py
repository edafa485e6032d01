"""OpenSpiel's own information-set MCTS bot against the house bot ``heuristic`` in the card
game, played through the ``python_nimmt`` registration (:mod:`arena.env.openspiel`).

    python benchmarks/openspiel_bots.py [--deals N] [--players P] [--simulations S] [--seed K]

Duplicate deals: deal ``K + i`` is played twice with the seat ``i mod P`` taken once by
OpenSpiel's ``ISMCTSBot`` (random rollouts, ``S`` simulations a decision, worlds drawn by
:func:`arena.env.openspiel.resample_classic`) and once by ``heuristic``; every other seat is
``heuristic`` both times. The paired difference is that seat's penalty with ISMCTS minus with
``heuristic`` (negative: ISMCTS took fewer bullheads), with its 95% interval. Printed, never
asserted. CPU time is the process's (``time.process_time``).
"""

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pyspiel

from arena.bots.base import GameInfo
from arena.bots.registry import make_bot
from arena.env import openspiel


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--uct-c", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = pyspiel.convert_to_turn_based(
        pyspiel.load_game("python_nimmt", {"variant": "classic", "players": args.players})
    )
    diffs: list[float] = []
    cpu = {"ismcts": 0.0, "heuristic": 0.0}
    print(
        f"classic, {args.players} players, ISMCTS {args.simulations} simulations "
        f"(uct_c {args.uct_c}) against heuristic, {args.deals} duplicate deals"
    )
    for i in range(args.deals):
        seed, seat = args.seed + i, i % args.players
        penalties = {}
        for who in ("ismcts", "heuristic"):
            deciders = []
            for s in range(args.players):
                if who == "ismcts" and s == seat:
                    bot = openspiel.ismcts_bot(game, args.simulations, seed, args.uct_c)
                    deciders.append(openspiel.ismcts_decider(bot))
                else:
                    house = make_bot("heuristic")
                    house.start_game(GameInfo("classic", args.players, s, seed * 100 + s))
                    deciders.append(openspiel.bot_decider(house))
            started = time.process_time()
            returns = openspiel.play_turn_based(game, seed, deciders)
            cpu[who] += time.process_time() - started
            penalties[who] = -returns[seat]
        diffs.append(penalties["ismcts"] - penalties["heuristic"])
        mean = statistics.fmean(diffs)
        half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0
        print(
            f"deal {seed} seat {seat}: ismcts {penalties['ismcts']:3.0f} "
            f"heuristic {penalties['heuristic']:3.0f}  running {mean:+.2f} ± {half:.2f}",
            flush=True,
        )
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    print(
        f"ISMCTS minus heuristic, penalty per game: {mean:+.2f} ± {half:.2f} (95%, "
        f"{len(diffs)} deals); CPU {cpu['ismcts']:.0f} s vs {cpu['heuristic']:.0f} s"
    )


if __name__ == "__main__":
    main()
