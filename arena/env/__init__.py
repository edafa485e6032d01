"""6 nimmt! for reinforcement learning: PettingZoo and Gymnasium environments over the engine.

All five variants, 2 to 6 players (the card game 2 to 10):

- :func:`env` — the PettingZoo AEC environment (:class:`NimmtEnv`, one agent at a time, only when
  the engine asks it);
- :func:`parallel_env` — the PettingZoo parallel environment (:class:`NimmtParallelEnv`, one step
  per decision point; see there how the one-seat decisions are handled);
- :class:`SeatEnv` — a Gymnasium environment for one seat against house bots, also as
  ``gymnasium.make("arena.env.single:nimmt/Seat-v0", ...)``;
- :class:`VectorEnv` — many games at once, every seat acting per step, numpy arrays in and out;
  :class:`SeatVectorEnv` — a Gymnasium ``VectorEnv``: one learner seat in many games against
  house policies computed for all of them at once (:mod:`arena.env.vector`).

Actions are one flat ``Discrete`` space with a mask (:mod:`arena.env.actions`), observations a
vector (:mod:`arena.env.features`) and the mask, plus the engine's structured view
(``env.view(agent)``); rewards are changes of score (penalty points negative). The guide is
``docs/ENVIRONMENT.md``.

The environments need the ``env`` extra (``pip install -e '.[env]'``: PettingZoo, Gymnasium,
numpy); nothing else in the arena imports them. The names below load on first use, so that
:mod:`arena.env.actions` and :mod:`arena.env.features` (plain Python) also serve bot programs in
the arena's sandbox, which has none of these libraries.

>>> game = env(variant="pro+luck", players=4, seed=11)
>>> game.reset()
>>> game.agent_selection, int(game.action_space("player_0").n)
('player_0', 432)
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .actions import ACTION_COUNT, WAIT, action_of, decision_of
from .features import OBSERVATION_SIZE, features

if TYPE_CHECKING:
    from .aec import IllegalActionError, NimmtEnv
    from .encoding import action_mask, encode
    from .parallel import NimmtParallelEnv
    from .single import SEAT_ENV_ID, SeatEnv
    from .vector import SeatVectorEnv, VectorEnv

__all__ = [
    "ACTION_COUNT",
    "OBSERVATION_SIZE",
    "SEAT_ENV_ID",
    "WAIT",
    "IllegalActionError",
    "NimmtEnv",
    "NimmtParallelEnv",
    "SeatEnv",
    "SeatVectorEnv",
    "VectorEnv",
    "action_mask",
    "action_of",
    "decision_of",
    "encode",
    "env",
    "features",
    "parallel_env",
]

#: Where each name that needs the extra's libraries lives.
_LAZY = {
    "IllegalActionError": "aec",
    "NimmtEnv": "aec",
    "action_mask": "encoding",
    "encode": "encoding",
    "NimmtParallelEnv": "parallel",
    "SEAT_ENV_ID": "single",
    "SeatEnv": "single",
    "SeatVectorEnv": "vector",
    "VectorEnv": "vector",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'arena.env' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def env(
    variant: str = "basic",
    players: int = 4,
    seed: int | None = None,
    render_mode: str | None = None,
) -> "NimmtEnv":
    """The AEC environment of ``variant`` for ``players`` seats; the first deal from ``seed``."""
    from .aec import NimmtEnv

    return NimmtEnv(variant, players, seed, render_mode)


def parallel_env(
    variant: str = "basic",
    players: int = 4,
    seed: int | None = None,
    render_mode: str | None = None,
) -> "NimmtParallelEnv":
    """The parallel environment of ``variant`` for ``players`` seats; the first deal from
    ``seed``."""
    from .parallel import NimmtParallelEnv

    return NimmtParallelEnv(variant, players, seed, render_mode)
