"""The five variants the engine plays, stated as data: board, decks, hand size, player counts.

Boards and decks are read from ``data/`` so that an owner of the printed game can enter the
real ones; the defaults are this project's reconstruction (RULES.md 1, 3.4, 5).

>>> v = variant("pro+luck")
>>> v.board.rows[1], v.luck, v.actions, v.players
('....AC', True, True, range(2, 7))
>>> variant("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
arena.engine.errors.UnknownVariantError: unknown variant 'chess'; choose one of basic, ...
"""

import json
import os
from dataclasses import dataclass
from functools import cache

from .errors import PlayerCountError, UnknownVariantError

VARIANT_NAMES = ("basic", "basic+luck", "pro", "pro+luck", "classic")
LUCK_CARDS = ("plus5", "final10")
ACTION_CARDS = ("stop", "swap", "skip", "front", "ascending", "anywhere", "another", "plus5")
BASIC_SPACES = frozenset(".+-F")
PRO_SPACES = frozenset(".+-FDAC")
FINAL_SPACES = frozenset("FC")

#: Classic rows take five cards; the sixth takes them (RULES.md 7).
CLASSIC_ROW_LENGTH = 5
#: RULES.md is silent on a professional game that never empties a hand; the engine ends it
#: after this many turns (hand penalty applies). No real game comes near it.
PRO_TURN_CAP = 200


@dataclass(frozen=True)
class Board:
    """A board side: one string per row, one character per space (``.+-FDAC``)."""

    name: str
    rows: tuple[str, ...]

    @classmethod
    def parse(cls, name: str, text: str, allowed: frozenset[str]) -> "Board":
        """Read a board file: one row per non-comment line."""
        rows = tuple(
            line.strip()
            for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")
        )
        if not 4 <= len(rows) <= 26:
            raise ValueError(f"board {name!r}: expected at least 4 rows, found {len(rows)}")
        for i, row in enumerate(rows, 1):
            bad = set(row) - allowed
            if bad:
                raise ValueError(f"board {name!r} row {i}: unknown space kinds {sorted(bad)}")
            if len(row) < 2 or row[0] != "." or row[-1] not in FINAL_SPACES:
                raise ValueError(
                    f"board {name!r} row {i}: a row starts with '.' and ends with a final space"
                )
            if any(c in FINAL_SPACES for c in row[:-1]):
                raise ValueError(f"board {name!r} row {i}: only the last space may be final")
        return cls(name, rows)


@dataclass(frozen=True)
class Variant:
    """Everything that differs between the variants, as plain values."""

    name: str
    board: Board | None  # None: the card game
    luck: bool
    actions: bool
    players: range
    hand_size: int
    tiles: int  # tiles (cards) are 1..tiles
    start_rows: int  # rows that get one tile at set-up
    luck_deck: tuple[str, ...]  # composition, unshuffled
    action_deck: tuple[str, ...]

    @property
    def classic(self) -> bool:
        return self.board is None

    @property
    def higher_is_better(self) -> bool:
        """Board game: points, higher wins. Card game: penalty, lower wins."""
        return not self.classic

    def check_players(self, n: int) -> None:
        if n not in self.players:
            raise PlayerCountError(
                f"{self.name} is played by {self.players.start} to {self.players.stop - 1} "
                f"players, not {n}"
            )


#: The folder of the boards and decks (a plain folder beside this module: the package is never
#: zipped, and a bot's start is spared ``importlib.resources`` and what it loads, ~6 ms).
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def _read(name: str) -> str:
    with open(os.path.join(DATA, *name.split("/")), encoding="utf-8") as file:
        return file.read()


def _deck(counts: dict[str, int], allowed: tuple[str, ...]) -> tuple[str, ...]:
    unknown = set(counts) - set(allowed)
    if unknown:
        raise ValueError(f"decks.json: unknown cards {sorted(unknown)}")
    return tuple(card for card in allowed for _ in range(counts.get(card, 0)))


@cache
def variant(name: str) -> Variant:
    """The variant called ``name`` (one of :data:`VARIANT_NAMES`)."""
    if name not in VARIANT_NAMES:
        raise UnknownVariantError(
            f"unknown variant {name!r}; choose one of {', '.join(VARIANT_NAMES)}"
        )
    if name == "classic":
        return Variant(name, None, False, False, range(2, 11), 10, 104, 4, (), ())
    decks = json.loads(_read("decks.json"))
    pro = name.startswith("pro")
    side = "pro" if pro else "basic"
    board = Board.parse(side, _read(f"boards/{side}.txt"), PRO_SPACES if pro else BASIC_SPACES)
    luck = name.endswith("+luck")
    return Variant(
        name=name,
        board=board,
        luck=luck,
        actions=pro,
        players=range(2, 7),
        hand_size=12,
        tiles=100,
        start_rows=4,
        luck_deck=_deck(decks["luck"], LUCK_CARDS) if luck else (),
        action_deck=_deck(decks["action"], ACTION_CARDS) if pro else (),
    )
