"""A challenge: an owner's bot against opponents the owner chose, in one unrated duplicate match.

A :class:`Challenge` is one duplicate match (each deal once per seat rotation, so that every
bot holds every hand) of the challenger's active version, in seat 0, against the chosen
opponents' active versions. The match belongs to no ladder and no tournament: it is never
rated (a ladder rating that one owner could move by picking its opponents would be
manipulated), and it is played by the match workers from their ``challenges`` queue.

A bot's owner may refuse challenges (:class:`ChallengeRefusal`, one row per refusing bot, so
that the default, "accepts", costs no row and no migration of the bots). The house bots always
accept.
"""

import uuid

from core.urls import url_with_uuid
from django.conf import settings
from django.db import models
from django.utils import timezone


class Challenge(models.Model):
    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="challenges", db_index=False
    )
    # The challenger's version (its bot's active version when the challenge was made): seat 0.
    version = models.ForeignKey("submissions.BotVersion", models.CASCADE, related_name="+")
    match = models.OneToOneField("matches.Match", models.CASCADE, related_name="challenge")
    deals = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ("-created_at",)
        indexes = (
            # The limits and "your challenges": WHERE challenger_id = %s AND created_at > %s
            # ORDER BY created_at DESC
            models.Index(fields=["challenger", "-created_at"], name="challenge_recent"),
        )

    def __str__(self) -> str:
        return f"challenge {self.uuid}"

    def get_absolute_url(self) -> str:
        return url_with_uuid("challenge", self.uuid)


class ChallengeRefusal(models.Model):
    """The bot's owner does not let others challenge it (the switch on the bot's page)."""

    bot = models.OneToOneField("submissions.Bot", models.CASCADE, related_name="challenge_refusal")
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    def __str__(self) -> str:
        return f"{self.bot} refuses challenges"
