# ruff: noqa: RUF012  (Django's own migration attributes)
"""The rating history index carries the values the trends and charts draw (index-only reads)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ladders", "0003_ratingchange_rating_change_recent"),
        ("matches", "0002_tournament_and_page_indexes"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="ratingchange",
            name="rating_change_recent",
        ),
        migrations.AddIndex(
            model_name="ratingchange",
            index=models.Index(
                fields=["rating", "-id", "games_after", "elo_before", "elo_after"],
                name="rating_change_recent",
            ),
        ),
    ]
