"""A person at the table: a match in which a person plays against bots from the browser.

A :class:`Table` is one person's game: the :class:`~matches.models.Match` the worker plays
(its bots are the match's seats; the person is lineup entry :attr:`Table.entry`), the time
control, and how the person did. Each decision the referee asks of the person is a
:class:`Ask` row, written by the worker (:class:`tables.seat.PersonSeat`) and answered by the
person's browser (:func:`tables.services.answer`): the worker and the web processes meet only
in the database. A :class:`PeopleRating` is a place on the people-versus-bots ladder of one
variant (a person's or a bot's), rated by the ladders' Elo (:data:`ladders.models.ELO`).
"""

import uuid

from core.urls import url_with_uuid
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from arena.engine.variants import VARIANT_NAMES


class Table(models.Model):
    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    person = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="tables")
    match = models.OneToOneField("matches.Match", models.CASCADE, related_name="table")
    entry = models.PositiveSmallIntegerField()  # the person's place in the match's lineup
    name = models.CharField(max_length=60)  # the person's name at the table (replays)
    # A guest's game (the demo's one-click play) is never rated.
    guest = models.BooleanField(default=False)
    # The address the table was asked from (accounts.throttle.client_ip): open tables per
    # address are capped (TABLES_PER_ADDRESS)
    address = models.CharField(max_length=45, blank=True)
    decision_ms = models.PositiveIntegerField()
    bank_ms = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # Filled in by the worker as the game goes.
    seat = models.PositiveSmallIntegerField(null=True, blank=True)  # at the current game
    names = models.JSONField(default=list, blank=True)  # by seat, at the current game
    game = models.PositiveSmallIntegerField(default=0)  # 1-based; 0: not dealt yet
    view = models.JSONField(null=True, blank=True)  # the person's last view (Observation)
    notices = models.JSONField(default=list, blank=True)  # what the arena told the person
    dropped = models.TextField(blank=True)  # why the arena dropped the person, if it did
    # The result (the match's total), once the match is stored.
    score = models.IntegerField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    faults = models.JSONField(default=list, blank=True)
    rated = models.BooleanField(default=False)

    class Meta:
        ordering = ("-created_at",)
        indexes = (
            # A person's tables, newest first (the Play page): WHERE person_id = %s ORDER BY
            # created_at DESC
            models.Index(fields=["person", "-created_at"], name="table_person_recent"),
        )

    def __str__(self) -> str:
        return f"table {self.uuid}"

    def get_absolute_url(self) -> str:
        return url_with_uuid("table", self.uuid)


class Ask(models.Model):
    """One decision asked of the person (the referee's ``Request``) and its answer."""

    table = models.ForeignKey(Table, models.CASCADE, related_name="asks")
    request_id = models.PositiveIntegerField()  # the referee's, unique in the match
    game = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=12)
    view = models.JSONField()  # the person's Observation, as Observation.to_dict()
    asked_at = models.DateTimeField()
    # The last moment an answer is taken (a little before the referee's deadline, so that an
    # answer taken always reaches the referee in time).
    deadline_at = models.DateTimeField()
    allowance_ms = models.PositiveIntegerField()
    bank_ms = models.PositiveIntegerField()
    answer = models.CharField(max_length=80, blank=True)  # the decision's text form
    answered_at = models.DateTimeField(null=True, blank=True)
    expired = models.BooleanField(default=False)  # the referee gave up waiting

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["table", "request_id"], name="one_ask_per_request"),
        )
        indexes = (
            # The open ask of a table: WHERE table_id = %s AND answer = '' AND NOT expired
            # ORDER BY request_id DESC
            models.Index(
                fields=["table", "-request_id"],
                condition=Q(answer="", expired=False),
                name="ask_open",
            ),
        )


class PeopleRating(models.Model):
    """A person's or a bot's Elo on the people-versus-bots ladder of ``variant``, and its
    record: ``wins`` are the games it ranked above the person (a bot) or above every bot (a
    person); ``losses`` those it ranked below."""

    variant = models.CharField(max_length=20, choices=[(v, v) for v in VARIANT_NAMES])
    person = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, null=True, blank=True, related_name="+"
    )
    bot = models.ForeignKey(
        "submissions.Bot", models.CASCADE, null=True, blank=True, related_name="people_ratings"
    )
    elo = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = (
            models.CheckConstraint(
                condition=Q(person__isnull=True) ^ Q(bot__isnull=True), name="person_xor_bot"
            ),
            models.UniqueConstraint(fields=["variant", "person"], name="one_person_rating"),
            models.UniqueConstraint(fields=["variant", "bot"], name="one_bot_people_rating"),
        )
        indexes = (
            # The people ladder's standings: WHERE variant = %s ORDER BY elo DESC
            models.Index(fields=["variant", "-elo"], name="people_standings"),
        )

    @property
    def key(self) -> str:
        """The id the Elo calculator knows it by."""
        return f"person-{self.person_id}" if self.person_id else f"bot-{self.bot_id}"

    @property
    def who(self) -> str:
        return self.person.username if self.person else self.bot.name  # type: ignore[union-attr]


class Guest(models.Model):
    """A visitor who sat down without an account (the demo's one-click play): a user of its
    own, logged in by its session, never on the people ladder."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, models.CASCADE, related_name="guest")
    created_at = models.DateTimeField(default=timezone.now, editable=False)
