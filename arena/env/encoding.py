"""The environments' observation vector: one seat's :class:`Observation`, flattened into numbers.

:func:`encode` reads nothing but the engine's view of the seat (:func:`arena.engine.observation.
observe`), so it cannot show what the seat may not know (other hands, their action cards,
chosen tiles before the reveal, the order of the supply and decks). One length for every
variant and player count (:data:`OBSERVATION_SIZE`), ``float32``, within :data:`LOW` ..
:data:`HIGH`. The blocks, in order (``T`` tiles, ``R`` rows, ``S`` spaces, ``P`` seats as in
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
                           bullheads on it / 64
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

>>> from arena.engine import Game
>>> from arena.engine.observation import observe
>>> vector = encode(observe(Game.new("pro", players=4, seed=1), seat=2))
>>> vector.shape == (OBSERVATION_SIZE,), vector.dtype.name, OBSERVATION_SIZE
(True, 'float32', 1712)
>>> bool(((LOW <= vector) & (vector <= HIGH)).all()), int(vector[BLOCKS["hand"]].sum())
(True, 12)
"""

from functools import cache

import numpy as np
import numpy.typing as npt

from arena.engine.decisions import DecisionKind
from arena.engine.observation import Observation
from arena.engine.tiles import BULLHEADS
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
_SPEC: tuple[tuple[str, int, float, float], ...] = (
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


def _blocks() -> dict[str, slice]:
    blocks: dict[str, slice] = {}
    start = 0
    for name, size, _, _ in _SPEC:
        blocks[name] = slice(start, start + size)
        start += size
    return blocks


#: Where each block lies in the vector.
BLOCKS = _blocks()
OBSERVATION_SIZE = sum(size for _, size, _, _ in _SPEC)
#: The bounds of every entry (the observation space's ``low`` and ``high``).
LOW = np.concatenate([np.full(size, lo, np.float32) for _, size, lo, _ in _SPEC])
HIGH = np.concatenate([np.full(size, hi, np.float32) for _, size, _, hi in _SPEC])

_SCORE_SCALE = 50.0
_SCORE_CLIP = 20.0


@cache
def _static(variant_name: str, players: int) -> npt.NDArray[np.float32]:
    """What never changes in a game: variant, player count, the board's printed spaces."""
    v = variant(variant_name)
    out = np.zeros(OBSERVATION_SIZE, np.float32)
    out[BLOCKS["variant"].start + VARIANT_NAMES.index(variant_name)] = 1
    out[BLOCKS["players"].start + players - 2] = 1
    spaces = out[BLOCKS["spaces"]].reshape(ROWS, SPACES, _SPACE_FEATURES)
    layout = v.board.rows if v.board is not None else ("." * CLASSIC_ROW_LENGTH,) * v.start_rows
    for r, row in enumerate(layout):
        for s, kind in enumerate(row):
            spaces[r, s, 0] = 1
            spaces[r, s, 4 + SPACE_KINDS.index(kind)] = 1
    out.flags.writeable = False
    return out


def encode(view: Observation) -> npt.NDArray[np.float32]:
    """The vector of ``view`` (see the module docstring for its blocks)."""
    out = _static(view.variant, view.players).copy()
    t = float(TILES)
    pending = view.pending
    asked = pending is not None and view.seat in pending.seats
    kind = pending.kind if asked and pending is not None else None
    out[BLOCKS["decision"].start + _KINDS.index(kind)] = 1
    hand = BLOCKS["hand"].start - 1
    for tile in view.hand:
        out[hand + tile] = 1
    if view.chosen is not None:
        out[BLOCKS["chosen"].start - 1 + view.chosen] = 1
    if asked and pending is not None:
        if pending.tile is not None:
            out[BLOCKS["placing"].start - 1 + pending.tile] = 1
        if pending.card is not None:
            out[BLOCKS["luck card"].start + LUCK_CARDS.index(pending.card)] = 1
    revealed = BLOCKS["revealed"].start - 1
    for plays in view.history:
        for play in plays:
            if play is not None:
                out[revealed + play] = 1
    to_place = BLOCKS["to place"].start - 1
    for tile, _ in view.to_place:
        out[to_place + tile] = 1

    spaces = out[BLOCKS["spaces"]].reshape(ROWS, SPACES, _SPACE_FEATURES)
    rows = out[BLOCKS["rows"]].reshape(ROWS, _ROW_FEATURES)
    stops = set(view.stops)
    for r, row in enumerate(view.spaces):
        filled, last, heads = 0, 0, 0
        for s, tile in enumerate(row):
            if tile > 0:
                spaces[r, s, 1] = tile / t
                spaces[r, s, 2] = 1
                filled, last, heads = s + 1, tile, heads + BULLHEADS[tile]
            elif tile < 0:
                spaces[r, s, 3] = 1
                filled = s + 1
            marker = view.markers[r][s]
            if marker is not None:
                spaces[r, s, 4 + len(SPACE_KINDS) + LUCK_CARDS.index(marker)] = 1
        stopped = r in stops
        rows[r] = (filled > 0 and not stopped, stopped, last / t, filled / SPACES, heads / 64)

    seats = out[BLOCKS["seats"]].reshape(SEATS, _SEAT_FEATURES)
    latest = view.history[-1] if view.history else ()
    placing = {seat for _, seat in view.to_place}
    for seat in range(view.players):
        rel = (seat - view.seat) % view.players
        score = max(-_SCORE_CLIP, min(_SCORE_CLIP, view.scores[seat] / _SCORE_SCALE))
        shown = latest[seat] if latest else None
        seats[rel] = (
            1,
            score,
            view.hand_sizes[seat] / 24,
            view.action_counts[seat] / 8,
            0 if shown is None else shown / t,
            seat in placing,
        )
    cards = BLOCKS["action cards"].start
    for card in view.action_cards:
        out[cards + ACTION_CARDS.index(card)] += 1 / 3
    played = BLOCKS["played"].start
    for choice in view.choices:
        if choice.kind is DecisionKind.ACTION and choice.card is not None:
            out[played + ACTION_CARDS.index(choice.card)] += 1 / 3
    out[BLOCKS["counters"]] = (
        view.turn / 24,
        view.set_number - 1,
        view.supply_size / t,
        view.luck_deck_size / max(_LUCK_DECK, 1),
        view.action_deck_size / max(_ACTION_DECK, 1),
    )
    return out
