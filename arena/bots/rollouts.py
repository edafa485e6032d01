"""Card game playouts with a rule instead of chance: every seat avoids the sixth card.

The lean path (:mod:`arena.engine.playout`) plays every decision at random, and in the card
game random play takes rows all the time: the differences between two options drown in
penalties nobody competent would collect. Here every seat plays, each turn, a card that takes
no row if it holds one (chosen at random among those), else the card that costs least by the
board as it stands; with probability ``explore`` a uniformly random card instead. A card lower
than every row takes the row with the fewest bullheads. The rule reads only the board, so it is
cheap: a few list lookups per card in hand.

Every option meets the same randomness (common random numbers): one seed is drawn from the
caller's generator and each option's playout starts from it.

The playouts run on the compiled core (``rule_playouts``), which plays by this module's rule
compiled (``_policies.c``, a policy of the core's ``_playout_core.h``): the engine plays the
rules, the bots name the policy. Where either is not built, the same rule plays through the
:class:`~arena.engine.game.Game` (slowly). :class:`Rule` is the board game's rule, for
:meth:`Position.playouts <arena.engine.playout.Position.playouts>`.

>>> import random
>>> from arena.engine import Game
>>> from arena.engine.decisions import PlayTile
>>> from arena.engine.playout import Position
>>> game = Game.new("classic", players=4, seed=2)
>>> pos = Position(game)
>>> results = classic_playouts(pos, random.Random(1), 0, [PlayTile(t) for t in game.hands[0]])
>>> len(results), all(len(r) == 4 for r in results)
(10, True)
"""

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from arena.engine import playout
from arena.engine.decisions import Decision, DecisionKind, PlayTile, TakeRow
from arena.engine.game import Game
from arena.engine.playout import Position

try:
    from . import _policies
except ImportError:  # built without a C compiler: the rule plays through the Game
    _policies = None  # type: ignore[assignment]

#: Share of the rule's cards played at random instead.
EXPLORE = 0.1
#: The rule compiled (``_policies.c``), as the core takes it; ``None`` where it did not build.
POLICY: object = None if _policies is None else _policies.RULE


@dataclass(frozen=True)
class Rule:
    """The rule as a :class:`~arena.engine.playout.TileRule` for the board game's playouts
    (:meth:`Position.playouts <arena.engine.playout.Position.playouts>`, ``rule``): every
    seat, each turn, plays the tile that would cost it least landing alone on the board as the
    turn starts, ties broken at random; with probability ``explore`` a uniformly random tile.
    A tile's cost, in half points: a completed row's bullheads (half of them on a claim space,
    whose tiles come back to hand), less 10 for a +10 marker; a space's gain or loss; half a
    point for a draw, a point gained for an action card (while the supply or the deck lasts).
    """

    explore: float = EXPLORE

    @property
    def policy(self) -> object:
        return POLICY

    def tile(self, game: Game, seat: int, rnd: Random) -> int:
        """The rule's tile on ``game`` (the backend without the core)."""
        hand = game.hands[seat]
        if rnd.random() < self.explore:
            return hand[int(rnd.random() * len(hand))]
        costs = [_landing_cost(game, t) for t in hand]
        best = min(costs)
        return rnd.choice([t for t, c in zip(hand, costs, strict=True) if c == best])


def _landing_cost(game: Game, tile: int) -> int:
    """What ``tile`` would cost its player landing alone on ``game``'s board (:class:`Rule`)."""
    row = game.target_row(tile)
    assert row is not None  # the board game: the highest row takes a tile below every row
    space = game.fill[row]
    kind = game.layout[row][space]
    if space == len(game.spaces[row]) - 1:
        held = sum(game.bullheads[t] for t in game.row_tiles(row))
        cost = held if kind == "C" else 2 * held
        return cost - 20 if game.markers[row][space] == "final10" else cost
    if game.markers[row][space] == "plus5":
        return -10
    bh = game.bullheads[tile]
    costs = {"+": -2 * bh, "-": 2 * bh, "D": 1 if game.supply else 0}
    if kind == "A":
        return -2 if game.action_deck else 0
    return costs.get(kind, 0)


def classic_playouts(
    pos: Position,
    rng: Random,
    seat: int,
    decisions: Sequence[Decision],
    explore: float = EXPLORE,
    record: list[dict[str, Any]] | None = None,
) -> list[list[int]]:
    """The final scores of one playout per tile decision of ``seat`` (card game, tile choice
    pending), every seat after that playing by the rule of the module docstring. ``record``
    (one decision only) receives the playout's turns in the replay's form."""
    tiles = [d.tile for d in decisions if isinstance(d, PlayTile)]
    if len(tiles) != len(decisions):
        raise ValueError("a tile choice is pending: every decision plays a tile")
    if not pos.variant.classic or pos.pending_kind is not DecisionKind.TILE:
        raise ValueError("the rule's playouts start from a tile choice in the card game")
    core = playout.CORE
    if core is not None and POLICY is not None:
        rows = [[t for t in row if t > 0] for row in pos.spaces]
        hands, chosen, scores = pos.hands, pos.chosen, pos.scores
        return core.rule_playouts(
            rng, POLICY, rows, hands, chosen, scores, seat, tiles, explore, record
        )  # fmt: skip
    if record is not None and len(tiles) != 1:
        raise ValueError("record: for one playout only")
    seed = rng.getrandbits(64)
    return [_game_rollout(pos, Random(seed), seat, t, explore, record) for t in tiles]


def _game_rollout(
    pos: Position,
    rnd: Random,
    seat: int,
    tile: int,
    explore: float,
    record: list[dict[str, Any]] | None,
) -> list[int]:
    """The rule played through the Game (no compiled core)."""
    game = pos.to_game()
    start = len(game.turns)
    game.apply(seat, PlayTile(tile))
    while not game.is_over():
        pending = game.pending
        assert pending is not None
        who = pending.seats[0]
        if pending.kind is DecisionKind.TAKE_ROW:
            game.apply(who, TakeRow(min(range(len(game.spaces)), key=lambda r: _cost(game, r))))
        else:
            game.apply(who, PlayTile(_rule_card(game, who, rnd, explore)))
    if record is not None:
        record += [
            {"plays": list(t.plays), "choices": list(t.choices), "scores": list(t.scores)}
            for t in game.turns[start:]
        ]
    return list(game.result().scores)


def _cost(game: Game, row: int) -> tuple[int, int]:
    """A row to take: its bullheads, then (the first such) its last card."""
    return _heads(game, row), game.last_tile(row)


def _heads(game: Game, row: int) -> int:
    return sum(game.bullheads[t] for t in game.row_tiles(row))


def _rule_card(game: Game, seat: int, rnd: Random, explore: float) -> int:
    """A card that takes no row (uniformly among those), else the cheapest; with probability
    ``explore`` a random one."""
    hand = game.hands[seat]
    if rnd.random() < explore:
        return hand[int(rnd.random() * len(hand))]
    cheapest = min(_heads(game, r) for r in range(len(game.spaces)))
    costs = []
    for t in hand:
        row = game.target_row(t)
        if row is None:
            costs.append(cheapest)
        else:
            full = len(game.row_tiles(row)) == len(game.spaces[row])
            costs.append(_heads(game, row) if full else 0)
    best = min(costs)
    return rnd.choice([t for t, c in zip(hand, costs, strict=True) if c == best])
