"""Tables on the compiled core: many games in numpy arrays, a decision point a step.

The environments step the compiled core (``arena/engine/_playout_core.c``) for every variant:
the card game (``classic``) through :class:`ClassicTables` (``classic_deal``, ``classic_step``,
``classic_observe``: placements by the core's card-game loop), the board game's four variants
through :class:`BoardTables` (``board_deal``, ``board_step``, ``board_observe``: the core's
general simulator, which plays a turn again from its reveal with the decisions answered so far
and stops at the next one). This module holds the tables' memory and hands the core numpy
arrays. The core writes each seat's vector (:mod:`arena.env.features`) and action mask
directly, without a Python object per tile; a seed deals what ``Game.new`` deals from it, so
the games are the Game's.

A step answers one decision point of every table at once, as the parallel environment does: at
a tile choice every seat without a chosen tile answers (``-1``: not yet, for the AEC env, whose
seats answer one after the other), at a row, luck-card or action-card choice only the asked
seat. An asked seat's action outside its mask plays the arena's fault default (the lowest tile;
the row with the fewest bullheads, the topmost of equal rows; the first free space for a luck
card; no action card) and is flagged in ``illegal``.

>>> tables = ClassicTables(players=4, count=2)
>>> tables.deal(np.array([5, 6], np.uint64))
>>> masks = tables.masks()
>>> masks.shape, int(masks[0, 0].sum())
((2, 4, 432), 10)
>>> from arena.engine import Game
>>> sorted(Game.new("classic", 4, 5).hands[1]) == tables.view(0)["hands"][1]
True
>>> board = BoardTables("pro+luck", players=3, count=2)
>>> board.deal(np.array([5, 6], np.uint64))
>>> board.view(1)["hands"][2] == Game.new("pro+luck", 3, 6).hands[2]
True
"""

from collections.abc import Mapping
from functools import cache, partial
from typing import Any

import numpy as np
import numpy.typing as npt

from arena.engine.game import Game
from arena.engine.playout import CORE, general_board
from arena.engine.readings import CURRENT, Reading, reading
from arena.engine.variants import ACTION_CARDS, LUCK_CARDS, variant

from .actions import ACTION_COUNT, BLOCKS, TILES, decision_of
from .encoding import _static
from .features import _ACTION_DECK, _LUCK_DECK, OBSERVATION_SIZE, SPACE_KINDS, SPEC
from .features import BLOCKS as FEATURE_BLOCKS
from .table import IllegalActionError, SeatObservation, Table

__all__ = ["BoardTables", "ClassicTables", "CoreTable", "core_available", "make_table"]

#: The phases a table is in (``phase`` of :meth:`ClassicTables.status` and
#: :meth:`BoardTables.status`): over, the tile choice, the card game's row, a luck card's
#: space, an action card.
OVER, TILE, TAKE_ROW, LUCK, ACTION = 0, 1, 2, 3, 4

_SPACES = FEATURE_BLOCKS["spaces"]
_SPACE_FEATURES = 4 + len(SPACE_KINDS) + 2


def core_available() -> bool:
    """Whether the compiled core is built (else the environments play through the Game)."""
    return CORE is not None and hasattr(CORE, "classic_step") and hasattr(CORE, "board_step")


@cache
def _layout() -> tuple[int, ...]:
    """The vector's and the action space's numbers as the core takes them (its ``B_*``)."""
    from .actions import ROWS, SPACES

    assert _SPACES.stop - _SPACES.start == ROWS * SPACES * _SPACE_FEATURES
    # the core clears decision .. to place as one range: they must stay in this order
    names = [name for name, *_ in SPEC]
    assert names[names.index("decision") : names.index("to place") + 1] == [
        "decision",
        "hand",
        "chosen",
        "placing",
        "luck card",
        "revealed",
        "to place",
    ]
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


class _CoreTables:
    """What the card game's and the board game's tables share: ``count`` tables of
    ``players`` seats in one buffer the core steps, and the arrays handed to it (the core's
    calls are the subclass's ``_deal``, ``_step``, ``_observe`` and ``_status``)."""

    def __init__(self, players: int, count: int, table_size: int) -> None:
        if count < 1:
            raise ValueError(f"count {count}: at least one table")
        self.players = players
        self.count = count
        self._core: Any = CORE
        self._tables = np.zeros(count * table_size, np.uint8)
        self._illegal = np.zeros((count, players), np.uint8)
        self.dealt = False

    def deal(
        self, seeds: npt.NDArray[np.uint64], which: npt.NDArray[np.bool_] | None = None
    ) -> None:
        """Deal table ``i`` from ``seeds[i]`` (as ``Game.new(variant, players, seed)``),
        every table or those where ``which`` is set."""
        seeds = np.ascontiguousarray(seeds, np.uint64)
        if seeds.shape != (self.count,):
            raise ValueError(f"seeds: shape ({self.count},), not {seeds.shape}")
        chosen = None if which is None else np.ascontiguousarray(which, np.uint8)
        if chosen is not None and not self.dealt and not chosen.all():
            raise ValueError("the first deal deals every table")
        self._deal(seeds, chosen)
        self.dealt = True

    def step(
        self,
        actions: npt.NDArray[np.int64],
        rewards: npt.NDArray[np.float32] | None = None,
        strict: bool = False,
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
        """One decision point of every table: ``actions`` ``(count, players)`` (``-1``: this
        seat does not answer yet). The rewards (change of points: penalty points negative,
        the final scores counting once a game is over), where an asked seat's action was
        illegal, and the actions played: an illegal one's fault default, or with ``strict``
        nothing (that table is left as it was)."""
        self._check()
        played = np.array(actions, np.int64, order="C")
        if played.shape != (self.count, self.players):
            raise ValueError(f"actions: shape {(self.count, self.players)}, not {played.shape}")
        if rewards is None:
            rewards = np.empty((self.count, self.players), np.float32)
        self._step(played, rewards, strict)
        return rewards, self._illegal == 1, played

    @property
    def flags(self) -> npt.NDArray[np.uint8]:
        """The last step's flags per seat: 1 an illegal action, 2 an answer of a seat not
        asked (ignored)."""
        return self._illegal

    def observe(
        self,
        seat: int = -1,
        obs: npt.NDArray[np.float32] | None = None,
        mask: npt.NDArray[np.int8] | None = None,
        which: npt.NDArray[np.bool_] | None = None,
        primed: bool = False,
        shown: npt.NDArray[np.uint8] | None = None,
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """Every seat's vector and mask, ``(count, players, ...)``; of ``seat`` only,
        ``(count, ...)``. Written into ``obs`` and ``mask`` when given (of the tables where
        ``which`` is set, when given); ``primed``: ``obs`` holds what an earlier call wrote
        for the same seats, untouched since (then only the entries that change are cleared).

        ``shown`` (from :meth:`shown_buffer`, with ``obs`` and ``mask``): the tables as ``obs``
        and ``mask`` show them, kept up to date by every call given it; primed, only the entries
        that differ from what they show are written (a step changes a few of them). The board
        game's tables write every vector whole (``primed`` and ``shown`` change nothing)."""
        self._check()
        shape = (self.count,) if seat >= 0 else (self.count, self.players)
        if obs is None:
            obs = np.empty((*shape, OBSERVATION_SIZE), np.float32)
        if mask is None:
            mask = np.empty((*shape, ACTION_COUNT), np.int8)
        if obs.shape != (*shape, OBSERVATION_SIZE) or mask.shape != (*shape, ACTION_COUNT):
            raise ValueError(f"obs and mask: shapes {shape} + (size,), not {obs.shape}")
        chosen = None if which is None else np.ascontiguousarray(which, np.uint8)
        self._observe(self._tables, seat, obs, mask, chosen, primed, shown)
        return obs, mask

    def observe_tables(
        self, index: npt.NDArray[np.intp], seat: int = -1
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """The vectors and masks of the tables ``index`` only, in new arrays ``(len(index),
        players, ...)`` (of ``seat``: ``(len(index), ...)``), written whole."""
        self._check()
        tables = self._tables.reshape(self.count, -1)[index].reshape(-1)
        shape = (len(index),) if seat >= 0 else (len(index), self.players)
        obs = np.empty((*shape, OBSERVATION_SIZE), np.float32)
        mask = np.empty((*shape, ACTION_COUNT), np.int8)
        if len(index):
            self._observe(tables, seat, obs, mask)
        return obs, mask

    def status(self) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
        """Each table's phase (:data:`OVER`, :data:`TILE`, :data:`TAKE_ROW`, :data:`LUCK`,
        :data:`ACTION`) and the seat a row, a luck card or an action card is asked of (-1:
        none)."""
        self._check()
        phase = np.empty(self.count, np.int8)
        asked = np.empty(self.count, np.int8)
        self._status(phase, asked)
        return phase, asked

    def scores(self) -> npt.NDArray[np.int64]:
        """Every table's scores as the engine counts them (the card game's penalty points
        positive; the final scores, after the hand penalty, once a game is over), ``(count,
        players)``."""
        self._check()
        phase = np.empty(self.count, np.int8)
        scores = np.empty((self.count, self.players), np.int64)
        self._status(phase, np.empty_like(phase), scores)
        return scores

    def masks(self, seat: int = -1) -> npt.NDArray[np.int8]:
        """The masks alone (see :meth:`observe`)."""
        self._check()
        shape = (self.count,) if seat >= 0 else (self.count, self.players)
        mask = np.empty((*shape, ACTION_COUNT), np.int8)
        self._observe(self._tables, seat, None, mask)
        return mask

    def _check(self) -> None:
        if not self.dealt:
            raise RuntimeError("no game dealt yet: call reset() first")

    @property
    def buffer(self) -> npt.NDArray[np.uint8]:
        """The tables' memory, read-only (for the house policies, :mod:`arena.bots._policies`,
        and to keep a state: ``buffer.copy()``). Only the core writes it: what it holds indexes
        the core's arrays."""
        view = self._tables.view()
        view.flags.writeable = False
        return view

    # the core's calls
    def _deal(self, seeds: npt.NDArray[np.uint64], which: npt.NDArray[np.uint8] | None) -> None:
        raise NotImplementedError

    def _step(
        self, played: npt.NDArray[np.int64], rewards: npt.NDArray[np.float32], strict: bool
    ) -> None:
        raise NotImplementedError

    def _observe(
        self,
        tables: npt.NDArray[np.uint8],
        seat: int,
        obs: npt.NDArray[np.float32] | None,
        mask: npt.NDArray[np.int8] | None,
        which: npt.NDArray[np.uint8] | None = None,
        primed: bool = False,
        shown: npt.NDArray[np.uint8] | None = None,
    ) -> None:
        raise NotImplementedError

    def _status(
        self,
        phase: npt.NDArray[np.int8],
        asked: npt.NDArray[np.int8],
        scores: npt.NDArray[np.int64] | None = None,
    ) -> None:
        raise NotImplementedError


class ClassicTables(_CoreTables):
    """``count`` card-game tables of ``players`` seats, in one buffer the core steps."""

    def __init__(self, players: int, count: int) -> None:
        if CORE is None or not core_available():
            raise RuntimeError("the compiled core is not built: the card-game tables need it")
        variant("classic").check_players(players)
        super().__init__(players, count, CORE.classic_table_size())
        self._template = _static("classic", players)
        self._layout = _layout()

    def _deal(self, seeds: npt.NDArray[np.uint64], which: npt.NDArray[np.uint8] | None) -> None:
        self._core.classic_deal(self._tables, self.players, seeds, which)

    def _step(
        self, played: npt.NDArray[np.int64], rewards: npt.NDArray[np.float32], strict: bool
    ) -> None:
        self._core.classic_step(
            self._tables, played, rewards, self._illegal, self._layout[14], strict
        )

    def _observe(
        self,
        tables: npt.NDArray[np.uint8],
        seat: int,
        obs: npt.NDArray[np.float32] | None,
        mask: npt.NDArray[np.int8] | None,
        which: npt.NDArray[np.uint8] | None = None,
        primed: bool = False,
        shown: npt.NDArray[np.uint8] | None = None,
    ) -> None:
        self._core.classic_observe(
            tables, self._layout, self._template, seat, obs, mask, which, primed, shown
        )

    def _status(
        self,
        phase: npt.NDArray[np.int8],
        asked: npt.NDArray[np.int8],
        scores: npt.NDArray[np.int64] | None = None,
    ) -> None:
        self._core.classic_status(self._tables, phase, asked, scores)

    def shown_buffer(self) -> npt.NDArray[np.uint8]:
        """A buffer for :meth:`observe`'s ``shown``: nothing shown yet (the first call writes
        every entry)."""
        return np.zeros_like(self._tables)

    def view(self, index: int) -> dict[str, Any]:
        """Table ``index`` as plain values: rows, hands, scores, chosen, phase, asked, turn."""
        self._check()
        result: dict[str, Any] = self._core.classic_view(self._tables, index)
        return result

    def restore(self, state: npt.ArrayLike) -> None:
        """Put back a state :attr:`buffer` held (``buffer.copy()``): every table is checked
        first, and a buffer the core could not have made (another size or count of seats, a
        number out of range, a hand that does not add up) is a ``ValueError`` naming the table
        and changes nothing."""
        data = np.ascontiguousarray(state, np.uint8)
        if data.shape != self._tables.shape:
            raise ValueError(f"state: {self._tables.shape[0]} bytes, not shape {data.shape}")
        self._core.classic_check(data, self.players)
        self._tables[:] = data
        self.dealt = True


@cache
def _board_rules(variant_name: str, rules: str) -> object:
    """The core's rules of a board variant under the reading ``rules``, with the vector's and
    the action space's layout (its ``BO_*`` and ``BA_*`` numbers)."""
    from .actions import SPACES

    v = variant(variant_name)
    r = reading(rules)
    names = [name for name, *_ in SPEC]
    # the blocks after the static ones, in the order the core numbers them (its BO_*)
    assert names[:3] == ["variant", "players", "decision"]
    vector = [
        *(FEATURE_BLOCKS[name].start for name in names[2:]),
        OBSERVATION_SIZE,
        _SPACE_FEATURES,
        TILES,
        max(_LUCK_DECK, 1),
        max(_ACTION_DECK, 1),
    ]
    space = [
        BLOCKS["luck"].start,
        SPACES,
        BLOCKS["action none"].start,
        *(BLOCKS[f"action {card}"].start for card in ACTION_CARDS),
        ACTION_COUNT,
    ]
    numbers = (
        int(v.actions),
        v.hand_size,
        v.tiles,
        v.start_rows,
        int(r.stop_on_own_row),
        int(r.another_lowest_first),
        int(r.plus5_replaces),
    )
    core: Any = CORE
    return core.board_rules(
        general_board(v.name, r.name),
        r.bullheads(v),
        [LUCK_CARDS.index(card) for card in v.luck_deck],
        [ACTION_CARDS.index(card) for card in v.action_deck],
        numbers,
        vector,
        space,
    )


class BoardTables(_CoreTables):
    """``count`` tables of the board variant ``variant_name`` for ``players`` seats, in one
    buffer the core steps, played under the reading ``rules``: the methods of
    :class:`ClassicTables` (but :meth:`~ClassicTables.restore`), and :meth:`asked`."""

    def __init__(
        self, variant_name: str, players: int, count: int, rules: Reading = CURRENT
    ) -> None:
        if CORE is None or not core_available():
            raise RuntimeError("the compiled core is not built: the board tables need it")
        v = variant(variant_name)
        if v.classic:
            raise ValueError("the card game's tables are ClassicTables")
        v.check_players(players)
        super().__init__(players, count, CORE.board_table_size())
        self.variant = v.name
        self.rules = rules
        self._rules = _board_rules(v.name, rules.name)
        self._template = _static(v.name, players)

    def _deal(self, seeds: npt.NDArray[np.uint64], which: npt.NDArray[np.uint8] | None) -> None:
        self._core.board_deal(self._tables, self._rules, self.players, seeds, which)

    def _step(
        self, played: npt.NDArray[np.int64], rewards: npt.NDArray[np.float32], strict: bool
    ) -> None:
        self._core.board_step(self._tables, self._rules, played, rewards, self._illegal, strict)

    def _observe(
        self,
        tables: npt.NDArray[np.uint8],
        seat: int,
        obs: npt.NDArray[np.float32] | None,
        mask: npt.NDArray[np.int8] | None,
        which: npt.NDArray[np.uint8] | None = None,
        primed: bool = False,
        shown: npt.NDArray[np.uint8] | None = None,
    ) -> None:
        self._core.board_observe(tables, self._rules, self._template, seat, obs, mask, which)

    def _status(
        self,
        phase: npt.NDArray[np.int8],
        asked: npt.NDArray[np.int8],
        scores: npt.NDArray[np.int64] | None = None,
    ) -> None:
        self._core.board_status(self._tables, self._rules, phase, asked, scores)

    def shown_buffer(self) -> None:
        """Nothing: every vector is written whole."""

    def asked(self, index: int) -> tuple[int, ...]:
        """The seats table ``index`` waits for (none once it is over)."""
        self._check()
        asked: tuple[int, ...] = self._core.board_asked(self._tables, self._rules, index)
        return asked

    def view(self, index: int) -> dict[str, Any]:
        """Table ``index`` as plain values: phase, asked, turn, scores, final, hands, held,
        chosen, rows, the turn's answers so far, ..."""
        self._check()
        result: dict[str, Any] = self._core.board_view(self._tables, self._rules, index)
        return result


class CoreTable(Table):
    """One game of any variant on the compiled core, with :class:`~arena.env.table.Table`'s
    methods.

    The core plays and shows the game; :attr:`game` (the engine's ``Game``, for views, replays
    and analysis) is brought up to date from the decisions played when it is asked for, so an
    environment that only steps and observes never builds one.

    >>> table = CoreTable("pro+luck", players=3)
    >>> table.deal(seed=5)
    >>> while table.asked():
    ...     for seat in table.asked():
    ...         table.apply(seat, int(table.mask(seat).nonzero()[0][0]))
    >>> [int(r) for r in table.rewards()] == list(table.game.result().scores)
    True
    """

    def __init__(self, variant_name: str, players: int, rules: Reading = CURRENT) -> None:
        super().__init__(variant_name, players, rules)
        core: Any = CORE
        self._actions = np.full((1, players), -1, np.int64)
        self._rewards = np.zeros((1, players), np.float32)
        self._gained = np.zeros(players, np.float64)
        self._seed = 0
        self._log: list[tuple[int, int]] = []  # (seat, action) since the deal
        self._played = 0  # of which the game has played so far
        self._tables: ClassicTables | BoardTables
        # the core's calls, bound once to this table's arrays: an AEC step is a few of them
        if self.variant.classic:
            classic = ClassicTables(players, 1)
            buffer = classic._tables
            self._asked = partial(core.classic_asked, buffer, 0)
            self._observe = partial(core.classic_observe, buffer, _layout(), classic._template)
            self._apply = partial(
                core.classic_step, buffer, self._actions, self._rewards, classic.flags,
                BLOCKS["take_row"].start, True,
            )  # fmt: skip
            self._tables = classic
        else:
            board = BoardTables(self.variant.name, players, 1, rules)
            buffer, rules_of = board._tables, board._rules
            self._asked = partial(core.board_asked, buffer, rules_of, 0)
            self._observe = partial(core.board_observe, buffer, rules_of, board._template)
            self._apply = partial(
                core.board_step, buffer, rules_of, self._actions, self._rewards, board.flags, True
            )
            self._tables = board
        self._flags = self._tables.flags
        # points are signed so that more is better: the card game's penalty points negated
        self._sign = -1 if self.variant.classic else 1

    @property
    def game(self) -> Game:
        """The game under way, hidden information included (never shown to a seat)."""
        if not self._tables.dealt:
            raise RuntimeError("no game dealt yet: call reset() first")
        if self._game is None:
            self._game = Game.new(self.variant.name, self.players, self._seed, self.rules)
            self._played = 0
        for seat, action in self._log[self._played :]:
            decision = decision_of(action)
            assert decision is not None
            self._game.apply(seat, decision)
        self._played = len(self._log)
        return self._game

    def deal(self, seed: int) -> None:
        self._seed = seed
        self._tables.deal(np.array([seed & (2**64 - 1)], np.uint64))
        self._game = None
        self._log = []
        self._gained[:] = 0

    def asked(self) -> tuple[int, ...]:
        self._tables._check()
        asked: tuple[int, ...] = self._asked()
        return asked

    def observation(self, seat: int, view: object = None) -> SeatObservation:
        """``seat``'s vector and action mask, from the core (``view`` is not needed)."""
        self._tables._check()
        obs = np.empty(OBSERVATION_SIZE, np.float32)
        mask = np.empty(ACTION_COUNT, np.int8)
        self._observe(seat, obs, mask)
        return {"observation": obs, "action_mask": mask}

    def observations(self) -> list[SeatObservation]:
        obs, mask = self._tables.observe()
        return [{"observation": o, "action_mask": m} for o, m in zip(obs[0], mask[0], strict=True)]

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        mask: npt.NDArray[np.int8] = self._tables.masks(seat)[0]
        return mask

    def apply(self, seat: int, action: int) -> None:
        """Play ``action`` for ``seat``; :class:`IllegalActionError` (and nothing played) if it
        is not in the seat's mask."""
        self._tables._check()
        if not 0 < action < ACTION_COUNT:
            raise IllegalActionError(f"action {action} is not legal for seat {seat} now")
        actions = self._actions
        actions.fill(-1)
        actions[0, seat] = action
        self._apply()
        if self._flags[0, seat]:
            raise IllegalActionError(f"action {action} is not legal for seat {seat} now")
        self._gained += self._rewards[0]
        self._log.append((seat, action))

    def answer(self, actions: Mapping[int, int]) -> set[int]:
        self._actions[:] = -1
        asked = self.asked()
        for seat in asked:
            action = int(actions[seat])
            self._actions[0, seat] = action if 0 <= action < ACTION_COUNT else ACTION_COUNT
        rewards, illegal, played = self._tables.step(self._actions, self._rewards)
        self._gained += rewards[0]
        self._log.extend((seat, int(played[0, seat])) for seat in asked)
        return {seat for seat in asked if illegal[0, seat]}

    def points(self) -> list[int]:
        return [self._sign * int(s) for s in self._tables.scores()[0]]

    def rewards(self) -> list[float]:
        gained: list[float] = self._gained.tolist()
        self._gained.fill(0)
        return gained


def make_table(variant: str, players: int, rules: Reading = CURRENT) -> Table:
    """The table the environments play ``variant`` on under the reading ``rules``: the compiled
    core's (where it is built), else one over the engine's ``Game``."""
    if core_available():
        return CoreTable(variant, players, rules)
    return Table(variant, players, rules)
