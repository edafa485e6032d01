"""Matches survive duplicate deliveries, killed workers and a broker restart: one result each."""

import subprocess
import time
from pathlib import Path

import pytest
from ladders.models import Ladder, Rating, RatingChange
from matches.models import Match
from matches.tasks import queue_match, rate_match, run_match
from nimmt_site_testing import (
    CeleryProcess,
    basic_ladder,
    program_bot,
    wait_for,
)
from submissions.models import Bot

pytestmark = pytest.mark.django_db(transaction=True)

REDIS_START = [
    "redis-server",
    "--daemonize",
    "yes",
    "--bind",
    "127.0.0.1",
    "-::1",
    "--port",
    "6379",
    "--save",
    "",
    "--appendonly",
    "no",
    "--dir",
    "/var/lib/redis",
    "--logfile",
    "/var/log/redis/ci.log",
]


def _lineup(folder: str = "quick", ladder: Ladder | None = None) -> tuple[Ladder, list[Bot]]:
    if ladder is None:
        # Single-game matches, as these tests time them (a duplicate match is four games).
        ladder = basic_ladder(players=4)
        Ladder.objects.filter(pk=ladder.pk).update(duplicate=False)
        ladder.refresh_from_db()
    return ladder, [program_bot(f"{folder}-{n}", folder) for n in range(4)]


def _kept_results(data_dir: Path) -> list[Path]:
    root = data_dir / "matches"
    return sorted(p for p in root.glob("*/*") if p.is_dir()) if root.exists() else []


def _finished_and_rated(pk: int) -> Match | None:
    return Match.objects.filter(pk=pk, status=Match.FINISHED, rated=True).first()


def test_a_task_delivered_twice_keeps_one_result(
    celery_worker: CeleryProcess, data_dir: Path
) -> None:
    ladder, bots = _lineup()
    match = queue_match(ladder, bots)  # sends run_match once
    for _ in range(2):  # and the broker delivers it twice more
        run_match.apply_async(kwargs={"match_pk": match.pk})
    done = wait_for("the match to be played and rated", lambda: _finished_and_rated(match.pk), 60)
    rate_match.apply_async(kwargs={"match_pk": match.pk})  # rating delivered twice, too
    time.sleep(3)  # let the duplicates run out
    done.refresh_from_db()
    assert done.status == Match.FINISHED
    assert done.attempts == 1
    assert [s.rank is not None for s in done.seats.all()] == [True] * 4
    assert _kept_results(data_dir) == [data_dir / done.result_dir]
    assert RatingChange.objects.filter(match=done).count() == 4
    assert sorted(Rating.objects.values_list("games", flat=True)) == [1, 1, 1, 1]
    assert not list((data_dir / "tmp").glob("match-*"))


def test_a_match_whose_worker_is_killed_is_played_again_and_finishes_once(
    celery_worker: CeleryProcess, worker_env: dict[str, str], tmp_path: Path, data_dir: Path
) -> None:
    ladder, bots = _lineup("sleepy")
    with_two_games = queue_match(ladder, bots)
    Match.objects.filter(pk=with_two_games.pk).update(games=2)  # about 7 s of play
    match = wait_for(
        "the first worker to be half-way through the match",
        lambda: Match.objects.filter(
            pk=with_two_games.pk, status=Match.RUNNING, started_at__isnull=False
        ).first(),
        timeout=60,
    )
    first_token = match.claim_token
    time.sleep(2.5)
    celery_worker.kill()  # SIGKILL: no goodbye, the message stays unacknowledged
    match.refresh_from_db()
    assert (match.status, match.attempts, match.claim_token) == (Match.RUNNING, 1, first_token)

    second = CeleryProcess.worker(worker_env, tmp_path / "second-worker.log")
    second.start()
    try:
        # The broker delivers the message again after its visibility timeout (8 s here); by
        # then the lease (4 s) has run out, so the second worker takes the match over.
        done = wait_for(
            "the match to be played again", lambda: _finished_and_rated(match.pk), timeout=90
        )
        time.sleep(2)
    finally:
        second.kill()
    done.refresh_from_db()
    assert done.status == Match.FINISHED
    assert done.attempts == 2
    assert done.claim_token is None
    assert len(done.replays) == 2
    assert _kept_results(data_dir) == [data_dir / done.result_dir]
    assert RatingChange.objects.filter(match=done).count() == 4
    assert sorted(Rating.objects.values_list("games", flat=True)) == [1, 1, 1, 1]
    assert "sending Match" not in second.output()  # it was the broker's redelivery, no sweep


def _redis(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["redis-cli", "-h", "127.0.0.1", "-p", "6379", *args],
        capture_output=True,
        text=True,
        timeout=10,
        check=False,
    )


@pytest.mark.xfail(
    strict=False,
    reason="the worker itself may die when Redis goes away mid-restore (kombu's Redis transport: "
    "AttributeError 'NoneType' object has no attribute 'hostname' while stopping its Hub); "
    "surviving that is the open issue on the broker, workers and users",
)
def test_no_match_is_lost_when_redis_restarts(
    celery_worker: CeleryProcess, celery_beat: CeleryProcess
) -> None:
    ladder, bots = _lineup()
    Ladder.objects.filter(pk=ladder.pk).update(is_active=False)  # only the matches made here
    matches = [queue_match(ladder, bots) for _ in range(6)]
    wait_for(
        "the first match to finish",
        lambda: Match.objects.filter(status=Match.FINISHED).exists(),
        timeout=60,
    )
    try:
        _redis("shutdown", "nosave")  # every queued message is gone with it
        wait_for("Redis to stop", lambda: _redis("ping").returncode != 0, timeout=10)
        time.sleep(1)
    finally:
        subprocess.run(REDIS_START, check=True, timeout=10)
        wait_for("Redis to answer", lambda: _redis("ping").stdout.strip() == "PONG", timeout=10)

    def all_done() -> bool:
        return Match.objects.filter(status=Match.FINISHED, rated=True).count() == len(matches)

    wait_for("every match to be played and rated", all_done, timeout=120)
    time.sleep(2)
    # The queued matches' messages died with Redis; the sweeper sent them again.
    assert "sending Match" in celery_worker.output()
    assert RatingChange.objects.count() == 4 * len(matches)
    assert sorted(Rating.objects.values_list("games", flat=True)) == [6, 6, 6, 6]
    for match in Match.objects.all():
        assert match.seats.filter(rank__isnull=False).count() == 4
