"""The lean simulation path: random playouts for bots, tested to give the Game API's games.

:class:`~arena.engine.game.Game` checks every decision and keeps a history; a bot that plays
thousands of games per decision needs neither. This module plays the same rules on flat lists
of integers and makes no object per placement:

- the rows that take tiles are a sorted list of their last tiles, so the row a tile goes to is
  one :func:`bisect.bisect` away, and a normal placement keeps that list sorted in place;
- random play consumes hands shuffled once up front (a sort keyed by C-level ``random()``
  calls), which is the same as a uniform choice from the hand every turn;
- basic and the card game (no decisions during a turn but the card game's row choice) have
  loops of their own; basic + luck and the professional version go through one general
  simulator that handles luck cards, action cards and every point where a game can be resumed.

A playout can be recorded in the replay's form (:meth:`Position.trace`, :func:`random_game`):
that is how the tests show that the lean path plays the Game API's games, decision by decision
and score by score.

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
(:mod:`arena.engine.readings`): the bullhead table, the Stop card's rows, the Another card's
order and the Plus five card's effect are looked up there, as the Game looks them up.

**Backends.** The whole lean path's random play also exists compiled, in
``_playout_core.c``, built from source by the install: the basic and card-game loops (a tile
choice, and the card game's row choice) and the general simulator. It plays the same games
from the same generator, draw for draw (``tests/test_playout_core.py`` compares them game by
game), ten to forty times faster (``benchmarks/playout_core.py``). :data:`BACKEND` says
which one plays: ``"compiled"``, or ``"python"`` when the module did not build (no C
compiler at install time), or this interpreter's ``random.Random`` is laid out differently,
or the environment sets ``NIMMT_PURE_PLAYOUT=1``; :data:`BACKEND_NOTE` says why. The
compiled core takes only a plain ``random.Random``; any other generator plays on the Python
path, and so does a recorded playout (:meth:`Position.trace`).
"""

import os
from bisect import bisect
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache, partial
from itertools import chain, groupby, starmap
from operator import add
from random import Random
from typing import Any

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
    SKIPPED,
    Game,
    Snapshot,
    competition_ranks,
    deal,
    final_scores,
    had_card,
    put_first,
    second_set_due,
)
from .readings import CURRENT, Reading, reading
from .tiles import CARD_BULLHEADS
from .variants import ACTION_CARDS, CLASSIC_ROW_LENGTH, PRO_TURN_CAP, Variant, variant

try:
    from . import _playout_core as _compiled
except ImportError:  # built without a C compiler: the pure path plays
    _compiled = None  # type: ignore[assignment]

__all__ = [
    "BACKEND",
    "BACKEND_NOTE",
    "CORE",
    "Position",
    "random_game",
    "random_game_scores",
    "runs_compiled",
]


def _backend() -> tuple[str, str]:
    if os.environ.get("NIMMT_PURE_PLAYOUT", "") not in ("", "0"):
        return "python", "NIMMT_PURE_PLAYOUT is set"
    if _compiled is None:
        return "python", (
            "arena.engine._playout_core was not built (no C compiler when the project was "
            "installed?); reinstall with a compiler for the compiled playouts"
        )
    if not _compiled.usable():
        return "python", "this interpreter's random.Random is not laid out as the core reads it"
    return "compiled", "the playouts run compiled"


#: ``"compiled"`` or ``"python"``: which backend plays the random playouts.
BACKEND, BACKEND_NOTE = _backend()
#: The compiled core's module (``None`` if it was not built), for rollouts of the bots' own.
CORE = _compiled


def runs_compiled(rng: Random) -> bool:
    """Whether a playout with ``rng`` runs on the compiled core (a plain ``random.Random``
    and :data:`BACKEND` ``"compiled"``)."""
    return BACKEND == "compiled" and type(rng) is Random


# Space kinds of the general simulator; a Plus five luck marker turns a space into _PLUS5.
_PLAIN, _PLUS, _MINUS, _PLUS5, _DRAW, _ACTION = 0, 1, 2, 3, 4, 5
_KIND_CODE = {".": _PLAIN, "+": _PLUS, "-": _MINUS, "D": _DRAW, "A": _ACTION, "F": 0, "C": 0}
_SEAT_BITS = 4  # a revealed tile waiting to be placed is ``tile << 4 | seat`` (<= 10 seats)
_SEAT_MASK = (1 << _SEAT_BITS) - 1
#: Card game row state: cards << 6 | bullheads (a row holds at most 5 x 7 bullheads), so that
#: a row of five cards, which the next card takes, is ``state >= _CLASSIC_FULL``.
_CLASSIC_INC = tuple(64 + b for b in CARD_BULLHEADS)
_CLASSIC_FULL = CLASSIC_ROW_LENGTH << 6
_NO_KEYS = [()] * len(CARD_BULLHEADS)  # starmap arguments: one random key per tile number

_Action = tuple[str | None, int, int]  # an action: (card or None, row or -1, new tile or -1)
Turn = dict[str, Any]  # a replay turn: {"plays", "choices", "scores"}


# ---------------------------------------------------------------------------------- tables


class _Board:
    """A board side under one reading's bullheads (``bh``) as flat tables, shared read-only by
    every simulation."""

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
        self.fast_kind = kind
        self.inc = [(b << self.shift) + 1 for b in bh]
        #: Every space a Plus five luck card may ever go on: neither first nor final.
        self.middle = tuple((r, s) for r, n in enumerate(self.length) for s in range(1, n - 1))
        #: The same tables for the compiled basic loop and general simulator.
        self.core: object = None
        self.general: object = None
        if _compiled is not None and self.shift <= 20:
            self.core = _compiled.basic_board(kind, self.inc, bh, self.stride, self.shift)
        if _compiled is not None:
            claim = [int(c) for c in self.claim]
            middle = [x for space in self.middle for x in space]
            self.general = _compiled.general_board([list(k) for k in self.kinds], claim, middle)


@cache
def _board(name: str, rules: str = CURRENT.name) -> _Board:
    v = variant(name)
    assert v.board is not None
    return _Board(v.board.rows, reading(rules).bullheads(v))


def random_keys(rng: Random) -> list[float]:
    """A uniform key per tile number: sorting by it shuffles any set of tiles, at C speed."""
    return list(starmap(rng.random, _NO_KEYS))


def shuffled(items: Sequence[str], key: Callable[[int], float]) -> list[str]:
    """``items`` in the random order that :func:`random_keys` give their positions."""
    return [items[i] for i in sorted(range(len(items)), key=key)]


# -------------------------------------------------------------------------- fast loops
#
# The basic and card-game loops take every tile still to be played as one sorted list of
# codes ``turn << 12 | tile << 4 | seat``: sorting it orders the turns and, within a turn, the
# tiles, so a whole game is one loop with no per-turn work.

_TILE_SHIFTED = tuple(t << _SEAT_BITS for t in range(256))


@cache
def _turn_major_offsets(players: int) -> tuple[int, ...]:
    """Code offsets of a turn-major list of plays: entry k is turn k // players, that seat."""
    return tuple((k // players) << 12 | k % players for k in range(24 * players))


@cache
def _seat_offsets(seat: int, first_turn: int) -> tuple[int, ...]:
    """Code offsets of one seat's tiles in playing order, from turn ``first_turn`` on."""
    return tuple((first_turn + k) << 12 | seat for k in range(32))


def _codes(seqs: Sequence[Sequence[int] | None], first_turn: int = 0) -> list[int]:
    """Sorted codes of each seat's tiles in the order it plays them (``None``: left out)."""
    shifted = _TILE_SHIFTED.__getitem__
    return sorted(
        chain.from_iterable(
            map(add, map(shifted, seq), _seat_offsets(s, first_turn))
            for s, seq in enumerate(seqs)
            if seq is not None
        )
    )


def _basic_loop(
    ends: list[int],
    state: list[int],
    empty: int,
    scores: list[int],
    codes: Iterable[int],
    board: _Board,
) -> int:
    """Place the coded tiles on the basic board; the new ``empty``.

    ``ends``: the rows' last tiles, sorted; ``state[i]``: the row ending in ``ends[i]``
    (bullheads << shift | slot); ``empty``: bit r set for every empty row.
    """
    kind = board.fast_kind
    inc = board.inc
    bh = board.bh
    stride = board.stride
    shift = board.shift
    mask = (1 << shift) - 1
    for c in codes:
        t = (c >> 4) & 255
        i = bisect(ends, t) - 1
        if i >= 0:
            ends[i] = t
        else:  # lower than every row: the row with the highest end takes it
            ends.pop()
            ends.insert(0, t)
            state.insert(0, state.pop())
            i = 0
        x = state[i]
        m = kind[x & mask]
        if not m:
            state[i] = x + inc[t]
        elif m == 2:  # final space: pay the row; the tile moves to the topmost empty row
            scores[c & 15] -= x >> shift
            low = empty & -empty
            empty ^= low | (1 << ((x & mask) // stride))
            state[i] = inc[t] + (low.bit_length() - 1) * stride
        else:
            state[i] = x + inc[t]
            scores[c & 15] += m * bh[t]
    return empty


def _classic_loop(
    ends: list[int],
    state: list[int],
    rows: list[int],
    scores: list[int],
    codes: Iterable[int],
    pick: Callable[[int], int] | None,
    random_row: Callable[[], int],
) -> None:
    """Place the coded cards: ``state[i]`` is cards << 6 | bullheads of the row ending in
    ``ends[i]``, which is row ``rows[i]`` (kept up to date only with a ``pick``).

    A card lower than every row takes the row ``pick(seat)`` names, or (no ``pick``, or it
    returns -1) the row at the sorted position ``random_row()`` gives: uniform in 0..3.
    """
    inc = _CLASSIC_INC
    full = _CLASSIC_FULL
    for c in codes:
        t = (c >> 4) & 255
        i = bisect(ends, t) - 1
        if i >= 0:
            ends[i] = t
            x = state[i]
            if x >= full:
                scores[c & 15] += x & 63
                state[i] = inc[t]
            else:
                state[i] = x + inc[t]
        else:
            if pick is None:
                j = random_row()  # the card game has four rows
            else:
                row = pick(c & 15)
                j = random_row() if row < 0 else rows.index(row)
                rows.insert(0, rows.pop(j))
            scores[c & 15] += state[j] & 63
            del ends[j], state[j]
            ends.insert(0, t)
            state.insert(0, inc[t])


# ----------------------------------------------------------------------- general simulator


class _Sim:
    """Any board-game variant from any point, with random decisions (the first one forced if
    asked).

    The board is kept as the Game keeps it (``spaces``, ``fill``), plus the sorted last tiles
    of the active rows (``ends``, their rows in ``erow``), each row's bullheads and its space
    kinds with Plus five markers folded in. In random mode each hand is in a random order and
    its last tile is played next; a tile that joins a hand goes to a random place in it.
    """

    __slots__ = (
        "act_i",
        "actions",
        "bh",
        "board",
        "carded",
        "ends",
        "erow",
        "f10",
        "fill",
        "final",
        "forced",
        "hands",
        "held",
        "hs",
        "kind",
        "length",
        "luck",
        "luck_i",
        "nturns",
        "players",
        "pro",
        "queue",
        "random",
        "record",
        "rsum",
        "rule",
        "rules",
        "scores",
        "set_number",
        "spaces",
        "stops",
        "sup_i",
        "supply",
        "variant",
    )

    def __init__(self, pos: "Position", rng: Random, rule: float | None = None) -> None:
        v = pos.variant
        board = pos.board
        assert board is not None, "the card game has loops of its own"
        self.variant = v
        self.rules = pos.rules
        self.bh = pos.bh
        self.carded = set(pos.carded)  # queued tiles that have had their action card (Another)
        self.players = pos.players
        self.pro = v.actions
        self.hs = v.hand_size
        self.board = board
        self.length = board.length
        self.spaces = [list(r) for r in pos.spaces]
        self.fill = list(pos.fill)
        self.kind = list(pos.kind)  # rows copied when a marker changes them
        self.f10 = list(pos.f10)
        self.rsum = list(pos.rsum)
        self.ends = list(pos.ends)
        self.erow = list(pos.erow)
        self.stops = list(pos.stops)
        self.held = [list(h) for h in pos.held]
        self.scores = list(pos.scores)
        self.supply = pos.supply  # read-only: drawn up to sup_i
        self.sup_i = 0
        self.luck = pos.luck_deck
        self.luck_i = 0
        self.actions = pos.action_deck
        self.act_i = 0
        self.nturns = pos.nturns
        self.set_number = pos.set_number
        self.queue = list(pos.queue)
        self.final: list[int] | None = None
        self.forced: Decision | None = None
        self.record: list[Turn] | None = None
        self.random = rng.random
        self.rule = -1.0 if rule is None else rule  # below 0: random tiles
        key = random_keys(rng).__getitem__
        self.hands = [sorted(h, key=key) for h in pos.hands]

    # -------------------------------------------------------------- turns

    def run(self, pos: "Position", first: int | None, turns: int = 0) -> list[int]:
        """Play to the end from ``pos`` (or only ``turns`` turns, counting the current one;
        then the scores as they stand); ``first``: the seat whose forced tile comes first."""
        kind = pos.pending_kind
        limit = pos.nturns + turns - (kind is not DecisionKind.TILE) if turns else 1 << 30
        if kind is DecisionKind.TILE:
            to_choose = pos.to_choose
            if first is not None:
                to_choose = (first, *(s for s in to_choose if s != first))
            self._turn(pos.chosen, to_choose)
        elif kind is not None:
            if kind is DecisionKind.LUCK:
                assert pos.pending_card is not None
                self._luck(pos.pending_seat, pos.pending_card)
            else:  # an action card: the Game asks again when the tile comes up
                assert pos.current is not None
                tile, seat = pos.current
                self.queue.append(tile << _SEAT_BITS | seat)
            self._place_queue()
            self._end_turn()
        everyone = (None,) * self.players
        hands = self.hands
        while self.final is None and self.nturns < limit:
            self._turn(everyone, [s for s in range(self.players) if hands[s]])
        return self.scores if self.final is None else self.final

    def cut_scores(self) -> list[float]:
        """The scores of a playout cut short. Professional version: the game ends when the
        shortest hand runs out, and every seat then pays for the tiles it still holds; under
        random play those are a random part of its hand, so the expected bullheads are
        charged."""
        if self.final is not None or not self.pro:
            return list(self.scores if self.final is None else self.final)
        shortest = min(map(len, self.hands))
        bh = self.bh
        return [
            score - (len(hand) - shortest) * sum(bh[t] for t in hand) / len(hand)
            if len(hand) > shortest
            else score
            for score, hand in zip(self.scores, self.hands, strict=True)
        ]

    def _turn(self, chosen: Sequence[int | None], to_choose: Sequence[int]) -> None:
        codes = [t << _SEAT_BITS | s for s, t in enumerate(chosen) if t is not None]
        hands = self.hands
        forced = self.forced
        if forced is not None:  # the first seat to choose plays the forced tile
            assert isinstance(forced, PlayTile)
            self.forced = None
            first, *rest = to_choose
            hands[first].remove(forced.tile)
            codes.append(forced.tile << _SEAT_BITS | first)
            to_choose = rest
        if self.rule < 0:
            codes += [hands[s].pop() << _SEAT_BITS | s for s in to_choose]
        else:
            codes += [self._rule_tile(s) << _SEAT_BITS | s for s in to_choose]
        self.nturns += 1
        if self.record is not None:
            recorded: list[int | None] = [None] * self.players
            for c in codes:
                recorded[c & _SEAT_MASK] = c >> _SEAT_BITS
            self.record.append({"plays": recorded, "choices": [], "scores": []})
        codes.sort(reverse=True)  # a stack: pop() gives the lowest tile
        self.queue = codes
        self._place_queue()
        self._end_turn()

    def _rule_tile(self, seat: int) -> int:
        """The tile the rule plays from ``seat``'s hand (:meth:`Position.playouts`): with
        probability ``rule`` a random one, else the cheapest by :meth:`_rule_cost`, ties
        broken uniformly."""
        hand = self.hands[seat]
        rnd = self.random
        if rnd() < self.rule:
            return hand.pop(int(rnd() * len(hand)))
        cost = self._rule_cost
        best = 1 << 30
        k = ties = 0
        for j, t in enumerate(hand):
            c = cost(t)
            if c < best:
                best, k, ties = c, j, 1
            elif c == best:
                ties += 1
                if rnd() * ties < 1:  # a uniform choice among the ties
                    k = j
        return hand.pop(k)

    def _rule_cost(self, t: int) -> int:
        """What ``t`` would cost its player landing alone on the board as it stands, in half
        points: a completed row's bullheads (half of them on a claim space, whose tiles come
        back to hand), less 10 for a +10 marker; a space's gain or loss; half a point for a
        draw, a point gained for an action card (while the supply or the deck lasts)."""
        i = bisect(self.ends, t) - 1  # -1: below every row, the last row takes it
        row = self.erow[i]
        f = self.fill[row]
        if f == self.length[row] - 1:
            cost = self.rsum[row] if self.board.claim[row] else 2 * self.rsum[row]
            return cost - 20 if self.f10[row] else cost
        k = self.kind[row][f]
        if k == _PLUS:
            return -2 * self.bh[t]
        if k == _MINUS:
            return 2 * self.bh[t]
        if k == _PLUS5:
            return -10
        if k == _DRAW:
            return 1 if self.sup_i < len(self.supply) else 0
        if k == _ACTION:
            return -2 if self.act_i < len(self.actions) else 0
        return 0

    def _place_queue(self) -> None:
        """Place the revealed tiles; the common placements are inlined, the rest call out."""
        queue = self.queue
        held = self.held
        ends = self.ends
        erow = self.erow
        fill = self.fill
        spaces = self.spaces
        kind = self.kind
        rsum = self.rsum
        scores = self.scores
        length = self.length
        bh = self.bh
        carded = self.carded
        while queue:
            c = queue.pop()
            t = c >> _SEAT_BITS
            seat = c & _SEAT_MASK
            if held[seat] and not (carded and t in carded):
                action = self._decide_action(seat, t)
                if action is not None:
                    self._play_action(seat, t, action)
                    continue
            i = bisect(ends, t) - 1
            if i >= 0:
                row = erow[i]
                f = fill[row]
                if f + 1 < length[row]:  # not the final space
                    ends[i] = t
                    spaces[row][f] = t
                    fill[row] = f + 1
                    rsum[row] += bh[t]
                    k = kind[row][f]
                    if k:
                        if k == _PLUS:
                            scores[seat] += bh[t]
                        elif k == _MINUS:
                            scores[seat] -= bh[t]
                            if self.luck_i < len(self.luck):
                                self._after_loss(seat)
                        elif k == _PLUS5:
                            scores[seat] += 5
                        elif k == _DRAW:
                            if self.sup_i < len(self.supply):
                                self._to_hand(seat, self.supply[self.sup_i])
                                self.sup_i += 1
                        elif self.act_i < len(self.actions):  # an A space
                            held[seat].append(self.actions[self.act_i])
                            self.act_i += 1
                    continue
            else:
                i = len(ends) - 1
                row = erow[i]
            self._land(seat, t, row, fill[row], 0, i)

    def _end_turn(self) -> None:
        if self.carded:
            self.carded.clear()
        if self.stops:
            for r in self.stops:
                self._insert_end(self.spaces[r][self.fill[r] - 1], r)
            self.stops = []
        if self.record is not None:
            self.record[-1]["scores"] = list(self.scores)
        v = self.variant
        over = self.pro and self.nturns >= PRO_TURN_CAP
        hands = self.hands
        set_over = not all(hands) if self.pro else not any(hands)  # game.set_over, inlined
        if set_over:
            if second_set_due(v, self.players, self.set_number, len(self.supply) - self.sup_i):
                self.set_number = 2
                for seat in range(self.players):
                    for _ in range(self.hs):
                        self._to_hand(seat, self.supply[self.sup_i])
                        self.sup_i += 1
            else:
                over = True
        if over:
            self.final = final_scores(v, self.scores, hands, self.bh)

    # -------------------------------------------------------------- rows

    def _insert_end(self, end: int, row: int) -> None:
        k = bisect(self.ends, end)
        self.ends.insert(k, end)
        self.erow.insert(k, row)

    def _set_end(self, i: int, end: int, row: int) -> None:
        """The active row at sorted position ``i`` now ends in ``end`` and is row ``row``."""
        ends = self.ends
        if (i == 0 or ends[i - 1] < end) and (i + 1 == len(ends) or end < ends[i + 1]):
            ends[i] = end
            self.erow[i] = row
        else:
            del ends[i], self.erow[i]
            self._insert_end(end, row)

    def _to_hand(self, seat: int, tile: int) -> None:
        """A tile joins a hand at a random place, which keeps the hand's order random."""
        hand = self.hands[seat]
        hand.insert(int(self.random() * (len(hand) + 1)), tile)

    def _target(self, t: int) -> int:
        """Sorted position of the row ``t`` goes to by the normal rule (board game)."""
        i = bisect(self.ends, t) - 1
        return i if i >= 0 else len(self.ends) - 1

    def _place_normally(self, seat: int, t: int, bonus: int) -> None:
        i = self._target(t)
        row = self.erow[i]
        self._land(seat, t, row, self.fill[row], bonus, i)

    def _land(self, seat: int, t: int, row: int, space: int, bonus: int, i: int) -> None:
        """Put ``t`` on ``space`` of ``row`` (sorted position ``i``); apply the space
        (``bonus``: a Plus five card's 5 points, as :meth:`Game._land` counts them)."""
        spaces = self.spaces[row]
        spaces[space] = t
        delta = bonus
        if space == len(spaces) - 1:  # the row is complete
            board = self.board
            if self.f10[row]:
                delta += 10
                self.f10[row] = False
            if board.claim[row]:
                for x in spaces:
                    if x > 0 and x != t:
                        self._to_hand(seat, x)
            else:
                delta -= self.rsum[row]
            self.spaces[row] = [EMPTY] * len(spaces)
            if _PLUS5 in self.kind[row]:
                self.kind[row] = list(board.kinds[row])
            fill = self.fill
            fill[row] = 0
            dest = 0  # game.landing_row, inlined (a call here costs 0.6% of a pro playout)
            while dest == row or fill[dest]:
                dest += 1
            self.spaces[dest][0] = t
            fill[dest] = 1
            self.rsum[row] = 0
            self.rsum[dest] = self.bh[t]
            self._set_end(i, t, dest)
        else:
            self.fill[row] = space + 1
            self.rsum[row] += self.bh[t]
            self._set_end(i, t, row)
            k = self.kind[row][space]
            if bonus and self.rules.plus5_replaces:
                pass  # a Plus five card: a +5 space for this placement, nothing else happens
            elif k == _PLUS5:
                delta += 5
            elif k == _PLUS:
                delta += self.bh[t]
            elif k == _MINUS:
                delta -= self.bh[t]
            elif k == _DRAW:
                if self.sup_i < len(self.supply):
                    self._to_hand(seat, self.supply[self.sup_i])
                    self.sup_i += 1
            elif k == _ACTION and self.act_i < len(self.actions):
                self.held[seat].append(self.actions[self.act_i])
                self.act_i += 1
        self.scores[seat] += delta
        if delta < 0 and self.luck_i < len(self.luck):
            self._after_loss(seat)

    # -------------------------------------------------------------- luck cards

    def _after_loss(self, seat: int) -> None:
        """A placement lost points: draw the top luck card if it has a free space."""
        card = self.luck[self.luck_i]
        if self.forced is not None:
            if self._free_spaces(card, first_only=True):
                self.luck_i += 1
                self._luck(seat, card)
            return
        # Random mode: the random free space found, if any, also tells that there is one.
        space = self._random_space(card)
        if space is not None:
            self.luck_i += 1
            self._put_marker(seat, card, *space)

    def _free_spaces(self, card: str, first_only: bool = False) -> list[tuple[int, int]]:
        """Free spaces for ``card`` (RULES.md 3.4), row by row; only the first if asked."""
        free: list[tuple[int, int]] = []
        kind = self.kind
        if card == "plus5":
            for r, fill in enumerate(self.fill):
                k = kind[r]
                for s in range(fill or 1, len(k) - 1):
                    if k[s] != _PLUS5:
                        free.append((r, s))
                        if first_only:
                            return free
        else:
            for r, marked in enumerate(self.f10):
                if not marked:
                    free.append((r, len(kind[r]) - 1))
                    if first_only:
                        return free
        return free

    def _random_space(self, card: str) -> tuple[int, int] | None:
        """A uniformly random free space for ``card`` (``None``: there is none): a few draws
        among all spaces the card may ever take, kept if free, else a draw from the list of
        free spaces."""
        rnd = self.random
        fill = self.fill
        kind = self.kind
        if card == "plus5":
            middle = self.board.middle
            n = len(middle)
            for _ in range(8):
                r, s = middle[int(rnd() * n)]
                if s >= fill[r] and kind[r][s] != _PLUS5:
                    return r, s
        else:
            f10 = self.f10
            n = len(f10)
            for _ in range(4):
                r = int(rnd() * n)
                if not f10[r]:
                    return r, len(kind[r]) - 1
        free = self._free_spaces(card)
        return free[int(rnd() * len(free))] if free else None

    def _luck(self, seat: int, card: str) -> None:
        forced = self.forced
        if forced is not None:
            assert isinstance(forced, PlaceLuck)
            row, space = forced.row, forced.space
            self.forced = None
        else:
            free = self._random_space(card)
            assert free is not None
            row, space = free
        self._put_marker(seat, card, row, space)

    def _put_marker(self, seat: int, card: str, row: int, space: int) -> None:
        if self.record is not None:
            self.record[-1]["choices"].append(
                {"seat": seat, "kind": "luck", "card": card, "row": row, "space": space}
            )
        if card == "plus5":
            self.kind[row] = kind = list(self.kind[row])
            kind[space] = _PLUS5
        else:
            self.f10[row] = True

    # -------------------------------------------------------------- other decisions

    def _decide_action(self, seat: int, t: int) -> _Action | None:
        """The action card ``seat`` plays on ``t`` (``(None, -1, -1)``: declined), or ``None``
        when the Game would not ask (no held card has a legal target)."""
        forced = self.forced
        if forced is not None:
            assert isinstance(forced, PlayAction)
            self.forced = None
            row = -1 if forced.row is None else forced.row
            return (forced.card, row, -1 if forced.new_tile is None else forced.new_tile)
        return self._random_action(seat, t)

    def _random_action(self, seat: int, t: int) -> _Action | None:
        """A uniform choice among the Game's options (decline, each card with each target),
        counted rather than listed; ``None`` if declining is the only option."""
        held = self.held[seat]
        erow = self.erow
        ends = self.ends
        target = erow[self._target(t)]
        hand = self.hands[seat]
        counts: list[tuple[str, int]] = []
        total = 1
        for card in ACTION_CARDS:
            if card not in held:
                continue
            if card == "stop":  # reading 2: any active row while another stays active
                n = len(erow) if len(erow) > 1 and self.rules.stop_on_own_row else len(erow) - 1
            elif card == "swap" or card == "another":
                n = len(hand)
            elif card == "skip":
                n = 1 if self.fill[target] + 1 < len(self.spaces[target]) else 0
            elif card == "front":
                n = len(self._front_rows(t))
            elif card == "ascending":
                n = bisect(ends, t)
            elif card == "anywhere":
                n = len(erow)
            else:  # plus5
                n = 1
            if n:
                counts.append((card, n))
                total += n
        if total == 1:
            return None
        k = int(self.random() * total) - 1
        if k < 0:
            return (None, -1, -1)
        for card, n in counts:
            if k >= n:
                k -= n
                continue
            if card == "stop":
                if self.rules.stop_on_own_row:
                    return (card, erow[k], -1)
                return (card, [r for r in erow if r != target][k], -1)
            if card == "swap" or card == "another":
                return (card, -1, hand[k])
            if card == "front":
                return (card, self._front_rows(t)[k], -1)
            if card == "ascending" or card == "anywhere":
                return (card, erow[k], -1)
            return (card, -1, -1)
        raise AssertionError("unreachable")

    def _front_rows(self, t: int) -> list[int]:
        """Rows the Front card may put ``t`` at the head of."""
        rows = []  # game.front_fits, inlined: asked at every placement of a Front card's holder
        for r in self.erow:
            spaces = self.spaces[r]
            if spaces[0] > t and len(spaces) - self.fill[r] >= 2 and SKIPPED not in spaces:
                rows.append(r)
        return rows

    def _play_action(self, seat: int, t: int, action: _Action) -> None:
        card, row, new = action
        if card is None:
            self._place_normally(seat, t, 0)
            return
        self.held[seat].remove(card)
        if self.record is not None:
            entry: dict[str, Any] = {"seat": seat, "kind": "action", "card": card, "tile": t}
            if row >= 0:
                entry["row"] = row
            if new >= 0:
                entry["new_tile"] = new
            self.record[-1]["choices"].append(entry)
        if card == "stop":
            j = self.erow.index(row)
            del self.ends[j], self.erow[j]
            self.stops.append(row)
            self._place_normally(seat, t, 0)
        elif card == "swap":
            self.hands[seat].remove(new)
            self._to_hand(seat, t)
            self._place_normally(seat, new, 0)
        elif card == "another":
            self.hands[seat].remove(new)
            queue = self.queue
            if not self.rules.another_lowest_first or (
                new > t and not (queue and queue[-1] & _SEAT_MASK == seat)
            ):  # this tile first, then the new one: the common case, placed at once
                queue.append(new << _SEAT_BITS | seat)
                self._place_normally(seat, t, 0)
                return
            # The seat's revealed tiles lowest first (its earlier Another cards' tiles are on
            # top of the stack); this tile has had its card.
            own = [t << _SEAT_BITS | seat, new << _SEAT_BITS | seat]
            while queue and queue[-1] & _SEAT_MASK == seat:
                own.append(queue.pop())
            own.sort(reverse=True)
            queue.extend(own)
            self.carded.add(t)
        elif card == "skip":
            i = self._target(t)
            target = self.erow[i]
            self.spaces[target][self.fill[target]] = SKIPPED
            self._land(seat, t, target, self.fill[target] + 1, 0, i)
        elif card == "front":
            put_first(self.spaces[row], self.fill[row], t)
            self.fill[row] += 1
            self.rsum[row] += self.bh[t]
        elif card in ("ascending", "anywhere"):
            self._land(seat, t, row, self.fill[row], 0, self.erow.index(row))
        else:  # plus5
            self._place_normally(seat, t, 5)


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
        rule: float | None = None,
    ) -> Sequence[float]:
        """Final scores of one game played on from here (see the class docstring).

        ``turns``: stop after this many turns, counting the current one, and return the scores
        as they stand then (0: play to the end). In the professional version a game cut short
        is charged the hand penalty it can expect (:meth:`_Sim.cut_scores`), a fraction.
        ``rule``: the tiles are chosen by the rule of :meth:`playouts` instead of at random.
        """
        _check_rule(self, rule)
        if self.over is not None:
            return list(self.over)
        if runs_compiled(rng):
            decisions = None if decision is None else [decision]
            if self._fast and rule is None:
                return self._core_playouts(rng, seat, decisions, turns)[0]
            return self._general_playouts(rng, seat, decisions, turns, 1, rule)[0]
        if self._fast == "basic" and rule is None:
            tile = decision.tile if isinstance(decision, PlayTile) else None
            key = random_keys(rng).__getitem__
            return self._basic(_codes(self._sequences(key, seat, tile, turns)))
        if self._fast == "classic":
            return self._classic_random(rng, seat, decision, turns)
        sim = _Sim(self, rng, rule)
        sim.forced = decision
        scores = sim.run(self, seat if isinstance(decision, PlayTile) else None, turns)
        return sim.cut_scores() if turns else scores

    def playouts(
        self,
        rng: Random,
        seat: int,
        decisions: Sequence[Decision],
        turns: int = 0,
        repeat: int = 1,
        rule: float | None = None,
    ) -> Sequence[Sequence[float]]:
        """One playout per decision of ``seat``, all with the same randomness: the final scores
        of each, in order (``turns`` as for :meth:`playout`).

        Common random numbers for comparing decisions: the other seats play the same tiles in
        the same order and every later random choice is drawn alike as far as the games stay
        alike, so the differences between the results come from the decisions.

        ``repeat``: that many such rounds in one call, the generator running on, their results
        one after the other: the same as ``repeat`` calls, and on the compiled core without
        the cost of a call per round.

        ``rule`` (board game; a probability): the tiles are not random but chosen by a rule,
        as cheap as the card game's (:mod:`arena.bots.rollouts`), that stands for players who
        look at the board: every seat, each turn, plays the tile that would cost it least
        landing alone on the board as the turn starts (:meth:`_Sim._rule_cost`: a completed
        row's bullheads first of all, then a space's gain or loss), ties broken at random;
        with probability ``rule`` a uniformly random tile instead. Luck-card spaces and
        action cards stay random.
        """
        if repeat < 1:
            raise ValueError(f"repeat must be at least 1, not {repeat}")
        _check_rule(self, rule)
        if self.over is None and runs_compiled(rng):
            if self._fast and rule is None:
                return self._core_playouts(rng, seat, decisions, turns, repeat)
            return self._general_playouts(rng, seat, decisions, turns, repeat, rule)
        if repeat == 1:
            return self._round(rng, seat, decisions, turns, rule)
        results: list[Sequence[float]] = []
        for _ in range(repeat):
            results += self._round(rng, seat, decisions, turns, rule)
        return results

    def _round(
        self,
        rng: Random,
        seat: int,
        decisions: Sequence[Decision],
        turns: int,
        rule: float | None = None,
    ) -> Sequence[Sequence[float]]:
        """One round of :meth:`playouts` on the Python loops."""
        if self.over is not None:
            return [list(self.over) for _ in decisions]
        if rule is None and (
            self._fast == "basic"
            or (self._fast == "classic" and self.pending_kind is DecisionKind.TILE)
        ):
            return self._tile_playouts(rng, seat, decisions, turns)
        if self._fast == "classic":
            key = random_keys(rng).__getitem__
            rows = _random_rows(rng, self._left())
            codes = self._head_codes() + _codes(self._later(key, turns), first_turn=1)
            results = []
            for d in decisions:
                assert isinstance(d, TakeRow)
                results.append(self._classic(codes, _once(d.row), iter(rows).__next__))
            return results
        state = rng.getstate()
        cut: list[Sequence[float]] = []
        for d in decisions:
            rng.setstate(state)
            cut.append(self.playout(rng, seat, d, turns, rule))
        return cut

    def _tile_playouts(
        self, rng: Random, seat: int, decisions: Sequence[Decision], turns: int
    ) -> list[list[int]]:
        """Basic and card game, tile choice: the other seats' tiles coded once."""
        key = random_keys(rng).__getitem__
        seqs: list[list[int] | None] = list(self._sequences(key, None, None))
        hand = seqs[seat]  # this seat's tiles in a random order
        assert hand is not None
        seqs[seat] = None
        if turns:
            seqs = [None if q is None else q[:turns] for q in seqs]
        others = _codes(seqs)
        offsets = _seat_offsets(seat, 0)
        shifted = _TILE_SHIFTED.__getitem__
        rows = _random_rows(rng, self._left()) if self._fast == "classic" else b""
        results = []
        for d in decisions:
            assert isinstance(d, PlayTile)
            tile = d.tile
            own = [tile, *[t for t in hand if t != tile]]
            if turns:
                own = own[:turns]
            codes = sorted(chain(others, map(add, map(shifted, own), offsets)))
            if self._fast == "basic":
                results.append(self._basic(codes))
            else:
                results.append(self._classic(codes, None, iter(rows).__next__))
        return results

    def _core_playouts(
        self,
        rng: Random,
        seat: int | None,
        decisions: Sequence[Decision] | None,
        turns: int,
        repeat: int = 1,
    ) -> list[list[int]]:
        """:meth:`playouts` (or with no ``decisions``, :meth:`playout` with none) on the
        compiled core: the same draws from ``rng`` and the same results as the Python loops."""
        core = _compiled
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
        rule: float | None = None,
    ) -> list[list[float]]:
        """:meth:`playouts` (or :meth:`playout`) on the compiled general simulator: the same
        draws from ``rng`` and the same results as :class:`_Sim`."""
        core = _compiled
        board = self.board
        assert core is not None and board is not None
        coded = None if decisions is None else [_decision_code(d) for d in decisions]
        return core.general_playouts(
            rng, board.general, self._core_state(), -1 if seat is None else seat, coded,
            turns, repeat, -1.0 if rule is None else rule,
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
        rule: float | None = None,
    ) -> tuple[list[Turn], Sequence[float]]:
        """The playout :meth:`playout` plays with the same arguments, recorded: the turns from
        here on in the replay's form, and the scores. If the position is in the middle of a
        turn, the first entry finishes that turn and its ``plays`` is ``None``."""
        _check_rule(self, rule)
        if self.over is not None:
            return [], list(self.over)
        if self._fast and rule is None:
            return self._trace_fast(rng, seat, decision, turns)
        sim = _Sim(self, rng, rule)
        sim.forced = decision
        sim.record = record = self._record_start()
        scores = sim.run(self, seat if isinstance(decision, PlayTile) else None, turns)
        return record, sim.cut_scores() if turns else scores

    def _record_start(self) -> list[Turn]:
        if self.pending_kind is DecisionKind.TILE:
            return []
        return [{"plays": None, "choices": [], "scores": []}]

    def _trace_fast(
        self, rng: Random, seat: int | None, decision: Decision | None, turns: int
    ) -> tuple[list[Turn], list[int]]:
        """:meth:`trace` on the fast loops: the randomness drawn as :meth:`playout` draws it,
        the loops run one turn at a time."""
        key = random_keys(rng).__getitem__
        record = self._record_start()
        if self.pending_kind is DecisionKind.TILE:
            tile = decision.tile if isinstance(decision, PlayTile) else None
            seqs = self._sequences(key, seat, tile, turns)
            codes = _codes(seqs)
        else:  # the card game's row choice: this turn's tiles are turn 0
            seqs = self._later(key, turns)
            codes = self._head_codes() + _codes(seqs, 1)
        scores = list(self.scores)
        ends, state, rows = list(self.ends), list(self.state), list(self.erow)
        empty = self.empty
        random_row = iter(_random_rows(rng, self._left())).__next__
        forced = [decision.row] if isinstance(decision, TakeRow) else []

        def pick(seat: int) -> int:  # the row playout's random sorted position names
            row = forced.pop() if forced else rows[random_row()]
            record[-1]["choices"].append({"seat": seat, "kind": "take_row", "row": row})
            return row

        mid_turn = self.pending_kind is not DecisionKind.TILE
        for group in _by_turn(codes):
            k = (group[0] >> 12) - mid_turn  # the turn's index in ``seqs``
            if k >= 0:
                record.append({"plays": [seq[k] for seq in seqs], "choices": [], "scores": []})
            if self.board is not None:
                empty = _basic_loop(ends, state, empty, scores, group, self.board)
            else:
                _classic_loop(ends, state, rows, scores, group, pick, _no_row)
            record[-1]["scores"] = list(scores)
        return record, scores

    def _sequences(
        self, key: Callable[[int], float], seat: int | None, tile: int | None, turns: int = 0
    ) -> list[list[int]]:
        """Each seat's tiles in a random playing order (this set, and the next in basic with
        2-3 players): a chosen tile, or ``tile`` forced for ``seat``, first; only the first
        ``turns`` of them if ``turns``."""
        seqs = []
        for s in range(self.players):
            hand = self.hands[s]
            chosen = self.chosen[s]
            if s == seat and tile is not None:
                seq = [tile, *sorted((t for t in hand if t != tile), key=key)]
            elif chosen is not None:
                seq = [chosen, *sorted(hand, key=key)]
            else:
                seq = sorted(hand, key=key)
            seqs.append(seq)
        hs = self.variant.hand_size
        if second_set_due(self.variant, self.players, self.set_number, len(self.supply)):
            for s in range(self.players):
                seqs[s] += sorted(self.supply[s * hs : (s + 1) * hs], key=key)
        return [q[:turns] for q in seqs] if turns else seqs

    def _later(self, key: Callable[[int], float], turns: int) -> list[list[int]]:
        """The hands in a random playing order, for the turns after this one (card game)."""
        hands = [sorted(h, key=key) for h in self.hands]
        return [h[: turns - 1] for h in hands] if turns else hands

    def _rows_state(self) -> list[int]:
        """The fast loops' row states, by sorted position (the same for every playout)."""
        if self.board is None:  # the card game: cards << 6 | bullheads
            return [(self.fill[r] << 6) + self.rsum[r] for r in self.erow]
        board = self.board
        return [(self.rsum[r] << board.shift) + r * board.stride + self.fill[r] for r in self.erow]

    def _basic(self, codes: Iterable[int]) -> list[int]:
        assert self.board is not None
        scores = list(self.scores)
        _basic_loop(list(self.ends), list(self.state), self.empty, scores, codes, self.board)
        return scores

    def _classic(
        self, codes: Iterable[int], pick: Callable[[int], int] | None, random_row: Callable[[], int]
    ) -> list[int]:
        scores = list(self.scores)
        rows = list(self.erow)
        _classic_loop(list(self.ends), list(self.state), rows, scores, codes, pick, random_row)
        return scores

    def _head_codes(self) -> list[int]:
        """A pending row choice: the rest of this turn, as turn 0 (the row is asked again)."""
        assert self.current is not None
        tile, owner = self.current
        return [tile << _SEAT_BITS | owner, *reversed(self.queue)]

    def _classic_random(
        self, rng: Random, seat: int | None, decision: Decision | None, turns: int
    ) -> list[int]:
        key = random_keys(rng).__getitem__
        random_row = iter(_random_rows(rng, self._left())).__next__
        if self.pending_kind is DecisionKind.TILE:
            tile = decision.tile if isinstance(decision, PlayTile) else None
            codes = _codes(self._sequences(key, seat, tile, turns))
            return self._classic(codes, None, random_row)
        codes = self._head_codes() + _codes(self._later(key, turns), 1)
        pick = _once(decision.row) if isinstance(decision, TakeRow) else None
        return self._classic(codes, pick, random_row)


def _check_rule(pos: Position, rule: float | None) -> None:
    if rule is None:
        return
    if pos.board is None:
        raise ValueError("the card game's rule playouts are in arena.bots.rollouts")
    if not 0 <= rule <= 1:
        raise ValueError(f"rule: a probability from 0 to 1, not {rule}")


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


_ROW_OF_BYTE = bytes(b & 3 for b in range(256))


def _random_rows(rng: Random, n: int) -> bytes:
    """``n`` uniform sorted positions 0..3 of the card game's rows, drawn up front."""
    return rng.randbytes(n).translate(_ROW_OF_BYTE)


def _once(row: int) -> Callable[[int], int]:
    """A row pick that names ``row`` the first time and leaves the later ones to chance."""
    left = [row]

    def pick(seat: int) -> int:
        return left.pop() if left else -1

    return pick


def _no_row() -> int:
    raise AssertionError("a recorded playout names every row it takes")


# ------------------------------------------------------------------------- entry points


def _shuffled_deal(v: Variant, rng: Random) -> tuple[list[int], list[str], list[str]]:
    """A uniformly random order of the tiles and of both decks."""
    key = random_keys(rng).__getitem__
    tiles = sorted(range(1, v.tiles + 1), key=key)
    return tiles, shuffled(v.luck_deck, key), shuffled(v.action_deck, key)


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
def _deal_plan(name: str, players: int) -> tuple[range, int, tuple[int, ...]]:
    """Basic and card game: the tile numbers, how many tiles are played, their code offsets."""
    v = variant(name)
    v.check_players(players)
    # The order of the deal doubles as the order of play: entry k of the tiles after the rows
    # is played in turn k // players by seat k % players (then a second set in basic).
    supply = v.tiles - v.start_rows - players * v.hand_size
    turns = (2 if second_set_due(v, players, 1, supply) else 1) * v.hand_size
    return range(1, v.tiles + 1), turns * players, _turn_major_offsets(players)


def random_game_scores(name: str, players: int, rng: Random, rules: Reading = CURRENT) -> list[int]:
    """Deal a game of variant ``name``, play it with random decisions under the reading
    ``rules``, return final scores.

    The fastest way to a random game: the deal comes from ``rng``, not from a Game's seed.
    """
    if name == "basic" or name == "classic":
        numbers, played, offsets = _deal_plan(name, players)
        tiles = sorted(numbers, key=list(starmap(rng.random, _NO_KEYS)).__getitem__)
        codes = sorted(map(add, map(_TILE_SHIFTED.__getitem__, tiles[4 : 4 + played]), offsets))
        ends = sorted(tiles[:4])
        scores = [0] * players
        if name == "basic":
            board = _board(name, rules.name)
            rows = sorted(range(4), key=tiles.__getitem__)  # rows 0-3, by their tiles
            state = [board.inc[e] + r * board.stride for e, r in zip(ends, rows, strict=True)]
            empty = ((1 << len(board.length)) - 1) & ~0b1111
            _basic_loop(ends, state, empty, scores, codes, board)
        else:  # which row is which only matters to a pick
            state = [_CLASSIC_INC[e] for e in ends]
            _classic_loop(ends, state, [], scores, codes, None, partial(rng.getrandbits, 2))
        return scores
    v = variant(name)
    v.check_players(players)
    tiles, luck, actions = _shuffled_deal(v, rng)
    pos = _start(name, *deal(v, players, tiles), luck, actions, rules)
    return _Sim(pos, rng).run(pos, None)


def _by_turn(codes: list[int]) -> Iterator[list[int]]:
    """Sorted codes split into turns."""
    for _, group in groupby(codes, key=lambda c: c >> 12):
        yield list(group)


def random_game(name: str, players: int, rng: Random, rules: Reading = CURRENT) -> dict[str, Any]:
    """A random game played on the lean path under the reading ``rules``, as a
    ``nimmt-replay/1`` record.

    The record re-simulates with :func:`arena.engine.replay.verify`: that is how the tests
    show that the lean path's random games are the Game API's games.
    """
    v = variant(name)
    v.check_players(players)
    tiles, luck, actions = _shuffled_deal(v, rng)
    rows, hands, supply = deal(v, players, tiles)
    turns, scores = _start(name, rows, hands, supply, luck, actions, rules).trace(rng)
    final = [int(score) for score in scores]
    return {
        "format": "nimmt-replay/1",
        "variant": name,
        "seed": 0,
        "players": [{"name": f"random {s}"} for s in range(players)],
        "layout": list(v.board.rows) if v.board else [],
        "setup": {
            "rows": rows,
            "hands": hands,
            "supply": supply,
            "luck_deck": luck,
            "action_deck": actions,
        },
        "turns": turns,
        "result": {
            "scores": final,
            "ranks": list(competition_ranks(final, v.higher_is_better)),
            "faults": [],
        },
        "rules": rules.name,
    }
