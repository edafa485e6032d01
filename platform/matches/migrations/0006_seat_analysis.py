# ruff: noqa: RUF012  (Django's own migration attributes)
"""Seat analyses: a finished game's decision analysis of one seat, kept once computed."""

import uuid

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0005_live_chunks"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="SeatAnalysis",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("claim_token", models.UUIDField(blank=True, editable=False, null=True)),
                ("lease_expires_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("attempts", models.PositiveIntegerField(default=0, editable=False)),
                (
                    "queued_at",
                    models.DateTimeField(default=django.utils.timezone.now, editable=False),
                ),
                ("uuid", models.UUIDField(default=uuid.uuid4, editable=False, unique=True)),
                ("game", models.PositiveSmallIntegerField()),
                ("seat", models.PositiveSmallIntegerField()),
                ("version", models.PositiveSmallIntegerField()),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("queued", "queued"),
                            ("running", "running"),
                            ("done", "done"),
                            ("failed", "failed"),
                        ],
                        default="queued",
                        max_length=10,
                    ),
                ),
                (
                    "created_at",
                    models.DateTimeField(default=django.utils.timezone.now, editable=False),
                ),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
                ("result", models.JSONField(blank=True, null=True)),
                ("error", models.TextField(blank=True)),
                (
                    "match",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="analyses",
                        to="matches.match",
                    ),
                ),
                (
                    "requested_by",
                    models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "indexes": [
                    models.Index(
                        fields=["requested_by", "created_at"], name="analysis_requests_recent"
                    ),
                    models.Index(fields=["status", "queued_at"], name="analysis_status_queued"),
                ],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("match", "game", "seat", "version"), name="one_analysis_per_seat"
                    )
                ],
            },
        ),
    ]
