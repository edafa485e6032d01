"""Decisions a seat can take, and the pending request that asks for one.

Decisions are small immutable values with a text form that round-trips
(:func:`parse_decision` / ``str``), like python-chess's ``Move.from_uci`` / ``move.uci()``:

>>> parse_decision("tile 37")
PlayTile(tile=37)
>>> str(PlayAction("stop", row=3)), str(PlaceLuck(2, 4)), str(TakeRow(1)), str(PlayAction(None))
('action stop row=3', 'luck 2 4', 'take_row 1', 'action none')
>>> parse_decision(str(PlayAction("swap", new_tile=12)))
PlayAction(card='swap', row=None, new_tile=12)
"""

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .errors import IllegalDecisionError


class DecisionKind(StrEnum):
    """What is being decided (RULES.md 6). ``TILE`` is simultaneous; the others are one seat's."""

    TILE = "tile"
    LUCK = "luck"
    ACTION = "action"
    TAKE_ROW = "take_row"


@dataclass(frozen=True)
class Pending:
    """The decision the game waits for.

    ``seats``: who must still answer (for ``TILE`` every seat that has not chosen yet, else one).
    ``tile``: the tile about to be placed (``ACTION``, ``TAKE_ROW``). ``card``: the luck card to
    place (``LUCK``).
    """

    kind: DecisionKind
    seats: tuple[int, ...]
    tile: int | None = None
    card: str | None = None


@dataclass(frozen=True)
class PlayTile:
    """Choose the tile to reveal this turn."""

    tile: int

    def __str__(self) -> str:
        return f"tile {self.tile}"


@dataclass(frozen=True)
class PlaceLuck:
    """Put the drawn luck card on space ``space`` of row ``row`` (both 0-based)."""

    row: int
    space: int

    def __str__(self) -> str:
        return f"luck {self.row} {self.space}"


@dataclass(frozen=True)
class PlayAction:
    """Play action card ``card`` on the tile about to be placed, or none (``card=None``).

    ``row`` is the target of stop/front/ascending/anywhere; ``new_tile`` the tile from hand for
    swap/another.
    """

    card: str | None
    row: int | None = None
    new_tile: int | None = None

    def __str__(self) -> str:
        if self.card is None:
            return "action none"
        text = f"action {self.card}"
        if self.row is not None:
            text += f" row={self.row}"
        if self.new_tile is not None:
            text += f" new_tile={self.new_tile}"
        return text


@dataclass(frozen=True)
class TakeRow:
    """Card game: take row ``row`` because the card is lower than every row's end."""

    row: int

    def __str__(self) -> str:
        return f"take_row {self.row}"


Decision = PlayTile | PlaceLuck | PlayAction | TakeRow

_KIND_OF = {
    PlayTile: DecisionKind.TILE,
    PlaceLuck: DecisionKind.LUCK,
    PlayAction: DecisionKind.ACTION,
    TakeRow: DecisionKind.TAKE_ROW,
}


def kind_of(decision: Decision) -> DecisionKind:
    """The :class:`DecisionKind` a decision answers."""
    return _KIND_OF[type(decision)]


@dataclass(frozen=True)
class Choice:
    """A decision taken during a turn, as the turn records it (all public): who took it, what
    kind, and its fields (``None``: not part of this kind). A replay keeps it as a dict
    (:meth:`to_dict`, :meth:`from_dict`).

    >>> recorded = {"seat": 2, "kind": "action", "card": "stop", "tile": 41, "row": 3}
    >>> choice = Choice.from_dict(recorded)
    >>> choice.kind is DecisionKind.ACTION, choice.to_dict() == recorded, hash(choice) > -1 << 63
    (True, True, True)
    """

    seat: int
    kind: DecisionKind  # LUCK, ACTION or TAKE_ROW
    card: str | None = None  # the luck card placed, or the action card played
    tile: int | None = None  # ACTION: the tile the card was played on
    row: int | None = None
    space: int | None = None  # LUCK
    new_tile: int | None = None  # ACTION swap / another: the tile from hand

    def to_dict(self) -> dict[str, Any]:
        """The replay's form: ``seat``, ``kind`` and the fields this kind has, in that order."""
        data: dict[str, Any] = {"seat": self.seat, "kind": self.kind.value}
        for key in ("card", "tile", "row", "space", "new_tile"):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Choice":
        """The choice a replay's dict records (unknown keys raise ``TypeError``)."""
        return cls(**{**data, "kind": DecisionKind(data["kind"])})


def _parse(text: str) -> Decision:
    words = text.split()
    if not words:
        raise IllegalDecisionError("empty decision")
    head, args = words[0], words[1:]
    try:
        if head == "tile" and len(args) == 1:
            return PlayTile(int(args[0]))
        if head == "luck" and len(args) == 2:
            return PlaceLuck(int(args[0]), int(args[1]))
        if head == "take_row" and len(args) == 1:
            return TakeRow(int(args[0]))
        if head == "action" and args:
            if args == ["none"]:
                return PlayAction(None)
            options = dict(a.split("=", 1) for a in args[1:])
            if set(options) - {"row", "new_tile"}:
                raise ValueError
            row = int(options["row"]) if "row" in options else None
            new = int(options["new_tile"]) if "new_tile" in options else None
            return PlayAction(args[0], row, new)
    except ValueError:
        pass
    raise IllegalDecisionError(
        f"cannot read decision {text!r}; expected 'tile N', 'luck ROW SPACE', 'take_row ROW', "
        "'action none' or 'action CARD [row=R] [new_tile=T]'"
    )


def parse_decision(text: str) -> Decision:
    """Read a decision from its text form (see module docstring)."""
    return _parse(text)
