"""Tiles and their bullheads.

RULES.md 1 **[decision]**: the board game's tiles carry the card game's bullheads. The table
lives here and nowhere else.

>>> bullheads(55), bullheads(44), bullheads(30), bullheads(15), bullheads(7)
(7, 5, 3, 2, 1)
"""


def bullheads(tile: int) -> int:
    """Bullheads printed on ``tile`` (the card game's table)."""
    if tile == 55:
        return 7
    if tile % 11 == 0:
        return 5
    if tile % 10 == 0:
        return 3
    if tile % 5 == 0:
        return 2
    return 1


#: ``BULLHEADS[t]`` for t in 0..104 (index 0 unused), for hot loops.
BULLHEADS: tuple[int, ...] = (0, *tuple(bullheads(t) for t in range(1, 105)))
