# ruff: noqa: RUF012  (a migration's lists, as makemigrations writes them)
"""A remote seat's network in one match, for the match page."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0006_seat_analysis"),
        ("remote", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="RemoteSeatNetwork",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("rtt_ms", models.FloatField(blank=True, null=True)),
                ("answer_ms_median", models.FloatField(blank=True, null=True)),
                ("network_allowance_ms", models.FloatField(default=0.0)),
                ("reconnects", models.PositiveSmallIntegerField(default=0)),
                (
                    "seat",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="network",
                        to="matches.seat",
                    ),
                ),
            ],
        ),
    ]
