# ruff: noqa: RUF012  (Django's own migration attributes)
"""Live chunks: a running match's frames as they happen, for its live view."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0004_duplicate_matches_and_deal_scores"),
    ]

    operations = [
        migrations.CreateModel(
            name="LiveChunk",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("attempt", models.CharField(max_length=16)),
                ("seq", models.PositiveIntegerField()),
                ("game", models.PositiveSmallIntegerField()),
                ("first", models.PositiveIntegerField()),
                ("header", models.JSONField(blank=True, null=True)),
                ("frames", models.JSONField(default=list)),
                ("over", models.BooleanField(default=False)),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="live_chunks",
                        to="matches.match",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("match", "attempt", "seq"), name="live_chunk_seq"
                    )
                ],
            },
        ),
    ]
