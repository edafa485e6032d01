"""A match: some bots, one ladder's format, a seed; played once by a worker, then rated once.

Life of a match: ``queued`` (created by the scheduler, sent to the ``matches`` queue) →
``running`` (claimed by one worker, see :mod:`core.leases`) → ``finished`` (result, replays and
logs stored in one transaction guarded by the claim) or ``failed`` (the arena could not play it:
not the bots' fault, never rated). A finished match is rated once (``rated``), in the order
matches finished on its ladder.
"""

import uuid
from pathlib import Path

from core.leases import Claimable
from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone


class Match(Claimable):
    QUEUED = "queued"
    RUNNING = "running"
    FINISHED = "finished"
    FAILED = "failed"
    STATUSES = (
        (QUEUED, "queued"),
        (RUNNING, "running"),
        (FINISHED, "finished"),
        (FAILED, "failed"),
    )
    MAX_ATTEMPTS = 3  # a match that kills its worker this often is given up

    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    ladder = models.ForeignKey(
        "ladders.Ladder", models.PROTECT, null=True, blank=True, related_name="matches"
    )
    variant = models.CharField(max_length=20)
    players = models.PositiveSmallIntegerField()
    games = models.PositiveSmallIntegerField(default=1)
    seed = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=STATUSES, default=QUEUED)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True, help_text="Why the arena could not play the match.")
    # Relative to DATA_DIR: the folder with the runner's replays, logs and match.json.
    result_dir = models.CharField(max_length=200, blank=True)
    replays = models.JSONField(default=list, blank=True)  # file names in result_dir
    rated = models.BooleanField(default=False)
    rated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
        verbose_name_plural = "matches"
        indexes = (
            # The sweeper: WHERE status IN ('queued', 'running') AND queued_at < ...
            models.Index(fields=["status", "queued_at"], name="match_status_queued"),
            # Rating in finishing order: WHERE ladder_id = %s AND status = 'finished'
            # AND NOT rated ORDER BY finished_at, id
            models.Index(fields=["ladder", "status", "rated", "finished_at"], name="match_to_rate"),
        )

    def __str__(self) -> str:
        return f"match {self.uuid}"

    def get_absolute_url(self) -> str:
        return reverse("match", args=[self.uuid])

    @property
    def result_path(self) -> Path | None:
        return Path(settings.DATA_DIR) / self.result_dir if self.result_dir else None


class Seat(models.Model):
    """One bot's place in a match, and how it did (the match's total over its games)."""

    match = models.ForeignKey(Match, models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    bot = models.ForeignKey("submissions.Bot", models.CASCADE, related_name="seats")
    version = models.ForeignKey("submissions.BotVersion", models.CASCADE, related_name="seats")
    score = models.IntegerField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    faults = models.JSONField(default=list, blank=True)  # the replays' fault records
    log_file = models.CharField(max_length=200, blank=True)  # relative to the match's folder

    class Meta:
        ordering = ("match", "seat")
        constraints = (models.UniqueConstraint(fields=["match", "seat"], name="one_bot_per_seat"),)
        indexes = (
            # A bot's recent matches (scheduler, fault pausing, bot page):
            # WHERE bot_id = %s ORDER BY match_id DESC
            models.Index(fields=["bot", "-match"], name="seat_bot_recent"),
        )

    def __str__(self) -> str:
        return f"{self.bot} in seat {self.seat}"
