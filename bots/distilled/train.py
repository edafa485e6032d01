"""Train the ``distilled`` bot: imitate a house bot's decisions with a small MLP (numpy only).

    python bots/distilled/train.py collect --variant classic --teacher mcs --games 400 --out DIR
    python bots/distilled/train.py dagger --variant classic --teacher mcs --games 100 \
        --weights bots/distilled/weights.npz --opponents heuristic --out DIR
    python bots/distilled/train.py fit DIR... --out bots/distilled/weights.npz
    python bots/distilled/train.py strength --variant classic --deals 300

**collect** plays games with the teacher in every seat, as ``nimmt play`` does, and records each
seat's view (the engine's :class:`~arena.engine.observation.Observation`, the environments'
structured observation) with the teacher's decision; one gzipped pickle per ``--shard`` games,
so a long run can be stopped and what it made used. **dagger** plays
:class:`arena.env.SeatEnv` games of the current policy (seat ``deal mod players``) against
``--opponents`` house bots and records the teacher's decision for each of the policy's own
views (DAgger, Ross et al. 2011: the policy learns what to do in the positions it reaches, not
only in the teacher's). **fit** trains the network of ``bot.py`` (its inputs
:func:`~arena.bots.options.option_inputs`, one score per option) by cross-entropy of the
softmax over each decision's legal options against the teacher's choice, with Adam and a cosine
learning rate; it holds out a tenth of the games and prints the agreement with the teacher;
the weights it writes are float16. **strength** plays paired deals against a house bot (see
:func:`strength`).

Every step is seeded (``--seed``), so a run can be repeated (``mcs`` with its default budget
counts estimated work, not the clock).
"""

import argparse
import gzip
import itertools
import math
import pickle
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from arena.bots.base import Bot, GameInfo
from arena.bots.options import INPUT_SIZE, Table, option_inputs
from arena.bots.registry import make_bot
from arena.engine.decisions import Decision, DecisionKind
from arena.engine.game import Game
from arena.engine.observation import Observation, observe
from arena.engine.variants import variant as variant_of
from arena.env import SeatEnv, action_of
from arena.local import bot_seed, play_game
from bots.distilled.bot import DistilledBot

KINDS = {
    DecisionKind.TILE: 0,
    DecisionKind.LUCK: 1,
    DecisionKind.ACTION: 2,
    DecisionKind.TAKE_ROW: 3,
}


def record_game(
    variant: str, players: int, deal: int, teacher: str
) -> list[tuple[Observation, Decision]]:
    """One game with the teacher in every seat, as ``nimmt play`` plays it: every seat's view
    and the teacher's decision for it."""
    game = Game.new(variant, players, deal)
    bots = [make_bot(teacher) for _ in range(players)]
    for seat, bot in enumerate(bots):
        bot.start_game(GameInfo(variant, players, seat, bot_seed(deal, 0, seat)))
    rows: list[tuple[Observation, Decision]] = []
    while (pending := game.pending) is not None:
        views = [observe(game, seat) for seat in pending.seats]
        moves = [bots[view.seat].decide(view) for view in views]
        rows += zip(views, moves, strict=True)
        for view, move in zip(views, moves, strict=True):
            game.apply(view.seat, move)
    return rows


def record_dagger(
    variant: str, players: int, deal: int, teacher: str, learner: Bot, opponents: str
) -> list[tuple[Observation, Decision]]:
    """One game in :class:`arena.env.SeatEnv`: the learner in seat ``deal mod players``
    against ``opponents``, the teacher labelling the learner's own views."""
    seat = deal % players
    env = SeatEnv(variant, [opponents] * (players - 1), seat=seat, seed=deal)
    label = make_bot(teacher)
    label.start_game(GameInfo(variant, players, seat, bot_seed(deal, 2, seat)))
    learner.start_game(GameInfo(variant, players, seat, bot_seed(deal, 1, seat)))
    rows: list[tuple[Observation, Decision]] = []
    env.reset(seed=deal)
    terminated = False
    while not terminated:
        view = env.view()
        if len(view.legal) > 1:
            rows.append((view, label.decide(view)))
        _, _, terminated, _, _ = env.step(action_of(learner.decide(view)))
    return rows


def collect(args: argparse.Namespace) -> None:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    weights = Path(args.weights or "")
    learner = DistilledBot(weights, weights) if args.command == "dagger" else None
    shard: list[tuple[int, Observation, Decision]] = []
    start = time.time()
    for g in range(args.games):
        deal = args.seed + g
        if learner is None:
            rows = record_game(args.variant, args.players, deal, args.teacher)
        else:
            rows = record_dagger(
                args.variant, args.players, deal, args.teacher, learner, args.opponents
            )
        shard += [(deal, view, decision) for view, decision in rows]
        if (g + 1) % args.shard == 0 or g + 1 == args.games:
            teacher = args.teacher.replace(":", "_")
            name = out / f"{args.variant}-{args.command}-{teacher}-{args.seed}-{g + 1:05}.pkl.gz"
            with gzip.open(name, "wb") as f:
                pickle.dump(shard, f)
            print(f"{name.name}: {len(shard)} decisions, {time.time() - start:.0f} s", flush=True)
            shard = []


def load(paths: list[str]) -> list[tuple[str, Observation, Decision]]:
    """The recorded decisions of the shards (files, or folders of them), with a game id."""
    files = [
        f
        for p in paths
        for f in (sorted(Path(p).glob("*.pkl.gz")) if Path(p).is_dir() else [Path(p)])
    ]
    rows: list[tuple[str, Observation, Decision]] = []
    for f in files:
        with gzip.open(f, "rb") as data:
            rows += [
                (f"{view.variant}:{deal}", view, label) for deal, view, label in pickle.load(data)
            ]
    return rows


def inputs(
    rows: list[tuple[str, Observation, Decision]],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per option an input row; per decision its first row and the chosen option's row."""
    x: list[list[float]] = []
    starts: list[int] = []
    chosen: list[int] = []
    for _, view, label in rows:
        legal = list(view.legal)
        if len(legal) < 2 or label not in legal:
            continue
        table = Table(view)
        starts.append(len(x))
        chosen.append(len(x) + legal.index(label))
        x += [option_inputs(table, d) for d in legal]
    return np.array(x, np.float32), np.array(starts), np.array(chosen)


def forward(params: list[tuple[np.ndarray, np.ndarray]], x: np.ndarray) -> list[np.ndarray]:
    acts = [x]
    for i, (w, b) in enumerate(params):
        z = acts[-1] @ w + b
        acts.append(np.maximum(z, 0) if i < len(params) - 1 else z)
    return acts


def softmax_by_decision(scores: np.ndarray, starts: np.ndarray) -> np.ndarray:
    top = np.maximum.reduceat(scores, starts)
    counts = np.diff(np.append(starts, len(scores)))
    e = np.exp(scores - np.repeat(top, counts))
    p: np.ndarray = e / np.repeat(np.add.reduceat(e, starts), counts)
    return p


def agreement(
    params: list[tuple[np.ndarray, np.ndarray]],
    x: np.ndarray,
    starts: np.ndarray,
    chosen: np.ndarray,
) -> float:
    scores = forward(params, x)[-1][:, 0]
    counts = np.diff(np.append(starts, len(scores)))
    decision = np.repeat(np.arange(len(starts)), counts)
    best = np.full(len(starts), -np.inf)
    np.maximum.at(best, decision, scores)
    return float(np.mean(scores[chosen] >= best))


def save_weights(path: Path, params: list[tuple[np.ndarray, np.ndarray]]) -> None:
    """The layers as float16 arrays ``w0, b0, w1, b1, ...`` (what the bot's ``read_weights``
    reads)."""
    arrays: dict[str, Any] = {}
    for i, (w, b) in enumerate(params):
        arrays[f"w{i}"] = w.astype(np.float16)
        arrays[f"b{i}"] = b.astype(np.float16)
    with path.open("wb") as f:
        np.savez_compressed(f, **arrays)


def fit(args: argparse.Namespace) -> None:
    rows = load(args.data)
    rng = np.random.default_rng(args.seed)
    games = sorted({game for game, _, _ in rows})
    held = set(rng.choice(games, size=max(1, len(games) // 10), replace=False).tolist())
    train = inputs([r for r in rows if r[0] not in held])
    test = inputs([r for r in rows if r[0] in held])
    print(f"{len(rows)} decisions: {len(train[1])} to train on, {len(test[1])} held out")
    x, starts, chosen = train
    ends = np.append(starts[1:], len(x))
    sizes = [INPUT_SIZE, *args.hidden, 1]
    params = [
        (rng.normal(0, np.sqrt(2 / a), (a, b)).astype(np.float32), np.zeros(b, np.float32))
        for a, b in itertools.pairwise(sizes)
    ]
    adam = [[np.zeros_like(t) for t in (w, w, b, b)] for w, b in params]
    step = 0
    order = np.arange(len(starts))
    for epoch in range(args.epochs):
        rng.shuffle(order)
        lr = args.lr * 0.5 * (1 + np.cos(np.pi * epoch / args.epochs))
        total = 0.0
        for first in range(0, len(order), args.batch):
            batch = order[first : first + args.batch]
            index = np.concatenate([np.arange(starts[d], ends[d]) for d in batch])
            local_starts = np.concatenate([[0], np.cumsum(ends[batch] - starts[batch])[:-1]])
            local_chosen = local_starts + (chosen[batch] - starts[batch])
            acts = forward(params, x[index])
            p = softmax_by_decision(acts[-1][:, 0], local_starts)
            total += float(-np.log(p[local_chosen] + 1e-12).sum())
            grad = p.copy()
            grad[local_chosen] -= 1
            grad = (grad / len(batch))[:, None]
            step += 1
            for i in range(len(params) - 1, -1, -1):
                w, b = params[i]
                gw = acts[i].T @ grad + args.decay * w
                gb = grad.sum(axis=0)
                if i:
                    grad = (grad @ w.T) * (acts[i] > 0)
                for slot, (g, target) in enumerate(((gw, w), (gb, b))):
                    m, v = adam[i][2 * slot], adam[i][2 * slot + 1]
                    m *= 0.9
                    m += 0.1 * g
                    v *= 0.999
                    v += 0.001 * g * g
                    target -= lr * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        print(
            f"epoch {epoch + 1}: loss {total / len(order):.3f}, agreement with the teacher "
            f"{agreement(params, *train):.3f} (train) {agreement(params, *test):.3f} (held out)",
            flush=True,
        )
    save_weights(Path(args.out), params)
    print(f"wrote {args.out} ({Path(args.out).stat().st_size / 1024:.0f} KiB)")


def strength(args: argparse.Namespace) -> None:
    """Paired deals at 4 players: the bot in seats 0 and 2 against the opponent in 1 and 3, then
    the same deal with the seats swapped; per deal the mean of the two games' differences
    (own seats' mean score minus the others', penalty points negative)."""
    distilled = None if args.bot else DistilledBot(Path(args.weights), Path(args.board_weights))
    timed: list[float] = []

    class Timed(Bot):
        """The measured bot in one seat, its time per decision noted."""

        name = "measured"

        def __init__(self) -> None:
            self.bot = make_bot(args.bot) if distilled is None else distilled

        def start_game(self, info: GameInfo) -> None:
            self.bot.start_game(info)

        def decide(self, view: Observation) -> Decision:
            start = time.perf_counter()
            decision = self.bot.decide(view)
            timed.append(time.perf_counter() - start)
            return decision

    sign = 1 if variant_of(args.variant).higher_is_better else -1
    paired: list[float] = []
    ours_all: list[float] = []
    theirs_all: list[float] = []
    for d in range(args.deals):
        deal = args.seed + d
        diffs = []
        for swap in (0, 1):
            mine = [s for s in range(4) if (s + swap) % 2 == 0]
            bots: list[Bot] = [Timed() if s in mine else make_bot(args.opponent) for s in range(4)]
            seeds = [bot_seed(deal, swap, s) for s in range(4)]
            record = play_game(args.variant, bots, deal, seeds, names=["a", "b", "c", "d"])
            scores = record.result.scores
            ours = statistics.mean(scores[s] for s in mine)
            theirs = statistics.mean(scores[s] for s in range(4) if s not in mine)
            ours_all.append(ours)
            theirs_all.append(theirs)
            diffs.append(sign * (ours - theirs))
        paired.append(statistics.mean(diffs))
        if (d + 1) % 50 == 0 or d + 1 == args.deals:
            n = len(paired)
            mean = statistics.mean(paired)
            half = 1.96 * statistics.stdev(paired) / math.sqrt(n) if n > 1 else math.inf
            timed.sort()
            p50, p95 = timed[len(timed) // 2], timed[int(len(timed) * 0.95)]
            print(
                f"{args.variant}: {n} paired deals, {args.bot or 'distilled'} "
                f"{statistics.mean(ours_all):.2f} vs "
                f"{args.opponent} {statistics.mean(theirs_all):.2f}; paired difference "
                f"{mean:+.2f} ± {half:.2f} (95%); decision p50 "
                f"{p50 * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("collect", "dagger"):
        c = sub.add_parser(name)
        c.add_argument("--variant", required=True)
        c.add_argument("--teacher", default="mcs")
        c.add_argument("--players", type=int, default=4)
        c.add_argument("--games", type=int, default=100)
        c.add_argument("--shard", type=int, default=20)
        c.add_argument("--seed", type=int, default=1_000_000)
        c.add_argument("--out", required=True)
        c.add_argument("--opponents", default="heuristic", help="dagger: the other seats' bot")
        c.add_argument(
            "--weights", default="" if name == "collect" else None, required=name == "dagger"
        )
    s = sub.add_parser("strength")
    s.add_argument("--variant", required=True)
    s.add_argument("--weights", default=str(Path(__file__).resolve().parent / "weights.npz"))
    s.add_argument(
        "--board-weights", default=str(Path(__file__).resolve().parent / "weights-board.npz")
    )
    s.add_argument("--opponent", default="heuristic")
    s.add_argument("--bot", default="", help="measure this house bot instead (a baseline)")
    s.add_argument("--deals", type=int, default=300)
    s.add_argument("--seed", type=int, default=5_000_000)
    f = sub.add_parser("fit")
    f.add_argument("data", nargs="+")
    f.add_argument("--out", required=True)
    f.add_argument("--hidden", type=int, nargs="+", default=[32, 16])
    f.add_argument("--epochs", type=int, default=20)
    f.add_argument("--batch", type=int, default=256)
    f.add_argument("--lr", type=float, default=1e-3)
    f.add_argument("--decay", type=float, default=1e-5)
    f.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.command == "fit":
        fit(args)
    elif args.command == "strength":
        strength(args)
    else:
        collect(args)


if __name__ == "__main__":
    main()
