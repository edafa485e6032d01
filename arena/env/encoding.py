"""The numpy arrays the environments hand out: the observation vector and the action mask.

The vector's entries are defined in :mod:`arena.env.features` (plain Python); :func:`encode`
writes them into a dense ``float32`` array of :data:`~arena.env.features.OBSERVATION_SIZE`,
within :data:`LOW` .. :data:`HIGH`. :func:`action_mask` marks the legal actions of
:mod:`arena.env.actions`.

>>> from arena.engine import Game
>>> from arena.engine.observation import observe
>>> view = observe(Game.new("pro", players=4, seed=1), seat=2)
>>> vector = encode(view)
>>> vector.shape, vector.dtype.name, bool(((LOW <= vector) & (vector <= HIGH)).all())
((1712,), 'float32', True)
>>> hand = BLOCKS["hand"]
>>> int(vector[hand.start : hand.stop].sum()), int(action_mask(view.legal).sum())
(12, 12)
"""

from collections.abc import Iterable
from functools import cache

import numpy as np
import numpy.typing as npt

from arena.engine.decisions import Decision
from arena.engine.observation import Observation

from .actions import ACTION_COUNT, WAIT, action_of
from .features import BLOCKS, OBSERVATION_SIZE, SPEC, dynamic_features, static_features

__all__ = ["BLOCKS", "HIGH", "LOW", "OBSERVATION_SIZE", "action_mask", "encode"]

#: The bounds of every entry (the observation space's ``low`` and ``high``).
LOW = np.concatenate([np.full(size, lo, np.float32) for _, size, lo, _ in SPEC])
HIGH = np.concatenate([np.full(size, hi, np.float32) for _, size, _, hi in SPEC])


@cache
def _static(variant_name: str, players: int) -> npt.NDArray[np.float32]:
    out = np.zeros(OBSERVATION_SIZE, np.float32)
    at, values = static_features(variant_name, players)
    out[list(at)] = values
    out.flags.writeable = False
    return out


def encode(view: Observation) -> npt.NDArray[np.float32]:
    """The vector of ``view`` (see :mod:`arena.env.features` for its blocks)."""
    out = _static(view.variant, view.players).copy()
    at, values = dynamic_features(view)
    out[np.fromiter(at, np.intp, len(at))] = np.fromiter(values, np.float32, len(values))
    return out


def action_mask(legal: Iterable[Decision]) -> npt.NDArray[np.int8]:
    """1 for each legal decision's action, 0 elsewhere; only :data:`WAIT` if none is legal."""
    mask = np.zeros(ACTION_COUNT, dtype=np.int8)
    for decision in legal:
        mask[action_of(decision)] = 1
    if not mask.any():
        mask[WAIT] = 1
    return mask
