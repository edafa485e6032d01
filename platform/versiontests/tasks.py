"""The version tests' Celery tasks: move a test on when one of its matches is done.

The match pipeline does not know version tests: it sends ``matches.signals.match_ended``, and
:func:`advance_when_its_match_ends` (connected when the app is ready) enqueues
``advance_version_test`` for a test's match. The task is thin: :func:`versiontests.services.advance`
counts what is over (once, however often the message comes) and says which matches to send.
"""

import logging
from typing import Any

from accounts.models import User
from core.celery import enqueue, house_task
from django.dispatch import receiver
from ladders.models import Ladder
from matches.models import Match
from matches.signals import match_ended
from matches.tasks import run_match
from submissions.models import BotVersion

from arena.sprt import SprtSettings
from versiontests import services
from versiontests.models import PairedMatch, VersionTest

log = logging.getLogger(__name__)


@house_task(queue="maintenance")
def advance_version_test(*, test_pk: int) -> None:
    step = services.advance(test_pk)
    for match_pk in step.matches:
        enqueue(run_match, match_pk=match_pk)
    if step.ended:
        log.info("version test %s is over", test_pk)
        waiting = services.next_waiting()
        if waiting is not None:  # the slot it freed
            enqueue(advance_version_test, test_pk=waiting)


def ask_for_test(
    candidate: BotVersion, user: User, ladder: Ladder, sprt: SprtSettings | None = None
) -> VersionTest:
    """A new test (:func:`versiontests.services.request_test`), moved on once this commits
    (it starts as soon as the candidate has passed its checks and a slot is free)."""
    test = services.request_test(candidate, user, ladder, sprt)
    enqueue(advance_version_test, test_pk=test.pk)
    return test


@house_task(queue="maintenance")
def advance_open_version_tests() -> None:
    """Beat's safety net: a lost message (or a candidate that passed its checks since) must not
    leave a test waiting for ever."""
    for pk in services.open_tests():
        advance_version_test.run(test_pk=pk)


@receiver(match_ended, dispatch_uid="versiontests.advance_when_its_match_ends")
def advance_when_its_match_ends(sender: object, *, match: Match, **kwargs: Any) -> None:
    """A test's match is done: count it (once this commits)."""
    if match.ladder_id is not None or match.tournament_id is not None:
        return  # a test's matches belong to no ladder and no tournament
    test_pk = (
        PairedMatch.objects.filter(match_id=match.pk).values_list("test_id", flat=True).first()
    )
    if test_pk is not None:
        enqueue(advance_version_test, test_pk=test_pk)
