"""Ratings applied once per match in finishing order, the scheduler, pausing, the sweeper, and
the read API, on matches made here (no worker needed)."""

import itertools
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from ladders.models import Ladder, Rating, RatingChange
from ladders.rating import EloCalculator, GameResult, apply_games
from ladders.services import rate_ladder
from matches.models import Match, Seat
from matches.results import pause_faulty_bots
from matches.scheduler import create_match, schedule_ladder
from matches.tasks import rate_match, requeue_stale_work
from nimmt_site_testing import basic_ladder, make_token, make_user, program_bot
from submissions.models import Bot, BotVersion

from arena.bots.random import RandomBot
from arena.engine.replay import write
from arena.local import play_game

pytestmark = pytest.mark.django_db


def _finish(
    match: Match,
    ranks: list[int],
    *,
    ago: int = 0,
    faults: dict[int, list[dict[str, Any]]] | None = None,
) -> Match:
    for seat in match.seats.all():
        seat.rank = ranks[seat.seat]
        seat.score = 10 - ranks[seat.seat]
        seat.faults = (faults or {}).get(seat.seat, [])
        seat.save()
    match.status = Match.FINISHED
    match.finished_at = timezone.now() - timedelta(seconds=ago)
    match.save()
    return match


@pytest.fixture
def ladder() -> Ladder:
    return basic_ladder(players=4)


@pytest.fixture
def bots() -> list[Bot]:
    return [program_bot(name) for name in ("ann", "ben", "cat", "dan")]


def test_it_rates_each_match_once_in_finishing_order(ladder: Ladder, bots: list[Bot]) -> None:
    made = [create_match(ladder, bots) for _ in range(3)]
    # Finished in another order than made: the second first, then the third, then the first.
    _finish(made[1], [1, 2, 3, 4], ago=30)
    _finish(made[2], [4, 3, 2, 1], ago=20)
    _finish(made[0], [2, 1, 4, 3], ago=10)
    rate_match.run(match_pk=made[2].pk)  # any match's task rates whatever is due, in order
    rate_match.run(match_pk=made[2].pk)
    assert rate_ladder(ladder.pk) == 0
    assert RatingChange.objects.count() == 12
    expected, _ = apply_games(
        EloCalculator(),
        [
            GameResult(m.pk, tuple(str(b.pk) for b in bots), tuple(ranks))
            for m, ranks in (
                (made[1], [1, 2, 3, 4]),
                (made[2], [4, 3, 2, 1]),
                (made[0], [2, 1, 4, 3]),
            )
        ],
    )
    for bot in bots:
        rating = Rating.objects.get(bot=bot, ladder=ladder)
        assert rating.games == 3
        assert rating.elo == pytest.approx(expected[str(bot.pk)].elo)
        changes = list(rating.changes.order_by("pk"))
        assert [c.match_id for c in changes] == [made[1].pk, made[2].pk, made[0].pk]
        for before, after in itertools.pairwise(changes):
            assert after.elo_before == before.elo_after
            assert after.mu_before == before.mu_after


def test_an_unfinished_match_is_not_rated(ladder: Ladder, bots: list[Bot]) -> None:
    match = create_match(ladder, bots)
    rate_match.run(match_pk=match.pk)
    match.refresh_from_db()
    assert not match.rated
    assert not Rating.objects.exists()


def test_the_scheduler_fills_the_ladder_with_the_least_busy_bots_first(
    ladder: Ladder, settings: Any
) -> None:
    settings.SCHEDULE_IN_FLIGHT = 1
    bots = [program_bot(f"bot-{n}") for n in range(5)]
    for _ in range(3):  # bot-0 played a lot today
        _finish(create_match(ladder, bots[:4]), [1, 2, 3, 4], ago=60)
    Match.objects.update(created_at=timezone.now() - timedelta(hours=1))
    made = schedule_ladder(ladder.pk)
    assert len(made) == 1
    lineup = set(made[0].seats.values_list("bot__name", flat=True))
    assert "bot-4" in lineup  # the one with no games goes first
    assert len(lineup) == 4
    assert schedule_ladder(ladder.pk) == []  # in flight: full


def test_the_scheduler_picks_opponents_near_the_first_bots_rating(
    ladder: Ladder, settings: Any
) -> None:
    settings.SCHEDULE_IN_FLIGHT = 1
    settings.RATING_NEIGHBOURS = 3
    bots = [program_bot(f"bot-{n}") for n in range(8)]
    for n, bot in enumerate(bots):
        Rating.objects.create(ladder=ladder, bot=bot, elo=1000 + 100 * n, games=5)
    # Only bot-7 (1700) is fresh today, so it goes first; its nearest are 1600, 1500, 1400.
    for _ in range(2):
        _finish(create_match(ladder, bots[:4]), [1, 2, 3, 4])
        _finish(create_match(ladder, bots[3:7]), [1, 2, 3, 4])
    made = schedule_ladder(ladder.pk)
    assert set(made[0].seats.values_list("bot__name", flat=True)) == {
        "bot-7",
        "bot-6",
        "bot-5",
        "bot-4",
    }


def test_the_scheduler_caps_games_per_pair_per_day(ladder: Ladder, settings: Any) -> None:
    settings.SCHEDULE_IN_FLIGHT = 5
    settings.PAIR_DAILY_CAP = 2
    for n in range(4):
        program_bot(f"bot-{n}")
    assert len(schedule_ladder(ladder.pk)) == 2
    Match.objects.update(status=Match.FINISHED)
    assert schedule_ladder(ladder.pk) == []


def test_the_scheduler_leaves_out_bots_that_may_not_play(ladder: Ladder) -> None:
    playing = [program_bot(f"ok-{n}") for n in range(4)]
    Bot.objects.filter(pk=program_bot("retired").pk).update(retired_at=timezone.now())
    Bot.objects.filter(pk=program_bot("paused").pk).update(paused_at=timezone.now())
    BotVersion.objects.filter(bot=program_bot("pending")).update(status=BotVersion.PENDING)
    made = schedule_ladder(ladder.pk)
    seated = {name for m in made for name in m.seats.values_list("bot__name", flat=True)}
    assert seated == {b.name for b in playing}


def test_a_bot_faulting_in_three_matches_in_a_row_is_paused(
    ladder: Ladder, bots: list[Bot]
) -> None:
    crash = {"seat": 0, "kind": "crash", "turn": 0, "detail": "exited with status 7", "game": 1}
    for ago in (30, 20):
        _finish(create_match(ladder, bots), [4, 1, 2, 3], ago=ago, faults={0: [crash]})
    assert pause_faulty_bots([bots[0].pk]) == []  # two are not enough
    _finish(create_match(ladder, bots), [4, 1, 2, 3], ago=10, faults={0: [crash]})
    assert pause_faulty_bots([bots[0].pk, bots[1].pk]) == [bots[0].pk]
    bots[0].refresh_from_db()
    assert bots[0].is_paused
    assert "exited with status 7" in bots[0].pause_reason
    assert not Bot.objects.playing().filter(pk=bots[0].pk).exists()


def test_the_sweeper_sends_stale_work_again_once(
    ladder: Ladder, bots: list[Bot], django_capture_on_commit_callbacks: Any
) -> None:
    fresh = create_match(ladder, bots)
    stale = create_match(ladder, bots)
    abandoned = create_match(ladder, bots)
    long_ago = timezone.now() - timedelta(minutes=10)
    Match.objects.filter(pk=stale.pk).update(queued_at=long_ago)
    Match.objects.filter(pk=abandoned.pk).update(
        status=Match.RUNNING, queued_at=long_ago, lease_expires_at=long_ago
    )
    with django_capture_on_commit_callbacks() as sent:
        requeue_stale_work.run()
    assert len(sent) == 2
    with django_capture_on_commit_callbacks() as again:
        requeue_stale_work.run()
    assert again == []
    fresh.refresh_from_db()
    assert fresh.queued_at > long_ago


# ---------------------------------------------------------------------------- read API


@pytest.fixture
def played(ladder: Ladder, bots: list[Bot], data_dir: Path) -> Match:
    """A finished, rated match with a real replay file."""
    match = create_match(ladder, bots)
    replay = play_game(
        "basic",
        [RandomBot() for _ in bots],
        seed=match.seed,
        bot_seeds=[1, 2, 3, 4],
        names=[b.name for b in bots],
    )
    folder = data_dir / "matches" / "x" / str(match.uuid)
    folder.mkdir(parents=True)
    write(folder / "game-00001.json", replay)
    match.result_dir = str(folder.relative_to(data_dir))
    match.replays = ["game-00001.json"]
    _finish(match, list(replay["result"]["ranks"]))
    rate_ladder(ladder.pk)
    match.refresh_from_db()
    return match


def test_the_api_lists_ladders_and_standings(client: Client, played: Match) -> None:
    ladders = client.get(reverse("api-ladders")).json()["ladders"]
    assert [item["slug"] for item in ladders] == ["basic-4"]
    standings = client.get(ladders[0]["standings_url"]).json()["standings"]
    assert [row["place"] for row in standings] == [1, 2, 3, 4]
    elos = [row["elo"] for row in standings]
    assert elos == sorted(elos, reverse=True)
    assert all(row["provisional"] and row["games"] == 1 for row in standings)


def test_the_api_filters_matches_and_pages(
    client: Client, played: Match, ladder: Ladder, bots: list[Bot]
) -> None:
    for _ in range(3):
        create_match(ladder, bots)
    everything = client.get(reverse("api-matches"), {"limit": 2}).json()
    assert len(everything["matches"]) == 2
    rest = client.get(everything["next"]).json()
    assert len(rest["matches"]) == 2 and rest["next"] is None
    finished = client.get(reverse("api-matches"), {"status": "finished"}).json()["matches"]
    assert [m["id"] for m in finished] == [str(played.uuid)]
    by_bot = client.get(reverse("api-matches"), {"bot": str(bots[0].uuid)}).json()["matches"]
    assert len(by_bot) == 4
    other = client.get(reverse("api-matches"), {"ladder": str(Ladder().uuid)}).json()
    assert other["matches"] == []
    for bad in ({"ladder": "nope"}, {"status": "odd"}, {"limit": "1000"}):
        response = client.get(reverse("api-matches"), bad)
        assert response.status_code == 400
        assert "error" in response.json()


def test_the_api_shows_a_match_and_serves_its_replay(client: Client, played: Match) -> None:
    detail = client.get(reverse("api-match", args=[played.uuid])).json()["match"]
    assert detail["status"] == "finished" and detail["rated"]
    assert len(detail["rating_changes"]) == 4
    response = client.get(detail["replays"][0])
    assert response["Content-Type"] == "application/json"
    replay = json.loads(b"".join(response.streaming_content))  # type: ignore[attr-defined]
    assert replay["format"] == "nimmt-replay/1"
    assert client.get(reverse("api-match-replay", args=[played.uuid, 2])).status_code == 404
    missing = client.get(reverse("api-match", args=[Ladder().uuid]))
    assert missing.status_code == 404 and "error" in missing.json()
    page = client.get(played.get_absolute_url())
    assert b"game 1" in page.content


def test_the_api_shows_versions_and_logs_only_to_the_owner(client: Client) -> None:
    alice = make_user("alice")
    bot = program_bot("alices", owner=alice)
    BotVersion.objects.create(bot=bot, number=2, status=BotVersion.FAILED, validation_log="boom")
    url = reverse("api-bot-versions", args=[bot.uuid])
    public = client.get(url).json()["versions"]
    assert [v["number"] for v in public] == [1]
    assert "validation_log" not in public[0]
    mine = client.get(url, headers={"authorization": f"Bearer {make_token(alice)}"}).json()
    assert [v["number"] for v in mine["versions"]] == [2, 1]
    assert mine["versions"][0]["validation_log"] == "boom"
    bots = client.get(reverse("api-bots"), {"owner": "alice"}).json()["bots"]
    assert [b["name"] for b in bots] == ["alices"]
    assert client.get(reverse("api-bots"), {"state": "odd"}).status_code == 400


def test_the_pages_render(client: Client, played: Match, ladder: Ladder, bots: list[Bot]) -> None:
    assert b"Basic 4" in client.get(reverse("home")).content
    assert bots[0].name.encode() in client.get(ladder.get_absolute_url()).content
    assert client.get(bots[0].get_absolute_url()).status_code == 200
    seat = Seat.objects.filter(match=played).first()
    assert seat is not None
    assert client.get(reverse("match-log", args=[played.uuid, seat.seat])).status_code == 403
