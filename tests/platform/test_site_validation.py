"""Validation of an upload is the arena's bot check (the one ``nimmt bot check`` prints) at
every format of its plan and of the site's ladders, in the real sandbox."""

from pathlib import Path

import pytest
from django.conf import settings
from ladders.models import Ladder
from matches import bridge
from nimmt_site_testing import TEST_BOTS, CeleryProcess, program_bot, wait_for
from submissions.models import BotVersion
from submissions.tasks import validate_version

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


@pytest.mark.django_db(transaction=True)
def test_a_bot_that_stalls_only_at_four_players_fails_validation_on_the_site(
    worker_env: dict[str, str], tmp_path: Path
) -> None:
    # The site's own path: a pending version, validate_version on a real worker. A short clock
    # (200 ms allowance, 300 ms bank) so that the bot's stalls cost seconds, not minutes.
    env = {**worker_env, "NIMMT_DECISION_MS": "200", "NIMMT_BANK_MS": "300"}
    worker = CeleryProcess.worker(env, tmp_path / "worker.log", queues="validation")
    worker.start()
    try:
        bot = program_bot("staller", "quick")
        version = BotVersion.objects.create(
            bot=bot, number=2, code_root=BotVersion.HOUSE, code_dir="stalls_at_four"
        )
        validate_version.apply_async(kwargs={"version_pk": version.pk})
        done = wait_for(
            "the verdict",
            lambda: BotVersion.objects.filter(
                pk=version.pk, status__in=(BotVersion.PASSED, BotVersion.FAILED)
            ).first(),
            timeout=240,
        )
    finally:
        worker.kill()
    assert done.status == BotVersion.FAILED, done.validation_log
    # The check stops at the first failing game: the plan's first four-player one.
    assert "ok   basic, 2 players" in done.validation_log
    assert "FAIL basic, 4 players" in done.validation_log
    assert "timeout" in done.validation_log or "no answer" in done.validation_log
    assert "FAILED" in done.validation_log
    bot.refresh_from_db()
    assert bot.active_version_id != version.pk
