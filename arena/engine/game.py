"""The game state and its one state-transition API.

A :class:`Game` is created from a variant, a player count and a seed (or from an explicit
position), then driven by decisions until it is over::

    game = Game.new("basic", players=4, seed=7)
    while not game.is_over():
        pending = game.pending            # what is asked, and of whom
        for seat in pending.seats:
            game.apply(seat, game.legal(seat)[0])
    game.result().ranks

>>> game = Game.new("basic", players=4, seed=7)
>>> game.pending.kind.value, game.pending.seats
('tile', (0, 1, 2, 3))
>>> while not game.is_over():
...     for seat in game.pending.seats:
...         game.apply(seat, game.legal(seat)[0])
>>> len(game.turns), list(game.result().scores) == game.turns[-1].scores
(12, True)

Decisions (RULES.md 6) are asked as :class:`~arena.engine.decisions.Pending` values: the
simultaneous tile choice (every seat with tiles, in any order), then during placement one
seat's action card (professional; only asked when the seat holds a card it could play), one
seat's luck-card placement, or the card game's row choice. Arena policy (deadlines, faults)
lives outside, in the match runner.

Every step inside a turn can be watched: :meth:`Game.listen` registers a callback that gets
one small :data:`Event` per step, right after the step, while the game holds the position it
leads to (the replay viewer's frames, :mod:`arena.engine.frames`, are built so):

>>> game = Game.new("basic", players=2, seed=3)
>>> seen = []
>>> game.listen(seen.append)
>>> game.apply(0, game.legal(0)[0]); game.apply(1, game.legal(1)[0])
>>> [type(event).__name__ for event in seen]
['Revealed', 'Landed', 'Landed', 'TurnEnded', 'Asked']
>>> sum(e.delta for e in seen if isinstance(e, Landed)) == sum(game.scores)
True
"""

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeAlias

from .decisions import (
    Decision,
    DecisionKind,
    Pending,
    PlaceLuck,
    PlayAction,
    PlayTile,
    TakeRow,
    kind_of,
)
from .errors import IllegalDecisionError, SetupError, UnexpectedDecisionError
from .readings import CURRENT, Reading, reading
from .rng import DealRandom
from .variants import (
    ACTION_CARDS,
    CLASSIC_ROW_LENGTH,
    LUCK_CARDS,
    PRO_TURN_CAP,
    Variant,
)
from .variants import (
    variant as get_variant,
)

EMPTY = 0
SKIPPED = -1
_ROW_CARDS = ("stop", "front", "ascending", "anywhere")
_TILE_CARDS = ("swap", "another")


@dataclass
class TurnRecord:
    """One turn as the replay records it."""

    plays: list[int | None]
    choices: list[dict[str, Any]] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Result:
    """Final scores (after any hand penalty) and competition ranks (1 = best)."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]


def competition_ranks(
    scores: list[int] | tuple[int, ...],
    higher_is_better: bool,
    faulted: frozenset[int] = frozenset(),
) -> tuple[int, ...]:
    """Ranks 1, 1, 3 style; a faulted seat ranks below every seat without a fault.

    >>> competition_ranks([5, 9, 5, 1], True)
    (2, 1, 2, 4)
    >>> competition_ranks([5, 9, 5, 1], False, faulted=frozenset({3}))
    (1, 3, 1, 4)
    """

    def key(seat: int) -> tuple[bool, int]:
        return (seat in faulted, -scores[seat] if higher_is_better else scores[seat])

    keys = [key(s) for s in range(len(scores))]
    return tuple(1 + sum(1 for other in keys if other < mine) for mine in keys)


# ---------------------------------------------------------------------- steps, as events
#
# What Game.listen's callbacks get, one per step of play. Seats and rows count from 0, as
# everywhere in the engine; ``delta`` is the change of the seat's score by the step.


@dataclass(frozen=True)
class Revealed:
    """Turn ``turn`` (from 1): the chosen tiles are revealed; ``plays``: ``(tile, seat)`` in
    placing order (lowest tile first)."""

    turn: int
    plays: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class ActionPlayed:
    """``seat`` plays action card ``card`` on its revealed ``tile`` (``row``, ``new_tile`` as
    the card needs them). Emitted before the card's effect, the card still in the seat's hand;
    the steps that follow show the effect."""

    seat: int
    tile: int
    card: str
    row: int | None = None
    new_tile: int | None = None


@dataclass(frozen=True)
class Landed:
    """``seat``'s ``tile`` is on ``space`` of ``row``. ``marker``: the luck card that was on
    the space; ``drew_tile`` / ``drew_card``: the tile or action card the space gave the seat;
    ``drew_luck``: the luck card the seat drew for losing points (it is asked where to put it).

    On a row's final space (board game) the tile is there but the row's effect is still to
    come: a :class:`RowCompleted` follows and carries the score change (``delta`` is 0 here).
    """

    seat: int
    tile: int
    row: int
    space: int
    delta: int = 0
    marker: str | None = None
    drew_tile: int | None = None
    drew_card: str | None = None
    drew_luck: str | None = None


@dataclass(frozen=True)
class RowCompleted:
    """``seat``'s ``tile`` completed ``row`` (board game): the row's other ``tiles`` went to the
    seat's hand (``claimed``: a claim row) or out of the game, ``tile`` moved to the first space
    of ``to_row``. ``marker``: the luck card on the final space; ``delta`` counts the bullheads
    lost, a Final 10 card and a Plus 5 action card played on the tile; ``drew_luck`` as for
    :class:`Landed`."""

    seat: int
    tile: int
    row: int
    tiles: tuple[int, ...]
    claimed: bool
    to_row: int
    delta: int
    marker: str | None = None
    drew_luck: str | None = None


@dataclass(frozen=True)
class SixthCard:
    """The card game: ``seat``'s ``tile`` is the sixth card of ``row``; a :class:`RowTaken`
    follows."""

    seat: int
    tile: int
    row: int


@dataclass(frozen=True)
class RowTaken:
    """The card game: ``seat`` took the ``tiles`` of ``row`` (``delta``: their bullheads, a
    penalty) and ``tile`` starts it. ``chosen``: the tile was lower than every row and the seat
    chose the row; otherwise it was the row's sixth card."""

    seat: int
    tile: int
    row: int
    tiles: tuple[int, ...]
    delta: int
    chosen: bool


@dataclass(frozen=True)
class LuckPlaced:
    """``seat`` put luck card ``card`` on ``space`` of ``row``."""

    seat: int
    card: str
    row: int
    space: int


@dataclass(frozen=True)
class TurnEnded:
    """Turn ``turn`` is over with these ``scores``; ``second_set``: a set ended and every seat
    drew a new hand. A :class:`GameOver` follows when the game is over."""

    turn: int
    scores: tuple[int, ...]
    second_set: bool = False


@dataclass(frozen=True)
class GameOver:
    """The game is over: the final ``scores`` (after any hand penalty, RULES.md 5)."""

    scores: tuple[int, ...]


@dataclass(frozen=True)
class Asked:
    """The game waits for ``pending``: a new turn's tile choice, or one seat's action card, luck
    card or row choice inside a turn."""

    pending: Pending


Event: TypeAlias = (
    Revealed
    | ActionPlayed
    | Landed
    | RowCompleted
    | SixthCard
    | RowTaken
    | LuckPlaced
    | TurnEnded
    | GameOver
    | Asked
)
Listener: TypeAlias = Callable[[Event], None]


class Snapshot(NamedTuple):
    """A position as plain parts, as :class:`Game` names them: what :meth:`Game.from_snapshot`
    rebuilds a game from and the lean path (:class:`~arena.engine.playout.Position`) loads.

    ``turns``: the turns so far (the current one last, with this turn's choices once the tiles
    are revealed); ``chosen``: per seat, the tile chosen this turn and not yet revealed;
    ``to_place``: revealed ``(tile, seat)`` still to be placed; ``current``: the play whose
    action card or row choice is ``pending``; ``final``: the final scores once the game is over;
    ``rules``: the name of the reading the game is played under (:mod:`arena.engine.readings`).
    A tile of ``to_place`` that has had its action card this turn (an Another card's first
    tile) is one that this turn's choices name as an action's ``tile``.
    """

    variant: str
    spaces: Sequence[Sequence[int]]
    markers: Sequence[Sequence[str | None]]
    stops: Collection[int]
    hands: Sequence[Sequence[int]]
    held: Sequence[Sequence[str]]
    scores: Sequence[int]
    supply: Sequence[int]
    luck_deck: Sequence[str]
    action_deck: Sequence[str]
    box: Sequence[int]
    set_number: int
    turns: Sequence[TurnRecord]
    chosen: Sequence[int | None]
    to_place: Sequence[tuple[int, int]]
    current: tuple[int, int] | None
    pending: Pending | None
    final: Sequence[int] | None = None
    rules: str = CURRENT.name


# ---------------------------------------------------------------------- rules as functions
#
# Pure helpers of the rules that the Game and the core's bindings (arena.engine.playout) share.


def deal(
    v: Variant, players: int, tiles: list[int]
) -> tuple[list[list[int]], list[list[int]], list[int]]:
    """Rows, hands and supply from a shuffled order of the tiles (RULES.md 2): a tile on the
    first space of each starting row, then 12 tiles per seat in seat order, the rest the supply.
    """
    nrows = len(v.board.rows) if v.board else v.start_rows
    rows = [[tiles[r]] if r < v.start_rows else [] for r in range(nrows)]
    hs = v.hand_size
    start = v.start_rows
    hands = [tiles[start + s * hs : start + (s + 1) * hs] for s in range(players)]
    return rows, hands, tiles[start + players * hs :]


def target_row(
    tile: int,
    spaces: Sequence[Sequence[int]],
    fill: Sequence[int],
    stops: Collection[int] = (),
    classic: bool = False,
) -> int | None:
    """The row ``tile`` goes to by the normal rule (RULES.md 3.2), from the rows' ``spaces``,
    their ``fill`` (:func:`next_space`) and the rows a Stop marker closes: of the rows ending
    lower, the one ending highest; if there is none, the row ending highest, or in the card
    game ``None`` (its player takes a row, RULES.md 7).

    >>> rows = [[12, 0], [40, 41], [0, 0], [25, 0]]
    >>> target_row(30, rows, [1, 2, 0, 1]), target_row(30, rows, [1, 2, 0, 1], stops={3})
    (3, 0)
    >>> target_row(5, rows, [1, 2, 0, 1]), target_row(5, rows, [1, 2, 0, 1], classic=True)
    (1, None)
    """
    best, best_end, high, high_end = -1, 0, -1, 0
    for r, f in enumerate(fill):
        if not f or r in stops:
            continue
        end = spaces[r][f - 1]
        if best_end < end < tile:
            best, best_end = r, end
        if end > high_end:
            high, high_end = r, end
    if best >= 0:
        return best
    return None if classic else high


def next_space(row: Sequence[int]) -> int:
    """The index of a row's next empty space: after its last tile (a skipped space counts as
    filled).

    >>> next_space([12, SKIPPED, 40, EMPTY, EMPTY]), next_space([EMPTY, EMPTY])
    (3, 0)
    """
    n = len(row)
    while n and row[n - 1] == EMPTY:
        n -= 1
    return n


def landing_row(fill: Sequence[int], cleared: int) -> int:
    """Where the tile that completed row ``cleared`` moves: the topmost empty row but that one
    (RULES.md 3.3; with four active rows of ten there always is one)."""
    dest = 0
    while dest == cleared or fill[dest]:
        dest += 1
    return dest


def front_fits(spaces: Sequence[int], fill: int, tile: int) -> bool:
    """May the Front card put ``tile`` first in this row (RULES.md 5)? Its first tile is higher,
    it has two empty spaces or more and no skipped space."""
    return spaces[0] > tile and len(spaces) - fill >= 2 and SKIPPED not in spaces


def put_first(spaces: list[int], fill: int, tile: int) -> None:
    """The Front card (RULES.md 5): ``tile`` goes first in the row, whose ``fill`` tiles move
    one space right."""
    spaces[1 : fill + 1] = spaces[:fill]
    spaces[0] = tile


def set_over(v: Variant, hands: Sequence[Sequence[int]]) -> bool:
    """Does the set end with this turn? Basic and card game: every hand empties at once.
    Professional: hands differ in size and the first empty hand ends the set (RULES.md 4, 5)."""
    return not all(hands) if v.actions else not any(hands)


def second_set_due(v: Variant, players: int, set_number: int, supply_left: int) -> bool:
    """After the first set, 2-3 players draw a second hand each if the supply holds them
    (RULES.md 4, 5)."""
    return (
        not v.classic and players <= 3 and set_number == 1 and supply_left >= v.hand_size * players
    )


def final_scores(
    v: Variant,
    scores: Sequence[int],
    hands: Sequence[Sequence[int]],
    bullheads: Sequence[int] | None = None,
) -> list[int]:
    """The final result from the last turn's scores: professional, less the bullheads of the
    tiles still in each hand (RULES.md 5); ``bullheads``: the game's table (default: the
    current reading's)."""
    if not v.actions:
        return list(scores)
    table = CURRENT.bullheads(v) if bullheads is None else bullheads
    return [score - sum(table[t] for t in hand) for score, hand in zip(scores, hands, strict=True)]


def had_card(tile: int, choices: Sequence[dict[str, Any]]) -> bool:
    """Has ``tile`` had its action card this turn (``choices``: the turn's so far)? A tile
    waiting to be placed that has is the first tile of an Another card (RULES.md 5): it is
    placed without a card of its own."""
    return any(c["kind"] == "action" and c["tile"] == tile for c in choices)


def another_order(
    seat: int,
    tile: int,
    new_tile: int,
    queue: list[tuple[int, int]],
    rules: Reading,
) -> list[tuple[int, int]]:
    """The seat's tiles to be placed next after an Another card on ``tile`` revealed
    ``new_tile``, taken off the front of ``queue`` (RULES.md 5): reading 2, all of the seat's
    revealed tiles lowest first (the seat's tiles at the front of the queue are its earlier
    Another cards' tiles); reading 1, ``tile`` first, then ``new_tile``."""
    own = [(tile, seat), (new_tile, seat)]
    if not rules.another_lowest_first:
        return own
    while queue and queue[0][1] == seat:
        own.append(queue.pop(0))
    return sorted(own)


class Game:
    """One game of any variant: position, pending decision, history."""

    def __init__(self, variant: Variant, players: int, rules: Reading = CURRENT) -> None:
        """Use :meth:`new` or :meth:`from_setup`."""
        variant.check_players(players)
        self.variant = variant
        self.players = players
        self.rules = rules  # the reading of the rules the game is played under
        self.bullheads = rules.bullheads(variant)  # bullheads[t]: tile t's, under ``rules``
        self.seed: int | None = None
        self.layout: tuple[str, ...] = variant.board.rows if variant.board else ()
        nrows = len(self.layout) if variant.board else variant.start_rows
        self.spaces: list[list[int]] = [
            [EMPTY] * (len(self.layout[r]) if variant.board else CLASSIC_ROW_LENGTH)
            for r in range(nrows)
        ]
        self.fill = [0] * nrows  # index of the next empty space of each row
        self.markers: list[list[str | None]] = [[None] * len(row) for row in self.spaces]
        self.stops: set[int] = set()
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.held: list[list[str]] = [[] for _ in range(players)]  # action cards
        self.scores = [0] * players
        self.supply: list[int] = []
        self.luck_deck: list[str] = []
        self.action_deck: list[str] = []
        self.box: list[int] = []  # tiles that left the game
        self.set_number = 1
        self.turns: list[TurnRecord] = []
        self.setup: dict[str, Any] = {}
        self._chosen: list[int | None] = [None] * players
        self._queue: list[tuple[int, int]] = []  # revealed (tile, seat) still to be placed
        self._current: tuple[int, int] | None = None  # tile awaiting an action / row choice
        self._pending: Pending | None = None
        self._final: tuple[int, ...] | None = None
        self._listeners: tuple[Listener, ...] = ()

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(cls, variant: str, players: int, seed: int, rules: Reading = CURRENT) -> "Game":
        """A new game, dealt from ``seed`` (RULES.md 2; the same seed, the same deal), played
        under the reading ``rules`` (default: the current one)."""
        v = get_variant(variant)
        v.check_players(players)
        rng = DealRandom(seed)
        tiles = list(range(1, v.tiles + 1))
        rng.shuffle(tiles)
        luck = list(v.luck_deck)
        rng.shuffle(luck)
        actions = list(v.action_deck)
        rng.shuffle(actions)
        rows, hands, supply = deal(v, players, tiles)
        game = cls.from_setup(variant, rows, hands, supply, luck, actions, rules=rules)
        game.seed = seed
        return game

    @classmethod
    def from_setup(
        cls,
        variant: str,
        rows: list[list[int]],
        hands: list[list[int]],
        supply: list[int],
        luck_deck: list[str] | tuple[str, ...] = (),
        action_deck: list[str] | tuple[str, ...] = (),
        *,
        scores: list[int] | None = None,
        held: list[list[str]] | None = None,
        markers: dict[tuple[int, int], str] | None = None,
        box: list[int] | tuple[int, ...] = (),
        rules: Reading = CURRENT,
    ) -> "Game":
        """A game from an explicit position: a replay's ``setup``, or a hand-built test position.

        Every tile of the variant must be in exactly one of ``rows``, ``hands``, ``supply`` and
        ``box``. ``scores``, ``held`` (action cards per seat) and ``markers`` (``(row, space) ->
        luck card``) describe positions reached in play; a replay's setup never has them.
        ``rules``: the reading the game is played under.
        """
        v = get_variant(variant)
        game = cls(v, len(hands), rules)
        seen = [t for part in (*rows, *hands, supply, box) for t in part]
        if sorted(seen) != list(range(1, v.tiles + 1)):
            dup = sorted({t for t in seen if seen.count(t) > 1})
            missing = sorted(set(range(1, v.tiles + 1)) - set(seen))
            extra = sorted(t for t in set(seen) if not 1 <= t <= v.tiles)
            raise SetupError(
                f"every tile 1..{v.tiles} must be in exactly one place: "
                f"duplicated {dup}, missing {missing}, out of range {extra}"
            )
        if len(rows) != len(game.spaces):
            raise SetupError(f"{v.name} has {len(game.spaces)} rows, setup gives {len(rows)}")
        for r, row in enumerate(rows):
            if len(row) >= len(game.spaces[r]) + (1 if v.classic else 0):
                raise SetupError(f"row {r} holds {len(row)} tiles; it has room for fewer")
            game.spaces[r][: len(row)] = row
            game.fill[r] = len(row)
        if v.classic and any(not row for row in rows):
            raise SetupError("every row of the card game starts with one card")
        if sum(1 for row in rows if row) == 0:
            raise SetupError("at least one row must hold a tile")
        bad = [c for c in luck_deck if c not in LUCK_CARDS] + [
            c for c in action_deck if c not in ACTION_CARDS
        ]
        if bad or (luck_deck and not v.luck) or (action_deck and not v.actions):
            raise SetupError(f"decks do not fit {v.name}: luck {luck_deck}, action {action_deck}")
        game.hands = [sorted(h) for h in hands]
        game.supply = list(supply)
        game.luck_deck = list(luck_deck)
        game.action_deck = list(action_deck)
        game.box = list(box)
        if scores is not None:
            game.scores = list(scores)
        if held is not None:
            game.held = [list(h) for h in held]
        for (r, s), card in (markers or {}).items():
            game.markers[r][s] = card
        game.setup = {
            "rows": [list(r) for r in rows],
            "hands": [list(h) for h in hands],
            "supply": list(supply),
            "luck_deck": list(luck_deck),
            "action_deck": list(action_deck),
        }
        game._start_turn()
        return game

    def clone(self) -> "Game":
        """An independent copy (history shared read-only: it is only ever appended to)."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.spaces = [list(r) for r in self.spaces]
        other.fill = list(self.fill)
        other.markers = [list(r) for r in self.markers]
        other.stops = set(self.stops)
        other.hands = [list(h) for h in self.hands]
        other.held = [list(h) for h in self.held]
        other.scores = list(self.scores)
        other.supply = list(self.supply)
        other.luck_deck = list(self.luck_deck)
        other.action_deck = list(self.action_deck)
        other.box = list(self.box)
        other.turns = [
            TurnRecord(list(t.plays), list(t.choices), list(t.scores)) for t in self.turns
        ]
        other._chosen = list(self._chosen)
        other._queue = list(self._queue)
        other._listeners = ()  # a copy plays on unwatched
        return other

    @classmethod
    def from_snapshot(cls, snap: Snapshot) -> "Game":
        """A game in the position ``snap`` describes, in the middle of a turn or over included
        (its history is ``snap.turns``): :mod:`arena.engine.sampling` builds its samples so."""
        if (snap.pending is None) != (snap.final is not None):
            raise SetupError("a game waits for a decision exactly when it is not over")
        game = cls(get_variant(snap.variant), len(snap.hands), reading(snap.rules))
        game.spaces = [list(row) for row in snap.spaces]
        game.fill = [next_space(row) for row in snap.spaces]
        game.markers = [list(row) for row in snap.markers]
        game.stops = set(snap.stops)
        game.hands = [list(h) for h in snap.hands]
        game.held = [list(h) for h in snap.held]
        game.scores = list(snap.scores)
        game.supply = list(snap.supply)
        game.luck_deck = list(snap.luck_deck)
        game.action_deck = list(snap.action_deck)
        game.box = list(snap.box)
        game.set_number = snap.set_number
        game.turns = [
            TurnRecord(list(t.plays), list(t.choices), list(t.scores)) for t in snap.turns
        ]
        game._chosen = list(snap.chosen)
        game._queue = list(snap.to_place)
        game._current = snap.current
        game._pending = snap.pending
        game._final = None if snap.final is None else tuple(snap.final)
        return game

    def snapshot(self) -> Snapshot:
        """This position as plain parts (copies: the game may move on)."""
        return Snapshot(
            variant=self.variant.name,
            spaces=[list(row) for row in self.spaces],
            markers=[list(row) for row in self.markers],
            stops=sorted(self.stops),
            hands=[list(h) for h in self.hands],
            held=[list(h) for h in self.held],
            scores=list(self.scores),
            supply=list(self.supply),
            luck_deck=list(self.luck_deck),
            action_deck=list(self.action_deck),
            box=list(self.box),
            set_number=self.set_number,
            turns=[TurnRecord(list(t.plays), list(t.choices), list(t.scores)) for t in self.turns],
            chosen=list(self._chosen),
            to_place=list(self._queue),
            current=self._current,
            pending=self._pending,
            final=self._final,
            rules=self.rules.name,
        )

    # ------------------------------------------------------------------ queries

    @property
    def pending(self) -> Pending | None:
        """The decision the game waits for, or ``None`` once it is over."""
        return self._pending

    def is_over(self) -> bool:
        return self._final is not None

    def result(self) -> Result:
        """Final scores and ranks; only once the game is over."""
        if self._final is None:
            raise UnexpectedDecisionError("the game is not over yet")
        return Result(self._final, competition_ranks(self._final, self.variant.higher_is_better))

    @property
    def turn(self) -> int:
        """The current turn, counted from 1 (the last turn once the game is over)."""
        choosing = self._pending is not None and self._pending.kind is DecisionKind.TILE
        return len(self.turns) + (1 if choosing else 0)

    def chosen(self, seat: int) -> int | None:
        """The tile ``seat`` has chosen this turn and not yet revealed (hidden from others)."""
        return self._chosen[seat]

    def to_place(self) -> list[tuple[int, int]]:
        """Revealed ``(tile, seat)`` still to be placed this turn, in order (public)."""
        return list(self._queue)

    @property
    def current(self) -> tuple[int, int] | None:
        """The revealed ``(tile, seat)`` whose action card or row choice is being decided."""
        return self._current

    def in_turn(self) -> bool:
        """True between the reveal and the end of a turn (placements under way)."""
        return self._pending is not None and self._pending.kind is not DecisionKind.TILE

    def row_tiles(self, row: int) -> list[int]:
        """The tiles of ``row``, left to right."""
        return [t for t in self.spaces[row] if t > 0]

    def last_tile(self, row: int) -> int:
        """The row's last tile, 0 if it is empty."""
        f = self.fill[row]
        return self.spaces[row][f - 1] if f else 0

    def is_active(self, row: int) -> bool:
        return self.fill[row] > 0 and row not in self.stops

    def target_row(self, tile: int) -> int | None:
        """The row ``tile`` goes to by the normal rule (RULES.md 3.2).

        Card game: ``None`` when the tile is lower than every row's end (its player takes a row).
        """
        return target_row(tile, self.spaces, self.fill, self.stops, self.variant.classic)

    def legal(self, seat: int) -> list[Decision]:
        """Every decision ``seat`` may take now (empty if nothing is asked of it)."""
        p = self._pending
        if p is None or seat not in p.seats:
            return []
        if p.kind is DecisionKind.TILE:
            return [PlayTile(t) for t in self.hands[seat]]
        if p.kind is DecisionKind.TAKE_ROW:
            return [TakeRow(r) for r in range(len(self.spaces))]
        if p.kind is DecisionKind.LUCK:
            assert p.card is not None
            return [PlaceLuck(r, s) for r, s in self._luck_spaces(p.card)]
        assert p.tile is not None
        return self._action_options(seat, p.tile)

    # ------------------------------------------------------------------ watching

    def listen(self, listener: Listener) -> None:
        """Call ``listener`` with an :data:`Event` after every step of play from now on.

        A listener looks and must not change the game; what it raises propagates out of
        :meth:`apply` with the step half done. Copies (:meth:`clone`) are not watched.
        """
        self._listeners = (*self._listeners, listener)

    def unlisten(self, listener: Listener) -> None:
        """Stop calling ``listener`` (a :exc:`ValueError` if it was not listening)."""
        listeners = list(self._listeners)
        listeners.remove(listener)
        self._listeners = tuple(listeners)

    def _emit(self, event: Event) -> None:
        for listener in self._listeners:
            listener(event)

    # ------------------------------------------------------------------ transitions

    def apply(self, seat: int, decision: Decision) -> None:
        """Take ``decision`` for ``seat`` and advance until the next decision or the end.

        Raises :class:`UnexpectedDecisionError` if nothing of that kind is asked of ``seat``,
        :class:`IllegalDecisionError` if the decision breaks a rule.
        """
        p = self._pending
        if p is None:
            raise UnexpectedDecisionError(f"the game is over; seat {seat} has nothing to decide")
        if not 0 <= seat < self.players:
            raise UnexpectedDecisionError(f"there is no seat {seat} (seats 0..{self.players - 1})")
        if seat not in p.seats:
            raise UnexpectedDecisionError(
                f"seat {seat} has nothing to decide now; waiting for {p.kind.value} "
                f"from seat(s) {', '.join(map(str, p.seats))}"
            )
        kind = kind_of(decision)
        if kind is not p.kind:
            raise UnexpectedDecisionError(
                f"seat {seat} is asked for a {p.kind.value} decision, not {kind.value}"
            )
        if isinstance(decision, PlayTile):
            self._choose(seat, decision.tile)
            return
        if decision not in self.legal(seat):
            raise IllegalDecisionError(self._explain_illegal(seat, decision))
        self._pending = None
        if isinstance(decision, TakeRow):
            assert self._current is not None
            tile, _ = self._current
            self._current = None
            self._record(seat, "take_row", row=decision.row)
            self._take_row(seat, tile, decision.row, chosen=True)
        elif isinstance(decision, PlaceLuck):
            assert p.card is not None
            self._record(seat, "luck", card=p.card, row=decision.row, space=decision.space)
            self.markers[decision.row][decision.space] = p.card
            if self._listeners:
                self._emit(LuckPlaced(seat, p.card, decision.row, decision.space))
        elif isinstance(decision, PlayAction):
            assert self._current is not None
            tile, _ = self._current
            self._current = None
            self._play_action(seat, tile, decision)
        self._run()

    def _explain_illegal(self, seat: int, decision: Decision) -> str:
        options = self.legal(seat)
        shown = ", ".join(map(str, options[:12])) + (" ..." if len(options) > 12 else "")
        return f"'{decision}' is not legal for seat {seat} now; legal: {shown}"

    def _choose(self, seat: int, tile: int) -> None:
        hand = self.hands[seat]
        if tile not in hand:
            raise IllegalDecisionError(
                f"tile {tile} is not in seat {seat}'s hand; hand: {' '.join(map(str, hand))}"
            )
        hand.remove(tile)
        self._chosen[seat] = tile
        assert self._pending is not None
        waiting = tuple(s for s in self._pending.seats if s != seat)
        if waiting:
            self._pending = Pending(DecisionKind.TILE, waiting)
            return
        self._pending = None
        plays = self._chosen
        self._chosen = [None] * self.players
        self.turns.append(TurnRecord(list(plays)))
        self._queue = sorted((t, s) for s, t in enumerate(plays) if t is not None)
        if self._listeners:
            self._emit(Revealed(len(self.turns), tuple(self._queue)))
        self._run()

    def _run(self) -> None:
        """Place queued tiles until a decision is needed or the turn ends."""
        while self._pending is None:
            if not self._queue:
                self._end_turn()
                return
            tile, seat = self._queue.pop(0)
            if (
                self.held[seat]
                and not had_card(tile, self.turns[-1].choices)
                and len(self._action_options(seat, tile)) > 1
            ):
                self._current = (tile, seat)
                self._pending = Pending(DecisionKind.ACTION, (seat,), tile=tile)
                if self._listeners:
                    self._emit(Asked(self._pending))
                return
            self._place_normally(seat, tile)

    def _place_normally(self, seat: int, tile: int, bonus: int = 0) -> None:
        row = self.target_row(tile)
        if row is None:  # card game, lower than every row
            self._current = (tile, seat)
            self._pending = Pending(DecisionKind.TAKE_ROW, (seat,), tile=tile)
            if self._listeners:
                self._emit(Asked(self._pending))
            return
        if self.variant.classic:
            self._place_classic(seat, tile, row)
        else:
            self._land(seat, tile, row, self.fill[row], bonus)

    # ------------------------------------------------------------------ the card game

    def _place_classic(self, seat: int, tile: int, row: int) -> None:
        space = self.fill[row]
        if space == CLASSIC_ROW_LENGTH:
            if self._listeners:
                self._emit(SixthCard(seat, tile, row))
            self._take_row(seat, tile, row, chosen=False)
        else:
            self.spaces[row][space] = tile
            self.fill[row] = space + 1
            if self._listeners:
                self._emit(Landed(seat, tile, row, space))

    def _take_row(self, seat: int, tile: int, row: int, chosen: bool) -> None:
        taken = self.row_tiles(row)
        penalty = sum(self.bullheads[t] for t in taken)
        self.scores[seat] += penalty
        self.box.extend(taken)
        self.spaces[row] = [tile] + [EMPTY] * (CLASSIC_ROW_LENGTH - 1)
        self.fill[row] = 1
        if self._listeners:
            self._emit(RowTaken(seat, tile, row, tuple(taken), penalty, chosen))

    # ------------------------------------------------------------------ the board game

    def _land(self, seat: int, tile: int, row: int, space: int, bonus: int) -> None:
        """Put ``tile`` on ``space`` of ``row``, apply the space (RULES.md 3.2–3.4, 5).

        ``bonus``: a Plus five card's 5 points. Reading 2 counts the space as worth that
        *instead of* its effect or a marker's, except a final space, which still completes its
        row; reading 1 adds them on top of whatever the space does."""
        spaces = self.spaces[row]
        kind = self.layout[row][space]
        marker = self.markers[row][space]
        spaces[space] = tile
        self.fill[row] = space + 1
        delta = bonus
        drew_tile: int | None = None
        drew_card: str | None = None
        drew_luck: str | None = None
        final = space == len(spaces) - 1
        if final:  # the row is complete
            if self._listeners:
                self._emit(Landed(seat, tile, row, space, 0, marker))
            others = [t for t in spaces if t > 0 and t != tile]
            if marker == "final10":
                delta += 10
            if kind == "C":
                self.hands[seat] = sorted(self.hands[seat] + others)
            else:
                delta -= sum(self.bullheads[t] for t in others)
                self.box.extend(others)
            self.spaces[row] = [EMPTY] * len(spaces)
            self.markers[row] = [None] * len(spaces)
            self.fill[row] = 0
            self.stops.discard(row)
            dest = landing_row(self.fill, row)
            self.spaces[dest][0] = tile
            self.fill[dest] = 1
        elif bonus and self.rules.plus5_replaces:
            pass  # a +5 space for this placement: nothing else happens
        elif marker == "plus5":
            delta += 5
        elif kind == "+":
            delta += self.bullheads[tile]
        elif kind == "-":
            delta -= self.bullheads[tile]
        elif kind == "D":
            if self.supply:
                drew_tile = self.supply.pop(0)
                self.hands[seat] = sorted(self.hands[seat] + [drew_tile])
        elif kind == "A" and self.action_deck:
            drew_card = self.action_deck.pop(0)
            self.held[seat].append(drew_card)
        self.scores[seat] += delta
        if delta < 0 and self.luck_deck and self._luck_spaces(self.luck_deck[0]):
            drew_luck = self.luck_deck.pop(0)
            self._pending = Pending(DecisionKind.LUCK, (seat,), card=drew_luck)
        if self._listeners:
            if final:
                claimed = kind == "C"
                self._emit(
                    RowCompleted(
                        seat, tile, row, tuple(others), claimed, dest, delta, marker, drew_luck
                    )
                )
            else:
                self._emit(
                    Landed(seat, tile, row, space, delta, marker, drew_tile, drew_card, drew_luck)
                )
            if self._pending is not None:
                self._emit(Asked(self._pending))

    def _luck_spaces(self, card: str) -> list[tuple[int, int]]:
        """Spaces a luck card may go on: free, unmarked, not skipped (RULES.md 3.4)."""
        free: list[tuple[int, int]] = []
        for r, spaces in enumerate(self.spaces):
            last = len(spaces) - 1
            candidates = range(1, last) if card == "plus5" else (last,)
            marks = self.markers[r]
            free.extend((r, s) for s in candidates if spaces[s] == EMPTY and marks[s] is None)
        return free

    def _action_options(self, seat: int, tile: int) -> list[Decision]:
        """Decline, or each held card with each legal target (RULES.md 5)."""
        options: list[Decision] = [PlayAction(None)]
        active = [r for r in range(len(self.spaces)) if self.is_active(r)]
        target = self.target_row(tile)
        assert target is not None
        hand = self.hands[seat]
        for card in sorted(set(self.held[seat]), key=ACTION_CARDS.index):
            if card == "stop":  # at least one row stays active
                if self.rules.stop_on_own_row:
                    options += [PlayAction(card, row=r) for r in active if len(active) > 1]
                else:
                    options += [PlayAction(card, row=r) for r in active if r != target]
            elif card in _TILE_CARDS:
                options += [PlayAction(card, new_tile=t) for t in hand]
            elif card == "skip":
                if self.fill[target] + 1 < len(self.spaces[target]):
                    options.append(PlayAction(card))
            elif card == "front":
                options += [
                    PlayAction(card, row=r)
                    for r in active
                    if front_fits(self.spaces[r], self.fill[r], tile)
                ]
            elif card == "ascending":
                options += [PlayAction(card, row=r) for r in active if self.last_tile(r) < tile]
            elif card == "anywhere":
                options += [PlayAction(card, row=r) for r in active]
            else:  # plus5
                options.append(PlayAction(card))
        return options

    def _play_action(self, seat: int, tile: int, action: PlayAction) -> None:
        card = action.card
        if card is None:
            self._place_normally(seat, tile)
            return
        if self._listeners:
            self._emit(ActionPlayed(seat, tile, card, action.row, action.new_tile))
        self.held[seat].remove(card)
        entry: dict[str, Any] = {"card": card, "tile": tile}
        if action.row is not None:
            entry["row"] = action.row
        if action.new_tile is not None:
            entry["new_tile"] = action.new_tile
        self._record(seat, "action", **entry)
        if card == "stop":
            assert action.row is not None
            self.stops.add(action.row)
            self._place_normally(seat, tile)
        elif card == "swap":
            assert action.new_tile is not None
            self.hands[seat].remove(action.new_tile)
            self.hands[seat] = sorted(self.hands[seat] + [tile])
            self._place_normally(seat, action.new_tile)
        elif card == "another":  # the tiles go by the normal rule from the queue's front
            assert action.new_tile is not None
            self.hands[seat].remove(action.new_tile)
            own = another_order(seat, tile, action.new_tile, self._queue, self.rules)
            self._queue[0:0] = own
        elif card == "skip":
            row = self.target_row(tile)
            assert row is not None
            self.spaces[row][self.fill[row]] = SKIPPED
            self._land(seat, tile, row, self.fill[row] + 1, 0)
        elif card == "front":
            assert action.row is not None
            put_first(self.spaces[action.row], self.fill[action.row], tile)
            self.fill[action.row] += 1
            if self._listeners:
                self._emit(Landed(seat, tile, action.row, 0))
        elif card in ("ascending", "anywhere"):
            assert action.row is not None
            self._land(seat, tile, action.row, self.fill[action.row], 0)
        else:  # plus5
            self._place_normally(seat, tile, bonus=5)

    # ------------------------------------------------------------------ turns and the end

    def _record(self, seat: int, kind: str, **fields: Any) -> None:
        self.turns[-1].choices.append({"seat": seat, "kind": kind, **fields})

    def _start_turn(self) -> None:
        seats = tuple(s for s in range(self.players) if self.hands[s])
        self._pending = Pending(DecisionKind.TILE, seats)
        if self._listeners:
            self._emit(Asked(self._pending))

    def _end_turn(self) -> None:
        """Record the scores; refill for a second set, end the game, or start the next turn."""
        self.stops.clear()
        self.turns[-1].scores = list(self.scores)
        v = self.variant
        over = v.actions and len(self.turns) >= PRO_TURN_CAP
        second_set = False
        if set_over(v, self.hands):
            if second_set_due(v, self.players, self.set_number, len(self.supply)):
                self.set_number = 2
                second_set = True
                for seat in range(self.players):
                    drawn, self.supply = self.supply[: v.hand_size], self.supply[v.hand_size :]
                    self.hands[seat] = sorted(self.hands[seat] + drawn)
            else:
                over = True
        if over:
            self._final = tuple(final_scores(v, self.scores, self.hands, self.bullheads))
            self._pending = None
        if self._listeners:
            self._emit(TurnEnded(len(self.turns), tuple(self.scores), second_set))
            if self._final is not None:
                self._emit(GameOver(self._final))
        if not over:
            self._start_turn()
