"""The whole way with a real worker and beat: upload → validation → ladder matches → ratings."""

import json
from pathlib import Path

import pytest
from core import storage
from django.test import Client
from django.urls import reverse
from ladders.models import Rating, RatingChange
from ladders.rating import MarginCalculator
from matches.models import Match
from nimmt_site_testing import (
    TEST_BOTS,
    CeleryProcess,
    basic_ladder,
    bot_files,
    make_token,
    make_user,
    program_bot,
    random_bot_upload,
    wait_for,
    zip_upload,
)
from submissions.models import Bot, BotVersion

from arena.engine.record import GameRecord
from arena.engine.replay import verify

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_validates_an_upload_then_plays_it_and_moves_ratings(
    client: Client, celery_worker: CeleryProcess, celery_beat: CeleryProcess
) -> None:
    ladder = basic_ladder(players=4)
    for name in ("house-a", "house-b", "house-c"):
        program_bot(name)
    alice = make_user("alice")
    auth = {"authorization": f"Bearer {make_token(alice)}"}

    response = client.post(
        reverse("api-bots"), {"name": "alice-bot", "file": random_bot_upload("x")}, headers=auth
    )
    assert response.status_code == 201, response.content
    bot = Bot.objects.get(name="alice-bot")

    version = wait_for(
        "the upload to pass validation",
        lambda: BotVersion.objects.filter(bot=bot, status__in=["passed", "failed"]).first(),
        timeout=90,
    )
    assert version.status == "passed", version.validation_log
    assert "PASSED" in version.validation_log
    bot.refresh_from_db()
    assert bot.active_version == version

    rating = wait_for(
        "alice-bot to play three rated ladder matches",
        lambda: Rating.objects.filter(bot=bot, ladder=ladder, games__gte=3).first(),
        timeout=120,
    )
    # Duplicate matches (the ladder's default) between copies of one random program end in
    # exact ties: every copy holds every hand with the same seed. So Elo and OpenSkill stay,
    # but the Margin rating has learnt how close they are.
    assert rating.margin_sigma < MarginCalculator().sigma
    played = Match.objects.filter(status=Match.FINISHED, seats__bot=bot).first()
    assert played is not None and played.duplicate and len(played.replays) == played.games == 4
    assert rating.provisional
    history = RatingChange.objects.filter(rating=rating)
    assert history.count() == rating.games
    assert [c.games_after for c in history] == list(range(1, rating.games + 1))
    for change in history:  # every change follows the one before
        assert change.match.rated
    finished = Match.objects.filter(status=Match.FINISHED, seats__bot=bot)
    for match in finished.filter(rated=True):
        assert match.rating_changes.count() == 4

    # The read API shows what happened.
    standings = client.get(reverse("api-standings", args=[ladder.uuid])).json()["standings"]
    assert "alice-bot" in [row["bot"]["name"] for row in standings]
    listed = client.get(reverse("api-matches"), {"bot": str(bot.uuid), "status": "finished"})
    assert listed.status_code == 200
    first = listed.json()["matches"][-1]
    detail = client.get(first["url"]).json()["match"]
    assert {s["bot"]["name"] for s in detail["seats"]} >= {"alice-bot"}
    replay = client.get(detail["replays"][0])
    assert replay.status_code == 200
    data = json.loads(b"".join(replay.streaming_content))  # type: ignore[attr-defined]
    assert GameRecord.from_json(data).to_json() == data
    assert data["format"] == "nimmt-replay/1"
    assert verify(data) == []
    page = client.get(bot.get_absolute_url())
    assert b"Basic 4" in page.content


def test_it_fails_a_bot_that_crashes_at_start_and_keeps_only_the_log(
    client: Client, celery_worker: CeleryProcess
) -> None:
    alice = make_user("alice")
    client.force_login(alice)
    upload = zip_upload(bot_files(TEST_BOTS / "crasher", "crashy"))
    response = client.post(reverse("new-bot"), {"name": "crashy", "file": upload})
    assert response.status_code == 302
    version = BotVersion.objects.get()
    assert (version.code_path() / "nimmt-bot.toml").is_file()
    assert storage.arena_storage().exists(version.code_dir)

    version = wait_for(
        "the validation verdict",
        lambda: BotVersion.objects.filter(status__in=["passed", "failed"]).first(),
        timeout=90,
    )
    assert version.status == "failed"
    assert "crash" in version.validation_log
    assert "giving up at once" in version.validation_log  # the bot's own output, for its author
    assert not storage.arena_storage().exists(version.code_dir)  # its archive is gone
    bot = version.bot
    assert bot.active_version is None
    assert bot.state == "waiting"
    page = client.get(version.get_absolute_url())
    assert b"failed" in page.content and b"crash" in page.content
    assert not Match.objects.exists()


def test_a_bot_that_keeps_faulting_is_paused_with_the_reason_on_its_page(
    client: Client, celery_worker: CeleryProcess, celery_beat: CeleryProcess, data_dir: Path
) -> None:
    ladder = basic_ladder(players=4)
    for name in ("house-a", "house-b", "house-c"):
        program_bot(name)
    bob = make_user("bob")
    faulty = program_bot("faulty", "quick", owner=bob)
    # The version passed once; then its program breaks (as if its dependency vanished).
    sha256 = storage.keep_folder(TEST_BOTS / "crasher", "broken.tar.gz")
    BotVersion.objects.filter(bot=faulty).update(
        code_root=BotVersion.DATA, code_dir="broken.tar.gz", code_sha256=sha256
    )
    faulty = wait_for(
        "the faulty bot to be paused",
        lambda: Bot.objects.filter(pk=faulty.pk, paused_at__isnull=False).first(),
        timeout=120,
    )
    assert "last 3 matches" in faulty.pause_reason
    assert "crash" in faulty.pause_reason
    client.force_login(bob)
    page = client.get(faulty.get_absolute_url())
    assert b"Paused since" in page.content and b"crash" in page.content
    played = Match.objects.filter(ladder=ladder, seats__bot=faulty).count()
    assert Bot.objects.playing().filter(pk=faulty.pk).count() == 0
    client.post(reverse("resume-bot", args=[faulty.uuid]))
    faulty.refresh_from_db()
    assert faulty.paused_at is None and played >= 3
