"""The environments' observation vector, defined in plain Python: which number means what.

:func:`features` reads nothing but the engine's view of the seat (:func:`arena.engine.observation.
observe`), so it cannot show what the seat may not know (other hands, their action cards,
chosen tiles before the reveal, the order of the supply and decks). One length for every
variant and player count (:data:`OBSERVATION_SIZE`), each entry within its block's bounds
(:data:`SPEC`). The blocks, in order (``T`` tiles, ``R`` rows, ``S`` spaces, ``P`` seats as in
:mod:`arena.env.actions`; seats are *relative*: seat block 0 is the observing seat, then the
seats after it in playing order; tiles are scaled by ``/T``):

==============  =========  ==================================================================
block           size       content
==============  =========  ==================================================================
variant         5          one-hot, in :data:`~arena.engine.variants.VARIANT_NAMES` order
players         P - 1      one-hot of the player count 2..P
decision        5          what is asked of this seat: nothing, tile, luck, action, take_row
hand            T          1 for each tile in the own hand
chosen          T          the own tile chosen this turn, not revealed yet (one-hot)
placing         T          the own tile whose action card or row choice is asked (one-hot)
luck card       2          the luck card to place (plus5, final10; one-hot)
revealed        T          1 for each tile revealed in any turn so far (this turn included)
to place        T          1 for each revealed tile not placed yet this turn
spaces          R × S × 13 per space, row-major: exists, tile, has a tile, skipped, printed
                           kind one-hot ``. + - F D A C`` (the card game: 5 plain spaces a
                           row), luck marker one-hot plus5, final10
rows            R × 5      per row: active, stopped, last tile, spaces filled / S,
                           bullheads on it / 64 (the game's reading's table)
seats           P × 6      per relative seat: present, score / 50 (clipped to ±20),
                           hand size / 24, action cards / 8, tile revealed in the latest turn,
                           has a tile still to place
action cards    8          own action cards per kind (ACTION_CARDS order) / 3
played          8          action cards played this turn per kind / 3
counters        5          turn / 24, second set, supply / T, luck deck / 12, action deck / 24
==============  =========  ==================================================================

Scores keep the engine's sign (the card game counts penalty points up). What the vector
summarises (the history turn by turn, who played which card) is all in the structured view,
which every environment gives as well (``env.view(agent)``).

The vector is sparse: :func:`features` gives its nonzero entries as indices and values (static
ones, the same all game, from :func:`static_features`; the rest from :func:`dynamic_features`).
:func:`arena.env.encode` makes the dense ``numpy`` vector of it; this module needs no ``numpy``,
so a bot program can compute the same inputs inside the arena's sandbox.

>>> from arena.engine import Game
>>> from arena.engine.observation import observe
>>> at, values = features(observe(Game.new("pro", players=4, seed=1), seat=2))
>>> OBSERVATION_SIZE, max(at) < OBSERVATION_SIZE, sum(1 for i in at if i in BLOCKS["hand"])
(1712, True, 12)
"""

from functools import cache

from arena.engine.decisions import DecisionKind
from arena.engine.observation import Observation
from arena.engine.readings import reading
from arena.engine.variants import (
    ACTION_CARDS,
    CLASSIC_ROW_LENGTH,
    LUCK_CARDS,
    PRO_TURN_CAP,
    VARIANT_NAMES,
    variant,
)

from .actions import ROWS, SPACES, TILES

_VARIANTS = [variant(name) for name in VARIANT_NAMES]
#: Seats of the largest table.
SEATS = max(v.players.stop - 1 for v in _VARIANTS)
SPACE_KINDS = ".+-FDAC"
_KINDS = (None, DecisionKind.TILE, DecisionKind.LUCK, DecisionKind.ACTION, DecisionKind.TAKE_ROW)
_SPACE_FEATURES = 4 + len(SPACE_KINDS) + len(LUCK_CARDS)
_ROW_FEATURES = 5
_SEAT_FEATURES = 6
_LUCK_DECK = max(len(v.luck_deck) for v in _VARIANTS)
_ACTION_DECK = max(len(v.action_deck) for v in _VARIANTS)

#: (name, size, low, high) of each block, in order.
SPEC: tuple[tuple[str, int, float, float], ...] = (
    ("variant", len(VARIANT_NAMES), 0, 1),
    ("players", SEATS - 1, 0, 1),
    ("decision", len(_KINDS), 0, 1),
    ("hand", TILES, 0, 1),
    ("chosen", TILES, 0, 1),
    ("placing", TILES, 0, 1),
    ("luck card", len(LUCK_CARDS), 0, 1),
    ("revealed", TILES, 0, 1),
    ("to place", TILES, 0, 1),
    ("spaces", ROWS * SPACES * _SPACE_FEATURES, 0, 1),
    ("rows", ROWS * _ROW_FEATURES, 0, 1),
    ("seats", SEATS * _SEAT_FEATURES, -20, 20),
    ("action cards", len(ACTION_CARDS), 0, _ACTION_DECK / 3),
    ("played", len(ACTION_CARDS), 0, _ACTION_DECK / 3),
    ("counters", 5, 0, PRO_TURN_CAP / 24),
)


def _blocks() -> dict[str, range]:
    blocks: dict[str, range] = {}
    start = 0
    for name, size, _, _ in SPEC:
        blocks[name] = range(start, start + size)
        start += size
    return blocks


#: Where each block lies in the vector.
BLOCKS = _blocks()
OBSERVATION_SIZE = sum(size for _, size, _, _ in SPEC)

#: A seat's score is written as score / SCORE_SCALE (clipped); readers scale it back.
SCORE_SCALE = 50.0
_SCORE_CLIP = 20.0
_B = {name: block.start for name, block in BLOCKS.items()}
_MARKER = {card: 4 + len(SPACE_KINDS) + i for i, card in enumerate(LUCK_CARDS)}
_CARD = {card: i for i, card in enumerate(ACTION_CARDS)}


def _layout(variant_name: str) -> tuple[str, ...]:
    v = variant(variant_name)
    return v.board.rows if v.board is not None else ("." * CLASSIC_ROW_LENGTH,) * v.start_rows


@cache
def static_features(variant_name: str, players: int) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """The entries that never change in a game: variant, player count, the printed spaces."""
    at = [_B["variant"] + VARIANT_NAMES.index(variant_name), _B["players"] + players - 2]
    for r, row in enumerate(_layout(variant_name)):
        for s, kind in enumerate(row):
            i = _B["spaces"] + (r * SPACES + s) * _SPACE_FEATURES
            at += (i, i + 4 + SPACE_KINDS.index(kind))
    return tuple(at), (1.0,) * len(at)


def dynamic_features(view: Observation) -> tuple[list[int], list[float]]:
    """The entries of ``view`` beyond :func:`static_features` (those that are not 0)."""
    at: list[int] = []
    value: list[float] = []
    t = float(TILES)
    pending = view.pending
    asked = pending is not None and view.seat in pending.seats
    kind = pending.kind if asked and pending is not None else None
    at.append(_B["decision"] + _KINDS.index(kind))
    hand = _B["hand"] - 1
    at.extend(hand + tile for tile in view.hand)
    if view.chosen is not None:
        at.append(_B["chosen"] - 1 + view.chosen)
    if asked and pending is not None:
        if pending.tile is not None:
            at.append(_B["placing"] - 1 + pending.tile)
        if pending.card is not None:
            at.append(_B["luck card"] + LUCK_CARDS.index(pending.card))
    revealed = _B["revealed"] - 1
    at.extend(sorted({revealed + p for plays in view.history for p in plays if p is not None}))
    to_place = _B["to place"] - 1
    at.extend(to_place + tile for tile, _ in view.to_place)
    value.extend([1.0] * len(at))

    stops = view.stops
    bullheads = reading(view.rules).bullheads(variant(view.variant))
    for r, (row, marks) in enumerate(zip(view.spaces, view.markers, strict=True)):
        base = _B["spaces"] + r * SPACES * _SPACE_FEATURES
        filled, last, heads = 0, 0, 0
        for s, tile in enumerate(row):
            i = base + s * _SPACE_FEATURES
            if tile > 0:
                at += (i + 1, i + 2)
                value += (tile / t, 1.0)
                filled, last, heads = s + 1, tile, heads + bullheads[tile]
            elif tile < 0:
                at.append(i + 3)
                value.append(1.0)
                filled = s + 1
            marker = marks[s]
            if marker is not None:
                at.append(i + _MARKER[marker])
                value.append(1.0)
        stopped = r in stops
        i = _B["rows"] + r * _ROW_FEATURES
        at += (i, i + 1, i + 2, i + 3, i + 4)
        value += (float(filled > 0 and not stopped), float(stopped), last / t)
        value += (filled / SPACES, heads / 64)

    latest = view.history[-1] if view.history else ()
    placing = {seat for _, seat in view.to_place}
    for seat in range(view.players):
        i = _B["seats"] + ((seat - view.seat) % view.players) * _SEAT_FEATURES
        score = max(-_SCORE_CLIP, min(_SCORE_CLIP, view.scores[seat] / SCORE_SCALE))
        shown = latest[seat] if latest else None
        at += (i, i + 1, i + 2, i + 3, i + 4, i + 5)
        value += (1.0, score, view.hand_sizes[seat] / 24, view.action_counts[seat] / 8)
        value += (0.0 if shown is None else shown / t, float(seat in placing))
    cards = [0.0] * (2 * len(ACTION_CARDS))
    for card in view.action_cards:
        cards[_CARD[card]] += 1 / 3
    for choice in view.choices:
        if choice.kind is DecisionKind.ACTION and choice.card is not None:
            cards[len(ACTION_CARDS) + _CARD[choice.card]] += 1 / 3
    at.extend(range(_B["action cards"], _B["action cards"] + len(cards)))
    value += cards
    at.extend(range(_B["counters"], _B["counters"] + 5))
    value += (
        view.turn / 24,
        view.set_number - 1.0,
        view.supply_size / t,
        view.luck_deck_size / max(_LUCK_DECK, 1),
        view.action_deck_size / max(_ACTION_DECK, 1),
    )
    return at, value


def features(view: Observation) -> tuple[list[int], list[float]]:
    """The vector of ``view`` as its entries' indices and values (every other entry is 0)."""
    static_at, static_values = static_features(view.variant, view.players)
    at, values = dynamic_features(view)
    return [*static_at, *at], [*static_values, *values]
