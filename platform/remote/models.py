"""A remote bot's tokens and connections: the bot plays from its owner's machine through the
gateway (:mod:`remote.gateway`) instead of running an uploaded program in the sandbox.

A token is scoped to one bot and kept only as its SHA-256 (the owner sees it once, when it is
issued); at most one is active per bot (issuing another revokes the old one). Every connection
the gateway accepts is recorded: when, from where, which kit, its measured round trip, how it
ended (the bot page shows the last few).
"""

import hashlib
import secrets
import uuid

from django.db import models
from django.utils import timezone
from submissions.models import Bot

#: What a remote token starts with, so that a leaked one is easy to recognise.
TOKEN_PREFIX = "nrb_"


def token_hash(token: str) -> str:
    """How a token is kept (and looked up)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class RemoteToken(models.Model):
    bot = models.ForeignKey(Bot, models.CASCADE, related_name="remote_tokens")
    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    digest = models.CharField(max_length=64, unique=True)  # token_hash(token)
    hint = models.CharField(max_length=12)  # the token's first characters, to tell them apart
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"{self.bot.name} {self.hint}…"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    @classmethod
    def issue(cls, bot: Bot) -> tuple["RemoteToken", str]:
        """A new token for ``bot`` (the row and the token itself, shown once); revokes the
        bot's other tokens (the caller cuts their connections, :func:`remote.services.issue`)."""
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        cls.objects.filter(bot=bot, revoked_at__isnull=True).update(revoked_at=timezone.now())
        row = cls.objects.create(bot=bot, digest=token_hash(token), hint=token[:10])
        return row, token


class RemoteConnection(models.Model):
    bot = models.ForeignKey(Bot, models.CASCADE, related_name="remote_connections")
    gateway = models.CharField(max_length=80)  # which gateway process served it
    address = models.CharField(max_length=80)  # the bot's address as the gateway saw it
    kit = models.CharField(max_length=80, blank=True)  # Hello.kit, cut
    connected_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)
    ended = models.CharField(max_length=200, blank=True)  # why, in words
    matches = models.PositiveIntegerField(default=0)
    rtt_ms = models.FloatField(null=True, blank=True)  # the quickest request->answer seen

    class Meta:
        ordering = ("-connected_at",)
        indexes = (
            # The bot page: WHERE bot_id = %s ORDER BY connected_at DESC LIMIT 10
            models.Index(fields=["bot", "-connected_at"], name="remote_connection_recent"),
        )

    def __str__(self) -> str:
        return f"{self.bot.name} from {self.address} at {self.connected_at:%Y-%m-%d %H:%M}"


class RemoteSeatNetwork(models.Model):
    """A remote seat's network in one match (``match.json``'s ``network``), for the match page."""

    seat = models.OneToOneField("matches.Seat", models.CASCADE, related_name="network")
    rtt_ms = models.FloatField(null=True, blank=True)  # the quickest request->answer
    answer_ms_median = models.FloatField(null=True, blank=True)
    network_allowance_ms = models.FloatField(default=0.0)
    reconnects = models.PositiveSmallIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.seat}: round trip {self.rtt_ms} ms"
