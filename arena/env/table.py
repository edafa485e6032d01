"""One game as the environments drive it: the deal seeds, a seat's view and mask, the rewards.

The AEC, parallel and single-seat environments share this; none of them touches the engine
otherwise. :func:`arena.env.core.make_table` gives the table on the compiled core
(:class:`arena.env.core.CoreTable`: the same methods, the core's placements, vectors and masks,
every variant) where the core is built, else a :class:`Table` over the engine's ``Game``.

Rewards are changes of score, signed so that more is better for the seat: the board game's
points as they are, the card game's penalty points negated. The game's final scores
(after the professional game's hand penalty) count, so a seat's rewards over a game add up to
its final score (the card game: minus its penalty).

>>> table = Table("classic", players=3)
>>> table.deal(seed=5)
>>> table.game.seed, table.asked()
(5, (0, 1, 2))
>>> while not table.game.is_over():
...     for seat in table.asked():
...         table.game.apply(seat, table.view(seat).legal[0])
>>> rewards = table.rewards()
>>> [int(r) for r in rewards] == [-s for s in table.game.result().scores]
True
"""

import operator
import secrets
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from arena.engine.game import Game
from arena.engine.observation import Observation, observe
from arena.engine.readings import CURRENT, Reading
from arena.engine.variants import variant as get_variant
from arena.table.defaults import default_decision

from .actions import ACTION_COUNT, decision_of
from .encoding import action_mask, encode


class IllegalActionError(ValueError):
    """An action that is not legal for the agent now."""


#: A seat's observation as the environments give it: the vector and the action mask.
SeatObservation = dict[str, npt.NDArray[Any]]


def agent_name(seat: int) -> str:
    """The agent playing ``seat``: ``player_0``, ``player_1``, ..."""
    return f"player_{seat}"


class DealSeeds:
    """Deal seeds: ``next(seed)`` gives ``seed``, later ``next(None)`` calls ``seed + 1``, ...;
    before any seed, one drawn from the operating system.

    >>> seeds = DealSeeds(7)
    >>> seeds.next(None), seeds.next(None), seeds.next(40), seeds.next(None)
    (7, 8, 40, 41)
    """

    def __init__(self, seed: int | None) -> None:
        self._next = seed

    def next(self, seed: int | None) -> int:
        if seed is not None:
            self._next = int(seed)
        if self._next is None:
            self._next = secrets.randbits(63)
        chosen, self._next = self._next, self._next + 1
        return chosen


class Table:
    """A game of ``variant`` for ``players`` seats, dealt again by :meth:`deal`."""

    def __init__(self, variant: str, players: int, rules: Reading = CURRENT) -> None:
        self.variant = get_variant(variant)
        self.variant.check_players(players)
        self.players = players
        self.rules = rules  # the reading of the rules the games are played under
        self._game: Game | None = None
        self._points = [0] * players

    @property
    def game(self) -> Game:
        """The game under way, hidden information included (never shown to a seat)."""
        if self._game is None:
            raise RuntimeError("no game dealt yet: call reset() first")
        return self._game

    def deal(self, seed: int) -> None:
        """A new game dealt from ``seed`` (the engine's deal: ``Game.new(variant, players,
        seed, rules)``, so ``nimmt`` can replay it)."""
        self._game = Game.new(self.variant.name, self.players, seed, self.rules)
        self._points = self.points()

    def asked(self) -> tuple[int, ...]:
        """The seats the game waits for (none once it is over)."""
        pending = self.game.pending
        return () if pending is None else pending.seats

    def view(self, seat: int) -> Observation:
        """``seat``'s view: the engine's observation, nothing more."""
        return observe(self.game, seat)

    def observation(self, seat: int, view: Observation | None = None) -> SeatObservation:
        """``seat``'s vector and action mask (of ``view`` if given, else of the game now)."""
        view = view if view is not None else self.view(seat)
        return {"observation": encode(view), "action_mask": action_mask(view.legal)}

    def observations(self) -> list[SeatObservation]:
        """Every seat's vector and action mask, in seat order."""
        return [self.observation(seat) for seat in range(self.players)]

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        """``seat``'s action mask now."""
        return action_mask(self.game.legal(seat))

    def apply(self, seat: int, action: int) -> None:
        """Play ``action`` for ``seat``; :class:`IllegalActionError` (and nothing played) if it
        is not in the seat's mask."""
        decision = decision_of(action) if 0 <= action < ACTION_COUNT else None
        if decision is None or decision not in self.game.legal(seat):
            raise IllegalActionError(f"action {action} is not legal for seat {seat} now")
        self.game.apply(seat, decision)

    def answer(self, actions: Mapping[int, int]) -> set[int]:
        """Play every asked seat's action at once (each read on the position before any of
        them); an action outside a seat's mask plays the arena's fault default. The seats whose
        action was illegal."""
        chosen = []
        illegal = set()
        for seat in self.asked():
            view = self.view(seat)
            action = operator.index(actions[seat])
            decision = decision_of(action) if 0 <= action < ACTION_COUNT else None
            if decision is None or decision not in view.legal:
                decision = default_decision(view)
                illegal.add(seat)
            chosen.append((seat, decision))
        for seat, decision in chosen:
            self.game.apply(seat, decision)
        return illegal

    def points(self) -> list[int]:
        """Each seat's score, signed so that more is better; final scores once over."""
        game = self.game
        scores = game.result().scores if game.is_over() else game.scores
        sign = 1 if self.variant.higher_is_better else -1
        return [sign * s for s in scores]

    def rewards(self) -> list[float]:
        """Each seat's change of :meth:`points` since the deal or the last call."""
        now = self.points()
        change = [float(a - b) for a, b in zip(now, self._points, strict=True)]
        self._points = now
        return change

    def render(self) -> str:
        """The public table as text: turn, scores, and the rows."""
        game = self.game
        lines = [f"{self.variant.name} turn {game.turn} scores {' '.join(map(str, game.scores))}"]
        for r, row in enumerate(game.spaces):
            printed = game.layout[r] if game.layout else "." * len(row)
            cells = [str(t) if t > 0 else ("x" if t < 0 else printed[s]) for s, t in enumerate(row)]
            stop = " (stop)" if r in game.stops else ""
            lines.append(f"row {r + 1:2}: {' '.join(cells)}{stop}")
        return "\n".join(lines)
