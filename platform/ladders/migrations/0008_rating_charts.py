# ruff: noqa: RUF012  (Django's own migration attributes)
"""The bot page's charts are kept on the ratings (``margin_chart``, ``elo_chart``: points at the
multiples of a doubling stride, see ``ladders.services.extend_chart``), filled here from the
history there is, one index lookup per drawn point of each rating; then nothing reads the
history's chart index and it goes."""

from typing import Any

from django.db import migrations, models

from ladders.rating import EloCalculator, EloRating

CHART_POINTS = 120  # as ladders.services.CHART_POINTS when this was written
BATCH = 1000


def chart_games(games: int) -> list[int]:
    """As ``ladders.services.chart_games`` when this was written."""
    stride = 1
    while games >= 2 * CHART_POINTS * stride:
        stride *= 2
    return [*range(0, games + 1, stride), *([games] if games % stride else [])]


def fill_charts(apps: Any, schema_editor: Any) -> None:
    Rating = apps.get_model("ladders", "Rating")
    RatingChange = apps.get_model("ladders", "RatingChange")
    elo_calculator = EloCalculator()

    def band(bot_id: int, elo: float, games: int) -> float:
        provisional = elo_calculator.is_provisional(games)
        return elo_calculator.uncertainty(EloRating(str(bot_id), elo, games, provisional))

    done: list[Any] = []
    for rating in Rating.objects.filter(games__gt=0).iterator(chunk_size=BATCH):
        wanted = chart_games(rating.games)
        rows = (
            RatingChange.objects.filter(rating_id=rating.pk, games_after__in=[1, *wanted[1:]])
            .order_by("games_after", "id")
            .values_list(
                "games_after",
                "margin_mu_before",
                "margin_mu_after",
                "margin_sigma_before",
                "margin_sigma_after",
                "elo_before",
                "elo_after",
            )
        )
        margin: list[list[float]] = []
        elo: list[list[float]] = []
        for games, m_before, m_after, s_before, s_after, e_before, e_after in rows:
            if games == 1:
                if m_before is not None and s_before is not None:
                    margin.append([0, m_before, s_before])
                elo.append([0, e_before, band(rating.bot_id, e_before, 0)])
                if 1 not in wanted:
                    continue
            # Changes from before the Margin rating (until a recompute) have no Margin to draw.
            if m_after is not None and s_after is not None:
                margin.append([games, m_after, s_after])
            elo.append([games, e_after, band(rating.bot_id, e_after, games)])
        rating.margin_chart, rating.elo_chart = margin, elo
        done.append(rating)
        if len(done) >= BATCH:
            Rating.objects.bulk_update(done, ["margin_chart", "elo_chart"])
            done = []
    Rating.objects.bulk_update(done, ["margin_chart", "elo_chart"])


class Migration(migrations.Migration):
    dependencies = [
        ("ladders", "0007_drop_rating_change_recent"),
    ]

    operations = [
        migrations.AddField(
            model_name="rating",
            name="elo_chart",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="rating",
            name="margin_chart",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(fill_charts, migrations.RunPython.noop),
        migrations.RemoveIndex(
            model_name="ratingchange",
            name="rating_change_chart",
        ),
    ]
