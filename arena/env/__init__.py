"""6 nimmt! for reinforcement learning: PettingZoo and Gymnasium environments over the engine.

All five variants, 2 to 6 players (the card game 2 to 10):

- :func:`env` — the PettingZoo AEC environment (:class:`NimmtEnv`, one agent at a time, only when
  the engine asks it);
- :func:`parallel_env` — the PettingZoo parallel environment (:class:`NimmtParallelEnv`, one step
  per decision point; see there how the one-seat decisions are handled);
- :class:`SeatEnv` — a Gymnasium environment for one seat against house bots.

Actions are one flat ``Discrete`` space with a mask (:mod:`arena.env.actions`), observations a
vector and the mask (:mod:`arena.env.encoding`), plus the engine's structured view
(``env.view(agent)``); rewards are changes of score (penalty points negative). The guide is
``docs/ENVIRONMENT.md``. This package needs the ``env`` extra (``pip install -e '.[env]'``);
nothing else in the arena imports it.

>>> game = env(variant="pro+luck", players=4, seed=11)
>>> game.reset()
>>> game.agent_selection, int(game.action_space("player_0").n)
('player_0', 432)
"""

import gymnasium

from .actions import ACTION_COUNT, WAIT, action_mask, action_of, decision_of
from .aec import IllegalActionError, NimmtEnv
from .encoding import OBSERVATION_SIZE, encode
from .parallel import NimmtParallelEnv
from .single import SeatEnv

__all__ = [
    "ACTION_COUNT",
    "OBSERVATION_SIZE",
    "SEAT_ENV_ID",
    "WAIT",
    "IllegalActionError",
    "NimmtEnv",
    "NimmtParallelEnv",
    "SeatEnv",
    "action_mask",
    "action_of",
    "decision_of",
    "encode",
    "env",
    "parallel_env",
]


def env(
    variant: str = "basic",
    players: int = 4,
    seed: int | None = None,
    render_mode: str | None = None,
) -> NimmtEnv:
    """The AEC environment of ``variant`` for ``players`` seats; the first deal from ``seed``."""
    return NimmtEnv(variant, players, seed, render_mode)


def parallel_env(
    variant: str = "basic",
    players: int = 4,
    seed: int | None = None,
    render_mode: str | None = None,
) -> NimmtParallelEnv:
    """The parallel environment of ``variant`` for ``players`` seats; the first deal from
    ``seed``."""
    return NimmtParallelEnv(variant, players, seed, render_mode)


#: ``gymnasium.make("nimmt/Seat-v0", variant="pro", opponents=[...])`` builds a :class:`SeatEnv`.
SEAT_ENV_ID = "nimmt/Seat-v0"
if SEAT_ENV_ID not in gymnasium.registry:
    gymnasium.register(SEAT_ENV_ID, entry_point="arena.env.single:SeatEnv")
