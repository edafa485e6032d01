"""The parallel environment: every live agent sends an action at every step.

One step answers one decision point of the engine:

- the **tile choice** is simultaneous: every seat holding tiles chooses at once, and the step
  reveals them and places them until the next decision;
- a **luck card, an action card or a row** is one seat's decision: that seat's action is used,
  every other agent's mask holds only :data:`~arena.env.actions.WAIT` and its action is ignored
  (it may be left out of the dict).

An asked agent's action outside its mask is not an error here (samplers that ignore masks,
PettingZoo's seed test among them, must be able to play on): the arena's fault default is played
instead (:func:`arena.table.defaults.default_decision`, what the arena plays for a bot that
faults), and that agent's info for the step says ``{"illegal_action": True}``. Leaving out an
asked agent raises ``ValueError``.

>>> env = NimmtParallelEnv("classic", players=4, seed=3)
>>> observations, infos = env.reset()
>>> steps = 0
>>> while env.agents:
...     actions = {a: int(o["action_mask"].nonzero()[0][-1]) for a, o in observations.items()}
...     observations, rewards, terminations, truncations, infos = env.step(actions)
...     steps += 1
>>> steps >= 10, all(terminations.values()), env.game.is_over()
(True, True, True)
"""

import operator
from typing import Any, ClassVar

import gymnasium
from pettingzoo import ParallelEnv

from arena.engine.game import Game
from arena.engine.observation import Observation

from .aec import agent_spaces, check_render_mode, seat_of
from .core import make_table
from .table import DealSeeds, SeatObservation, agent_name


class NimmtParallelEnv(ParallelEnv):  # type: ignore[misc]  # pettingzoo ships no type hints
    """6 nimmt! as a PettingZoo parallel environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "nimmt_v0", "render_modes": ["ansi"]}

    def __init__(
        self,
        variant: str = "basic",
        players: int = 4,
        seed: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.render_mode = check_render_mode(render_mode)
        self._table = make_table(variant, players)
        self._seeds = DealSeeds(seed)
        self.possible_agents, self.observation_spaces, self.action_spaces = agent_spaces(players)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game(self) -> Game:
        """The engine's game (hidden information included: for replays and analysis)."""
        return self._table.game

    def view(self, agent: str) -> Observation:
        """The structured form of ``agent``'s observation: the engine's view of its seat."""
        return self._table.view(seat_of(agent, self._table.players))

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, SeatObservation], dict[str, dict[str, Any]]]:
        """Deal a new game: from ``seed``, else the next deal seed (``seed + 1``, ...)."""
        self._table.deal(self._seeds.next(seed))
        self.agents = self.possible_agents[:]
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self) -> dict[str, SeatObservation]:
        return dict(zip(self.possible_agents, self._table.observations(), strict=True))

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, SeatObservation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        if not self.agents:
            raise RuntimeError("the game is over: call reset() to deal a new one")
        unknown = sorted(set(actions) - set(self.possible_agents))
        if unknown:
            raise ValueError(f"no agents {unknown}; agents are {', '.join(self.possible_agents)}")
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        chosen: dict[int, int] = {}
        for seat in self._table.asked():
            agent = agent_name(seat)
            if actions.get(agent) is None:
                raise ValueError(f"{agent} is asked for a decision but has no action")
            chosen[seat] = operator.index(actions[agent])
        for seat in self._table.answer(chosen):
            infos[agent_name(seat)]["illegal_action"] = True
        rewards = dict(zip(self.agents, self._table.rewards(), strict=True))
        over = not self._table.asked()
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, False)
        observations = self._observations()
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without render_mode: pass render_mode='ansi'")
            return None
        return self._table.render()

    def close(self) -> None:
        """Nothing to release."""
