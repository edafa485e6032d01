"""The ``ppo`` bot's training (bots/ppo/train.py) over the vector env: it runs end to end and
writes weights the bot plays, is reproducible from its seed, plays the learner in every seat, and
its rewards add up to the margin the strength test measures. Skipped without torch (the ``train``
extra)."""

import numpy as np
import pytest

from arena.bots.options import Policy, Table, option_inputs, read_weights
from arena.engine import Game
from arena.engine.observation import observe

torch = pytest.importorskip("torch", reason="training needs torch: pip install -e '.[train]'")
train = pytest.importorskip("bots.ppo.train")

TINY = [
    "--seed", "3", "--iterations", "2", "--games", "8", "--steps", "6", "--clone-games", "4",
    "--clone-epochs", "1", "--critic-warmup", "1", "--eval-games", "4", "--eval-every", "1",
]  # fmt: skip


def test_training_runs_a_few_updates_and_writes_weights_plain_python_reads(tmp_path):
    out, clone = tmp_path / "w.npz", tmp_path / "clone.npz"
    args = train.parser().parse_args([*TINY, "--out", str(out), "--clone-out", str(clone)])
    agent = train.train(args)
    policy = Policy(read_weights(out))
    layers = read_weights(out)
    assert [len(b) for _, b in layers] == [64, 32, 1]
    assert read_weights(clone) != layers  # PPO moved the clone
    view = observe(Game.new("classic", 4, seed=1), 0)
    # the bot's float16 network scores as the trained one does (up to float16)
    x = torch.tensor([option_inputs(Table(view), d) for d in view.legal])
    trained = agent.actor(x).squeeze(-1).detach().numpy()
    plain = [policy.score(row) for row in x.tolist()]
    assert np.allclose(plain, trained, atol=0.05)


def test_training_is_reproducible_from_its_seed(tmp_path):
    first, second, other = tmp_path / "1.npz", tmp_path / "2.npz", tmp_path / "3.npz"
    for out in (first, second):
        train.train(train.parser().parse_args([*TINY, "--eval-games", "0", "--out", str(out)]))
    seeded = [*TINY, "--eval-games", "0", "--out", str(other)]
    seeded[seeded.index("--seed") + 1] = "4"
    train.train(train.parser().parse_args(seeded))
    assert read_weights(first) == read_weights(second)
    assert read_weights(first) != read_weights(other)


@pytest.mark.parametrize("opponents", [["heuristic"], ["heuristic", "random"]])
def test_a_games_rewards_add_up_to_the_learners_final_margin(opponents):
    torch.manual_seed(0)
    agent = train.Agent([8])
    seats = train.Seats(8, opponents, 77)
    assert [env.seat for env in seats.envs] == [0, 1, 2, 3]
    rollout = train.collect(agent, seats, 40)
    assert ((rollout.count >= 1) & (rollout.count <= train.MAX_OPTIONS)).all()
    assert ((rollout.action >= 0) & (rollout.action < rollout.count)).all()
    games = 0
    for g in range(8):
        total = 0.0  # every game starts level: the first at the reset, the others after one ends
        for t in range(40):
            total += float(rollout.reward[t, g])
            if rollout.done[t, g]:
                assert total == pytest.approx(rollout.final[t, g], abs=1e-4)
                total, games = 0.0, games + 1
    assert games >= 16 and np.isnan(rollout.final[~rollout.done]).all()


def test_advantages_restart_at_each_games_end_and_bootstrap_the_game_under_way():
    reward = np.array([[0.0], [1.0], [0.0], [-2.0], [0.5]], np.float32)
    value = np.array([[0.5], [0.5], [0.0], [0.0], [0.25]], np.float32)
    done = np.array([[False], [True], [False], [True], [False]])
    adv, ret = train.advantages(reward, value, done, np.array([3.0], np.float32), 1.0, 1.0)
    # lambda = 1: returns are the rest of each game's rewards (and the critic's value after the
    # last step for the game under way), whatever the critic said before
    assert ret[:, 0].tolist() == [1.0, 1.0, -2.0, -2.0, 3.5]
    assert adv[:, 0].tolist() == [0.5, 0.5, -2.0, -2.0, 3.25]


def test_an_update_with_an_uneven_last_minibatch_keeps_the_network_finite():
    torch.manual_seed(1)
    agent = train.Agent([8])
    rollout = train.collect(agent, train.Seats(4, ["heuristic"], 100), 12)
    chosen = np.flatnonzero(rollout.count.reshape(-1) > 1)
    # 4 minibatches would leave one decision over: drop decisions from the update until so
    rollout.count.reshape(-1)[chosen[: (len(chosen) - 1) % 4]] = 1
    assert (rollout.count > 1).sum() % 4 == 1
    args = train.parser().parse_args(["--out", "unused"])
    optimizer = torch.optim.Adam(agent.parameters(), lr=1e-3)
    stats = train.update(agent, optimizer, rollout, args, np.random.default_rng(0), actor=True)
    assert all(np.isfinite(v) for v in stats.values())
    assert all(torch.isfinite(p).all() for p in agent.parameters())


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--iterations", "0"], "--iterations N or --minutes M"),
        (["--iterations", "1", "--opponents", "heuristic,nobody"], "nobody"),
        (["--iterations", "1", "--games", "6"], "multiple of 4"),
        (["--iterations", "1", "--eval-games", "10"], "multiple of 4"),
    ],
)
def test_a_run_that_would_never_stop_or_meet_an_unknown_bot_fails_at_once(options, message):
    args = train.parser().parse_args(["--out", "unused", "--clone-games", "5", *options])
    with pytest.raises(ValueError, match=message):
        train.train(args)
