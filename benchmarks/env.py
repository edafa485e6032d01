"""Environment speed: steps per second of arena.env with random legal actions.

    python benchmarks/env.py [--seconds S] [--players N]

For every variant at ``N`` players (default 4) it plays games for ``S`` seconds each way, every
action drawn uniformly from the mask, and prints steps (decisions) per second:

- **engine**: ``game.apply(seat, rng.choice(game.legal(seat)))``, no environment (the ceiling);
- **AEC**: ``env.last()`` (vector and mask of the selected agent) then ``env.step(action)``;
- **parallel**: one ``env.step(actions)`` per decision point; its figure counts decisions, so
  the simultaneous tile choice of four seats is four;
- **seat**: :class:`arena.env.SeatEnv` against ``random`` bots (the learner's decisions only).

The load average is printed first: other work on the machine slows everything down.
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
from arena.env import SeatEnv, env, parallel_env


def rate(play_one: Callable[[], int], seconds: float) -> float:
    """Steps per second of repeated ``play_one`` (one game, returning its step count)."""
    play_one()
    steps = 0
    start = time.perf_counter()
    while (now := time.perf_counter()) - start < seconds:
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
        steps += len(e.game.pending.seats) if e.game.pending else 0
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cpus")
    print(f"steps per second at {args.players} players, random legal actions")
    print(f"{'variant':12} {'engine':>8} {'AEC':>8} {'parallel':>9} {'seat':>8} {'AEC/engine':>11}")
    for variant in VARIANT_NAMES:
        figures = []
        for play in (engine_game, aec_game, parallel_game, seat_game):
            rng = random.Random(1)
            figures.append(rate(partial(play, variant, args.players, rng), args.seconds))
        ratio = figures[1] / figures[0]
        print(f"{variant:12} " + " ".join(f"{f:8.0f}" for f in figures) + f" {ratio:11.2f}")


if __name__ == "__main__":
    main()
