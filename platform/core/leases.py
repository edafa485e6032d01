"""Claiming a row of work (a match to play, a version to validate) with a renewable lease.

A task does its work only after a conditional ``UPDATE`` moved the row from its waiting status
to its working status, or took over a working row whose lease has run out (its worker died).
The claim carries a fresh token; a heartbeat thread renews the lease while the work goes on (for
a match, only while its own loop shows signs of life: :class:`Pulse`), and the result is written
only if the row still carries that token (:func:`holds`). So a task delivered twice, or a match
re-run after its first worker was killed or wedged, keeps exactly one result.
"""

import logging
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import DatabaseError, connection, models
from django.db.models import F, Q
from django.utils import timezone

log = logging.getLogger(__name__)

#: Leases past the time a :class:`Pulse` was due after which the work counts as stalled for
#: good (:func:`heartbeat`'s ``stalled``): by then another worker has taken its row over.
STALLED_LEASES = 3


class Claimable(models.Model):
    """Fields of a row that workers claim. ``status`` is the concrete model's own field."""

    claim_token = models.UUIDField(null=True, blank=True, editable=False)
    lease_expires_at = models.DateTimeField(null=True, blank=True, editable=False)
    attempts = models.PositiveIntegerField(default=0, editable=False)
    # When the work was last sent to the broker; the sweeper re-sends what waited too long.
    queued_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        abstract = True


@dataclass(frozen=True)
class Claim:
    """A worker's hold on one row: renew it with :func:`heartbeat`, check it with :func:`holds`."""

    model: type[Claimable]
    pk: int
    token: uuid.UUID
    lease: timedelta


def claim(
    model: type[Claimable],
    pk: int,
    *,
    waiting: str,
    working: str,
    lease_seconds: float,
    **changes: Any,
) -> Claim | None:
    """Take row ``pk`` from status ``waiting`` (or ``working`` with an expired lease).

    Returns ``None`` if the row is gone, done, or held by a live worker. ``changes`` are set in
    the same ``UPDATE``.
    """
    now = timezone.now()
    lease = timedelta(seconds=lease_seconds)
    token = uuid.uuid4()
    fields: dict[str, Any] = {
        "status": working,  # the concrete model's field
        "claim_token": token,
        "lease_expires_at": now + lease,
        "attempts": F("attempts") + 1,
        **changes,
    }
    taken = (
        model._default_manager.filter(pk=pk)
        .filter(Q(status=waiting) | Q(status=working, lease_expires_at__lt=now))
        .update(**fields)
    )
    return Claim(model, pk, token, lease) if taken else None


def holds(claim: Claim) -> models.QuerySet[Any]:
    """The row, as a queryset that is empty unless ``claim`` still holds it."""
    return claim.model._default_manager.filter(pk=claim.pk, claim_token=claim.token)


def renew(claim: Claim) -> bool:
    """Push the lease's end forward; ``False`` if the claim was lost (or the row is gone)."""
    return bool(holds(claim).update(lease_expires_at=timezone.now() + claim.lease))


class Pulse:
    """Signs of life of the work a claim holds, given by the work itself (a match: its own
    event loop, :func:`arena.runner.match.run_match`'s ``alive``).

    :func:`heartbeat` renews the lease only while the pulse is :meth:`alive`: work that has
    stopped moving (a loop blocked by a seat, a deadlock in a library) lets its lease run out,
    and another worker takes the row over, although the thread that renews it is fine. The
    work says how long its next sign of life may take when it goes where it gives none
    (:meth:`expect`: building its bots before the loop starts, storing after it ends).
    """

    def __init__(self, window: float) -> None:
        self.window = window
        self._last = time.monotonic()
        self._allowed = window

    def beat(self) -> None:
        """The work is moving (cheap: called from the match's loop every half second)."""
        self._last = time.monotonic()
        self._allowed = self.window

    def expect(self, seconds: float) -> None:
        """The next sign of life may take up to ``seconds`` (from now)."""
        self._last = time.monotonic()
        self._allowed = max(seconds, self.window)

    def silent_for(self) -> float:
        """Seconds since the last sign of life."""
        return time.monotonic() - self._last

    def alive(self) -> bool:
        return self.silent_for() <= self._allowed

    def stalled_for(self) -> float:
        """Seconds past the time the next sign of life was due (0 while it is not)."""
        return max(0.0, self.silent_for() - self._allowed)


def exit_process() -> None:
    """End this worker process at once (a pool child: its pool starts a fresh one, the
    broker delivers its task again). For work whose pulse stopped: it holds a slot for ever."""
    log.error("the work of this process stopped moving; ending the process (pid %d)", os.getpid())
    logging.shutdown()
    os._exit(70)  # EX_SOFTWARE


@contextmanager
def heartbeat(
    claim: Claim,
    pulse: Pulse | None = None,
    *,
    stalled: Callable[[], None] | None = None,
) -> Iterator[threading.Event]:
    """Renew ``claim`` every third of its lease while the block runs and, if a ``pulse`` is
    given, while it is :meth:`~Pulse.alive`. Work whose pulse stays past due for
    :data:`STALLED_LEASES` leases has ``stalled`` called (a pool child ends itself:
    :func:`exit_process`).

    Yields an event that is set if the claim was lost (someone else took the row over); the
    work may stop early then, and its result will be refused anyway. Leaving the block waits for
    the renewing thread for one of its intervals at most.
    """
    stop = threading.Event()
    lost = threading.Event()
    interval = claim.lease.total_seconds() / 3
    name = f"{claim.model.__name__} {claim.pk}"

    def beat() -> None:
        quiet = False
        try:
            while not stop.wait(interval):
                if pulse is not None and not pulse.alive():
                    if not quiet:
                        log.warning(
                            "%s: no sign of life for %.1f s; its lease is left to run out",
                            name,
                            pulse.silent_for(),
                        )
                        quiet = True
                    if stalled is not None and pulse.stalled_for() > STALLED_LEASES * (
                        claim.lease.total_seconds()
                    ):
                        stalled()
                        return
                    continue
                quiet = False
                try:
                    if not renew(claim):
                        lost.set()
                        return
                except DatabaseError:  # a short outage: try again next beat
                    log.warning("could not renew the lease of %s", name)
        finally:
            connection.close()  # this thread's own connection

    thread = threading.Thread(target=beat, name=f"lease-{claim.pk}", daemon=True)
    thread.start()
    try:
        yield lost
    finally:
        stop.set()
        thread.join(timeout=interval)
