# ruff: noqa: RUF012  (Django's own migration attributes)
"""A table remembers the address it was asked from (open tables per address are capped)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="address",
            field=models.CharField(blank=True, max_length=45),
        ),
    ]
