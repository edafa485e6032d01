# ruff: noqa: RUF012  (a migration's lists, as makemigrations writes them)
"""Remote bots: tokens (hashed) and the connections the gateway accepted."""

import uuid

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("submissions", "0004_alter_botversion_code_root"),
    ]

    operations = [
        migrations.CreateModel(
            name="RemoteToken",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("uuid", models.UUIDField(default=uuid.uuid4, editable=False, unique=True)),
                ("digest", models.CharField(max_length=64, unique=True)),
                ("hint", models.CharField(max_length=12)),
                (
                    "created_at",
                    models.DateTimeField(default=django.utils.timezone.now, editable=False),
                ),
                ("revoked_at", models.DateTimeField(blank=True, null=True)),
                (
                    "bot",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="remote_tokens",
                        to="submissions.bot",
                    ),
                ),
            ],
            options={
                "ordering": ("-created_at",),
            },
        ),
        migrations.CreateModel(
            name="RemoteConnection",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("gateway", models.CharField(max_length=80)),
                ("address", models.CharField(max_length=80)),
                ("kit", models.CharField(blank=True, max_length=80)),
                ("connected_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("ended_at", models.DateTimeField(blank=True, null=True)),
                ("ended", models.CharField(blank=True, max_length=200)),
                ("matches", models.PositiveIntegerField(default=0)),
                ("rtt_ms", models.FloatField(blank=True, null=True)),
                (
                    "bot",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="remote_connections",
                        to="submissions.bot",
                    ),
                ),
            ],
            options={
                "ordering": ("-connected_at",),
                "indexes": [
                    models.Index(fields=["bot", "-connected_at"], name="remote_connection_recent")
                ],
            },
        ),
    ]
