"""The match pipeline's Celery tasks, and the one place that sends its follow-ups.

* ``run_match`` (queue ``matches``): claim the match, play it in the sandbox through
  :mod:`matches.bridge`, keep the result if the claim still holds (:mod:`matches.results`),
  then send what follows: the rating of a ladder match, another attempt, and the news that the
  match ended (:data:`matches.signals.match_ended`, which a tournament hears).
* ``rate_match`` (queue ``maintenance``): apply finished matches to their ladder, in order.
* ``schedule_matches`` (beat): keep every playing bot busy (:mod:`matches.scheduler`) and send
  the matches it created.
* ``requeue_stale_work`` (beat): send again the matches that lost their message or their
  worker; remove what killed workers left in the staging folder.

The modules this one calls never send a task: they return what happened, so none of them
imports this module back.
"""

import logging
import random
import shutil
import time
from datetime import timedelta
from pathlib import Path

from core import leases, metrics, storage
from core.celery import enqueue, house_task, resend_stale
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from ladders.models import Ladder
from ladders.services import rate_ladder
from submissions import builds
from submissions.models import Bot

from matches import bridge, results, scheduler
from matches.live import LiveFeed
from matches.models import Match, entrant_names
from matches.signals import match_ended

log = logging.getLogger(__name__)


@house_task(queue="matches", time_limit=60 * 60)
def run_match(*, match_pk: int) -> None:
    claim = leases.claim(
        Match,
        match_pk,
        waiting=Match.QUEUED,
        working=Match.RUNNING,
        lease_seconds=settings.MATCH_LEASE_SECONDS,
        started_at=timezone.now(),
    )
    if claim is None:
        _look_again_later(match_pk)
        return  # finished, gone, or being played by a live worker
    metrics.match_started()
    match = Match.objects.get(pk=match_pk)
    log.info("playing match %s, attempt %d", match.uuid, match.attempts)  # which host played it
    if match.attempts > Match.MAX_ATTEMPTS:
        why = f"gave up after {Match.MAX_ATTEMPTS} attempts: workers kept dying"
        if results.give_up(claim, why):
            match_is_over(match, stored=False)
        return
    seats = list(match.seats.select_related("bot", "version").order_by("seat"))
    names = entrant_names(seats)
    out_dir = results.staging_dir(match, claim)
    try:
        with leases.heartbeat(claim), LiveFeed(match.pk) as live:
            outcome = bridge.play_match(
                variant=match.variant,
                seed=match.seed,
                games=match.games,
                duplicate=match.duplicate,
                entrants=[
                    bridge.Entrant(name, builds.run_dir(s.version))
                    for name, s in zip(names, seats, strict=True)
                ],
                out_dir=out_dir,
                watch=live,
            )
            stored = results.store(claim, outcome, out_dir)
    except (bridge.ArenaError, storage.StorageError) as error:
        shutil.rmtree(out_dir, ignore_errors=True)
        log.warning("match %s could not be played: %s", match.uuid, error)
        released = results.release(claim, str(error))
        if released == "again":
            enqueue(run_match, match_pk=match_pk)
        elif released == "failed":
            match_is_over(match, stored=False)
        return
    except BaseException:
        shutil.rmtree(out_dir, ignore_errors=True)
        raise
    if stored:
        match_is_over(match, stored=True)


def match_is_over(match: Match, *, stored: bool) -> None:
    """Send what follows the end of ``match`` (committed by now): its rating, if it was played
    (``stored``) on a ladder, and :data:`~matches.signals.match_ended` to whoever listens."""
    if stored and match.ladder_id is not None:
        enqueue(rate_match, match_pk=match.pk)
    match_ended.send(sender=Match, match=match)


def queue_match(
    ladder: Ladder, bots: list[Bot], *, seed: int | None = None, rng: random.Random | None = None
) -> Match:
    """A new match of ``bots`` on ``ladder`` (:func:`matches.scheduler.create_match`), sent to a
    worker once the current transaction commits."""
    with transaction.atomic():
        match = scheduler.create_match(ladder, bots, seed=seed, rng=rng)
        enqueue(run_match, match_pk=match.pk)
    return match


def _look_again_later(match_pk: int) -> None:
    """A redelivered message found its match still held: look again once the lease ran out.

    The broker redelivers a message it believes lost, so the holder may have died a moment ago
    and its lease is not over yet. The sweeper would find the match too; this is sooner.
    """
    delivery = run_match.request.delivery_info or {}
    if not delivery.get("redelivered"):
        return
    lease_end = (
        Match.objects.filter(pk=match_pk, status=Match.RUNNING)
        .values_list("lease_expires_at", flat=True)
        .first()
    )
    if lease_end is not None:
        wait = max(1.0, (lease_end - timezone.now()).total_seconds() + 1.0)
        run_match.apply_async(kwargs={"match_pk": match_pk}, countdown=wait)


@house_task(queue="maintenance")
def rate_match(*, match_pk: int) -> None:
    ladder_pk = Match.objects.filter(pk=match_pk).values_list("ladder_id", flat=True).first()
    if ladder_pk is not None:
        rate_ladder(ladder_pk)


@house_task(queue="maintenance")
def schedule_matches() -> None:
    created = scheduler.schedule_all()
    for match in created:
        enqueue(run_match, match_pk=match.pk)
    if created:
        log.info("scheduled %d matches", len(created))


@house_task(queue="maintenance")
def requeue_stale_work() -> None:
    """Send again every match whose message was lost or whose worker died (at most once every
    ``REQUEUE_AFTER_SECONDS``, :func:`core.celery.resend_stale`), and remove what killed workers
    left in the staging folder. (Versions have their own sweeper in :mod:`submissions.tasks`.)
    """
    resend_stale(
        Match,
        run_match,
        waiting=Match.QUEUED,
        working=Match.RUNNING,
        key="match_pk",
        after_seconds=settings.REQUEUE_AFTER_SECONDS,
    )
    remove_stale_staging()


STAGING_MAX_AGE = timedelta(hours=3)  # longer than any task may run (time limits)


def remove_stale_staging() -> None:
    """Remove what killed workers left in the staging folder (unpacked uploads, match files)."""
    root = Path(settings.DATA_DIR) / "tmp"
    if not root.is_dir():
        return
    limit = time.time() - STAGING_MAX_AGE.total_seconds()
    for entry in root.iterdir():
        try:
            if entry.lstat().st_mtime < limit:
                log.info("removing stale staging entry %s", entry.name)
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry, ignore_errors=True)
                else:
                    entry.unlink(missing_ok=True)
        except FileNotFoundError:
            pass
