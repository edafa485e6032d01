"""Card game playouts with a rule instead of chance: every seat avoids the sixth card.

The lean path (:mod:`arena.engine.playout`) plays every decision at random, and in the card
game random play takes rows all the time: the differences between two options drown in
penalties nobody competent would collect. Here every seat plays, each turn, a card that takes
no row if it holds one (chosen at random among those), else the card that costs least by the
board as it stands; with probability ``explore`` a uniformly random card instead. A card lower
than every row takes the row with the fewest bullheads. The rule reads only the board, so it is
cheap: a few list lookups per card in hand.

Every option meets the same randomness (common random numbers): the generator's state is
reset before each option's playout.

The playouts run on the compiled core where the lean path's do
(:func:`arena.engine.playout.runs_compiled`), with the same results.

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

from bisect import bisect
from collections.abc import Sequence
from random import Random

from arena.engine.decisions import Decision, PlayTile
from arena.engine.playout import CORE, Position, runs_compiled
from arena.engine.tiles import CARD_BULLHEADS
from arena.engine.variants import CLASSIC_ROW_LENGTH

#: Share of the rule's cards played at random instead.
EXPLORE = 0.1


def classic_playouts(
    pos: Position,
    rng: Random,
    seat: int,
    decisions: Sequence[Decision],
    explore: float = EXPLORE,
    record: list[list[int | None]] | None = None,
) -> list[list[int]]:
    """The final scores of one playout per tile decision of ``seat`` (card game, tile choice
    pending), every seat after that playing by the rule of the module docstring. ``record``
    (one decision only) receives each turn's cards by seat, as a replay's ``plays``."""
    rows = [[t for t in row if t > 0] for row in pos.spaces]
    chosen = pos.chosen
    if record is None and CORE is not None and runs_compiled(rng):
        tiles = [d.tile for d in decisions if isinstance(d, PlayTile)]
        if len(tiles) == len(decisions):  # the same playouts, compiled
            return CORE.rule_playouts(
                rng, rows, pos.hands, chosen, pos.scores, seat, tiles, explore
            )
    state = rng.getstate()
    results = []
    for d in decisions:
        assert isinstance(d, PlayTile)
        rng.setstate(state)
        hands = [list(h) for h in pos.hands]
        first = list(chosen)
        first[seat] = d.tile
        hands[seat].remove(d.tile)
        results.append(_play(rows, hands, first, list(pos.scores), rng, explore, record))
    return results


def _play(
    start: list[list[int]],
    hands: list[list[int]],
    first: list[int | None],
    scores: list[int],
    rng: Random,
    explore: float,
    record: list[list[int | None]] | None,
) -> list[int]:
    bh = CARD_BULLHEADS
    full = CLASSIC_ROW_LENGTH
    rnd = rng.random
    # Rows by their last card: ends (sorted), and for each the row's cards count and bullheads.
    order = sorted(start, key=lambda r: r[-1])
    ends = [r[-1] for r in order]
    count = [len(r) for r in order]
    heads = [sum(bh[t] for t in r) for r in order]
    players = len(hands)
    turn_first: list[int | None] | None = first
    while True:
        plays = []
        for s in range(players):
            forced = turn_first[s] if turn_first is not None else None
            if forced is not None:
                plays.append((forced, s))
                continue
            hand = hands[s]
            if not hand:
                continue
            if rnd() < explore:
                k = int(rnd() * len(hand))
            else:
                cheapest = min(heads)
                best = 1 << 30
                k = 0
                ties = 0
                for j, t in enumerate(hand):
                    i = bisect(ends, t) - 1
                    cost = cheapest if i < 0 else (heads[i] if count[i] == full else 0)
                    if cost < best:
                        best, k, ties = cost, j, 1
                    elif cost == best:
                        ties += 1
                        if rnd() * ties < 1:  # a uniform choice among the ties
                            k = j
            plays.append((hand.pop(k), s))
        turn_first = None
        if not plays:
            return scores
        if record is not None:
            shown: list[int | None] = [None] * players
            for t, s in plays:
                shown[s] = t
            record.append(shown)
        plays.sort()
        for t, s in plays:
            i = bisect(ends, t) - 1
            if i < 0:  # lower than every row: take the cheapest row
                i = heads.index(min(heads))
                scores[s] += heads[i]
                del ends[i], count[i], heads[i]
                ends.insert(0, t)
                count.insert(0, 1)
                heads.insert(0, bh[t])
            elif count[i] == full:
                scores[s] += heads[i]
                ends[i], count[i], heads[i] = t, 1, bh[t]
            else:
                ends[i] = t
                count[i] += 1
                heads[i] += bh[t]
