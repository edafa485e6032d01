"""Validation of an upload is the arena's bot check (the one ``nimmt bot check`` prints) at
every format of its plan and of the site's ladders, in the real sandbox."""

from pathlib import Path

import pytest
from django.conf import settings
from ladders.models import Ladder
from matches import bridge
from nimmt_site_testing import TEST_BOTS

from arena.runner.check import CHECK_PLAN, covers

pytestmark = pytest.mark.django_db

PROTOCOL_BOTS = Path(__file__).resolve().parents[1] / "protocol" / "bots"


def test_it_passes_a_bot_that_plays_every_format_and_says_so(tmp_path: Path) -> None:
    check = bridge.check_bot(TEST_BOTS / "quick", tmp_path)
    assert check.passed, check.log
    assert "PASSED" in check.log
    for game in CHECK_PLAN:
        assert f"ok   {game.variant}, {game.players} players" in check.log


def test_a_ladders_format_outside_the_plan_is_checked_too(tmp_path: Path) -> None:
    assert not covers("pro", 3)
    bot = PROTOCOL_BOTS / "three-players-break-it"
    assert bridge.check_bot(bot, tmp_path / "before").passed  # nothing plays three yet
    Ladder.objects.create(slug="pro-3", name="Pro, 3 players", variant="pro", players=3)
    check = bridge.check_bot(bot, tmp_path / "after")
    assert not check.passed
    assert "FAIL pro, 3 players" in check.log
    assert "IndexError: seat table sized for 2, 4, 5 or 6 players" in check.log
    assert "FAILED" in check.log


def test_the_verdict_shows_no_host_path(tmp_path: Path) -> None:
    check = bridge.check_bot(PROTOCOL_BOTS / "crash-at-start", tmp_path)
    assert not check.passed
    assert str(tmp_path) not in check.log
    assert str(PROTOCOL_BOTS) not in check.log
    assert str(settings.DATA_DIR) not in check.log
    assert "model.bin is missing" in check.log
