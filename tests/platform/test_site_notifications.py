"""Notifications: owners choose per event e-mail and/or a signed webhook; events are noticed and
sent by workers, once each; a failing receiver gets the delivery on a later try; the account's
page shows the log; a webhook may not call loopback or private addresses unless the settings
allow it (tests only)."""

import hashlib
import hmac
import json
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jsonschema
import pytest
from accounts.models import User
from api import openapi
from challenges import services as challenge_services
from challenges.models import Challenge
from django.core import mail
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from matches.models import Match
from nimmt_site_testing import (
    CeleryProcess,
    basic_ladder,
    make_token,
    make_user,
    program_bot,
    wait_for,
)
from notifications import services, webhooks
from notifications.models import EVENTS, Attempt, Channel, Delivery, Event
from notifications.tasks import notice_events, send_test
from submissions.models import Bot
from versiontests.models import VersionTest

pytestmark = pytest.mark.django_db

PORTS = range(8700, 8800)  # this test suite's own


class Receiver:
    """A webhook receiver on 127.0.0.1: keeps every request; ``/flaky`` fails its first two."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                with receiver.lock:
                    receiver.requests.append(
                        {"path": self.path, "headers": dict(self.headers), "body": body}
                    )
                    tries = sum(1 for r in receiver.requests if r["path"] == self.path)
                status = 500 if self.path == "/flaky" and tries <= 2 else 204
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        for port in PORTS:
            try:
                self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
                break
            except OSError:
                continue
        else:
            raise RuntimeError("no free port in 8700-8799")
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def at(self, path: str) -> list[dict[str, Any]]:
        with self.lock:
            return [r for r in self.requests if r["path"] == path]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver()
    yield found
    found.server.shutdown()
    found.server.server_close()


def verified(request: dict[str, Any], secret: str) -> dict[str, Any]:
    """The body of a delivery whose signature checks out (else the test fails)."""
    headers = {k.lower(): v for k, v in request["headers"].items()}
    timestamp = headers["x-nimmt-timestamp"]
    expected = hmac.new(
        secret.encode(), f"{timestamp}.".encode() + request["body"], hashlib.sha256
    ).hexdigest()
    assert hmac.compare_digest(headers["x-nimmt-signature"], f"sha256={expected}")
    assert abs(int(timestamp) - time.time()) < 600
    body: dict[str, Any] = json.loads(request["body"])
    assert headers["x-nimmt-event"] == body["id"]
    return body


def subscribe(user: User, url: str, kinds: list[str], way: str = "webhook") -> Channel:
    channel, _ = Channel.objects.get_or_create(user=user)
    channel.webhook_url = url
    channel.save()
    services.set_choices(channel, {kind: {way: True} for kind in kinds})
    return channel


def happenings(alice: User) -> tuple[Bot, Challenge, VersionTest]:
    """A pause of alice's bot, her finished challenge and her decided version test."""
    mine = program_bot("mine", owner=alice)
    house = program_bot("house-a")
    challenge = challenge_services.create_challenge(alice, mine, "basic", 2, [house], 1)
    Bot.objects.filter(pk=mine.pk).update(paused_at=timezone.now(), pause_reason="3 crashes")
    for seat in challenge.match.seats.all():
        seat.deal_scores, seat.score, seat.rank = [20 + seat.seat], 20 + seat.seat, 2 - seat.seat
        seat.save()
    Match.objects.filter(pk=challenge.match_id).update(
        status=Match.FINISHED, finished_at=timezone.now()
    )
    assert mine.active_version is not None
    test = VersionTest.objects.create(
        candidate=mine.active_version,
        baseline=mine.active_version,
        ladder=basic_ladder(players=2),
        requested_by=alice,
        e0=0,
        e1=2,
        alpha=0.05,
        beta=0.05,
        cap=100,
        seed=1,
        status=VersionTest.FINISHED,
        verdict="h1",
        finished_at=timezone.now(),
        deals=40,
    )
    return Bot.objects.get(pk=mine.pk), challenge, test


def test_a_receiver_gets_signed_deliveries_once_and_a_flaky_one_on_the_third_try(
    worker_env: dict[str, str], tmp_path: Any, receiver: Receiver
) -> None:
    alice = make_user("alice")
    User.objects.filter(pk=alice.pk).update(email="")  # the webhook only
    channel = subscribe(
        alice,
        receiver.url("/hook"),
        ["bot_paused", "challenge_finished", "version_test_decided"],
    )
    mine, challenge, test = happenings(alice)
    env = {
        **worker_env,
        "NIMMT_WEBHOOK_ALLOW_PRIVATE": "true",  # the receiver is on 127.0.0.1
        "NIMMT_NOTIFY_RETRY_SECONDS": "0.5",
    }
    worker = CeleryProcess.worker(env, tmp_path / "worker.log", queues="maintenance")
    worker.start()
    try:
        notice_events.delay()
        wait_for("three deliveries", lambda: len(receiver.at("/hook")) >= 3, timeout=60)
        bodies = {
            b["event"]: b
            for b in (verified(r, channel.webhook_secret) for r in receiver.at("/hook"))
        }
        assert set(bodies) == {"bot_paused", "challenge_finished", "version_test_decided"}
        assert bodies["bot_paused"]["data"]["bot"]["name"] == "mine"
        assert bodies["bot_paused"]["data"]["reason"] == "3 crashes"
        assert bodies["challenge_finished"]["data"]["challenge"]["id"] == str(challenge.uuid)
        (edge,) = bodies["challenge_finished"]["data"]["edges"]
        assert (edge["opponent"], edge["edge"]) == ("house-a", -0.5)
        assert bodies["version_test_decided"]["data"]["verdict"] == "h1"
        # Noticed again (the next poll, twice at once): nothing more is sent.
        notice_events.delay()
        notice_events.delay()
        time.sleep(3)
        assert len(receiver.at("/hook")) == 3 and Event.objects.count() == 3
        # A receiver that fails twice gets it on the third try.
        channel.webhook_url = receiver.url("/flaky")
        channel.save()
        assert len(send_test(alice.pk)) == 1  # no e-mail address: the webhook only
        wait_for("the third try", lambda: len(receiver.at("/flaky")) >= 3, timeout=60)
        delivery = wait_for(
            "the delivery to be marked sent",
            lambda: Delivery.objects.filter(event__kind="test", status=Delivery.SENT).first(),
            timeout=30,
        )
    finally:
        worker.kill()
    tries = receiver.at("/flaky")
    assert len(tries) == 3
    ids = {verified(r, channel.webhook_secret)["id"] for r in tries}
    assert ids == {str(Event.objects.get(kind="test").uuid)}  # the same event each time
    assert delivery.attempts == 3
    assert [a.ok for a in Attempt.objects.filter(delivery=delivery)] == [False, False, True]
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("notifications")).content.decode()
    log = page.split('id="delivery-log"')[1]
    assert log.count("HTTP 500") == 2 and log.count("HTTP 204") == 4
    for subject in ("mine was paused for faults", "A test from Nimmt Arena"):
        assert subject in log
    assert mine.paused_at is not None and test.verdict == "h1"


def test_a_webhook_may_not_call_loopback_or_private_addresses(settings: Any) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE = False
    for url, why in (
        ("http://example.org/hook", "must use https"),
        ("ftp://example.org/", "https:// address"),
        ("https://127.0.0.1/hook", "private, loopback or reserved"),
        ("https://10.1.2.3/hook", "private, loopback or reserved"),
        ("https://169.254.169.254/latest/meta-data", "private, loopback or reserved"),
        ("https://[::1]:8443/", "private, loopback or reserved"),
        ("https://user:pw@example.org/", "no user name or password"),
        ("https://example.org:99999/", "port"),
    ):
        with pytest.raises(webhooks.WebhookRefused, match=why):
            webhooks.check_url(url)
    # A name that resolves to loopback is refused when it is called.
    with pytest.raises(webhooks.WebhookRefused, match="resolves to"):
        webhooks.resolve("localhost", 443, allow_private=False)
    answer = webhooks.post("https://localhost:8799/hook", "s", b"{}", "id", "test")
    assert not answer.ok and "resolves to" in answer.detail
    settings.WEBHOOK_ALLOW_PRIVATE = True
    assert webhooks.check_url("http://127.0.0.1:8700/x?y=1") == (
        "http",
        "127.0.0.1",
        8700,
        "/x?y=1",
    )


def test_the_poll_reads_what_changed_by_index() -> None:
    # Many owners told of everything, each with a bot and a version, few of which changed
    # lately: what the poll looks for is the few rows its time column finds.
    kinds = [kind for kind, _ in EVENTS]
    alice = make_user("alice")
    subscribe(alice, "https://example.org/hook", kinds)
    happenings(alice)
    ladder = basic_ladder(players=3)
    long_ago = timezone.now() - timedelta(days=30)
    tests = []
    for n in range(200):
        owner = make_user(f"owner-{n}")
        subscribe(owner, "https://example.org/hook", kinds)
        version = program_bot(f"bot-{n}", owner=owner).active_version
        assert version is not None
        tests.append(
            VersionTest(candidate=version, baseline=version, ladder=ladder, requested_by=owner,
                        e0=0, e1=2, alpha=0.05, beta=0.05, cap=100, seed=n,
                        status=VersionTest.FINISHED, verdict="h0", finished_at=long_ago)
        )  # fmt: skip
    VersionTest.objects.bulk_create(tests)
    old = Match.objects.bulk_create(
        Match(variant="basic", players=2, seed=n, status=Match.FINISHED, finished_at=long_ago)
        for n in range(len(tests))
    )
    Challenge.objects.bulk_create(
        Challenge(challenger=t.requested_by, version=t.candidate, match=m, deals=1)
        for t, m in zip(tests, old, strict=True)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    with CaptureQueriesContext(connection) as poll:
        assert len(services.notice_all()) == 3
    looks = {
        "bot_paused_at": '"submissions_bot"."paused_at" >',
        "version_validated_at": '"submissions_botversion"."validated_at" >',
        "version_test_finished": '"versiontests_versiontest"."finished_at" >',
        "match_latest_finished": '"matches_match"."finished_at" >',
    }
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # what an index allows, at any size
        for index, where in looks.items():
            (sql,) = [q["sql"] for q in poll.captured_queries if where in q["sql"]]
            cursor.execute(f"EXPLAIN {sql}")
            plan = "\n".join(row[0] for row in cursor.fetchall())
            assert index in plan, plan
            # The seasons' tables hold a few rows a ladder a season: read whole.
            big = ("submissions_", "versiontests_", "matches_", "challenges_")
            assert not any(f"Seq Scan on {table}" in plan for table in big), plan


def test_a_delivery_is_sent_once_however_often_its_task_comes(settings: Any) -> None:
    alice = make_user("alice")
    subscribe(alice, "", ["bot_paused"], way="email")
    happenings(alice)
    made = services.notice_all()
    assert len(made) == 1 and services.notice_all() == []
    (pk,) = made
    assert services.deliver(pk) is None and services.deliver(pk) is None
    assert len(mail.outbox) == 1 and "mine was paused for faults" in mail.outbox[0].subject
    delivery = Delivery.objects.get(pk=pk)
    assert (delivery.status, delivery.attempts, delivery.target) == ("sent", 1, alice.email)


def test_a_delivery_that_keeps_failing_is_given_up_after_its_tries(settings: Any) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE = False
    settings.NOTIFY_ATTEMPTS = 3
    settings.NOTIFY_RETRY_SECONDS = 0.1
    alice = make_user("alice")
    subscribe(alice, "https://127.0.0.1/hook", ["bot_paused"])
    happenings(alice)
    (pk,) = services.notice_all()
    waits = []
    for _ in range(3):
        Delivery.objects.filter(pk=pk).update(next_attempt_at=timezone.now())
        waits.append(services.deliver(pk))
    assert waits == [0.1, 0.2, None]  # doubling, then given up
    delivery = Delivery.objects.get(pk=pk)
    assert delivery.status == Delivery.FAILED and delivery.attempts == 3
    assert "private, loopback or reserved" in delivery.log.first().detail  # type: ignore[union-attr]


def test_the_page_keeps_the_choices_and_refuses_a_bad_address(settings: Any) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE = False
    alice = make_user("alice")
    client = Client()
    client.force_login(alice)
    url = reverse("notifications")
    assert Client().get(url).status_code == 302  # to the log-in page
    saved = client.post(
        url,
        {
            "webhook_url": "https://hooks.example.org/nimmt",
            "bot_paused:email": "on",
            "version_failed:webhook": "on",
            "nonsense:webhook": "on",
        },
        follow=True,
    )
    assert "Saved." in saved.content.decode()
    channel = Channel.objects.get(user=alice)
    assert channel.webhook_url == "https://hooks.example.org/nimmt"
    assert channel.wants("bot_paused", "email") and not channel.wants("bot_paused", "webhook")
    assert channel.wants("version_failed", "webhook") and "nonsense" not in channel.choices
    refused = client.post(url, {"webhook_url": "https://192.168.1.5/hook"})
    assert refused.status_code == 400
    assert "private, loopback or reserved" in refused.content.decode()
    assert Channel.objects.get(user=alice).webhook_url == "https://hooks.example.org/nimmt"
    secret = channel.webhook_secret
    client.post(reverse("notifications-secret"))
    assert Channel.objects.get(user=alice).webhook_secret != secret
    tested = client.post(reverse("notifications-test"), follow=True).content.decode()
    assert "A test is on its way" in tested  # alice has an e-mail address
    nobody = make_user("nomail")
    User.objects.filter(pk=nobody.pk).update(email="")
    other = Client()
    other.force_login(User.objects.get(pk=nobody.pk))
    assert (
        "Nowhere to send it"
        in other.post(reverse("notifications-test"), follow=True).content.decode()
    )


def _schema(path: str, method: str = "get", status: str = "200") -> dict[str, Any]:
    doc = openapi.document()
    answer = doc["paths"][path][method]["responses"][status]["content"]["application/json"]
    return {**answer["schema"], "components": doc["components"]}


def test_the_api_sets_the_choices_sends_a_test_and_shows_the_log(settings: Any) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE = False
    alice = make_user("alice")
    client = Client()
    auth = {"Authorization": f"Bearer {make_token(alice)}"}
    url = reverse("api-notifications")
    assert client.get(url).status_code == 401
    mine = client.get(url, headers=auth)
    jsonschema.validate(mine.json(), _schema("/notifications/"))
    assert mine.json()["notifications"]["events"]["bot_paused"] == {
        "email": False,
        "webhook": False,
    }
    changed = client.post(
        url,
        {
            "webhook_url": "https://hooks.example.org/n",
            "events": {"challenge_finished": {"email": True, "webhook": True}},
        },
        content_type="application/json",
        headers=auth,
    )
    jsonschema.validate(changed.json(), _schema("/notifications/", "post"))
    assert changed.json()["notifications"]["events"]["challenge_finished"]["webhook"] is True
    for bad, why in (
        ({"webhook_url": "http://hooks.example.org/"}, "must use https"),
        ({"webhook_url": "https://10.0.0.1/"}, "private, loopback or reserved"),
        ({"events": {"weather": {"email": True}}}, "Unknown event 'weather'"),
        ({"events": {"bot_paused": {"email": "yes"}}}, "'events' must map"),
    ):
        refused = client.post(url, bad, content_type="application/json", headers=auth)
        assert refused.status_code == 400 and why in refused.json()["error"], bad
    assert Channel.objects.get(user=alice).webhook_url == "https://hooks.example.org/n"
    test = client.post(reverse("api-notifications-test"), headers=auth)
    assert test.status_code == 202
    jsonschema.validate(test.json(), _schema("/notifications/test/", "post", "202"))
    assert len(test.json()["deliveries"]) == 2  # e-mail and webhook
    for pk in test.json()["deliveries"]:
        services.deliver(pk)
    log = client.get(reverse("api-notification-deliveries"), headers=auth).json()
    jsonschema.validate(log, _schema("/notifications/deliveries/"))
    ways = {d["way"]: d for d in log["deliveries"]}
    assert ways["email"]["status"] == "sent" and ways["email"]["log"][0]["ok"]
    assert ways["webhook"]["status"] == "pending" and not ways["webhook"]["log"][0]["ok"]
