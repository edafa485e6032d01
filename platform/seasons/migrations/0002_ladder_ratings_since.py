# ruff: noqa: RUF012  (Django's own migration attributes)
"""Each ladder's ``ratings_since`` from its seasons so far: the end of the last one that
reset its ratings (not carried over), so that a recompute does not mix its seasons."""

from typing import Any

from django.db import migrations


def fill(apps: Any, schema_editor: Any) -> None:
    Season = apps.get_model("seasons", "Season")
    Ladder = apps.get_model("ladders", "Ladder")
    last: dict[int, Any] = {}
    for ladder_id, finished_at in Season.objects.filter(
        status="finished", carry_over=False, finished_at__isnull=False
    ).values_list("ladder_id", "finished_at"):
        if ladder_id not in last or finished_at > last[ladder_id]:
            last[ladder_id] = finished_at
    for ladder_id, finished_at in last.items():
        Ladder.objects.filter(pk=ladder_id).update(ratings_since=finished_at)


class Migration(migrations.Migration):
    dependencies = [
        ("seasons", "0001_initial"),
        ("ladders", "0010_ratings_since"),
    ]

    operations = [
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
