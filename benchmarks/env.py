"""Environment speed: steps per second of arena.env with random legal actions.

    python benchmarks/env.py [--seconds S] [--players N] [--games G]

For every variant at ``N`` players (default 4) it plays games for ``S`` seconds of CPU each way,
every action drawn uniformly from the mask, and prints steps (decisions) per CPU second:

- **engine**: ``game.apply(seat, rng.choice(game.legal(seat)))`` on the readable ``Game``;
- **core** (the card game): the bare loop over the compiled core the environments step
  (:class:`arena.env.core.ClassicTables`, one table: a seat's mask, then the step), with the
  same actions as the AEC env (the same generator, the same choice from the same masks);
- **AEC**: ``env.last()`` (vector and mask of the selected agent) then ``env.step(action)``;
- **parallel**: one ``env.step(actions)`` per decision point; its figure counts decisions, so
  the simultaneous tile choice of four seats is four;
- **seat**: :class:`arena.env.SeatEnv` against ``random`` bots (the learner's decisions only);
- **vector** (the card game): :class:`arena.env.VectorEnv` with ``G`` games (default 1,024,
  ``copy=False``), every seat's random legal action drawn by the core's batched random policy;
  counted in decisions as the parallel env.

Then the ratios the environment issue asks for: AEC / core and vector / AEC.

Measured in one run on the shared 2-core development machine under a load average of 4.8
(other work running; ``nice -n 10``, ``--seconds 3``), steps per CPU second:

=========== ======== ======== ======== ========= ======== =========
variant     engine   core     AEC      parallel  seat     AEC/core
=========== ======== ======== ======== ========= ======== =========
basic       123543   -        13919    12537     6876     -
basic+luck  67486    -        12195    8096      6074     -
pro         97729    -        12570    9824      6630     -
pro+luck    66222    -        11497    7674      5663     -
classic     137149   176850   102903   89712     8063     0.58
=========== ======== ======== ======== ========= ======== =========

The card game's AEC env: **0.58x** the bare core loop and 103,000 steps/s (before it stepped the
core: 0.08-0.13x, about 5,500). The vector env with 1,024 card games: 2,320,000 decisions/s,
**22.5x** the AEC env (22.4x in a second run a minute later). A step writes only the entries
of each vector that changed (before, every seat's whole vector: 9.6x); what changes alike for
every seat of a table is worked out once a table, and the lines of the next seat's vector are
fetched while this one's are written (before those two: 16.5x to 17.8x; in six alternated
runs of the two builds, the one before them made 0.87x the decisions per second of this one).
"""

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.engine import VARIANT_NAMES, Game
from arena.env import SeatEnv, VectorEnv, env, parallel_env
from arena.env.actions import BLOCKS
from arena.env.core import ClassicTables, core_available


def rate(play_one: Callable[[], int], seconds: float) -> float:
    """Steps per CPU second of repeated ``play_one`` (one game, returning its step count)."""
    play_one()
    steps = 0
    start = time.process_time()
    while (now := time.process_time()) - start < seconds:
        steps += play_one()
    return steps / (now - start)


def choose(mask: np.ndarray, rng: random.Random) -> int:
    return rng.choice(np.flatnonzero(mask).tolist())


def engine_game(variant: str, players: int, rng: random.Random) -> int:
    game = Game.new(variant, players, rng.getrandbits(32))
    steps = 0
    while (pending := game.pending) is not None:
        for seat in pending.seats:
            game.apply(seat, rng.choice(game.legal(seat)))
            steps += 1
    return steps


def core_game(variant: str, players: int, rng: random.Random) -> int:
    """The AEC env's game, its seats answering one after the other, on the bare core."""
    tables = ClassicTables(players, 1)
    tables.deal(np.array([rng.getrandbits(32)], np.uint64))
    asked = partial(tables._core.classic_asked, tables.buffer, 0)
    actions = np.full((1, players), -1, np.int64)
    steps = 0
    while seats := asked():
        seat = seats[0]
        actions[0, seat] = choose(tables.masks(seat)[0], rng)
        tables.step(actions)
        actions[0, seat] = -1
        steps += 1
    return steps


def aec_game(variant: str, players: int, rng: random.Random) -> int:
    e = env(variant, players, seed=rng.getrandbits(32))
    e.reset()
    steps = 0
    for _ in e.agent_iter():
        observation, _, terminated, _, _ = e.last()
        if terminated:
            e.step(None)
            continue
        e.step(choose(observation["action_mask"], rng))
        steps += 1
    return steps


def parallel_game(variant: str, players: int, rng: random.Random) -> int:
    e = parallel_env(variant, players, seed=rng.getrandbits(32))
    observations, _ = e.reset()
    steps = 0
    while e.agents:
        steps += sum(1 for o in observations.values() if not o["action_mask"][0])
        actions = {a: choose(o["action_mask"], rng) for a, o in observations.items()}
        observations, *_ = e.step(actions)
    return steps


def seat_game(variant: str, players: int, rng: random.Random) -> int:
    e = SeatEnv(variant, ["random"] * (players - 1), seed=rng.getrandbits(32))
    observation, _ = e.reset()
    steps, terminated = 0, False
    while not terminated:
        observation, _, terminated, _, _ = e.step(choose(observation["action_mask"], rng))
        steps += 1
    return steps


def vector_rate(players: int, games: int, seconds: float) -> float:
    """Decisions per CPU second of :class:`VectorEnv` with ``games`` card games."""
    from arena.bots import _policies

    e = VectorEnv("classic", players, games, seed=1, copy=False)
    e.reset()
    tables = e.tables
    assert isinstance(tables, ClassicTables)
    gen = np.zeros(1, np.uint64)
    actions = np.zeros((games, players), np.int64)
    take_row = BLOCKS["take_row"].start
    decisions = 0
    start = time.process_time()
    while (now := time.process_time()) - start < seconds:
        phase, _ = tables.status()
        decisions += int(np.where(phase == 1, players, phase == 2).sum())
        _policies.classic_policy(tables.buffer, "random", 0.5, gen, take_row, actions)
        e.step(actions)
    return decisions / (now - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=1024, help="games of the vector env")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cpus")
    print(f"steps per CPU second at {args.players} players, random legal actions")
    names = ("engine", "core", "AEC", "parallel", "seat")
    print(f"{'variant':12} " + " ".join(f"{n:>9}" for n in names) + f" {'AEC/core':>9}")
    classic: dict[str, float] = {}
    for variant in VARIANT_NAMES:
        figures: dict[str, float] = {}
        for name, play in zip(
            names, (engine_game, core_game, aec_game, parallel_game, seat_game), strict=True
        ):
            if name == "core" and (variant != "classic" or not core_available()):
                continue
            rng = random.Random(1)
            figures[name] = rate(partial(play, variant, args.players, rng), args.seconds)
        cells = [f"{figures[n]:9.0f}" if n in figures else f"{'-':>9}" for n in names]
        ratio = f"{figures['AEC'] / figures['core']:9.2f}" if "core" in figures else f"{'-':>9}"
        print(f"{variant:12} " + " ".join(cells) + f" {ratio}")
        if variant == "classic":
            classic = figures
    if core_available() and classic:
        vector = vector_rate(args.players, args.games, args.seconds)
        aec, core = classic["AEC"], classic["core"]
        print(f"classic: AEC {aec / core:.2f}x the core loop")
        print(f"vector env, {args.games} classic games: {vector:.0f} decisions/s, ", end="")
        print(f"{vector / aec:.1f}x the AEC env")


if __name__ == "__main__":
    main()
