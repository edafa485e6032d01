"""A Gymnasium environment for one seat playing against house bots.

``SeatEnv("pro", opponents=["heuristic", "mcs:playouts=50"])`` seats the learner at ``seat``
(default 0) and one house bot (:func:`arena.bots.registry.make_bot` specs) at each other seat,
in seat order. A step is one of the learner's decisions; the bots play in between, exactly as in
:func:`arena.local.play_game` (a bot choosing a tile sees the position before anybody's choice,
each bot gets its own seed, from the deal seed as ``nimmt play`` derives it). The reward is the
learner's change of score since its previous decision (penalty points negative; the game's final
scores count), so a game's rewards add up to its final score. Observations, actions and masks
are those of the PettingZoo environments (:mod:`arena.env.actions`, :mod:`arena.env.features`),
and the game is played on the same table (:func:`arena.env.core.make_table`: the compiled
core where it is built; the bots' views come from the engine's ``Game``, brought up to date
from the decisions played); an action outside the mask plays the arena's fault default instead
and the step's info says ``{"illegal_action": True}``.

>>> env = SeatEnv("basic", opponents=["heuristic", "random"], seed=1)
>>> observation, info = env.reset()
>>> total, terminated = 0.0, False
>>> while not terminated:
...     action = int(observation["action_mask"].nonzero()[0][0])
...     observation, reward, terminated, truncated, info = env.step(action)
...     total += reward
>>> total == env.game.result().scores[0]
True
"""

import operator
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from arena.bots.base import Bot, GameInfo
from arena.bots.registry import make_bot
from arena.engine.decisions import DecisionKind
from arena.engine.game import Game
from arena.engine.observation import Observation
from arena.local import bot_seed
from arena.table.defaults import default_decision

from .actions import ACTION_COUNT, action_of
from .aec import observation_space
from .core import make_table
from .table import DealSeeds, SeatObservation


class SeatEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of 6 nimmt! against house bots (see the module docstring)."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - gymnasium's own attribute

    def __init__(
        self,
        variant: str = "basic",
        opponents: Sequence[str] = ("heuristic", "heuristic", "heuristic"),
        seat: int = 0,
        seed: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        if isinstance(opponents, str):
            raise TypeError("opponents: a list of bot specs, one per other seat")
        players = len(opponents) + 1
        self._table = make_table(variant, players)
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat}: a table of {players} has seats 0..{players - 1}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: only 'ansi' (text) or None")
        self.render_mode = render_mode
        self.seat = seat
        self.opponents = tuple(opponents)
        others = [s for s in range(players) if s != seat]
        self._bots: dict[int, Bot] = {
            s: make_bot(spec) for s, spec in zip(others, opponents, strict=True)
        }
        self._seeds = DealSeeds(seed)
        self.observation_space = observation_space()
        self.action_space = gymnasium.spaces.Discrete(ACTION_COUNT)
        self._view: Observation | None = None
        self._observation: SeatObservation = {}
        self._deal_seed = 0

    @property
    def game(self) -> Game:
        """The engine's game (hidden information included: for replays and analysis)."""
        return self._table.game

    def view(self) -> Observation:
        """The structured form of the learner's observation: the engine's view of its seat."""
        if self._view is None:
            raise RuntimeError("no game dealt yet: call reset() first")
        return self._view

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[SeatObservation, dict[str, Any]]:
        """Deal a new game: from ``seed``, else the next deal seed (``seed + 1``, ...)."""
        super().reset(seed=seed)
        self._deal_seed = self._seeds.next(seed)
        self._table.deal(self._deal_seed)
        players = self._table.players
        variant = self._table.variant.name
        for s, bot in self._bots.items():
            bot.start_game(GameInfo(variant, players, s, bot_seed(self._deal_seed, 0, s)))
        self._advance()
        self._table.rewards()  # what happened before the learner's first decision counts too
        return self._observation, {}

    def step(self, action: Any) -> tuple[SeatObservation, float, bool, bool, dict[str, Any]]:
        view = self.view()
        if view.pending is None:
            raise RuntimeError("the game is over: call reset() to deal a new one")
        info: dict[str, Any] = {}
        index = operator.index(action)
        if not (0 <= index < ACTION_COUNT and self._observation["action_mask"][index]):
            index = action_of(default_decision(view))
            info["illegal_action"] = True
        self._table.apply(self.seat, index)
        self._advance()
        reward = self._table.rewards()[self.seat]
        terminated = not self._table.asked()
        if terminated:
            self._finish()
        return self._observation, reward, terminated, False, info

    def _advance(self) -> None:
        """Let the bots play until the learner is asked or the game is over; keep the learner's
        view and observation from the moment it is asked (before any bot's tile choice of the
        same turn)."""
        table = self._table
        while asked := table.asked():
            if self.seat in asked:
                self._keep_learners()
                pending = self.view().pending
                if pending is not None and pending.kind is DecisionKind.TILE:
                    self._bots_decide([s for s in asked if s != self.seat])
                return
            self._bots_decide(list(asked))
        self._keep_learners()

    def _keep_learners(self) -> None:
        self._view = self._table.view(self.seat)
        self._observation = self._table.observation(self.seat, self._view)

    def _bots_decide(self, seats: list[int]) -> None:
        views = [self._table.view(s) for s in seats]
        decisions = [self._bots[v.seat].decide(v) for v in views]
        for view, decision in zip(views, decisions, strict=True):
            self._table.apply(view.seat, action_of(decision))

    def _finish(self) -> None:
        result = self._table.game.result()
        for s, bot in self._bots.items():
            bot.end_game(self._table.view(s), result.scores, result.ranks)

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without render_mode: pass render_mode='ansi'")
            return None
        return self._table.render()


#: ``gymnasium.make("arena.env.single:nimmt/Seat-v0", variant="pro", opponents=[...])`` builds a
#: :class:`SeatEnv` (the module part imports this module, which registers the id).
SEAT_ENV_ID = "nimmt/Seat-v0"
if SEAT_ENV_ID not in gymnasium.registry:
    gymnasium.register(SEAT_ENV_ID, entry_point="arena.env.single:SeatEnv")
