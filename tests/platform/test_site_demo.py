"""``manage.py load_demo``: the demo league the README's first command starts, loaded from
``seeds/demo.json``, idempotent, and refusing a bad seed file without storing anything."""

import io
import json
from pathlib import Path
from typing import Any

import pytest
from accounts.models import User
from django.conf import settings
from django.core.management import CommandError, call_command
from ladders.models import Ladder
from matches.models import Match
from nimmt_site_testing import REPO
from submissions.models import Bot
from tournaments.models import Tournament
from tournaments.services import planned_games

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def house_bots(settings: Any) -> None:
    settings.HOUSE_BOTS_DIR = REPO / "bots"  # the real house bots, as the demo loads them


SEED = json.loads((Path(settings.SEEDS_DIR) / "demo.json").read_text("utf-8"))


def load(*args: str) -> str:
    out = io.StringIO()
    call_command("load_demo", *args, stdout=out)
    return out.getvalue()


def test_it_loads_users_house_bots_ladders_and_started_tournaments() -> None:
    said = load()
    assert {u["username"] for u in SEED["users"]} <= set(
        User.objects.values_list("username", flat=True)
    )
    for entry in SEED["house_bots"]:
        bot = Bot.objects.select_related("active_version").get(name=entry["name"])
        assert bot.is_house and bot.active_version is not None and bot.active_version.passed
    assert set(Ladder.objects.values_list("slug", flat=True)) == {
        entry["slug"] for entry in SEED["ladders"]
    }
    assert len(SEED["tournaments"]) >= 2
    for entry in SEED["tournaments"]:
        tournament = Tournament.objects.get(name=entry["name"])
        assert tournament.status == Tournament.RUNNING, said
        assert tournament.format == entry["format"] and tournament.variant == entry["variant"]
        assert sorted(tournament.entrants.values_list("bot__name", flat=True)) == sorted(
            entry["entrants"]
        )
        queued = Match.objects.filter(tournament=tournament, status=Match.QUEUED).count()
        assert queued == planned_games(tournament, len(entry["entrants"]))


def test_loading_it_again_keeps_what_is_there() -> None:
    load()
    counts = (User.objects.count(), Bot.objects.count(), Tournament.objects.count())
    matches = Match.objects.count()
    said = load()
    assert "created" not in said
    assert (User.objects.count(), Bot.objects.count(), Tournament.objects.count()) == counts
    assert Match.objects.count() == matches


def test_it_names_a_seed_file_it_cannot_read(tmp_path: Path) -> None:
    bad = tmp_path / "demo.json"
    bad.write_text("{not json", "utf-8")
    with pytest.raises(CommandError, match="cannot read"):
        load("--file", str(bad))
    with pytest.raises(CommandError, match="cannot read"):
        load("--file", str(tmp_path / "missing.json"))


def test_a_tournament_of_an_unknown_bot_stores_nothing(tmp_path: Path) -> None:
    seed = {**SEED, "tournaments": [{**SEED["tournaments"][0], "entrants": ["mcs", "nobody"]}]}
    path = tmp_path / "demo.json"
    path.write_text(json.dumps(seed), "utf-8")
    with pytest.raises(CommandError, match="no bot nobody"):
        load("--file", str(path))
    assert not User.objects.exists() and not Bot.objects.exists() and not Ladder.objects.exists()
