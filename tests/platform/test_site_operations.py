"""The operators' endpoints: /healthz for load balancers, /metrics for Prometheus, whose counts
are the real ones after a run of real workers."""

import doctest
import json
import math
from collections import Counter
from typing import Any

import pytest
from core import metrics, storage
from django.test import Client
from ladders.models import Ladder
from matches.models import Match
from matches.tasks import queue_match
from nimmt_object_store import free_port
from nimmt_site_testing import (
    TEST_BOTS,
    CeleryProcess,
    basic_ladder,
    bot_files,
    flush_broker,
    make_user,
    program_bot,
    wait_for,
    zip_upload,
)
from prometheus_client.parser import text_string_to_metric_families
from submissions import services
from submissions.models import BotVersion

pytestmark = pytest.mark.django_db


def scrape(client: Client, **headers: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """The samples of /metrics by name and labels."""
    response = client.get("/metrics", headers=headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain; version=0.0.4")
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def test_its_module_passes_its_docstring_examples() -> None:
    result = doctest.testmod(metrics)
    assert result.attempted > 0 and result.failed == 0


def test_a_load_balancer_gets_the_health_on_any_address_over_plain_http(
    client: Client, settings: Any
) -> None:
    settings.SECURE_SSL_REDIRECT = True
    response = client.get("/healthz", headers={"host": "10.1.2.3:8000"})
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "broker": "ok"}}
    assert response["Cache-Control"] == "no-store"
    assert client.post("/healthz").status_code == 405
    # Every other page still checks the host and sends plain HTTP to HTTPS.
    assert client.get("/", headers={"host": "10.1.2.3:8000"}).status_code == 400
    assert client.get("/").status_code == 301


def test_the_health_is_503_when_the_broker_does_not_answer(client: Client, settings: Any) -> None:
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "failing"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["broker"].startswith("failing: ")
    samples = scrape(client)
    assert samples[("nimmt_broker_up", ())] == 0  # the metrics still answer


def test_the_metrics_ask_for_the_token_when_one_is_set(client: Client, settings: Any) -> None:
    settings.METRICS_TOKEN = "a-long-metrics-token"
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", headers={"authorization": "Bearer wrong"}).status_code == 401
    assert scrape(client, authorization="Bearer a-long-metrics-token")[("nimmt_broker_up", ())] == 1


@pytest.mark.django_db(transaction=True)
def test_queue_depths_are_the_brokers_own_counts(client: Client) -> None:
    flush_broker()
    ladder, bots = _ladder(["quick"] * 4)
    Ladder.objects.filter(pk=ladder.pk).update(is_active=False)
    for _ in range(3):
        queue_match(ladder, bots)  # sent, and no worker takes them
    samples = scrape(client)
    assert samples[("nimmt_queue_messages", (("queue", "matches"),))] == 3
    assert samples[("nimmt_queue_messages", (("queue", "validation"),))] == 0
    assert samples[("nimmt_matches", (("status", "queued"),))] == 3
    assert samples[("nimmt_matches", (("status", "running"),))] == 0
    flush_broker()


def _ladder(folders: list[str]) -> tuple[Ladder, list[Any]]:
    ladder = basic_ladder(players=len(folders))
    Ladder.objects.filter(pk=ladder.pk).update(duplicate=False)
    ladder.refresh_from_db()
    return ladder, [program_bot(f"{folder}-{n}", folder) for n, folder in enumerate(folders)]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_metrics_show_the_real_counts_after_a_run(
    client: Client, celery_worker: CeleryProcess
) -> None:
    ladder, bots = _ladder(["quick", "quick", "quick", "crasher"])
    Ladder.objects.filter(pk=ladder.pk).update(is_active=False)  # only the matches made here
    matches = [queue_match(ladder, bots) for _ in range(3)]
    alice = make_user("alice")
    services.create_bot(alice, "good", zip_upload(bot_files(TEST_BOTS / "quick", "good")))
    services.create_bot(alice, "bad", zip_upload(bot_files(TEST_BOTS / "crasher", "bad")))
    wait_for(
        "the matches and validations to end",
        lambda: (
            Match.objects.filter(status=Match.FINISHED).count() == 3
            and BotVersion.objects.filter(bot__owner=alice, status__in=["passed", "failed"]).count()
            == 2
        ),
        timeout=150,
    )
    samples = scrape(client)

    def value(name: str, **labels: str) -> float:
        return samples.get((name, tuple(sorted(labels.items()))), 0.0)

    played = Match.objects.filter(pk__in=[m.pk for m in matches])
    assert value("nimmt_matches_started_total") == sum(m.attempts for m in played) == 3
    assert value("nimmt_matches_finished_total", outcome="finished") == 3
    assert value("nimmt_matches_finished_total", outcome="failed") == 0
    faults = Counter(
        fault["kind"] for match in played for seat in match.seats.all() for fault in seat.faults
    )
    assert faults  # the crasher's
    for kind, n in faults.items():
        assert value("nimmt_faults_total", kind=kind) == n
    assert value("nimmt_validations_total", outcome="passed") == 1
    assert value("nimmt_validations_total", outcome="failed") == 1

    # What the runner wrote in each match.json, against what the metrics counted.
    reports = [json.loads(storage.read_bytes(f"{m.result_dir}/match.json")) for m in played]
    bots_run = [bot for report in reports for bot in report["bots"]]
    started = [bot["start_ms"] / 1000 for bot in bots_run if bot.get("start_ms") is not None]
    answers = sum(bot["answers"] for bot in bots_run)
    assert value("nimmt_match_duration_seconds_count") == 3
    assert math.isclose(
        value("nimmt_match_duration_seconds_sum"),
        sum(r["duration_s"] for r in reports),
        abs_tol=0.01,
    )
    assert value("nimmt_match_duration_seconds_bucket", le="+Inf") == 3
    assert value("nimmt_sandbox_start_seconds_count") == len(started) > 0
    assert math.isclose(value("nimmt_sandbox_start_seconds_sum"), sum(started), abs_tol=0.01)
    assert value("nimmt_decision_seconds_count") == answers > 0
    assert value("nimmt_storage_write_seconds_count") == 3
    thinking = sum(b["think_ms"]["mean"] * b["answers"] for b in bots_run if b["answers"]) / 1000
    assert math.isclose(value("nimmt_decision_seconds_sum"), thinking, rel_tol=0.01)
    assert value("nimmt_matches", status="queued") == value("nimmt_matches", status="running") == 0
    assert value("nimmt_versions", status="pending") == 0
    for queue in ("matches", "validation", "maintenance"):
        assert ("nimmt_queue_messages", (("queue", queue),)) in samples
