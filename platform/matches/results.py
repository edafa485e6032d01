"""Keeping a played match: exactly one result per match, and bots that keep faulting paused.

The runner writes into a staging folder of its own attempt (``tmp/match-<uuid>-<token>``).
:func:`store` writes its files to the arena's storage under the attempt's own name
(``matches/<uuid>-<token>/``, never written twice) and keeps them only if the attempt's claim
still holds the match: in one transaction it points the match at them, fills in the seats and
marks the match finished. Any other attempt's files are deleted: by that attempt, or, if its
worker died, by the sweeper (:func:`remove_orphaned_attempts`).

Nothing here sends a task: each function says what happened (stored, to be tried again, failed)
and the caller, :func:`matches.tasks.run_match`, enqueues what follows.
"""

import logging
import shutil
import time
from datetime import timedelta
from pathlib import Path
from typing import Literal

from core import disks, leases, metrics, storage
from core.files import public_dir
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from submissions.models import Bot

from matches import bridge
from matches.models import Match, Seat

log = logging.getLogger(__name__)


def staging_dir(match: Match, claim: leases.Claim) -> Path:
    root = public_dir(Path(settings.DATA_DIR) / "tmp")
    return root / f"match-{match.uuid}-{claim.token.hex[:12]}"


def result_dir(match: Match, claim: leases.Claim) -> str:
    """Where an attempt's files are kept in the arena's storage: a name of that attempt's own
    (its claim's token), so that no other attempt can write over them."""
    return f"matches/{match.uuid.hex[:2]}/{match.uuid}-{claim.token.hex[:12]}"


def record_result(
    match: Match, outcome: bridge.MatchOutcome, relative: str, skip: int | None = None
) -> dict[int, Seat]:
    """Write a played match's outcome into its (locked) row and its bots' seats: scores, ranks,
    faults, logs, deal scores, the result folder ``relative``; the seat ``skip`` (a person's, at
    a table) has no seat row and is left to the caller. Returns the seat rows by number."""
    seats = {s.seat: s for s in match.seats.all()}
    for number, result in enumerate(outcome.seats):
        if number == skip:
            continue
        seat = seats[number]
        seat.score, seat.rank = result.score, result.rank
        seat.faults, seat.log_file = result.faults, result.log_file
        seat.deal_scores = result.deal_scores
        seat.save(update_fields=["score", "rank", "faults", "log_file", "deal_scores"])
    match.status = Match.FINISHED
    match.finished_at = timezone.now()
    match.result_dir = relative
    match.replays = list(outcome.replays)
    match.claim_token = None
    match.error = ""
    match.save()
    return seats


def store(claim: leases.Claim, outcome: "bridge.MatchOutcome", out_dir: Path) -> bool:
    """Keep ``outcome`` if ``claim`` still holds its match; ``False`` (and nothing kept) if not.

    The files are written first, under the attempt's own name (:func:`result_dir`); the
    transaction that then finds the claim still holding the match points the match at them.
    An attempt that finds its claim lost deletes its files again. Returns once the result is
    committed; the caller then enqueues the rating and the match's end
    (:func:`matches.tasks.match_is_over`). Raises :class:`~core.storage.StorageError` if the
    files could not be written (the match is then still the claim's, to give back).
    """
    written: list[str] = []
    kept = False
    try:
        match = leases.holds(claim).filter(status=Match.RUNNING).first()
        if match is None:
            return False
        if match.players != len(outcome.seats):
            raise bridge.ArenaError(
                f"the runner reported {len(outcome.seats)} seats for {match.players} bots"
            )
        cap_logs(out_dir, [s.log_file for s in outcome.seats])
        relative = result_dir(match, claim)
        writing = time.perf_counter()
        written = storage.save_folder(out_dir, relative)
        storage_seconds = time.perf_counter() - writing
        with transaction.atomic():
            match = leases.holds(claim).filter(status=Match.RUNNING).select_for_update().first()
            if match is None:
                return False
            seats = record_result(match, outcome, relative)
            if match.ladder_id is not None:
                # A tournament's bots are versions fixed by its organiser, a version test's
                # by the test; only the ladder pipeline pauses a bot that keeps faulting.
                pause_faulty_bots([s.bot_id for s in seats.values() if s.faults])
            # Counted with the result: once per match.
            metrics.match_stored(outcome, storage_seconds=storage_seconds)
        kept = True
        return True
    finally:
        if not kept:
            storage.delete_all(written)  # a refused or failed attempt's files
        shutil.rmtree(out_dir, ignore_errors=True)


#: How long after its end a match's folders are looked through for other attempts' files (the
#: sweeper runs every few seconds; a day covers a sweeper that was down for a while).
ORPHANS_WINDOW = timedelta(days=1)


def remove_orphaned_attempts(
    window: timedelta = ORPHANS_WINDOW, grace: timedelta | None = None
) -> list[str]:
    """Delete the files of attempts that never became their match's result: an attempt whose
    worker died between writing its files and committing them (:func:`store` deletes a
    refused attempt's own files; a dead one cannot). The folders deleted.

    Only a match played more than once can have any, and only once it is over (finished or
    failed, ended more than ``grace`` ago, at most ``window`` ago): then every attempt folder
    of it but ``result_dir``, the winner's, is an orphan. Each match is looked at once
    (remembered in the cache for ``window``); its winning attempt's files are never touched.
    """
    grace = timedelta(seconds=settings.REQUEUE_AFTER_SECONDS) if grace is None else grace
    now = timezone.now()
    ended = Match.objects.filter(
        status__in=(Match.FINISHED, Match.FAILED),
        attempts__gt=1,
        finished_at__gte=now - window,
        finished_at__lt=now - grace,
    ).values_list("uuid", "result_dir")
    removed: list[str] = []
    for uuid, kept in ended:
        if not cache.add(f"nimmt:orphans-swept:{uuid}", 1, timeout=window.total_seconds()):
            continue
        try:
            removed += storage.remove_other_attempts(f"matches/{uuid.hex[:2]}", f"{uuid}-", kept)
        except storage.StorageError as error:
            cache.delete(f"nimmt:orphans-swept:{uuid}")  # looked at again next time
            log.warning("could not remove other attempts' files of match %s: %s", uuid, error)
    if removed:
        log.info("removed the files of %d attempts that were not kept", len(removed))
    return removed


def cap_logs(folder: Path, names: list[str]) -> None:
    """Cut every bot log in ``folder`` to ``LOG_CAP_BYTES`` (the runner caps too; this is the
    site's own limit on what it keeps)."""
    cap = settings.LOG_CAP_BYTES
    for name in names:
        if not name:
            continue
        path = folder / name
        if path.is_file() and path.stat().st_size > cap:
            with path.open("r+b") as log:
                log.truncate(cap)
                log.seek(cap)
                log.write(b"\n[log cut by the site]\n")


Released = Literal["again", "failed", "lost"]


def release(claim: leases.Claim, error: str) -> Released:
    """The arena could not play the match: queue it for another attempt (``"again"``: the caller
    sends it), or fail it after the last (``"failed"``); ``"lost"`` if the claim no longer holds.
    """
    with transaction.atomic():
        match = leases.holds(claim).filter(status=Match.RUNNING).select_for_update().first()
        if match is None:
            return "lost"
        if match.attempts >= Match.MAX_ATTEMPTS:
            _fail(match, error)
            return "failed"
        match.status = Match.QUEUED
        match.claim_token = None
        match.lease_expires_at = None
        match.error = error
        match.queued_at = timezone.now()
        match.save(
            update_fields=["status", "claim_token", "lease_expires_at", "error", "queued_at"]
        )
        return "again"


def wait_for_space(claim: leases.Claim) -> bool:
    """The match could not be played or kept because a disk is full: queue it again, this
    attempt not counted (:mod:`core.disks`), its page saying so. ``False`` if the claim no
    longer holds it. The caller sends it again after ``DISK_FULL_RETRY_SECONDS``."""
    with transaction.atomic():
        match = leases.holds(claim).filter(status=Match.RUNNING).select_for_update().first()
        if match is None:
            return False
        match.status = Match.QUEUED
        match.claim_token = None
        match.lease_expires_at = None
        match.error = disks.REASON
        match.attempts = max(0, match.attempts - 1)
        match.queued_at = timezone.now()
        match.save(
            update_fields=[
                "status", "claim_token", "lease_expires_at", "error", "attempts", "queued_at"
            ]
        )  # fmt: skip
        return True


def give_up(claim: leases.Claim, error: str) -> bool:
    """Fail the match for good if ``claim`` still holds it (``False`` if it does not)."""
    with transaction.atomic():
        match = leases.holds(claim).select_for_update().first()
        if match is None:
            return False
        _fail(match, error)
        return True


def _fail(match: Match, error: str) -> None:
    match.status = Match.FAILED
    match.error = error
    match.claim_token = None
    match.finished_at = timezone.now()
    match.save(update_fields=["status", "error", "claim_token", "finished_at"])
    metrics.match_failed()


def pause_faulty_bots(bot_ids: list[int]) -> list[int]:
    """Pause each bot whose last ``FAULT_PAUSE_MATCHES`` finished ladder matches all had its
    faults (a version test's candidate, a tournament's fixed version or a table's game are
    not the ladder's to judge).

    The reason, shown to the owner on the bot's page, quotes the faults. Returns the paused ids.
    """
    paused = []
    needed = settings.FAULT_PAUSE_MATCHES
    for bot_id in bot_ids:
        last = list(
            Seat.objects.filter(
                bot_id=bot_id, match__status=Match.FINISHED, match__ladder__isnull=False
            )
            .select_related("match")
            .order_by("-match__finished_at", "-match_id")[:needed]
        )
        if len(last) < needed or not all(seat.faults for seat in last):
            continue
        lines = [
            f"Paused: this bot broke the arena's rules in each of its last {needed} matches.",
            "Fix it and upload a new version (it lifts the pause), or resume the bot.",
            "",
        ]
        for seat in last:
            for fault in seat.faults[:3]:
                turn = fault.get("turn")
                where = f"turn {turn + 1}" if isinstance(turn, int) else "start"
                lines.append(
                    f"match {seat.match.uuid}, game {fault.get('game', 1)}, {where}: "
                    f"{fault.get('kind', 'fault')}: {str(fault.get('detail', ''))[:300]}"
                )
        if Bot.objects.filter(pk=bot_id, paused_at__isnull=True).update(
            paused_at=timezone.now(), pause_reason="\n".join(lines)
        ):
            paused.append(bot_id)
    return paused
