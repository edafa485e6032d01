# ruff: noqa: RUF012  (Django's own migration attributes)
"""What the ladder tables, the home page and the bot page draw, kept as the ratings are
rated: each rating's trend lines, an index for a chart's few points, and each bot's
head-to-head totals; filled here from the history there is."""

from typing import Any

import django.db.models.deletion
from django.db import migrations, models

TREND_GAMES = 20  # as ladders.models.TREND_GAMES when this was written


def fill_trends(apps: Any, schema_editor: Any) -> None:
    Rating = apps.get_model("ladders", "Rating")
    RatingChange = apps.get_model("ladders", "RatingChange")
    for rating in Rating.objects.filter(games__gt=0).iterator():
        rows = list(
            RatingChange.objects.filter(rating_id=rating.pk)
            .order_by("-id")
            .values_list("margin_mu_before", "margin_mu_after", "elo_before", "elo_after")[
                :TREND_GAMES
            ]
        )
        if not rows:
            continue
        rows.reverse()
        # Changes from before the Margin rating (until a recompute) have no Margin to draw.
        margin = [rows[0][0]] + [row[1] for row in rows]
        rating.margin_trend = [value for value in margin if value is not None]
        rating.elo_trend = [rows[0][2]] + [row[3] for row in rows]
        rating.save(update_fields=["margin_trend", "elo_trend"])


RIVALS = """
    INSERT INTO ladders_rival (bot_id, ladder_id, opponent_id, games, wins, draws, losses,
                               total, squares)
    SELECT a.bot_id, m.ladder_id, b.bot_id, COUNT(*),
           SUM(CASE WHEN a.rank < b.rank THEN 1 ELSE 0 END),
           SUM(CASE WHEN a.rank = b.rank THEN 1 ELSE 0 END),
           SUM(CASE WHEN a.rank > b.rank THEN 1 ELSE 0 END),
           SUM(a.score - b.score), SUM((a.score - b.score) * (a.score - b.score))
    FROM matches_seat a
    JOIN matches_seat b ON b.match_id = a.match_id AND b.seat <> a.seat
    JOIN matches_match m ON m.id = a.match_id
    WHERE m.ladder_id IS NOT NULL AND m.status = 'finished' AND m.rated
      AND a.rank IS NOT NULL AND a.score IS NOT NULL
      AND b.rank IS NOT NULL AND b.score IS NOT NULL
    GROUP BY a.bot_id, m.ladder_id, b.bot_id
"""


class Migration(migrations.Migration):
    dependencies = [
        ("ladders", "0005_duplicate_ladders_and_margin_rating"),
        ("matches", "0005_live_chunks"),
        ("submissions", "0002_botversion_code_sha256"),
    ]

    operations = [
        migrations.CreateModel(
            name="Rival",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("games", models.PositiveIntegerField(default=0)),
                ("wins", models.PositiveIntegerField(default=0)),
                ("draws", models.PositiveIntegerField(default=0)),
                ("losses", models.PositiveIntegerField(default=0)),
                ("total", models.BigIntegerField(default=0)),
                ("squares", models.BigIntegerField(default=0)),
            ],
        ),
        migrations.AddField(
            model_name="rating",
            name="elo_trend",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="rating",
            name="margin_trend",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddIndex(
            model_name="ratingchange",
            index=models.Index(
                fields=["rating", "games_after"],
                include=(
                    "margin_mu_before",
                    "margin_mu_after",
                    "margin_sigma_before",
                    "margin_sigma_after",
                    "elo_before",
                    "elo_after",
                ),
                name="rating_change_chart",
            ),
        ),
        migrations.AddField(
            model_name="rival",
            name="bot",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rivals",
                to="submissions.bot",
            ),
        ),
        migrations.AddField(
            model_name="rival",
            name="ladder",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rivals",
                to="ladders.ladder",
            ),
        ),
        migrations.AddField(
            model_name="rival",
            name="opponent",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="submissions.bot"
            ),
        ),
        migrations.AddIndex(
            model_name="rival",
            index=models.Index(fields=["bot", "-games", "opponent"], name="rival_most_games"),
        ),
        migrations.AddConstraint(
            model_name="rival",
            constraint=models.UniqueConstraint(
                fields=("bot", "ladder", "opponent"), name="one_rival_per_ladder"
            ),
        ),
        migrations.RunPython(fill_trends, migrations.RunPython.noop),
        migrations.RunSQL(RIVALS, migrations.RunSQL.noop),
    ]
