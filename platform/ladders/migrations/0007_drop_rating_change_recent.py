# ruff: noqa: RUF012  (Django's own migration attributes)
"""The history's newest-first index goes: trend lines are kept on the ratings and charts read
``rating_change_chart``, so nothing reads it and every rated match wrote it."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("ladders", "0006_precomputed_trends_charts_rivals"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="ratingchange",
            name="rating_change_recent",
        ),
    ]
