"""The decision the arena plays for a seat that did not give a usable one (a fault).

It is meant to be predictable, not good, so a bot author knows exactly what a fault costs:

- choose a tile: the **lowest tile** in hand;
- place a luck card: the **first legal space** (top row first, then left to right);
- play an action card: **none**;
- card game, take a row: the **row with the fewest bullheads** (the topmost of equal rows).

The bot kit uses the same defaults for the methods a bot does not override.

>>> from arena.engine import Game
>>> from arena.engine.observation import observe
>>> view = observe(Game.new("basic", players=2, seed=1), seat=0)
>>> default_decision(view) == PlayTile(min(view.hand))
True
"""

from arena.engine.decisions import Decision, DecisionKind, PlayAction, PlayTile, TakeRow
from arena.engine.observation import Observation
from arena.engine.tiles import BULLHEADS


def fewest_bullheads_row(spaces: tuple[tuple[int, ...], ...]) -> int:
    """The row whose tiles carry the fewest bullheads (the topmost of equal rows).

    >>> fewest_bullheads_row(((55, 0), (10, 20), (1, 2)))
    2
    """
    totals = [sum(BULLHEADS[t] for t in row if t > 0) for row in spaces]
    return totals.index(min(totals))


def default_decision(view: Observation) -> Decision:
    """The default decision for ``view``'s seat (see the module docstring)."""
    pending = view.pending
    if pending is None or not view.legal:
        raise ValueError(f"seat {view.seat} has nothing to decide")
    if pending.kind is DecisionKind.TILE:
        return PlayTile(min(view.hand))
    if pending.kind is DecisionKind.ACTION:
        return PlayAction(None)
    if pending.kind is DecisionKind.TAKE_ROW:
        return TakeRow(fewest_bullheads_row(view.spaces))
    return view.legal[0]
