"""The bot check (:mod:`arena.runner.check`): what it plays and how it explains a failure."""

from pathlib import Path

import pytest

from arena.engine.variants import VARIANT_NAMES, variant
from arena.runner.check import CHECK_PLAN, CheckGame, check_bot, covers

from .conftest import BOTS, needs_bwrap

SEEDS = Path(__file__).resolve().parents[2] / "seeds"


def test_the_plan_plays_every_variant_at_both_ends_of_its_table_and_at_four():
    for name in VARIANT_NAMES:
        counts = {game.players for game in CHECK_PLAN if game.variant == name}
        players = variant(name).players
        assert {players.start, 4, players.stop - 1} <= counts, name


def test_the_plan_covers_every_ladder_of_the_demo_league():
    import json

    ladders = json.loads((SEEDS / "demo.json").read_text())["ladders"]
    assert ladders
    for ladder in ladders:
        assert covers(ladder["variant"], ladder["players"]), ladder


def test_a_check_game_refuses_a_table_the_variant_does_not_have():
    with pytest.raises(ValueError):
        CheckGame("basic", 7)


@needs_bwrap
@pytest.mark.parametrize(
    ("bot", "words"),
    [
        ("crash-at-start", ["crashed at start", "status 7", "model.bin is missing"]),
        ("illegal", ["illegal move(s); the first in game 1, turn 2", "not in seat"]),
        ("endless-loop", ["answer(s) too late", "dropped from the match in game 1"]),
    ],
)
def test_it_explains_why_a_bot_fails_the_check(bot, words, tmp_path):
    report = check_bot(
        BOTS / bot,
        out=tmp_path,
        plan=(CheckGame("basic", 3, games=2),),
        decision_ms=200,
        bank_ms=300,
    )
    text = "\n".join(report.lines())
    assert not report.passed
    assert "FAIL basic, 3 players" in text
    for word in words:
        assert word in text
    assert "the bot's log:" in text


@needs_bwrap
def test_it_explains_that_a_bot_never_said_hello(tmp_path):
    report = check_bot(BOTS / "mute", out=tmp_path, plan=(CheckGame("basic", 2),), start_ms=1500)
    text = "\n".join(report.lines())
    assert not report.passed
    assert "never said hello within 1500 ms" in text
    assert "$NIMMT_ENGINE" in text and "mute: thinking about it" in text


@needs_bwrap
def test_a_bot_log_full_of_escape_sequences_is_quoted_in_the_verdict(tmp_path):
    report = check_bot(BOTS / "escapes", out=tmp_path, plan=(CheckGame("basic", 2),))
    text = "\n".join(report.lines())
    assert not report.passed
    assert "\x1b" not in text and "\x07" not in text and "\r" not in text
    assert "\\x1b]0;" in text  # shown, escaped
