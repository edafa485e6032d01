# ruff: noqa: RUF012  (Django's own migration attributes)
"""Tournament matches (``tournament``, ``round``) and the indexes of the pages."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0001_initial"),
        ("submissions", "0001_initial"),
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="round",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="match",
            name="tournament",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="matches",
                to="tournaments.tournament",
            ),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(fields=["-created_at", "-id"], name="match_list"),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(fields=["ladder", "-created_at", "-id"], name="match_list_ladder"),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(fields=["status", "-finished_at"], name="match_latest_finished"),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(
                fields=["tournament", "round", "status"], name="match_tournament_round"
            ),
        ),
        migrations.RemoveIndex(model_name="seat", name="seat_bot_recent"),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(
                fields=["bot", "-match", "seat", "score", "rank"], name="seat_bot_recent"
            ),
        ),
        # seat_bot_recent and one_bot_per_seat serve every lookup by these two columns.
        migrations.AlterField(
            model_name="seat",
            name="bot",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="seats",
                to="submissions.bot",
            ),
        ),
        migrations.AlterField(
            model_name="seat",
            name="match",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="seats",
                to="matches.match",
            ),
        ),
    ]
