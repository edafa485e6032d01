"""Remote bots on the site, without a gateway process: tokens issued and revoked on the bot page
and in the API (shown once, kept hashed, the owner's only), what the bot page shows whom, the
scheduler skipping remote bots that are offline or busy, and the gateway refusing plaintext
off loopback. (The gateway itself plays in ``test_site_remote.py``.)"""

import random
from typing import Any

import pytest
import redis
from django.conf import settings
from django.test import Client
from django.urls import reverse
from matches import scheduler
from matches.models import Match
from nimmt_site_testing import basic_ladder, flush_broker, make_token, make_user, program_bot
from remote import handover, services
from remote.gateway import ADDRESSES_KEPT, Gateway, GatewayConfig
from remote.models import RemoteConnection, RemoteToken, token_hash
from submissions.models import Bot

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def broker() -> redis.Redis:
    flush_broker()
    client: redis.Redis = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    return client


def _alice() -> tuple[Client, Bot]:
    alice = make_user("alice")
    client = Client()
    client.force_login(alice)
    return client, Bot.objects.create(owner=alice, name="alice-remote")


def test_it_shows_the_token_once_keeps_only_its_hash_and_makes_the_bot_remote() -> None:
    client, bot = _alice()
    page = client.post(reverse("remote-issue-token", args=[bot.uuid]))
    assert page.status_code == 200 and page["Cache-Control"] == "private, no-store"
    token = page.context["token"]
    assert token.startswith("nrb_") and token in page.content.decode()
    row = RemoteToken.objects.get(bot=bot)
    assert row.digest == token_hash(token) and token not in (row.digest, row.hint)
    bot.refresh_from_db()
    assert bot.active_version is not None and bot.active_version.is_remote
    assert bot.state == "playing"
    again = client.get(bot.get_absolute_url()).content.decode()
    assert token not in again and row.hint in again
    assert "python3 bot.py --remote" in again and "node bot.js --remote" in again
    assert "offline" in again


def test_it_refuses_to_issue_or_revoke_another_owners_token() -> None:
    _, bot = _alice()
    bob = Client()
    bob.force_login(make_user("bob"))
    assert bob.post(reverse("remote-issue-token", args=[bot.uuid])).status_code == 403
    assert bob.post(reverse("remote-revoke-token", args=[bot.uuid])).status_code == 403
    api = Client(HTTP_AUTHORIZATION=f"Bearer {make_token(make_user('carol'))}")
    assert api.post(f"/api/v1/bots/{bot.uuid}/remote-token/").status_code == 403
    assert not RemoteToken.objects.exists()


def test_a_new_token_revokes_the_old_and_revoking_cuts_the_live_connection(
    broker: redis.Redis, django_capture_on_commit_callbacks: Any
) -> None:
    _, bot = _alice()
    api = Client(HTTP_AUTHORIZATION=f"Bearer {make_token(bot.owner)}")
    first = api.post(f"/api/v1/bots/{bot.uuid}/remote-token/").json()["token"]
    broker.set(handover.live_key(bot.pk), "a-connection")
    with django_capture_on_commit_callbacks(execute=True):
        second = api.post(f"/api/v1/bots/{bot.uuid}/remote-token/").json()["token"]
    assert first != second
    assert not broker.exists(handover.live_key(bot.pk))  # the gateway cuts it at its heartbeat
    assert RemoteToken.objects.get(digest=token_hash(first)).revoked_at is not None
    broker.set(handover.live_key(bot.pk), "another")
    with django_capture_on_commit_callbacks(execute=True):
        revoked = api.delete(f"/api/v1/bots/{bot.uuid}/remote-token/").json()
    assert revoked == {"revoked": True}
    assert not broker.exists(handover.live_key(bot.pk))
    assert not RemoteToken.objects.filter(revoked_at__isnull=True).exists()


def test_the_bot_page_shows_online_to_everyone_and_connections_to_the_owner_only(
    broker: redis.Redis,
) -> None:
    client, bot = _alice()
    services.issue(bot)
    broker.set(handover.online_key(bot.pk), "gw")
    RemoteConnection.objects.create(
        bot=bot, gateway="gw", address="203.0.113.7", kit="nimmt-botkit-python/1", rtt_ms=42.0
    )
    mine = client.get(bot.get_absolute_url()).content.decode()
    assert "online" in mine and "203.0.113.7" in mine and "42 ms" in mine
    public = Client().get(bot.get_absolute_url()).content.decode()
    assert "online" in public
    assert "203.0.113.7" not in public and "NIMMT_REMOTE_TOKEN" not in public


def test_the_scheduler_gives_matches_to_online_remote_bots_only_and_one_at_a_time(
    broker: redis.Redis,
) -> None:
    ladder = basic_ladder(players=2)
    owner = make_user("remote-owner")
    remote = Bot.objects.create(owner=owner, name="at-home")
    services.issue(remote)
    hosted = program_bot("hosted")

    def lineups() -> list[set[int]]:
        made = scheduler.schedule_ladder(ladder.pk, random.Random(1))
        return [set(m.seats.values_list("bot_id", flat=True)) for m in made]

    assert lineups() == []  # offline: the hosted bot alone makes no match
    broker.set(handover.online_key(remote.pk), "gw")
    assert lineups() == [{remote.pk, hosted.pk}]  # online: one match, not two at once
    assert lineups() == []  # busy with the queued one
    Match.objects.update(status=Match.FINISHED)
    assert lineups() == [{remote.pk, hosted.pk}]


def test_the_gateway_refuses_plaintext_off_loopback() -> None:
    config: dict[str, Any] = {"redis_url": settings.CELERY_BROKER_URL}
    with pytest.raises(ValueError, match="without TLS"):
        Gateway(GatewayConfig(address="0.0.0.0:7443", **config))
    Gateway(GatewayConfig(address="127.0.0.1:0", **config))  # loopback: plaintext is fine


def test_the_gateway_counts_streams_per_address_in_a_sliding_minute_with_bounded_memory() -> None:
    gateway = Gateway(
        GatewayConfig(
            address="127.0.0.1:0", redis_url=settings.CELERY_BROKER_URL, connects_per_minute=3
        )
    )
    assert [gateway.admit("10.0.0.7", now=t) for t in (0.0, 1.0, 2.0, 3.0)] == [
        True, True, True, False,
    ]  # fmt: skip
    assert gateway.admit("10.0.0.8", now=3.0)  # another address has its own count
    assert not gateway.admit("10.0.0.7", now=59.9)  # a refused attempt is not counted ...
    assert gateway.admit("10.0.0.7", now=60.1)  # ... and the first one has left the minute
    assert not gateway.admit("10.0.0.7", now=60.2)
    for n in range(3 * ADDRESSES_KEPT):  # a crowd of addresses within a minute, one stream each
        assert gateway.admit(f"10.1.{n // 250}.{n % 250}", now=200.0 + n / 1000)
        assert len(gateway._opened) <= ADDRESSES_KEPT
    assert "10.0.0.7" not in gateway._opened  # quiet for a minute: forgotten first
