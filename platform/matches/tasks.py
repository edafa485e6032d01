"""The match pipeline's Celery tasks, and the one place that sends its follow-ups.

* ``run_match`` (queue ``matches``): claim the match, play it in the sandbox through
  :mod:`matches.bridge`, keep the result if the claim still holds (:mod:`matches.results`),
  then send what follows: the rating of a ladder match, another attempt, and the news that the
  match ended (:data:`matches.signals.match_ended`, which a tournament hears). A match that
  runs past its own time bound is stopped and failed (:mod:`matches.bounds`).
* ``rate_match`` (queue ``ratings``, which every match worker takes from first: a finished
  match is rated in the slot it freed): apply finished matches to their ladder, in order.
* ``schedule_matches`` (beat): keep every playing bot busy (:mod:`matches.scheduler`) and send
  the matches it created.
* ``analyse_seat`` (queue ``maintenance``): compute a decision analysis someone asked for
  (:mod:`matches.analyses`); bounded by its samples and seconds, idempotent under its claim.
* ``requeue_stale_work`` (beat): send again the matches that lost their message or their
  worker (each to its own queue, ``Match.queue``), and ratings and analyses whose message was
  lost; remove what killed workers left in the staging folder.

The modules this one calls never send a task: they return what happened, so none of them
imports this module back.
"""

import logging
import random
import shutil
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from celery import Task
from core import disks, leases, metrics, storage
from core.celery import enqueue, house_task, look_again_when_lease_ends, resend_stale, send
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.db.models import Min
from django.utils import timezone
from ladders.models import Ladder
from ladders.services import rate_ladder
from remote import reports as remote_reports
from remote import seat as remote_seat
from submissions import builds
from submissions.models import Bot

from matches import analyses, bounds, bridge, dataset, live, results, scheduler
from matches.live import LiveFeed
from matches.models import Match, SeatAnalysis, entrant_names
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
        look_again_when_lease_ends(
            run_match, Match, match_pk, working=Match.RUNNING, key="match_pk", queue_field="queue"
        )
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
    if len(seats) != match.players:
        # A person's table (tables.tasks.play_table) sent here again after its worker died:
        # its game lived in that worker and cannot go on.
        if results.give_up(claim, "its worker stopped during the game"):
            match_is_over(match, stored=False)
        return
    names = entrant_names(seats)
    out_dir = results.staging_dir(match, claim)
    bound = bounds.time_bound(match.variant, match.players, match.games)
    pulse = match_pulse(len(seats))
    try:
        with leases.heartbeat(claim, pulse, stalled=stalled(run_match)):
            # The live view's last frames are written before the result is stored, so a
            # spectator who sees the match over has been sent all of them.
            with bounds.wall_clock_limit(bound), LiveFeed(match.pk) as feed:
                outcome = bridge.play_match(
                    variant=match.variant,
                    seed=match.seed,
                    games=match.games,
                    duplicate=match.duplicate,
                    entrants=[
                        bridge.SeatedEntrant(name, remote_seat.joiner(name, s.bot_id))
                        if s.version.is_remote
                        else bridge.Entrant(
                            name, builds.run_dir(s.version), version=str(s.version.pk)
                        )
                        for name, s in zip(names, seats, strict=True)
                    ],
                    out_dir=out_dir,
                    watch=feed,
                    alive=pulse.beat,
                )
            pulse.expect(STORE_SECONDS)
            stored = results.store(claim, outcome, out_dir)
            if stored:
                remote_reports.keep(match, outcome.result)  # remote seats' round trips
    except bounds.Overran as overran:
        why = f"stopped: the match ran {overran} (its games, decisions, allowance, bank, starts)"
        faults = bounds.faults_so_far(match, out_dir)
        shutil.rmtree(out_dir, ignore_errors=True)
        log.warning("match %s %s", match.uuid, why)
        if bounds.stop(claim, faults, why):
            match_is_over(match, stored=False)
        return
    except Exception as error:
        shutil.rmtree(out_dir, ignore_errors=True)
        if disks.is_disk_full(error):  # a pause, not the match's nor a worker's fault
            log.warning("match %s waits for disk space: %s", match.uuid, error)
            if results.wait_for_space(claim):
                send(
                    run_match,
                    countdown=settings.DISK_FULL_RETRY_SECONDS,
                    queue=match.queue,
                    match_pk=match_pk,
                )
            return
        if not isinstance(error, (bridge.ArenaError, storage.StorageError)):
            raise
        log.warning("match %s could not be played: %s", match.uuid, error)
        released = results.release(claim, str(error))
        if released == "again":
            enqueue(run_match, queue=match.queue, match_pk=match_pk)
        elif released == "failed":
            match_is_over(match, stored=False)
        return
    except BaseException:
        shutil.rmtree(out_dir, ignore_errors=True)
        raise
    if stored:
        match_is_over(match, stored=True)


#: How long storing a played match may take before its lease is left to run out (s).
STORE_SECONDS = 120.0


def match_pulse(bots: int) -> leases.Pulse:
    """The signs of life of a match about to be played (:class:`core.leases.Pulse`): its loop
    beats every half second; before the loop starts, the bots may be built (each within
    ``BUILD_SECONDS``)."""
    pulse = leases.Pulse(window=max(2.0, settings.MATCH_LEASE_SECONDS / 3))
    pulse.expect(bots * settings.BUILD_SECONDS + 60.0)
    return pulse


def stalled(task: "Task[..., Any]") -> Callable[[], None] | None:
    """What a match whose loop stopped moving for good does: a worker's pool child ends itself
    (:func:`core.leases.exit_process`), so the slot it held is a fresh process again; a task
    called directly (a test, a shell) only lets its lease run out."""
    return None if task.request.called_directly else leases.exit_process


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


@house_task(queue="ratings")
def rate_match(*, match_pk: int) -> None:
    ladder_pk = Match.objects.filter(pk=match_pk).values_list("ladder_id", flat=True).first()
    if ladder_pk is not None:
        rate_ladder(ladder_pk)


@house_task(queue="maintenance", time_limit=settings.ANALYSIS_SECONDS + 5 * 60)
def analyse_seat(*, analysis_pk: int) -> None:
    if analyses.compute(analysis_pk) == "skipped":
        look_again_when_lease_ends(
            analyse_seat, SeatAnalysis, analysis_pk, working=SeatAnalysis.RUNNING, key="analysis_pk"
        )


def request_analysis(
    match: Match, game: int, seat: int, user: AbstractBaseUser | AnonymousUser
) -> analyses.Requested:
    """Ask for an analysis (:func:`matches.analyses.request`) and send its computation once
    the transaction commits, if this request created it."""
    with transaction.atomic():
        requested = analyses.request(match, game, seat, user)
        if requested.created:
            enqueue(analyse_seat, analysis_pk=requested.analysis.pk)
    return requested


@house_task(queue="maintenance", time_limit=6 * 60 * 60)
def export_games() -> None:
    """Add the public games finished since the last export to the dataset (nightly)."""
    export = dataset.export_games()
    if export is not None:
        log.info("dataset export %d: %d games", export.number, export.games)


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
    left in the staging folder and in the arena's storage, and the live frames of matches over
    for a while. (Versions
    have their own sweeper in :mod:`submissions.tasks`.)
    """
    resend_stale(
        Match,
        run_match,
        waiting=Match.QUEUED,
        working=Match.RUNNING,
        key="match_pk",
        after_seconds=settings.REQUEUE_AFTER_SECONDS,
        queue_field="queue",
    )
    resend_stale(
        SeatAnalysis,
        analyse_seat,
        waiting=SeatAnalysis.QUEUED,
        working=SeatAnalysis.RUNNING,
        key="analysis_pk",
        after_seconds=settings.REQUEUE_AFTER_SECONDS,
    )
    rate_unrated()
    remove_stale_staging()
    results.remove_orphaned_attempts()
    live.remove_ended()


def rate_unrated() -> None:
    """Send the rating of every ladder with a match finished but not rated for longer than
    ``REQUEUE_AFTER_SECONDS`` (its ``rate_match`` message was lost; one rates them all)."""
    before = timezone.now() - timedelta(seconds=settings.REQUEUE_AFTER_SECONDS)
    waiting = (
        Match.objects.filter(
            status=Match.FINISHED, rated=False, ladder__isnull=False, finished_at__lt=before
        )
        .order_by()
        .values("ladder_id")
        .annotate(first=Min("pk"))
        .values_list("first", flat=True)
    )
    for match_pk in waiting:
        enqueue(rate_match, match_pk=match_pk)


#: Longer than any task that stages files without a claim of its own may run (validation's
#: 15-minute limit); a match attempt's folder goes as soon as its claim is gone.
STAGING_MAX_AGE = timedelta(minutes=20)


def remove_stale_staging() -> None:
    """Remove what killed workers left in the staging folder: a match attempt's folder
    (``match-<uuid>-<token>``) once its match no longer carries that claim (finished, or taken
    over after its worker died), anything else (unpacked uploads, checks) once it is older
    than :data:`STAGING_MAX_AGE`."""
    root = Path(settings.DATA_DIR) / "tmp"
    if not root.is_dir():
        return
    limit = time.time() - STAGING_MAX_AGE.total_seconds()
    entries = list(root.iterdir())
    held = {
        f"match-{uuid}-{token.hex[:12]}"
        for uuid, token in Match.objects.filter(status=Match.RUNNING).values_list(
            "uuid", "claim_token"
        )
        if token is not None
    }
    for entry in entries:
        try:
            if entry.name.startswith("match-"):
                stale = entry.name not in held and entry.lstat().st_mtime < time.time() - 5
            else:
                stale = entry.lstat().st_mtime < limit
            if stale:
                log.info("removing stale staging entry %s", entry.name)
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry, ignore_errors=True)
                else:
                    entry.unlink(missing_ok=True)
        except FileNotFoundError:
            pass
