"""Train the ``ppo`` bot: proximal policy optimisation (PPO) of a per-option scoring network.

    python bots/ppo/train.py --seed 1 --minutes 40 --out bots/ppo/weights.npz
    python bots/ppo/train.py --seed 1 --iterations 3 --games 16 --clone-games 20 --out W.npz

CleanRL's single-file PPO (Huang et al. 2022, ``ppo.py``) adapted to a game whose legal options
change every decision: the policy is a *masked categorical over the legal options*, each option
scored by one small network from what it does as the seat can tell
(:func:`arena.bots.options.option_inputs`, the ``distilled`` bot's 78 inputs), so the network
that scores a tile is the same whatever the tile's number. The critic sees the mean and the
maximum of the options' inputs.

**Games.** The card game (``classic``) at 4 players: the learner in seat ``game mod 4``, the
``--opponents`` house bots in the others (one spec drawn per seat and game: ``heuristic`` by
default), dealt from ``--seed`` (game ``g`` of iteration ``i`` is deal
``seed * 1_000_003 + i * games + g``), played as :func:`arena.local.play_game` plays them (a
seat choosing a tile sees the position before anybody's choice).

**Reward.** After each of the learner's decisions (those with a choice) the change of its
margin: minus its penalty points plus the mean of the others' (in tens), until its next
decision; a game's rewards add up to its final margin over the table, the figure the duplicate
strength test measures. No discount (``gamma = 1``), GAE with ``lambda = 0.95``.

**Warm start (behaviour cloning).** Before PPO the policy imitates ``heuristic``: ``--clone-games``
games with ``heuristic`` in every seat, every seat's decision with a choice a label,
``--clone-epochs`` of cross-entropy over each decision's options. The clone is written beside
the result (``--clone-out``) so that the reinforcement learning's gain over it can be measured.
Then the critic alone learns for ``--critic-warmup`` iterations (an untrained critic would
push the clone anywhere), then both.

**Reproducible.** One thread, seeded torch and numpy: the same command gives the same weights.
Every ``--eval-every`` iterations the greedy policy plays ``--eval-games`` games against
``heuristic`` (deals from seed ``seed + 7``, not the training deals) and prints its mean margin;
the weights written are those of the last iteration (``--checkpoints DIR`` keeps those of each
evaluation too: the weights after iteration ``N`` are what ``--iterations N`` writes).

The weights are written as float16 arrays ``w0, b0, ...`` of the policy alone, what the bot's
plain-Python inference reads (:func:`arena.bots.options.read_weights`).
"""

import argparse
import itertools
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from arena.bots.base import Bot, GameInfo
from arena.bots.options import INPUT_SIZE, Table, option_inputs
from arena.bots.registry import make_bot
from arena.engine.decisions import Decision
from arena.engine.game import Game
from arena.engine.observation import Observation, observe
from arena.local import bot_seed

VARIANT = "classic"
PLAYERS = 4
#: The most legal options a card-game decision has (a hand of ten tiles).
MAX_OPTIONS = 10
#: Rewards in tens of penalty points.
SCALE = 10.0


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


def option_matrix(view: Observation) -> np.ndarray:
    """The inputs of the view's legal options, padded to :data:`MAX_OPTIONS` rows."""
    table = Table(view)
    x = np.zeros((MAX_OPTIONS, INPUT_SIZE), np.float32)
    x[: len(view.legal)] = [option_inputs(table, d) for d in view.legal]
    return x


@dataclass
class Batch:
    """The learner's decisions with a choice, in order of play."""

    x: list[np.ndarray] = field(default_factory=list)
    count: list[int] = field(default_factory=list)
    action: list[int] = field(default_factory=list)
    logp: list[float] = field(default_factory=list)
    value: list[float] = field(default_factory=list)
    reward: list[float] = field(default_factory=list)
    last: list[bool] = field(default_factory=list)  # the game's last decision with a choice

    def tensors(self) -> tuple[torch.Tensor, torch.Tensor]:
        x = torch.from_numpy(np.stack(self.x))
        mask = torch.arange(MAX_OPTIONS)[None, :] < torch.tensor(self.count)[:, None]
        return x, mask


def margin(scores: tuple[int, ...] | list[int], seat: int) -> float:
    """The seat's margin over the table: the others' mean penalty less its own, in tens."""
    others = [scores[s] for s in range(len(scores)) if s != seat]
    return (sum(others) / len(others) - scores[seat]) / SCALE


def play(
    agent: Agent, deal: int, seat: int, opponents: list[str], batch: Batch | None, greedy: bool
) -> float:
    """One game, the learner at ``seat``; its decisions go to ``batch``; its final margin."""
    game = Game.new(VARIANT, PLAYERS, deal)
    bots: dict[int, Bot] = {}
    for s in range(PLAYERS):
        if s != seat:
            bots[s] = make_bot(opponents[(deal + s) % len(opponents)])
            bots[s].start_game(GameInfo(VARIANT, PLAYERS, s, bot_seed(deal, 0, s)))
    before = margin(game.scores, seat)
    recorded = False
    while (pending := game.pending) is not None:
        views = [observe(game, s) for s in pending.seats]
        moves: list[Decision] = []
        for view in views:
            if view.seat != seat:
                moves.append(bots[view.seat].decide(view))
                continue
            legal = list(view.legal)
            if len(legal) == 1:
                moves.append(legal[0])
                continue
            x = option_matrix(view)
            xt = torch.from_numpy(x)[None]
            mask = (torch.arange(MAX_OPTIONS) < len(legal))[None]
            with torch.no_grad():
                logits = agent.logits(xt, mask)[0]
                dist = torch.distributions.Categorical(logits=logits)
                a = int(logits.argmax()) if greedy else int(dist.sample())
                if batch is not None:
                    now = margin(game.scores, seat)
                    if recorded:
                        batch.reward[-1] += now - before
                    before = now
                    batch.x.append(x)
                    batch.count.append(len(legal))
                    batch.action.append(a)
                    batch.logp.append(float(dist.log_prob(torch.tensor(a))))
                    batch.value.append(float(agent.value(xt, mask)[0]))
                    batch.reward.append(0.0)
                    batch.last.append(False)
                    recorded = True
            moves.append(legal[a])
        for view, move in zip(views, moves, strict=True):
            game.apply(view.seat, move)
    final = margin(game.result().scores, seat)
    if batch is not None and recorded:
        batch.reward[-1] += final - before
        batch.last[-1] = True
    return final * SCALE


def clone(agent: Agent, args: argparse.Namespace, rng: np.random.Generator) -> None:
    """Behaviour cloning of ``heuristic`` (see the module docstring)."""
    xs: list[np.ndarray] = []
    counts: list[int] = []
    labels: list[int] = []
    for g in range(args.clone_games):
        deal = args.seed * 1_000_003 + 900_000_000 + g
        game = Game.new(VARIANT, PLAYERS, deal)
        bots = [make_bot("heuristic") for _ in range(PLAYERS)]
        for s, bot in enumerate(bots):
            bot.start_game(GameInfo(VARIANT, PLAYERS, s, bot_seed(deal, 0, s)))
        while (pending := game.pending) is not None:
            views = [observe(game, s) for s in pending.seats]
            moves = [bots[v.seat].decide(v) for v in views]
            for view, move in zip(views, moves, strict=True):
                if len(view.legal) > 1:
                    xs.append(option_matrix(view))
                    counts.append(len(view.legal))
                    labels.append(list(view.legal).index(move))
                game.apply(view.seat, move)
    x = torch.from_numpy(np.stack(xs))
    mask = torch.arange(MAX_OPTIONS)[None, :] < torch.tensor(counts)[:, None]
    y = torch.tensor(labels)
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


def evaluate(agent: Agent, args: argparse.Namespace) -> tuple[float, float]:
    """The greedy policy's mean margin over ``heuristic`` (penalty points), with a 95% half
    width, on the evaluation deals (every seat in turn)."""
    margins = [
        play(agent, (args.seed + 7) * 1_000_003 + g, g % PLAYERS, ["heuristic"], None, True)
        for g in range(args.eval_games)
    ]
    half = 1.96 * float(np.std(margins, ddof=1)) / np.sqrt(len(margins))
    return float(np.mean(margins)), half


def advantages(batch: Batch, gamma: float, lam: float) -> tuple[np.ndarray, np.ndarray]:
    """GAE over each game's decisions (the critic's value after a game's last one is 0)."""
    n = len(batch.reward)
    adv = np.zeros(n, np.float32)
    values = np.array(batch.value, np.float32)
    running = 0.0
    for t in range(n - 1, -1, -1):
        following = 0.0 if batch.last[t] else values[t + 1]
        if batch.last[t]:
            running = 0.0
        delta = batch.reward[t] + gamma * following - values[t]
        running = delta + gamma * lam * running
        adv[t] = running
    return adv, adv + values


def update(
    agent: Agent,
    optimizer: torch.optim.Optimizer,
    batch: Batch,
    args: argparse.Namespace,
    rng: np.random.Generator,
    actor: bool,
) -> dict[str, float]:
    x, mask = batch.tensors()
    adv_np, ret_np = advantages(batch, 1.0, args.gae_lambda)
    adv, ret = torch.from_numpy(adv_np), torch.from_numpy(ret_np)
    action = torch.tensor(batch.action)
    old_logp = torch.tensor(batch.logp)
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
    opponents = args.opponents.split(",")
    for spec in opponents:
        make_bot(spec)  # an unknown bot fails here, not after the warm start
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    agent = Agent(args.hidden)
    start = time.time()
    if args.clone_games:
        clone(agent, args, rng)
        if args.clone_out:
            save(agent, Path(args.clone_out))
        if args.eval_games:
            mean, half = evaluate(agent, args)
            print(f"clone: margin over heuristic {mean:+.2f} ± {half:.2f}", flush=True)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    iteration = 0
    while True:
        if args.iterations and iteration >= args.iterations:
            break
        if args.minutes and time.time() - start >= args.minutes * 60:
            break
        batch = Batch()
        margins = [
            play(
                agent,
                args.seed * 1_000_003 + iteration * args.games + g,
                (iteration * args.games + g) % PLAYERS,
                opponents,
                batch,
                False,
            )
            for g in range(args.games)
        ]
        stats = update(agent, optimizer, batch, args, rng, iteration >= args.critic_warmup)
        iteration += 1
        print(
            f"iteration {iteration}: {len(batch.action)} decisions, sampled margin "
            f"{np.mean(margins):+.2f}, "
            + ", ".join(f"{k} {v:.4f}" for k, v in stats.items())
            + f", {time.time() - start:.0f} s",
            flush=True,
        )
        if args.eval_games and iteration % args.eval_every == 0:
            mean, half = evaluate(agent, args)
            print(f"evaluation: greedy margin over heuristic {mean:+.2f} ± {half:.2f}", flush=True)
            if args.checkpoints:
                save(agent, Path(args.checkpoints) / f"iteration-{iteration:04}.npz")
    save(agent, Path(args.out))
    print(f"wrote {args.out} after {iteration} iterations, {time.time() - start:.0f} s wall time")
    return agent


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True)
    p.add_argument("--minutes", type=float, default=0.0, help="stop after this wall time")
    p.add_argument("--iterations", type=int, default=0, help="stop after this many (0: no limit)")
    p.add_argument("--games", type=int, default=128, help="games per iteration")
    p.add_argument("--opponents", default="heuristic", help="house bot specs, comma separated")
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
    p.add_argument("--eval-games", type=int, default=400)
    p.add_argument("--checkpoints", default="", help="a folder for the weights at each evaluation")
    return p


if __name__ == "__main__":
    try:
        train(parser().parse_args())
    except ValueError as error:
        sys.exit(f"train.py: {error}")
