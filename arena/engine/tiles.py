"""Tiles and their bullheads.

Two tables, each kept here and nowhere else (RULES.md 1 and 7):

- the card game's (:data:`CARD_BULLHEADS`): 55 carries 7, other multiples of 11 carry 5, other
  multiples of 10 carry 3, other multiples of 5 carry 2, every other card 1;
- the board game's **[decision]** (:data:`BOARD_BULLHEADS`): the card game's capped at 5, so
  tile 55 carries 5 (reading ``nimmt-rules/2``; reading 1 used the card game's table for the
  board game too, see :mod:`arena.engine.readings`).

Which table a game uses is its reading's and variant's: :meth:`Reading.bullheads
<arena.engine.readings.Reading.bullheads>`.

>>> bullheads(55), bullheads(44), bullheads(30), bullheads(15), bullheads(7)
(7, 5, 3, 2, 1)
>>> board_bullheads(55), board_bullheads(44)
(5, 5)
"""

#: The most bullheads a board-game tile carries (RULES.md 1, reading ``nimmt-rules/2``).
BOARD_CAP = 5


def bullheads(tile: int) -> int:
    """Bullheads printed on ``tile`` in the card game's table (RULES.md 7)."""
    if tile == 55:
        return 7
    if tile % 11 == 0:
        return 5
    if tile % 10 == 0:
        return 3
    if tile % 5 == 0:
        return 2
    return 1


def board_bullheads(tile: int) -> int:
    """Bullheads of a board-game tile (RULES.md 1 **[decision]**): the card game's, capped."""
    return min(bullheads(tile), BOARD_CAP)


#: ``CARD_BULLHEADS[t]`` for t in 0..104 (index 0 unused), for hot loops: the card game's table.
CARD_BULLHEADS: tuple[int, ...] = (0, *(bullheads(t) for t in range(1, 105)))
#: The same for the board game's tiles (1..100; the entries above 100 are never used).
BOARD_BULLHEADS: tuple[int, ...] = (0, *(board_bullheads(t) for t in range(1, 105)))
#: The card game's table (the name every caller had before the board game got its own).
BULLHEADS = CARD_BULLHEADS
