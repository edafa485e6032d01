"""The page of one pair of bots: every shared game, the score edge per deal with its 95%
interval and LOS by variant, table size and rated or not, a history chart; its queries bounded
and read by index however many games the pair and the league have played."""

import datetime as dt
import re
import statistics
from typing import Any
from unittest import mock

import jsonschema
import pytest
from accounts.models import User
from api import openapi
from core.stats import compare_paired
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from ladders.models import Ladder
from matches.models import Match, Seat
from matches.tasks import match_is_over
from matchups import services
from matchups.models import Matchup, PairGame, RecordedMatch
from matchups.tasks import record_matchups, record_missing_matchups
from nimmt_site_testing import basic_ladder, make_user, program_bot
from submissions.models import Bot, BotVersion
from versiontests.models import PairedMatch, VersionTest

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner() -> User:
    return make_user("alice")


def played(
    bots: list[Bot],
    deal_scores: list[list[int]],
    *,
    variant: str = "basic",
    ladder: Ladder | None = None,
    duplicate: bool = True,
    ranks: list[int] | None = None,
    created_at: dt.datetime | None = None,
    record: bool = True,
) -> Match:
    """A finished match of ``bots`` with each seat's points per deal (totals over the
    rotations of a duplicate deal), recorded."""
    players = len(bots)
    deals = len(deal_scores[0])
    match = Match.objects.create(
        ladder=ladder,
        variant=variant,
        players=players,
        games=deals * (players if duplicate else 1),
        duplicate=duplicate,
        seed=1,
        status=Match.FINISHED,
        created_at=created_at or timezone.now(),
        finished_at=timezone.now(),
    )
    totals = [sum(points) for points in deal_scores]
    order = sorted(totals, reverse=variant != "classic")
    for seat, bot in enumerate(bots):
        Seat.objects.create(
            match=match,
            seat=seat,
            bot=bot,
            version=active(bot),
            deal_scores=deal_scores[seat],
            score=totals[seat],
            rank=ranks[seat] if ranks else 1 + order.index(totals[seat]),
        )
    if record:
        services.record(match.pk)
    return match


def active(bot: Bot) -> BotVersion:
    assert bot.active_version is not None
    return bot.active_version


def text(response: Any) -> str:
    assert response.status_code == 200, response.status_code
    return str(response.content.decode())


def test_it_breaks_the_edge_down_by_variant_players_and_rated(owner: User) -> None:
    a, b, c = program_bot("ann", owner=owner), program_bot("ben"), program_bot("cal")
    ladder = basic_ladder(players=2)
    # Two rated 2-player duplicate matches of the board game: per game a - b = (a - b) / 2.
    played([a, b], [[30, 40], [20, 44]], ladder=ladder)
    played([b, a], [[50], [46]], ladder=ladder)
    # An unrated 3-player one and a card game (penalties: fewer is better).
    played([a, b, c], [[33, 30], [27, 36], [30, 30]])
    played([a, b], [[10, 4], [16, 8]], variant="classic")
    kinds = {(k.variant, k.players, k.rated): k for k in services.kinds(a.pk, b.pk)}
    assert set(kinds) == {("basic", 2, True), ("basic", 3, False), ("classic", 2, False)}
    rated = kinds["basic", 2, True]
    edges = [5.0, -2.0, -2.0]  # (30 - 20) / 2, (40 - 44) / 2, (46 - 50) / 2
    assert (rated.games, rated.comparison.games) == (2, 3)
    assert rated.comparison.mean_diff == pytest.approx(statistics.mean(edges))
    assert rated.comparison.half_width == pytest.approx(compare_paired(edges).half_width)
    assert rated.comparison.los == pytest.approx(compare_paired(edges).los)
    assert (rated.wins, rated.draws, rated.losses) == (1, 0, 1)
    assert kinds["basic", 3, False].comparison.mean_diff == pytest.approx((2 - 2) / 2)
    assert kinds["classic", 2, False].comparison.mean_diff == pytest.approx((3 + 2) / 2)
    # From b's side every sign turns, and wins are losses.
    other = {(k.variant, k.players, k.rated): k for k in services.kinds(b.pk, a.pk)}
    assert other["basic", 2, True].comparison.mean_diff == pytest.approx(-statistics.mean(edges))
    assert other["classic", 2, False].wins == kinds["classic", 2, False].losses == 0


def test_it_records_a_match_once_and_leaves_version_tests_out(owner: User) -> None:
    a, b = program_bot("ann", owner=owner), program_bot("ben")
    match = played([a, b], [[30], [20]])
    assert services.record(match.pk) == 0  # twice: nothing more
    assert PairGame.objects.count() == 1 and Matchup.objects.get().games == 1
    ladder = basic_ladder(players=2)
    test = VersionTest.objects.create(
        candidate=active(a),
        baseline=active(a),
        ladder=ladder,
        requested_by=owner,
        e0=0,
        e1=2,
        alpha=0.05,
        beta=0.05,
        cap=10,
        seed=1,
    )
    private = played([a, b], [[1], [2]], record=False)
    PairedMatch.objects.create(test=test, number=1, side="candidate", match=private)
    assert services.record(private.pk) == 0
    assert PairGame.objects.count() == 1 and Matchup.objects.get().games == 1
    assert RecordedMatch.objects.filter(match=private).exists()  # looked at, once


def test_a_match_that_ends_sends_its_recording_and_the_sweeper_finds_a_lost_one(
    owner: User, django_capture_on_commit_callbacks: Any
) -> None:
    a, b = program_bot("ann", owner=owner), program_bot("ben")
    match = Match.objects.create(
        variant="basic", players=2, seed=1, status=Match.FINISHED, finished_at=timezone.now()
    )
    for seat, bot in enumerate([a, b]):
        Seat.objects.create(match=match, seat=seat, bot=bot, version=active(bot), score=5, rank=1)
    with (
        mock.patch.object(record_matchups, "apply_async") as sent,
        django_capture_on_commit_callbacks(execute=True),
    ):
        match_is_over(match, stored=True)
    sent.assert_called_once_with(kwargs={"match_pk": match.pk})
    assert not PairGame.objects.exists()  # the message was "lost"
    record_missing_matchups()
    assert PairGame.objects.get().match == match
    record_missing_matchups()
    assert PairGame.objects.count() == 1


def test_the_page_shows_kinds_charts_and_every_shared_game_paged_by_key(
    client: Client, owner: User
) -> None:
    a, b = program_bot("ann", owner=owner), program_bot("ben")
    start = timezone.now() - dt.timedelta(days=3)
    made = [
        played([a, b], [[30 + n % 7], [28]], created_at=start + dt.timedelta(minutes=n))
        for n in range(55)
    ]
    url = reverse("matchup", args=[a.uuid, b.uuid])
    page = text(client.get(url))
    assert "ann</a> vs <a" in page and "55 shared matches" in page
    assert page.count('<svg class="chart"') == 1  # one kind, its history
    newest_first = [m.get_absolute_url() for m in reversed(made)]
    listed = re.findall(r'<td><a href="(/matches/[^"]+/)"', page)
    assert listed == newest_first[:50]
    older = re.search(r'href="\?before=([0-9a-f-]+)"', page)
    assert older is not None
    rest = text(client.get(url, {"before": older.group(1)}))
    assert re.findall(r'<td><a href="(/matches/[^"]+/)"', rest) == newest_first[50:]
    assert "before=" not in rest.split('class="pager"')[1]
    assert client.get(url, {"before": "nonsense"}).status_code == 404
    assert client.get(reverse("matchup", args=[a.uuid, a.uuid])).status_code == 404
    # Linked from the match page and from a bot page's head to head.
    match_page = text(client.get(made[0].get_absolute_url()))
    assert url in match_page or reverse("matchup", args=[b.uuid, a.uuid]) in match_page


def test_its_queries_are_bounded_and_read_by_index(
    client: Client, owner: User, django_assert_max_num_queries: Any
) -> None:
    a, b, c = program_bot("ann", owner=owner), program_bot("ben"), program_bot("cal")
    played([a, b], [[3], [1]])
    played([a, b, c], [[3], [1], [2]])
    url = reverse("matchup", args=[a.uuid, b.uuid])
    with django_assert_max_num_queries(12) as few:
        text(client.get(url))
    for n in range(150):
        played([a, b, c] if n % 2 else [a, b], [[n % 9], [4], [2]][: 3 if n % 2 else 2])
    with django_assert_max_num_queries(len(few.captured_queries)):
        text(client.get(url))
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE matchups_pairgame")
    low, high, _ = services.ordered(a.pk, b.pk)
    page = PairGame.objects.filter(bot_id=low, opponent_id=high).order_by(
        "-match_created_at", "-match_id"
    )[:51]
    sql, params = page.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN {sql}", params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "pair_game_list" in plan and "Sort" not in plan, plan


def test_the_api_answers_as_described(client: Client, owner: User) -> None:
    a, b = program_bot("ann", owner=owner), program_bot("ben")
    for n in range(3):
        played([a, b], [[30 + n], [28]], duplicate=False)
    url = reverse("api-matchup", args=[a.uuid, b.uuid])
    answer = client.get(url).json()
    doc = openapi.document()
    schema = doc["paths"]["/bots/{bot_id}/vs/{other_id}/"]["get"]["responses"]["200"]
    jsonschema.validate(
        answer, {**schema["content"]["application/json"]["schema"], "components": doc["components"]}
    )
    (kind,) = answer["kinds"]
    assert (kind["games"], kind["wins"], kind["edge"]) == (3, 3, 3.0)
    assert [g["edge"] for g in answer["games"]] == [4.0, 3.0, 2.0]
    assert client.get(url, {"before": "x"}).status_code == 400
    assert client.get(reverse("api-matchup", args=[a.uuid, a.uuid])).status_code == 400
