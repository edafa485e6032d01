"""The tournaments' Celery tasks: move a tournament on when one of its games is done."""

import logging

from core.celery import house_task

from tournaments import services
from tournaments.models import Tournament

log = logging.getLogger(__name__)


@house_task(queue="maintenance")
def advance_tournament(*, tournament_pk: int) -> None:
    outcome = services.advance(tournament_pk)
    if outcome not in ("waiting", "idle"):
        log.info("tournament %s: %s", tournament_pk, outcome)


@house_task(queue="maintenance")
def advance_running_tournaments() -> None:
    """Beat's safety net: a lost message must not leave a tournament waiting for ever."""
    for pk in Tournament.objects.filter(status=Tournament.RUNNING).values_list("pk", flat=True):
        advance_tournament.run(tournament_pk=pk)
