"""The AEC (agent environment cycle) environment: one agent acts at a time, only when asked.

``agent_selection`` is always a seat the engine waits for: during the simultaneous tile choice
every seat holding tiles, one after the other in seat order (a chosen tile stays hidden from the
seats after it, as in the arena); during the placements the one seat asked for a luck card, an
action card or a row. An action outside the selected agent's mask raises
:class:`IllegalActionError` and changes nothing (wrap the env in PettingZoo's
``TerminateIllegalWrapper`` to end the game with a penalty instead).

>>> env = NimmtEnv("basic+luck", players=3, seed=2)
>>> env.reset()
>>> env.agent_selection, env.view("player_0").pending.kind.value
('player_0', 'tile')
>>> for agent in env.agent_iter():
...     observation, reward, terminated, truncated, info = env.last()
...     mask = observation["action_mask"]
...     env.step(None if terminated else int(mask.nonzero()[0][0]))
>>> env.agents, env.game.is_over()
([], True)
"""

import operator
from functools import cache
from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from arena.engine.game import Game
from arena.engine.observation import Observation

from .actions import ACTION_COUNT, WAIT, decision_of
from .core import make_table
from .encoding import HIGH, LOW
from .table import DealSeeds, IllegalActionError, SeatObservation, agent_name

__all__ = [
    "IllegalActionError",
    "NimmtEnv",
    "agent_spaces",
    "check_render_mode",
    "observation_space",
    "seat_of",
]


@cache
def observation_space() -> gymnasium.spaces.Dict:
    """Every agent's observation space: the vector and the action mask."""
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(LOW, HIGH, dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (ACTION_COUNT,), dtype=np.int8),
        }
    )


def seat_of(agent: str, players: int) -> int:
    """The seat of ``agent`` (``player_3`` -> 3); a ``ValueError`` for any other name."""
    prefix, _, number = agent.partition("_")
    if prefix != "player" or not number.isdigit() or not 0 <= int(number) < players:
        raise ValueError(f"no agent {agent!r}; agents are player_0 .. player_{players - 1}")
    return int(number)


def check_render_mode(render_mode: str | None) -> str | None:
    """``render_mode`` if the environments know it (``"ansi"`` or ``None``)."""
    if render_mode not in (None, "ansi"):
        raise ValueError(f"render_mode {render_mode!r}: only 'ansi' (text) or None")
    return render_mode


Spaces = dict[str, gymnasium.spaces.Space[Any]]


def agent_spaces(players: int) -> tuple[list[str], Spaces, Spaces]:
    """The agents of a table of ``players`` and each one's observation and action space."""
    agents = [agent_name(s) for s in range(players)]
    space = observation_space()
    observations: Spaces = dict.fromkeys(agents, space)
    actions: Spaces = {a: gymnasium.spaces.Discrete(ACTION_COUNT) for a in agents}
    return agents, observations, actions


class NimmtEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type hints
    """6 nimmt! as a PettingZoo AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "nimmt_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": True,
    }

    def __init__(
        self,
        variant: str = "basic",
        players: int = 4,
        seed: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.render_mode = check_render_mode(render_mode)
        self._table = make_table(variant, players)
        self._seeds = DealSeeds(seed)
        self.possible_agents, self.observation_spaces, self.action_spaces = agent_spaces(players)
        self.agents: list[str] = []
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game(self) -> Game:
        """The engine's :class:`~arena.engine.game.Game` (hidden information included: for
        replays and analysis, never for a policy)."""
        return self._table.game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: from ``seed``, else the next deal seed (``seed + 1``, ...)."""
        self._table.deal(self._seeds.next(seed))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = agent_name(self._table.asked()[0])

    def observe(self, agent: str) -> SeatObservation:
        seat = self._seats.get(agent)
        return self._table.observation(
            seat_of(agent, self._table.players) if seat is None else seat
        )

    def view(self, agent: str) -> Observation:
        """The structured form of ``agent``'s observation: the engine's view of its seat."""
        return self._table.view(seat_of(agent, self._table.players))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seats.get(agent)
        if seat is None:
            seat = seat_of(agent, self._table.players)
        index = None if action is None else operator.index(action)
        if index is not None and not 0 <= index < ACTION_COUNT:
            decision_of(index)  # raises: outside the action space
        try:
            if index is None:
                raise IllegalActionError("no action")
            self._table.apply(seat, index)
        except IllegalActionError:
            shown = "wait" if index is None or index == WAIT else decision_of(index)
            raise IllegalActionError(
                f"action {action} ({shown}) is not legal for {agent} now; legal actions: "
                f"{self._table.mask(seat).nonzero()[0].tolist()}"
            ) from None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict(zip(self.agents, self._table.rewards(), strict=True))
        self._accumulate_rewards()
        asked = self._table.asked()
        if asked:
            self.agent_selection = agent_name(asked[0])
        else:
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without render_mode: pass render_mode='ansi'")
            return None
        return self._table.render()

    def close(self) -> None:
        """Nothing to release."""
