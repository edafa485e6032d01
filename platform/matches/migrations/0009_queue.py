# ruff: noqa: RUF012  (Django's own migration attributes)
"""The queue a match is sent to, every time (a challenge's: "challenges"); the existing
matches are the league's ("matches"), the database's default, so that adding it rewrites
no row."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0008_game_export"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="queue",
            field=models.CharField(db_default="matches", default="matches", max_length=20),
        ),
    ]
