# ruff: noqa: RUF012  (Django's own migration attributes)
"""Indexes of the bot page: the head to head read from indexes alone, and the seats with faults."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ladders", "0004_rating_change_recent_covering"),
        ("matches", "0002_tournament_and_page_indexes"),
        ("submissions", "0001_initial"),
        ("tournaments", "0002_organisers_group"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="match",
            index=models.Index(fields=["id", "ladder", "status"], name="match_ladder_status"),
        ),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(
                fields=["match", "seat", "bot", "score", "rank"], name="seat_match_result"
            ),
        ),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(
                condition=models.Q(("faults", []), _negated=True),
                fields=["bot", "-match"],
                name="seat_bot_faulted",
            ),
        ),
    ]
