"""Card-game tables on the compiled core: many games in numpy arrays, a decision point a step.

The environments of the card game (``classic``) step the compiled core
(``arena/engine/_playout_core.c``: ``classic_deal``, ``classic_step``, ``classic_observe``),
whose placements are the core's one card-game loop; this module holds the tables' memory and
hands the core numpy arrays. The core writes each seat's vector (:mod:`arena.env.features`) and
action mask directly, without a Python object per card.

A step answers one decision point of every table at once, as the parallel environment does: at
a card choice every seat without a chosen card answers (``-1``: not yet, for the AEC env, whose
seats answer one after the other), at a row choice only the asked seat. An asked seat's action
outside its mask plays the arena's fault default (the lowest card; the row with the fewest
bullheads, the topmost of equal rows) and is flagged in ``illegal``.

>>> tables = ClassicTables(players=4, count=2)
>>> tables.deal(np.array([5, 6], np.uint64))
>>> masks = tables.masks()
>>> masks.shape, int(masks[0, 0].sum())
((2, 4, 432), 10)
>>> from arena.engine import Game
>>> sorted(Game.new("classic", 4, 5).hands[1]) == tables.view(0)["hands"][1]
True
"""

from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from arena.engine.playout import CORE
from arena.engine.variants import variant

from .actions import ACTION_COUNT, BLOCKS, TILES
from .encoding import _static
from .features import BLOCKS as FEATURE_BLOCKS
from .features import OBSERVATION_SIZE, SPACE_KINDS

__all__ = ["ClassicTables", "core_available"]

#: The phases a table is in (``phase`` of :meth:`ClassicTables.phases`).
OVER, TILE, TAKE_ROW = 0, 1, 2

_SPACES = FEATURE_BLOCKS["spaces"]
_SPACE_FEATURES = 4 + len(SPACE_KINDS) + 2


def core_available() -> bool:
    """Whether the compiled core is built (else the environments play through the Game)."""
    return CORE is not None and hasattr(CORE, "classic_step")


@cache
def _layout() -> tuple[int, ...]:
    """The vector's and the action space's numbers as the core takes them (its ``B_*``)."""
    from .actions import ROWS, SPACES

    assert _SPACES.stop - _SPACES.start == ROWS * SPACES * _SPACE_FEATURES
    assert variant("classic").tiles == TILES
    return (
        FEATURE_BLOCKS["decision"].start,
        FEATURE_BLOCKS["hand"].start,
        FEATURE_BLOCKS["chosen"].start,
        FEATURE_BLOCKS["placing"].start,
        FEATURE_BLOCKS["revealed"].start,
        FEATURE_BLOCKS["to place"].start,
        _SPACES.start,
        FEATURE_BLOCKS["rows"].start,
        FEATURE_BLOCKS["seats"].start,
        FEATURE_BLOCKS["counters"].start,
        SPACES,
        _SPACE_FEATURES,
        TILES,
        OBSERVATION_SIZE,
        BLOCKS["take_row"].start,
        ACTION_COUNT,
    )


class ClassicTables:
    """``count`` card-game tables of ``players`` seats, in one buffer the core steps."""

    def __init__(self, players: int, count: int) -> None:
        if CORE is None or not core_available():
            raise RuntimeError("the compiled core is not built: the card-game tables need it")
        variant("classic").check_players(players)
        if count < 1:
            raise ValueError(f"count {count}: at least one table")
        self.players = players
        self.count = count
        self._core: Any = CORE
        self._tables = np.zeros(count * self._core.classic_table_size(), np.uint8)
        self._template = _static("classic", players)
        self._layout = _layout()
        self._illegal = np.zeros((count, players), np.uint8)
        self.dealt = False

    def deal(
        self, seeds: npt.NDArray[np.uint64], which: npt.NDArray[np.bool_] | None = None
    ) -> None:
        """Deal table ``i`` from ``seeds[i]`` (as ``Game.new("classic", players, seed)``),
        every table or those where ``which`` is set."""
        seeds = np.ascontiguousarray(seeds, np.uint64)
        if seeds.shape != (self.count,):
            raise ValueError(f"seeds: shape ({self.count},), not {seeds.shape}")
        if which is not None:
            which = np.ascontiguousarray(which, np.uint8)
            if not self.dealt and not which.all():
                raise ValueError("the first deal deals every table")
        self._core.classic_deal(self._tables, self.players, seeds, which)
        self.dealt = True

    def step(
        self, actions: npt.NDArray[np.int64], rewards: npt.NDArray[np.float32] | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """One decision point of every table: ``actions`` ``(count, players)`` (``-1``: this
        seat does not answer yet). The rewards (change of score, penalty points negative) and
        where an asked seat's action was illegal (the fault default played)."""
        self._check()
        actions = np.ascontiguousarray(actions, np.int64)
        if actions.shape != (self.count, self.players):
            raise ValueError(f"actions: shape {(self.count, self.players)}, not {actions.shape}")
        if rewards is None:
            rewards = np.empty((self.count, self.players), np.float32)
        self._core.classic_step(self._tables, actions, rewards, self._illegal, self._layout[14])
        return rewards, self._illegal.astype(bool)

    def observe(
        self,
        seat: int = -1,
        obs: npt.NDArray[np.float32] | None = None,
        mask: npt.NDArray[np.int8] | None = None,
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """Every seat's vector and mask, ``(count, players, ...)``; of ``seat`` only,
        ``(count, ...)``. Written into ``obs`` and ``mask`` when given."""
        self._check()
        shape = (self.count,) if seat >= 0 else (self.count, self.players)
        if obs is None:
            obs = np.empty((*shape, OBSERVATION_SIZE), np.float32)
        if mask is None:
            mask = np.empty((*shape, ACTION_COUNT), np.int8)
        self._core.classic_observe(self._tables, self._layout, self._template, seat, obs, mask)
        return obs, mask

    def masks(self, seat: int = -1) -> npt.NDArray[np.int8]:
        """The masks alone (see :meth:`observe`)."""
        self._check()
        shape = (self.count,) if seat >= 0 else (self.count, self.players)
        mask = np.empty((*shape, ACTION_COUNT), np.int8)
        self._core.classic_observe(self._tables, self._layout, self._template, seat, None, mask)
        return mask

    def view(self, index: int) -> dict[str, Any]:
        """Table ``index`` as plain values: rows, hands, scores, chosen, phase, asked, turn."""
        self._check()
        result: dict[str, Any] = self._core.classic_view(self._tables, index)
        return result

    def _check(self) -> None:
        if not self.dealt:
            raise RuntimeError("no game dealt yet: call reset() first")

    @property
    def buffer(self) -> npt.NDArray[np.uint8]:
        """The tables' memory, for the house policies (:mod:`arena.bots._policies`)."""
        return self._tables
