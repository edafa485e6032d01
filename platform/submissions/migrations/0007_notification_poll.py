# ruff: noqa: RUF012  (Django's own migration attributes)
"""Indexes of the notifications' poll: what changed since its last look."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("submissions", "0006_version_waits_its_turn"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name="bot",
            index=models.Index(
                condition=models.Q(("paused_at__isnull", False)),
                fields=["paused_at"],
                name="bot_paused_at",
            ),
        ),
        migrations.AddIndex(
            model_name="botversion",
            index=models.Index(
                condition=models.Q(("validated_at__isnull", False)),
                fields=["validated_at"],
                name="version_validated_at",
            ),
        ),
    ]
