"""Fair turns at validation (submissions.turns): an owner's uploads beyond
``VALIDATION_PER_OWNER`` wait their turn and are let in one by one behind the other owners'
(round robin), so one owner's backlog, or endless builds, cannot hold up anyone else."""

import threading
from pathlib import Path

import pytest
from accounts.models import User
from core import leases
from django.conf import settings
from django.db import connections
from django.test import Client
from nimmt_site_testing import (
    TEST_BOTS,
    CeleryProcess,
    bot_files,
    flush_broker,
    make_user,
    random_bot_upload,
    wait_for,
    zip_upload,
)
from submissions import services, turns
from submissions.models import Bot, BotVersion
from submissions.tasks import finish_validation, requeue_stale_versions

pytestmark = pytest.mark.django_db


def _upload(owner: User, name: str) -> BotVersion:
    return services.create_bot(owner, name, random_bot_upload(name))


def _verdict(version: BotVersion) -> None:
    """A worker's verdict on ``version``, as validate_version stores it."""
    claim = leases.claim(
        BotVersion,
        version.pk,
        waiting=BotVersion.PENDING,
        working=BotVersion.VALIDATING,
        lease_seconds=60,
    )
    assert claim is not None
    assert finish_validation(claim, passed=False, log_text="checked")


def _queue() -> list[str]:
    """The versions sent to the workers, in the order the queue holds them."""
    return [
        str(v)
        for v in BotVersion.objects.filter(status=BotVersion.PENDING).order_by("queued_at", "pk")
    ]


def _status(version: BotVersion) -> str:
    version.refresh_from_db()
    return version.status


def test_an_owners_uploads_past_the_cap_wait_and_go_in_behind_the_other_owners() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    mine = [_upload(alice, f"alice-{n}") for n in range(3)]
    theirs = _upload(bob, "bob-1")
    assert [_status(v) for v in mine] == [BotVersion.PENDING] + [BotVersion.WAITING] * 2
    assert _status(theirs) == BotVersion.PENDING
    assert _queue() == ["alice-0 v1", "bob-1 v1"]
    _verdict(mine[0])  # alice's next goes to the back of the queue, behind bob's
    assert _queue() == ["bob-1 v1", "alice-1 v1"]
    assert _status(mine[2]) == BotVersion.WAITING
    _verdict(mine[1])
    assert _queue() == ["bob-1 v1", "alice-2 v1"]


def test_the_version_page_says_it_waits_its_turn_and_behind_how_many(client: Client) -> None:
    alice = make_user("alice")
    versions = [_upload(alice, f"alice-{n}") for n in range(3)]
    client.force_login(alice)
    page = client.get(versions[2].get_absolute_url()).content.decode()
    assert "waiting its turn" in page
    assert "2 of alice's versions are" in page
    assert "turn-note" not in client.get(versions[0].get_absolute_url()).content.decode()


def test_more_versions_of_one_bot_wait_their_turn_too() -> None:
    alice = make_user("alice")
    bot = Bot.objects.get(pk=_upload(alice, "alice-bot").bot_id)
    second = services.add_version(bot, random_bot_upload("alice-bot"))
    assert second.status == BotVersion.WAITING


def test_the_sweeper_lets_in_a_waiting_version_whose_turn_came_without_it() -> None:
    alice = make_user("alice")
    first, second = _upload(alice, "a-1"), _upload(alice, "a-2")
    BotVersion.objects.filter(pk=first.pk).update(status=BotVersion.FAILED)  # a lost letting-in
    requeue_stale_versions()
    assert _status(second) == BotVersion.PENDING


def test_a_larger_share_lets_in_as_many(settings: object) -> None:
    settings.VALIDATION_PER_OWNER = 2  # type: ignore[attr-defined]
    alice = make_user("alice")
    statuses = [_status(_upload(alice, f"a-{n}")) for n in range(3)]
    assert statuses == [BotVersion.PENDING] * 2 + [BotVersion.WAITING]
    assert turns.ahead(BotVersion.objects.get(bot__name="a-2")) == 2


ENDLESS_BUILD = b"""name = "NAME"
build = ["sh", "-c", "while :; do :; done"]
command = ["python3", "bot.py"]
"""


@pytest.mark.slow
def test_one_owners_endless_builds_delay_anothers_verdict_by_one_slot_at_most(
    worker_env: dict[str, str], tmp_path: Path
) -> None:
    """The attack: two endless builds of one owner made another's honest upload wait for both
    (537 s against 13-25 s). One validation worker; each build is stopped after 10 s."""
    mallory, alice = make_user("mallory"), make_user("alice")
    endless = []
    for n in range(3):
        files = bot_files(TEST_BOTS / "quick")
        files["nimmt-bot.toml"] = ENDLESS_BUILD.replace(b"NAME", f"spin-{n}".encode())
        endless.append(services.create_bot(mallory, f"spin-{n}", zip_upload(files)))
    honest = _upload(alice, "honest")
    env = {**worker_env, "NIMMT_BUILD_SECONDS": "10"}
    worker = CeleryProcess.worker(env, tmp_path / "worker.log", queues="validation", concurrency=1)
    worker.start()
    try:
        done = wait_for(
            "alice's verdict",
            lambda: BotVersion.objects.filter(
                pk=honest.pk, status__in=(BotVersion.PASSED, BotVersion.FAILED)
            ).first(),
            timeout=600,
        )
        # mallory's second build started only after alice's verdict: one slot at most
        started = BotVersion.objects.filter(bot__owner=mallory, attempts__gt=0)
        assert started.count() <= 2
        assert (
            BotVersion.objects.filter(
                bot__owner=mallory, validated_at__lt=done.validated_at
            ).count()
            <= 1
        )
    finally:
        worker.kill()
    assert done.status == BotVersion.PASSED, done.validation_log
    assert settings.VALIDATION_PER_OWNER == 1


@pytest.mark.django_db(transaction=True)
def test_two_uploads_of_one_owner_at_once_both_kept_and_only_one_takes_the_place() -> None:
    alice = make_user("alice")
    start = threading.Barrier(2)
    errors: list[BaseException] = []

    def upload(name: str) -> None:
        try:
            start.wait(timeout=10)
            _upload(alice, name)
        except BaseException as error:
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=upload, args=(f"at-once-{n}",)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    flush_broker()  # the two uploads' messages: later tests count the queue
    assert errors == []
    statuses = sorted(BotVersion.objects.filter(bot__owner=alice).values_list("status", flat=True))
    assert statuses == [BotVersion.PENDING, BotVersion.WAITING]
