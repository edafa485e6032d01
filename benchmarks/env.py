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
- **vector**: :class:`arena.env.VectorEnv` with ``G`` games (default 1,024, ``copy=False``),
  counted in decisions as the parallel env; in the card game every seat's random legal action
  is drawn by the core's batched random policy, in the board game by numpy from the masks.

Then the ratios the environment issue asks for: AEC / core, AEC / AEC Game and vector / AEC
(each variant's vector env against its own AEC env).

Measured in one run on the shared 2-core development machine (load average 1.3 as it started;
``--seconds 3``), steps per CPU second:

=========== ======== ======== ======== ========= ========= ======== ========= =========
variant     engine   core     AEC      AEC Game  parallel  seat     AEC/core  AEC/Game
=========== ======== ======== ======== ========= ========= ======== ========= =========
basic       121362   135133   90653    12537     115629    9121     0.67      7.23
basic+luck  67916    140307   93653    11622     78686     7239     0.67      8.06
pro         97793    146105   96253    13080     90670     8668     0.66      7.36
pro+luck    67440    142152   97068    11993     73117     6972     0.68      8.09
classic     131240   160420   103051   17040     94601     10453    0.64      6.05
=========== ======== ======== ======== ========= ========= ======== ========= =========

The board game's AEC env on the core: **7.2x to 8.1x** the same env on the Game's table,
0.66-0.68x the bare core loop (before, every board variant played on the Game). The card game's
AEC env: 103,000 steps/s, **0.64x** the bare core loop. The vector env with 1,024 card games:
2,240,000 decisions/s, **21.7x** the AEC env (19.4x in an earlier run under more load). A
card-game step writes only the entries of each vector that changed; what changes alike for
every seat of a table is worked out once a table, and the lines of the next seat's vector are
fetched while this one's are written. ``seat`` stays near 10,000: :class:`arena.env.SeatEnv`'s
house bots read the engine's view, so it keeps a ``Game`` up to date every step.
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
from arena.env.vector import random_actions


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


def board_vector_rate(variant: str, players: int, games: int, seconds: float) -> float:
    """Decisions per CPU second of :class:`VectorEnv`'s steps with ``games`` board games; every
    asked seat's action is drawn from its mask by numpy (:func:`arena.env.vector.random_actions`)
    outside the time counted (a uniform draw over 432 actions of 4,096 seats costs more than the
    step: the board game has no batched random policy in the core)."""
    e = VectorEnv(variant, players, games, seed=1, copy=False)
    observations, _ = e.reset()
    rng = np.random.default_rng(1)
    decisions, spent = 0, 0.0
    while spent < seconds:
        mask = observations["action_mask"]
        decisions += int((mask[..., 0] == 0).sum())  # WAIT illegal: the seat is asked
        actions = random_actions(mask, rng)
        start = time.process_time()
        observations, *_ = e.step(actions)
        spent += time.process_time() - start
    return decisions / spent


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
    aecs: dict[str, float] = {}
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
        aecs[variant] = figures["AEC"]
        if variant == "classic":
            classic = figures
    if core_available() and classic:
        vector = vector_rate(args.players, args.games, args.seconds)
        aec, core = classic["AEC"], classic["core"]
        print(f"classic: AEC {aec / core:.2f}x the core loop")
        print(f"vector env, {args.games} classic games: {vector:.0f} decisions/s, ", end="")
        print(f"{vector / aec:.1f}x the AEC env")
        for variant in VARIANT_NAMES:
            if variant != "classic":
                board = board_vector_rate(variant, args.players, args.games, args.seconds)
                print(f"vector env, {args.games} {variant} games: ", end="")
                print(f"{board:.0f} decisions/s, {board / aecs[variant]:.1f}x its AEC env")


if __name__ == "__main__":
    main()
