# ruff: noqa: RUF012  (Django's own migration attributes)
"""Duplicate matches (each deal once per seat rotation), and each seat's points per deal."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0003_page_covering_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="duplicate",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="seat",
            name="deal_scores",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
