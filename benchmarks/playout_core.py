"""The compiled core against the Game backend, on the search bots' playouts.

    python benchmarks/playout_core.py [--seconds S] [--players N]

For every variant it collects the decisions of a few random games at ``N`` players (4), and
for each decision a position sampled from the deciding seat's view, as the ``mcs`` and
``search`` bots sample them (:class:`arena.engine.sampling.Sampler`). Then it times the bots'
call, ``Position.playouts`` over the legal options (to the end of the game, as both bots play
them by default, and as many rounds per call as they play per sample), on the compiled core
and on the backend that plays where the core did not build (the same random play through the
``Game``; every ``GAME_STRIDE``-th position only, it is that much slower), in alternation (a
block on one, a block on the other, over and over, so that load from other work hits both
alike) for about ``S`` seconds per variant in all, on this process's CPU clock, and prints
microseconds per playout on each and the ratio, over all blocks and for each backend's fastest
block (the least disturbed by other work, as ``timeit`` advises). "classic rule" times the
card game's rule rollouts (:mod:`arena.bots.rollouts`) that ``search`` plays for its tile
choices. Both backends play the same rules (``tests/test_playout_core.py`` checks the core's
games against the Game's).
"""

import argparse
import math
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.bots.mcs import PER_SAMPLE
from arena.bots.rollouts import classic_playouts
from arena.engine import VARIANT_NAMES, Game
from arena.engine import playout as lean
from arena.engine.decisions import Decision, PlayTile
from arena.engine.observation import observe
from arena.engine.playout import CORE, Position
from arena.engine.sampling import Sampler

Job = tuple[Position, int, list[Decision], int]
#: The Game backend plays every this-many-th position of the work.
GAME_STRIDE = 25
BACKENDS = ("game", "compiled")


def jobs(variant: str, players: int, games: int = 4) -> list[Job]:
    """(sampled position, seat, legal options, turns) at every decision of ``games`` games."""
    rng = random.Random(11)
    found: list[Job] = []
    for seed in range(games):
        game = Game.new(variant, players, 500 + seed)
        while (pending := game.pending) is not None:
            seat = pending.seats[0]
            legal = game.legal(seat)
            if len(legal) > 1:
                pos = Sampler(observe(game, seat)).position(rng)
                found.append((pos, seat, legal, 0))  # the bots play to the end
            game.apply(seat, rng.choice(legal))
    return found


def block(backend: str, work: list[Job], seed: int, rule: bool) -> tuple[float, int]:
    """Seconds and playouts of one pass over ``work`` on ``backend`` (``rule``: the card
    game's rule rollouts, as ``search`` plays its tile choices)."""
    core = CORE if backend == "compiled" else None
    lean.CORE = core  # type: ignore[assignment]  # None: the Game plays
    rng = random.Random(seed)
    playouts = 0
    start = time.process_time()
    for pos, seat, legal, turns in work if core else work[::GAME_STRIDE]:
        reps = -(-PER_SAMPLE // len(legal))  # as the bots batch a sample's rounds
        if rule:
            for _ in range(reps):
                classic_playouts(pos, rng, seat, legal)
        else:
            pos.playouts(rng, seat, legal, turns, repeat=reps)
        playouts += len(legal) * reps
    return time.process_time() - start, playouts


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="per variant (6)")
    parser.add_argument("--players", type=int, default=4, help="players (4)")
    args = parser.parse_args(argv)
    if CORE is None:
        sys.exit(f"the compiled core does not play here: {lean.BACKEND_NOTE}")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load}")
    print(f"{args.players} players; Position.playouts over the legal options, in alternation")
    print(f"(CPU clock; the Game backend plays every {GAME_STRIDE}th position)\n")
    print(f"{'':<23} {'mean over all blocks':^33} {'best block':^27}")
    print(
        f"{'variant':<13} {'playouts':>9} {'Game us':>10} {'compiled us':>12} {'speed-up':>9} "
        f"{'Game':>8} {'compiled':>8} {'speed-up':>9}"
    )
    for variant, rule in [*((v, False) for v in VARIANT_NAMES), ("classic", True)]:
        lean.CORE = CORE  # positions are made with the core's tables
        work = jobs(variant, args.players)
        if rule:  # tile choices only
            work = [job for job in work if isinstance(job[2][0], PlayTile)]
        spent = dict.fromkeys(BACKENDS, 0.0)
        done = dict.fromkeys(BACKENDS, 0)
        best = dict.fromkeys(BACKENDS, math.inf)
        rounds = 0
        start = time.process_time()
        while time.process_time() - start < args.seconds or rounds < 2:
            for backend in BACKENDS if rounds % 2 else BACKENDS[::-1]:
                seconds, playouts = block(backend, work, rounds, rule)
                spent[backend] += seconds
                done[backend] += playouts
                best[backend] = min(best[backend], seconds / playouts * 1e6)
            rounds += 1
        mean = {b: spent[b] / done[b] * 1e6 for b in spent}
        label = variant + (" rule" if rule else "")
        print(
            f"{label:<13} {done['compiled']:>9,} {mean['game']:>10.1f} {mean['compiled']:>12.2f} "
            f"{mean['game'] / mean['compiled']:>8.0f}x {best['game']:>8.1f} "
            f"{best['compiled']:>8.2f} {best['game'] / best['compiled']:>8.0f}x"
        )
    lean.CORE = CORE


if __name__ == "__main__":
    main()
