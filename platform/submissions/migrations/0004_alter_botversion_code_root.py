# ruff: noqa: RUF012  (a migration's lists, as makemigrations writes them)
"""A version may be remote: the bot plays from its owner's machine (no code kept)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("submissions", "0003_bot_plays_people"),
    ]

    operations = [
        migrations.AlterField(
            model_name="botversion",
            name="code_root",
            field=models.CharField(
                choices=[("data", "data folder"), ("house", "house bots"), ("remote", "remote")],
                default="data",
                max_length=8,
            ),
        ),
    ]
