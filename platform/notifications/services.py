"""Noticing events, and delivering them.

**Noticing** (:func:`notice_all`, run by the beat every ``NOTIFY_POLL_SECONDS``): what happened
in the last ``NOTIFY_WINDOW`` to the bots of users who asked to be told, read from the rows
that say it (a bot's ``paused_at``, a version's verdict, a version test's, a challenge's
match): each becomes an :class:`~notifications.models.Event` under a key that names it
exactly, created once (the key is unique), so that seeing it again — the next poll, two polls
at once — adds nothing. The apps that make these things happen send nothing themselves.

**Delivering** (:func:`deliver`, a task per delivery): claim the delivery (a conditional
``UPDATE``: one sender at a time, and a delivery already sent is never sent again), mail it or
call the webhook, log the attempt; after a failure it is tried again after
``NOTIFY_RETRY_SECONDS · 2^(attempts − 1)``, up to ``NOTIFY_ATTEMPTS`` tries.
"""

import json
import logging
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from accounts.models import User
from challenges.models import Challenge
from challenges.services import edges
from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from matches.models import Match
from seasons.models import Season
from submissions.models import Bot, BotVersion
from versiontests.models import VersionTest

from notifications import webhooks
from notifications.models import EVENT_KINDS, Attempt, Channel, Delivery, Event

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Notice:
    """An event to record for ``user``."""

    user_id: int
    kind: str
    key: str
    subject: str
    data: dict[str, Any]


def _link(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


# ---------------------------------------------------------------------------- noticing


def paused_bots(since: datetime, users: set[int]) -> Iterable[Notice]:
    for bot in Bot.objects.filter(paused_at__gt=since, owner_id__in=users):
        yield Notice(
            bot.owner_id,
            "bot_paused",
            f"bot_paused:{bot.pk}:{bot.paused_at.isoformat() if bot.paused_at else ''}",
            f"{bot.name} was paused for faults",
            {
                "bot": {
                    "id": str(bot.uuid),
                    "name": bot.name,
                    "url": _link(bot.get_absolute_url()),
                },
                "paused_at": _iso(bot.paused_at),
                "reason": bot.pause_reason,
            },
        )


def checked_versions(since: datetime, users: set[int]) -> Iterable[Notice]:
    versions = BotVersion.objects.filter(
        validated_at__gt=since,
        status__in=[BotVersion.PASSED, BotVersion.FAILED],
        bot__owner_id__in=users,
    ).select_related("bot")
    for version in versions:
        passed = version.status == BotVersion.PASSED
        yield Notice(
            version.bot.owner_id,
            "version_passed" if passed else "version_failed",
            f"version:{version.pk}:{version.status}",
            f"{version} {'passed' if passed else 'failed'} its checks",
            {
                "bot": {"id": str(version.bot.uuid), "name": version.bot.name},
                "version": {
                    "id": str(version.uuid),
                    "number": version.number,
                    "status": version.status,
                    "url": _link(version.get_absolute_url()),
                },
                "validated_at": _iso(version.validated_at),
                "output": version.validation_log[-2000:],
            },
        )


def decided_tests(since: datetime, users: set[int]) -> Iterable[Notice]:
    tests = VersionTest.objects.filter(
        finished_at__gt=since, status=VersionTest.FINISHED, requested_by_id__in=users
    ).select_related("candidate__bot", "baseline")
    for test in tests:
        evidence = test.evidence
        yield Notice(
            test.requested_by_id,
            "version_test_decided",
            f"version_test:{test.pk}:{test.verdict}",
            f"The test of {test.candidate} is decided: {test.verdict}",
            {
                "bot": {"id": str(test.candidate.bot.uuid), "name": test.candidate.bot.name},
                "candidate": test.candidate.number,
                "baseline": test.baseline.number,
                "verdict": test.verdict,
                "deals": test.deals,
                "edge": round(evidence.mean, 4) if test.deals else None,
                "llr": round(test.llr, 4),
                "url": _link(test.get_absolute_url()),
            },
        )


def finished_challenges(since: datetime, users: set[int]) -> Iterable[Notice]:
    challenges = Challenge.objects.filter(
        match__finished_at__gt=since,
        match__status__in=[Match.FINISHED, Match.FAILED],
        challenger_id__in=users,
    ).select_related("match", "version__bot")
    for challenge in challenges:
        match = challenge.match
        yield Notice(
            challenge.challenger_id,
            "challenge_finished",
            f"challenge:{challenge.pk}:{match.status}",
            f"Your challenge with {challenge.version.bot.name} is {match.status}",
            {
                "challenge": {
                    "id": str(challenge.uuid),
                    "url": _link(challenge.get_absolute_url()),
                    "status": match.status,
                    "error": match.error,
                },
                "edges": [
                    {
                        "opponent": e.opponent.name,
                        "deals": e.comparison.games,
                        "edge": round(e.comparison.mean_diff, 4),
                        "half_width": None
                        if not e.comparison.has_interval
                        else round(e.comparison.half_width, 4),
                    }
                    for e in edges(challenge)
                ],
            },
        )


def ended_seasons(since: datetime, users: set[int]) -> Iterable[Notice]:
    """A season ended: told to the owners of the bots in its kept table."""
    for season in Season.objects.filter(finished_at__gt=since).select_related("ladder"):
        names = {row["bot"]["id"]: row["place"] for row in season.standings}
        owners = Bot.objects.filter(uuid__in=list(names), owner_id__in=users)
        for owner_id in sorted({b.owner_id for b in owners}):
            yield Notice(
                owner_id,
                "season_ended",
                f"season_ended:{season.pk}:{owner_id}",
                f"{season.name} of {season.ladder} has ended",
                {
                    "season": {"id": str(season.uuid), "url": _link(season.get_absolute_url())},
                    "final_standings": season.final_standings,
                    "your_bots": [
                        {"name": b.name, "place": names[str(b.uuid)]}
                        for b in owners
                        if b.owner_id == owner_id
                    ],
                },
            )


def season_finalists(since: datetime, users: set[int]) -> Iterable[Notice]:
    """A bot was ranked into a season's final (its tournament started)."""
    seasons = Season.objects.filter(
        tournament__started_at__gt=since, tournament__isnull=False
    ).select_related("ladder", "tournament")
    for season in seasons:
        assert season.tournament is not None
        entrants = season.tournament.entrants.filter(bot__owner_id__in=users).select_related("bot")
        for entrant in entrants:
            yield Notice(
                entrant.bot.owner_id,
                "season_final",
                f"season_final:{season.pk}:{entrant.bot_id}",
                f"{entrant.bot.name} is in the final of {season.name} of {season.ladder}",
                {
                    "season": {"id": str(season.uuid), "url": _link(season.get_absolute_url())},
                    "bot": {"id": str(entrant.bot.uuid), "name": entrant.bot.name},
                    "final": _link(season.tournament.get_absolute_url()),
                },
            )


SOURCES = (
    paused_bots,
    checked_versions,
    decided_tests,
    finished_challenges,
    ended_seasons,
    season_finalists,
)


def notice_all(now: datetime | None = None) -> list[int]:
    """Record the events of the last ``NOTIFY_WINDOW_SECONDS`` that someone asked for; the
    new deliveries' ids (to send)."""
    now = now or timezone.now()
    since = now - timedelta(seconds=settings.NOTIFY_WINDOW_SECONDS)
    channels = {c.user_id: c for c in Channel.objects.all() if c.choices}
    if not channels:
        return []
    users = set(channels)
    created: list[int] = []
    for source in SOURCES:
        for notice in source(since, users):
            created += record(notice, channels[notice.user_id])
    return created


def record(notice: Notice, channel: Channel) -> list[int]:
    """The event of ``notice`` and its deliveries, if it is new and wanted; their ids."""
    ways = [w for w in (Delivery.EMAIL, Delivery.WEBHOOK) if channel.wants(notice.kind, w)]
    if not ways or Event.objects.filter(key=notice.key).exists():
        return []
    try:
        with transaction.atomic():
            event = Event.objects.create(
                user_id=notice.user_id,
                kind=notice.kind,
                key=notice.key,
                subject=notice.subject,
                data=notice.data,
            )
            return _deliveries(event, channel, ways)
    except IntegrityError:  # noticed by another poll at the same moment
        return []


def _deliveries(event: Event, channel: Channel, ways: list[str]) -> list[int]:
    user = User.objects.get(pk=event.user_id)
    made = []
    for way in ways:
        target = user.email if way == Delivery.EMAIL else channel.webhook_url
        if target:
            made.append(Delivery.objects.create(event=event, way=way, target=target).pk)
    return made


def send_test(user: User) -> list[int]:
    """A "test" event to every way ``user`` has (mail and/or webhook); the deliveries' ids."""
    channel, _ = Channel.objects.get_or_create(user=user)
    event = Event.objects.create(
        user=user,
        kind="test",
        key=f"test:{uuid.uuid4()}",
        subject="A test from Nimmt Arena",
        data={"message": "This is a test you asked for on your notifications page."},
    )
    return _deliveries(event, channel, [Delivery.EMAIL, Delivery.WEBHOOK])


# ---------------------------------------------------------------------------- delivering


def body(event: Event) -> bytes:
    """The webhook's JSON body (and the mail's attachment-free text is made from it)."""
    return json.dumps(
        {
            "id": str(event.uuid),
            "event": event.kind,
            "subject": event.subject,
            "created_at": event.created_at.isoformat(),
            "data": event.data,
        },
        sort_keys=True,
        separators=(",", ":"),
    ).encode()


def retry_after(attempts: int) -> float:
    """Seconds before the next try after ``attempts`` failed ones (doubling)."""
    return float(settings.NOTIFY_RETRY_SECONDS * 2 ** max(0, attempts - 1))


#: How long one attempt may hold a delivery (a webhook's timeout and then some).
LEASE = timedelta(seconds=60)


def deliver(delivery_pk: int) -> float | None:
    """Try delivery ``delivery_pk`` once, if it is due and nobody else is sending it. The
    seconds until its next try if it failed and has tries left, else ``None``."""
    now = timezone.now()
    claimed = Delivery.objects.filter(
        Q(status=Delivery.PENDING, next_attempt_at__lte=now)
        | Q(status=Delivery.SENDING, lease_expires_at__lt=now),
        pk=delivery_pk,
    ).update(status=Delivery.SENDING, attempts=F("attempts") + 1, lease_expires_at=now + LEASE)
    if not claimed:
        return None
    delivery = Delivery.objects.select_related("event__user").get(pk=delivery_pk)
    event = delivery.event
    if delivery.way == Delivery.EMAIL:
        answer = _mail(event, delivery.target)
    else:
        channel = Channel.objects.get(user_id=event.user_id)
        answer = webhooks.post(
            delivery.target, channel.webhook_secret, body(event), str(event.uuid), event.kind
        )
    Attempt.objects.create(
        delivery=delivery, ok=answer.ok, status_code=answer.status, detail=answer.detail
    )
    if answer.ok:
        delivery.status, delivery.sent_at = Delivery.SENT, timezone.now()
        delivery.save(update_fields=["status", "sent_at"])
        return None
    if delivery.attempts >= settings.NOTIFY_ATTEMPTS:
        delivery.status = Delivery.FAILED
        delivery.save(update_fields=["status"])
        log.warning("gave up on delivery %s after %d tries", delivery.pk, delivery.attempts)
        return None
    wait = retry_after(delivery.attempts)
    delivery.status = Delivery.PENDING
    delivery.next_attempt_at = timezone.now() + timedelta(seconds=wait)
    delivery.save(update_fields=["status", "next_attempt_at"])
    return wait


def _mail(event: Event, address: str) -> webhooks.Answer:
    data = json.dumps(event.data, indent=2, sort_keys=True)
    text = (
        f"{event.subject}.\n\n{data}\n\n(Choose what you are told of on your notifications page.)"
    )
    try:
        send_mail(f"[Nimmt Arena] {event.subject}", text, None, [address])
    except (OSError, ValueError) as error:
        return webhooks.Answer(False, None, f"mail not sent: {error}"[:500])
    return webhooks.Answer(True, None, "mailed")


def due() -> list[int]:
    """Deliveries due for a try whose message may have been lost (the sweep's)."""
    now = timezone.now()
    return list(
        Delivery.objects.filter(
            Q(status=Delivery.PENDING, next_attempt_at__lte=now - timedelta(seconds=5))
            | Q(status=Delivery.SENDING, lease_expires_at__lt=now)
        )
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:200]
    )


def set_choices(channel: Channel, chosen: dict[str, dict[str, bool]]) -> None:
    """Keep ``chosen`` (``{kind: {"email": bool, "webhook": bool}}``) for the known kinds."""
    channel.choices = {
        kind: {"email": bool(ways.get("email")), "webhook": bool(ways.get("webhook"))}
        for kind, ways in chosen.items()
        if kind in EVENT_KINDS and kind != "test"
    }
    channel.save(update_fields=["choices"])
