"""The lean simulation path: random playouts for bots, tested to give the Game API's games.

:class:`~arena.engine.game.Game` checks every decision and keeps a history; a bot that plays
thousands of games per decision needs neither. This module plays the same rules on flat lists
of integers and makes no object per placement:

- the rows that take tiles are a sorted list of their last tiles, so the row a tile goes to is
  one :func:`bisect.bisect` away, and a normal placement keeps that list sorted in place;
- random play consumes hands shuffled once up front (a sort keyed by C-level ``random()``
  calls), which is the same as a uniform choice from the hand every turn;
- basic and the card game (no decisions during a turn but the card game's row choice) have
  loops of their own; the other variants go through one general simulator that handles luck
  cards, action cards and every point where a game can be resumed.

Every path can also be driven by a replay's deal and decisions (:func:`replay_scores`), and
random games can be recorded as replays (:func:`random_game`); the tests use both to check that
the lean path and the Game API give the same scores after every turn.

>>> import random
>>> from arena.engine import Game
>>> game = Game.new("basic", players=4, seed=7)
>>> scores = playout(game, random.Random(1))
>>> len(scores), game.turn                      # the game itself is left as it was
(4, 1)
>>> len(random_game_scores("classic", 5, random.Random(2)))
5

Random decisions are uniform over the legal options, as the ``random`` bot takes them: a tile
from the hand, a space for a luck card, an action card with its target (or none), a row.
"""

from bisect import bisect
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from itertools import chain, groupby, starmap
from operator import add
from random import Random
from typing import Any

from .decisions import Decision, DecisionKind, PlaceLuck, PlayAction, PlayTile, TakeRow
from .game import EMPTY, SKIPPED, Game, competition_ranks
from .tiles import BULLHEADS
from .variants import ACTION_CARDS, CLASSIC_ROW_LENGTH, PRO_TURN_CAP, Variant, variant

__all__ = ["Position", "playout", "random_game", "random_game_scores", "replay_scores"]

# Space kinds of the general simulator; a Plus five luck marker turns a space into _PLUS5.
_PLAIN, _PLUS, _MINUS, _PLUS5, _DRAW, _ACTION = 0, 1, 2, 3, 4, 5
_KIND_CODE = {".": _PLAIN, "+": _PLUS, "-": _MINUS, "D": _DRAW, "A": _ACTION, "F": 0, "C": 0}
_SEAT_BITS = 4  # a revealed tile waiting to be placed is ``tile << 4 | seat`` (<= 10 seats)
_SEAT_MASK = (1 << _SEAT_BITS) - 1
#: Card game row state: bullheads << 3 | cards; a card that finds five cards takes the row.
_CLASSIC_INC = tuple((b << 3) + 1 for b in BULLHEADS)
_NO_KEYS = [()] * len(BULLHEADS)  # starmap arguments: one random key per tile number

Choice = tuple[str | None, int, int]  # an action: (card or None, row or -1, new tile or -1)
Turn = dict[str, Any]  # a replay turn: {"plays", "choices", "scores"}


# ---------------------------------------------------------------------------------- tables


class _Board:
    """A board side as flat tables, shared read-only by every simulation."""

    def __init__(self, rows: tuple[str, ...]) -> None:
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
        self.inc = [(b << self.shift) + 1 for b in BULLHEADS]


@cache
def _board(name: str) -> _Board:
    board = variant(name).board
    assert board is not None
    return _Board(board.rows)


def _random_keys(rng: Random) -> list[float]:
    """A uniform key per tile number: sorting by it shuffles any set of tiles, at C speed."""
    return list(starmap(rng.random, _NO_KEYS))


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


def _codes(seqs: Sequence[Sequence[int]], first_turn: int = 0) -> list[int]:
    """Sorted codes of each seat's tiles in the order it plays them."""
    shifted = _TILE_SHIFTED.__getitem__
    return sorted(
        chain.from_iterable(
            map(add, map(shifted, seq), _seat_offsets(s, first_turn)) for s, seq in enumerate(seqs)
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
    bh = BULLHEADS
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
    getrandbits: Callable[[int], int],
) -> None:
    """Place the coded cards: ``state[i]`` is bullheads << 3 | cards of the row ending in
    ``ends[i]``, which is row ``rows[i]`` (kept up to date only with a ``pick``).

    A card lower than every row takes the row ``pick(seat)`` names, or a uniformly random one
    when there is no ``pick`` or it returns -1.
    """
    inc = _CLASSIC_INC
    full = CLASSIC_ROW_LENGTH
    for c in codes:
        t = (c >> 4) & 255
        i = bisect(ends, t) - 1
        if i >= 0:
            ends[i] = t
            x = state[i]
            if x & 7 == full:
                scores[c & 15] += x >> 3
                state[i] = inc[t]
            else:
                state[i] = x + inc[t]
        else:
            if pick is None:
                j = getrandbits(2)  # the card game has four rows
            else:
                row = pick(c & 15)
                j = getrandbits(2) if row < 0 else rows.index(row)
                rows.insert(0, rows.pop(j))
            scores[c & 15] += state[j] >> 3
            del ends[j], state[j]
            ends.insert(0, t)
            state.insert(0, inc[t])


# ----------------------------------------------------------------------- general simulator


def _no_random() -> float:
    raise AssertionError("a scripted simulation asked for a random decision")


class _Sim:
    """Any variant from any point, with random, forced or scripted decisions.

    The board is kept as the Game keeps it (``spaces``, ``fill``), plus the sorted last tiles
    of the active rows (``ends``, their rows in ``erow``), each row's bullheads and its space
    kinds with Plus five markers folded in. In random mode each hand is in a random order and
    its last tile is played next; a tile that joins a hand goes to a random place in it.
    """

    __slots__ = (
        "act_i",
        "actions",
        "board",
        "choices",
        "classic",
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
        "scores",
        "script",
        "set_number",
        "spaces",
        "stops",
        "sup_i",
        "supply",
    )

    def __init__(self, pos: "Position", rng: Random | None) -> None:
        v = pos.variant
        self.players = pos.players
        self.classic = v.classic
        self.pro = v.actions
        self.hs = v.hand_size
        self.board = pos.board
        self.length = pos.board.length if pos.board else ()
        self.spaces = [list(r) for r in pos.spaces]
        self.fill = list(pos.fill)
        self.kind = [list(k) for k in pos.kind]
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
        self.script: list[Turn] | None = None
        self.choices: list[dict[str, Any]] = []  # scripted: this turn's choices still to take
        self.record: list[Turn] | None = None
        if rng is None:
            self.random: Callable[[], float] = _no_random
            self.hands = [list(h) for h in pos.hands]
        else:
            self.random = rng.random
            key = _random_keys(rng).__getitem__
            self.hands = [sorted(h, key=key) for h in pos.hands]

    # -------------------------------------------------------------- turns

    def run(self, pos: "Position", first: int | None) -> list[int]:
        """Play to the end from ``pos``; ``first``: the seat whose forced tile comes first."""
        kind = pos.pending_kind
        if kind is DecisionKind.TILE:
            to_choose = pos.to_choose
            if first is not None:
                to_choose = (first, *(s for s in to_choose if s != first))
            self._turn(pos.chosen, to_choose)
        elif kind is not None:
            if kind is DecisionKind.LUCK:
                assert pos.pending_card is not None
                self._luck(pos.pending_seat, pos.pending_card)
            else:  # an action or row choice: the Game asks again when the tile comes up
                assert pos.current is not None
                tile, seat = pos.current
                self.queue.append(tile << _SEAT_BITS | seat)
            self._place_queue()
            self._end_turn()
        everyone = (None,) * self.players
        hands = self.hands
        while self.final is None:
            self._turn(everyone, [s for s in range(self.players) if hands[s]])
        return self.final

    def _turn(self, chosen: Sequence[int | None], to_choose: Sequence[int]) -> None:
        codes = [t << _SEAT_BITS | s for s, t in enumerate(chosen) if t is not None]
        hands = self.hands
        if self.forced is None and self.script is None:
            codes += [hands[s].pop() << _SEAT_BITS | s for s in to_choose]
        else:
            plays = None
            if self.script is not None:
                plays = self.script[self.nturns]["plays"]
                self.choices = list(self.script[self.nturns]["choices"])
            for s in to_choose:
                forced = self.forced
                if forced is not None:
                    assert isinstance(forced, PlayTile)
                    t = forced.tile
                    self.forced = None
                elif plays is not None:
                    t = plays[s]
                else:
                    codes.append(hands[s].pop() << _SEAT_BITS | s)
                    continue
                hands[s].remove(t)
                codes.append(t << _SEAT_BITS | s)
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
        bh = BULLHEADS
        while queue:
            c = queue.pop()
            t = c >> _SEAT_BITS
            seat = c & _SEAT_MASK
            if self.classic:
                self._place_classic(seat, t)
                continue
            if held[seat]:
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
        if self.stops:
            for r in self.stops:
                self._insert_end(self.spaces[r][self.fill[r] - 1], r)
            self.stops = []
        if self.record is not None:
            self.record[-1]["scores"] = list(self.scores)
        hands = self.hands
        # Basic and card game: every hand empties at once. Professional: hands differ in size
        # and the first empty hand ends the set (RULES.md 4, 5).
        set_over = not all(hands) if self.pro else not any(hands)
        over = self.pro and self.nturns >= PRO_TURN_CAP
        if set_over:
            if (
                not self.classic
                and self.players <= 3
                and self.set_number == 1
                and len(self.supply) - self.sup_i >= self.hs * self.players
            ):
                self.set_number = 2
                for seat in range(self.players):
                    for _ in range(self.hs):
                        self._to_hand(seat, self.supply[self.sup_i])
                        self.sup_i += 1
            else:
                over = True
        if over:
            final = list(self.scores)
            if self.pro:
                for seat in range(self.players):
                    final[seat] -= sum(BULLHEADS[t] for t in hands[seat])
            self.final = final

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
        hand = self.hands[seat]
        if self.random is _no_random:
            hand.append(tile)
        else:  # a random place keeps the hand's order uniformly random
            hand.insert(int(self.random() * (len(hand) + 1)), tile)

    def _place_classic(self, seat: int, t: int) -> None:
        i = bisect(self.ends, t) - 1
        if i < 0:
            row = self._choose_row(seat)
            self.scores[seat] += self.rsum[row]
            self.rsum[row] = BULLHEADS[t]
            self.fill[row] = 1
            self._set_end(self.erow.index(row), t, row)
            return
        row = self.erow[i]
        if self.fill[row] == CLASSIC_ROW_LENGTH:
            self.scores[seat] += self.rsum[row]
            self.rsum[row] = BULLHEADS[t]
            self.fill[row] = 1
        else:
            self.rsum[row] += BULLHEADS[t]
            self.fill[row] += 1
        self.ends[i] = t

    def _target(self, t: int) -> int:
        """Sorted position of the row ``t`` goes to by the normal rule (board game)."""
        i = bisect(self.ends, t) - 1
        return i if i >= 0 else len(self.ends) - 1

    def _place_normally(self, seat: int, t: int, bonus: int) -> None:
        i = self._target(t)
        row = self.erow[i]
        self._land(seat, t, row, self.fill[row], bonus, i)

    def _land(self, seat: int, t: int, row: int, space: int, bonus: int, i: int) -> None:
        """Put ``t`` on ``space`` of ``row`` (sorted position ``i``); apply the space."""
        spaces = self.spaces[row]
        spaces[space] = t
        delta = bonus
        if space == len(spaces) - 1:  # the row is complete
            if self.f10[row]:
                delta += 10
            if self.board is not None and self.board.claim[row]:
                for x in spaces:
                    if x > 0 and x != t:
                        self._to_hand(seat, x)
            else:
                delta -= self.rsum[row]
            self.spaces[row] = [EMPTY] * len(spaces)
            if self.board is not None:
                self.kind[row] = list(self.board.kinds[row])
            self.f10[row] = False
            fill = self.fill
            fill[row] = 0
            self.rsum[row] = 0
            dest = next(r for r in range(len(fill)) if r != row and fill[r] == 0)
            self.spaces[dest][0] = t
            fill[dest] = 1
            self.rsum[dest] = BULLHEADS[t]
            self._set_end(i, t, dest)
        else:
            self.fill[row] = space + 1
            self.rsum[row] += BULLHEADS[t]
            self._set_end(i, t, row)
            k = self.kind[row][space]
            if k == _PLUS5:
                delta += 5
            elif k == _PLUS:
                delta += BULLHEADS[t]
            elif k == _MINUS:
                delta -= BULLHEADS[t]
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
        if self._free_spaces(card, first_only=True):
            self.luck_i += 1
            self._luck(seat, card)

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

    def _random_space(self, card: str) -> tuple[int, int]:
        """A uniformly random free space for ``card``: a few draws from every candidate space,
        kept if free, else a draw from the list of free spaces."""
        if card == "plus5":
            board = self.board
            assert board is not None
            middle = _middle_spaces(board)
            for _ in range(8):
                r, s = middle[int(self.random() * len(middle))]
                if s >= self.fill[r] and self.kind[r][s] != _PLUS5:
                    return r, s
        free = self._free_spaces(card)
        return free[int(self.random() * len(free))]

    def _luck(self, seat: int, card: str) -> None:
        forced = self.forced
        if forced is not None:
            assert isinstance(forced, PlaceLuck)
            row, space = forced.row, forced.space
            self.forced = None
        elif self.script is not None:
            entry = self._next_choice(seat, "luck")
            row, space = entry["row"], entry["space"]
        else:
            row, space = self._random_space(card)
        if self.record is not None:
            self.record[-1]["choices"].append(
                {"seat": seat, "kind": "luck", "card": card, "row": row, "space": space}
            )
        if card == "plus5":
            self.kind[row][space] = _PLUS5
        else:
            self.f10[row] = True

    # -------------------------------------------------------------- other decisions

    def _next_choice(self, seat: int, kind: str) -> dict[str, Any]:
        if not self.choices:
            raise ValueError(f"seat {seat} owes a {kind} decision; none recorded")
        entry = self.choices.pop(0)
        if entry["seat"] != seat or entry["kind"] != kind:
            raise ValueError(f"recorded {entry}, but the game asks seat {seat} for {kind}")
        return entry

    def _choose_row(self, seat: int) -> int:
        forced = self.forced
        if forced is not None:
            assert isinstance(forced, TakeRow)
            row = forced.row
            self.forced = None
        elif self.script is not None:
            row = self._next_choice(seat, "take_row")["row"]
        else:
            row = int(self.random() * len(self.fill))
        if self.record is not None:
            self.record[-1]["choices"].append({"seat": seat, "kind": "take_row", "row": row})
        return row

    def _decide_action(self, seat: int, t: int) -> Choice | None:
        """The action card ``seat`` plays on ``t`` (``(None, -1, -1)``: declined), or ``None``
        when the Game would not ask (no held card has a legal target)."""
        forced = self.forced
        if forced is not None:
            assert isinstance(forced, PlayAction)
            self.forced = None
            row = -1 if forced.row is None else forced.row
            return (forced.card, row, -1 if forced.new_tile is None else forced.new_tile)
        if self.script is not None:
            # A declined card leaves no entry in a replay: decline unless the next recorded
            # choice is this seat's action on this tile.
            nxt = self.choices[0] if self.choices else None
            if nxt and nxt["kind"] == "action" and nxt["seat"] == seat and nxt["tile"] == t:
                self.choices.pop(0)
                return (nxt["card"], nxt.get("row", -1), nxt.get("new_tile", -1))
            return None
        return self._random_action(seat, t)

    def _random_action(self, seat: int, t: int) -> Choice | None:
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
            if card == "stop":
                n = len(erow) - 1
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
        rows = []
        for r in self.erow:
            spaces = self.spaces[r]
            if spaces[0] > t and len(spaces) - self.fill[r] >= 2 and SKIPPED not in spaces:
                rows.append(r)
        return rows

    def _play_action(self, seat: int, t: int, action: Choice) -> None:
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
            self.queue.append(new << _SEAT_BITS | seat)  # placed right after this tile
            self._place_normally(seat, t, 0)
        elif card == "skip":
            i = self._target(t)
            target = self.erow[i]
            self.spaces[target][self.fill[target]] = SKIPPED
            self._land(seat, t, target, self.fill[target] + 1, 0, i)
        elif card == "front":
            spaces = self.spaces[row]
            n = self.fill[row]
            spaces[1 : n + 1] = spaces[:n]
            spaces[0] = t
            self.fill[row] = n + 1
            self.rsum[row] += BULLHEADS[t]
        elif card in ("ascending", "anywhere"):
            self._land(seat, t, row, self.fill[row], 0, self.erow.index(row))
        else:  # plus5
            self._place_normally(seat, t, 5)


@cache
def _middle_spaces_of(lengths: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    return tuple((r, s) for r, n in enumerate(lengths) for s in range(1, n - 1))


def _middle_spaces(board: _Board) -> tuple[tuple[int, int], ...]:
    """Every space a Plus five luck card may ever go on."""
    return _middle_spaces_of(board.length)


# ------------------------------------------------------------------------------ positions


class Position:
    """A game's position copied once into flat lists, to be played out many times.

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

    def __init__(self, game: Game) -> None:
        pending = game.pending
        self._load(
            game.variant,
            spaces=game.spaces,
            markers=game.markers,
            stops=sorted(game.stops),
            hands=game.hands,
            held=game.held,
            scores=game.scores,
            supply=game.supply,
            luck_deck=game.luck_deck,
            action_deck=game.action_deck,
            nturns=len(game.turns),
            set_number=game.set_number,
        )
        self.over = list(game.result().scores) if game.is_over() else None
        self.pending_kind = pending.kind if pending else None
        self.pending_seat = pending.seats[0] if pending else -1
        self.pending_card = pending.card if pending else None
        self.to_choose = pending.seats if pending else ()
        self.chosen = [game.chosen(s) for s in range(game.players)]
        self.current = game._current  # the tile an action or row choice is asked for
        # The Game queues revealed tiles in order; here the queue is a stack, lowest last.
        self.queue = [t << _SEAT_BITS | s for t, s in reversed(game.to_place())]
        self._fast = self._fast_path()

    @classmethod
    def deal(
        cls,
        name: str,
        rows: Sequence[Sequence[int]],
        hands: Sequence[Sequence[int]],
        supply: Sequence[int],
        luck_deck: Sequence[str] = (),
        action_deck: Sequence[str] = (),
    ) -> "Position":
        """The start of a game from its deal (a replay's ``setup``), without a Game."""
        v = variant(name)
        pos = cls.__new__(cls)
        length = [len(r) for r in v.board.rows] if v.board else [CLASSIC_ROW_LENGTH] * 4
        spaces = [list(row) + [EMPTY] * (n - len(row)) for row, n in zip(rows, length, strict=True)]
        pos._load(
            v,
            spaces=spaces,
            markers=[[None] * len(r) for r in spaces],
            stops=[],
            hands=[sorted(h) for h in hands],
            held=[[] for _ in hands],
            scores=[0] * len(hands),
            supply=supply,
            luck_deck=luck_deck,
            action_deck=action_deck,
            nturns=0,
            set_number=1,
        )
        pos.over = None
        pos.pending_kind = DecisionKind.TILE
        pos.pending_seat = -1
        pos.pending_card = None
        pos.to_choose = tuple(s for s, h in enumerate(hands) if h)
        pos.chosen = [None] * len(hands)
        pos.current = None
        pos.queue = []
        pos._fast = pos._fast_path()
        return pos

    def _load(
        self,
        v: Variant,
        *,
        spaces: Sequence[Sequence[int]],
        markers: Sequence[Sequence[str | None]],
        stops: list[int],
        hands: Sequence[Sequence[int]],
        held: Sequence[Sequence[str]],
        scores: Sequence[int],
        supply: Sequence[int],
        luck_deck: Sequence[str],
        action_deck: Sequence[str],
        nturns: int,
        set_number: int,
    ) -> None:
        self.variant = v
        self.players = len(hands)
        self.scores = list(scores)
        self.hands = [list(h) for h in hands]
        self.held = [list(h) for h in held]
        self.supply = list(supply)
        self.luck_deck = list(luck_deck)
        self.action_deck = list(action_deck)
        self.nturns = nturns
        self.set_number = set_number
        self.spaces = [list(r) for r in spaces]
        self.stops = stops
        # The next empty space: after the last tile (a skipped space counts as filled).
        self.fill = [max((s + 1 for s, x in enumerate(r) if x != EMPTY), default=0) for r in spaces]
        self.board = _board(v.name) if v.board else None
        nrows = len(spaces)
        if self.board is not None:
            kinds = self.board.kinds
            self.kind = [
                [_PLUS5 if markers[r][s] == "plus5" else k for s, k in enumerate(kinds[r])]
                for r in range(nrows)
            ]
            self.f10 = [markers[r][-1] == "final10" for r in range(nrows)]
        else:
            self.kind = [[] for _ in range(nrows)]
            self.f10 = [False] * nrows
        self.rsum = [sum(BULLHEADS[t] for t in row if t > 0) for row in spaces]
        active = sorted(
            (spaces[r][self.fill[r] - 1], r)
            for r in range(nrows)
            if self.fill[r] and r not in stops
        )
        self.ends = [e for e, _ in active]
        self.erow = [r for _, r in active]

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
        self, rng: Random, seat: int | None = None, decision: Decision | None = None
    ) -> list[int]:
        """Final scores of one game played on from here (see the class docstring)."""
        if self.over is not None:
            return list(self.over)
        if self._fast == "basic":
            tile = decision.tile if isinstance(decision, PlayTile) else None
            return self._basic(_codes(self._sequences(rng, seat, tile)))
        if self._fast == "classic":
            return self._classic_random(rng, seat, decision)
        sim = _Sim(self, rng)
        sim.forced = decision
        return sim.run(self, seat if isinstance(decision, PlayTile) else None)

    def _sequences(self, rng: Random, seat: int | None, tile: int | None) -> list[list[int]]:
        """Each seat's tiles in a random playing order, this set and (basic, 2-3 players) the
        next; a chosen or forced tile first."""
        key = _random_keys(rng).__getitem__
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
        if (
            not self.variant.classic
            and self.players <= 3
            and self.set_number == 1
            and len(self.supply) >= hs * self.players
        ):
            for s in range(self.players):
                seqs[s] += sorted(self.supply[s * hs : (s + 1) * hs], key=key)
        return seqs

    def _basic_rows(self) -> tuple[list[int], list[int], int]:
        """The basic loop's ``ends``, ``state`` and ``empty`` for this position."""
        board = self.board
        assert board is not None
        state = [(self.rsum[r] << board.shift) + r * board.stride + self.fill[r] for r in self.erow]
        empty = sum(1 << r for r, f in enumerate(self.fill) if f == 0)
        return list(self.ends), state, empty

    def _classic_rows(self) -> tuple[list[int], list[int], list[int]]:
        """The card-game loop's ``ends``, ``state`` and ``rows`` for this position."""
        state = [(self.rsum[r] << 3) + self.fill[r] for r in self.erow]
        return list(self.ends), state, list(self.erow)

    def _basic(self, codes: Iterable[int]) -> list[int]:
        assert self.board is not None
        ends, state, empty = self._basic_rows()
        scores = list(self.scores)
        _basic_loop(ends, state, empty, scores, codes, self.board)
        return scores

    def _classic_random(
        self, rng: Random, seat: int | None, decision: Decision | None
    ) -> list[int]:
        pick = None
        if self.pending_kind is DecisionKind.TILE:
            tile = decision.tile if isinstance(decision, PlayTile) else None
            codes = _codes(self._sequences(rng, seat, tile))
        else:  # a row choice is pending: this turn's tiles first, the row asked again
            assert self.current is not None
            key = _random_keys(rng).__getitem__
            tile, owner = self.current
            codes = [tile << _SEAT_BITS | owner, *reversed(self.queue)]  # turn 0
            codes += _codes([sorted(h, key=key) for h in self.hands], first_turn=1)
            if isinstance(decision, TakeRow):
                pick = _once(decision.row)
        ends, state, rows = self._classic_rows()
        scores = list(self.scores)
        _classic_loop(ends, state, rows, scores, codes, pick, rng.getrandbits)
        return scores


def _once(row: int) -> Callable[[int], int]:
    """A row pick that names ``row`` the first time and leaves the later ones to chance."""
    left = [row]

    def pick(seat: int) -> int:
        return left.pop() if left else -1

    return pick


def _no_bits(k: int) -> int:
    raise AssertionError("a scripted simulation asked for a random decision")


# ------------------------------------------------------------------------- entry points


def playout(game: Game, rng: Random) -> list[int]:
    """Final scores of ``game`` played on to the end with uniformly random decisions."""
    return Position(game).playout(rng)


def _shuffled_deal(v: Variant, rng: Random) -> tuple[list[int], list[str], list[str]]:
    """A uniformly random order of the tiles and of both decks."""
    key = _random_keys(rng).__getitem__
    tiles = sorted(range(1, v.tiles + 1), key=key)
    luck = [v.luck_deck[i] for i in sorted(range(len(v.luck_deck)), key=key)]
    actions = [v.action_deck[i] for i in sorted(range(len(v.action_deck)), key=key)]
    return tiles, luck, actions


def _split(
    v: Variant, players: int, tiles: list[int]
) -> tuple[list[list[int]], list[list[int]], list[int]]:
    """Rows, hands and supply from an order of the tiles, as :meth:`Game.new` deals them."""
    nrows = len(v.board.rows) if v.board else v.start_rows
    rows = [[tiles[r]] if r < v.start_rows else [] for r in range(nrows)]
    hs = v.hand_size
    start = v.start_rows
    hands = [tiles[start + s * hs : start + (s + 1) * hs] for s in range(players)]
    return rows, hands, tiles[start + players * hs :]


def random_game_scores(name: str, players: int, rng: Random) -> list[int]:
    """Deal a game of variant ``name``, play it with random decisions, return final scores.

    The fastest way to a random game: the deal comes from ``rng``, not from a Game's seed.
    """
    v = variant(name)
    v.check_players(players)
    if name in ("basic", "classic"):
        tiles = sorted(range(1, v.tiles + 1), key=_random_keys(rng).__getitem__)
        # The order of the deal doubles as the order of play: entry k of the tiles after the
        # rows is played in turn k // players by seat k % players (then a second set in basic).
        turns = (2 if name == "basic" and players <= 3 else 1) * v.hand_size
        codes = sorted(
            map(
                add,
                map(_TILE_SHIFTED.__getitem__, tiles[4 : 4 + turns * players]),
                _turn_major_offsets(players),
            )
        )
        ends = sorted(tiles[:4])
        rows = sorted(range(4), key=tiles.__getitem__)  # rows 0-3, by their tiles
        scores = [0] * players
        if name == "basic":
            board = _board(name)
            state = [board.inc[e] + r * board.stride for e, r in zip(ends, rows, strict=True)]
            empty = ((1 << len(board.length)) - 1) & ~0b1111
            _basic_loop(ends, state, empty, scores, codes, board)
        else:
            state = [_CLASSIC_INC[e] for e in ends]
            _classic_loop(ends, state, rows, scores, codes, None, rng.getrandbits)
        return scores
    tiles, luck, actions = _shuffled_deal(v, rng)
    pos = Position.deal(name, *_split(v, players, tiles), luck, actions)
    return _Sim(pos, rng).run(pos, None)


def _by_turn(codes: list[int]) -> Iterator[list[int]]:
    """Sorted codes split into turns."""
    for _, group in groupby(codes, key=lambda c: c >> 12):
        yield list(group)


def random_game(name: str, players: int, rng: Random, engine: str = "auto") -> dict[str, Any]:
    """A random game played on the lean path, as a ``nimmt-replay/1`` record.

    ``engine``: ``"auto"`` (the fast loop where there is one) or ``"general"``. The record
    re-simulates with :func:`arena.engine.replay.verify`: that is how the tests show that the
    lean path's random games are the Game API's games.
    """
    v = variant(name)
    v.check_players(players)
    tiles, luck, actions = _shuffled_deal(v, rng)
    rows, hands, supply = _split(v, players, tiles)
    pos = Position.deal(name, rows, hands, supply, luck, actions)
    turns: list[Turn] = []
    if engine == "auto" and name in ("basic", "classic"):
        seqs = pos._sequences(rng, None, None)
        scores = list(pos.scores)
        if name == "basic":
            ends, state, empty = pos._basic_rows()
        else:
            ends, state, rows_ = pos._classic_rows()

        def pick(seat: int) -> int:
            row = rng.getrandbits(2)
            turns[-1]["choices"].append({"seat": seat, "kind": "take_row", "row": row})
            return row

        for k, codes in enumerate(_by_turn(_codes(seqs))):
            turns.append({"plays": [seq[k] for seq in seqs], "choices": [], "scores": []})
            if name == "basic":
                assert pos.board is not None
                empty = _basic_loop(ends, state, empty, scores, codes, pos.board)
            else:
                _classic_loop(ends, state, rows_, scores, codes, pick, _no_bits)
            turns[-1]["scores"] = list(scores)
        final = scores
    else:
        sim = _Sim(pos, rng)
        sim.record = turns
        final = sim.run(pos, None)
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
    }


def replay_scores(
    replay: dict[str, Any], engine: str = "auto"
) -> tuple[list[list[int]], list[int]]:
    """Re-play a replay's deal and decisions on the lean path: the scores after each turn and
    the final scores. ``engine``: ``"auto"`` (the fast loop where there is one) or
    ``"general"``."""
    name = replay["variant"]
    setup = replay["setup"]
    pos = Position.deal(
        name,
        setup["rows"],
        setup["hands"],
        setup["supply"],
        setup["luck_deck"],
        setup["action_deck"],
    )
    turns = replay["turns"]
    if engine == "auto" and name in ("basic", "classic"):
        record: list[list[int]] = []
        scores = list(pos.scores)
        codes = sorted(
            k << 12 | t << _SEAT_BITS | s
            for k, turn in enumerate(turns)
            for s, t in enumerate(turn["plays"])
            if t is not None
        )
        if name == "basic":
            assert pos.board is not None
            ends, state, empty = pos._basic_rows()
            for group in _by_turn(codes):
                empty = _basic_loop(ends, state, empty, scores, group, pos.board)
                record.append(list(scores))
        else:
            ends, state, rows = pos._classic_rows()
            taken = iter([c["row"] for turn in turns for c in turn["choices"]])
            for group in _by_turn(codes):
                _classic_loop(ends, state, rows, scores, group, lambda seat: next(taken), _no_bits)
                record.append(list(scores))
        return record, scores
    sim = _Sim(pos, None)
    sim.script = turns
    recorded: list[Turn] = []
    sim.record = recorded
    final = sim.run(pos, None)
    return [t["scores"] for t in recorded], final
