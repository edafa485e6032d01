"""Random play for bots and benchmarks: the compiled core behind thin bindings.

:class:`~arena.engine.game.Game` is the rules' readable reference: it checks every decision and
keeps a history. A bot that plays thousands of games per decision needs neither, so the rules
are implemented once more, for speed, in one place: the compiled core (``_playout_core.c``,
built from source by the install). This module hands it positions and reads back scores:

- :class:`Position`: a game's position, played out to the end (or a few turns) with uniformly
  random decisions for every seat (the first one forced if asked), many times;
- :func:`random_game_scores`: a whole random game from a deal, its final scores;
- :func:`random_game`: the same, recorded as a ``nimmt-replay/1`` replay.

The core draws from its own generator, the project's SplitMix64 (:mod:`arena.engine.rng`),
seeded from the caller's: an int, or one ``getrandbits(64)`` draw of a ``random.Random``. A
whole game is dealt as :meth:`Game.new` deals from a seed (the same seed, the same deal) and the
play continues that generator. The core records what it plays in the replay's form
(:meth:`Position.trace`, :func:`random_game`): the tests verify such records with ``Game`` and
with the independent referee, thousands per variant and reading.

>>> import random
>>> from arena.engine import Game
>>> game = Game.new("basic", players=4, seed=7)
>>> scores = Position(game).playout(random.Random(1))
>>> len(scores), game.turn                      # the game itself is left as it was
(4, 1)
>>> len(random_game_scores("classic", 5, random.Random(2)))
5

Random decisions are uniform over the legal options, as the ``random`` bot takes them: a tile
from the hand, a space for a luck card, an action card with its target (or none), a row.

A position is played under the reading of the rules of the game or snapshot it comes from
(:mod:`arena.engine.readings`), as the Game plays it.

**Backends.** :data:`BACKEND` says which one plays: ``"compiled"``, or ``"game"`` when the core
did not build (no C compiler at install time; ``./dev`` says so) or the environment sets
``NIMMT_PURE_PLAYOUT=1``: then the same random play goes through :class:`Game` itself, correct
and slow (there is no third implementation of the rules). :data:`BACKEND_NOTE` says why.
"""

import os
from collections.abc import Sequence
from functools import cache
from random import Random
from typing import Any, Protocol

from .decisions import (
    Decision,
    DecisionKind,
    Pending,
    PlaceLuck,
    PlayAction,
    PlayTile,
    TakeRow,
)
from .game import (
    EMPTY,
    Game,
    Snapshot,
    competition_ranks,
    deal,
    had_card,
    second_set_due,
)
from .readings import CURRENT, Reading, reading
from .rng import DealRandom
from .variants import ACTION_CARDS, CLASSIC_ROW_LENGTH, Variant, variant

try:
    from . import _playout_core as _compiled
except ImportError:  # built without a C compiler: the Game plays
    _compiled = None  # type: ignore[assignment]

__all__ = [
    "BACKEND",
    "BACKEND_NOTE",
    "CORE",
    "SEED_BITS",
    "Position",
    "TileRule",
    "general_board",
    "random_game",
    "random_game_scores",
    "runs_compiled",
]


def _backend() -> tuple[str, str]:
    if _PURE:
        return "game", "NIMMT_PURE_PLAYOUT is set: playouts go through the Game (slow)"
    if _compiled is None:
        return "game", (
            "arena.engine._playout_core was not built (no C compiler when the project was "
            "installed?): playouts go through the Game, slowly; reinstall with a compiler"
        )
    return "compiled", "the playouts run on the compiled core"


_PURE = os.environ.get("NIMMT_PURE_PLAYOUT", "") not in ("", "0")
#: ``"compiled"`` or ``"game"``: which backend plays the random playouts.
BACKEND, BACKEND_NOTE = _backend()
if _PURE:
    _compiled = None  # type: ignore[assignment]
#: The compiled core's module (``None`` where the Game plays), for rollouts of the bots' own.
CORE = _compiled
#: Whole random games draw a seed of this many bits from the caller's generator: every seed a
#: replay records is then exact in JSON readers that hold numbers as doubles.
SEED_BITS = 53


def runs_compiled(rng: object = None) -> bool:
    """Whether playouts run on the compiled core (:data:`BACKEND` ``"compiled"``); any
    generator with ``getrandbits`` seeds it."""
    return CORE is not None


class TileRule(Protocol):
    """A rule for the tiles of :meth:`Position.playouts` (``rule``), given by the bots
    (:class:`arena.bots.rollouts.Rule`): the engine plays the rules, a policy is a bot's.

    ``policy``: the compiled form the core calls (a capsule of ``_playout_core.h``'s
    ``NimmtPolicy``), or ``None``; ``tile``: the same rule on a :class:`Game`, for the backend
    that plays without the core; ``explore``: the share of uniformly random tiles."""

    @property
    def explore(self) -> float: ...

    @property
    def policy(self) -> object: ...

    def tile(self, game: Game, seat: int, rnd: Random) -> int: ...


# Space kinds of the core; a Plus five luck marker turns a space into _PLUS5.
_PLAIN, _PLUS, _MINUS, _PLUS5, _DRAW, _ACTION = 0, 1, 2, 3, 4, 5
_KIND_CODE = {".": _PLAIN, "+": _PLUS, "-": _MINUS, "D": _DRAW, "A": _ACTION, "F": 0, "C": 0}
_SEAT_BITS = 4  # a revealed tile waiting to be placed is ``tile << 4 | seat`` (<= 10 seats)
_SEAT_MASK = (1 << _SEAT_BITS) - 1

Turn = dict[str, Any]  # a replay turn: {"plays", "choices", "scores"}


# ---------------------------------------------------------------------------------- tables


class _Board:
    """A board side under one reading's bullheads (``bh``) as the core's tables, shared
    read-only by every playout."""

    def __init__(self, rows: tuple[str, ...], bh: tuple[int, ...]) -> None:
        self.bh = bh
        self.length = tuple(len(r) for r in rows)
        self.kinds = tuple(tuple(_KIND_CODE[c] for c in r) for r in rows)
        self.claim = tuple(r[-1] == "C" for r in rows)
        # The basic loop keeps a row as one int, bullheads << shift | slot, where
        # slot = row * stride + next space, and reads the space from ``fast_kind[slot]``:
        # 0 plain, +1 / -1 gain or lose the tile's bullheads, 2 final.
        self.stride = max(self.length)
        self.shift = (len(rows) * self.stride).bit_length()
        kind = [0] * (len(rows) * self.stride)
        for r, row in enumerate(rows):
            for s, c in enumerate(row):
                kind[r * self.stride + s] = {"+": 1, "-": -1, "F": 2, "C": 2}.get(c, 0)
        self.inc = [(b << self.shift) + 1 for b in bh]
        #: Every space a Plus five luck card may ever go on: neither first nor final.
        self.middle = tuple((r, s) for r, n in enumerate(self.length) for s in range(1, n - 1))
        #: The core's tables: the basic loop's and the general simulator's.
        self.core: object = None
        self.general: object = None
        if CORE is not None:
            if self.shift <= 20:
                self.core = CORE.basic_board(kind, self.inc, bh, self.stride, self.shift)
            claim = [int(c) for c in self.claim]
            middle = [x for space in self.middle for x in space]
            self.general = CORE.general_board([list(k) for k in self.kinds], claim, middle)


@cache
def _board(name: str, rules: str = CURRENT.name) -> _Board:
    v = variant(name)
    assert v.board is not None
    return _Board(v.board.rows, reading(rules).bullheads(v))


def general_board(name: str, rules: str = CURRENT.name) -> object:
    """The compiled core's general board of the board variant ``name`` under the reading
    ``rules`` (``None`` where the core is not built): what the core's board tables are made
    of (:mod:`arena.env.core`)."""
    return _board(name, rules).general


# ------------------------------------------------------------------------------ positions


class Position:
    """A game's position copied once into flat lists, to be played out many times.

    Made from a :class:`Game` or from a :class:`~arena.engine.game.Snapshot` of one.
    ``playout(rng)`` plays uniformly random decisions for every seat to the end and returns
    the final scores (after any hand penalty). ``playout(rng, seat, decision)`` first takes
    ``decision`` (one of ``game.legal(seat)``) for ``seat`` where the game waits for it. The
    game itself is not changed.

    >>> import random
    >>> game = Game.new("pro+luck", players=3, seed=4)
    >>> pos = Position(game)
    >>> rng = random.Random(0)
    >>> [len(pos.playout(rng, 0, d)) for d in game.legal(0)[:3]]
    [3, 3, 3]
    """

    def __init__(self, source: Game | Snapshot) -> None:
        snap = source.snapshot() if isinstance(source, Game) else source
        self._snap = snap  # for the Game backend (_game_playout)
        v = variant(snap.variant)
        spaces = snap.spaces
        markers = snap.markers
        self.variant = v
        self.rules: Reading = reading(snap.rules)
        self.bh = self.rules.bullheads(v)
        self.players = len(snap.hands)
        self.scores = list(snap.scores)
        self.hands = [list(h) for h in snap.hands]
        self.held = [list(h) for h in snap.held]
        self.supply = list(snap.supply)
        self.luck_deck = list(snap.luck_deck)
        self.action_deck = list(snap.action_deck)
        self.nturns = len(snap.turns)
        self.set_number = snap.set_number
        self.spaces = [list(r) for r in spaces]
        self.stops = sorted(snap.stops)
        fill = []  # next_space(row) of each row, inlined: positions are made per playout
        for row in spaces:
            n = len(row)
            while n and row[n - 1] == EMPTY:
                n -= 1
            fill.append(n)
        self.fill = fill
        self.board = _board(v.name, snap.rules) if v.board else None
        nrows = len(spaces)
        self.kind: list[list[int]]
        if self.board is None:
            self.kind = [[] for _ in range(nrows)]
            self.f10 = [False] * nrows
        else:
            kinds = self.board.kinds
            self.kind = [
                [_PLUS5 if mark == "plus5" else k for mark, k in zip(marks, kinds[r], strict=True)]
                if any(marks)
                else list(kinds[r])
                for r, marks in enumerate(markers)
            ]
            self.f10 = [marks[-1] == "final10" for marks in markers]
        bh = self.bh
        self.rsum = [sum(bh[t] for t in row if t > 0) for row in spaces]
        active = sorted(
            (spaces[r][fill[r] - 1], r) for r in range(nrows) if fill[r] and r not in self.stops
        )
        self.ends = [e for e, _ in active]
        self.erow = [r for _, r in active]
        self.state = self._rows_state()
        self.empty = sum(1 << r for r, f in enumerate(fill) if f == 0)
        self.over = None if snap.final is None else list(snap.final)
        pending = snap.pending
        self.pending_kind = pending.kind if pending else None
        self.pending_seat = pending.seats[0] if pending else -1
        self.pending_card = pending.card if pending else None
        self.to_choose = pending.seats if pending else ()
        self.chosen = list(snap.chosen)
        self.current = snap.current  # the tile an action card or a row choice is asked for
        # The Game queues revealed tiles in order; here the queue is a stack, lowest last.
        self.queue = [t << _SEAT_BITS | s for t, s in reversed(snap.to_place)]
        # Queued tiles that have had their action card this turn (an Another card's first).
        self.carded: frozenset[int] = frozenset()
        if snap.to_place and pending is not None and pending.kind is not DecisionKind.TILE:
            choices = snap.turns[-1].choices
            self.carded = frozenset(t for t, _ in snap.to_place if had_card(t, choices))
        self._fast = self._fast_path()
        #: What the compiled general simulator reads of the fields that no deal changes
        #: (:meth:`_core_state`), worked out once: the copies of :meth:`with_deal` share it.
        self._fixed = None if self.board is None else self._fixed_state()

    def with_deal(
        self,
        hands: Sequence[Sequence[int]],
        chosen: Sequence[int | None],
        held: Sequence[Sequence[str]],
        supply: Sequence[int],
        luck_deck: Sequence[str],
        action_deck: Sequence[str],
    ) -> "Position":
        """This position with other hidden parts (for many samples of one view): a copy that
        shares the board tables, which playouts never change, and every other part of this
        position: a copy's caller may change its deal and ``to_choose``, nothing else."""
        pos = Position.__new__(Position)
        pos.__dict__.update(self.__dict__)
        pos.hands = [list(h) for h in hands]
        pos.chosen = list(chosen)
        pos.held = [list(h) for h in held]
        pos.supply = list(supply)
        pos.luck_deck = list(luck_deck)
        pos.action_deck = list(action_deck)
        pos._fast = pos._fast_path()
        return pos

    def _dealt(
        self,
        hands: list[list[int]],
        chosen: list[int | None],
        held: list[list[str]],
        supply: list[int],
        luck_deck: list[str],
        action_deck: list[str],
    ) -> "Position":
        """:meth:`with_deal` for a sampler's deals: lists that are the caller's to give, taken
        as they are, dealt in this position's shape (every hand as long, the same seats'
        tiles chosen), so the loop that plays it is this position's."""
        pos = Position.__new__(Position)
        pos.__dict__.update(self.__dict__)
        pos.hands = hands
        pos.chosen = chosen
        pos.held = held
        pos.supply = supply
        pos.luck_deck = luck_deck
        pos.action_deck = action_deck
        return pos

    def _fast_path(self) -> str:
        """Which loop plays this position: ``basic``, ``classic`` or the general one ("")."""
        if self.over is not None:
            return "over"
        if self.variant.classic:
            return "classic"
        if self.variant.name == "basic" and self.pending_kind is DecisionKind.TILE:
            left = {len(h) + (c is not None) for h, c in zip(self.hands, self.chosen, strict=True)}
            if len(left) == 1 and not self.stops:
                return "basic"
        return ""

    # -------------------------------------------------------------- playing out

    def playout(
        self,
        rng: Random,
        seat: int | None = None,
        decision: Decision | None = None,
        turns: int = 0,
        rule: TileRule | None = None,
    ) -> Sequence[float]:
        """Final scores of one game played on from here (see the class docstring).

        ``turns``: stop after this many turns, counting the current one, and return the scores
        as they stand then (0: play to the end). In the professional version a game cut short
        is charged the hand penalty it can expect (every seat pays, for the tiles it holds
        beyond the shortest hand, their mean bullheads), a fraction.
        ``rule``: the tiles are chosen by a rule (see :meth:`playouts`) instead of at random.
        """
        if decision is None:
            return self._play(rng, None, None, turns, 1, rule)[0]
        return self._play(rng, seat, [decision], turns, 1, rule)[0]

    def playouts(
        self,
        rng: Random,
        seat: int,
        decisions: Sequence[Decision],
        turns: int = 0,
        repeat: int = 1,
        rule: TileRule | None = None,
    ) -> Sequence[Sequence[float]]:
        """One playout per decision of ``seat``, all with the same randomness: the final scores
        of each, in order (``turns`` as for :meth:`playout`).

        Common random numbers for comparing decisions: one seed is drawn from ``rng`` for the
        round, so the other seats play the same tiles in the same order and every later random
        choice is drawn alike as far as the games stay alike; the differences between the
        results come from the decisions.

        ``repeat``: that many such rounds in one call, the generator running on, their results
        one after the other: the same as ``repeat`` calls, without the cost of a call per
        round.

        ``rule`` (board game): the tiles are not random but chosen by a bots' rule
        (:class:`TileRule`; the house bots' is :class:`arena.bots.rollouts.Rule`), every seat,
        every turn. Luck-card spaces and action cards stay random.
        """
        return self._play(rng, seat, decisions, turns, repeat, rule)

    def _play(
        self,
        rng: Random,
        seat: int | None,
        decisions: Sequence[Decision] | None,
        turns: int,
        repeat: int,
        rule: TileRule | None,
    ) -> Sequence[Sequence[float]]:
        """:meth:`playouts`, or with ``decisions`` ``None`` one free playout per round."""
        if repeat < 1:
            raise ValueError(f"repeat must be at least 1, not {repeat}")
        if turns < 0:
            raise ValueError(f"turns must be 0 or more, not {turns}")
        _check_rule(self, rule)
        if self.over is not None:
            return [list(self.over) for _ in range(repeat) for _ in decisions or (None,)]
        if CORE is None or (rule is not None and rule.policy is None):
            return _game_playouts(self, rng, seat, decisions, turns, repeat, rule)
        if self._fast and rule is None:
            return self._core_playouts(rng, seat, decisions, turns, repeat)
        return self._general_playouts(rng, seat, decisions, turns, repeat, rule)

    def _core_playouts(
        self,
        rng: Random,
        seat: int | None,
        decisions: Sequence[Decision] | None,
        turns: int,
        repeat: int = 1,
    ) -> list[list[int]]:
        """:meth:`playouts` (or with no ``decisions``, :meth:`playout` with none) on the
        compiled core."""
        core = CORE
        assert core is not None
        if self.pending_kind is DecisionKind.TILE:
            tiles = None
            if decisions is not None and seat is not None:
                tiles = [d.tile for d in decisions if isinstance(d, PlayTile)]
                if len(tiles) != len(decisions):
                    raise ValueError("a tile choice is pending: every decision plays a tile")
            hs = self.variant.hand_size
            second = None
            if second_set_due(self.variant, self.players, self.set_number, len(self.supply)):
                second = [self.supply[s * hs : (s + 1) * hs] for s in range(self.players)]
            board = None if self.board is None else self.board.core
            left = self._left() if self.board is None else 0
            return core.tile_playouts(
                rng, board, self.ends, self.state, self.erow, self.empty, self.scores,
                self.hands, self.chosen, second, -1 if seat is None else seat, tiles,
                turns, left, repeat,
            )  # fmt: skip
        picks = None
        if decisions is not None:
            picks = [d.row for d in decisions if isinstance(d, TakeRow)]
            if len(picks) != len(decisions):
                raise ValueError("a row choice is pending: every decision takes a row")
        return core.row_playouts(
            rng, self.ends, self.state, self.erow, self.scores, self._head_codes(),
            self.hands, turns, self._left(), picks, repeat,
        )  # fmt: skip

    def _general_playouts(
        self,
        rng: Random,
        seat: int | None,
        decisions: Sequence[Decision] | None,
        turns: int,
        repeat: int = 1,
        rule: TileRule | None = None,
    ) -> list[list[float]]:
        """:meth:`playouts` (or :meth:`playout`) on the compiled general simulator."""
        core = CORE
        board = self.board
        assert core is not None and board is not None
        coded = None if decisions is None else [_decision_code(d) for d in decisions]
        return core.general_playouts(
            rng, board.general, self._core_state(), -1 if seat is None else seat, coded,
            turns, repeat, *_rule_args(rule),
        )  # fmt: skip

    def _core_state(self) -> tuple[Any, ...]:
        """The position's fields as the compiled general simulator reads them."""
        head, middle, tail = self._fixed or self._fixed_state()
        return (
            *head,
            [[_ACTION_CODE[c] for c in h] for h in self.held], self.scores, self.supply,
            [_LUCK_CODE[c] for c in self.luck_deck], [_ACTION_CODE[c] for c in self.action_deck],
            *middle, self.hands, *tail, list(self.to_choose), self.chosen,
        )  # fmt: skip

    def _fixed_state(self) -> tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]:
        """The fields of :meth:`_core_state` that a deal does not change, in three runs."""
        rules = self.rules
        kind = {DecisionKind.TILE: 1, DecisionKind.LUCK: 2, DecisionKind.ACTION: 3}
        head = (
            self.players, int(self.variant.actions), self.variant.hand_size,
            int(rules.stop_on_own_row), int(rules.another_lowest_first),
            int(rules.plus5_replaces), self.bh, self.spaces, self.fill, self.kind, self.f10,
            self.rsum, self.ends, self.erow, self.stops,
        )  # fmt: skip
        middle = (self.nturns, self.set_number, self.queue, list(self.carded))
        tail = (
            kind.get(self.pending_kind, 0) if self.pending_kind is not None else 0,
            self.pending_seat, _LUCK_CODE.get(self.pending_card or "", -1),
            self.current or (0, 0),
        )  # fmt: skip
        return head, middle, tail

    def _left(self) -> int:
        """An upper bound on the tiles still to be placed."""
        return sum(map(len, self.hands)) + len(self.queue) + self.players + 1

    def trace(
        self,
        rng: Random,
        seat: int | None = None,
        decision: Decision | None = None,
        turns: int = 0,
        rule: TileRule | None = None,
    ) -> tuple[list[Turn], Sequence[float]]:
        """The playout :meth:`playout` plays with the same arguments, recorded by the core: the
        turns from here on in the replay's form, and the scores. If the position is in the
        middle of a turn, the first entry finishes that turn and its ``plays`` is ``None``."""
        _check_rule(self, rule)
        if self.over is not None:
            return [], list(self.over)
        record: list[Turn] = []
        if self.pending_kind is not DecisionKind.TILE:
            record.append({"plays": None, "choices": [], "scores": []})
        scores: Sequence[float]
        if CORE is None or (rule is not None and rule.policy is None):
            once = None if decision is None else [decision]
            scores = _game_playouts(self, rng, seat, once, turns, 1, rule, record)[0]
            return record, scores
        board = self.board
        if self._fast and rule is None and self.pending_kind is DecisionKind.TILE:
            tiles = None if decision is None else [self._tile_of(decision)]
            scores = CORE.tile_playouts(
                rng, None if board is None else board.core, self.ends, self.state, self.erow,
                self.empty, self.scores, self.hands, self.chosen, self._second(),
                -1 if seat is None else seat, tiles, turns,
                self._left() if board is None else 0, 1, record,
            )[0]  # fmt: skip
        elif self._fast and rule is None:  # the card game's row choice
            picks = None if decision is None else [self._row_of(decision)]
            scores = CORE.row_playouts(
                rng, self.ends, self.state, self.erow, self.scores, self._head_codes(),
                self.hands, turns, self._left(), picks, 1, record,
            )[0]  # fmt: skip
        else:
            assert board is not None
            coded = None if decision is None else [_decision_code(decision)]
            scores = CORE.general_playouts(
                rng, board.general, self._core_state(), -1 if seat is None else seat, coded,
                turns, 1, *_rule_args(rule), record,
            )[0]  # fmt: skip
        return record, scores

    def to_game(self) -> Game:
        """This position as a :class:`Game` (its deal as this position holds it)."""
        snap = self._snap
        pending = snap.pending
        if pending is not None:
            pending = Pending(pending.kind, tuple(self.to_choose), pending.tile, pending.card)
        return Game.from_snapshot(
            snap._replace(
                hands=[list(h) for h in self.hands],
                chosen=list(self.chosen),
                held=[list(h) for h in self.held],
                supply=list(self.supply),
                luck_deck=list(self.luck_deck),
                action_deck=list(self.action_deck),
                pending=pending,
            )
        )

    def _second(self) -> list[list[int]] | None:
        """Each seat's second set, if it is due (basic, 2-3 players)."""
        hs = self.variant.hand_size
        if not second_set_due(self.variant, self.players, self.set_number, len(self.supply)):
            return None
        return [self.supply[s * hs : (s + 1) * hs] for s in range(self.players)]

    @staticmethod
    def _tile_of(d: Decision) -> int:
        if not isinstance(d, PlayTile):
            raise ValueError("a tile choice is pending: every decision plays a tile")
        return d.tile

    @staticmethod
    def _row_of(d: Decision) -> int:
        if not isinstance(d, TakeRow):
            raise ValueError("a row choice is pending: every decision takes a row")
        return d.row

    def _rows_state(self) -> list[int]:
        """The fast loops' row states, by sorted position (the same for every playout)."""
        if self.board is None:  # the card game: cards << 6 | bullheads
            return [(self.fill[r] << 6) + self.rsum[r] for r in self.erow]
        board = self.board
        return [(self.rsum[r] << board.shift) + r * board.stride + self.fill[r] for r in self.erow]

    def _head_codes(self) -> list[int]:
        """A pending row choice: the rest of this turn, as turn 0 (the row is asked again)."""
        assert self.current is not None
        tile, owner = self.current
        return [tile << _SEAT_BITS | owner, *reversed(self.queue)]


def _check_rule(pos: Position, rule: TileRule | None) -> None:
    if rule is None:
        return
    if pos.board is None:
        raise ValueError("the card game's rule playouts are in arena.bots.rollouts")
    if not 0 <= rule.explore <= 1:
        raise ValueError(f"rule: explore is a probability from 0 to 1, not {rule.explore}")


def _rule_args(rule: TileRule | None) -> tuple[object, float]:
    """A rule as the core takes it: the policy's capsule (or None: random) and its share of
    random tiles."""
    return (None, 0.0) if rule is None else (rule.policy, rule.explore)


_ACTION_CODE = {card: i for i, card in enumerate(ACTION_CARDS)}
_LUCK_CODE = {"plus5": 0, "final10": 1}


def _decision_code(d: Decision) -> tuple[int, int, int, int]:
    """A forced decision as the compiled general simulator reads it."""
    if isinstance(d, PlayTile):
        return (1, d.tile, 0, 0)
    if isinstance(d, PlaceLuck):
        return (2, d.row, d.space, 0)
    if isinstance(d, PlayAction):
        card = -1 if d.card is None else _ACTION_CODE[d.card]
        row = -1 if d.row is None else d.row
        return (3, card, row, -1 if d.new_tile is None else d.new_tile)
    raise ValueError(f"the board game takes no decision {d!r} here")


# ------------------------------------------------------------------------- the Game backend


def _game_playouts(
    pos: Position,
    rng: Random,
    seat: int | None,
    decisions: Sequence[Decision] | None,
    turns: int,
    repeat: int,
    rule: TileRule | None,
    record: list[Turn] | None = None,
) -> list[list[float]]:
    """:meth:`Position.playouts` where the core is not built (or the rule has no compiled
    form): the same play through the :class:`Game` (random decisions uniform over
    ``game.legal``, tiles by ``rule`` if given), one seed per round."""
    results = []
    for _ in range(repeat):
        seed = rng.getrandbits(64)
        for d in decisions or (None,):
            results.append(_game_playout(pos, Random(seed), seat, d, turns, record, rule))
    return results


def _game_playout(
    pos: Position,
    rnd: Random,
    seat: int | None,
    decision: Decision | None,
    turns: int,
    record: list[Turn] | None,
    rule: TileRule | None = None,
) -> list[float]:
    snap = pos._snap
    pending = snap.pending
    assert pending is not None
    game = pos.to_game()
    start = len(snap.turns)
    limit = start + turns - (pending.kind is not DecisionKind.TILE) if turns else None
    if decision is not None:
        if seat is None:
            raise ValueError("a decision needs its seat")
        game.apply(seat, decision)
    while not game.is_over():
        waiting = game.pending
        assert waiting is not None
        if (
            limit is not None
            and waiting.kind is DecisionKind.TILE
            and len(game.turns) >= limit
            and not any(game.chosen(s) is not None for s in range(game.players))
        ):
            break
        who = waiting.seats[0]
        if rule is not None and waiting.kind is DecisionKind.TILE:
            game.apply(who, PlayTile(rule.tile(game, who, rnd)))
        else:
            game.apply(who, rnd.choice(game.legal(who)))
    if record is not None:
        if record:  # the turn in progress: the choices made here
            done = len(snap.turns[-1].choices)
            record[0]["choices"] = list(game.turns[start - 1].choices[done:])
            record[0]["scores"] = list(game.turns[start - 1].scores)
        for t in game.turns[start:]:
            record.append(
                {"plays": list(t.plays), "choices": list(t.choices), "scores": list(t.scores)}
            )
    if game.is_over():
        return list(game.result().scores)
    if not turns or not pos.variant.actions:
        return list(game.scores)
    shortest = min(map(len, game.hands))  # a cut game: the hand penalty to expect
    bh = pos.bh
    return [
        score - (len(hand) - shortest) * sum(bh[t] for t in hand) / len(hand)
        if len(hand) > shortest
        else score
        for score, hand in zip(game.scores, game.hands, strict=True)
    ]


# ------------------------------------------------------------------------- entry points


def _shuffled_deal(v: Variant, seed: int) -> tuple[list[int], list[str], list[str], int]:
    """The tiles and both decks in the order :meth:`Game.new` deals them from ``seed``, and
    the generator's state after the deal (the play goes on from there)."""
    if CORE is not None:
        luck, actions = v.luck_deck, v.action_deck
        (tiles, lorder, aorder), state = CORE.deal_orders(seed, (v.tiles, len(luck), len(actions)))
        return (
            [t + 1 for t in tiles],
            [luck[i] for i in lorder],
            [actions[i] for i in aorder],
            state,
        )
    rng = DealRandom(seed)
    tiles = list(range(1, v.tiles + 1))
    rng.shuffle(tiles)
    luck_ = list(v.luck_deck)
    rng.shuffle(luck_)
    actions_ = list(v.action_deck)
    rng.shuffle(actions_)
    return tiles, luck_, actions_, rng.state


def _start(
    name: str,
    rows: Sequence[Sequence[int]],
    hands: Sequence[Sequence[int]],
    supply: Sequence[int],
    luck_deck: Sequence[str] = (),
    action_deck: Sequence[str] = (),
    rules: Reading = CURRENT,
) -> Position:
    """The start of a game from its deal, without a Game."""
    v = variant(name)
    length = [len(r) for r in v.board.rows] if v.board else [CLASSIC_ROW_LENGTH] * len(rows)
    spaces = [list(row) + [EMPTY] * (n - len(row)) for row, n in zip(rows, length, strict=True)]
    players = len(hands)
    # Positional: keyword arguments to a NamedTuple cost 0.8% of a professional random game.
    snap = Snapshot(
        name,  # variant
        spaces,
        [[None] * len(r) for r in spaces],  # markers
        (),  # stops
        [sorted(h) for h in hands],
        [[] for _ in hands],  # held
        [0] * players,  # scores
        supply,
        luck_deck,
        action_deck,
        (),  # box
        1,  # set_number
        (),  # turns
        [None] * players,  # chosen
        (),  # to_place
        None,  # current
        Pending(DecisionKind.TILE, tuple(s for s, h in enumerate(hands) if h)),
        None,  # final
        rules.name,
    )
    return Position(snap)


@cache
def _start_parts(name: str, players: int, rules: str) -> tuple[Any, ...]:
    """The parts of a start position's :meth:`Position._core_state` that no deal changes,
    worked out once per variant, player count and reading."""
    v = variant(name)
    v.check_players(players)
    tiles = list(range(1, v.tiles + 1))
    pos = _start(name, *deal(v, players, tiles), v.luck_deck, v.action_deck, reading(rules))
    assert pos.board is not None
    return (*pos._fixed_state(), pos.board)


def _start_state(
    v: Variant, players: int, rules: Reading, tiles: list[int], luck: list[str], actions: list[str]
) -> tuple[Any, ...]:
    """``Position(start)._core_state()`` of the start of a game dealt ``tiles``, ``luck`` and
    ``actions`` (RULES.md 2), without making the position: the general simulator's whole
    random games."""
    head, middle, tail, board = _start_parts(v.name, players, rules.name)
    bh, start, hs = head[6], v.start_rows, v.hand_size
    spaces = [[EMPTY] * n for n in board.length]
    fill = [0] * len(spaces)
    rsum = [0] * len(spaces)
    for r in range(start):
        spaces[r][0] = tiles[r]
        fill[r] = 1
        rsum[r] = bh[tiles[r]]
    active = sorted(zip(tiles[:start], range(start), strict=True))
    hands = [sorted(tiles[start + s * hs : start + (s + 1) * hs]) for s in range(players)]
    return (
        *head[:7], spaces, fill, head[9], head[10], rsum, [e for e, _ in active],
        [r for _, r in active], head[14], [[] for _ in range(players)], [0] * players,
        tiles[start + players * hs :], [_LUCK_CODE[c] for c in luck],
        [_ACTION_CODE[c] for c in actions], *middle, hands, *tail, list(range(players)),
        [None] * players,
    )  # fmt: skip


@cache
def _fast_game(name: str, players: int, rules: str) -> tuple[object, int, int, bool] | None:
    """The core's whole-game loop's arguments (board, tiles, hand size, second set) for a
    game of ``name`` at ``players`` (checked), or ``None`` if the variant needs the general
    simulator (luck or action cards)."""
    v = variant(name)
    v.check_players(players)
    if v.luck or v.actions:
        return None
    board = None if v.classic else _board(v.name, rules).core
    supply = v.tiles - v.start_rows - players * v.hand_size
    return board, v.tiles, v.hand_size, second_set_due(v, players, 1, supply)


def random_game_scores(name: str, players: int, rng: Random, rules: Reading = CURRENT) -> list[int]:
    """Deal a game of variant ``name``, play it with random decisions under the reading
    ``rules``, return final scores.

    The deal is :meth:`Game.new`'s from a seed of :data:`SEED_BITS` bits drawn from ``rng``.
    """
    fast = _fast_game(name, players, rules.name)
    seed = rng.getrandbits(SEED_BITS)
    if CORE is None:
        game = Game.new(name, players, seed, rules)
        return [int(s) for s in _game_playout(Position(game), Random(seed), None, None, 0, None)]
    if fast is not None:
        board, count, hand_size, second = fast
        return CORE.random_games(board, players, count, hand_size, second, seed, 1)[0]
    v = variant(name)
    tiles, luck, actions, state = _shuffled_deal(v, seed)
    general = _start_parts(name, players, rules.name)[-1].general
    start = _start_state(v, players, rules, tiles, luck, actions)
    return [int(s) for s in CORE.general_playouts(state, general, start, -1, None, 0, 1)[0]]


def random_game(name: str, players: int, rng: Random, rules: Reading = CURRENT) -> dict[str, Any]:
    """A random game played by the core under the reading ``rules``, as a ``nimmt-replay/1``
    record: dealt as :meth:`Game.new` deals from its ``seed`` (drawn from ``rng``), played
    as :func:`random_game_scores` plays the same seed.

    The record re-simulates with :func:`arena.engine.replay.verify`: that is how the tests
    show that the core's random games are the Game API's games.
    """
    v = variant(name)
    v.check_players(players)
    seed = rng.getrandbits(SEED_BITS)
    game = Game.new(name, players, seed, rules)
    setup = game.setup
    turns: list[Turn] = []
    fast = _fast_game(name, players, rules.name)
    if CORE is None:
        scores: Sequence[float] = _game_playout(Position(game), Random(seed), None, None, 0, turns)
    elif fast is not None:
        board, tiles, hand_size, second = fast
        scores = CORE.random_games(board, players, tiles, hand_size, second, seed, 1, turns)[0]
    else:
        *_, state = _shuffled_deal(v, seed)
        pos = Position(game)
        assert pos.board is not None
        scores = CORE.general_playouts(
            state, pos.board.general, pos._core_state(), -1, None, 0, 1, None, 0.0, turns
        )[0]
    final = [int(score) for score in scores]
    return {
        "format": "nimmt-replay/1",
        "variant": name,
        "seed": seed,
        "players": [{"name": f"random {s}"} for s in range(players)],
        "layout": list(v.board.rows) if v.board else [],
        "setup": setup,
        "turns": turns,
        "result": {
            "scores": final,
            "ranks": list(competition_ranks(final, v.higher_is_better)),
            "faults": [],
        },
        "rules": rules.name,
    }
