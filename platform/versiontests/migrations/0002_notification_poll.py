# ruff: noqa: RUF012  (Django's own migration attributes)
"""Indexes of the notifications' poll: what changed since its last look."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ladders", "0010_ratings_since"),
        ("submissions", "0007_notification_poll"),
        ("versiontests", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name="versiontest",
            index=models.Index(
                condition=models.Q(("finished_at__isnull", False)),
                fields=["finished_at"],
                name="version_test_finished",
            ),
        ),
    ]
