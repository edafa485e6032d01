"""The beat's sweep: every safety net in one task, so that a maintenance worker slower than
the interval still runs them all, and one that fails keeps none of the others from running."""

import datetime as dt
import logging
from typing import Any

import pytest
from accounts.models import User
from config import sweeps
from core.celery import ROUTES
from django.conf import settings
from django.utils import timezone
from ladders.models import Rating
from nimmt_site_testing import basic_ladder, organiser, program_bot
from seasons import services
from seasons.models import Season
from seasons.tasks import advance_seasons

pytestmark = pytest.mark.django_db


def test_the_beat_sends_one_sweep_that_runs_every_safety_net() -> None:
    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "config.sweeps.sweep" in tasks
    assert ROUTES["config.sweeps.sweep"] == "maintenance"
    names = {each.name for each in sweeps.SWEEPS}  # type: ignore[attr-defined]
    assert names == {
        "matches.tasks.requeue_stale_work",
        "submissions.tasks.requeue_stale_versions",
        "tournaments.tasks.advance_running_tournaments",
        "versiontests.tasks.advance_open_version_tests",
        "seasons.tasks.advance_seasons",
    }
    assert not names & tasks, "a safety net is both in the sweep and a beat entry of its own"


def test_the_frequent_beat_messages_stay_fresh_for_two_intervals() -> None:
    """One task longer than the interval must not make the other entries of its tick expire
    unrun (a worker skips expired messages to the oldest fresh one)."""
    for name in ("schedule-matches", "sweep", "notice-events"):
        entry: Any = settings.CELERY_BEAT_SCHEDULE[name]
        assert entry["options"]["expires"] == 2 * entry["schedule"], name


def test_a_failing_sweep_is_logged_and_the_next_ones_still_run(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    ladder = basic_ladder(players=2)
    for name in ("a", "b"):
        Rating.objects.create(ladder=ladder, bot=program_bot(name), margin=1.0, games=5)
    now = timezone.now()
    season = services.create(
        organiser(),
        ladder.pk,
        name="Spring",
        starts_at=now - dt.timedelta(minutes=2),
        freezes_at=now - dt.timedelta(minutes=1),
        ends_at=now + dt.timedelta(hours=1),
        finalists=2,
        final_deals=1,
    )

    def broken() -> None:
        User.objects.get(username="nobody-has-this-name")

    monkeypatch.setattr(sweeps, "SWEEPS", (broken, advance_seasons))
    with caplog.at_level(logging.ERROR, logger="config.sweeps"):
        failed = sweeps.sweep.run()
    assert failed == ["test_a_failing_sweep_is_logged_and_the_next_ones_still_run.<locals>.broken"]
    assert "DoesNotExist" in caplog.text and "tried again at the next sweep" in caplog.text
    assert Season.objects.get(pk=season.pk).status == Season.FROZEN
