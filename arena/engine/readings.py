"""The readings of the rules (RULES.md 10): what one reading plays differently, as data.

The project's reading of the printed rules has a name, and every replay records the one it was
played under (``rules`` key; absent: ``nimmt-rules/1``). A published replay never changes its
verdict, so the engine plays every reading. It does so with one set of rules: the four points
on which the readings differ are the fields of a :class:`Reading`, and the engine, its lean
path and the house bots' models of the rules look them up where the rule applies.

>>> CURRENT.name, reading("nimmt-rules/1").stop_on_own_row
('nimmt-rules/2', False)
>>> reading("nimmt-rules/9")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
arena.engine.errors.UnknownReadingError: unknown rules reading 'nimmt-rules/9'; ...
"""

from collections.abc import Mapping
from dataclasses import dataclass

from .errors import UnknownReadingError
from .tiles import BOARD_BULLHEADS, CARD_BULLHEADS
from .variants import Variant


@dataclass(frozen=True)
class Reading:
    """One reading of the rules: its name and its answer on each point where readings differ.

    ``board_bullheads``: the board game's table (``t`` -> bullheads, index 0 unused; the card
    game always keeps its own). ``stop_on_own_row``: a Stop card may close the row its own tile
    would go to. ``another_lowest_first``: after an Another card the seat's revealed tiles go
    lowest first (else the tile the card was played on first). ``plus5_replaces``: a Plus five
    card makes the landing space worth +5 instead of its effect (else +5 on top).
    """

    name: str
    board_bullheads: tuple[int, ...]
    stop_on_own_row: bool
    another_lowest_first: bool
    plus5_replaces: bool

    def bullheads(self, variant: Variant) -> tuple[int, ...]:
        """The bullhead table a game of ``variant`` uses under this reading."""
        return CARD_BULLHEADS if variant.classic else self.board_bullheads


#: RULES.md as of 2026-11-29: the card game's table for the tiles, Stop never on the own row,
#: Another places the carded tile first, Plus five on top of the space.
READING_1 = Reading("nimmt-rules/1", CARD_BULLHEADS, False, False, False)
#: RULES.md as of 2026-12-01, what the engine plays: the four points of RULES.md 10.
READING_2 = Reading("nimmt-rules/2", BOARD_BULLHEADS, True, True, True)

READINGS: Mapping[str, Reading] = {r.name: r for r in (READING_1, READING_2)}
#: The reading new games are played under and new replays name.
CURRENT = READING_2
#: The reading of a replay that names none (written before readings had names).
UNNAMED = READING_1


def reading(name: str) -> Reading:
    """The reading called ``name`` (one of :data:`READINGS`)."""
    found = READINGS.get(name) if isinstance(name, str) else None
    if found is None:
        raise UnknownReadingError(
            f"unknown rules reading {name!r}; this engine plays {', '.join(READINGS)}"
        )
    return found
