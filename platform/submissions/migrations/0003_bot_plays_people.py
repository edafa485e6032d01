# ruff: noqa: RUF012  (Django's own migration attributes)
"""A bot's owner may let people play it at a table."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("submissions", "0002_botversion_code_sha256"),
    ]

    operations = [
        migrations.AddField(
            model_name="bot",
            name="plays_people",
            field=models.BooleanField(
                default=False, help_text="People may choose this bot to play against."
            ),
        ),
    ]
