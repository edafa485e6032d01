"""The starter bot: copy this folder, rename the bot in nimmt-bot.toml, make it yours.

It overrides one decision of the bot kit's :class:`~arena.botkit.KitBot` and keeps the
defaults for the others (first free space for a luck card, no action card, the row with the
fewest bullheads in the card game). See README.md beside this file.
"""

from arena.botkit import KitBot, run
from arena.engine.observation import Observation
from arena.engine.tiles import bullheads


def last_tile(row: tuple[int, ...]) -> int:
    """The row's last tile, 0 if the row is empty (skipped spaces hold -1)."""
    tiles = [t for t in row if t > 0]
    return tiles[-1] if tiles else 0


def filled(row: tuple[int, ...]) -> int:
    """How many spaces of the row are used (tiles and skipped spaces)."""
    used = [i for i, t in enumerate(row) if t != 0]
    return used[-1] + 1 if used else 0


def target_row(view: Observation, tile: int) -> int | None:
    """The row ``tile`` goes to by the normal rule (RULES.md 3.2): the active row whose last tile
    is the highest one below ``tile``; if there is none, the row with the highest last tile
    (card game: ``None``, the player must take a row). ``None`` too when Stop cards closed
    every row that holds a tile: nothing is known of where it goes."""
    ends = {
        r: last_tile(row)
        for r, row in enumerate(view.spaces)
        if last_tile(row) and r not in view.stops
    }
    if not ends:
        return None
    below = [r for r, end in ends.items() if end < tile]
    if below:
        return max(below, key=lambda r: ends[r])
    if view.variant == "classic":
        return None
    return max(ends, key=lambda r: ends[r])


def fit(view: Observation, tile: int) -> tuple[int | None, bool, int]:
    """Where ``tile`` would go: its row (``None``: card game, lower than every row, we would
    take one; or no row open), whether it completes the row, and its distance from the row's
    last tile (negative: the board game puts a tile lower than every row's end after the
    highest end)."""
    row = target_row(view, tile)
    if row is None:
        return None, True, 0
    spaces = view.spaces[row]
    # Board game: the last space is the final one. Card game: the sixth card takes.
    room = len(spaces) - filled(spaces) - (0 if view.variant == "classic" else 1)
    return row, room <= 0, tile - last_tile(spaces)


def tile_value(view: Observation, tile: int) -> float:
    """The starter's own number for a tile, shown to its owner beside the note: the distance
    from the end of the row it goes to (a close fit is safer), -1 if it completes or takes a
    row."""
    _, completes, gap = fit(view, tile)
    return -1.0 if completes else float(gap)


def tile_note(view: Observation, chosen: int) -> str:
    """A line about the tile choice for the bot's owner: each tile's row and fit, e.g.
    ``chose 41: 3→row 0 gap 2, 41→row 1 gap 1, 90→row 2 completes``."""
    parts = []
    for tile in view.hand:
        row, completes, gap = fit(view, tile)
        if row is None and view.variant != "classic":
            parts.append(f"{tile}→no open row")
        elif row is None:
            parts.append(f"{tile}→takes a row")
        elif completes:
            parts.append(f"{tile}→row {row} completes")
        else:
            parts.append(f"{tile}→row {row} gap {gap}")
    return f"chose {chosen}: " + ", ".join(parts)


def row_bullheads(row: tuple[int, ...]) -> int:
    """The bullheads of the row's tiles (the card game's)."""
    return sum(bullheads(t) for t in row if t > 0)


def risk(view: Observation, tile: int) -> tuple[int, int]:
    """How the starter ranks a tile, the lowest first: a tile that goes after a lower row end
    without completing the row, the closest fit first; then one lower than every row's end (the
    board game puts it after the highest end), the closest first; then one that completes its
    row (board game: the closest first; card game: the fewest bullheads taken first, a tile
    lower than every row taking the cheapest row); last, in the board game, one that finds no
    open row (Stop cards closed them all), the lowest first."""
    row, completes, gap = fit(view, tile)
    if view.variant == "classic" and completes:
        taken = view.spaces[row] if row is not None else min(view.spaces, key=row_bullheads)
        return (2, row_bullheads(taken))
    if row is None:
        return (3, tile)
    if completes:
        return (2, abs(gap))
    return (1, -gap) if gap < 0 else (0, gap)


class StarterBot(KitBot):
    name = "starter"

    def choose_tile(self, view: Observation) -> int:
        """The tile of the lowest :func:`risk` (the first of equal ones in the hand's order);
        say why in a note."""
        chosen = min(view.hand, key=lambda tile: risk(view, tile))
        self.annotate(tile_note(view, chosen), {t: tile_value(view, t) for t in view.hand})
        return chosen


if __name__ == "__main__":
    run(StarterBot())
