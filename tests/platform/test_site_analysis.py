"""Decision analyses on the site: asked for by a signed-in user, computed once by a real
worker, kept and served to everyone; who may ask, the rate limit, a redelivered message."""

import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import connections, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from matches import analyses
from matches.models import Match, SeatAnalysis
from nimmt_site_testing import CeleryProcess, engine_match, make_user, program_bot, wait_for

from arena import analysis


def finished_match(variant: str = "basic") -> Match:
    bots = [program_bot(name) for name in ("ann", "ben", "cat")]
    return engine_match(bots, variant=variant, seed=4)


def signed_in(username: str) -> Client:
    client = Client()
    client.force_login(make_user(username))
    return client


def ask(client: Client, match: Match, seat: int | str, game: int = 1) -> Any:
    url = reverse("match-analysis-request", args=[match.uuid, game])
    return client.post(url, {"seat": str(seat)})


def status(client: Client, match: Match, seat: int) -> dict[str, Any]:
    response = client.get(reverse("match-analysis", args=[match.uuid, 1, seat]))
    assert response.status_code == 200
    data: dict[str, Any] = response.json()
    return data


@pytest.fixture
def analysis_worker(worker_env: dict[str, str], tmp_path: Path) -> Iterator[CeleryProcess]:
    """A real worker on the maintenance queue with a small analysis budget."""
    env = {**worker_env, "NIMMT_ANALYSIS_SAMPLES": "6"}
    worker = CeleryProcess.worker(env, tmp_path / "worker.log", queues="maintenance")
    worker.start()
    yield worker
    worker.kill()


@pytest.mark.slow
def test_it_analyses_a_seat_on_a_worker_and_serves_the_kept_result_after(
    analysis_worker: CeleryProcess,
) -> None:
    match = finished_match()
    alice = signed_in("alice")
    assert status(Client(), match, 1)["status"] == "none"
    first = ask(alice, match, 1)
    assert first.status_code == 202, first.content
    done = wait_for(
        "the analysis", lambda: (s := status(Client(), match, 1))["status"] == "done" and s, 60
    )
    result = done["analysis"]
    assert result["format"] == analysis.FORMAT and result["seat"] == 1
    assert result["samples"] == 6 and result["complete"]
    assert result["decisions"] and all(d["options"] for d in result["decisions"])
    # Asked again, by her or by anybody: the kept result, nothing computed again.
    assert ask(alice, match, 1).status_code == 200
    bob = signed_in("bob")
    again = ask(bob, match, 1)
    assert again.status_code == 200 and again.json()["analysis"] == result
    assert SeatAnalysis.objects.count() == 1
    assert "analysed seat 1 of game 1" in analysis_worker.output()
    assert analysis_worker.output().count("analysed seat") == 1


@pytest.mark.django_db
def test_asking_needs_a_signed_in_user_and_a_seat_of_a_finished_game() -> None:
    match = finished_match()
    anonymous = ask(Client(), match, 0)
    assert anonymous.status_code == 403 and "Sign in" in anonymous.json()["error"]
    alice = signed_in("alice")
    assert ask(alice, match, 7).status_code == 400
    assert "no seat 7" in ask(alice, match, 7).json()["error"]
    assert ask(alice, match, "x; drop table").status_code == 400
    assert ask(alice, match, 0, game=2).status_code == 400
    assert alice.get(reverse("match-analysis", args=[match.uuid, 1, 9])).status_code == 404
    assert alice.get(reverse("match-analysis-request", args=[match.uuid, 1])).status_code == 405
    queued = Match.objects.create(variant="basic", players=3, seed=1)
    assert ask(alice, queued, 0).status_code == 404
    assert SeatAnalysis.objects.count() == 0


@pytest.mark.django_db
def test_a_user_may_start_only_so_many_analyses_an_hour(settings: Any) -> None:
    settings.ANALYSIS_PER_HOUR = 2
    match = finished_match()
    alice = signed_in("alice")
    assert ask(alice, match, 0).status_code == 202
    assert ask(alice, match, 1).status_code == 202
    refused = ask(alice, match, 2)
    assert refused.status_code == 429 and "limit is 2" in refused.json()["error"]
    assert ask(alice, match, 1).status_code == 200  # a kept one costs nothing
    assert ask(signed_in("bob"), match, 2).status_code == 202  # bob has his own allowance
    assert SeatAnalysis.objects.count() == 3


@pytest.mark.django_db(transaction=True)
def test_a_message_delivered_twice_computes_and_stores_the_analysis_once(settings: Any) -> None:
    settings.ANALYSIS_SAMPLES = 4
    match = finished_match("classic")
    requested = analyses.request(match, 1, 2, make_user("alice"))
    assert analyses.compute(requested.analysis.pk) == "done"
    row = SeatAnalysis.objects.get()
    assert analyses.compute(requested.analysis.pk) == "skipped"
    again = SeatAnalysis.objects.get()
    assert again.status == SeatAnalysis.DONE and again.result == row.result
    assert again.finished_at == row.finished_at and again.attempts == 1


@pytest.mark.django_db(transaction=True)
def test_a_game_whose_file_is_gone_fails_with_the_reason(settings: Any) -> None:
    match = finished_match()
    match.replays = ["game-99999.json"]
    match.save()
    requested = analyses.request(match, 1, 0, make_user("alice"))
    assert analyses.compute(requested.analysis.pk) == "failed"
    row = SeatAnalysis.objects.get()
    assert row.status == SeatAnalysis.FAILED and "game-99999.json" in row.error
    assert status(Client(), match, 0) == {"status": "failed", "error": row.error, "analysis": None}


@pytest.mark.django_db(transaction=True)
def test_an_analysis_whose_worker_died_is_taken_over_and_given_up_after_three_attempts(
    settings: Any,
) -> None:
    settings.ANALYSIS_SAMPLES = 2
    match = finished_match()
    row = analyses.request(match, 1, 0, make_user("alice")).analysis
    gone = timezone.now() - timedelta(seconds=1)
    # A worker claimed it and died: the lease ran out, the next delivery takes it over.
    SeatAnalysis.objects.filter(pk=row.pk).update(
        status=SeatAnalysis.RUNNING, lease_expires_at=gone, attempts=1
    )
    assert analyses.compute(row.pk) == "done"
    # One that kept killing its workers is failed, not tried forever.
    SeatAnalysis.objects.filter(pk=row.pk).update(
        status=SeatAnalysis.RUNNING, lease_expires_at=gone, attempts=3, result=None
    )
    assert analyses.compute(row.pk) == "failed"
    failed = SeatAnalysis.objects.get()
    assert "gave up after 3 attempts" in failed.error and failed.result is None


@pytest.mark.django_db
def test_a_seat_written_in_other_digits_is_refused_as_not_a_number() -> None:
    match = finished_match()
    alice = signed_in("alice")
    for text in ("²", "١", "0x1", "-1", " 1"):
        refused = ask(alice, match, text)
        assert refused.status_code == 400 and "a number" in refused.json()["error"], text
    assert SeatAnalysis.objects.count() == 0


def _first_held_open(match: Match, user: Any) -> threading.Thread:
    """A request by ``user`` for seat 0 that has made its analysis and holds its transaction
    open for half a second; the thread, once the analysis is made (uncommitted)."""
    made = threading.Event()

    def first() -> None:
        try:
            with transaction.atomic():
                assert analyses.request(match, 1, 0, user).created
                made.set()
                time.sleep(0.5)  # the second request comes before this one commits
        finally:
            connections.close_all()

    thread = threading.Thread(target=first, daemon=True)
    thread.start()
    assert made.wait(timeout=10)
    return thread


@pytest.mark.django_db(transaction=True)
def test_requests_sent_at_once_by_one_user_keep_to_the_hourly_limit(settings: Any) -> None:
    settings.ANALYSIS_PER_HOUR = 1
    match = finished_match()
    alice = make_user("alice")
    thread = _first_held_open(match, alice)
    with pytest.raises(analyses.RateLimited, match="limit is 1"):
        analyses.request(match, 1, 1, alice)
    thread.join(timeout=10)
    assert SeatAnalysis.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_requests_sent_at_once_by_different_users_keep_to_the_sites_waiting_cap(
    settings: Any,
) -> None:
    settings.ANALYSIS_WAITING = 1
    match = finished_match()
    thread = _first_held_open(match, make_user("alice"))
    with pytest.raises(analyses.RateLimited, match="Too many analyses are waiting"):
        analyses.request(match, 1, 1, make_user("bob"))
    thread.join(timeout=10)
    assert SeatAnalysis.objects.count() == 1
