"""People first: a worker takes its next task from the first of its queues that has one
(``core.celery.QUEUES``), on Redis and on the demo's folder broker, so a person who sits down
while the league's matches fill the queue waits for a free slot, not for the league, and a
finished match is rated in the slot it freed. Every way of starting a worker lists the queues in
that order, and a worker whose list breaks it refuses to start."""

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from core.brokers import FolderTransport
from core.celery import QUEUES, WORKERS
from django.conf import settings
from django.utils import timezone
from kombu import Connection, Consumer, Exchange, Producer, Queue
from ladders.models import Ladder
from matches.models import Match
from matches.tasks import queue_match, rate_match
from nimmt_site_testing import (
    PLATFORM,
    REPO,
    CeleryProcess,
    basic_ladder,
    broker_of_this_process,
    flush_broker,
    make_user,
    program_bot,
    wait_for,
)
from tables import services
from tables.models import Ask
from tables.tasks import start_table

# ---------------------------------------------------------------------------- the brokers


def _folder_options(folder: Path) -> dict[str, Any]:
    for name in ("queue", "control"):
        (folder / name).mkdir(parents=True, exist_ok=True)
    return {
        "data_folder_in": str(folder / "queue"),
        "data_folder_out": str(folder / "queue"),
        "control_folder": str(folder / "control"),
        "store_processed": False,
    }


def _order_taken(connection: Connection) -> list[str]:
    """Publish to every queue, last queue first, then take the messages one at a time (one
    unacknowledged at most, as a worker with one free slot does): the queues they came from."""
    exchange = Exchange("", type="direct")
    queues = [Queue(name, exchange, routing_key=name) for name in QUEUES]
    taken: list[str] = []
    with connection:
        channel = connection.channel()
        for queue in queues:
            queue(channel).declare()
            queue(channel).purge()
        producer = Producer(channel)
        for name in reversed(QUEUES):
            for _ in range(2):
                producer.publish({"queue": name}, exchange=exchange, routing_key=name)

        def got(body: dict[str, str], message: Any) -> None:
            taken.append(body["queue"])
            message.ack()

        consumer = Consumer(channel, queues, callbacks=[got], accept=["json"])
        consumer.qos(prefetch_count=1)
        with consumer:
            while len(taken) < 2 * len(QUEUES):
                connection.drain_events(timeout=5)
    return taken


def test_redis_gives_the_first_queue_s_messages_first() -> None:
    flush_broker()  # this test process's own Redis database
    connection = Connection(
        settings.CELERY_BROKER_URL, transport_options=settings.CELERY_BROKER_TRANSPORT_OPTIONS
    )
    assert _order_taken(connection) == [name for name in QUEUES for _ in range(2)]


def test_the_folder_broker_gives_the_first_queue_s_messages_first(tmp_path: Path) -> None:
    connection = Connection(
        "filesystem://localhost//",
        transport=FolderTransport,
        transport_options=_folder_options(tmp_path),
    )
    assert _order_taken(connection) == [name for name in QUEUES for _ in range(2)]


def test_kombu_s_own_folder_broker_would_take_them_in_turns(tmp_path: Path) -> None:
    # Why FolderTransport exists: the transport as kombu ships it.
    connection = Connection("filesystem://localhost//", transport_options=_folder_options(tmp_path))
    assert _order_taken(connection) == list(QUEUES) * 2


# ---------------------------------------------------------------------------- the workers


def _queues_in(text: str) -> list[list[str]]:
    return [found.split(",") for found in re.findall(r"-Q\s+([a-z,]+)", text)]


def test_every_worker_takes_its_queues_in_order() -> None:
    match_queues, validation = list(WORKERS["matches"]), list(WORKERS["validation"])
    assert [q for q in QUEUES if q in match_queues] == match_queues
    assert set(match_queues) | set(validation) == set(QUEUES)
    supervisord = (REPO / "deploy" / "supervisord.conf").read_text()
    entrypoint = (REPO / "docker" / "entrypoint.sh").read_text()
    units = REPO / "deploy" / "systemd"
    systemd = [
        (units / "nimmt-worker-matches.service").read_text(),
        (units / "nimmt-worker-validation.service").read_text(),
    ]
    for text in (supervisord, entrypoint, "\n".join(systemd)):
        assert _queues_in(text) == [match_queues, validation], text
    # the demo's validation worker has one slot, as production's
    assert re.search(r"-Q validation -c 1 ", supervisord)


@pytest.mark.django_db(transaction=True)
def test_a_worker_whose_queues_break_the_order_refuses_to_start(
    worker_env: dict[str, str], tmp_path: Path
) -> None:
    started = subprocess.run(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", "matches,tables",
         "-c", "1", "--without-gossip", "--without-mingle"],
        cwd=PLATFORM, env=worker_env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert started.returncode != 0
    assert "list tables before matches" in started.stderr


# ---------------------------------------------------------------------------- people first


@pytest.fixture(params=["redis", "folder"])
def broker(request: Any, worker_env: dict[str, str], tmp_path: Path) -> Iterator[dict[str, str]]:
    """The environment of workers on the test's Redis or on a folder broker of its own (the
    demo's), this test process sending to the same."""
    if request.param == "redis":
        yield worker_env
        return
    var = tmp_path / "var"
    options = _folder_options(var / "broker")
    env = {**worker_env, "NIMMT_BROKER_URL": "filesystem://localhost//", "NIMMT_VAR_DIR": str(var)}
    folder = "core.brokers:FolderTransport"
    with broker_of_this_process("filesystem://localhost//", folder, options):
        yield env


def _seconds(start: datetime | None, end: datetime | None) -> float:
    assert start is not None and end is not None
    return (end - start).total_seconds()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_person_and_the_ratings_go_ahead_of_a_full_league_queue(
    broker: dict[str, str], tmp_path: Path
) -> None:
    worker = CeleryProcess.worker(broker, tmp_path / "worker.log", concurrency=2)
    ladder = basic_ladder(players=4)
    Ladder.objects.filter(pk=ladder.pk).update(duplicate=False, is_active=False)
    ladder.refresh_from_db()
    bots = [program_bot(f"sleepy-{n}", "sleepy") for n in range(4)]
    league = [queue_match(ladder, bots) for _ in range(6)]  # 2 slots: 4 wait
    worker.start()
    try:
        wait_for(
            "both slots to play league matches",
            lambda: Match.objects.filter(status=Match.RUNNING).count() == 2,
            timeout=90,
        )
        waiting = Match.objects.filter(pk__in=[m.pk for m in league], status=Match.QUEUED)
        assert waiting.count() == 4
        alice = make_user("alice")
        house = [program_bot("quick-a"), program_bot("quick-b")]
        sat_down = timezone.now()
        table = services.create_table(alice, "basic", house, decision_ms=1000, bank_ms=1000)
        start_table(table)
        first = wait_for(
            "the person's first decision",
            lambda: Ask.objects.filter(table=table).order_by("asked_at").first(),
            timeout=180,
        )
        still_waiting = Match.objects.filter(pk__in=[m.pk for m in league], status=Match.QUEUED)
        assert still_waiting.exists()  # the league's queue was still full when it was asked
        wait_for(
            "the league's matches to be played and rated",
            lambda: (
                Match.objects.filter(
                    pk__in=[m.pk for m in league], status=Match.FINISHED, rated=True
                ).count()
                == len(league)
            ),
            timeout=240,
        )
    finally:
        worker.kill()
    played = Match.objects.filter(pk__in=[m.pk for m in league])
    one_match = max(_seconds(m.started_at, m.finished_at) for m in played)
    waited = _seconds(sat_down, first.asked_at)
    rated_after = [_seconds(m.finished_at, m.rated_at) for m in played]
    print(
        f"\none league match took up to {one_match:.1f} s; the person's first decision came "
        f"{waited:.1f} s after sitting down; ratings {max(rated_after):.2f} s after a match's "
        "end at most"
    )
    assert waited <= one_match + 5
    assert max(rated_after) <= 5


def _children(worker: CeleryProcess) -> set[int]:
    assert worker.process is not None
    found = subprocess.run(
        ["pgrep", "-P", str(worker.process.pid)], capture_output=True, text=True, check=False
    )
    return {int(pid) for pid in found.stdout.split()}


@pytest.mark.django_db(transaction=True)
def test_every_task_runs_in_a_pool_child_of_its_own_started_at_once(
    worker_env: dict[str, str], tmp_path: Path
) -> None:
    # gRPC supports fork only before its first server or channel: a child that played a match
    # never plays another, and the worker's main process never plays one.
    worker = CeleryProcess.worker(worker_env, tmp_path / "worker.log", concurrency=1)
    worker.start()
    try:
        first = wait_for("the pool's child", lambda: _children(worker), 30)
        sent = []
        for number in range(3):
            sent.append(time.monotonic())
            rate_match.apply_async(kwargs={"match_pk": 0})  # no such match: nothing to rate
            wait_for(f"task {number + 1}", partial(_done, worker, number + 1), 30, every=0.02)
            sent[-1] = time.monotonic() - sent[-1]
        last = wait_for("the pool's child", lambda: _children(worker), 30)
    finally:
        worker.kill()
    print(f"\none task at a time in fresh children: {', '.join(f'{s:.2f}' for s in sent)} s")
    assert first.isdisjoint(last)
    assert max(sent[1:]) < 3  # the next child was there at once, not at the pool's next round


def _done(worker: CeleryProcess, count: int) -> bool:
    return worker.output().count(" succeeded in ") >= count
