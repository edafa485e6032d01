"""The ``ppo`` bot program (bots/ppo): it plays legal decisions of every variant (its network
in the card game, ``heuristic`` elsewhere) and passes the arena's bot check in the sandbox."""

import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from arena.bots.heuristic import HeuristicBot
from arena.bots.options import INPUT_SIZE, Policy, Table, option_inputs, read_weights
from arena.cli import main as nimmt
from arena.engine import Game
from arena.engine.observation import observe
from arena.engine.variants import VARIANT_NAMES
from bots.ppo.bot import TRAINED, WEIGHTS, PPOBot, weights_of

FOLDER = Path(__file__).resolve().parent.parent / "bots" / "ppo"


def test_the_shipped_weights_are_small_and_fit_the_inputs():
    assert WEIGHTS.stat().st_size < 100_000
    layers = read_weights(WEIGHTS)
    assert len(layers[0][0]) == INPUT_SIZE and len(layers[-1][1]) == 1


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_it_plays_legal_decisions_of_every_variant(variant):
    bot = PPOBot()
    rng = random.Random(5)
    for seed in range(3):
        game = Game.new(variant, 4, seed)
        while (pending := game.pending) is not None:
            for seat in pending.seats:
                view = observe(game, seat)
                choice = bot.decide(view) if seat in (0, 2) else rng.choice(view.legal)
                assert choice in view.legal
                game.apply(seat, choice)
        assert game.is_over()


def test_it_plays_the_networks_best_option_in_the_card_game():
    bot = PPOBot()
    policy = Policy(read_weights(WEIGHTS))
    game = Game.new(TRAINED, 4, seed=8)
    view = observe(game, 1)
    table = Table(view)
    scores = [policy.score(option_inputs(table, d)) for d in view.legal]
    assert bot.decide(view) == view.legal[int(np.argmax(scores))]


@pytest.mark.parametrize("variant", [v for v in VARIANT_NAMES if v != TRAINED])
def test_it_plays_heuristics_decisions_in_the_board_game(variant):
    bot, rule = PPOBot(), HeuristicBot()
    game = Game.new(variant, 3, seed=4)
    while (pending := game.pending) is not None:
        views = [observe(game, seat) for seat in pending.seats]
        for view in views:
            assert bot.decide(view) == rule.decide(view)
        for view in views:
            game.apply(view.seat, rule.decide(view))


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap")
def test_the_program_passes_the_arenas_bot_check_in_the_sandbox(tmp_path, capsys):
    assert nimmt(["bot", "check", str(FOLDER), "--out", str(tmp_path)]) == 0
    assert "PASS ppo is ready for the arena" in capsys.readouterr().out


def test_its_options_name_a_weights_file_of_its_own_folder_and_nothing_else(monkeypatch):
    assert weights_of("") == WEIGHTS
    assert weights_of("weights=clone") == FOLDER / "clone.npz"
    for options in ("weights=../distilled/weights", "weights=/etc/passwd", "weights=", "w=clone"):
        with pytest.raises(ValueError, match="only weights=NAME"):
            weights_of(options)
    with pytest.raises(ValueError, match="there is no"):
        weights_of("weights=missing")
    monkeypatch.setenv("NIMMT_BOT_OPTIONS", "weights=clone")
    assert PPOBot().policy.layers == Policy(read_weights(FOLDER / "clone.npz")).layers
