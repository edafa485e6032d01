"""The environments' one flat action space: every decision of every variant is one integer.

``Discrete(ACTION_COUNT)`` covers the five variants at once, so a single policy can play all of
them; a seat's *action mask* (:func:`arena.env.action_mask`) marks which integers are legal now. The
integers come in blocks, in this order (``R`` rows and ``S`` spaces of the largest board, ``T``
the highest tile of any variant, ``B`` the highest tile of the professional game, ``K`` the card
game's rows):

=====================  ======  ==============================================================
block                  size    decision
=====================  ======  ==============================================================
``wait``               1       nothing is asked of this seat (parallel env only, see there)
``tile``               T       :class:`PlayTile` ``t`` is action ``t`` (1..T; 0 is ``wait``)
``luck``               R × S   :class:`PlaceLuck` ``(row, space)``, row-major
``action none``        1       :class:`PlayAction` ``None``: play no action card
``action stop``        R       Stop on row ``r``
``action swap``        B       Swap for tile ``t`` from hand (``t`` = 1..B)
``action skip``        1       Skip
``action front``       R       Front into row ``r``
``action ascending``   R       Ascending onto row ``r``
``action anywhere``    R       Anywhere onto row ``r``
``action another``     B       Another, revealing tile ``t`` from hand
``action plus5``       1       Plus five
``take_row``           K       card game: :class:`TakeRow` ``r``
=====================  ======  ==============================================================

Rows and spaces count from 0, as in the engine. With today's boards:

>>> ACTION_COUNT, BLOCKS["luck"], BLOCKS["take_row"]
(432, range(105, 185), range(428, 432))
>>> action_of(PlayTile(37)), action_of(PlayAction("stop", row=3)), decision_of(427)
(37, 189, PlayAction(card='plus5', row=None, new_tile=None))
>>> decision_of(WAIT) is None
True
"""

from collections.abc import Iterable

from arena.engine.decisions import Decision, PlaceLuck, PlayAction, PlayTile, TakeRow
from arena.engine.variants import ACTION_CARDS, VARIANT_NAMES, variant

_VARIANTS = [variant(name) for name in VARIANT_NAMES]
_BOARDS = [v.board for v in _VARIANTS if v.board is not None]
#: Rows and spaces of the largest board, highest tile of any variant, of the professional game.
ROWS = max(len(board.rows) for board in _BOARDS)
SPACES = max(len(row) for board in _BOARDS for row in board.rows)
TILES = max(v.tiles for v in _VARIANTS)
BOARD_TILES = max(v.tiles for v in _VARIANTS if v.actions)
CLASSIC_ROWS = max(v.start_rows for v in _VARIANTS if v.classic)

#: The action that answers nothing: a seat with nothing to decide (parallel env).
WAIT = 0

_ROW_CARDS = ("stop", "front", "ascending", "anywhere")
_TILE_CARDS = ("swap", "another")


def _layout() -> tuple[tuple[Decision | None, ...], dict[str, range]]:
    decisions: list[Decision | None] = [None]
    blocks: dict[str, range] = {"wait": range(0, 1)}

    def block(name: str, items: Iterable[Decision]) -> None:
        start = len(decisions)
        decisions.extend(items)
        blocks[name] = range(start, len(decisions))

    block("tile", (PlayTile(t) for t in range(1, TILES + 1)))
    block("luck", (PlaceLuck(r, s) for r in range(ROWS) for s in range(SPACES)))
    block("action none", [PlayAction(None)])
    for card in ACTION_CARDS:
        if card in _ROW_CARDS:
            block(f"action {card}", (PlayAction(card, row=r) for r in range(ROWS)))
        elif card in _TILE_CARDS:
            tiles = range(1, BOARD_TILES + 1)
            block(f"action {card}", (PlayAction(card, new_tile=t) for t in tiles))
        else:
            block(f"action {card}", [PlayAction(card)])
    block("take_row", (TakeRow(r) for r in range(CLASSIC_ROWS)))
    return tuple(decisions), blocks


#: ``DECISIONS[action]``: the decision an action stands for (``None`` for :data:`WAIT`).
DECISIONS, BLOCKS = _layout()
ACTION_COUNT = len(DECISIONS)
_ACTION_OF: dict[Decision, int] = {d: i for i, d in enumerate(DECISIONS) if d is not None}


def action_of(decision: Decision) -> int:
    """The action standing for ``decision`` (a ``ValueError`` if no variant has it)."""
    try:
        return _ACTION_OF[decision]
    except KeyError:
        raise ValueError(f"'{decision}' is outside the action space of every variant") from None


def decision_of(action: int) -> Decision | None:
    """The decision ``action`` stands for; ``None`` for :data:`WAIT`."""
    if not 0 <= action < ACTION_COUNT:
        raise ValueError(f"action {action} is outside 0..{ACTION_COUNT - 1}")
    return DECISIONS[action]
