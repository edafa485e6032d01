"""``manage.py recompute_ratings``: rate every ladder's stored matches again from the start.

For when a rating model or its parameters change (and after the migration that added the
Margin rating): each ladder's ratings and full history are rebuilt from its finished matches,
in finishing order, by :func:`ladders.services.recompute_ladder`. One ladder at a time, each
in one transaction under the ladder's lock, so the site keeps serving the old numbers until
the new ones are committed. A ladder whose season ended with its ratings reset is recomputed
from that reset on (``Ladder.ratings_since``): the seasons before are not mixed in.
"""

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ladders.models import Ladder
from ladders.services import recompute_ladder


class Command(BaseCommand):
    help = "Rebuild every ladder's ratings and rating history (or --ladder's) from its matches."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--ladder", action="append", default=[], help="a ladder's slug (repeatable)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        ladders = Ladder.objects.order_by("pk")
        if options["ladder"]:
            ladders = ladders.filter(slug__in=options["ladder"])
            missing = set(options["ladder"]) - set(ladders.values_list("slug", flat=True))
            if missing:
                raise CommandError(f"no ladder {', '.join(sorted(missing))}")
        for ladder in ladders:
            started = time.perf_counter()
            count = recompute_ladder(ladder.pk)
            seconds = time.perf_counter() - started
            self.stdout.write(f"{ladder.slug}: {count} matches rated again in {seconds:.1f} s")
