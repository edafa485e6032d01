"""``manage.py export_games``: add the public games finished since the last export to the
dataset (:mod:`matches.dataset`); the beat runs the same every night."""

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from matches.dataset import LAG, export_games


class Command(BaseCommand):
    help = "Export the public games finished since the last export (Parquet + JSON lines)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--until",
            help="take the games finished before this ISO 8601 time (default: "
            f"{int(LAG.total_seconds() // 60)} minutes ago)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        until = None
        if options["until"]:
            try:
                until = dt.datetime.fromisoformat(options["until"])
            except ValueError:
                raise CommandError(
                    f"--until {options['until']!r} is not an ISO 8601 time"
                ) from None
            if until.tzinfo is None:
                raise CommandError("--until needs a time zone (e.g. 2026-12-06T03:00:00+00:00)")
            if until > timezone.now():
                raise CommandError("--until is in the future: games may still finish before it")
        export = export_games(until)
        if export is None:
            self.stdout.write("no new public games to export")
            return
        skipped = f", {len(export.skipped)} unreadable left out" if export.skipped else ""
        self.stdout.write(
            f"export {export.number}: {export.games} games of {export.matches} matches "
            f"in {len(export.files)} files{skipped}"
        )
