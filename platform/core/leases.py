"""Claiming a row of work (a match to play, a version to validate) with a renewable lease.

A task does its work only after a conditional ``UPDATE`` moved the row from its waiting status
to its working status, or took over a working row whose lease has run out (its worker died).
The claim carries a fresh token; a heartbeat thread renews the lease while the work goes on, and
the result is written only if the row still carries that token (:func:`holds`). So a task
delivered twice, or a match re-run after its first worker was killed, keeps exactly one result.
"""

import logging
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import DatabaseError, connection, models
from django.db.models import F, Q
from django.utils import timezone

log = logging.getLogger(__name__)


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


@contextmanager
def heartbeat(claim: Claim) -> Iterator[threading.Event]:
    """Renew ``claim`` every third of its lease while the block runs.

    Yields an event that is set if the claim was lost (someone else took the row over); the
    work may stop early then, and its result will be refused anyway.
    """
    stop = threading.Event()
    lost = threading.Event()
    interval = claim.lease.total_seconds() / 3

    def beat() -> None:
        try:
            while not stop.wait(interval):
                try:
                    if not renew(claim):
                        lost.set()
                        return
                except DatabaseError:  # a short outage: try again next beat
                    log.warning(
                        "could not renew the lease of %s %s", claim.model.__name__, claim.pk
                    )
        finally:
            connection.close()  # this thread's own connection

    thread = threading.Thread(target=beat, name=f"lease-{claim.pk}", daemon=True)
    thread.start()
    try:
        yield lost
    finally:
        stop.set()
        thread.join()
