"""A ladder's season: it starts, freezes (no new versions for its bots), ends with a final.

Life of a season: ``scheduled`` → ``running`` (at ``starts_at``) → ``frozen`` (at
``freezes_at``: the ladder's bots take no new version and change no active one) → ``final``
(at ``ends_at``: the ladder's standings are kept as they were, and a duplicate tournament of
the top ``finalists`` bots is started) → ``finished`` (the final is over: its standings are
kept as the season's result; the ladder's ratings are reset, unless ``carry_over``; and, if
``repeat``, the next season starts, as long as this one).
"""

import uuid

from core.urls import url_with_uuid
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class Season(models.Model):
    SCHEDULED = "scheduled"
    RUNNING = "running"
    FROZEN = "frozen"
    FINAL = "final"
    FINISHED = "finished"
    STATUSES = (
        (SCHEDULED, "scheduled"),
        (RUNNING, "running"),
        (FROZEN, "frozen"),
        (FINAL, "final"),
        (FINISHED, "finished"),
    )
    OPEN = (SCHEDULED, RUNNING, FROZEN, FINAL)
    #: A frozen ladder's bots take no new version from the freeze until the season is over.
    FREEZING = (FROZEN, FINAL)

    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    ladder = models.ForeignKey("ladders.Ladder", models.PROTECT, related_name="seasons")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=100)
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    starts_at = models.DateTimeField()
    freezes_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    finalists = models.PositiveSmallIntegerField(default=4)
    final_deals = models.PositiveSmallIntegerField(
        default=2, help_text="Deals per table of the final, each in every seat rotation."
    )
    carry_over = models.BooleanField(
        default=False, help_text="The next season keeps the ratings (else they start afresh)."
    )
    repeat = models.BooleanField(default=True, help_text="Start the next season at the end.")
    status = models.CharField(max_length=10, choices=STATUSES, default=SCHEDULED)
    tournament = models.OneToOneField(
        "tournaments.Tournament", models.SET_NULL, null=True, blank=True, related_name="season"
    )
    # The ladder's table at the end, and the final's standings: kept as they were.
    standings = models.JSONField(default=list, blank=True)
    final_standings = models.JSONField(default=list, blank=True)
    note = models.TextField(blank=True)  # e.g. why there was no final
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-starts_at",)
        constraints = (
            models.UniqueConstraint(fields=["ladder", "number"], name="season_number"),
            # One season at a time on a ladder.
            models.UniqueConstraint(
                fields=["ladder"],
                condition=Q(status__in=["scheduled", "running", "frozen", "final"]),
                name="one_open_season_per_ladder",
            ),
        )
        indexes = (
            # The beat's look and the freeze check: WHERE status IN (...)
            models.Index(fields=["status"], name="season_status"),
        )

    def __str__(self) -> str:
        return f"{self.ladder} · {self.name}"

    def get_absolute_url(self) -> str:
        return url_with_uuid("season", self.uuid)

    @property
    def is_frozen(self) -> bool:
        return self.status in self.FREEZING
