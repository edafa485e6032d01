"""``manage.py load_demo``: demo users, the house bots as site bots, a ladder per variant, and
a few tournaments of the house bots, started so that the workers play them.

Each ladder's first matches are queued before the tournaments' first round, taking turns
between the ladders: the workers take messages in the order they were sent, so every ladder
has games after its first few matches instead of after the tournaments' round.

Reads ``seeds/demo.json`` (``NIMMT_SEEDS_DIR``); idempotent: users, bots, ladders and
tournaments are matched by username, name, slug and name, and what exists is left as it is.
"""

import itertools
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

from accounts.models import User
from core.celery import enqueue
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone
from ladders.models import Ladder
from matches import scheduler
from matches.tasks import run_match
from seasons import services as seasons
from seasons.models import Season
from submissions.models import Bot, BotVersion
from tournaments import services as tournaments
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Load the demo data of seeds/demo.json (users, house bots, ladders, tournaments); "
        "idempotent."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--file", type=Path, default=None, help="another seed file (default: demo.json)"
        )
        parser.add_argument("--no-users", action="store_true", help="skip the demo users")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"] or Path(settings.SEEDS_DIR) / "demo.json"
        try:
            seed = json.loads(Path(path).read_text("utf-8"))
        except (OSError, ValueError) as error:
            raise CommandError(f"cannot read {path}: {error}") from None
        with transaction.atomic():
            if not options["no_users"]:
                for entry in seed.get("users", []):
                    self._user(entry)
            house = self._house_user(seed.get("house_user", "house"))
            for entry in seed.get("house_bots", []):
                self._house_bot(house, entry)
            for entry in seed.get("ladders", []):
                self._ladder(entry)
            self._first_ladder_matches()
            for entry in seed.get("tournaments", []):
                self._tournament(entry)
            for entry in seed.get("seasons", []):
                self._season(entry)

    def _first_ladder_matches(self) -> None:
        """What the scheduler would create on each active ladder now, sent one ladder after
        the other in turn (after the commit, before anything the tournaments send)."""
        ladders = Ladder.objects.filter(is_active=True).order_by("pk")
        per_ladder = [scheduler.schedule_ladder(pk) for pk in ladders.values_list("pk", flat=True)]
        for match in itertools.chain.from_iterable(itertools.zip_longest(*per_ladder)):
            if match is not None:
                enqueue(run_match, match_pk=match.pk)
        self.stdout.write(f"queued {sum(map(len, per_ladder))} first ladder matches")

    def _say(self, created: bool, what: str) -> None:
        if created:
            self.stdout.write(f"created {what}")
        else:
            self.stdout.write(f"kept {what}")

    def _user(self, entry: dict[str, Any]) -> None:
        user, created = User.objects.get_or_create(
            username=entry["username"],
            defaults={"email": entry.get("email", ""), "is_staff": bool(entry.get("staff"))},
        )
        if created:
            user.set_password(entry["password"])
            if entry.get("staff"):
                user.is_superuser = True
            user.save()
        self._say(created, f"user {user.username}")

    def _house_user(self, username: str) -> User:
        user, created = User.objects.get_or_create(username=username)
        if created:
            user.set_unusable_password()
            user.save()
        self._say(created, f"house user {username}")
        return user

    def _house_bot(self, house: User, entry: dict[str, Any]) -> None:
        folder = Path(settings.HOUSE_BOTS_DIR) / entry["folder"]
        if not (folder / "nimmt-bot.toml").is_file():
            raise CommandError(f"house bot {entry['name']}: {folder} has no nimmt-bot.toml")
        bot, created = Bot.objects.get_or_create(
            name=entry["name"], defaults={"owner": house, "is_house": True}
        )
        if bot.active_version_id is None:
            version, _ = BotVersion.objects.get_or_create(
                bot=bot,
                number=1,
                defaults={
                    "status": BotVersion.PASSED,
                    "code_root": BotVersion.HOUSE,
                    "code_dir": entry["folder"],
                    "manifest": {"house_bot": entry["folder"]},
                    "validation_log": "A house bot: part of the arena, not validated.",
                    "upload_name": f"bots/{entry['folder']}",
                },
            )
            bot.active_version = version
            bot.save(update_fields=["active_version"])
        self._say(created, f"house bot {bot.name} ({folder})")

    def _ladder(self, entry: dict[str, Any]) -> None:
        ladder, created = Ladder.objects.get_or_create(
            slug=entry["slug"],
            defaults={
                "name": entry["name"],
                "variant": entry["variant"],
                "players": entry["players"],
            },
        )
        self._say(created, f"ladder {ladder.name}")

    def _season(self, entry: dict[str, Any]) -> None:
        """A short season on a ladder, starting now: it freezes and ends within minutes."""
        ladder = Ladder.objects.filter(slug=entry["ladder"]).first()
        organiser = User.objects.filter(username=entry["organiser"]).first()
        if ladder is None or organiser is None:
            self.stdout.write(f"skipped season {entry['name']}: no ladder or organiser")
            return
        if Season.objects.filter(ladder=ladder).exists():
            self._say(False, f"season {entry['name']}")
            return
        now = timezone.now()
        try:
            season = seasons.create(
                organiser,
                ladder.pk,
                name=entry["name"],
                starts_at=now,
                freezes_at=now + timedelta(minutes=entry["freeze_after_minutes"]),
                ends_at=now + timedelta(minutes=entry["end_after_minutes"]),
                finalists=entry["finalists"],
                final_deals=entry["final_deals"],
                carry_over=entry["carry_over"],
                repeat=entry["repeat"],
            )
        except seasons.SeasonError as error:
            raise CommandError(f"season {entry['name']}: {error}") from None
        self._say(True, f"season {season.name} on {ladder.name} (ends {season.ends_at:%H:%M})")

    def _tournament(self, entry: dict[str, Any]) -> None:
        if Tournament.objects.filter(name=entry["name"]).exists():
            self._say(False, f"tournament {entry['name']}")
            return
        organiser = User.objects.filter(username=entry["organiser"]).first()
        if organiser is None:
            self.stdout.write(f"skipped tournament {entry['name']}: no user {entry['organiser']}")
            return
        versions = []
        for name in entry["entrants"]:
            bot = Bot.objects.filter(name=name).select_related("active_version").first()
            if bot is None or bot.active_version is None:
                raise CommandError(f"tournament {entry['name']}: no bot {name} with a version")
            versions.append(bot.active_version)
        try:
            tournament = tournaments.create(
                organiser,
                name=entry["name"],
                variant=entry["variant"],
                players=entry["players"],
                format=entry["format"],
                games_per_pairing=entry["games_per_pairing"],
                rounds=entry.get("rounds", 1),
                versions=versions,
                seed=entry.get("seed"),
            )
            tournaments.start(tournament, organiser)
        except tournaments.TournamentError as error:
            raise CommandError(f"tournament {entry['name']}: {error}") from None
        self._say(True, f"tournament {tournament.name} (started)")
