"""What a bot's owner does about remote play, shared by the bot page and the JSON API, and what
the scheduler and the pages ask: which remote bots are online.

Issuing a token makes the bot a remote bot: a new version with no code (``code_root`` remote,
passed at once, as there is nothing to check here) becomes its active version, and the bot
plays whenever it is online. Uploading code later makes it a hosted bot again. Revoking the
token (or issuing another) cuts the live connection within a heartbeat or two of the gateway
(:data:`remote.handover.HEARTBEAT`).
"""

from collections.abc import Iterable
from dataclasses import dataclass

import redis
from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from matches.models import Match, Seat
from submissions.models import Bot, BotVersion

from remote import handover
from remote.models import RemoteConnection, RemoteToken

#: Connections shown on the bot page.
RECENT_CONNECTIONS = 10


class RemoteUnavailable(Exception):
    """Remote bots need Redis (``NIMMT_REMOTE_REDIS_URL``, or a Redis broker)."""


def _redis() -> "redis.Redis":
    if not settings.REMOTE_REDIS_URL:
        raise RemoteUnavailable(
            "remote bots need Redis (NIMMT_REMOTE_REDIS_URL, or NIMMT_BROKER_URL=redis://...)"
        )
    return redis.Redis.from_url(settings.REMOTE_REDIS_URL)


def issue(bot: Bot) -> str:
    """A new remote token for ``bot`` (shown to its owner once); the old one is revoked and
    its connection cut; the bot becomes a remote bot if it was not."""
    with transaction.atomic():
        bot = Bot.objects.select_for_update().get(pk=bot.pk)
        _, token = RemoteToken.issue(bot)
        active = bot.active_version
        if active is None or not active.is_remote:
            number = (bot.versions.aggregate(n=Max("number"))["n"] or 0) + 1
            version = BotVersion.objects.create(
                bot=bot,
                number=number,
                status=BotVersion.PASSED,
                code_root=BotVersion.REMOTE,
                upload_name="(plays from its owner's machine)",
                validated_at=timezone.now(),
                validation_log="A remote version: the bot plays through the gateway.",
            )
            bot.active_version = version
            bot.save(update_fields=["active_version"])
        transaction.on_commit(lambda: cut(bot.pk))
    return token


def revoke(bot: Bot) -> bool:
    """Revoke ``bot``'s remote token and cut its connection; whether there was one."""
    with transaction.atomic():
        revoked = RemoteToken.objects.filter(bot=bot, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
        transaction.on_commit(lambda: cut(bot.pk))
    return revoked > 0


def cut(bot: int) -> None:
    """End ``bot``'s live connection (its gateway notices at its next heartbeat)."""
    client = _redis()
    client.delete(handover.live_key(bot), handover.online_key(bot))


def online(bots: Iterable[int]) -> set[int]:
    """Which of ``bots`` are online: connected to a gateway, or within the grace period."""
    ids = list(bots)
    if not ids or not settings.REMOTE_REDIS_URL:
        return set()
    found = _redis().mget([handover.online_key(b) for b in ids])
    return {bot for bot, value in zip(ids, found, strict=True) if value is not None}


@dataclass(frozen=True)
class RemoteStatus:
    """What the bot page shows of a bot's remote play."""

    token: RemoteToken | None  # the active one
    online: bool
    connections: list[RemoteConnection]
    gateway_url: str


def status(bot: Bot) -> RemoteStatus:
    token = RemoteToken.objects.filter(bot=bot, revoked_at__isnull=True).first()
    try:
        is_online = bot.pk in online([bot.pk])
    except (RemoteUnavailable, redis.RedisError):
        is_online = False
    return RemoteStatus(
        token,
        is_online,
        list(bot.remote_connections.all()[:RECENT_CONNECTIONS]),
        gateway_url(),
    )


def gateway_url() -> str:
    """Where remote bots connect (``NIMMT_GATEWAY_URL``, else the gateway's listen address)."""
    return settings.GATEWAY_URL or f"grpcs://{settings.GATEWAY_ADDRESS}"


def _is_remote(bot: Bot) -> bool:
    return bool(bot.active_version and bot.active_version.is_remote)


def without_remote(bots: dict[int, Bot], lineup: Iterable[int]) -> dict[int, Bot]:
    """``bots`` without the remote bots of ``lineup`` (just given a match)."""
    taken = {pk for pk in lineup if pk in bots and _is_remote(bots[pk])}
    return {pk: bot for pk, bot in bots.items() if pk not in taken}


def schedulable(bots: dict[int, Bot]) -> dict[int, Bot]:
    """``bots`` without the remote bots that cannot take a match now: offline ones (past the
    grace period), and those already in a queued or running match (one connection plays one
    match at a time)."""
    remote = [pk for pk, bot in bots.items() if _is_remote(bot)]
    if not remote:
        return bots
    try:
        up = online(remote)
    except (RemoteUnavailable, redis.RedisError):
        up = set()
    busy = set(
        Seat.objects.filter(
            bot_id__in=remote, match__status__in=[Match.QUEUED, Match.RUNNING]
        ).values_list("bot_id", flat=True)
    )
    gone = {pk for pk in remote if pk not in up or pk in busy}
    return {pk: bot for pk, bot in bots.items() if pk not in gone}
