"""A match's wall time is bounded by its own settings: past the bound it is stopped, failed with
the reason, its bots' faults so far kept, never tried again, and the worker plays the next one.
What a killed attempt left in the staging folder goes at the next sweep."""

import os
import time
import uuid
from pathlib import Path

import pytest
from django.db import transaction
from django.utils import timezone
from ladders.models import Ladder
from matches import bounds
from matches.models import Match
from matches.tasks import queue_match, remove_stale_staging
from nimmt_site_testing import CeleryProcess, basic_ladder, program_bot, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_bound_grows_with_games_players_and_the_clock(settings: object) -> None:
    one = bounds.time_bound("basic", 4, games=1)
    assert bounds.time_bound("basic", 4, games=2) > one
    assert bounds.time_bound("basic", 6, games=1) > one
    assert one < 5 * 60  # not the task's hour
    # The longest game a table may ask for fits: 74 rounds seen, 7 x 12 allowed.
    assert bounds.ROUNDS_PER_TILE * 12 >= 74


@pytest.mark.slow
def test_a_match_past_its_bound_is_stopped_with_its_faults_and_the_worker_plays_on(
    worker_env: dict[str, str], tmp_path: Path, data_dir: Path
) -> None:
    # A 500 ms allowance and 500 ms bank: the slow bot's 0.1 s a decision is in time, its one
    # stall of 1.5 s in game 1 is a timeout; 20 games take ~40 s, the bound is cut to 15 s.
    env = {
        **worker_env,
        "NIMMT_DECISION_MS": "500",
        "NIMMT_BANK_MS": "500",
        "NIMMT_MATCH_TIME_CAP_SECONDS": "15",
    }
    worker = CeleryProcess.worker(env, tmp_path / "worker.log", concurrency=1)
    worker.start()
    try:
        ladder = basic_ladder(players=4)
        Ladder.objects.filter(pk=ladder.pk).update(duplicate=False, is_active=False)
        ladder.refresh_from_db()
        slow = program_bot("slow", "slow_staller")
        quick = [program_bot(f"quick-{n}", "quick") for n in range(3)]
        with transaction.atomic():  # sent once the games are set
            long_match = queue_match(ladder, [slow, *quick])
            Match.objects.filter(pk=long_match.pk).update(games=20)
        next_match = queue_match(ladder, [*quick, program_bot("quick-3", "quick")])
        stopped = wait_for(
            "the long match to end",
            lambda: Match.objects.filter(
                pk=long_match.pk, status__in=(Match.FAILED, Match.FINISHED)
            ).first(),
            timeout=90,
        )
        played = wait_for(
            "the next match to be played",
            lambda: Match.objects.filter(pk=next_match.pk, status=Match.FINISHED).first(),
            timeout=60,
        )
    finally:
        worker.kill()
    assert stopped.started_at is not None and stopped.finished_at is not None
    took = (stopped.finished_at - stopped.started_at).total_seconds()
    faults = {seat.bot.name: seat.faults for seat in stopped.seats.select_related("bot")}
    print(f"\nmatch of 20 games bounded at 15 s: stopped after {took:.1f} s; faults {faults}")
    assert stopped.status == Match.FAILED, faults
    assert 15 <= took < 15 + bounds.UNWIND_SECONDS
    assert "past its bound of 15 s" in stopped.error
    assert stopped.attempts == 1  # never tried again
    slow_seat = stopped.seats.get(bot=slow)
    assert slow_seat.faults  # the stall, and the late answer it made of the next decision
    assert {(f["kind"], f["game"]) for f in slow_seat.faults} == {("timeout", 1)}
    assert all(not seat.faults for seat in stopped.seats.exclude(bot=slow))
    assert played.started_at is not None and played.started_at >= stopped.finished_at
    assert not list((data_dir / "tmp").glob("match-*"))


def test_a_dead_attempts_staging_folder_goes_at_the_next_sweep(data_dir: Path) -> None:
    ladder = basic_ladder(players=2)
    bots = [program_bot(f"quick-{n}", "quick") for n in range(2)]
    match = queue_match(ladder, bots)
    token = uuid.uuid4()
    Match.objects.filter(pk=match.pk).update(
        status=Match.RUNNING, claim_token=token, lease_expires_at=timezone.now()
    )
    tmp = data_dir / "tmp"
    live = tmp / f"match-{match.uuid}-{token.hex[:12]}"
    dead = tmp / f"match-{match.uuid}-{uuid.uuid4().hex[:12]}"  # an earlier, killed attempt
    upload = tmp / ".unpack-fresh"  # an upload being unpacked right now
    for folder in (live, dead, upload):
        (folder / "logs").mkdir(parents=True)
    past = time.time() - 60
    for folder in (live, dead):
        os.utime(folder, (past, past))
    remove_stale_staging()
    assert sorted(p.name for p in tmp.iterdir()) == sorted([live.name, upload.name])
