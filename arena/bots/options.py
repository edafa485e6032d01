"""Per-option inputs and a small scoring network in plain Python, for bots that learn.

A learning bot scores each legal option of a view by one network from what the option does as far
as the seat can tell (:func:`option_inputs`, 78 numbers): the state (variant, decision kind, hand
size, unseen tiles, own margin) and the option — the tile, the row it goes to by the normal rule
(or the action card's row), the space it lands on (its kind, a luck marker, the row's bullheads,
spaces left before the row is complete, unseen tiles that could land there first and, under a
binomial model of them, the chance that this tile completes the row). :class:`Policy` is a
multilayer perceptron (ReLU) over those inputs, read from an ``.npz`` of arrays ``w0, b0, w1, b1,
...`` (:func:`read_weights`).

Everything here is plain Python, so a bot program runs in the arena's sandbox, which has no numpy:
the ``.npz`` file is read with :mod:`zipfile` and :mod:`struct`. ``bots/distilled`` (trained by
imitation) and ``bots/ppo`` (by reinforcement learning) use it.

>>> from arena.engine import Game
>>> from arena.engine.observation import observe
>>> view = observe(Game.new("classic", players=4, seed=1), seat=0)
>>> table = Table(view)
>>> [len(option_inputs(table, d)) for d in view.legal][:2], INPUT_SIZE
([78, 78], 78)
"""

import ast
import struct
import zipfile
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from math import comb
from pathlib import Path

from arena.engine.decisions import Decision, DecisionKind, PlaceLuck, PlayAction, PlayTile, TakeRow
from arena.engine.game import next_space, target_row
from arena.engine.observation import Observation
from arena.engine.readings import reading
from arena.engine.variants import ACTION_CARDS, CLASSIC_ROW_LENGTH, VARIANT_NAMES, variant

Matrix = list[list[float]]
_FORMATS = {"<f2": "e", "<f4": "f", "<f8": "d"}
_KINDS = (DecisionKind.TILE, DecisionKind.LUCK, DecisionKind.ACTION, DecisionKind.TAKE_ROW)
_CARDS = (None, *ACTION_CARDS)
_SPACE_KINDS = ".+-FDAC"


def completion_chances(opponents: int, ahead: int, unseen: int, left: int) -> tuple[float, float]:
    """The chances that a tile with ``left`` spaces before its row is complete completes it,
    and that an opponent's tile does first, when ``ahead`` of the ``unseen`` tiles would land
    there before it: each opponent's tile is one of them with chance ``ahead / unseen``
    (binomial), and it completes the row if exactly ``left`` of them come first.

    >>> completion_chances(3, 10, 20, 1)
    (0.375, 0.5)
    """
    q = min(1.0, ahead / max(1, unseen))
    pmf = [comb(opponents, k) * q**k * (1 - q) ** (opponents - k) for k in range(opponents + 1)]
    mine = pmf[left] if left < len(pmf) else 0.0
    other = sum(pmf[left + 1 :])
    return mine, other


class Table:
    """What one view says about the rows and the unseen tiles, worked out once per decision."""

    def __init__(self, view: Observation) -> None:
        v = variant(view.variant)
        self.view = view
        self.classic = v.classic
        self.spaces = view.spaces
        self.fill = [next_space(row) for row in view.spaces]
        self.last = [row[f - 1] if f else 0 for row, f in zip(view.spaces, self.fill, strict=True)]
        self.bullheads = reading(view.rules).bullheads(v)
        self.heads = [sum(self.bullheads[t] for t in row if t > 0) for row in view.spaces]
        self.layout = view.layout or ("." * CLASSIC_ROW_LENGTH + "F",) * len(view.spaces)
        seen = set(view.hand) | {t for row in view.spaces for t in row if t > 0}
        seen |= {t for plays in view.history for t in plays if t is not None}
        seen |= {t for t, _ in view.to_place}
        self.unseen = sorted(set(range(1, v.tiles + 1)) - seen)
        self.opponents = view.players - 1
        others = [s for s in range(view.players) if s != view.seat]
        self.margin = view.scores[view.seat] - sum(view.scores[s] for s in others) / len(others)
        self.sign = 1 if v.higher_is_better else -1
        self.hand = sorted(view.hand)
        self._aiming: list[tuple[int, int]] | None = None

    def target(self, tile: int, stops: frozenset[int] | set[int] | None = None) -> int | None:
        stops = set(self.view.stops) if stops is None else stops
        return target_row(tile, self.spaces, self.fill, stops, self.classic)

    def aiming(self, row: int) -> tuple[int, int]:
        """How many own tiles and unseen tiles go to ``row`` by the normal rule now."""
        if self._aiming is None:
            mine = [self.target(t) for t in self.hand]
            theirs = [self.target(t) for t in self.unseen]
            self._aiming = [(mine.count(r), theirs.count(r)) for r in range(len(self.spaces))]
        return self._aiming[row]

    def between(self, low: int, high: int) -> int:
        """Unseen tiles strictly between ``low`` and ``high``."""
        return bisect_left(self.unseen, high) - bisect_right(self.unseen, low)

    def state(self) -> list[float]:
        view = self.view
        kind = view.pending.kind if view.pending is not None else None
        return [
            *(float(view.variant == name) for name in VARIANT_NAMES),
            *(float(kind is k) for k in _KINDS),
            view.players / 10,
            len(view.hand) / 12,
            len(self.unseen) / 100,
            self.sign * self.margin / 30,
            float(view.set_number == 2),
            min(self.heads) / 20,
        ]

    def landing(self, tile: int, row: int | None, space: int) -> list[float]:
        """A tile about to land on ``space`` of ``row`` (``None``: the card game's row to take)."""
        if row is None:
            return [0.0] * 18 + [1.0]
        kinds = self.layout[row]
        length = len(kinds) if not self.classic else CLASSIC_ROW_LENGTH + 1
        space = min(space, length - 1)
        kind = kinds[space] if not self.classic else ("F" if space >= CLASSIC_ROW_LENGTH else ".")
        marker = self.view.markers[row][space] if not self.classic else None
        last = self.last[row]
        ahead = self.between(last, tile) if tile > last else 0
        left = length - 1 - space
        crowd = ahead * self.opponents / max(1, len(self.unseen))
        mine, other = completion_chances(self.opponents, ahead, len(self.unseen), left)
        return [
            *(float(kind == k) for k in _SPACE_KINDS),
            float(marker == "plus5"),
            float(marker == "final10"),
            self.heads[row] / 20,
            left / 8,
            (tile - last) / 100 if tile > last else 0.0,
            ahead / 10,
            min(crowd, 3.0) / 3,
            float(crowd >= left),
            mine,
            other,
            mine * self.heads[row] / 20,
            0.0,
        ]

    def tile(self, tile: int) -> list[float]:
        """A tile of the own hand as an option: itself, then where it goes by the normal rule."""
        row = self.target(tile)
        rank = bisect_left(self.hand, tile)
        tile_part = [
            tile / 100,
            self.bullheads[tile] / 7,
            rank / max(1, len(self.hand) - 1),
            float(rank == 0),
            float(rank == len(self.hand) - 1),
        ]
        space = self.fill[row] if row is not None else 0
        return tile_part + self.landing(tile, row, space)


OPTION_SIZE = 5 + len(_CARDS) + 5 + 19 + 19 + 6
INPUT_SIZE = 5 + len(_KINDS) + 6 + OPTION_SIZE


def option_inputs(table: Table, decision: Decision) -> list[float]:
    """The network's input for one option: the state, then the option (kind, action card, the
    tile and where it lands, a second tile's landing for Another, the luck / row details)."""
    empty_tile = [0.0] * 24
    second = [0.0] * 19
    extra = [0.0] * 6
    card: str | None = None
    if isinstance(decision, PlayTile):
        kind, main = 0, table.tile(decision.tile)
    elif isinstance(decision, TakeRow):
        kind, r = 3, decision.row
        main = empty_tile
        extra = [
            table.heads[r] / 20,
            (table.heads[r] - min(table.heads)) / 20,
            float(table.heads[r] == min(table.heads)),
            table.fill[r] / 5,
            table.last[r] / 100,
            0.0,
        ]
    elif isinstance(decision, PlaceLuck):
        kind, r, sp = 1, decision.row, decision.space
        pending = table.view.pending
        card_name = pending.card if pending is not None else None
        mine, theirs = table.aiming(r)
        main = [0.0] * 5 + table.landing(table.last[r] + 1, r, sp)
        extra = [
            float(card_name == "plus5"),
            float(card_name == "final10"),
            (sp - table.fill[r]) / 8,
            mine / 12,
            theirs / 30,
            len(table.layout[r]) / 8,
        ]
    else:
        assert isinstance(decision, PlayAction)
        kind, card = 2, decision.card
        pending = table.view.pending
        tile = pending.tile if pending is not None and pending.tile is not None else 0
        normal = table.target(tile)
        base = table.tile(tile)[:5]
        if card in ("stop",) and decision.row is not None:
            row = table.target(tile, {*table.view.stops, decision.row})
            main = base + table.landing(tile, row, table.fill[row] if row is not None else 0)
        elif card in ("swap", "another") and decision.new_tile is not None:
            main = table.tile(tile if card == "another" else decision.new_tile)
            if card == "another":
                second = table.tile(decision.new_tile)[5:]
            else:
                second = table.tile(tile)[5:]
        elif card == "skip" and normal is not None:
            main = base + table.landing(tile, normal, table.fill[normal] + 1)
        elif card == "front" and decision.row is not None:
            main = base + table.landing(tile, decision.row, 0)
            main[-1] = 1.0
        elif card in ("ascending", "anywhere") and decision.row is not None:
            row = decision.row
            main = base + table.landing(tile, row, table.fill[row])
        else:  # none, plus5
            main = table.tile(tile)
        extra = [float(card == "plus5"), len(table.view.action_cards) / 5, 0.0, 0.0, 0.0, 0.0]
    onehot = [float(kind == k) for k in range(4)] + [0.0]
    cards = [float(kind == 2 and card == c) for c in _CARDS]
    return table.state() + onehot + cards + main + second + extra


def read_npy(data: bytes) -> tuple[tuple[int, ...], list[float]]:
    """Shape and values (row-major) of a little-endian float ``.npy`` file."""
    if data[:6] != b"\x93NUMPY":
        raise ValueError("not a .npy file")
    major = data[6]
    size, start = (
        (struct.unpack("<H", data[8:10])[0], 10)
        if major == 1
        else (
            struct.unpack("<I", data[8:12])[0],
            12,
        )
    )
    header = ast.literal_eval(data[start : start + size].decode("latin1"))
    if header["fortran_order"] or header["descr"] not in _FORMATS:
        raise ValueError(f"unsupported array: {header}")
    shape = tuple(header["shape"])
    count = 1
    for n in shape:
        count *= n
    values = struct.unpack(f"<{count}{_FORMATS[header['descr']]}", data[start + size :])
    return shape, list(values)


def read_weights(path: Path) -> list[tuple[Matrix, list[float]]]:
    """The layers ``(W, b)`` of an ``.npz`` with arrays ``w0, b0, w1, b1, ...``; ``W`` as rows
    (one per input)."""
    layers: list[tuple[Matrix, list[float]]] = []
    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        i = 0
        while f"w{i}.npy" in names:
            (rows, cols), flat = read_npy(archive.read(f"w{i}.npy"))
            _, bias = read_npy(archive.read(f"b{i}.npy"))
            layers.append(([flat[r * cols : (r + 1) * cols] for r in range(rows)], bias))
            i += 1
    if not layers:
        raise ValueError(f"{path}: no layers w0, b0, ...")
    return layers


class Policy:
    """The network: a score for each option's inputs (:func:`option_inputs`)."""

    def __init__(self, layers: list[tuple[Matrix, list[float]]]) -> None:
        if len(layers[0][0]) != INPUT_SIZE:
            raise ValueError(f"the weights take {len(layers[0][0])} inputs, not {INPUT_SIZE}")
        # each layer by output unit (a row of input weights per unit), for plain dot products
        self.layers = [([list(col) for col in zip(*w, strict=True)], b) for w, b in layers]

    def score(self, inputs: Sequence[float]) -> float:
        x = list(inputs)
        last = len(self.layers) - 1
        for i, (units, bias) in enumerate(self.layers):
            out = [
                b + sum(w * v for w, v in zip(unit, x, strict=True))
                for unit, b in zip(units, bias, strict=True)
            ]
            x = out if i == last else [max(v, 0.0) for v in out]
        return x[0]
