"""Seasons: a ladder's season starts, freezes (no bot takes a new version), ends with a
duplicate final of its top bots, keeps the final's standings on its page after the next season
starts, and resets or carries the ratings over as the organiser chose."""

import datetime as dt
import io
from typing import Any

import pytest
from accounts.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from ladders.models import Ladder, Rating, RatingChange, Rival
from matches.models import Match
from nimmt_site_testing import (
    CeleryProcess,
    basic_ladder,
    engine_match,
    make_token,
    organiser,
    play_in_process,
    program_bot,
    random_bot_upload,
    wait_for,
)
from notifications import services as notification_services
from notifications.models import Channel, Event
from seasons import services
from seasons.models import Season
from submissions import services as submission_services
from submissions.models import Bot
from submissions.tasks import _may_activate as may_activate
from tournaments.models import Tournament
from tournaments.services import advance as advance_tournament

pytestmark = pytest.mark.django_db


def league(owner: User) -> tuple[Ladder, list[Bot]]:
    """A 2-player ladder with three rated bots (alice's ``mine`` on top)."""
    ladder = basic_ladder(players=2)
    bots = [program_bot("mine", owner=owner), program_bot("rival-1"), program_bot("rival-2")]
    for margin, bot in zip((9.0, 5.0, 1.0), bots, strict=True):
        Rating.objects.create(ladder=ladder, bot=bot, margin=margin, margin_mu=margin, games=5)
    return ladder, bots


def season_on(ladder: Ladder, olga: User, **more: Any) -> Season:
    now = timezone.now()
    return services.create(
        olga,
        ladder.pk,
        name="Spring",
        starts_at=now,
        freezes_at=now + dt.timedelta(minutes=1),
        ends_at=now + dt.timedelta(minutes=2),
        finalists=2,
        final_deals=1,
        **more,
    )


def test_it_freezes_plays_its_final_keeps_the_result_and_starts_afresh() -> None:
    olga = organiser()
    alice = User.objects.create_user("alice", "alice@example.org", "pw-pw-pw-pw")
    ladder, (mine, _, _) = league(alice)
    season = season_on(ladder, olga)
    start = season.starts_at
    assert services.advance(season.pk, start) == Season.RUNNING
    submission_services.add_version(mine, random_bot_upload("mine"))  # not frozen yet
    assert services.advance(season.pk, start + dt.timedelta(minutes=1)) == Season.FROZEN
    with pytest.raises(submission_services.SubmissionError, match="Basic 2 is frozen"):
        submission_services.add_version(mine, random_bot_upload("mine"))
    assert mine.active_version is not None
    with pytest.raises(submission_services.SubmissionError, match="keeps its active version"):
        submission_services.set_active_version(mine, mine.active_version)
    assert services.advance(season.pk, start + dt.timedelta(minutes=2)) == Season.FINAL
    season.refresh_from_db()
    assert [row["bot"]["name"] for row in season.standings] == ["mine", "rival-1", "rival-2"]
    final = season.tournament
    assert final is not None and final.status == Tournament.RUNNING
    assert final.format == Tournament.DUPLICATE and final.players == 2
    assert {e.bot.name for e in final.entrants.all()} == {"mine", "rival-1"}
    assert services.advance(season.pk) == Season.FINAL  # its games are not played yet
    for match in Match.objects.filter(tournament=final):
        play_in_process(match)
    assert advance_tournament(final.pk) == "finished"
    assert services.advance(season.pk) == Season.FINISHED
    season.refresh_from_db()
    assert {row["bot"]["name"] for row in season.final_standings} == {"mine", "rival-1"}
    assert not Rating.objects.filter(ladder=ladder).exists()  # reset
    following = Season.objects.get(ladder=ladder, number=2)
    assert following.status == Season.RUNNING
    assert following.ends_at - following.starts_at == dt.timedelta(minutes=2)
    # Uploads are open again, and the season's page keeps its result.
    submission_services.add_version(mine, random_bot_upload("mine"))
    page = Client().get(season.get_absolute_url()).content.decode()
    assert 'id="season-final"' in page and "rival-1" in page and "finished" in page


def test_the_freeze_holds_every_bot_not_only_those_already_rated() -> None:
    olga = organiser()
    alice = User.objects.create_user("alice", "alice@example.org", "pw-pw-pw-pw")
    ladder, _ = league(alice)
    season = season_on(ladder, olga)
    # Every playing bot plays every active ladder: one not rated there yet would enter the
    # frozen ladder with a new version, and a new bot with its first.
    newcomer = program_bot("newcomer", owner=alice)
    assert not Rating.objects.filter(bot=newcomer).exists()
    submission_services.add_version(newcomer, random_bot_upload("newcomer"))  # not frozen yet
    services.advance(season.pk, season.freezes_at)
    with pytest.raises(submission_services.SubmissionError, match="newcomer takes no new version"):
        submission_services.add_version(newcomer, random_bot_upload("newcomer"))
    assert newcomer.active_version is not None
    with pytest.raises(submission_services.SubmissionError, match="keeps its active version"):
        submission_services.set_active_version(newcomer, newcomer.active_version)
    with pytest.raises(submission_services.SubmissionError, match="a new bot takes its first"):
        submission_services.create_bot(alice, "brand-new", random_bot_upload("brand-new"))
    assert not Bot.objects.filter(name="brand-new").exists()
    # A version that passes its checks during the freeze does not become active either.
    assert not may_activate(newcomer)
    # Through the API too, with the reason.
    refused = Client().post(
        reverse("api-bots"),
        {"file": random_bot_upload("brand-new")},
        headers={"Authorization": f"Bearer {make_token(alice)}"},
    )
    assert refused.status_code == 400 and "is frozen" in refused.json()["error"]
    # An inactive ladder plays no match: it holds only the bots rated on it (its finalists).
    Ladder.objects.filter(pk=ladder.pk).update(is_active=False)
    submission_services.add_version(newcomer, random_bot_upload("newcomer"))
    mine = Bot.objects.get(name="mine")
    with pytest.raises(submission_services.SubmissionError, match="mine takes no new version"):
        submission_services.add_version(mine, random_bot_upload("mine"))
    # Over: everyone may upload again.
    Ladder.objects.filter(pk=ladder.pk).update(is_active=True)
    Season.objects.filter(pk=season.pk).update(status=Season.FINISHED)
    submission_services.add_version(mine, random_bot_upload("mine"))
    submission_services.create_bot(alice, "brand-new", random_bot_upload("brand-new"))


def _ratings(ladder: Ladder) -> dict[int, tuple[float, ...]]:
    return {
        r.bot_id: (r.elo, r.mu, r.sigma, r.margin_mu, r.margin_sigma, r.games)
        for r in Rating.objects.filter(ladder=ladder)
    }


def test_recomputing_keeps_to_the_season_and_does_not_undo_its_reset() -> None:
    olga = organiser()
    ladder = basic_ladder(players=2)
    bots = [program_bot(name) for name in ("a", "b", "c")]
    season = season_on(ladder, olga, repeat=False)
    before = season.starts_at - dt.timedelta(minutes=30)
    for n in range(4):  # season 1's matches, rated
        engine_match(bots[n % 2 : n % 2 + 2], ladder=ladder, seed=n + 1,
                     created_at=before + dt.timedelta(minutes=n))  # fmt: skip
    # One that finished in season 1 but is rated only after the reset (a rating queued late).
    late = engine_match(bots[:2], seed=9, created_at=before + dt.timedelta(minutes=10))
    Match.objects.filter(pk=late.pk).update(ladder=ladder)
    assert services.advance(season.pk, season.ends_at) == Season.FINAL
    Tournament.objects.filter(season=season).update(status=Tournament.CANCELLED)
    reset_at = season.ends_at + dt.timedelta(seconds=1)
    assert services.advance(season.pk, reset_at) == Season.FINISHED
    ladder.refresh_from_db()
    assert ladder.ratings_since == reset_at
    assert not Rating.objects.filter(ladder=ladder).exists()
    for n in range(3):  # season 2's
        engine_match([bots[0], bots[2]], ladder=ladder, seed=20 + n,
                     created_at=reset_at + dt.timedelta(minutes=n + 1))  # fmt: skip
    # The late match is the old season's: rated, but nothing of it in the new ratings.
    late.refresh_from_db()
    assert late.rated and not RatingChange.objects.filter(match=late).exists()
    live = _ratings(ladder)
    pairs = Rival.objects.filter(ladder=ladder).values_list("bot_id", "opponent_id", "games")
    rivals = sorted(pairs)
    assert set(live) == {bots[0].pk, bots[2].pk} and {v[5] for v in live.values()} == {3}
    out = io.StringIO()
    call_command("recompute_ratings", "--ladder", ladder.slug, stdout=out)
    assert f"{ladder.slug}: 3 matches rated again" in out.getvalue()
    again = _ratings(ladder)
    assert set(again) == set(live)
    for bot_id, values in live.items():
        assert again[bot_id] == pytest.approx(values)
    assert (
        sorted(pairs.all()) == rivals == [(bots[0].pk, bots[2].pk, 3), (bots[2].pk, bots[0].pk, 3)]
    )
    assert not RatingChange.objects.filter(match__finished_at__lt=reset_at).exists()
    # Season 1's table, kept at its end, is its own.
    season.refresh_from_db()
    assert {row["bot"]["name"] for row in season.standings} == {"a", "b", "c"}


def test_carried_over_ratings_stay_and_a_ladder_too_small_has_no_final() -> None:
    olga = organiser()
    alice = User.objects.create_user("alice", "alice@example.org", "pw-pw-pw-pw")
    ladder, bots = league(alice)
    for bot in bots[1:]:
        submission_services.retire(bot)
    season = season_on(ladder, olga, carry_over=True, repeat=False)
    assert services.advance(season.pk, season.ends_at) == Season.FINISHED
    season.refresh_from_db()
    assert "No final: 1 bots could play it" in season.note and season.tournament is None
    assert Rating.objects.filter(ladder=ladder).count() == 3
    assert not Season.objects.filter(number=2).exists()
    ladder.refresh_from_db()
    assert ladder.ratings_since is None  # carried over: a recompute takes every match


def test_only_organisers_make_seasons_and_the_times_must_make_sense() -> None:
    olga = organiser()
    alice = User.objects.create_user("alice", "alice@example.org", "pw-pw-pw-pw")
    ladder, _ = league(alice)
    now = timezone.now()
    with pytest.raises(services.SeasonError, match="Only organisers"):
        services.create(alice, ladder.pk, name="x", starts_at=now, freezes_at=now, ends_at=now)
    with pytest.raises(services.SeasonError, match="starts, then freezes, then ends"):
        services.create(
            olga,
            ladder.pk,
            name="x",
            starts_at=now,
            freezes_at=now + dt.timedelta(hours=2),
            ends_at=now + dt.timedelta(hours=1),
        )
    season_on(ladder, olga)
    with pytest.raises(services.SeasonError, match="one at a time"):
        season_on(ladder, olga)
    client = Client()
    client.force_login(alice)
    assert client.get(reverse("new-season")).status_code == 403
    client.force_login(olga)
    assert client.get(reverse("new-season")).status_code == 200


def test_the_api_shows_seasons_and_refuses_an_upload_when_frozen() -> None:
    olga = organiser()
    alice = User.objects.create_user("alice", "alice@example.org", "pw-pw-pw-pw")
    ladder, (mine, _, _) = league(alice)
    season = season_on(ladder, olga)
    services.advance(season.pk, season.freezes_at)
    client = Client()
    listed = client.get(reverse("api-seasons")).json()
    assert listed["seasons"][0]["status"] == "frozen"
    one = client.get(reverse("api-season", args=[season.uuid])).json()["season"]
    assert one["ladder"] == str(ladder.uuid) and one["final_standings"] == []
    refused = client.post(
        reverse("api-bot-versions", args=[mine.uuid]),
        {"file": random_bot_upload("mine")},
        headers={"Authorization": f"Bearer {make_token(alice)}"},
    )
    assert refused.status_code == 400 and "is frozen" in refused.json()["error"]


@pytest.mark.slow
def test_a_season_runs_to_its_end_by_itself(worker_env: dict[str, str], tmp_path: Any) -> None:
    olga = organiser()
    alice = User.objects.create_user("alice", "alice@example.org", "pw-pw-pw-pw")
    ladder, (mine, _, _) = league(alice)
    now = timezone.now()
    season = services.create(
        olga,
        ladder.pk,
        name="Short",
        starts_at=now,
        freezes_at=now + dt.timedelta(seconds=2),
        ends_at=now + dt.timedelta(seconds=6),
        finalists=2,
        final_deals=1,
    )
    # The sweep on a worker of its own: on a loaded machine, beat's every-second sweeps of the
    # test settings would keep one worker that takes its maintenance queue first busy. The
    # beat's scheduler (also every second in the tests) is slowed down: this ladder needs no
    # routine match, and a sweeper slower than a second would run only the first task sent
    # at each tick.
    beat = CeleryProcess.beat(
        {**worker_env, "NIMMT_SCHEDULE_INTERVAL_SECONDS": "600"},
        tmp_path / "beat.log",
        tmp_path / "beat-schedule",
    )
    worker = CeleryProcess.worker(
        worker_env, tmp_path / "worker.log", queues="ratings,challenges,matches"
    )
    sweeper = CeleryProcess.worker(
        worker_env, tmp_path / "sweeper.log", queues="maintenance", concurrency=1
    )
    worker.start()
    sweeper.start()
    beat.start()
    try:
        wait_for(
            "the freeze",
            lambda: (
                Season.objects.filter(pk=season.pk, status=Season.FROZEN).exists()
                or Season.objects.filter(pk=season.pk, status=Season.FINAL).exists()
            ),
            timeout=60,
        )
        with pytest.raises(submission_services.SubmissionError, match="is frozen"):
            submission_services.add_version(mine, random_bot_upload("mine"))
        wait_for(
            "the season's end",
            lambda: Season.objects.filter(pk=season.pk, status=Season.FINISHED).exists(),
            timeout=240,
        )
    finally:
        beat.kill()
        worker.kill()
        sweeper.kill()
    season.refresh_from_db()
    assert season.tournament is not None and season.tournament.status == Tournament.FINISHED
    assert len(season.final_standings) == 2
    following = Season.objects.get(ladder=ladder, number=2)
    assert following.status in (Season.RUNNING, Season.FROZEN, Season.FINAL, Season.FINISHED)
    page = Client().get(season.get_absolute_url()).content.decode()
    for row in season.final_standings:
        assert row["bot"]["name"] in page.split('id="season-final"')[1]


def test_owners_are_told_their_bot_is_in_the_final_and_the_season_ended() -> None:
    olga = organiser()
    alice = User.objects.create_user("alice", "alice@example.org", "pw-pw-pw-pw")
    channel = Channel.objects.create(user=alice)
    notification_services.set_choices(
        channel, {"season_final": {"email": True}, "season_ended": {"email": True}}
    )
    ladder, _ = league(alice)
    season = season_on(ladder, olga)
    services.advance(season.pk, season.ends_at)
    notification_services.notice_all()
    assert list(Event.objects.values_list("kind", "subject")) == [
        ("season_final", "mine is in the final of Spring of Basic 2")
    ]
    final = Season.objects.get(pk=season.pk).tournament
    assert final is not None
    for match in Match.objects.filter(tournament=final):
        play_in_process(match)
    advance_tournament(final.pk)
    services.advance(season.pk)
    notification_services.notice_all()
    notification_services.notice_all()
    ended = Event.objects.get(kind="season_ended")
    assert ended.data["your_bots"] == [{"name": "mine", "place": 1}]
    assert Event.objects.count() == 2


def test_the_ladder_page_names_its_season_and_the_last_one() -> None:
    olga = organiser()
    alice = User.objects.create_user("alice", "alice@example.org", "pw-pw-pw-pw")
    ladder, _ = league(alice)
    assert 'id="ladder-season"' not in Client().get(ladder.get_absolute_url()).content.decode()
    season = season_on(ladder, olga, repeat=True)
    services.advance(season.pk, season.freezes_at)
    page = Client().get(ladder.get_absolute_url()).content.decode()
    assert "Spring</a> (frozen: no new versions until its final is over)" in page
    Season.objects.filter(pk=season.pk).update(status=Season.FINISHED)
    page = Client().get(ladder.get_absolute_url()).content.decode()
    assert f'last: <a href="{season.get_absolute_url()}">Spring</a>' in page
