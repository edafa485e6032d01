"""What the pages draw is kept as matches are rated: each rating's trend lines, its chart's
points and each bot's head-to-head totals equal what a full read of the history gives, after
every match rated, after a match delivered twice and after ``recompute_ladder``."""

import random
from datetime import timedelta

import pytest
from core.charts import Chart, line_chart
from django.utils import timezone
from ladders.models import TREND_GAMES, Ladder, Rating, RatingChange, Rival
from ladders.services import (
    CHART_POINTS,
    head_to_head,
    rate_ladder,
    rating_histories,
    recompute_ladder,
    trends,
)
from matches.models import Match, Seat
from matches.scheduler import create_match
from matches.tasks import rate_match
from nimmt_site_testing import basic_ladder, program_bot
from submissions.models import Bot

pytestmark = pytest.mark.django_db


@pytest.fixture
def ladder() -> Ladder:
    return basic_ladder(players=4)


@pytest.fixture
def bots() -> list[Bot]:
    return [program_bot(name) for name in ("ann", "ben", "cat", "dan", "eve")]


def _play(ladder: Ladder, bots: list[Bot], matches: int, rng: random.Random) -> list[Match]:
    """``matches`` finished matches of four of ``bots``, ranked by random scores (ties too)."""
    played: list[Match] = []
    for _ in range(matches):
        match = create_match(ladder, rng.sample(bots, 4))
        seats = list(match.seats.all())
        scores = [rng.randrange(-5, 6) for _ in seats]
        for seat, score in zip(seats, scores, strict=True):
            seat.score = score
            seat.rank = 1 + sum(other > score for other in scores)
        Seat.objects.bulk_update(seats, ["score", "rank"])
        match.status = Match.FINISHED
        match.finished_at = timezone.now() - timedelta(seconds=matches - len(played))
        match.save(update_fields=["status", "finished_at"])
        played.append(match)
    return played


def _history_trend(rating: Rating, value: str) -> list[float]:
    """A trend line as read from the whole history: the last games, oldest first."""
    rows = list(
        RatingChange.objects.filter(rating=rating)
        .order_by("-id")
        .values_list(f"{value}_before", f"{value}_after")[:TREND_GAMES]
    )
    rows.reverse()
    return [rows[0][0], *(after for _, after in rows)] if rows else []


def _history_chart(rating: Rating) -> Chart | None:
    """The Margin chart as read from the whole history, every step-th game kept."""
    step = max(1, -(-rating.games // CHART_POINTS))
    points: list[tuple[float, float, int]] = []
    for change in RatingChange.objects.filter(rating=rating).order_by("id"):
        if change.games_after % step and change.games_after not in (1, rating.games):
            continue
        before, after = change.margin_mu_before, change.margin_mu_after
        sigma_before, sigma_after = change.margin_sigma_before, change.margin_sigma_after
        assert before is not None and after is not None
        assert sigma_before is not None and sigma_after is not None
        if not points:
            points.append((before, sigma_before, change.games_after - 1))
        points.append((after, sigma_after, change.games_after))
    return line_chart(
        [v for v, _, _ in points],
        [e for _, e, _ in points],
        x_labels=[str(g) for _, _, g in points],
        width=380,
        height=170,
        margin=(8, 10, 20, 40),
    )


def _history_rivals(bot: Bot) -> dict[str, tuple[int, int, int, int, float]]:
    """The bot's head-to-head against each opponent, counted from the seats of its matches."""
    found: dict[str, list[int]] = {}
    for mine in Seat.objects.filter(bot=bot, match__rated=True).select_related("match"):
        for theirs in (
            Seat.objects.filter(match=mine.match).exclude(pk=mine.pk).select_related("bot")
        ):
            assert mine.rank is not None and theirs.rank is not None
            assert mine.score is not None and theirs.score is not None
            row = found.setdefault(theirs.bot.name, [0, 0, 0, 0, 0])
            row[0] += 1
            row[1] += mine.rank < theirs.rank
            row[2] += mine.rank == theirs.rank
            row[3] += mine.rank > theirs.rank
            row[4] += mine.score - theirs.score
    return {name: (g, w, d, lost, total / g) for name, (g, w, d, lost, total) in found.items()}


def _check_against_history(ladder: Ladder, bots: list[Bot]) -> None:
    ratings = list(Rating.objects.filter(ladder=ladder))
    margin, elo = trends(ratings), trends(ratings, "elo")
    charts = rating_histories(ratings)
    for rating in ratings:
        assert margin.get(rating.pk, []) == _history_trend(rating, "margin_mu")
        assert elo.get(rating.pk, []) == _history_trend(rating, "elo")
        assert charts[rating.pk] == _history_chart(rating)
    for bot in bots:
        rows = {
            row.opponent.name: (
                row.games,
                row.wins,
                row.draws,
                row.losses,
                row.comparison.mean_diff,
            )
            for row in head_to_head(bot.pk)
        }
        expected = _history_rivals(bot)
        assert rows.keys() == expected.keys()
        for name, row in rows.items():
            assert row[:4] == expected[name][:4]
            assert row[4] == pytest.approx(expected[name][4])


def test_trends_charts_and_rivals_follow_every_rated_match(ladder: Ladder, bots: list[Bot]) -> None:
    rng = random.Random(7)
    _play(ladder, bots, 3, rng)
    rate_ladder(ladder.pk)
    _check_against_history(ladder, bots)
    # Past the trend's games and the chart's points: both are thinned, and still equal.
    _play(ladder, bots, 170, rng)
    assert rate_ladder(ladder.pk) == 170
    most = max(Rating.objects.filter(ladder=ladder), key=lambda r: r.games)
    assert most.games > CHART_POINTS and len(most.margin_trend) == TREND_GAMES + 1
    _check_against_history(ladder, bots)


def test_a_match_rated_twice_adds_nothing_twice(ladder: Ladder, bots: list[Bot]) -> None:
    (match,) = _play(ladder, bots, 1, random.Random(3))
    rate_match.run(match_pk=match.pk)
    before = list(Rival.objects.order_by("pk").values())
    trend = list(Rating.objects.order_by("pk").values_list("margin_trend", flat=True))
    rate_match.run(match_pk=match.pk)
    assert rate_ladder(ladder.pk) == 0
    assert list(Rival.objects.order_by("pk").values()) == before
    assert list(Rating.objects.order_by("pk").values_list("margin_trend", flat=True)) == trend
    assert Rival.objects.count() == 12 and all(r["games"] == 1 for r in before)


def test_recompute_rebuilds_trends_and_rivals(ladder: Ladder, bots: list[Bot]) -> None:
    _play(ladder, bots, 30, random.Random(11))
    rate_ladder(ladder.pk)
    rivals = {(r.bot_id, r.opponent_id): r.games for r in Rival.objects.all()}
    Rating.objects.update(margin_trend=[1.0], elo_trend=[])
    Rival.objects.update(games=999)
    assert recompute_ladder(ladder.pk) == 30
    assert {(r.bot_id, r.opponent_id): r.games for r in Rival.objects.all()} == rivals
    _check_against_history(ladder, bots)
