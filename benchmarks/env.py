"""Environment speed: steps per second of arena.env with random legal actions.

    python benchmarks/env.py [--seconds S] [--players N] [--games G]

For every variant at ``N`` players (default 4) it plays games for ``S`` seconds of CPU each way,
every action drawn uniformly from the mask, and prints steps (decisions) per CPU second:

- **engine**: ``game.apply(seat, rng.choice(game.legal(seat)))`` on the readable ``Game``;
- **core**: the bare loop over the compiled core the environments step
  (:class:`arena.env.core.ClassicTables` or :class:`~arena.env.core.BoardTables`, one table: a
  seat's mask, then the step), with the same actions as the AEC env (the same generator, the
  same choice from the same masks);
- **AEC**: ``env.last()`` (vector and mask of the selected agent) then ``env.step(action)``;
- **AEC Game**: the same AEC env on the table over the engine's ``Game``
  (:class:`arena.env.table.Table`, what the environments play on without the core), measured in
  the same run;
- **parallel**: one ``env.step(actions)`` per decision point; its figure counts decisions, so
  the simultaneous tile choice of four seats is four;
- **seat**: :class:`arena.env.SeatEnv` against ``random`` bots (the learner's decisions only);
- **vector** (the card game): :class:`arena.env.VectorEnv` with ``G`` games (default 1,024,
  ``copy=False``), every seat's random legal action drawn by the core's batched random policy;
  counted in decisions as the parallel env.

Then the ratios the environment issue asks for: AEC / core, AEC / AEC Game and vector / AEC.

Measured in one run on the shared 2-core development machine (load average 1.5 as it started,
other work running; ``nice -n 10``, ``--seconds 3``), steps per CPU second:

=========== ======== ======== ======== ========= ========= ======== ========= =========
variant     engine   core     AEC      AEC Game  parallel  seat     AEC/core  AEC/Game
=========== ======== ======== ======== ========= ========= ======== ========= =========
basic       113079   130319   81767    13149     99515     9192     0.63      6.22
basic+luck  58582    142489   96890    10985     74747     7088     0.68      8.82
pro         95721    143237   90631    12276     84397     8426     0.63      7.38
pro+luck    65641    135888   92659    11175     69215     6723     0.68      8.29
classic     130862   164067   100188   16356     84781     9706     0.61      6.13
=========== ======== ======== ======== ========= ========= ======== ========= =========

The board game's AEC env on the core: **6.2x to 8.8x** the same env on the Game's table,
0.63-0.68x the bare core loop (before, every board variant played on the Game: 9,000-14,000
steps/s in an earlier run). The card game's AEC env: 0.61x the bare core loop (the earlier
run's 0.58x). The vector env with 1,024 card games: 1,948,000 decisions/s, **19.4x** the AEC
env (22.5x in an earlier run under a load average of 4.8). A card-game step writes only the
entries of each vector that changed; what changes alike for every seat of a table is worked out
once a table, and the lines of the next seat's vector are fetched while this one's are written.
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
from arena.env.core import BoardTables, ClassicTables, core_available
from arena.env.table import Table


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
    tables: ClassicTables | BoardTables
    if variant == "classic":
        tables = ClassicTables(players, 1)
        asked = partial(tables._core.classic_asked, tables.buffer, 0)
    else:
        tables = BoardTables(variant, players, 1)
        asked = partial(tables.asked, 0)
    tables.deal(np.array([rng.getrandbits(32)], np.uint64))
    actions = np.full((1, players), -1, np.int64)
    steps = 0
    while seats := asked():
        seat = seats[0]
        actions[0, seat] = choose(tables.masks(seat)[0], rng)
        tables.step(actions)
        actions[0, seat] = -1
        steps += 1
    return steps


def aec_game(variant: str, players: int, rng: random.Random, on_game: bool = False) -> int:
    e = env(variant, players, seed=rng.getrandbits(32))
    if on_game:
        e._table = Table(variant, players)
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
    names = ("engine", "core", "AEC", "AEC Game", "parallel", "seat")
    plays: tuple[Callable[[str, int, random.Random], int], ...] = (
        engine_game,
        core_game,
        aec_game,
        partial(aec_game, on_game=True),
        parallel_game,
        seat_game,
    )
    ratios = (("AEC/core", "AEC", "core"), ("AEC/Game", "AEC", "AEC Game"))
    print(
        f"{'variant':12} "
        + " ".join(f"{n:>9}" for n in names)
        + "".join(f" {r:>9}" for r, *_ in ratios)
    )
    classic: dict[str, float] = {}
    for variant in VARIANT_NAMES:
        figures: dict[str, float] = {}
        for name, play in zip(names, plays, strict=True):
            if name in ("core", "AEC Game") and not core_available():
                continue
            rng = random.Random(1)
            figures[name] = rate(partial(play, variant, args.players, rng), args.seconds)
        cells = [f"{figures[n]:9.0f}" if n in figures else f"{'-':>9}" for n in names]
        cells += [
            f"{figures[a] / figures[b]:9.2f}" if b in figures else f"{'-':>9}" for _, a, b in ratios
        ]
        print(f"{variant:12} " + " ".join(cells))
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
