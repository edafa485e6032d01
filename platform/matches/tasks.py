"""The match pipeline's Celery tasks.

* ``run_match`` (queue ``matches``): claim the match, play it in the sandbox through
  :mod:`matches.bridge`, keep the result if the claim still holds.
* ``rate_match`` (queue ``maintenance``): apply finished matches to their ladder, in order.
* ``schedule_matches`` (beat): keep every playing bot busy (:mod:`matches.scheduler`).
* ``requeue_stale_work`` (beat): send again what lost its message or its worker.
"""

import logging
import shutil
import time
from datetime import timedelta
from pathlib import Path

from core import leases
from core.celery import enqueue, house_task
from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from ladders.services import rate_ladder
from submissions.models import BotVersion
from submissions.tasks import validate_version

from matches import bridge, results
from matches.models import Match, entrant_names
from matches.scheduler import schedule_all

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
    match = Match.objects.get(pk=match_pk)
    if match.attempts > Match.MAX_ATTEMPTS:
        results.give_up(claim, f"gave up after {Match.MAX_ATTEMPTS} attempts: workers kept dying")
        return
    seats = list(match.seats.select_related("bot", "version").order_by("seat"))
    names = entrant_names(seats)
    out_dir = results.staging_dir(match, claim)
    try:
        with leases.heartbeat(claim):
            outcome = bridge.play_match(
                variant=match.variant,
                seed=match.seed,
                games=match.games,
                entrants=[
                    bridge.Entrant(name, s.version.code_path())
                    for name, s in zip(names, seats, strict=True)
                ],
                out_dir=out_dir,
            )
    except bridge.ArenaError as error:
        shutil.rmtree(out_dir, ignore_errors=True)
        log.warning("match %s could not be played: %s", match.uuid, error)
        results.release(claim, str(error))
        return
    except BaseException:
        shutil.rmtree(out_dir, ignore_errors=True)
        raise
    results.store(claim, outcome, out_dir)


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
    created = schedule_all()
    if created:
        log.info("scheduled %d matches", created)


@house_task(queue="maintenance")
def requeue_stale_work() -> None:
    """Send again every match and version whose message was lost or whose worker died.

    A queued row whose message was sent long ago (a broker restart lost it) and a working row
    whose lease ran out (its worker was killed) are both sent again, at most once every
    ``REQUEUE_AFTER_SECONDS``; the task claims the row first, so a message that was not lost
    after all (a long queue) costs one no-op run.
    """
    now = timezone.now()
    stale = Q(queued_at__lt=now - timedelta(seconds=settings.REQUEUE_AFTER_SECONDS))
    for model, task, waiting, working, key in (
        (Match, run_match, Match.QUEUED, Match.RUNNING, "match_pk"),
        (BotVersion, validate_version, BotVersion.PENDING, BotVersion.VALIDATING, "version_pk"),
    ):
        rows = model._default_manager.filter(
            stale & (Q(status=waiting) | Q(status=working, lease_expires_at__lt=now))
        ).values_list("pk", flat=True)
        for pk in rows:
            # Only one sweeper sends a row again: the one whose update moved queued_at.
            if model._default_manager.filter(pk=pk, queued_at__lt=now).update(queued_at=now):
                log.info("sending %s %s again", model.__name__, pk)
                enqueue(task, **{key: pk})
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
