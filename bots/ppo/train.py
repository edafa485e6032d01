"""Train the ``ppo`` bot: proximal policy optimisation (PPO) of a per-option scoring network over
the vector env.

    python bots/ppo/train.py --seed 1 --games 256 --iterations 500 --lr 3e-4 --ent-coef 0.01 \
        --out bots/ppo/weights.npz --clone-out bots/ppo/clone.npz
    python bots/ppo/train.py --seed 1 --iterations 3 --games 16 --clone-games 20 --out W.npz

CleanRL's single-file PPO (Huang et al. 2022, ``ppo.py``) adapted to a game whose legal options
change every decision: the policy is a *masked categorical over the legal options*, each option
scored by one small network from what it does as the seat can tell
(:func:`arena.bots.options.option_inputs`, the ``distilled`` bot's 78 inputs), so the network
that scores a tile is the same whatever the tile's number. The critic sees the mean and the
maximum of the options' inputs.

**Games.** The card game (``classic``) at 4 players on :class:`arena.env.SeatVectorEnv`:
``--games`` games at once, a quarter of them with the learner in each seat (one env per seat),
the batched house policy ``--opponents`` in the others (``heuristic`` by default; ``random``;
or a comma-separated list, the ``k``-th other seat playing entry ``k mod n``). The option inputs
come from the learner's observation vector and mask (:func:`arena.env.options.read_options`,
number for number what the bot computes from its view). As CleanRL's rollouts, the games play on
across iterations (same-step autoreset): an iteration is ``--steps`` of the learner's decisions
in every game, and the critic's value of the position after the last one stands for the rest of
a game under way. The env of seat ``s`` deals from ``seed * 1_000_003 + s * 100_000_000`` on
(game ``i`` of ``n`` deals that plus ``i``, then ``i + n``, ...).

**Reward.** After each of the learner's decisions the change of its margin: minus its penalty
points plus the mean of the others' (in tens), until its next decision; a game's rewards add up
to its final margin over the table, the figure the duplicate strength test measures. No
discount (``gamma = 1``), GAE with ``lambda = 0.95``. A decision with one option (the last tile
of a hand) is a step like the others but is left out of the update: there is nothing to learn.

**Warm start (behaviour cloning).** Before PPO the policy imitates ``heuristic``:
``--clone-games`` games with ``heuristic`` in every seat on :class:`arena.env.VectorEnv` (the
batched policy, :func:`arena.env.vector.house_actions`, answers and gives the labels; game ``g``
deals ``seed * 1_000_003 + 900_000_000 + g``), every seat's decision with a choice a label,
``--clone-epochs`` of cross-entropy over each decision's options. The clone is written beside
the result (``--clone-out``) so that the reinforcement learning's gain over it can be measured.
Then the critic alone learns for ``--critic-warmup`` iterations (an untrained critic would
push the clone anywhere), then both.

**Reproducible.** One thread, seeded torch and numpy: the same command gives the same weights.
Every ``--eval-every`` iterations the greedy policy plays ``--eval-games`` games against
``heuristic`` (a quarter in each seat, deals from ``(seed + 7) * 1_000_003``, not training
deals) and prints its margin over the table less ``heuristic``'s in the same seat of the same
deal (paired, with a 95% interval); the weights written are those of the last iteration
(``--checkpoints DIR`` keeps those of each evaluation too: the weights after iteration ``N``
are what ``--iterations N`` writes).

The weights are written as float16 arrays ``w0, b0, ...`` of the policy alone, what the bot's
plain-Python inference reads (:func:`arena.bots.options.read_weights`).
"""

import argparse
import itertools
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from arena.bots.options import INPUT_SIZE
from arena.env.core import ClassicTables
from arena.env.options import MAX_OPTIONS, Options, read_options
from arena.env.vector import SeatVectorEnv, VectorEnv, house_actions

VARIANT = "classic"
PLAYERS = 4
#: Rewards in tens of penalty points.
SCALE = 10.0
#: How far apart the deals of the envs of different seats start.
SEAT_DEALS = 100_000_000
#: The most games the warm start plays at once.
CLONE_BATCH = 256


def mlp(sizes: list[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for i, (a, b) in enumerate(itertools.pairwise(sizes)):
        layers.append(nn.Linear(a, b))
        if i < len(sizes) - 2:
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


class Agent(nn.Module):
    """The actor (a score per option) and the critic (a value per decision)."""

    def __init__(self, hidden: list[int]) -> None:
        super().__init__()
        self.actor = mlp([INPUT_SIZE, *hidden, 1])
        self.critic = mlp([2 * INPUT_SIZE, 64, 64, 1])

    def logits(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """``x`` (decisions, options, inputs), ``mask`` (decisions, options): masked scores."""
        scores = self.actor(x).squeeze(-1)
        return scores.masked_fill(~mask, -1e9)

    def value(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        m = mask.unsqueeze(-1).float()
        mean = (x * m).sum(1) / m.sum(1)
        top = x.masked_fill(~mask.unsqueeze(-1), -1e9).max(1).values
        return self.critic(torch.cat([mean, top], -1)).squeeze(-1)


def tensors(options: Options) -> tuple[torch.Tensor, torch.Tensor]:
    """The options' inputs (float32) and which of them are legal, as the agent takes them."""
    x = torch.from_numpy(options.inputs.astype(np.float32))
    mask = torch.arange(MAX_OPTIONS)[None, :] < torch.from_numpy(options.counts)[:, None]
    return x, mask


def margin(scores: npt.ArrayLike, seat: int) -> float:
    """The seat's margin over the table: the others' mean penalty less its own, in tens."""
    points = np.asarray(scores, np.float64)
    others = np.delete(points, seat)
    return float((others.sum() / len(others) - points[seat]) / SCALE)


class Seats:
    """The learner in ``games`` card games at once, a quarter of them in each seat (one
    :class:`SeatVectorEnv` per seat), the games of seat ``s`` dealt from ``deals + s *
    SEAT_DEALS`` on. :attr:`options` are the learner's options now, in every game."""

    def __init__(self, games: int, opponents: list[str], deals: int) -> None:
        if games < PLAYERS or games % PLAYERS:
            raise ValueError(f"{games} games: a multiple of {PLAYERS} (a quarter in each seat)")
        self.per_seat = games // PLAYERS
        self.envs = [
            SeatVectorEnv(
                VARIANT,
                [opponents[k % len(opponents)] for k in range(PLAYERS - 1)],
                PLAYERS,
                self.per_seat,
                seat=seat,
                seed=deals + seat * SEAT_DEALS,
            )
            for seat in range(PLAYERS)
        ]
        self.options = self._read([env.reset()[0] for env in self.envs])

    @staticmethod
    def _read(observations: list[dict[str, Any]]) -> Options:
        return read_options(
            np.concatenate([o["observation"] for o in observations]),
            np.concatenate([o["action_mask"] for o in observations]),
        )

    def step(self, choices: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Play option ``choices[g]`` in game ``g``: the learner's rewards (its change of
        margin, in tens), which games ended, and their final margins (NaN for the others)."""
        before = -self.options.margin / SCALE
        actions = self.options.actions[np.arange(len(choices)), choices]
        observations = []
        done = np.zeros(len(choices), bool)
        final = np.full(len(choices), np.nan)
        for k, env in enumerate(self.envs):
            part = slice(k * self.per_seat, (k + 1) * self.per_seat)
            obs, _, terminated, _, infos = env.step(actions[part])
            observations.append(obs)
            done[part] = terminated
            for i in np.flatnonzero(terminated):
                final[part.start + i] = margin(infos["final_scores"][i], env.seat)
        self.options = self._read(observations)
        # a game that ended: its final margin; the next one starts level
        after = np.where(done, final, -self.options.margin / SCALE)
        return after - before, done, final


@dataclass
class Rollout:
    """``steps`` of the learner's decisions in ``games`` games, arrays ``(steps, games, ...)``;
    ``next_value`` is the critic's value of the positions after the last step."""

    x: torch.Tensor
    count: np.ndarray
    action: np.ndarray
    logp: np.ndarray
    value: np.ndarray
    reward: np.ndarray
    done: np.ndarray
    final: np.ndarray  # the final margin where a game ended (NaN elsewhere)
    next_value: np.ndarray


def collect(agent: Agent, seats: Seats, steps: int) -> Rollout:
    """``steps`` decisions in every game of ``seats``, sampled from the policy."""
    xs, counts, actions, logps, values, rewards, dones, finals = ([] for _ in range(8))
    for _ in range(steps):
        x, mask = tensors(seats.options)
        with torch.no_grad():
            dist = torch.distributions.Categorical(logits=agent.logits(x, mask))
            choice = dist.sample()
            logps.append(dist.log_prob(choice).numpy())
            values.append(agent.value(x, mask).numpy())
        xs.append(x)
        counts.append(seats.options.counts)
        actions.append(choice.numpy())
        reward, done, final = seats.step(choice.numpy())
        rewards.append(reward)
        dones.append(done)
        finals.append(final)
    with torch.no_grad():
        next_value = agent.value(*tensors(seats.options)).numpy()
    return Rollout(
        torch.stack(xs),
        np.stack(counts),
        np.stack(actions),
        np.stack(logps),
        np.stack(values),
        np.stack(rewards).astype(np.float32),
        np.stack(dones),
        np.stack(finals),
        next_value,
    )


def demonstrations(args: argparse.Namespace) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``heuristic``'s decisions with a choice in ``--clone-games`` games with it in every seat:
    their options' inputs, which options are legal, and the option it chose."""
    xs: list[np.ndarray] = []
    counts: list[np.ndarray] = []
    labels: list[np.ndarray] = []
    for first in range(0, args.clone_games, CLONE_BATCH):
        games = min(CLONE_BATCH, args.clone_games - first)
        env = VectorEnv(VARIANT, PLAYERS, games, seed=args.seed * 1_000_003 + 900_000_000 + first)
        obs, _ = env.reset()
        tables = env.tables
        assert isinstance(tables, ClassicTables)
        playing = np.ones(games, bool)  # each game's first deal only
        while playing.any():
            chosen = house_actions(tables)
            options = read_options(
                obs["observation"].reshape(games * PLAYERS, -1),
                obs["action_mask"].reshape(games * PLAYERS, -1),
            )
            keep = (options.counts > 1) & np.repeat(playing, PLAYERS)
            xs.append(options.inputs[keep].astype(np.float32))
            counts.append(options.counts[keep])
            labels.append((options.actions == chosen.reshape(-1, 1)).argmax(1)[keep])
            obs, _, terminated, _, _ = env.step(chosen)
            playing &= ~terminated[:, 0]
    x = torch.from_numpy(np.concatenate(xs))
    mask = torch.arange(MAX_OPTIONS)[None, :] < torch.from_numpy(np.concatenate(counts))[:, None]
    return x, mask, torch.from_numpy(np.concatenate(labels))


def clone(agent: Agent, args: argparse.Namespace, rng: np.random.Generator) -> None:
    """Behaviour cloning of ``heuristic`` (see the module docstring)."""
    x, mask, y = demonstrations(args)
    optimizer = torch.optim.Adam(agent.actor.parameters(), lr=1e-3)
    n = len(y)
    for epoch in range(args.clone_epochs):
        order = torch.from_numpy(rng.permutation(n))
        total = 0.0
        for first in range(0, n, 256):
            idx = order[first : first + 256]
            loss = nn.functional.cross_entropy(agent.logits(x[idx], mask[idx]), y[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += float(loss.detach()) * len(idx)
        with torch.no_grad():
            agree = float((agent.logits(x, mask).argmax(1) == y).float().mean())
        print(
            f"clone epoch {epoch + 1}: {n} decisions, loss {total / n:.3f}, "
            f"agreement with heuristic {agree:.3f}",
            flush=True,
        )


def evaluation_deals(args: argparse.Namespace) -> int:
    """Where the evaluation's deals start (never a training deal)."""
    return int((args.seed + 7) * 1_000_003)


def heuristic_margins(args: argparse.Namespace) -> np.ndarray:
    """``heuristic``'s final margin (penalty points) in the learner's seat of every evaluation
    game, in the order :func:`evaluate` plays them: the same deals with ``heuristic`` in every
    seat."""
    per_seat = args.eval_games // PLAYERS
    margins = np.full((PLAYERS, per_seat), np.nan)
    for seat in range(PLAYERS):
        env = VectorEnv(VARIANT, PLAYERS, per_seat, seed=evaluation_deals(args) + seat * SEAT_DEALS)
        env.reset()
        tables = env.tables
        assert isinstance(tables, ClassicTables)
        while np.isnan(margins[seat]).any():
            *_, infos = env.step(house_actions(tables))
            for k, game in enumerate(infos.get("final_index", ())):
                if np.isnan(margins[seat, game]):  # each game's first deal only
                    margins[seat, game] = margin(infos["final_scores"][k], seat) * SCALE
    return margins.reshape(-1)


def evaluate(agent: Agent, args: argparse.Namespace, baseline: np.ndarray) -> tuple[float, float]:
    """The greedy policy's margin over the table less ``heuristic``'s (``baseline``) in the
    same seat of the same deals (penalty points), with a 95% half width; a quarter of the
    evaluation games in each seat."""
    seats = Seats(args.eval_games, ["heuristic"], evaluation_deals(args))
    margins = np.full(args.eval_games, np.nan)
    while np.isnan(margins).any():
        x, mask = tensors(seats.options)
        with torch.no_grad():
            choice = agent.logits(x, mask).argmax(1).numpy()
        _, done, final = seats.step(choice)
        first = done & np.isnan(margins)  # each game's first deal only
        margins[first] = final[first] * SCALE
    paired = margins - baseline
    half = 1.96 * float(np.std(paired, ddof=1)) / np.sqrt(len(paired))
    return float(np.mean(paired)), half


def advantages(
    reward: np.ndarray,
    value: np.ndarray,
    done: np.ndarray,
    next_value: np.ndarray,
    gamma: float,
    lam: float,
) -> tuple[np.ndarray, np.ndarray]:
    """GAE over ``(steps, games)`` arrays, as CleanRL's: a game's advantages stop at its end
    (``done``), and after the last step the critic's ``next_value`` stands for the rest."""
    adv = np.zeros_like(value, np.float32)
    running = np.zeros(value.shape[1:], np.float32)
    for t in range(len(reward) - 1, -1, -1):
        following = next_value if t == len(reward) - 1 else value[t + 1]
        going = 1.0 - done[t]
        delta = reward[t] + gamma * following * going - value[t]
        running = delta + gamma * lam * going * running
        adv[t] = running
    return adv, adv + value


def update(
    agent: Agent,
    optimizer: torch.optim.Optimizer,
    rollout: Rollout,
    args: argparse.Namespace,
    rng: np.random.Generator,
    actor: bool,
) -> dict[str, float]:
    adv_np, ret_np = advantages(
        rollout.reward, rollout.value, rollout.done, rollout.next_value, 1.0, args.gae_lambda
    )
    # the decisions with a choice: a single option has nothing to learn
    keep = torch.from_numpy(np.flatnonzero(rollout.count.reshape(-1) > 1))
    x = rollout.x.reshape(-1, MAX_OPTIONS, INPUT_SIZE)[keep]
    count = torch.from_numpy(rollout.count.reshape(-1))[keep]
    mask = torch.arange(MAX_OPTIONS)[None, :] < count[:, None]
    adv = torch.from_numpy(adv_np.reshape(-1))[keep]
    ret = torch.from_numpy(ret_np.reshape(-1))[keep]
    action = torch.from_numpy(rollout.action.reshape(-1))[keep]
    old_logp = torch.from_numpy(rollout.logp.reshape(-1))[keep]
    n = len(action)
    stats: dict[str, float] = {}
    for _ in range(args.update_epochs):
        # equal minibatches (a remainder of one decision would normalise to NaN)
        for part in np.array_split(rng.permutation(n), args.minibatches):
            if len(part) < 2:
                continue
            idx = torch.from_numpy(part)
            dist = torch.distributions.Categorical(logits=agent.logits(x[idx], mask[idx]))
            logp = dist.log_prob(action[idx])
            ratio = (logp - old_logp[idx]).exp()
            a = adv[idx]
            a = (a - a.mean()) / (a.std() + 1e-8)
            pg = torch.max(-a * ratio, -a * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
            entropy = dist.entropy().mean()
            v_loss = 0.5 * ((agent.value(x[idx], mask[idx]) - ret[idx]) ** 2).mean()
            loss = args.vf_coef * v_loss
            if actor:
                loss = loss + pg - args.ent_coef * entropy
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
            optimizer.step()
            with torch.no_grad():
                stats = {
                    "policy": float(pg),
                    "value": float(v_loss),
                    "entropy": float(entropy),
                    "kl": float((old_logp[idx] - logp).mean()),
                }
    return stats


def save(agent: Agent, path: Path) -> None:
    """The actor's layers as float16 ``w0, b0, w1, b1, ...`` (inputs by rows)."""
    arrays: dict[str, Any] = {}
    linears = [m for m in agent.actor if isinstance(m, nn.Linear)]
    for i, layer in enumerate(linears):
        arrays[f"w{i}"] = np.ascontiguousarray(layer.weight.detach().numpy().T, np.float16)
        arrays[f"b{i}"] = layer.bias.detach().numpy().astype(np.float16)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        np.savez_compressed(f, **arrays)


def train(args: argparse.Namespace) -> Agent:
    if args.iterations <= 0 and args.minutes <= 0:
        raise ValueError("say when to stop: --iterations N or --minutes M")
    if args.eval_games and (args.eval_games < PLAYERS or args.eval_games % PLAYERS):
        raise ValueError(f"--eval-games {args.eval_games}: a multiple of {PLAYERS}")
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    agent = Agent(args.hidden)
    start = time.time()
    # an unknown house policy or a bad count of games fails here, not after the warm start
    seats = Seats(args.games, args.opponents.split(","), args.seed * 1_000_003)
    baseline = heuristic_margins(args) if args.eval_games else np.zeros(0)
    if args.clone_games:
        clone(agent, args, rng)
        if args.clone_out:
            save(agent, Path(args.clone_out))
        if args.eval_games:
            mean, half = evaluate(agent, args, baseline)
            print(f"clone: paired margin over heuristic {mean:+.2f} ± {half:.2f}", flush=True)
        print(f"warm start: {time.time() - start:.0f} s", flush=True)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    iteration = 0
    playing = 0.0  # seconds in the games (rollouts), not in updates or evaluations
    while True:
        if args.iterations and iteration >= args.iterations:
            break
        if args.minutes and time.time() - start >= args.minutes * 60:
            break
        began = time.time()
        rollout = collect(agent, seats, args.steps)
        playing += time.time() - began
        stats = update(agent, optimizer, rollout, args, rng, iteration >= args.critic_warmup)
        iteration += 1
        ended = rollout.final[rollout.done] * SCALE
        sampled = f"{np.mean(ended):+.2f}" if len(ended) else "-"
        print(
            f"iteration {iteration}: {int((rollout.count > 1).sum())} decisions, "
            f"{len(ended)} games ended, sampled margin {sampled}, "
            + ", ".join(f"{k} {v:.4f}" for k, v in stats.items())
            + f", {time.time() - start:.0f} s",
            flush=True,
        )
        if args.eval_games and iteration % args.eval_every == 0:
            mean, half = evaluate(agent, args, baseline)
            print(f"evaluation: paired margin over heuristic {mean:+.2f} ± {half:.2f}", flush=True)
            if args.checkpoints:
                save(agent, Path(args.checkpoints) / f"iteration-{iteration:04}.npz")
    save(agent, Path(args.out))
    steps = iteration * args.steps * args.games
    print(
        f"wrote {args.out} after {iteration} iterations, {time.time() - start:.0f} s wall time; "
        f"{steps} learner steps in {playing:.0f} s of play ({steps / max(playing, 1e-9):.0f}/s)"
    )
    return agent


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True)
    p.add_argument("--minutes", type=float, default=0.0, help="stop after this wall time")
    p.add_argument("--iterations", type=int, default=0, help="stop after this many (0: no limit)")
    p.add_argument("--games", type=int, default=128, help="games at once (a multiple of 4)")
    p.add_argument("--steps", type=int, default=12, help="learner decisions per game and iteration")
    p.add_argument(
        "--opponents",
        default="heuristic",
        help="house policies (heuristic, random), comma separated",
    )
    p.add_argument("--hidden", type=int, nargs="+", default=[64, 32])
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--update-epochs", type=int, default=4)
    p.add_argument("--minibatches", type=int, default=4)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.003)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--clone-games", type=int, default=2000)
    p.add_argument("--clone-epochs", type=int, default=10)
    p.add_argument("--clone-out", default="")
    p.add_argument("--critic-warmup", type=int, default=5)
    p.add_argument("--eval-every", type=int, default=20)
    p.add_argument("--eval-games", type=int, default=2000)
    p.add_argument("--checkpoints", default="", help="a folder for the weights at each evaluation")
    return p


if __name__ == "__main__":
    try:
        train(parser().parse_args())
    except ValueError as error:
        sys.exit(f"train.py: {error}")
