"""Applying finished matches to a ladder's ratings: once per match, in the order they finished.

:func:`rate_ladder` locks the ladder row, so only one process rates a ladder at a time, then
rates every finished, not yet rated match of the ladder in finishing order, whichever task asked
for it. A match is marked ``rated`` in the same transaction that writes its rating changes, and
the database refuses a second change per bot and match, so a task delivered twice, or two
tasks for neighbouring matches, change nothing twice and never reorder.
"""

from django.db import transaction
from django.utils import timezone
from matches.models import Match

from ladders.models import ELO, SKILL, Ladder, Rating, RatingChange


def ensure_ratings(ladder: Ladder, bot_ids: list[int]) -> dict[int, Rating]:
    """The ratings of ``bot_ids`` on ``ladder``, created at the start values where missing."""
    existing = {r.bot_id: r for r in Rating.objects.filter(ladder=ladder, bot_id__in=bot_ids)}
    for bot_id in bot_ids:
        if bot_id not in existing:
            existing[bot_id], _ = Rating.objects.get_or_create(ladder=ladder, bot_id=bot_id)
    return existing


def rate_ladder(ladder_pk: int) -> int:
    """Rate the ladder's finished, unrated matches in finishing order; how many were rated."""
    with transaction.atomic():
        ladder = Ladder.objects.select_for_update().get(pk=ladder_pk)
        pending = (
            Match.objects.filter(ladder=ladder, status=Match.FINISHED, rated=False)
            .order_by("finished_at", "pk")
            .prefetch_related("seats")
        )
        count = 0
        for match in pending:
            _rate(ladder, match)
            count += 1
        return count


def _rate(ladder: Ladder, match: Match) -> None:
    seats = sorted(match.seats.all(), key=lambda s: s.seat)
    ranks = [s.rank for s in seats]
    if len(seats) < 2 or any(rank is None for rank in ranks):
        # Nothing to learn from (a match without ranks): mark it so the queue moves on.
        Match.objects.filter(pk=match.pk).update(rated=True, rated_at=timezone.now())
        return
    ratings = ensure_ratings(ladder, [s.bot_id for s in seats])
    before = [ratings[s.bot_id] for s in seats]
    checked_ranks = [int(rank) for rank in ranks if rank is not None]
    elo_after = ELO.rate([r.elo_record() for r in before], checked_ranks)
    skill_after = SKILL.rate([r.skill_record() for r in before], checked_ranks)
    now = timezone.now()
    for rating, rank, elo, skill in zip(before, checked_ranks, elo_after, skill_after, strict=True):
        RatingChange.objects.create(
            rating=rating,
            match=match,
            rank=rank,
            elo_before=rating.elo,
            elo_after=elo.elo,
            mu_before=rating.mu,
            mu_after=skill.mu,
            sigma_before=rating.sigma,
            sigma_after=skill.sigma,
            games_after=elo.games,
            created_at=now,
        )
        rating.elo, rating.mu, rating.sigma = elo.elo, skill.mu, skill.sigma
        rating.games = elo.games
        rating.updated_at = now
        rating.save(update_fields=["elo", "mu", "sigma", "games", "updated_at"])
    Match.objects.filter(pk=match.pk).update(rated=True, rated_at=now)


def standings(ladder: Ladder) -> list[Rating]:
    """The ladder's table: bots still playing first by Elo, then retired or paused ones."""
    rows = list(
        Rating.objects.filter(ladder=ladder, games__gt=0)
        .select_related("bot", "bot__owner", "bot__active_version")
        .order_by("-elo", "bot__name")
    )
    return sorted(rows, key=lambda r: r.bot.is_retired or r.bot.is_paused)
