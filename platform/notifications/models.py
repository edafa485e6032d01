"""Telling owners what happened to their bots: by e-mail and/or a signed webhook, per event.

* :class:`Channel` — a user's webhook (its HTTPS address and the secret its deliveries are
  signed with) and, per event kind, whether to mail and whether to call the webhook.
* :class:`Event` — something that happened, once: its ``key`` is unique (the bot's pause at
  that moment, the version's verdict...), so an event noticed twice is one notification.
* :class:`Delivery` — one event sent one way (``email`` or ``webhook``), with its attempts and
  its log (:class:`Attempt`): the account page shows it.
"""

import secrets
import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone

#: The events an owner may be told of, with what the account page calls them.
EVENTS = (
    ("bot_paused", "A bot of yours was paused for faults"),
    ("version_passed", "A version passed its checks (validation and build)"),
    ("version_failed", "A version failed its checks (validation or build)"),
    ("version_test_decided", "A version test was decided"),
    ("challenge_finished", "A challenge of yours finished"),
    ("season_ended", "A season of a ladder your bot plays ended"),
    ("season_final", "A bot of yours was ranked into a season's final"),
    ("test", "A test you sent from this page"),
)
EVENT_KINDS = tuple(kind for kind, _ in EVENTS)


def new_secret() -> str:
    return secrets.token_hex(32)


class Channel(models.Model):
    """A user's ways of being told, and which events go which way."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="notification_channel"
    )
    webhook_url = models.URLField(max_length=500, blank=True)
    # Deliveries carry HMAC-SHA256(secret, "<timestamp>.<body>") in X-Nimmt-Signature.
    webhook_secret = models.CharField(max_length=64, default=new_secret)
    # {event kind: {"email": bool, "webhook": bool}}; a kind missing is neither.
    choices = models.JSONField(default=dict, blank=True)

    def wants(self, kind: str, way: str) -> bool:
        chosen = self.choices.get(kind)
        return isinstance(chosen, dict) and chosen.get(way) is True


class Event(models.Model):
    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    kind = models.CharField(max_length=30, choices=EVENTS)
    # What makes it this event and no other (e.g. "bot_paused:<bot>:<paused at>").
    key = models.CharField(max_length=200, unique=True)
    subject = models.CharField(max_length=200)
    data = models.JSONField(default=dict)  # the webhook's "data"; links are full addresses
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("-created_at",)


class Delivery(models.Model):
    PENDING = "pending"  # waiting for its (next) attempt
    SENDING = "sending"
    SENT = "sent"
    FAILED = "failed"  # gave up after its attempts
    STATUSES = ((PENDING, PENDING), (SENDING, SENDING), (SENT, SENT), (FAILED, FAILED))
    EMAIL = "email"
    WEBHOOK = "webhook"

    event = models.ForeignKey(Event, models.CASCADE, related_name="deliveries")
    way = models.CharField(max_length=10, choices=[(EMAIL, EMAIL), (WEBHOOK, WEBHOOK)])
    target = models.CharField(max_length=500)  # the address mailed or called
    status = models.CharField(max_length=10, choices=STATUSES, default=PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    # While SENDING: until when the attempt may take (after it, a sweep tries again).
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("-created_at",)
        constraints = (
            models.UniqueConstraint(fields=["event", "way"], name="one_delivery_per_way"),
        )
        indexes = (
            # The sweep: WHERE status IN ('pending', 'sending') AND next_attempt_at < %s
            models.Index(fields=["status", "next_attempt_at"], name="delivery_due"),
        )


class Attempt(models.Model):
    """One try of a delivery, for the log: when, and what came back."""

    delivery = models.ForeignKey(Delivery, models.CASCADE, related_name="log")
    at = models.DateTimeField(default=timezone.now)
    ok = models.BooleanField()
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    detail = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ("at", "pk")
