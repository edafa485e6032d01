"""How long a match may take, and what happens to one that takes longer.

The runner's clock bounds every bot: each decision has its allowance, each seat a bank per game
drawn on beyond it, each program ``START_MS`` to say Hello. So a match of ``games`` games at a
table of ``players`` cannot take longer than

    players × start + games × (rounds × allowance + players × bank) + margin

where ``rounds = ROUNDS_PER_TILE × hand size`` bounds how often a game asks (a simultaneous
tile choice is one round, every seat's clock running at once) and the margin pays for the
sandbox, replays and the referee itself. The bots of a sitting start at once, so ``players ×
start`` also covers a duplicate match, which starts them afresh for each of its ``players``
seat rotations (and the few seconds each sitting's end gives them to exit come from the
margin). :func:`time_bound` is that figure (capped by ``MATCH_TIME_CAP_SECONDS`` if set);
:func:`wall_clock_limit` stops the match past it, whatever went wrong (a runner waiting on
something no clock covers). The task then ends the match
(:func:`stop`): failed with the reason, the faults of the games that were played kept on the
seats, never retried, the worker free for the next match.
"""

import logging
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from core import leases
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from arena.engine import replay as replays
from arena.engine.errors import ReplayError
from arena.engine.variants import variant as get_variant
from arena.local import series_game
from arena.runner.rules import START_MS
from matches.models import Match

log = logging.getLogger(__name__)

#: Rounds a game asks per tile in a hand, at most: random playouts of every variant and table
#: size asked at most 74 rounds with 12 tiles (professional with luck cards, two players).
ROUNDS_PER_TILE = 7
#: How long a stopped runner gets to unwind (stop its bots) before it is told again.
UNWIND_SECONDS = 10.0


def time_bound(variant: str, players: int, games: int) -> float:
    """The most seconds a match of ``games`` games of ``variant`` at ``players`` may take.

    >>> from django.conf import settings
    >>> round(time_bound("basic", 4, 1) - settings.MATCH_TIME_MARGIN_SECONDS)
    164
    """
    allowance = settings.DECISION_MS / 1000
    bank = settings.BANK_MS / 1000
    rounds = ROUNDS_PER_TILE * get_variant(variant).hand_size
    bound = (
        players * START_MS / 1000
        + games * (rounds * allowance + players * bank)
        + settings.MATCH_TIME_MARGIN_SECONDS
    )
    cap = float(settings.MATCH_TIME_CAP_SECONDS)
    return min(bound, cap) if cap else float(bound)


class Overran(BaseException):
    """The match ran past its bound. A ``BaseException``, as Celery's time limits are, so that
    no ``except Exception`` of the runner's takes it for a bot's error."""


@contextmanager
def wall_clock_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`Overran` in the block once it has run ``seconds`` (again every
    :data:`UNWIND_SECONDS` until it ends). A worker's task runs in its process's main thread;
    anywhere else (a thread pool) the block runs unbounded but for the task's time limit."""
    if threading.current_thread() is not threading.main_thread():
        log.warning("no wall clock limit outside the main thread; the task's time limit holds")
        yield
        return

    def overran(signum: int, frame: FrameType | None) -> None:
        signal.setitimer(signal.ITIMER_REAL, UNWIND_SECONDS)
        raise Overran(f"past its bound of {seconds:.0f} s")

    previous = signal.signal(signal.SIGALRM, overran)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def faults_so_far(match: Match, out_dir: Path) -> list[list[dict[str, Any]]]:
    """Per seat of ``match``, the faults in the replays its runner wrote to ``out_dir`` before
    it was stopped (game numbers from the match's first game, as a played match stores them)."""
    faults: list[list[dict[str, Any]]] = [[] for _ in range(match.players)]
    for path in sorted(out_dir.glob("game-*.json")):
        try:
            replay = replays.read(path)
        except ReplayError:
            continue  # cut short while it was written
        if replay.series is None:
            continue
        index = replay.series.game - 1
        seats = series_game(match.seed, index, match.players, duplicate=match.duplicate).seats
        for fault in replay.result.faults:
            if 0 <= fault.seat < match.players:
                faults[seats[fault.seat]].append({**fault.to_json(), "game": index + 1})
    return faults


def stop(claim: leases.Claim, faults: list[list[dict[str, Any]]], why: str) -> bool:
    """End the match ``claim`` holds: failed because of ``why``, each seat's ``faults`` kept.
    ``False`` if the claim no longer holds it."""
    with transaction.atomic():
        match = leases.holds(claim).filter(status=Match.RUNNING).select_for_update().first()
        if match is None:
            return False
        for seat in match.seats.all():
            seat.faults = faults[seat.seat] if seat.seat < len(faults) else []
            seat.save(update_fields=["faults"])
        match.status = Match.FAILED
        match.error = why
        match.claim_token = None
        match.finished_at = timezone.now()
        match.save(update_fields=["status", "error", "claim_token", "finished_at"])
    return True
