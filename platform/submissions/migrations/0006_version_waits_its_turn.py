# ruff: noqa: RUF012  (a migration's lists, as makemigrations writes them)
"""A version may wait its turn (``waiting``) behind its owner's versions being checked."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("submissions", "0005_botversion_build"),
    ]

    operations = [
        migrations.AlterField(
            model_name="botversion",
            name="status",
            field=models.CharField(
                choices=[
                    ("waiting", "waiting its turn"),
                    ("pending", "pending"),
                    ("validating", "validating"),
                    ("passed", "passed"),
                    ("failed", "failed"),
                ],
                default="pending",
                max_length=12,
            ),
        ),
    ]
