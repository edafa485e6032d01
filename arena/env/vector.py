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

Every variant runs on the compiled core (:mod:`arena.env.core`: placements, vectors and masks
in C); where the core is not built, the engine's ``Game`` plays, game by game (correct, the
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

from arena.bots.heuristic import Weights
from arena.engine.observation import Observation
from arena.engine.variants import variant as get_variant

from .actions import ACTION_COUNT, BLOCKS
from .aec import observation_space
from .core import OVER, TAKE_ROW, BoardTables, ClassicTables, core_available
from .encoding import action_mask, encode
from .features import OBSERVATION_SIZE
from .table import Table

try:
    from arena.bots import _policies
except ImportError:  # built without a C compiler: no batched house policies
    _policies = None  # type: ignore[assignment]

__all__ = ["HOUSE_POLICIES", "SeatVectorEnv", "VectorEnv", "house_actions", "random_actions"]

Observations = dict[str, npt.NDArray[Any]]
Infos = dict[str, Any]

#: The house policies :class:`SeatVectorEnv` seats, computed for every game at once.
HOUSE_POLICIES = ("heuristic", "random")

_TAKE_ROW = BLOCKS["take_row"].start
_SEED_MASK = (1 << 64) - 1
#: The house's random stream: the env's seed xor this ("nimmt").
_HOUSE_STREAM = 0x6E696D6D74
#: ``heuristic``'s weight of a row one card from the sixth (its default ``near``).
_NEAR = Weights().near


def _answers(actions: npt.ArrayLike, shape: tuple[int, ...]) -> npt.NDArray[np.int64]:
    """``actions`` as the asked seats' answers: an int array of ``shape`` (else a ValueError),
    a negative or too large action made the one illegal action the core plays a default for
    (an asked seat always answers here)."""
    acts = np.asarray(actions)
    if acts.shape != shape or not np.issubdtype(acts.dtype, np.integer):
        raise ValueError(f"actions: an int array of shape {shape}, not {acts.dtype} {acts.shape}")
    return np.where((acts < 0) | (acts >= ACTION_COUNT), ACTION_COUNT, acts).astype(np.int64)


def random_actions(mask: npt.NDArray[np.int8], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """A uniformly random legal action for every mask of ``mask`` (any leading shape)."""
    flat = mask.reshape(-1, mask.shape[-1]).astype(bool)
    keys = rng.random(flat.shape)
    keys[~flat] = -1.0
    chosen: npt.NDArray[np.int64] = keys.argmax(axis=1).reshape(mask.shape[:-1]).astype(np.int64)
    return chosen


def house_actions(
    tables: ClassicTables,
    policy: str = "heuristic",
    stream: npt.NDArray[np.uint64] | None = None,
    out: npt.NDArray[np.int64] | None = None,
) -> npt.NDArray[np.int64]:
    """What the house ``policy`` (one of :data:`HOUSE_POLICIES`) plays in every seat asked of
    every card-game table now, ``(count, players)`` (:data:`~arena.env.actions.WAIT` for a seat
    asked nothing), written into ``out`` when given. ``stream``: the random policy's generator
    (one uint64, advanced by every call; a new one from 0 if not given).

    >>> env = VectorEnv("classic", players=4, num_envs=2, seed=1)
    >>> _ = env.reset()
    >>> actions = house_actions(env.tables)
    >>> actions.shape, bool((actions > 0).all())
    ((2, 4), True)
    """
    if _policies is None:
        raise RuntimeError("the house policies are not built (arena.bots._policies)")
    if policy not in HOUSE_POLICIES:
        raise ValueError(f"policy {policy!r}: choose from {', '.join(HOUSE_POLICIES)}")
    if stream is None:
        stream = np.zeros(1, np.uint64)
    if out is None:
        out = np.zeros((tables.count, tables.players), np.int64)
    _policies.classic_policy(tables.buffer, policy, _NEAR, stream, _TAKE_ROW, out)
    return out


class _GameTables:
    """Where the core is not built: the same interface as :class:`ClassicTables`, one
    ``Game`` per table (the engine's rules and views, game by game)."""

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
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
        if rewards is None:
            rewards = np.empty((self.count, self.players), np.float32)
        illegal = np.zeros((self.count, self.players), bool)
        for i, table in enumerate(self._tables):
            answers = {s: int(actions[i, s]) for s in table.asked()}
            if any(a < 0 for a in answers.values()):  # a seat without an answer: wait
                answers = {}
            for seat in table.answer(answers) if answers else ():
                illegal[i, seat] = True
            rewards[i] = table.rewards()
        return rewards, illegal, actions

    def observe(
        self,
        seat: int = -1,
        obs: npt.NDArray[np.float32] | None = None,
        mask: npt.NDArray[np.int8] | None = None,
        which: npt.NDArray[np.bool_] | None = None,
        primed: bool = False,
        shown: npt.NDArray[np.uint8] | None = None,
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        seats = range(self.players) if seat < 0 else (seat,)
        shape = (self.count,) if seat >= 0 else (self.count, self.players)
        if obs is None:
            obs = np.empty((*shape, OBSERVATION_SIZE), np.float32)
        if mask is None:
            mask = np.empty((*shape, ACTION_COUNT), np.int8)
        for i, table in enumerate(self._tables):
            if which is not None and not which[i]:
                continue
            for s in seats:
                view: Observation = table.view(s)
                at = (i, s) if seat < 0 else (i,)
                obs[at] = encode(view)
                mask[at] = action_mask(view.legal)
        return obs, mask

    def status(self) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
        phase = np.array([1 if t.asked() else 0 for t in self._tables], np.int8)
        return phase, np.full(self.count, -1, np.int8)

    def scores(self) -> npt.NDArray[np.int64]:
        return np.array(
            [t.game.result().scores if t.game.is_over() else t.game.scores for t in self._tables],
            np.int64,
        )

    def observe_tables(
        self, index: npt.NDArray[np.intp], seat: int = -1
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        shape = (len(index),) if seat >= 0 else (len(index), self.players)
        obs = np.empty((*shape, OBSERVATION_SIZE), np.float32)
        mask = np.empty((*shape, ACTION_COUNT), np.int8)
        seats = range(self.players) if seat < 0 else (seat,)
        for k, i in enumerate(index):
            for s in seats:
                view: Observation = self._tables[i].view(s)
                at = (k, s) if seat < 0 else (k,)
                obs[at] = encode(view)
                mask[at] = action_mask(view.legal)
        return obs, mask

    def shown_buffer(self) -> None:
        """Nothing: every observation is written whole."""


Tables = ClassicTables | BoardTables | _GameTables


class _Batch:
    """``count`` games dealt, stepped, shown (every seat, or ``seat``'s only) and dealt again
    when they end; the seeds as the module docstring says. Observations are written into the
    same arrays every step."""

    def __init__(self, variant: str, players: int, count: int, seed: int | None, seat: int):
        get_variant(variant).check_players(players)
        self.tables: Tables
        if not core_available():
            self.tables = _GameTables(variant, players, count)
        elif variant == "classic":
            self.tables = ClassicTables(players, count)
        else:
            self.tables = BoardTables(variant, players, count)
        self.players = players
        self.count = count
        self.seat = seat
        self._base: int | None = seed
        self._rounds = np.zeros(count, np.int64)
        self.deal_seeds = np.zeros(count, np.uint64)
        shape = (count,) if seat >= 0 else (count, players)
        self.obs = np.zeros((*shape, OBSERVATION_SIZE), np.float32)
        self.mask = np.zeros((*shape, ACTION_COUNT), np.int8)
        # the tables as obs and mask show them: a step writes only what changed
        self._shown = self.tables.shown_buffer()

    def reset(self, seed: int | None) -> None:
        if seed is not None:
            self._base = int(seed)
        elif self._base is None:
            self._base = secrets.randbits(63)
        else:  # without a seed: on after the furthest round dealt
            self._base += int(self._rounds.max()) * self.count
        self._rounds[:] = 1
        self.deal_seeds = self._seeds(np.arange(self.count))
        self.tables.deal(self.deal_seeds)
        self.tables.observe(self.seat, self.obs, self.mask, shown=self._shown)  # written whole

    def _seeds(self, offsets: npt.NDArray[Any]) -> npt.NDArray[np.uint64]:
        """``base + offset`` modulo 2**64 (Game.new takes a seed so)."""
        assert self._base is not None
        return np.uint64(self._base & _SEED_MASK) + offsets.astype(np.uint64)

    def advance(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], Infos]:
        """One step (``-1``: no answer, that game waits): rewards, illegal actions, the games
        that ended (dealt again), and their last observation and scores."""
        rewards, illegal, _ = self.tables.step(actions)
        phase, _ = self.tables.status()
        over: npt.NDArray[np.bool_] = phase == OVER
        infos: Infos = {}
        if over.any():
            ended = np.flatnonzero(over)
            last_obs, last_mask = self.tables.observe_tables(ended, self.seat)
            infos["final_index"] = ended
            infos["final_observation"] = {"observation": last_obs, "action_mask": last_mask}
            infos["final_scores"] = self.tables.scores()[ended]
            self.deal_seeds[ended] = self._seeds(ended + self._rounds[ended] * self.count)
            self._rounds[ended] += 1
            self.tables.deal(self.deal_seeds, over)
        self.tables.observe(self.seat, self.obs, self.mask, primed=True, shown=self._shown)
        return rewards, illegal, over, infos

    def observations(self, copy: bool) -> Observations:
        """Copies, or read-only views of the arrays the next step writes (the core clears only
        what it wrote, so nobody else may write into them)."""
        if copy:
            return {"observation": self.obs.copy(), "action_mask": self.mask.copy()}
        obs, mask = self.obs.view(), self.mask.view()
        obs.flags.writeable = False
        mask.flags.writeable = False
        return {"observation": obs, "action_mask": mask}


class VectorEnv:
    """``num_envs`` games of ``variant`` for ``players`` seats, every seat acting per step (see
    the module docstring). ``copy=False`` returns the same observation arrays every step,
    overwritten by the next (faster; copy what you keep), as Gymnasium's vector envs do."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        variant: str = "classic",
        players: int = 4,
        num_envs: int = 1024,
        seed: int | None = None,
        copy: bool = True,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs {num_envs}: at least one game")
        self.variant = variant
        self.players = players
        self.num_envs = num_envs
        self.copy = copy
        self._batch = _Batch(variant, players, num_envs, seed, -1)
        self.single_observation_space = observation_space()
        self.single_action_space = gymnasium.spaces.Discrete(ACTION_COUNT)
        self._dealt = False

    @property
    def tables(self) -> Tables:
        """The games' tables (hidden information included: never for a policy)."""
        return self._batch.tables

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observations, Infos]:
        """Deal ``num_envs`` new games: ``seed + i``, or the next seeds (module docstring)."""
        self._batch.reset(seed)
        self._dealt = True
        return self._batch.observations(self.copy), {"deal_seed": self._batch.deal_seeds.copy()}

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
        if not self._dealt:
            raise RuntimeError("no game dealt yet: call reset() first")
        acts = _answers(actions, (self.num_envs, self.players))
        rewards, illegal, over, infos = self._batch.advance(acts)
        infos["illegal_action"] = illegal
        infos["deal_seed"] = self._batch.deal_seeds.copy()
        terminations = np.repeat(over[:, None], self.players, axis=1)
        truncations = np.zeros_like(terminations)
        return self._batch.observations(self.copy), rewards, terminations, truncations, infos

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
    ``infos["_final_obs"]`` as Gymnasium's own vector envs give them, and the ended games'
    ``infos["final_scores"]``. Game ``i`` deals as :class:`VectorEnv`'s; with ``heuristic``
    opponents it is the game ``SeatEnv(variant, ["heuristic"] * (players - 1), seat,
    seed=S + i)`` plays with the same actions. ``copy=False``: as :class:`VectorEnv`'s.

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
        copy: bool = True,
    ) -> None:
        if variant != "classic":
            raise ValueError(f"variant {variant!r}: the house policies play the card game only")
        if not core_available() or _policies is None:
            raise RuntimeError("the compiled core is not built: SeatVectorEnv needs it")
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat}: a table of {players} has seats 0..{players - 1}")
        if num_envs < 1:
            raise ValueError(f"num_envs {num_envs}: at least one game")
        others = [s for s in range(players) if s != seat]
        specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(others):
            raise ValueError(f"opponents: one per other seat ({len(others)}), not {len(specs)}")
        unknown = sorted(set(specs) - set(HOUSE_POLICIES))
        if unknown:
            raise ValueError(f"opponents {unknown}: choose from {', '.join(HOUSE_POLICIES)}")
        self.opponents = tuple(specs)
        self._house = dict(zip(others, specs, strict=True))
        self.seat = seat
        self.players = players
        self.num_envs = num_envs
        self.copy = copy
        self._batch = _Batch(variant, players, num_envs, seed, seat)
        self._seeded = seed is not None
        self._gen = np.zeros(1, np.uint64)
        if seed is not None:
            self._gen[0] = np.uint64((int(seed) ^ _HOUSE_STREAM) & _SEED_MASK)
        self.single_observation_space = observation_space()
        self.single_action_space = gymnasium.spaces.Discrete(ACTION_COUNT)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._house_actions = np.zeros((num_envs, players), np.int64)
        self._scratch = np.zeros((num_envs, players), np.int64)
        self._dealt = False

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observations, Infos]:
        """Deal ``num_envs`` new games (seeds as :class:`VectorEnv`'s)."""
        if isinstance(seed, list):
            raise ValueError("seed: one int (game i deals seed + i), not a list")
        if seed is not None:
            self._gen[0] = np.uint64((int(seed) ^ _HOUSE_STREAM) & _SEED_MASK)
        elif not self._seeded and not self._dealt:
            self._gen[0] = np.uint64(secrets.randbits(64))
        self._batch.reset(seed)
        self._dealt = True
        return self._batch.observations(self.copy), {"deal_seed": self._batch.deal_seeds.copy()}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        Observations,
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        Infos,
    ]:
        if not self._dealt:
            raise RuntimeError("no game dealt yet: call reset() first")
        learner = _answers(actions, (self.num_envs,))
        total = np.zeros(self.num_envs, np.float32)
        done = np.zeros(self.num_envs, bool)
        infos: Infos = {}
        full = self._house_choices()
        full[:, self.seat] = learner
        rewards, illegal, over, step_infos = self._batch.advance(full)
        total += rewards[:, self.seat]
        infos["illegal_action"] = illegal[:, self.seat].copy()
        self._record_final(infos, step_infos, over)
        done |= over
        while True:  # the house plays on where the learner is not asked
            phase, asked = self._batch.tables.status()
            house = (phase == TAKE_ROW) & (asked != self.seat) & ~done
            if not house.any():
                break
            full = self._house_choices()
            full[~house] = -1
            rewards, _, over, step_infos = self._batch.advance(full)
            total += np.where(done, np.float32(0), rewards[:, self.seat])
            self._record_final(infos, step_infos, over & ~done)
            done |= over
        infos["deal_seed"] = self._batch.deal_seeds.copy()
        truncated = np.zeros(self.num_envs, bool)
        return self._batch.observations(self.copy), total, done, truncated, infos

    def _house_choices(self) -> npt.NDArray[np.int64]:
        """Every house seat's action in every game (the learner's column left to the caller)."""
        tables = self._batch.tables
        assert isinstance(tables, ClassicTables)
        out = self._house_actions
        kinds = set(self._house.values())
        for kind in kinds:
            target = out if len(kinds) == 1 else self._scratch
            house_actions(tables, kind, self._gen, target)
            if len(kinds) > 1:
                for s, k in self._house.items():
                    if k == kind:
                        out[:, s] = target[:, s]
        return out.copy()

    def _record_final(self, infos: Infos, step_infos: Infos, ended: npt.NDArray[np.bool_]) -> None:
        if not ended.any():
            return
        final = infos.setdefault("final_obs", np.full(self.num_envs, None, object))
        mask = infos.setdefault("_final_obs", np.zeros(self.num_envs, bool))
        scores = infos.setdefault("final_scores", np.zeros((self.num_envs, self.players), np.int64))
        last = step_infos["final_observation"]
        for k, i in enumerate(step_infos["final_index"]):
            if ended[i]:
                final[i] = {
                    "observation": last["observation"][k],
                    "action_mask": last["action_mask"][k],
                }
                mask[i] = True
                scores[i] = step_infos["final_scores"][k]

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""
