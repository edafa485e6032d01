"""Recording a finished match's pairs (:func:`matchups.services.record`) from a task, never in
a request: sent when the match ends (:data:`matches.signals.match_ended`), and by the beat's
sweeper for any finished match of the last two days that is not recorded (a lost message)."""

import logging
from datetime import timedelta
from typing import Any

from core.celery import enqueue, house_task
from django.db.models import Exists, OuterRef
from django.dispatch import receiver
from django.utils import timezone
from matches.models import Match
from matches.signals import match_ended

from matchups import services
from matchups.models import RecordedMatch

log = logging.getLogger(__name__)

#: How far back the sweeper looks for finished matches that were not recorded.
SWEEP_WINDOW = timedelta(days=2)
#: The most matches one sweep records (the rest at the next).
SWEEP_BATCH = 500


@house_task(queue="maintenance")
def record_matchups(*, match_pk: int) -> None:
    services.record(match_pk)


@house_task(queue="maintenance")
def record_missing_matchups() -> None:
    """Beat's safety net: record the finished matches of the last two days that are not."""
    since = timezone.now() - SWEEP_WINDOW
    missing = (
        Match.objects.filter(status=Match.FINISHED, finished_at__gt=since)
        .filter(~Exists(RecordedMatch.objects.filter(match=OuterRef("pk"))))
        .order_by("finished_at", "pk")
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    done = [services.record(pk) for pk in missing]
    if done:
        log.info("recorded %d pairs of %d matches", sum(done), len(done))


@receiver(match_ended, dispatch_uid="matchups.record_when_a_match_ends")
def record_when_a_match_ends(sender: object, *, match: Match, **kwargs: Any) -> None:
    """A match ended: record its pairs once this commits (if it was played)."""
    enqueue(record_matchups, match_pk=match.pk)
