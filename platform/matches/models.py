"""A match: some bots, one ladder's format, a seed; played once by a worker, then rated once.

Life of a match: ``queued`` (created by the scheduler, sent to the ``matches`` queue) →
``running`` (claimed by one worker, see :mod:`core.leases`) → ``finished`` (result, replays and
logs stored in one transaction guarded by the claim) or ``failed`` (the arena could not play it:
not the bots' fault, never rated). A finished match is rated once (``rated``), in the order
matches finished on its ladder.
"""

import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from core.leases import Claimable
from core.urls import url_with_uuid
from django.conf import settings
from django.db import models
from django.utils import timezone

from arena.runner.results import Ranking


class MatchQuerySet(models.QuerySet["Match"]):
    def listed(self) -> "MatchQuerySet":
        """The matches the public lists show: all but those of an owner's version test
        (:mod:`versiontests`), which are its owner's alone.

        Written as NOT EXISTS, which PostgreSQL plans as an anti-join. Django's
        ``version_test__isnull=True`` is a LEFT JOIN filtered on the paired match's ``id`` IS
        NULL, which PostgreSQL does not turn into one: it then guesses that hardly any match
        passes, so that a page would hardly fill, and reads all of a bot's matches to sort
        them instead of the newest by index (48 ms for a bot of 3,351 matches, not 0.7 ms).
        """
        paired = Match._meta.get_field("version_test").related_model._default_manager
        return self.filter(~models.Exists(paired.filter(match=models.OuterRef("pk"))))


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
    # A tournament's match (never rated on a ladder); ``round`` is its round there (Swiss).
    tournament = models.ForeignKey(
        "tournaments.Tournament", models.CASCADE, null=True, blank=True, related_name="matches"
    )
    round = models.PositiveSmallIntegerField(default=0)
    variant = models.CharField(max_length=20)
    players = models.PositiveSmallIntegerField()
    games = models.PositiveSmallIntegerField(default=1)
    # Each of the ``games / players`` deals played once per seat rotation (deal ``i`` from
    # ``seed + i``; see :func:`arena.local.series_game`).
    duplicate = models.BooleanField(default=False)
    seed = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=STATUSES, default=QUEUED)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True, help_text="Why the arena could not play the match.")
    # The folder in the arena's storage (core.storage) of the attempt that was kept: the
    # runner's replays, logs and match.json.
    result_dir = models.CharField(max_length=200, blank=True)
    replays = models.JSONField(default=list, blank=True)  # file names in result_dir
    rated = models.BooleanField(default=False)
    rated_at = models.DateTimeField(null=True, blank=True)
    # The workers' queue (core.celery.QUEUES) the match is sent to, the first time and every
    # time after (a retry, the sweeper, a full disk): a challenge's goes to "challenges",
    # ahead of the league's. (A default in the database too: bulk loads may leave it out.)
    queue = models.CharField(max_length=20, default="matches", db_default="matches")

    objects = MatchQuerySet.as_manager()

    class Meta:
        ordering = ("-created_at",)
        verbose_name_plural = "matches"
        indexes = (
            # The sweeper: WHERE status IN ('queued', 'running') AND queued_at < ...
            models.Index(fields=["status", "queued_at"], name="match_status_queued"),
            # Rating in finishing order: WHERE ladder_id = %s AND status = 'finished'
            # AND NOT rated ORDER BY finished_at, id
            models.Index(fields=["ladder", "status", "rated", "finished_at"], name="match_to_rate"),
            # The match list, newest first, paged by key:
            # ORDER BY created_at DESC, id DESC [WHERE created_at <= %s] LIMIT 51
            models.Index(fields=["-created_at", "-id"], name="match_list"),
            # The same list for one ladder: WHERE ladder_id = %s ORDER BY created_at DESC, id DESC
            models.Index(fields=["ladder", "-created_at", "-id"], name="match_list_ladder"),
            # The home page's latest results:
            # WHERE status = 'finished' ORDER BY finished_at DESC LIMIT 10
            models.Index(fields=["status", "-finished_at"], name="match_latest_finished"),
            # A tournament's progress and rounds: WHERE tournament_id = %s [AND round = %s]
            models.Index(fields=["tournament", "round", "status"], name="match_tournament_round"),
            # The head to head's filter on each shared match (ladder game, finished), read
            # from the index alone.
            models.Index(fields=["id", "ladder", "status"], name="match_ladder_status"),
        )

    def __str__(self) -> str:
        return f"match {self.uuid}"

    def get_absolute_url(self) -> str:
        return url_with_uuid("match", self.uuid)

    @property
    def ranking(self) -> Ranking:
        """How the match places its bots (the runner's ranks, stored in the seats)."""
        return Ranking.of(self.games, self.duplicate)

    @property
    def is_done(self) -> bool:
        return self.status in (self.FINISHED, self.FAILED)

    @property
    def result_path(self) -> Path | None:
        """``result_dir`` in the data folder: where its files are when no object store is set
        (the site reads them through :mod:`core.storage` only)."""
        return Path(settings.DATA_DIR) / self.result_dir if self.result_dir else None


class Seat(models.Model):
    """One bot's place in a match, and how it did (the match's total over its games)."""

    # No index of their own: one_bot_per_seat (match, seat) and seat_bot_recent (bot, ...)
    # start with these columns and serve every lookup by them.
    match = models.ForeignKey(Match, models.CASCADE, related_name="seats", db_index=False)
    seat = models.PositiveSmallIntegerField()
    bot = models.ForeignKey("submissions.Bot", models.CASCADE, related_name="seats", db_index=False)
    version = models.ForeignKey("submissions.BotVersion", models.CASCADE, related_name="seats")
    score = models.IntegerField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    # Points per deal, in deal order (a duplicate deal: the total over its rotations); they
    # sum to ``score``. The Margin rating learns from them (``[]``: a match stored before).
    deal_scores = models.JSONField(default=list, blank=True)
    faults = models.JSONField(default=list, blank=True)  # the replays' fault records
    log_file = models.CharField(max_length=200, blank=True)  # relative to the match's folder
    # The match's ``created_at``, copied (a match's never changes) so that a bot's matches are
    # listed newest first from the index seat_bot_listed, reading one page of them, not all.
    # Filled from the match when a seat is saved; ``bulk_create`` must pass it.
    match_created_at = models.DateTimeField(editable=False)

    class Meta:
        ordering = ("match", "seat")
        constraints = (models.UniqueConstraint(fields=["match", "seat"], name="one_bot_per_seat"),)
        indexes = (
            # A bot's recent matches (scheduler, fault pausing, bot page, match list by bot):
            # WHERE bot_id = %s ORDER BY match_id DESC; with seat, score and rank in the key,
            # the bot page's head to head (ladders.services.head_to_head) can read its side
            # of the join from the index alone.
            models.Index(fields=["bot", "-match", "seat", "score", "rank"], name="seat_bot_recent"),
            # The other side of the head to head's join (the seats of a match with their
            # results) read from the index alone, not from 2,000 scattered table rows.
            models.Index(
                fields=["match", "seat", "bot", "score", "rank"], name="seat_match_result"
            ),
            # The bot page's fault list: a bot's seats with faults, newest first, without
            # walking every seat of a bot that rarely faults.
            models.Index(
                fields=["bot", "-match"], condition=~models.Q(faults=[]), name="seat_bot_faulted"
            ),
            # The match list of one bot (matches.listing), in the list's order:
            # WHERE bot_id = %s [AND (match_created_at, match_id) < (%s, %s)]
            # ORDER BY match_created_at DESC, match_id DESC LIMIT 51
            models.Index(fields=["bot", "-match_created_at", "-match"], name="seat_bot_listed"),
        )

    def __str__(self) -> str:
        return f"{self.bot} in seat {self.seat}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.match_created_at is None:
            self.match_created_at = self.match.created_at
        super().save(*args, **kwargs)


def entrant_names(seats: list[Seat]) -> list[str]:
    """The names the seats' bots play under (replays, logs): the bot's name, or ``name#v2``
    when two versions of one bot sit at the same table (a tournament may enter both)."""
    counts = Counter(seat.bot_id for seat in seats)
    return [
        seat.bot.name if counts[seat.bot_id] == 1 else f"{seat.bot.name}#v{seat.version.number}"
        for seat in seats
    ]


#: What a fault's detail reads as for anyone but the bot's owner: a crash's detail quotes the
#: last lines of the bot's log, which is private.
PRIVATE_DETAIL = "(the details are shown to the bot's owner only)"


def public_faults(faults: list[dict[str, Any]], is_owner: bool) -> list[dict[str, Any]]:
    """A seat's fault records as ``is_owner`` may see them (others get kind, game and turn)."""
    if is_owner:
        return faults
    return [{**fault, "detail": PRIVATE_DETAIL} for fault in faults if isinstance(fault, dict)]


class LiveChunk(models.Model):
    """Frames of a running match's game as they happened, for its live view
    (:mod:`matches.live`): written by the worker that plays the match, removed when it ends."""

    match = models.ForeignKey(Match, models.CASCADE, related_name="live_chunks")
    attempt = models.CharField(max_length=16)  # the worker's attempt; a retried match starts over
    seq = models.PositiveIntegerField()  # 1, 2, ... in the order written
    game = models.PositiveSmallIntegerField()  # 1-based
    first = models.PositiveIntegerField()  # the game's frame index of the chunk's first frame
    header = models.JSONField(null=True, blank=True)  # the game's first chunk: the frames' header
    frames = models.JSONField(default=list)  # nimmt-frames/1 frames, as spectators may see them
    over = models.BooleanField(default=False)  # the game's last chunk

    class Meta:
        constraints = (
            # The live stream's read: WHERE match_id = %s AND attempt = %s AND seq > %s
            # ORDER BY seq
            models.UniqueConstraint(fields=["match", "attempt", "seq"], name="live_chunk_seq"),
        )


class SeatAnalysis(Claimable):
    """A decision analysis of one seat of one game of a finished match (:mod:`arena.analysis`),
    computed once on request by a worker (``queued`` → ``running`` → ``done`` or ``failed``) and
    kept for every later viewer: one row per match, game, seat and analysis version."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    STATUSES = ((QUEUED, "queued"), (RUNNING, "running"), (DONE, "done"), (FAILED, "failed"))

    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    match = models.ForeignKey(Match, models.CASCADE, related_name="analyses", db_index=False)
    game = models.PositiveSmallIntegerField()  # 1-based, as in the game's page
    seat = models.PositiveSmallIntegerField()  # the replay's seat (0-based)
    version = models.PositiveSmallIntegerField()  # arena.analysis.VERSION when computed
    status = models.CharField(max_length=10, choices=STATUSES, default=QUEUED)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, db_index=False
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    finished_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)  # arena.analysis.Analysis.to_json()
    error = models.TextField(blank=True)

    class Meta:
        constraints = (
            # Also the cache's lookup: WHERE match_id = %s AND game = %s AND seat = %s
            # AND version = %s
            models.UniqueConstraint(
                fields=["match", "game", "seat", "version"], name="one_analysis_per_seat"
            ),
        )
        indexes = (
            # The rate limit: WHERE requested_by_id = %s AND created_at > %s
            models.Index(fields=["requested_by", "created_at"], name="analysis_requests_recent"),
            # The sweeper: WHERE status IN ('queued', 'running') AND queued_at < ...
            models.Index(fields=["status", "queued_at"], name="analysis_status_queued"),
        )

    def __str__(self) -> str:
        return f"analysis of seat {self.seat}, game {self.game} of {self.match}"


class GameExport(models.Model):
    """One run of the dataset export (:mod:`matches.dataset`): the public games that finished
    in ``[since, until)`` (``since`` null: from the first), written as the files ``files``
    (``[{"path", "kind", "variant", "games", "size", "sha256"}]``, paths relative to the
    dataset's folder in the arena's storage). The next export starts at this one's ``until``;
    the dataset is every export's files together."""

    number = models.PositiveIntegerField(unique=True)  # 1, 2, ...; names the export's files
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    since = models.DateTimeField(null=True, blank=True)
    until = models.DateTimeField()
    matches = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    files = models.JSONField(default=list, blank=True)
    # Games left out because their replay could not be read: ["<match uuid> game <n>: why"]
    skipped = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ("-number",)

    def __str__(self) -> str:
        return f"game export {self.number}"
