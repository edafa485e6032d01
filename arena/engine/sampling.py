"""Determinization: a full Game that agrees with everything one seat can see.

A bot sees an :class:`~arena.engine.observation.Observation`; to search it needs whole games.
:func:`determinize` deals what the seat cannot see at random, consistently with what it can:

- **tiles**: every tile not on the board, not in the seat's hand, not chosen by it, not revealed
  and waiting to be placed is *unseen*. The unseen tiles fill the other hands (by their sizes),
  the supply (by its size, in a random order) and the box (by what is left over);
- **the box**: in basic, basic + luck and the card game a revealed tile is placed, and a placed
  tile only ever leaves the board for the box, so every revealed tile that is gone is known to
  be boxed; only set-up tiles that left the board are unknown. In the professional version
  claims and Swap cards bring placed tiles back into hands, and the view does not say whose:
  gone tiles are put in the box first and only the rest into the other hands; a tile swapped
  back this turn goes back to its owner. The supply never holds a tile anybody has seen;
- **action cards**: the cards not held by the seat and not played this turn are dealt to the
  other seats by their counts and to the deck; the luck deck is drawn from the cards that are
  neither on the board nor being placed;
- **the position**: scores, markers, Stop markers, set and turn, the history of revealed tiles,
  this turn's choices and the decision under way (including tiles other seats have already
  chosen this turn) are copied, so ``observe(determinize(view, rng), view.seat) == view``.

What the view does not hold, and is therefore sampled rather than known: the set-up tiles, the
decisions of earlier turns (Swap, Another, which player claimed which row), so which gone tiles
went back into hands in the professional version; the action cards played in earlier turns and
the luck cards that left with cleared rows; and each earlier turn's scores (left empty).

>>> import random
>>> from arena.engine import Game
>>> from arena.engine.observation import observe
>>> game = Game.new("pro+luck", players=4, seed=11)
>>> view = observe(game, seat=1)
>>> sample = determinize(view, random.Random(3))
>>> observe(sample, 1) == view, sample.hands[1] == game.hands[1], sample.hands[0] == game.hands[0]
(True, True, False)
"""

from bisect import bisect
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import accumulate, starmap
from random import Random
from typing import NamedTuple

from .decisions import DecisionKind
from .game import Game, Snapshot, TurnRecord, final_scores
from .observation import Observation
from .playout import CORE, Position, runs_compiled
from .readings import reading
from .tiles import CARD_BULLHEADS
from .variants import variant

__all__ = ["Sampler", "determinize", "draw_by_weight"]


class Sampler:
    """What one view fixes, worked out once; :meth:`game` deals a fresh sample each call.

    A bot that samples many games per decision builds one ``Sampler(view)`` and calls
    :meth:`game` repeatedly; :func:`determinize` is the one-off form.

    ``actions=False``: the other seats and the deck get no action cards (the seat keeps its
    own), for playouts that leave them out; the rest of every sample is the same, from the
    same random numbers (shuffling the cards draws none of its own).

    On the compiled backend (:func:`~arena.engine.playout.runs_compiled`) the deal runs in
    the playout core, from the core's own generator seeded by ``rng``; without it, the Python
    code here deals the same way from ``rng`` itself (``tests/test_playout_core.py`` checks
    that both deal every unseen tile and card exactly once, and alike in distribution).
    """

    def __init__(self, view: Observation, actions: bool = True) -> None:
        v = variant(view.variant)
        self.view = view
        self.variant = v
        seat = view.seat
        pending = view.pending
        board = {t for row in view.spaces for t in row if t > 0}
        queued = [t for t, _ in view.to_place]
        # The tile whose action card or row choice is asked is in nobody's hand or row.
        self.current: tuple[int, int] | None = None
        if pending is not None and pending.kind in (DecisionKind.ACTION, DecisionKind.TAKE_ROW):
            assert pending.tile is not None
            self.current = (pending.tile, pending.seats[0])
        own = set(view.hand) | ({view.chosen} if view.chosen is not None else set())
        placed_or_held = board | own | set(queued)
        if self.current is not None:
            placed_or_held.add(self.current[0])
        # Seats that already chose this turn (their chosen tile is counted in their hand size).
        waiting = (
            pending.seats if pending is not None and pending.kind is DecisionKind.TILE else None
        )
        self.chose = [
            waiting is not None and s != seat and s not in waiting and view.hand_sizes[s] > 0
            for s in range(view.players)
        ]
        revealed = {t for plays in view.history for t in plays if t is not None}
        revealed.update(c.new_tile for c in view.choices if c.new_tile is not None)
        gone = sorted(revealed - placed_or_held)
        everything = set(range(1, v.tiles + 1))
        in_hands = sum(view.hand_sizes)
        box_size = (
            v.tiles
            - len(board)
            - in_hands
            - len(queued)
            - (1 if self.current is not None else 0)
            - view.supply_size
        )
        # Tiles swapped back this turn are in their owner's hand (the view shows the swap).
        self.returned: list[list[int]] = [[] for _ in range(view.players)]
        for c in view.choices:
            if c.kind is DecisionKind.ACTION and c.card == "swap" and c.seat != seat:
                t = c.tile
                if t in gone:
                    gone.remove(t)
                    self.returned[c.seat].append(t)
        swapped_back = {t for tiles in self.returned for t in tiles}
        hidden = sorted(everything - placed_or_held - set(gone) - swapped_back)
        self.box_known: list[int] = []
        self.gone: list[int] = []
        if v.actions:  # gone tiles may be back in hands: box what fits, the rest to hands
            self.gone = gone
        else:  # a gone tile can only be in the box
            self.box_known = gone
        self.hidden = hidden
        self.box_size = box_size
        self.hand_need = [
            0 if s == seat else view.hand_sizes[s] - len(self.returned[s])
            for s in range(view.players)
        ]
        # Luck cards: the full deck less the markers on the board and the card being placed.
        luck = Counter(v.luck_deck)
        luck.subtract(m for row in view.markers for m in row if m is not None)
        if pending is not None and pending.kind is DecisionKind.LUCK and pending.card:
            luck[pending.card] -= 1
        self.luck_pool = sorted(luck.elements())
        # Action cards: the full deck less the seat's own and the cards played this turn.
        cards = Counter(v.action_deck)
        cards.subtract(view.action_cards)
        cards.subtract(
            c.card for c in view.choices if c.kind is DecisionKind.ACTION and c.card is not None
        )
        self.action_pool = sorted(cards.elements())
        self._check()
        # What is dealt of the action cards: all of them, or none (``actions=False``).
        self._cards = self.action_pool if actions else []
        self._counts = list(view.action_counts) if actions else [0] * view.players
        self._deck = view.action_deck_size if actions else 0
        self._template: Position | None = None
        self._plan: object = None  # the compiled core's copy of what every deal shares
        #: Per seat, what :meth:`_deal` deals it: tiles from the pool, tiles swapped back,
        #: whether it already chose.
        self._seats = [
            (s, self.hand_need[s], self.returned[s], self.chose[s]) for s in range(view.players)
        ]

    def _check(self) -> None:
        view = self.view
        unknown = len(self.hidden) + len(self.gone) + len(self.box_known)
        need = sum(self.hand_need) + view.supply_size + self.box_size
        if unknown != need or len(self.box_known) > self.box_size:
            raise ValueError(
                f"the view does not add up: {unknown} unseen tiles for {need} places "
                f"(hands {self.hand_need}, supply {view.supply_size}, box {self.box_size})"
            )
        if len(self.luck_pool) < view.luck_deck_size:
            raise ValueError("the luck deck is larger than the luck cards left unseen")
        others = sum(n for s, n in enumerate(view.action_counts) if s != view.seat)
        if len(self.action_pool) < others + view.action_deck_size:
            raise ValueError("more action cards held or in the deck than left unseen")

    def game(self, rng: Random) -> Game:
        """A random full game consistent with the view."""
        return self._build(self._deal(rng))

    def position(self, rng: Random) -> Position:
        """A random consistent position for playouts: ``Position(self.game(rng))``, but made
        without the Game, from a template of what every sample shares. Every call gives a
        position of its own, which its caller may change."""
        deal = self._deal(rng)
        if self.view.pending is None:
            return self._position(deal)
        if self._template is None:
            self._template = self._position(deal)
        # Every deal of one view has the same shape (hand sizes, seats that chose) and lists
        # of its own, so the copy takes them as they are.
        hands, chosen, held, supply, luck, actions, _ = deal
        return self._template._dealt(hands, chosen, held, supply, luck, actions)

    def _position(self, deal: "_Deal") -> Position:
        return Position(self._snapshot(deal))

    def _deal(self, rng: Random) -> "_Deal":
        """Deal the unseen tiles and cards at random."""
        if runs_compiled(rng):
            if self._plan is None:
                self._plan = self._core_plan()
            return _Deal._make(CORE.deal(rng, self._plan))
        view = self.view
        seat = view.seat
        key = random_keys(rng).__getitem__
        hidden = sorted(self.hidden, key=key)
        gone = sorted(self.gone, key=key) if self.gone else []
        # The box: known boxed tiles, then gone tiles, then (set-up tiles) hidden ones.
        box = list(self.box_known)
        take = min(self.box_size - len(box), len(gone))
        box += gone[:take]
        rest_gone = gone[take:]
        short = self.box_size - len(box)
        box += hidden[:short]
        supply = hidden[short : short + view.supply_size]
        pool = hidden[short + view.supply_size :]
        if rest_gone:  # else already in the keys' order
            pool = sorted(pool + rest_gone, key=key)
        hands: list[list[int]] = []
        chosen: list[int | None] = [None] * view.players
        pos = 0
        for s, n, returned, chose in self._seats:
            if s == seat:
                hands.append(list(view.hand))
                chosen[s] = view.chosen
                continue
            hand = pool[pos : pos + n]
            pos += n
            if returned:
                hand += returned
            if chose:
                chosen[s] = hand.pop(int(rng.random() * len(hand)))
            hand.sort()
            hands.append(hand)
        luck = shuffled(self.luck_pool, key)[: view.luck_deck_size] if self.luck_pool else []
        cards = shuffled(self._cards, key) if self._cards else []
        held: list[list[str]] = []
        pos = 0
        for s, count in enumerate(self._counts):
            if s == seat:
                held.append(list(view.action_cards))
            else:
                held.append(cards[pos : pos + count])
                pos += count
        actions = cards[pos : pos + self._deck]
        return _Deal(hands, chosen, held, supply, luck, actions, box)

    def _core_plan(self) -> object:
        """What every deal of this view shares, as the compiled core's ``deal`` reads it."""
        view = self.view
        return CORE.deal_plan(
            self.hidden, self.gone, self.box_known, self.box_size, view.supply_size, view.seat,
            self.hand_need, self.returned, [int(c) for c in self.chose], list(view.hand),
            view.chosen, list(view.action_cards), self.luck_pool, view.luck_deck_size,
            self._cards, self._counts, self._deck,
        )  # fmt: skip

    def _build(self, deal: "_Deal") -> Game:
        return Game.from_snapshot(self._snapshot(deal))

    def _snapshot(self, deal: "_Deal") -> Snapshot:
        """The sample: the view's public parts and ``deal``'s hidden ones."""
        view = self.view
        pending = view.pending
        turns = [TurnRecord(list(plays)) for plays in view.history]
        if pending is not None and pending.kind is not DecisionKind.TILE:
            turns[-1].choices = [c.to_dict() for c in view.choices]
        return Snapshot(
            variant=view.variant,
            spaces=view.spaces,
            markers=view.markers,
            stops=view.stops,
            hands=deal.hands,
            held=deal.held,
            scores=view.scores,
            supply=deal.supply,
            luck_deck=deal.luck,
            action_deck=deal.actions,
            box=deal.box,
            set_number=view.set_number,
            turns=turns,
            chosen=deal.chosen,
            to_place=view.to_place,
            current=self.current,
            pending=pending,
            final=None
            if pending is not None
            else final_scores(
                self.variant, view.scores, deal.hands, reading(view.rules).bullheads(self.variant)
            ),
            rules=view.rules,
        )


class _Deal(NamedTuple):
    """The unseen parts of one sample."""

    hands: list[list[int]]
    chosen: list[int | None]
    held: list[list[str]]
    supply: list[int]
    luck: list[str]
    actions: list[str]
    box: list[int]


_NO_KEYS = [()] * len(CARD_BULLHEADS)  # starmap arguments: one random key per tile number


def random_keys(rng: Random) -> list[float]:
    """A uniform key per tile number: sorting by it shuffles any set of tiles, at C speed."""
    return list(starmap(rng.random, _NO_KEYS))


def shuffled(items: Sequence[str], key: Callable[[int], float]) -> list[str]:
    """``items`` in the random order that :func:`random_keys` give their positions."""
    return [items[i] for i in sorted(range(len(items)), key=key)]


def determinize(view: Observation, rng: Random) -> Game:
    """A full Game consistent with ``view``, the unseen parts dealt at random (module doc)."""
    return Sampler(view).game(rng)


def draw_by_weight(
    rng: Random,
    hands: list[list[int]],
    chosen: list[int | None],
    seats: Sequence[int],
    weight: list[float],
) -> None:
    """For each of ``seats`` in turn that holds a tile, its tile of this turn drawn from its
    hand in proportion to ``weight[tile]`` and moved from ``hands[s]`` to ``chosen[s]``: the
    first tile whose running total of weights passes ``rng.random()`` times the whole (the
    last if rounding leaves none). One draw per seat, on the compiled core when it is built
    (:func:`~arena.engine.playout.runs_compiled`; from its generator, seeded by ``rng``).

    >>> hands, chosen = [[3, 5], [7, 8, 9]], [None, None]
    >>> draw_by_weight(Random(1), hands, chosen, [1], [0.0] * 9 + [1.0])  # only 9 weighs
    >>> hands, chosen
    ([[3, 5], [7, 8]], [None, 9])
    """
    if runs_compiled(rng):
        CORE.draw_by_weight(rng, hands, chosen, seats, weight)
        return
    at = weight.__getitem__
    for s in seats:
        hand = hands[s]
        if not hand:
            continue
        cumulative = list(accumulate(map(at, hand)))
        x = rng.random() * cumulative[-1]
        chosen[s] = hand.pop(min(bisect(cumulative, x), len(hand) - 1))
