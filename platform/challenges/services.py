"""Making a challenge within the owner's limits, and reading its result as paired edges.

**The match.** One duplicate match: ``deals`` deals, each played once per seat rotation
(``deals × players`` games), the challenger's active version in seat 0 and the opponents'
active versions after it, in the order given. It has no ladder and no tournament, so nothing
rates it. The caller sends it to the workers' ``challenges`` queue (:data:`QUEUE`, which the
match keeps: a retry or the sweeper sends it there again) once the challenge is committed
(:mod:`challenges.tasks`).

**Who may be challenged.** A bot that plays (:meth:`submissions.models.BotQuerySet.playing`:
not retired, not paused, a passed active version) and whose owner did not refuse challenges
(:class:`challenges.models.ChallengeRefusal`); the house bots always; the challenger's own
other bots always.

**Limits** (settings, per user): ``CHALLENGES_PER_HOUR`` new challenges in the last hour,
``CHALLENGE_MAX_GAMES`` games in one challenge, ``CHALLENGES_WAITING`` challenges queued or
playing at once. The user's row is locked while they are counted, so two requests at once
cannot together pass a limit.

**The result.** Per opponent, the paired score edge per game: on each deal, the challenger's
points over the deal's rotations minus the opponent's, divided by the rotations (the card
game's penalty points negated, so that higher is better, as :func:`ladders.rating.match_deals`
does); its mean with the 95% interval and the likelihood of superiority
(:func:`core.stats.compare_paired`). Both sat in every seat of every deal, so the deal's luck
cancels.
"""

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from accounts.models import User
from core.stats import Comparison, compare_paired
from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from ladders.rating import match_deals
from matches.models import Match, Seat
from submissions.models import Bot, BotQuerySet

from arena.engine.variants import VARIANT_NAMES
from arena.engine.variants import variant as get_variant
from challenges.models import Challenge, ChallengeRefusal

#: The workers' queue of challenge matches (:data:`core.celery.QUEUES`).
QUEUE = "challenges"


class ChallengeRefused(Exception):
    """A challenge that cannot be made, with a message for the challenger."""


class ChallengeLimit(ChallengeRefused):
    """Refused because one of the user's limits is reached (try again later)."""


def challengeable(user: User | None = None) -> BotQuerySet:
    """The bots anyone may challenge (and ``user``'s own playing bots)."""
    refused = Exists(ChallengeRefusal.objects.filter(bot=OuterRef("pk")))
    allowed: Q = Q(is_house=True) | ~Q(refused)
    if user is not None:
        allowed |= Q(owner=user)
    return Bot.objects.playing().filter(allowed)


def accepts_challenges(bot: Bot) -> bool:
    """Whether others may challenge ``bot`` (its owner's switch; house bots always)."""
    return bot.is_house or not ChallengeRefusal.objects.filter(bot=bot).exists()


def set_accepts_challenges(bot: Bot, accept: bool) -> None:
    """The owner's switch on the bot's page: let others challenge ``bot``, or not."""
    if accept:
        ChallengeRefusal.objects.filter(bot=bot).delete()
    else:
        ChallengeRefusal.objects.get_or_create(bot=bot)


@dataclass(frozen=True)
class Limits:
    """A user's limits (settings), for the form to say them."""

    per_hour: int
    max_games: int
    waiting: int


def limits() -> Limits:
    return Limits(
        settings.CHALLENGES_PER_HOUR, settings.CHALLENGE_MAX_GAMES, settings.CHALLENGES_WAITING
    )


def open_challenges(user: User) -> int:
    """``user``'s challenges whose match is queued or playing."""
    return Challenge.objects.filter(
        challenger=user, match__status__in=[Match.QUEUED, Match.RUNNING]
    ).count()


def create_challenge(
    user: User, bot: Bot, variant: str, players: int, opponents: Sequence[Bot], deals: int
) -> Challenge:
    """A new challenge of ``bot`` (``user``'s, its active version) against ``opponents`` in
    ``deals`` duplicate deals of ``variant`` at ``players``; its match queued, not yet sent.
    Raises :class:`ChallengeRefused` with the reason."""
    if variant not in VARIANT_NAMES:
        raise ChallengeRefused(f"Unknown variant {variant!r}; one of {', '.join(VARIANT_NAMES)}.")
    rules = get_variant(variant)
    if players not in rules.players:
        raise ChallengeRefused(
            f"{variant} is played by {rules.players.start} to {rules.players.stop - 1} players, "
            f"not {players}."
        )
    if len(opponents) != players - 1:
        raise ChallengeRefused(
            f"A game of {players} needs {players - 1} opponent{'s' if players != 2 else ''}; "
            f"{len(opponents)} chosen."
        )
    if deals < 1:
        raise ChallengeRefused("Play at least one deal.")
    games = deals * players
    if games > settings.CHALLENGE_MAX_GAMES:
        most = settings.CHALLENGE_MAX_GAMES // players
        raise ChallengeRefused(
            f"{deals} deals at {players} players are {games} games (each deal once per seat "
            f"rotation); a challenge plays at most {settings.CHALLENGE_MAX_GAMES} games: "
            f"{most} deal{'s' if most != 1 else ''} at {players} players."
        )
    with transaction.atomic():
        # One request of this user at a time: the limits below are counted under this lock.
        User.objects.select_for_update().filter(pk=user.pk).first()
        mine = Bot.objects.select_related("active_version").filter(pk=bot.pk).first()
        if mine is None or mine.owner_id != user.pk:
            raise ChallengeRefused("You can only challenge with a bot of your own.")
        _check_can_play(mine)
        seen = {mine.pk}
        lineup = [mine]
        allowed = set(
            challengeable(user)
            .filter(pk__in=[o.pk for o in opponents])
            .values_list("pk", flat=True)
        )
        for opponent in opponents:
            if opponent.pk in seen:
                raise ChallengeRefused(f"{opponent.name} is in the line-up twice.")
            seen.add(opponent.pk)
            fresh = Bot.objects.select_related("active_version").get(pk=opponent.pk)
            _check_can_play(fresh)
            if fresh.pk not in allowed:
                raise ChallengeRefused(
                    f"{fresh.name}'s owner does not accept challenges: choose another opponent."
                )
            lineup.append(fresh)
        now = timezone.now()
        recent = Challenge.objects.filter(
            challenger=user, created_at__gt=now - timedelta(hours=1)
        ).count()
        if recent >= settings.CHALLENGES_PER_HOUR:
            raise ChallengeLimit(
                f"You made {recent} challenge{'s' if recent != 1 else ''} in the last hour, the "
                "most allowed "
                f"({settings.CHALLENGES_PER_HOUR} an hour); try again later."
            )
        waiting = open_challenges(user)
        if waiting >= settings.CHALLENGES_WAITING:
            raise ChallengeLimit(
                f"You have {waiting} challenge{'s' if waiting != 1 else ''} waiting or playing, "
                "the most allowed at once "
                f"({settings.CHALLENGES_WAITING}); make another when one is over."
            )
        match = Match.objects.create(
            variant=variant,
            players=players,
            games=games,
            duplicate=True,
            seed=secrets.randbelow(2**31),
            created_at=now,
            queue=QUEUE,
        )
        Seat.objects.bulk_create(
            Seat(
                match=match,
                match_created_at=match.created_at,
                seat=number,
                bot=entrant,
                version=entrant.active_version,
            )
            for number, entrant in enumerate(lineup)
        )
        assert mine.active_version is not None
        return Challenge.objects.create(
            challenger=user, version=mine.active_version, match=match, deals=deals, created_at=now
        )


def _check_can_play(bot: Bot) -> None:
    if bot.is_retired:
        raise ChallengeRefused(f"{bot.name} is retired.")
    if bot.is_paused:
        raise ChallengeRefused(f"{bot.name} is paused for faults.")
    if bot.active_version is None or not bot.active_version.passed:
        raise ChallengeRefused(f"{bot.name} has no active version that passed its checks.")
    if bot.active_version.is_remote:
        raise ChallengeRefused(
            f"{bot.name} plays from its owner's machine: a challenge is a duplicate match, and a "
            "remote bot could remember a deal from one seat rotation to the next."
        )
    if not bot.owner.is_active:
        raise ChallengeRefused(f"{bot.name}'s owner's account is closed.")


@dataclass(frozen=True)
class Edge:
    """The challenger's paired score edge per game over one opponent (higher = better)."""

    opponent: Bot
    seat: int
    comparison: Comparison
    per_deal: tuple[float, ...]


def edges(challenge: Challenge) -> list[Edge]:
    """The challenger's edge over each opponent, seat by seat; ``[]`` until the match is
    finished (or if it stored no points per deal)."""
    match = challenge.match
    if match.status != Match.FINISHED:
        return []
    seats = list(match.seats.select_related("bot").order_by("seat"))
    if not seats or any(not s.deal_scores for s in seats):
        return []
    deals = match_deals(
        [list(s.deal_scores) for s in seats],
        rotations=match.players if match.duplicate else 1,
        higher_is_better=get_variant(match.variant).higher_is_better,
    )
    found = []
    for seat in seats[1:]:
        per_deal = tuple((deal.scores[0] - deal.scores[seat.seat]) / deal.games for deal in deals)
        found.append(Edge(seat.bot, seat.seat, compare_paired(per_deal), per_deal))
    return found
