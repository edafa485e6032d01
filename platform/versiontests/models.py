"""A version test and its matches.

A :class:`VersionTest` pits a bot's ``candidate`` version against its ``baseline`` (the
version that was active when the owner asked) on one ladder's format. The platform plays them
in *pairs* of duplicate matches (:class:`PairedMatch`): the same deals, the same opponents in the
same seats, once with the candidate and once with the baseline, so that each deal gives one
paired edge (the candidate's points per game minus the baseline's). The test keeps the edges'
sufficient statistics and its log-likelihood ratio after every pair, and stops at a verdict or
at its cap. Test matches belong to no ladder: they are never rated.
"""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from arena.sprt import Evidence, SprtSettings, Verdict


class VersionTest(models.Model):
    WAITING = "waiting"  # for the candidate to pass its checks, or for a free slot
    RUNNING = "running"
    FINISHED = "finished"  # a verdict: h1, h0 or inconclusive
    STOPPED = "stopped"  # could not go on (see ``error``)
    STATUSES = (
        (WAITING, "waiting"),
        (RUNNING, "running"),
        (FINISHED, "finished"),
        (STOPPED, "stopped"),
    )
    VERDICTS = tuple((v.value, v.value) for v in Verdict if v is not Verdict.CONTINUE)

    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    candidate = models.ForeignKey(
        "submissions.BotVersion", models.CASCADE, related_name="tests_as_candidate"
    )
    baseline = models.ForeignKey(
        "submissions.BotVersion", models.CASCADE, related_name="tests_as_baseline"
    )
    ladder = models.ForeignKey("ladders.Ladder", models.PROTECT, related_name="version_tests")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    # Opponents' versions in seat order (seats 1..players-1), fixed when the test starts.
    opponents = models.JSONField(default=list, blank=True)
    e0 = models.FloatField()
    e1 = models.FloatField()
    alpha = models.FloatField()
    beta = models.FloatField()
    cap = models.PositiveIntegerField(help_text="Deals at most.")
    seed = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=STATUSES, default=WAITING)
    verdict = models.CharField(max_length=12, choices=VERDICTS, blank=True)
    error = models.TextField(blank=True)
    # The evidence (arena.sprt.Evidence) and the LLR after each pair: [[deals, llr], ...].
    deals = models.PositiveIntegerField(default=0)
    shift = models.FloatField(default=0.0)
    total = models.FloatField(default=0.0)
    total_sq = models.FloatField(default=0.0)
    llr = models.FloatField(default=0.0)
    history = models.JSONField(default=list, blank=True)
    pairs_failed = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
        indexes = (
            # The slots and the beat's look: WHERE status IN ('waiting', 'running') ORDER BY id
            models.Index(fields=["status", "id"], name="version_test_status"),
            # The notifications' poll (notifications.services.decided_tests):
            # WHERE finished_at > %s AND status = 'finished'
            models.Index(
                fields=["finished_at"],
                name="version_test_finished",
                condition=Q(finished_at__isnull=False),
            ),
        )

    def __str__(self) -> str:
        return f"test of {self.candidate} against v{self.baseline.number}"

    def get_absolute_url(self) -> str:
        return f"{self.candidate.get_absolute_url()}#test-{self.uuid}"

    @property
    def settings(self) -> SprtSettings:
        return SprtSettings(e0=self.e0, e1=self.e1, alpha=self.alpha, beta=self.beta, cap=self.cap)

    @property
    def evidence(self) -> Evidence:
        return Evidence(self.deals, self.shift, self.total, self.total_sq)

    @property
    def is_over(self) -> bool:
        return self.status in (self.FINISHED, self.STOPPED)


class PairedMatch(models.Model):
    """One match of a test: pair ``number``'s candidate or baseline side; its edges are counted
    into the test once (``counted``), when both sides of the pair are over."""

    CANDIDATE = "candidate"
    BASELINE = "baseline"

    test = models.ForeignKey(VersionTest, models.CASCADE, related_name="matches")
    number = models.PositiveIntegerField()
    side = models.CharField(max_length=10, choices=[(CANDIDATE, CANDIDATE), (BASELINE, BASELINE)])
    match = models.OneToOneField("matches.Match", models.CASCADE, related_name="version_test")
    counted = models.BooleanField(default=False)

    class Meta:
        ordering = ("test", "number", "side")
        constraints = (
            models.UniqueConstraint(fields=["test", "number", "side"], name="one_side_per_pair"),
        )
