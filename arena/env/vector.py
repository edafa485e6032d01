"""Many games at once: :class:`VectorEnv` (every seat, numpy in and out) and
:class:`SeatVectorEnv` (a Gymnasium ``VectorEnv``: one learner seat against batched house
policies).

**VectorEnv** steps ``num_envs`` games of one variant and table size together, every seat
acting per step as in the parallel environment (:mod:`arena.env.parallel`): one step answers
one decision point of every game. ``reset()`` returns ``(observations, infos)`` with
``observations["observation"]`` of shape ``(num_envs, players, OBSERVATION_SIZE)`` (float32,
:mod:`arena.env.features`) and ``observations["action_mask"]`` of shape ``(num_envs, players,
ACTION_COUNT)`` (int8; only ``WAIT`` for a seat asked nothing); ``step(actions)`` takes an int
array ``(num_envs, players)`` (entries of seats not asked are ignored; an asked seat's action
outside its mask plays the arena's fault default and ``infos["illegal_action"]`` marks it) and
returns ``(observations, rewards, terminations, truncations, infos)``, the last four arrays
``(num_envs, players)``.

**Autoreset** is Gymnasium's *same-step* mode: the step on which a game ends returns that
game's last rewards and ``terminations`` True for its seats, and already the *next* game's
first observation; the ended game's last observation is in ``infos["final_observation"]``
(the same dict of arrays, for the games in ``infos["final_index"]``), its final scores (the
engine's, penalty points positive in the card game) in ``infos["final_scores"]``. Nothing
truncates.

**Seeds**: game ``i`` of ``VectorEnv(seed=S)`` deals ``S + i``, then ``S + i + num_envs``,
``S + i + 2 num_envs``, ... (``infos["deal_seed"]``): a deal seed deals what
``Game.new(variant, players, seed)`` and the single environments deal from it, so game ``i``'s
first game equals ``parallel_env(variant, players, seed=S + i)``'s with the same actions.

The card game runs on the compiled core (:mod:`arena.env.core`: placements, vectors and masks
in C); the board game's variants go through the engine's ``Game``, game by game (correct, the
same API, not fast).

>>> env = VectorEnv("classic", players=4, num_envs=8, seed=1)
>>> observations, infos = env.reset()
>>> observations["action_mask"].shape, observations["observation"].shape
((8, 4, 432), (8, 4, 1712))
>>> rng = np.random.default_rng(0)
>>> ended = 0
>>> for _ in range(30):
...     actions = random_actions(observations["action_mask"], rng)
...     observations, rewards, terminations, truncations, infos = env.step(actions)
...     ended += int(terminations[:, 0].sum())
>>> ended >= 8, rewards.shape, bool((rewards <= 0).all())
(True, (8, 4), True)
"""

import secrets
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from arena.engine.observation import Observation
from arena.engine.variants import variant as get_variant
from arena.runner.defaults import default_decision

from .actions import ACTION_COUNT, BLOCKS, WAIT, decision_of
from .aec import observation_space
from .core import ClassicTables, core_available
from .encoding import action_mask, encode
from .features import OBSERVATION_SIZE
from .table import Table

__all__ = ["HOUSE_POLICIES", "SeatVectorEnv", "VectorEnv", "random_actions"]

Observations = dict[str, npt.NDArray[Any]]
Infos = dict[str, Any]

#: The house policies :class:`SeatVectorEnv` seats, computed for every game at once.
HOUSE_POLICIES = ("heuristic", "random")

_TAKE_ROW = BLOCKS["take_row"].start
_SEED_MASK = (1 << 64) - 1


def random_actions(mask: npt.NDArray[np.int8], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """A uniformly random legal action for every mask of ``mask`` (any leading shape)."""
    flat = mask.reshape(-1, mask.shape[-1]).astype(bool)
    keys = rng.random(flat.shape)
    keys[~flat] = -1.0
    chosen: npt.NDArray[np.int64] = keys.argmax(axis=1).reshape(mask.shape[:-1]).astype(np.int64)
    return chosen


class _GameTables:
    """The board game's variants: the same interface as :class:`ClassicTables`, one ``Game``
    per table (the engine's rules and views, game by game)."""

    def __init__(self, variant: str, players: int, count: int) -> None:
        self.players = players
        self.count = count
        self._tables = [Table(variant, players) for _ in range(count)]
        self.dealt = False

    def deal(
        self, seeds: npt.NDArray[np.uint64], which: npt.NDArray[np.bool_] | None = None
    ) -> None:
        for i, table in enumerate(self._tables):
            if which is None or which[i]:
                table.deal(int(seeds[i]))
        self.dealt = True

    def step(
        self, actions: npt.NDArray[np.int64], rewards: npt.NDArray[np.float32] | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        if rewards is None:
            rewards = np.empty((self.count, self.players), np.float32)
        illegal = np.zeros((self.count, self.players), bool)
        for i, table in enumerate(self._tables):
            chosen = []
            for seat in table.asked():  # every view is read before any decision is applied
                action = int(actions[i, seat])
                if action < 0:
                    continue
                view = table.view(seat)
                decision = decision_of(action) if action < ACTION_COUNT else None
                if decision is None or decision not in view.legal:
                    decision = default_decision(view)
                    illegal[i, seat] = True
                chosen.append((seat, decision))
            for seat, decision in chosen:
                table.game.apply(seat, decision)
            rewards[i] = table.rewards()
        return rewards, illegal

    def observe(
        self,
        seat: int = -1,
        obs: npt.NDArray[np.float32] | None = None,
        mask: npt.NDArray[np.int8] | None = None,
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        seats = range(self.players) if seat < 0 else (seat,)
        shape = (self.count,) if seat >= 0 else (self.count, self.players)
        if obs is None:
            obs = np.empty((*shape, OBSERVATION_SIZE), np.float32)
        if mask is None:
            mask = np.empty((*shape, ACTION_COUNT), np.int8)
        for i, table in enumerate(self._tables):
            for s in seats:
                view: Observation = table.view(s)
                at = (i, s) if seat < 0 else (i,)
                obs[at] = encode(view)
                mask[at] = action_mask(view.legal)
        return obs, mask

    def masks(self, seat: int = -1) -> npt.NDArray[np.int8]:
        return self.observe(seat)[1]

    def scores(self) -> npt.NDArray[np.int64]:
        return np.array([t.game.scores for t in self._tables], np.int64)

    def table(self, index: int) -> Table:
        return self._tables[index]


Tables = ClassicTables | _GameTables


def _tables(variant: str, players: int, count: int) -> Tables:
    get_variant(variant).check_players(players)
    if variant == "classic" and core_available():
        return ClassicTables(players, count)
    return _GameTables(variant, players, count)


def _scores(tables: Tables, index: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
    """The engine's scores of the games ``index`` (penalty points positive in the card game)."""
    if isinstance(tables, ClassicTables):
        return np.array([tables.view(int(i))["scores"] for i in index], np.int64).reshape(
            len(index), tables.players
        )
    return tables.scores()[index]


class _Seeds:
    """Deal seeds of ``count`` games: game ``i`` deals ``S + i``, then ``S + i + count``...;
    a reset without a seed goes on after the furthest round dealt."""

    def __init__(self, count: int, seed: int | None) -> None:
        self.count = count
        self._base: int | None = seed

    def first(self, seed: int | None, rounds: int) -> npt.NDArray[np.uint64]:
        if seed is not None:
            self._base = int(seed)
        elif self._base is None:
            self._base = secrets.randbits(63)
        else:
            self._base += rounds * self.count
        return self._of(np.arange(self.count))

    def next(
        self, index: npt.NDArray[np.intp], rounds: npt.NDArray[np.int64]
    ) -> npt.NDArray[np.uint64]:
        assert self._base is not None
        return self._of(index + rounds[index] * self.count)

    def _of(self, offsets: npt.NDArray[Any]) -> npt.NDArray[np.uint64]:
        assert self._base is not None
        return np.array([(self._base + int(o)) & _SEED_MASK for o in offsets], np.uint64)


class VectorEnv:
    """``num_envs`` games of ``variant`` for ``players`` seats, every seat acting per step (see
    the module docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        variant: str = "classic",
        players: int = 4,
        num_envs: int = 1024,
        seed: int | None = None,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs {num_envs}: at least one game")
        self.variant = variant
        self.players = players
        self.num_envs = num_envs
        self._tables = _tables(variant, players, num_envs)
        self._seeds = _Seeds(num_envs, seed)
        self._deal_seeds = np.zeros(num_envs, np.uint64)
        self._rounds = np.zeros(num_envs, np.int64)
        self.single_observation_space = observation_space()
        self.single_action_space = gymnasium.spaces.Discrete(ACTION_COUNT)
        self._obs: Observations = {}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observations, Infos]:
        """Deal ``num_envs`` new games: ``seed + i``, or the next seeds (module docstring)."""
        self._deal_seeds = self._seeds.first(seed, int(self._rounds.max()))
        self._rounds[:] = 1
        self._tables.deal(self._deal_seeds)
        obs, mask = self._tables.observe()
        self._obs = {"observation": obs, "action_mask": mask}
        return self._obs, {"deal_seed": self._deal_seeds.copy()}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        Observations,
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        Infos,
    ]:
        """Every game one decision point (see the module docstring)."""
        if not self._obs:
            raise RuntimeError("no game dealt yet: call reset() first")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs, self.players) or not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(
                f"actions: an int array of shape {(self.num_envs, self.players)}, "
                f"not {acts.dtype} {acts.shape}"
            )
        # an asked seat always answers here: a negative action is an illegal one
        return self._advance(np.where(acts < 0, ACTION_COUNT, acts).astype(np.int64))

    def _advance(
        self, acts: npt.NDArray[np.int64]
    ) -> tuple[
        Observations,
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        Infos,
    ]:
        """:meth:`step` with ``-1`` for "no answer" (such a game does not move)."""
        rewards, illegal = self._tables.step(acts)
        obs, mask = self._tables.observe()
        over: npt.NDArray[np.bool_] = np.all(mask[:, :, WAIT] == 1, axis=1)
        infos: Infos = {"illegal_action": illegal}
        if over.any():
            ended = np.flatnonzero(over)
            infos["final_index"] = ended
            infos["final_observation"] = {"observation": obs[ended], "action_mask": mask[ended]}
            infos["final_scores"] = _scores(self._tables, ended)
            self._deal_seeds[ended] = self._seeds.next(ended, self._rounds)
            self._rounds[ended] += 1
            self._tables.deal(self._deal_seeds, over)
            obs, mask = self._tables.observe(obs=obs, mask=mask)
        infos["deal_seed"] = self._deal_seeds.copy()
        self._obs = {"observation": obs, "action_mask": mask}
        terminations = np.repeat(over[:, None], self.players, axis=1)
        truncations = np.zeros_like(terminations)
        return self._obs, rewards, terminations, truncations, infos

    @property
    def tables(self) -> "Tables":
        """The games' tables (for the house policies)."""
        return self._tables

    def close(self) -> None:
        """Nothing to release."""


class SeatVectorEnv(gymnasium.vector.VectorEnv[dict[str, Any], npt.NDArray[np.int64], Any]):
    """One learner ``seat`` in ``num_envs`` games against house policies computed for every
    game at once: ``opponents`` is ``"heuristic"`` (the ``heuristic`` bot's choices, in C),
    ``"random"`` (uniformly random legal actions from a SplitMix64 stream seeded by the
    env's seed, not the ``random`` bot's generator), or one of these per other seat.

    A step is one of the learner's decisions in every game, as :class:`arena.env.SeatEnv`:
    the house seats choose their cards on the position before anybody's choice and play in
    between; the reward is the learner's change of score since its previous decision (penalty
    points negative). Autoreset: same-step (module docstring), ``infos["final_obs"]`` and
    ``infos["_final_obs"]`` as Gymnasium's own vector envs give them. Game ``i`` deals as
    :class:`VectorEnv`'s; with ``heuristic`` opponents it is the game ``SeatEnv(variant,
    ["heuristic"] * (players - 1), seat, seed=S + i)`` plays with the same actions.

    The card game only (``heuristic`` and ``random`` there are the card game's rules).

    >>> env = SeatVectorEnv("classic", "heuristic", players=4, num_envs=16, seed=3)
    >>> obs, infos = env.reset()
    >>> obs["action_mask"].shape, env.action_space
    ((16, 432), MultiDiscrete([432 432 432 432 432 432 432 432 432 432 432 432 432 432 432 432]))
    >>> rng = np.random.default_rng(0)
    >>> actions = random_actions(obs["action_mask"], rng)
    >>> obs, reward, terminated, truncated, infos = env.step(actions)
    >>> reward.shape, terminated.any()
    ((16,), np.False_)
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        variant: str = "classic",
        opponents: str | Sequence[str] = "heuristic",
        players: int = 4,
        num_envs: int = 1024,
        seat: int = 0,
        seed: int | None = None,
    ) -> None:
        if variant != "classic":
            raise ValueError(f"variant {variant!r}: the house policies play the card game only")
        if not core_available():
            raise RuntimeError("the compiled core is not built: SeatVectorEnv needs it")
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat}: a table of {players} has seats 0..{players - 1}")
        others = [s for s in range(players) if s != seat]
        specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(others):
            raise ValueError(f"opponents: one per other seat ({len(others)}), not {len(specs)}")
        unknown = sorted(set(specs) - set(HOUSE_POLICIES))
        if unknown:
            raise ValueError(f"opponents {unknown}: choose from {', '.join(HOUSE_POLICIES)}")
        from arena.bots import _policies

        self._policies: Any = _policies
        self.opponents = tuple(specs)
        self._house = dict(zip(others, specs, strict=True))
        self.seat = seat
        self.players = players
        self.num_envs = num_envs
        self._env = VectorEnv(variant, players, num_envs, seed)
        self._gen = np.zeros(1, np.uint64)
        self.single_observation_space = observation_space()
        self.single_action_space = gymnasium.spaces.Discrete(ACTION_COUNT)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._house_actions = np.zeros((num_envs, players), np.int64)
        self._scratch = np.zeros((num_envs, players), np.int64)
        self._full: Observations = {}

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observations, Infos]:
        """Deal ``num_envs`` new games (seeds as :class:`VectorEnv`'s)."""
        if isinstance(seed, list):
            raise ValueError("seed: one int (game i deals seed + i), not a list")
        if seed is not None:
            self._gen[0] = np.uint64((int(seed) ^ 0x6E696D6D74) & _SEED_MASK)
        elif not self._full:
            self._gen[0] = np.uint64(secrets.randbits(64))
        obs, infos = self._env.reset(seed)
        self._full = obs
        return self._learner(obs), infos

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        Observations, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], Infos
    ]:
        if not self._full:
            raise RuntimeError("no game dealt yet: call reset() first")
        acts = np.asarray(actions, np.int64).reshape(self.num_envs)
        total = np.zeros(self.num_envs, np.float32)
        illegal = np.zeros(self.num_envs, bool)
        done = np.zeros(self.num_envs, bool)
        infos: Infos = {}
        learner = np.where((acts < 0) | (acts >= ACTION_COUNT), ACTION_COUNT, acts)
        learner_turn = True
        while True:
            full = self._house_choices()
            if learner_turn:
                full[:, self.seat] = learner
            else:  # only the games where the house still plays move
                asked = self._full["action_mask"][:, self.seat, WAIT] == 0
                full[asked | done] = -1
            obs, rewards, terminations, _, step_infos = self._env._advance(full)
            total += np.where(done, np.float32(0), rewards[:, self.seat])
            if learner_turn:
                illegal = step_infos["illegal_action"][:, self.seat].copy()
            ended = terminations[:, 0] & ~done
            if ended.any():
                self._record_final(infos, step_infos, ended)
            done |= ended
            self._full = obs
            learner_turn = False
            if not ((obs["action_mask"][:, self.seat, WAIT] == 1) & ~done).any():
                break
        infos["illegal_action"] = illegal
        infos["deal_seed"] = step_infos["deal_seed"]
        truncated = np.zeros(self.num_envs, bool)
        return self._learner(self._full), total, done, truncated, infos

    def _house_choices(self) -> npt.NDArray[np.int64]:
        """Every house seat's action in every game (the learner's column left to the caller)."""
        tables = self._env.tables
        assert isinstance(tables, ClassicTables)
        out = self._house_actions
        kinds = set(self._house.values())
        for kind in kinds:
            target = out if len(kinds) == 1 else self._scratch
            self._policies.classic_policy(tables.buffer, kind, 0.5, self._gen, _TAKE_ROW, target)
            if len(kinds) > 1:
                for s, k in self._house.items():
                    if k == kind:
                        out[:, s] = target[:, s]
        return out.copy()

    def _record_final(self, infos: Infos, step_infos: Infos, ended: npt.NDArray[np.bool_]) -> None:
        final = infos.setdefault("final_obs", np.full(self.num_envs, None, object))
        mask = infos.setdefault("_final_obs", np.zeros(self.num_envs, bool))
        scores = infos.setdefault("final_scores", np.zeros((self.num_envs, self.players), np.int64))
        index = step_infos["final_index"]
        last = step_infos["final_observation"]
        for k, i in enumerate(index):
            if ended[i]:
                final[i] = {
                    "observation": last["observation"][k, self.seat].copy(),
                    "action_mask": last["action_mask"][k, self.seat].copy(),
                }
                mask[i] = True
                scores[i] = step_infos["final_scores"][k]

    def _learner(self, obs: Observations) -> Observations:
        return {key: value[:, self.seat].copy() for key, value in obs.items()}

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""
