"""The tournaments' Celery tasks: move a tournament on when one of its games is done.

The match pipeline does not know tournaments: it sends ``matches.signals.match_ended``, and
:func:`advance_when_its_match_ends` (connected when the app is ready) enqueues
``advance_tournament`` for a tournament's match.
"""

import logging
from typing import Any

from core.celery import enqueue, house_task
from django.dispatch import receiver
from matches.models import Match
from matches.signals import match_ended

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


@receiver(match_ended, dispatch_uid="tournaments.advance_when_its_match_ends")
def advance_when_its_match_ends(sender: object, *, match: Match, **kwargs: Any) -> None:
    """A tournament's game is done: let the tournament move on (once this commits)."""
    if match.tournament_id is not None:
        enqueue(advance_tournament, tournament_pk=match.tournament_id)
