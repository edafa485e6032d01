"""The ``ppo`` bot's training (bots/ppo/train.py): it runs end to end and writes weights the bot
plays, is reproducible from its seed, and its rewards add up to the margin the strength test
measures. Skipped without torch (the ``train`` extra)."""

import numpy as np
import pytest

from arena.bots.options import Policy, Table, option_inputs, read_weights
from arena.engine import Game
from arena.engine.observation import observe

torch = pytest.importorskip("torch", reason="training needs torch: pip install -e '.[train]'")
train = pytest.importorskip("bots.ppo.train")

TINY = [
    "--seed", "3", "--iterations", "2", "--games", "6", "--clone-games", "4",
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


@pytest.mark.parametrize("seat", range(4))
def test_a_games_rewards_add_up_to_the_learners_final_margin(seat):
    torch.manual_seed(0)
    agent = train.Agent([8])
    batch = train.Batch()
    final = train.play(agent, 77, seat, ["heuristic", "random"], batch, greedy=False)
    assert batch.last == [False] * (len(batch.last) - 1) + [True]
    assert sum(batch.reward) * train.SCALE == pytest.approx(final)
    assert all(1 < n <= train.MAX_OPTIONS for n in batch.count)
    assert all(0 <= a < n for a, n in zip(batch.action, batch.count, strict=True))


def test_advantages_restart_at_each_games_end():
    batch = train.Batch(
        reward=[0.0, 1.0, 0.0, -2.0], value=[0.5, 0.5, 0.0, 0.0], last=[False, True, False, True]
    )
    adv, ret = train.advantages(batch, gamma=1.0, lam=1.0)
    # lambda = 1: returns are the rest of each game's rewards, whatever the critic says
    assert ret.tolist() == [1.0, 1.0, -2.0, -2.0]
    assert adv.tolist() == [0.5, 0.5, -2.0, -2.0]


def test_an_update_with_an_uneven_last_minibatch_keeps_the_network_finite():
    torch.manual_seed(1)
    agent = train.Agent([8])
    batch = train.Batch()
    while len(batch.action) % 4 != 1:  # 4 minibatches would leave one decision over
        train.play(agent, 100 + len(batch.action), 0, ["heuristic"], batch, greedy=False)
    args = train.parser().parse_args(["--out", "unused"])
    optimizer = torch.optim.Adam(agent.parameters(), lr=1e-3)
    stats = train.update(agent, optimizer, batch, args, np.random.default_rng(0), actor=True)
    assert all(np.isfinite(v) for v in stats.values())
    assert all(torch.isfinite(p).all() for p in agent.parameters())


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--iterations", "0"], "--iterations N or --minutes M"),
        (["--iterations", "1", "--opponents", "heuristic,nobody"], "nobody"),
    ],
)
def test_a_run_that_would_never_stop_or_meet_an_unknown_bot_fails_at_once(options, message):
    args = train.parser().parse_args(["--out", "unused", "--clone-games", "5", *options])
    with pytest.raises(ValueError, match=message):
        train.train(args)
