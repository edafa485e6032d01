"""Decision analyses of a finished match's seats: asking for one, and computing it on a worker.

What a visitor may do, and why:

* **Read** an analysis: anyone. It is computed from the game's replay, which is public (every
  hand is in the download once the game is over), and from nothing private: no log, no fault
  detail, no note of a bot.
* **Ask** for one: any signed-in user, for any seat of any finished game. Owners want their own
  bot's mistakes, but an opponent's are as instructive, and the analysis tells nobody anything
  the replay does not. What it costs is a worker's time, so requests are limited: at most
  ``ANALYSIS_PER_HOUR`` new analyses per user per hour, and at most ``ANALYSIS_WAITING`` waiting
  on the whole site. A request for one that exists (any status) starts nothing: the stored
  result is kept by match, game, seat and analysis version (:data:`arena.analysis.VERSION`).

On the worker (:func:`compute`) the analysis runs under the row's claim (:mod:`core.leases`)
with ``ANALYSIS_SAMPLES`` samples per decision and at most ``ANALYSIS_SECONDS`` of wall time
(an analysis cut short says so), and is stored only while the claim holds, so a message
delivered twice computes it at most twice and stores it once.
"""

import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from core import leases, storage
from core.locks import hold_count
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from arena import analysis
from arena.engine.errors import ReplayError
from arena.engine.replay import parse as parse_replay
from matches.models import Match, SeatAnalysis

log = logging.getLogger(__name__)
#: An analysis whose worker died this often (killed past its time limit, say) is given up.
MAX_ATTEMPTS = 3


class RequestRefused(Exception):
    """The request cannot be taken; the message says why, for the person who asked."""


class RateLimited(RequestRefused):
    """Too many requests by this user, or too many analyses waiting: later, maybe."""


@dataclass(frozen=True)
class Requested:
    """The analysis asked for, and whether this request created it (``False``: cached)."""

    analysis: SeatAnalysis
    created: bool


def find(match: Match, game: int, seat: int) -> SeatAnalysis | None:
    """The current version's analysis of this seat, if anybody asked for it."""
    return SeatAnalysis.objects.filter(
        match=match, game=game, seat=seat, version=analysis.VERSION
    ).first()


def check_target(match: Match, game: int, seat: int) -> None:
    """Raise :class:`RequestRefused` unless ``game`` and ``seat`` exist in finished ``match``."""
    if match.status != Match.FINISHED:
        raise RequestRefused("Only a finished match can be analysed.")
    if not 1 <= game <= len(match.replays):
        raise RequestRefused(f"This match has no game {game}.")
    if not 0 <= seat < match.players:
        raise RequestRefused(f"This game has no seat {seat}; seats are 0 to {match.players - 1}.")


def request(
    match: Match, game: int, seat: int, user: AbstractBaseUser | AnonymousUser
) -> Requested:
    """Ask for the analysis of ``seat`` of ``game`` (module docstring: who may, how often).
    The caller sends the computation when ``created`` (once the transaction commits)."""
    if not user.is_authenticated:
        raise RequestRefused("Sign in to ask for an analysis.")
    check_target(match, game, seat)
    existing = find(match, game, seat)
    if existing is not None:
        return Requested(existing, created=False)
    with transaction.atomic():
        # The user's row, locked: requests sent at once are counted one after the other.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        since = timezone.now() - timedelta(hours=1)
        recent = SeatAnalysis.objects.filter(requested_by_id=user.pk, created_at__gt=since).count()
        if recent >= settings.ANALYSIS_PER_HOUR:
            raise RateLimited(
                f"You asked for {recent} analyses in the last hour; the limit is "
                f"{settings.ANALYSIS_PER_HOUR}. Try again later."
            )
        hold_count("analyses waiting")  # users' requests count one after the other
        waiting = SeatAnalysis.objects.filter(
            status__in=(SeatAnalysis.QUEUED, SeatAnalysis.RUNNING)
        ).count()
        if waiting >= settings.ANALYSIS_WAITING:
            raise RateLimited("Too many analyses are waiting for a worker; try again in a while.")
        try:
            with transaction.atomic():
                created = SeatAnalysis.objects.create(
                    match=match,
                    game=game,
                    seat=seat,
                    version=analysis.VERSION,
                    requested_by_id=user.pk,
                )
        except IntegrityError:  # asked for at the same moment by someone else
            found = find(match, game, seat)
            assert found is not None
            return Requested(found, created=False)
    return Requested(created, created=True)


def compute(analysis_pk: int) -> str:
    """Claim the analysis, compute it and store it; what happened: ``"done"``, ``"failed"``,
    or ``"skipped"`` (done already, gone, or held by a live worker)."""
    claim = leases.claim(
        SeatAnalysis,
        analysis_pk,
        waiting=SeatAnalysis.QUEUED,
        working=SeatAnalysis.RUNNING,
        lease_seconds=settings.MATCH_LEASE_SECONDS,
    )
    if claim is None:
        return "skipped"
    row = SeatAnalysis.objects.select_related("match").get(pk=analysis_pk)
    match = row.match
    if row.attempts > MAX_ATTEMPTS:
        why = f"gave up after {MAX_ATTEMPTS} attempts: workers kept dying"
        return _finish(claim, status=SeatAnalysis.FAILED, error=why)
    try:
        check_target(match, row.game, row.seat)
        name = f"{match.result_dir}/{match.replays[row.game - 1]}"
        with leases.heartbeat(claim):
            replay = parse_replay(storage.read_bytes(name), "the replay")
            result = analysis.analyse(
                replay,
                row.seat,
                samples=settings.ANALYSIS_SAMPLES,
                seed=match.seed + row.game,
                seconds=settings.ANALYSIS_SECONDS,
            )
    except (RequestRefused, ReplayError, ValueError, FileNotFoundError) as problem:
        log.warning("analysis %s failed: %s", row.uuid, problem)
        return _finish(claim, status=SeatAnalysis.FAILED, error=str(problem))
    log.info(
        "analysed seat %d of game %d of match %s: %d decisions in %.1f s",
        row.seat,
        row.game,
        match.uuid,
        len(result.decisions),
        result.seconds,
    )
    return _finish(claim, status=SeatAnalysis.DONE, result=result.to_json())


def _finish(claim: leases.Claim, **fields: Any) -> str:
    stored = leases.holds(claim).update(
        finished_at=timezone.now(), claim_token=None, lease_expires_at=None, **fields
    )
    return str(fields["status"]) if stored else "skipped"


def to_json(row: SeatAnalysis | None) -> dict[str, Any]:
    """What the viewer's panel reads: ``{"status": "none" | "queued" | "running" | "done" |
    "failed", "error": ..., "analysis": nimmt-analysis/1 or null}``."""
    if row is None:
        return {"status": "none", "error": "", "analysis": None}
    return {"status": row.status, "error": row.error, "analysis": row.result}
