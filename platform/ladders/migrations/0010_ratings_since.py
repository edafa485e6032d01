# ruff: noqa: RUF012  (Django's own migration attributes)
"""When a ladder's ratings last started afresh (a season's end that reset them): they count
the matches finished since. Filled from the seasons so far by seasons' 0002."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ladders", "0009_fewer_chart_points"),
    ]

    operations = [
        migrations.AddField(
            model_name="ladder",
            name="ratings_since",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
    ]
