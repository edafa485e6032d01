# ruff: noqa: RUF012  (Django's own migration attributes)
"""A chart keeps between 24 and 48 points (and the newest), not between 120 and 240: the bot
page decodes and draws every kept point, so a chart's size was what still grew with a bot's
games. Each rating's points are thinned here to the multiples of the new, larger stride (a
power of two, like the old one, so every point wanted is already kept) and the newest."""

from typing import Any

from django.db import migrations

CHART_POINTS = 24  # as ladders.services.CHART_POINTS when this was written
BATCH = 1000


def chart_stride(games: int) -> int:
    """As ``ladders.services.chart_stride`` when this was written."""
    stride = 1
    while games >= 2 * CHART_POINTS * stride:
        stride *= 2
    return stride


def thinned(points: list[list[float]], games: int) -> list[list[float]]:
    """``points`` at the multiples of the stride for ``games`` games, and the newest.

    >>> thinned([[g, 0.0, 0.0] for g in range(0, 100, 2)] + [[99, 0.0, 0.0]], 99)[-3:]
    [[92, 0.0, 0.0], [96, 0.0, 0.0], [99, 0.0, 0.0]]
    """
    stride = chart_stride(games)
    kept = [point for point in points[:-1] if not int(point[0]) % stride]
    return [*kept, *points[-1:]]


def thin_charts(apps: Any, schema_editor: Any) -> None:
    Rating = apps.get_model("ladders", "Rating")
    done: list[Any] = []
    wanted = Rating.objects.filter(games__gte=2 * CHART_POINTS).only(
        "pk", "games", "margin_chart", "elo_chart"
    )
    for rating in wanted.iterator(chunk_size=BATCH):
        rating.margin_chart = thinned(rating.margin_chart, rating.games)
        rating.elo_chart = thinned(rating.elo_chart, rating.games)
        done.append(rating)
        if len(done) >= BATCH:
            Rating.objects.bulk_update(done, ["margin_chart", "elo_chart"])
            done = []
    Rating.objects.bulk_update(done, ["margin_chart", "elo_chart"])


class Migration(migrations.Migration):
    dependencies = [
        ("ladders", "0008_rating_charts"),
    ]

    operations = [
        migrations.RunPython(thin_charts, migrations.RunPython.noop),
    ]
