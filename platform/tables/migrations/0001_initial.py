# ruff: noqa: RUF012  (Django's own migration attributes)
"""People at tables: a table per game, its asks, guests, the people ladders."""

import uuid

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("matches", "0005_live_chunks"),
        ("submissions", "0003_bot_plays_people"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Guest",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "created_at",
                    models.DateTimeField(default=django.utils.timezone.now, editable=False),
                ),
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="guest",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="Table",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("uuid", models.UUIDField(default=uuid.uuid4, editable=False, unique=True)),
                ("entry", models.PositiveSmallIntegerField()),
                ("name", models.CharField(max_length=60)),
                ("guest", models.BooleanField(default=False)),
                ("decision_ms", models.PositiveIntegerField()),
                ("bank_ms", models.PositiveIntegerField()),
                (
                    "created_at",
                    models.DateTimeField(default=django.utils.timezone.now, editable=False),
                ),
                ("seat", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("names", models.JSONField(blank=True, default=list)),
                ("game", models.PositiveSmallIntegerField(default=0)),
                ("view", models.JSONField(blank=True, null=True)),
                ("notices", models.JSONField(blank=True, default=list)),
                ("dropped", models.TextField(blank=True)),
                ("score", models.IntegerField(blank=True, null=True)),
                ("rank", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("faults", models.JSONField(blank=True, default=list)),
                ("rated", models.BooleanField(default=False)),
                (
                    "match",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="table",
                        to="matches.match",
                    ),
                ),
                (
                    "person",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="tables",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ("-created_at",),
            },
        ),
        migrations.CreateModel(
            name="Ask",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("request_id", models.PositiveIntegerField()),
                ("game", models.PositiveSmallIntegerField()),
                ("kind", models.CharField(max_length=12)),
                ("view", models.JSONField()),
                ("asked_at", models.DateTimeField()),
                ("deadline_at", models.DateTimeField()),
                ("allowance_ms", models.PositiveIntegerField()),
                ("bank_ms", models.PositiveIntegerField()),
                ("answer", models.CharField(blank=True, max_length=80)),
                ("answered_at", models.DateTimeField(blank=True, null=True)),
                ("expired", models.BooleanField(default=False)),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="asks",
                        to="tables.table",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="PeopleRating",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "variant",
                    models.CharField(
                        choices=[
                            ("basic", "basic"),
                            ("basic+luck", "basic+luck"),
                            ("pro", "pro"),
                            ("pro+luck", "pro+luck"),
                            ("classic", "classic"),
                        ],
                        max_length=20,
                    ),
                ),
                ("elo", models.FloatField()),
                ("games", models.PositiveIntegerField(default=0)),
                ("wins", models.PositiveIntegerField(default=0)),
                ("losses", models.PositiveIntegerField(default=0)),
                ("updated_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "bot",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="people_ratings",
                        to="submissions.bot",
                    ),
                ),
                (
                    "person",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "indexes": [models.Index(fields=["variant", "-elo"], name="people_standings")],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("person__isnull", True), ("bot__isnull", True), _connector="XOR"
                        ),
                        name="person_xor_bot",
                    ),
                    models.UniqueConstraint(fields=("variant", "person"), name="one_person_rating"),
                    models.UniqueConstraint(
                        fields=("variant", "bot"), name="one_bot_people_rating"
                    ),
                ],
            },
        ),
        migrations.AddIndex(
            model_name="table",
            index=models.Index(fields=["person", "-created_at"], name="table_person_recent"),
        ),
        migrations.AddIndex(
            model_name="ask",
            index=models.Index(
                condition=models.Q(("answer", ""), ("expired", False)),
                fields=["table", "-request_id"],
                name="ask_open",
            ),
        ),
        migrations.AddConstraint(
            model_name="ask",
            constraint=models.UniqueConstraint(
                fields=("table", "request_id"), name="one_ask_per_request"
            ),
        ),
    ]
