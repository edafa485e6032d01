# ruff: noqa: RUF012  (a migration's lists, as makemigrations writes them)
"""The tallies behind the arena's metrics (core.metrics)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    operations = [
        migrations.CreateModel(
            name="Tally",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=100)),
                ("labels", models.CharField(blank=True, max_length=200)),
                ("value", models.FloatField(default=0.0)),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("name", "labels"), name="one_tally_per_series")
                ],
            },
        ),
    ]
