"""What the pages draw is kept as matches are rated: each rating's trend lines, its chart's
points and each bot's head-to-head totals equal what a full read of the history gives, after
every match rated, after a match delivered twice and after ``recompute_ladder``."""

import random
from datetime import timedelta
from importlib import import_module

import pytest
from core.charts import Chart, line_chart
from django.apps import apps as django_apps
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from ladders.models import ELO, TREND_GAMES, Ladder, Rating, RatingChange, Rival
from ladders.rating import EloRating
from ladders.services import (
    CHART_POINTS,
    extend_chart,
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


def _history_points(rating: Rating, value: str, sigma: str | None) -> list[list[float]]:
    """A chart's points as read from the whole history: the value before the first game,
    then after every game that is a multiple of the smallest power of two leaving at most
    ``2 * CHART_POINTS`` of them, and after the last game."""
    stride = 1
    while rating.games // stride >= 2 * CHART_POINTS:
        stride *= 2
    points: list[list[float]] = []
    for change in RatingChange.objects.filter(rating=rating).order_by("id"):
        games = change.games_after
        if not points:
            points.append(_point(change, value, sigma, "before", games - 1))
        if games % stride == 0 or games == rating.games:
            points.append(_point(change, value, sigma, "after", games))
    return points


def _point(
    change: RatingChange, value: str, sigma: str | None, when: str, games: int
) -> list[float]:
    found = getattr(change, f"{value}_{when}")
    if sigma is None:  # Elo: its ± follows from the games
        record = EloRating(str(change.rating.bot_id), found, games, ELO.is_provisional(games))
        return [games, found, ELO.uncertainty(record)]
    return [games, found, getattr(change, f"{sigma}_{when}")]


def _line(points: list[list[float]]) -> Chart | None:
    return line_chart(
        [v for _, v, _ in points],
        [e for _, _, e in points],
        x_labels=[str(int(g)) for g, _, _ in points],
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
    charts, elo_charts = rating_histories(ratings), rating_histories(ratings, "elo")
    for rating in ratings:
        assert margin.get(rating.pk, []) == _history_trend(rating, "margin_mu")
        assert elo.get(rating.pk, []) == _history_trend(rating, "elo")
        margin_points = _history_points(rating, "margin_mu", "margin_sigma")
        elo_points = _history_points(rating, "elo", None)
        assert rating.margin_chart == margin_points
        assert rating.elo_chart == elo_points
        assert len(margin_points) <= 2 * CHART_POINTS + 2
        assert charts[rating.pk] == _line(margin_points)
        assert elo_charts[rating.pk] == _line(elo_points)
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


@pytest.mark.slow
def test_trends_charts_and_rivals_follow_every_rated_match(ladder: Ladder, bots: list[Bot]) -> None:
    rng = random.Random(7)
    four = bots[:4]  # each plays every match: 300 games, past a doubling of the stride
    _play(ladder, four, 3, rng)
    rate_ladder(ladder.pk)
    _check_against_history(ladder, four)
    # Past the trend's games and the chart's points: both are thinned, and still equal.
    _play(ladder, four, 127, rng)
    assert rate_ladder(ladder.pk) == 127
    _check_against_history(ladder, four)
    _play(ladder, four, 170, rng)
    assert rate_ladder(ladder.pk) == 170
    most = max(Rating.objects.filter(ladder=ladder), key=lambda r: r.games)
    assert most.games == 300 and len(most.margin_trend) == TREND_GAMES + 1
    assert [int(point[0]) for point in most.margin_chart][:3] == [0, 8, 16]
    _check_against_history(ladder, four)
    # The migrations' fill from the history (at 120 to 240 points a chart), then their
    # thinning to 24 to 48, give the same charts.
    stored = list(Rating.objects.order_by("pk").values_list("margin_chart", "elo_chart"))
    Rating.objects.update(margin_chart=[], elo_chart=[])
    import_module("ladders.migrations.0008_rating_charts").fill_charts(django_apps, None)
    assert [len(chart) for chart, _ in Rating.objects.values_list("margin_chart", "elo_chart")] == [
        151
    ] * 4
    import_module("ladders.migrations.0009_fewer_chart_points").thin_charts(django_apps, None)
    assert list(Rating.objects.order_by("pk").values_list("margin_chart", "elo_chart")) == stored


def test_a_match_rated_twice_adds_nothing_twice(ladder: Ladder, bots: list[Bot]) -> None:
    (match,) = _play(ladder, bots, 1, random.Random(3))
    rate_match.run(match_pk=match.pk)
    before = list(Rival.objects.order_by("pk").values())
    kept = ("margin_trend", "elo_trend", "margin_chart", "elo_chart")
    trend = list(Rating.objects.order_by("pk").values_list(*kept))
    rate_match.run(match_pk=match.pk)
    assert rate_ladder(ladder.pk) == 0
    assert list(Rival.objects.order_by("pk").values()) == before
    assert list(Rating.objects.order_by("pk").values_list(*kept)) == trend
    assert all(len(chart) == 2 for _, _, chart, _ in trend)
    assert Rival.objects.count() == 12 and all(r["games"] == 1 for r in before)


def test_recompute_rebuilds_trends_charts_and_rivals(ladder: Ladder, bots: list[Bot]) -> None:
    _play(ladder, bots, 30, random.Random(11))
    rate_ladder(ladder.pk)
    rivals = {(r.bot_id, r.opponent_id): r.games for r in Rival.objects.all()}
    Rating.objects.update(
        margin_trend=[1.0], elo_trend=[], margin_chart=[[0, 1.0, 1.0]], elo_chart=[]
    )
    Rival.objects.update(games=999)
    assert recompute_ladder(ladder.pk) == 30
    assert {(r.bot_id, r.opponent_id): r.games for r in Rival.objects.all()} == rivals
    _check_against_history(ladder, bots)


def test_the_bot_page_draws_its_stored_charts_without_reading_the_history(
    client: Client, ladder: Ladder, bots: list[Bot]
) -> None:
    _play(ladder, bots, 12, random.Random(5))
    rate_ladder(ladder.pk)
    rating = Rating.objects.filter(ladder=ladder).order_by("-games").first()
    assert rating is not None
    margin, elo = _line(rating.margin_chart), _line(rating.elo_chart)
    assert margin is not None and elo is not None
    with CaptureQueriesContext(connection) as queries:
        page = client.get(rating.bot.get_absolute_url()).content.decode()
    assert f'points="{margin.line}"' in page and f'points="{elo.line}"' in page
    assert f'points="{margin.band}"' in page and f'points="{elo.band}"' in page
    assert not [q for q in queries.captured_queries if RatingChange._meta.db_table in q["sql"]]


def test_lists_of_ratings_never_read_the_charts_that_grow_with_the_games(
    client: Client, ladder: Ladder, bots: list[Bot]
) -> None:
    """The home page, the ladder page and the API's standings show many ratings: only the bot
    page draws a rating's chart, so the others must not load it (it grows to 241 points)."""
    _play(ladder, bots, 12, random.Random(9))
    rate_ladder(ladder.pk)
    assert all(len(r.margin_chart) > 1 for r in Rating.objects.filter(ladder=ladder))
    pages = ["/", ladder.get_absolute_url(), f"/api/v1/ladders/{ladder.uuid}/standings/"]
    for url in pages:
        with CaptureQueriesContext(connection) as queries:
            page = client.get(url)
        assert page.status_code == 200, url
        assert "ann" in page.content.decode(), url  # the ratings are on it
        read = [q["sql"] for q in queries.captured_queries if "ladders_rating" in q["sql"]]
        assert read, url
        assert not [sql for sql in read if "margin_chart" in sql or "elo_chart" in sql], url


def test_the_migration_fills_the_charts_from_the_history(ladder: Ladder, bots: list[Bot]) -> None:
    _play(ladder, bots, 20, random.Random(13))
    rate_ladder(ladder.pk)
    stored = dict(Rating.objects.values_list("pk", "margin_chart"))
    stored_elo = dict(Rating.objects.values_list("pk", "elo_chart"))
    Rating.objects.update(margin_chart=[], elo_chart=[])
    import_module("ladders.migrations.0008_rating_charts").fill_charts(django_apps, None)
    assert dict(Rating.objects.values_list("pk", "margin_chart")) == stored
    assert dict(Rating.objects.values_list("pk", "elo_chart")) == stored_elo


def test_a_chart_keeps_and_draws_a_bounded_number_of_points_however_long_its_history() -> None:
    chart: list[list[float]] = []
    sizes = []
    for games in range(1, 20_001):
        chart = extend_chart(chart, [games - 1, 1500.0, 50.0], [games, 1500.0 + games % 7, 50.0])
        sizes.append(len(chart))
    assert max(sizes) == 2 * CHART_POINTS + 1
    assert min(sizes[2 * CHART_POINTS :]) == CHART_POINTS + 1
    drawn = rating_histories([Rating(pk=1, games=20_000, margin_chart=chart)])[1]
    assert drawn is not None
    assert len(drawn.line.split()) == len(chart) == sizes[-1]
    assert drawn.x_ticks[0].label == "0"  # the value before the first game and after the last
    assert drawn.x_ticks[-1].label == "20000"
