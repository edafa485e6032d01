"""Sending a challenge's match to the workers.

A challenge's match is an ordinary match played by the one match task
(:func:`matches.tasks.run_match`: claim, lease, play through :mod:`matches.bridge`, store),
sent to the ``challenges`` queue, which the match workers take after people's tables and before
the ladders' routine matches.
"""

from accounts.models import User
from core.celery import enqueue
from matches.tasks import run_match
from submissions.models import Bot

from challenges import services
from challenges.models import Challenge


def make_challenge(
    user: User, bot: Bot, variant: str, players: int, opponents: list[Bot], deals: int
) -> Challenge:
    """A new challenge (:func:`challenges.services.create_challenge`), its match sent to the
    ``challenges`` queue once this commits."""
    challenge = services.create_challenge(user, bot, variant, players, opponents, deals)
    enqueue(run_match, queue=challenge.match.queue, match_pk=challenge.match_id)
    return challenge
