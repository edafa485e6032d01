# ruff: noqa: RUF012  (Django's own migration attributes)
"""Each seat keeps its match's ``created_at``, so that one bot's match list is read a page at a
time from the index ``seat_bot_listed``; existing seats are filled from their matches."""

from typing import Any

from django.db import migrations, models


def fill(apps: Any, schema_editor: Any) -> None:
    Seat = apps.get_model("matches", "Seat")
    Match = apps.get_model("matches", "Match")
    if schema_editor.connection.vendor == "postgresql":  # one pass, not a lookup per seat
        schema_editor.execute(
            f"UPDATE {Seat._meta.db_table} AS s SET match_created_at = m.created_at "
            f"FROM {Match._meta.db_table} AS m WHERE m.id = s.match_id"
        )
        return
    Seat.objects.update(
        match_created_at=models.Subquery(
            Match.objects.filter(pk=models.OuterRef("match_id")).values("created_at")[:1]
        )
    )


class Migration(migrations.Migration):
    dependencies = [("matches", "0006_seat_analysis")]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="match_created_at",
            field=models.DateTimeField(editable=False, null=True),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="seat",
            name="match_created_at",
            field=models.DateTimeField(editable=False),
        ),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(
                fields=["bot", "-match_created_at", "-match"], name="seat_bot_listed"
            ),
        ),
    ]
