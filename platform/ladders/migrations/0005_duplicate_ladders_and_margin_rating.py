# ruff: noqa: RUF012  (Django's own migration attributes)
"""Duplicate ladders, and the Margin rating beside Elo and OpenSkill (its history too).

After migrating, ``manage.py recompute_ratings`` fills in the Margin rating of matches
rated before."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ladders", "0004_rating_change_recent_covering"),
        ("submissions", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="ladder",
            name="duplicate",
            field=models.BooleanField(
                default=True,
                help_text=(
                    "Play each deal once per seat rotation, so that the luck of the deal "
                    "cancels (when a match of the table's size fits in 10 games)."
                ),
            ),
        ),
        migrations.AddField(
            model_name="rating",
            name="margin",
            field=models.FloatField(default=-20.0),
        ),
        migrations.AddField(
            model_name="rating",
            name="margin_mu",
            field=models.FloatField(default=0.0),
        ),
        migrations.AddField(
            model_name="rating",
            name="margin_sigma",
            field=models.FloatField(default=10.0),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="margin_mu_after",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="margin_mu_before",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="margin_sigma_after",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="margin_sigma_before",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name="rating",
            index=models.Index(fields=["ladder", "-margin"], name="rating_standings_margin"),
        ),
    ]
