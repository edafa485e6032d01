"""Ratings applied once per match in finishing order (Elo, OpenSkill and Margin), duplicate
matches, the recompute command, the scheduler, pausing, the sweeper, and the read API, on
matches made here (no worker needed)."""

import io
import itertools
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from ladders.models import Ladder, Rating, RatingChange
from ladders.rating import (
    DealScores,
    EloCalculator,
    GameResult,
    MarginCalculator,
    SkillCalculator,
    apply_games,
)
from ladders.services import Standings, rate_ladder, rating_histories, trends
from matches.models import Match, Seat
from matches.results import pause_faulty_bots
from matches.scheduler import create_match, schedule_ladder
from matches.tasks import rate_match, requeue_stale_work
from nimmt_site_testing import basic_ladder, flush_broker, make_token, make_user, program_bot
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
        # The ladder is ordered by Margin, and so the scheduler pairs by it; Elo says otherwise.
        Rating.objects.create(ladder=ladder, bot=bot, margin=n - 4.0, elo=2000 - 100 * n, games=5)
    # Only bot-7 (+3) is fresh today, so it goes first; its nearest are +2, +1 and 0.
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


def _finish_points(match: Match, points: list[list[int]], *, ago: int = 0) -> Match:
    """Finish ``match`` as the runner reports one: ``points[seat]`` per deal; every deal's
    games ranked by the points."""
    totals = [sum(p) for p in points]
    ranks = [1 + sum(other > mine for other in totals) for mine in totals]  # basic: high wins
    for seat in match.seats.all():
        seat.score, seat.rank = totals[seat.seat], ranks[seat.seat]
        seat.deal_scores = points[seat.seat]
        seat.save()
    match.status = Match.FINISHED
    match.finished_at = timezone.now() - timedelta(seconds=ago)
    match.save()
    return match


def test_a_ladder_plays_each_deal_once_per_seat_rotation_by_default(
    ladder: Ladder, bots: list[Bot], settings: Any
) -> None:
    settings.GAMES_PER_MATCH = 1
    match = create_match(ladder, bots)
    assert (match.duplicate, match.games) == (True, 4)  # one deal, four rotations
    settings.GAMES_PER_MATCH = 9
    assert (create_match(ladder, bots).games, Match.objects.latest("pk").duplicate) == (8, True)
    Ladder.objects.filter(pk=ladder.pk).update(duplicate=False)
    ladder.refresh_from_db()
    single = create_match(ladder, bots)
    assert (single.duplicate, single.games) == (False, 9)
    big = Ladder.objects.create(slug="basic-6", name="B6", variant="basic", players=6)
    settings.GAMES_PER_MATCH = 12  # two deals of six rotations: more than a match may take
    assert big.match_format(settings.GAMES_PER_MATCH) == (12, False)


def test_it_rates_the_margin_from_the_points_of_each_deal(ladder: Ladder, bots: list[Bot]) -> None:
    first = _finish_points(create_match(ladder, bots), [[80], [40], [40], [0]], ago=20)
    second = _finish_points(create_match(ladder, bots), [[10], [50], [30], [30]], ago=10)
    assert rate_ladder(ladder.pk) == 2
    margin, elo, skill = MarginCalculator(), EloCalculator(), SkillCalculator()
    seats = [[s.bot_id for s in m.seats.order_by("seat")] for m in (first, second)]
    want = {b.pk: margin.rating(str(b.pk)) for b in bots}
    for match, lineup in zip((first, second), seats, strict=True):
        points = [s.deal_scores for s in match.seats.order_by("seat")]
        # A duplicate deal of four rotations: the totals of four games.
        deal = DealScores(tuple(float(p[0]) for p in points), games=4)
        for r in margin.rate([want[b] for b in lineup], [deal]):
            want[int(r.bot_id)] = r
    for bot in bots:
        rating = Rating.objects.get(bot=bot, ladder=ladder)
        assert rating.margin_mu == pytest.approx(want[bot.pk].mu)
        assert rating.margin_sigma == pytest.approx(want[bot.pk].sigma)
        assert rating.margin == pytest.approx(want[bot.pk].value)
        changes = list(rating.changes.order_by("pk"))
        assert changes[0].margin_mu_before == 0.0
        assert changes[0].margin_mu_after == changes[1].margin_mu_before
        assert changes[1].margin_mu_after == rating.margin_mu
    # The first match's winner by 40 points leads; Elo and OpenSkill took each match whole.
    ann = Rating.objects.get(bot=bots[0], ladder=ladder)
    ranks = [[int(s.rank or 0) for s in m.seats.order_by("seat")] for m in (first, second)]
    assert ranks[0] == [1, 2, 2, 4]
    _, history = apply_games(
        elo, [GameResult(m.pk, tuple(map(str, lineup)), tuple(r))
              for m, lineup, r in zip((first, second), seats, ranks, strict=True)]
    )  # fmt: skip
    assert ann.elo == pytest.approx(
        [c for c in history if c.bot_id == str(bots[0].pk)][-1].after.elo
    )
    assert ann.games == 2 and ann.mu != skill.mu


def test_points_per_deal_that_do_not_add_up_count_as_one_game_of_the_totals(
    ladder: Ladder, bots: list[Bot]
) -> None:
    # A seat whose points per deal are missing or of another length than its neighbours' (a
    # match stored before they were kept, or a broken row): the match still counts, as one
    # game of the seats' mean points per game, and one bad row cannot crash the rating task.
    match = _finish_points(create_match(ladder, bots), [[40], [20], [10], [0]], ago=10)
    Seat.objects.filter(match=match, seat=0).update(deal_scores=[40, 1, 2])
    other = _finish_points(create_match(ladder, bots), [[40], [20], [10], [0]])
    Seat.objects.filter(match=other, seat=1).update(deal_scores=["20"])
    assert rate_ladder(ladder.pk) == 2
    margin = MarginCalculator()
    per_game = [DealScores((10.0, 5.0, 2.5, 0.0))]  # the totals over the match's 4 games
    want = [margin.rating(str(b.pk)) for b in bots]
    for _ in range(2):
        want = margin.rate(want, per_game)
    for bot, expected in zip(bots, want, strict=True):  # create_match seats them in order
        rating = Rating.objects.get(bot=bot, ladder=ladder)
        assert rating.margin_mu == pytest.approx(expected.mu)
        assert rating.games == 2


def test_the_ladder_is_ordered_by_margin_and_shows_it(
    client: Client, ladder: Ladder, bots: list[Bot]
) -> None:
    # ann wins narrowly three times, ben comes second three times but routs everyone once: by
    # ranks ann is the best, by points ben.
    for ago in (40, 30, 20):
        _finish_points(create_match(ladder, bots), [[31], [29], [0], [0]], ago=ago)
    _finish_points(create_match(ladder, bots), [[0], [120], [0], [0]], ago=10)
    rate_ladder(ladder.pk)
    table = [r.bot.name for r in Standings(ladder)[0:4]]
    by_elo = [r.bot.name for r in Standings(ladder, order="elo")[0:4]]
    assert table[0] == "ben" and by_elo[0] == "ann"
    page = client.get(ladder.get_absolute_url()).content.decode()
    assert "Margin" in page and page.index(">ben<") < page.index(">ann<")
    assert client.get(reverse("home")).content.decode().count("Margin") >= 1
    bot_page = client.get(bots[1].get_absolute_url()).content.decode()
    ben = Rating.objects.get(bot=bots[1], ladder=ladder)
    assert f"{ben.margin_mu:+.1f}" in bot_page and "Margin" in bot_page
    with pytest.raises(ValueError, match="ordered by margin or elo"):
        Standings(ladder, order="openskill")


def test_recompute_ratings_rebuilds_every_rating_and_its_history(
    ladder: Ladder, bots: list[Bot]
) -> None:
    for n in range(5):
        match = create_match(ladder, bots)
        _finish_points(match, [[10 * n], [30], [20 - n], [5]], ago=100 - n)
        rate_ladder(ladder.pk)
    legacy = _finish(create_match(ladder, bots), [2, 1, 3, 4], ago=50)  # no points per deal
    rate_ladder(ladder.pk)
    assert legacy.seats.first().deal_scores == []  # type: ignore[union-attr]
    rated = {r.bot_id: (r.elo, r.mu, r.sigma, r.margin_mu, r.margin_sigma, r.margin, r.games)
             for r in Rating.objects.filter(ladder=ladder)}  # fmt: skip
    history = list(
        RatingChange.objects.order_by("match__finished_at", "rating__bot_id").values_list(
            "match_id", "rating__bot_id", "elo_after", "margin_mu_after", "games_after"
        )
    )
    # What a model change leaves: other numbers, a history without Margin, a stray rating.
    Rating.objects.update(elo=1000.0, margin_mu=50.0, games=99)
    RatingChange.objects.update(margin_mu_after=None)
    stray = program_bot("stray")
    Rating.objects.create(ladder=ladder, bot=stray, elo=1800.0, games=3)
    out = io.StringIO()
    call_command("recompute_ratings", stdout=out)
    assert f"{ladder.slug}: 6 matches rated again" in out.getvalue()
    again = {r.bot_id: (r.elo, r.mu, r.sigma, r.margin_mu, r.margin_sigma, r.margin, r.games)
             for r in Rating.objects.filter(ladder=ladder)}  # fmt: skip
    assert again.pop(stray.pk)[6] == 0  # no matches left: back to the start
    assert set(again) == set(rated)
    for bot_id, values in rated.items():
        assert again[bot_id] == pytest.approx(values)
    rebuilt = list(
        RatingChange.objects.order_by("match__finished_at", "rating__bot_id").values_list(
            "match_id", "rating__bot_id", "elo_after", "margin_mu_after", "games_after"
        )
    )
    assert len(rebuilt) == len(history)
    for got, want in zip(rebuilt, history, strict=True):
        assert got[:2] == want[:2] and got[4] == want[4]
        assert got[2:4] == pytest.approx(want[2:4])
    assert not Match.objects.filter(ladder=ladder, rated=False).exists()
    call_command("recompute_ratings", "--ladder", ladder.slug, stdout=io.StringIO())
    assert RatingChange.objects.count() == len(history)  # idempotent
    with pytest.raises(CommandError, match="no ladder nope"):
        call_command("recompute_ratings", "--ladder", "nope")


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
    # The sweeper sends a waiting match again only when the broker holds fewer messages than
    # there are waiting matches: messages an earlier test of this process left in its broker
    # would count as live ones.
    flush_broker()
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
    record = play_game(
        "basic",
        [RandomBot() for _ in bots],
        seed=match.seed,
        bot_seeds=[1, 2, 3, 4],
        names=[b.name for b in bots],
    )
    folder = data_dir / "matches" / "x" / str(match.uuid)
    folder.mkdir(parents=True)
    write(folder / "game-00001.json", record)
    match.result_dir = str(folder.relative_to(data_dir))
    match.replays = ["game-00001.json"]
    _finish(match, list(record.result.ranks))
    rate_ladder(ladder.pk)
    match.refresh_from_db()
    return match


def test_the_api_lists_ladders_and_standings(client: Client, played: Match) -> None:
    ladders = client.get(reverse("api-ladders")).json()["ladders"]
    assert [item["slug"] for item in ladders] == ["basic-4"]
    assert ladders[0]["standings_order"] == "margin"
    standings = client.get(ladders[0]["standings_url"]).json()["standings"]
    assert [row["place"] for row in standings] == [1, 2, 3, 4]
    # In the ladder's order, Margin's mu - 2 sigma, with Margin's mu and ± beside Elo's.
    order = [row["margin_order"] for row in standings]
    assert order == sorted(order, reverse=True)
    for row in standings:
        rating = Rating.objects.get(bot__uuid=row["bot"]["id"])
        assert row["margin"] == round(rating.margin_mu, 3)
        assert row["margin_uncertainty"] == round(rating.margin_sigma, 3)
        assert row["elo"] == round(rating.elo, 2)
    assert all(row["provisional"] and row["games"] == 1 for row in standings)


def test_trends_and_charts_follow_margin_the_ladders_order_unless_told(played: Match) -> None:
    changes = list(RatingChange.objects.filter(match=played).select_related("rating"))
    assert len(changes) == 4
    ratings = [c.rating for c in changes]
    margin = trends(ratings)
    elo = trends(ratings, rating="elo")
    for change in changes:
        assert margin[change.rating_id] == [change.margin_mu_before, change.margin_mu_after]
        assert elo[change.rating_id] == [change.elo_before, change.elo_after]
    assert any(c.margin_mu_after != c.margin_mu_before for c in changes)
    charts = rating_histories(ratings)
    elo_charts = rating_histories(ratings, "elo")
    for rating in ratings:
        assert charts[rating.pk] is not None and elo_charts[rating.pk] is not None
        assert charts[rating.pk] != elo_charts[rating.pk]


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
