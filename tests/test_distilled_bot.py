"""The ``distilled`` bot program (bots/distilled): its plain-Python network is the one training
wrote, it sees only the seat's view, plays every decision of every variant, and passes the
arena's bot check in the sandbox."""

import io
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from arena.bots.options import INPUT_SIZE, Policy, Table, option_inputs, read_npy, read_weights
from arena.cli import main as nimmt
from arena.engine import Game
from arena.engine.observation import observe
from arena.engine.variants import VARIANT_NAMES
from bots.distilled.bot import BOARD_WEIGHTS, WEIGHTS, DistilledBot

FOLDER = Path(__file__).resolve().parent.parent / "bots" / "distilled"


def npy(array):
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_the_plain_python_reader_reads_what_numpy_writes(dtype):
    array = np.random.default_rng(1).normal(size=(3, 5)).astype(dtype)
    shape, values = read_npy(npy(array))
    assert shape == (3, 5)
    assert values == array.astype(np.float64).ravel().tolist()
    with pytest.raises(ValueError, match="unsupported"):
        read_npy(npy(np.arange(3)))


@pytest.mark.parametrize("weights", [WEIGHTS, BOARD_WEIGHTS])
def test_the_shipped_weights_are_small_and_fit_the_inputs(weights):
    assert weights.stat().st_size < 1_000_000
    layers = read_weights(weights)
    assert len(layers[0][0]) == INPUT_SIZE and len(layers[-1][1]) == 1


def test_the_plain_python_network_scores_as_numpy_does():
    policy = Policy(read_weights(WEIGHTS))
    with np.load(WEIGHTS) as data:
        params = [
            (data[f"w{i}"].astype(np.float64), data[f"b{i}"].astype(np.float64))
            for i in range(len(policy.layers))
        ]
    game = Game.new("pro+luck", 4, seed=2)
    view = observe(game, 1)
    table = Table(view)
    x = np.array([option_inputs(table, d) for d in view.legal])
    h = x
    for i, (w, b) in enumerate(params):
        h = h @ w + b
        h = np.maximum(h, 0) if i < len(params) - 1 else h
    plain = [policy.score(row) for row in x.tolist()]
    assert np.allclose(plain, h[:, 0], atol=1e-9)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_it_plays_legal_decisions_of_every_kind(variant):
    bot = DistilledBot()
    rng = random.Random(3)
    kinds = set()
    for seed in range(3):
        game = Game.new(variant, 3, seed)
        while (pending := game.pending) is not None:
            for seat in pending.seats:
                view = observe(game, seat)
                for decision in view.legal:
                    assert len(option_inputs(Table(view), decision)) == INPUT_SIZE
                choice = bot.decide(view) if seat == 0 else rng.choice(view.legal)
                assert choice in view.legal
                kinds.add(pending.kind)
                game.apply(seat, choice)
    assert len(kinds) >= 2 or variant == "basic"


def test_its_inputs_show_nothing_of_other_hands_or_the_supply_order():
    game = Game.new("pro+luck", players=4, seed=21)
    snap = game.snapshot()
    others = [t for seat in (1, 2, 3) for t in snap.hands[seat]] + list(snap.supply)
    random.Random(1).shuffle(others)
    hands = [list(snap.hands[0])] + [sorted(others[i * 12 : (i + 1) * 12]) for i in range(3)]
    rows = [[t for t in row if t > 0] for row in snap.spaces]
    twin = Game.from_setup(
        "pro+luck", rows, hands, others[36:], list(snap.luck_deck)[::-1], list(snap.action_deck)
    )
    view, twin_view = observe(game, 0), observe(twin, 0)
    assert [option_inputs(Table(view), d) for d in view.legal] == [
        option_inputs(Table(twin_view), d) for d in twin_view.legal
    ]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap")
def test_the_program_passes_the_arenas_bot_check_in_the_sandbox(tmp_path, capsys):
    assert nimmt(["bot", "check", str(FOLDER), "--out", str(tmp_path)]) == 0
    assert "PASS distilled is ready for the arena" in capsys.readouterr().out
