"""Record the pairs of every finished match that is not recorded yet, in finishing order (after
the migration that added the matchup pages, or to mend a gap)."""

from typing import Any

from django.core.management.base import BaseCommand
from django.db.models import Exists, OuterRef
from matches.models import Match

from matchups import services
from matchups.models import RecordedMatch


class Command(BaseCommand):
    help = "Record the shared games of every finished match not recorded yet (matchup pages)."

    def handle(self, *args: Any, **options: Any) -> None:
        missing = (
            Match.objects.filter(status=Match.FINISHED)
            .filter(~Exists(RecordedMatch.objects.filter(match=OuterRef("pk"))))
            .order_by("finished_at", "pk")
            .values_list("pk", flat=True)
        )
        pairs = matches = 0
        for pk in missing.iterator(chunk_size=1000):
            pairs += services.record(pk)
            matches += 1
        self.stdout.write(f"recorded {pairs} pairs of {matches} matches")
