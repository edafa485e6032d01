"""A tournament: fixed entrants (bot versions that passed), a format, and its matches.

Life of a tournament: ``draft`` (made by an organiser, entrants chosen) → ``running`` (its
matches are queued for the match workers, round by round for Swiss) → ``finished`` (every match
played or given up) or ``cancelled``. Its matches are ordinary :class:`matches.models.Match`
rows with ``tournament`` set and no ladder, so they are played by the same pipeline and never
rated on a ladder.

Who organises: staff, or anyone with the permission ``tournaments.organise_tournaments``
(the group ``organisers`` has it).
"""

import uuid

from core.urls import url_with_uuid
from django.conf import settings
from django.db import models
from django.utils import timezone

from arena.engine.variants import VARIANT_NAMES
from arena.engine.variants import variant as get_variant


class Tournament(models.Model):
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"
    DUPLICATE = "duplicate"
    FORMATS = (
        (ROUND_ROBIN, "round robin"),
        (SWISS, "Swiss"),
        (DUPLICATE, "duplicate"),
    )
    DRAFT = "draft"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    STATUSES = (
        (DRAFT, "draft"),
        (RUNNING, "running"),
        (FINISHED, "finished"),
        (CANCELLED, "cancelled"),
    )

    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    name = models.CharField(max_length=100)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, related_name="tournaments"
    )
    variant = models.CharField(max_length=20, choices=[(v, v) for v in VARIANT_NAMES])
    players = models.PositiveSmallIntegerField(help_text="Bots per game.")
    format = models.CharField(max_length=12, choices=FORMATS, default=ROUND_ROBIN)
    games_per_pairing = models.PositiveSmallIntegerField(
        default=2,
        help_text="Games per table (duplicate: deals, each in every rotation).",
    )
    rounds = models.PositiveSmallIntegerField(default=1, help_text="Swiss: rounds to play.")
    seed = models.BigIntegerField(help_text="Deals of the tournament's games derive from it.")
    status = models.CharField(max_length=10, choices=STATUSES, default=DRAFT)
    current_round = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
        permissions = (("organise_tournaments", "Can create and run tournaments"),)
        indexes = (
            # The tournament list: WHERE status IN (...) ORDER BY created_at DESC
            models.Index(fields=["status", "-created_at"], name="tournament_list"),
        )

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return url_with_uuid("tournament", self.uuid)

    @property
    def higher_is_better(self) -> bool:
        """Board game: points, higher wins. Card game (``classic``): penalty, lower wins."""
        return get_variant(self.variant).higher_is_better

    @property
    def is_live(self) -> bool:
        return self.status == self.RUNNING


class Entrant(models.Model):
    """One bot version in a tournament; ``number`` is its seeding (order of entry)."""

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="entrants")
    version = models.ForeignKey("submissions.BotVersion", models.CASCADE, related_name="+")
    bot = models.ForeignKey("submissions.Bot", models.CASCADE, related_name="+")
    number = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ("tournament", "number")
        constraints = (
            models.UniqueConstraint(fields=["tournament", "version"], name="enter_a_version_once"),
            models.UniqueConstraint(fields=["tournament", "number"], name="entrant_number_unique"),
        )

    def __str__(self) -> str:
        return f"{self.bot.name} v{self.version.number}"
