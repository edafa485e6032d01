"""The table's Celery task: the worker plays a person's match like any other, from a queue of
its own (``tables``) that every match worker takes from before the league's ``matches``
(:data:`core.celery.QUEUES`), so a person waits for the next free slot, not for the league;
the person sits at a :class:`~tables.seat.PersonSeat`.

``play_table`` claims the table's match (:mod:`core.leases`), plays it through
:func:`matches.bridge.play_match` with the table's time control, the live view's
:class:`~matches.live.LiveFeed` as its watch (spectators follow it on the match's live page),
and keeps the result if the claim still holds: the bots' seats, the person's result, and the
rating on the people ladder (:func:`tables.ladder.rate_table`), in one transaction.

``forget_old_guests`` (beat, hourly) deletes the guests idle for ``GUEST_KEEP_DAYS``
(:func:`tables.services.forget_guests`).
"""

from __future__ import annotations

import logging
import shutil
from datetime import timedelta
from pathlib import Path

from core import disks, leases, storage
from core.celery import enqueue, house_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from matches import bridge, results
from matches.live import LiveFeed
from matches.models import Match, entrant_names
from matches.signals import match_ended
from matches.tasks import STORE_SECONDS, match_pulse, stalled
from submissions import builds

from arena.runner.seat import Seat
from tables.ladder import rate_table
from tables.models import Table
from tables.seat import PersonSeat
from tables.services import forget_guests

log = logging.getLogger(__name__)


def start_table(table: Table) -> None:
    """Send ``table``'s match to a worker once the current transaction commits."""
    enqueue(play_table, table_pk=table.pk)


@house_task(queue="maintenance")
def forget_old_guests() -> None:
    """Delete the guests idle for ``GUEST_KEEP_DAYS`` days, with their tables."""
    forgotten = forget_guests(timedelta(days=settings.GUEST_KEEP_DAYS))
    if forgotten:
        log.info("forgot %d guests idle for %d days", forgotten, settings.GUEST_KEEP_DAYS)


@house_task(queue="tables", time_limit=60 * 60)
def play_table(*, table_pk: int) -> None:
    table = Table.objects.select_related("match").filter(pk=table_pk).first()
    if table is None:
        return
    match = table.match
    claim = leases.claim(
        Match,
        match.pk,
        waiting=Match.QUEUED,
        working=Match.RUNNING,
        lease_seconds=settings.MATCH_LEASE_SECONDS,
        started_at=timezone.now(),
    )
    if claim is None:
        return  # finished, gone, or being played
    match.refresh_from_db()
    if match.attempts > Match.MAX_ATTEMPTS:
        if results.give_up(claim, "gave up: workers kept dying"):
            match_ended.send(sender=Match, match=match)
        return
    seats = {s.seat: s for s in match.seats.select_related("bot", "version")}
    names = dict(zip(sorted(seats), entrant_names([seats[n] for n in sorted(seats)]), strict=True))
    person = PersonSeat(table.name, table.pk)

    async def join(key: str, welcome: object, wait_s: float) -> Seat:
        return person

    entrants: list[bridge.Entrant | bridge.SeatedEntrant] = []
    for number in range(match.players):
        if number == table.entry:
            entrants.append(bridge.SeatedEntrant(table.name, join))
        else:
            seat = seats[number]
            entrants.append(
                bridge.Entrant(
                    names[number],
                    builds.run_dir(seat.version),
                    seat.bot.is_house,
                    version=str(seat.version.pk),
                )
            )
    out_dir = results.staging_dir(match, claim)
    pulse = match_pulse(match.players)
    try:
        with leases.heartbeat(claim, pulse, stalled=stalled(play_table)):
            with LiveFeed(match.pk) as feed:
                outcome = bridge.play_match(
                    variant=match.variant,
                    seed=match.seed,
                    games=match.games,
                    entrants=entrants,
                    out_dir=out_dir,
                    watch=feed,
                    decision_ms=table.decision_ms,
                    bank_ms=table.bank_ms,
                    alive=pulse.beat,
                )
            pulse.expect(STORE_SECONDS)
            person.close()
            stored = store(claim, table, outcome, out_dir)
    except Exception as error:
        person.close()
        shutil.rmtree(out_dir, ignore_errors=True)
        # A person does not wait for space to return: the table ends, saying why.
        full = disks.is_disk_full(error)
        if not full and not isinstance(error, (bridge.ArenaError, storage.StorageError)):
            raise
        log.warning("table %s could not be played: %s", table.uuid, error)
        if results.give_up(claim, "the arena's disk is full" if full else str(error)):
            match_ended.send(sender=Match, match=match)
        return
    except BaseException:
        person.close()
        shutil.rmtree(out_dir, ignore_errors=True)
        raise
    if stored:
        match_ended.send(sender=Match, match=match)


def store(claim: leases.Claim, table: Table, outcome: bridge.MatchOutcome, out_dir: Path) -> bool:
    """Keep the table's result if ``claim`` still holds its match (as
    :func:`matches.results.store` keeps a bots' match), the person's too, and rate it."""
    written: list[str] = []
    kept = False
    try:
        if not leases.holds(claim).filter(status=Match.RUNNING).exists():
            return False
        match = table.match
        relative = results.result_dir(match, claim)
        written = storage.save_folder(out_dir, relative)
        with transaction.atomic():
            held = leases.holds(claim).filter(status=Match.RUNNING).select_for_update().first()
            if held is None:
                return False
            person = outcome.seats[table.entry]
            Table.objects.filter(pk=table.pk).update(
                score=person.score, rank=person.rank, faults=person.faults
            )
            results.record_result(held, outcome, relative, skip=table.entry)
            table.refresh_from_db()
            rate_table(table, list(outcome.result.replays))
        kept = True
        return True
    finally:
        if not kept:
            storage.delete_all(written)
        shutil.rmtree(out_dir, ignore_errors=True)
