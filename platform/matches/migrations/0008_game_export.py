# ruff: noqa: RUF012  (Django's own migration attributes)
"""The dataset export's runs (matches.dataset): each the window of finishing times it
exported and the files it wrote."""

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0007_seat_match_created_at"),
    ]

    operations = [
        migrations.CreateModel(
            name="GameExport",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveIntegerField(unique=True)),
                (
                    "created_at",
                    models.DateTimeField(default=django.utils.timezone.now, editable=False),
                ),
                ("since", models.DateTimeField(blank=True, null=True)),
                ("until", models.DateTimeField()),
                ("matches", models.PositiveIntegerField(default=0)),
                ("games", models.PositiveIntegerField(default=0)),
                ("files", models.JSONField(blank=True, default=list)),
                ("skipped", models.JSONField(blank=True, default=list)),
            ],
            options={
                "ordering": ("-number",),
            },
        ),
    ]
