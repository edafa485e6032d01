"""Challenges: an owner's bot against opponents of the owner's choice, in one unrated duplicate
match played from the workers' ``challenges`` queue; refused with the reason past a limit or
against a bot whose owner does not accept challenges; the result is the paired edge per opponent."""

import errno
import math
import statistics
import threading
from datetime import timedelta
from typing import Any
from unittest import mock

import jsonschema
import pytest
from accounts.models import User
from api import openapi
from challenges import services
from challenges.models import Challenge, ChallengeRefusal
from challenges.services import QUEUE
from challenges.tasks import make_challenge
from core import disks
from core.celery import broker_backlog
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from ladders.models import Rating
from matches import bridge
from matches.models import Match
from matches.tasks import queue_match, requeue_stale_work, run_match
from nimmt_site_testing import (
    CeleryProcess,
    basic_ladder,
    engine_match,
    make_token,
    make_user,
    program_bot,
    wait_for,
)
from submissions import services as submission_services
from submissions.models import Bot, BotVersion

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice() -> User:
    return make_user("alice")


@pytest.fixture
def alice_client(alice: User) -> Client:
    client = Client()
    client.force_login(alice)
    return client


def field(alice: User) -> tuple[Bot, Bot, Bot, Bot]:
    """Alice's bot ``mine``, the house bot ``house-a``, bob's ``bobs`` (accepts) and carol's
    ``carols`` (does not accept challenges)."""
    mine = program_bot("mine", owner=alice)
    house = program_bot("house-a")
    bobs = program_bot("bobs", owner=make_user("bob"))
    carols = program_bot("carols", owner=make_user("carol"))
    services.set_accepts_challenges(carols, False)
    return mine, house, bobs, carols


def finish(match: Match, deal_scores: list[list[int]]) -> None:
    """Store ``match`` as played: each seat's points per deal (totals over the rotations)."""
    for seat in match.seats.order_by("seat"):
        seat.deal_scores = deal_scores[seat.seat]
        seat.score = sum(deal_scores[seat.seat])
        seat.rank = seat.seat + 1
        seat.save()
    match.status = Match.FINISHED
    match.save()


def test_it_makes_one_unrated_duplicate_match_with_the_challenger_in_seat_0(alice: User) -> None:
    mine, house, bobs, _ = field(alice)
    challenge = services.create_challenge(alice, mine, "basic", 3, [bobs, house], deals=2)
    match = challenge.match
    assert (match.variant, match.players, match.games, match.duplicate) == ("basic", 3, 6, True)
    assert match.ladder_id is None and match.tournament_id is None and not match.rated
    seats = [(s.seat, s.bot.name) for s in match.seats.order_by("seat")]
    assert seats == [(0, "mine"), (1, "bobs"), (2, "house-a")]
    assert challenge.version == mine.active_version and challenge.deals == 2


def test_it_refuses_a_bot_whose_owner_does_not_accept_challenges(
    alice: User, settings: Any
) -> None:
    settings.CHALLENGES_WAITING = 5
    mine, house, bobs, carols = field(alice)
    with pytest.raises(services.ChallengeRefused, match="carols's owner does not accept"):
        services.create_challenge(alice, mine, "basic", 2, [carols], deals=1)
    assert not Challenge.objects.exists() and not Match.objects.exists()
    # The house bots always accept; the owner's own bots too; carol may change her mind.
    ChallengeRefusal.objects.create(bot=house)
    services.create_challenge(alice, mine, "basic", 2, [house], deals=1)
    own = program_bot("mine-too", owner=alice)
    services.set_accepts_challenges(own, False)
    services.create_challenge(alice, mine, "basic", 2, [own], deals=1)
    services.set_accepts_challenges(carols, True)
    assert services.accepts_challenges(carols)
    services.create_challenge(alice, mine, "pro", 3, [carols, bobs], deals=1)


def test_it_refuses_what_cannot_be_played_with_the_reason(alice: User) -> None:
    mine, house, bobs, _ = field(alice)
    refusals = {
        "Unknown variant 'chess'": ("chess", 2, [house], 1),
        "classic is played by 2 to 10 players, not 11": ("classic", 11, [house], 1),
        "A game of 3 needs 2 opponents; 1 chosen": ("basic", 3, [house], 1),
        "Play at least one deal": ("basic", 2, [house], 0),
        "bobs is in the line-up twice": ("basic", 3, [bobs, bobs], 1),
        "mine is in the line-up twice": ("basic", 2, [mine], 1),
    }
    for message, (variant, players, opponents, deals) in refusals.items():
        with pytest.raises(services.ChallengeRefused, match=message):
            services.create_challenge(alice, mine, variant, players, opponents, deals)
    with pytest.raises(services.ChallengeRefused, match="only challenge with a bot of your own"):
        services.create_challenge(alice, bobs, "basic", 2, [house], 1)
    submission_services.retire(house)
    with pytest.raises(services.ChallengeRefused, match="house-a is retired"):
        services.create_challenge(alice, mine, "basic", 2, [house], 1)
    BotVersion.objects.filter(bot=bobs).update(code_root=BotVersion.REMOTE)
    with pytest.raises(services.ChallengeRefused, match="bobs plays from its owner's machine"):
        services.create_challenge(alice, mine, "basic", 2, [Bot.objects.get(pk=bobs.pk)], 1)
    BotVersion.objects.filter(bot=bobs).update(code_root=BotVersion.HOUSE)
    Bot.objects.filter(pk=bobs.pk).update(paused_at="2026-12-01T00:00:00Z")
    with pytest.raises(services.ChallengeRefused, match="bobs is paused"):
        services.create_challenge(alice, mine, "basic", 2, [bobs], 1)
    assert not Match.objects.exists()


def test_it_holds_each_limit_with_a_clear_message(alice: User, settings: Any) -> None:
    mine, house, bobs, _ = field(alice)
    settings.CHALLENGE_MAX_GAMES = 12
    with pytest.raises(services.ChallengeRefused, match="at most 12 games: 4 deals at 3 players"):
        services.create_challenge(alice, mine, "basic", 3, [house, bobs], deals=5)
    settings.CHALLENGES_WAITING = 2
    first = services.create_challenge(alice, mine, "basic", 3, [house, bobs], deals=4)
    services.create_challenge(alice, mine, "basic", 2, [house], deals=1)
    with pytest.raises(services.ChallengeLimit, match="2 challenges waiting or playing"):
        services.create_challenge(alice, mine, "basic", 2, [house], deals=1)
    finish(first.match, [[1], [2], [3]])  # one is over: room for another
    services.create_challenge(alice, mine, "basic", 2, [house], deals=1)
    settings.CHALLENGES_WAITING = 10
    settings.CHALLENGES_PER_HOUR = 3
    with pytest.raises(services.ChallengeLimit, match="3 challenges in the last hour"):
        services.create_challenge(alice, mine, "basic", 2, [house], deals=1)
    # Someone else's limits are their own.
    bob = User.objects.get(username="bob")
    services.create_challenge(bob, bobs, "basic", 2, [house], deals=1)
    # An hour later the old ones no longer count.
    Challenge.objects.filter(challenger=alice).update(created_at="2026-01-01T00:00:00Z")
    services.create_challenge(alice, mine, "basic", 2, [house], deals=1)


def test_its_match_goes_to_the_challenges_queue_through_the_one_match_task(
    alice: User, django_capture_on_commit_callbacks: Any
) -> None:
    mine, house, _, _ = field(alice)
    with (
        mock.patch.object(run_match, "apply_async") as sent,
        django_capture_on_commit_callbacks(execute=True),
    ):
        challenge = make_challenge(alice, mine, "basic", 2, [house], 1)
    sent.assert_called_once_with(kwargs={"match_pk": challenge.match_id}, queue=QUEUE)
    assert QUEUE == "challenges"


def test_the_edge_is_paired_per_deal_with_its_interval(alice: User, settings: Any) -> None:
    settings.CHALLENGES_WAITING = 5
    mine, house, bobs, _ = field(alice)
    challenge = services.create_challenge(alice, mine, "basic", 3, [house, bobs], deals=4)
    assert services.edges(challenge) == []  # not played yet
    # Totals over the three rotations of each deal (the board game: higher is better).
    finish(challenge.match, [[30, 36, 27, 33], [27, 30, 27, 27], [33, 39, 24, 36]])
    over_house, over_bob = services.edges(challenge)
    assert over_house.opponent == house and over_bob.opponent == bobs
    assert over_house.per_deal == (1.0, 2.0, 0.0, 2.0)  # (30 - 27) / 3 ...
    assert over_bob.per_deal == (-1.0, -1.0, 1.0, -1.0)
    assert over_house.comparison.mean_diff == pytest.approx(1.25)
    spread = statistics.stdev(over_house.per_deal) / math.sqrt(4)
    assert over_house.comparison.half_width == pytest.approx(1.96 * spread)
    # The card game counts penalty points: fewer is better, so the edge's sign turns.
    cards = services.create_challenge(alice, mine, "classic", 2, [house], deals=2)
    finish(cards.match, [[10, 4], [16, 8]])
    (edge,) = services.edges(cards)
    assert edge.per_deal == (3.0, 2.0)


def test_the_bot_page_has_the_switch_for_its_owner_only(alice: User, alice_client: Client) -> None:
    mine, _, bobs, carols = field(alice)
    switch = reverse("bot-accepts-challenges", args=[mine.uuid])
    page = alice_client.get(mine.get_absolute_url()).content.decode()
    assert "mine accepts challenges" in page and "Stop accepting challenges" in page
    response = alice_client.post(switch, {"accept": "0"})
    assert response.status_code == 302 and not services.accepts_challenges(mine)
    page = alice_client.get(mine.get_absolute_url()).content.decode()
    assert "mine's owner does not accept challenges" in page and "Accept challenges" in page
    assert alice_client.post(switch, {"accept": "maybe"}).status_code == 400
    # Nobody else can turn it: bob's bot is not alice's to switch.
    other = reverse("bot-accepts-challenges", args=[bobs.uuid])
    assert alice_client.post(other, {"accept": "0"}).status_code == 404
    assert services.accepts_challenges(bobs)
    bobs_page = alice_client.get(bobs.get_absolute_url()).content.decode()
    assert "Stop accepting" not in bobs_page
    assert f"{reverse('new-challenge')}?opponent={bobs.uuid}" in bobs_page
    carols_page = alice_client.get(carols.get_absolute_url()).content.decode()
    assert "?opponent=" not in carols_page


def test_the_form_makes_a_challenge_or_says_why_not(
    alice: User, alice_client: Client, settings: Any
) -> None:
    mine, house, bobs, carols = field(alice)
    new = reverse("new-challenge")
    form = {"bot": mine.pk, "variant": "basic", "players": 2, "opponents": [carols.pk], "deals": 2}
    refused = alice_client.post(new, form)
    assert refused.status_code == 400
    assert "carols&#x27;s owner does not accept challenges" in refused.content.decode()
    settings.CHALLENGE_MAX_GAMES = 3
    refused = alice_client.post(new, {**form, "opponents": [house.pk]})
    assert "at most 3 games: 1 deal at 2 players" in refused.content.decode()
    settings.CHALLENGE_MAX_GAMES = 60
    made = alice_client.post(new, {**form, "opponents": [house.pk]}, follow=True)
    challenge = Challenge.objects.get()
    assert made.redirect_chain[-1][0] == challenge.get_absolute_url()
    text = made.content.decode()
    assert "Challenge sent" in text and "queued" in text and "not rated" in text
    assert alice_client.get(f"{new}?opponent={bobs.uuid}").status_code == 200
    assert alice_client.get(f"{new}?opponent=nonsense").status_code == 200
    assert Client().get(new).status_code == 302  # to the log-in page
    listing = Client().get(reverse("challenge-list")).content.decode()
    assert challenge.get_absolute_url() in listing


# ---------------------------------------------------------------------------- the API


def _schema(path: str, method: str = "get", status: str = "200") -> dict[str, Any]:
    doc = openapi.document()
    answer = doc["paths"][path][method]["responses"][status]["content"]["application/json"]
    return {**answer["schema"], "components": doc["components"]}


def test_the_api_makes_challenges_with_a_token_and_refuses_with_the_reason(
    alice: User, settings: Any
) -> None:
    mine, house, bobs, carols = field(alice)
    client = Client()
    auth = {"Authorization": f"Bearer {make_token(alice)}"}
    url = reverse("api-challenges")
    body = {"bot": str(mine.uuid), "opponents": [str(house.uuid)], "deals": 2}
    assert client.post(url, body, content_type="application/json").status_code == 401
    refused = client.post(
        url,
        {**body, "opponents": [str(carols.uuid)]},
        content_type="application/json",
        headers=auth,
    )
    assert refused.status_code == 400
    assert refused.json() == {
        "error": "carols's owner does not accept challenges: choose another opponent."
    }
    for bad, why in (
        ({**body, "opponents": "x"}, "Give 'opponents': a list of bot ids."),
        ({**body, "deals": "two"}, "'deals' must be a whole number, not 'two'."),
        ({**body, "bot": "nope"}, "'bot' must be a bot's id (a UUID), not 'nope'."),
    ):
        answer = client.post(url, bad, content_type="application/json", headers=auth)
        assert (answer.status_code, answer.json()["error"]) == (400, why)
    made = client.post(url, body, content_type="application/json", headers=auth)
    assert made.status_code == 201
    jsonschema.validate(made.json(), _schema("/challenges/", "post", "201"))
    data = made.json()["challenge"]
    assert (data["status"], data["rated"], data["games"], data["edges"]) == (
        "queued",
        False,
        4,
        [],
    )
    # A form works too (opponents comma separated).
    form = {"bot": str(mine.uuid), "opponents": f"{house.uuid},{bobs.uuid}", "deals": "1"}
    assert client.post(url, form, headers=auth).status_code == 201
    settings.CHALLENGES_WAITING = 2
    limited = client.post(url, body, content_type="application/json", headers=auth)
    assert limited.status_code == 429 and "2 challenges waiting" in limited.json()["error"]
    challenge = Challenge.objects.get(uuid=data["id"])
    finish(challenge.match, [[40, 44], [37, 46]])
    one = client.get(reverse("api-challenge", args=[challenge.uuid]))
    jsonschema.validate(one.json(), _schema("/challenges/{challenge_id}/"))
    (edge,) = one.json()["challenge"]["edges"]
    assert edge["per_deal"] == [1.5, -1.0] and edge["edge"] == 0.25
    assert edge["opponent"]["name"] == "house-a"
    listed = client.get(url, {"challenger": "alice"})
    jsonschema.validate(listed.json(), _schema("/challenges/"))
    assert len(listed.json()["challenges"]) == 2
    assert client.get(url, {"challenger": "bob"}).json()["challenges"] == []


def test_the_api_switch_is_the_owners(alice: User) -> None:
    mine, _, bobs, _ = field(alice)
    client = Client()
    auth = {"Authorization": f"Bearer {make_token(alice)}"}
    url = reverse("api-bot-challenges", args=[mine.uuid])
    off = client.post(url, {"accept": False}, content_type="application/json", headers=auth)
    assert off.json()["accepts_challenges"] is False and not services.accepts_challenges(mine)
    jsonschema.validate(off.json(), _schema("/bots/{bot_id}/challenges/", "post"))
    assert client.post(url, {"accept": "yes"}, headers=auth).status_code == 400
    assert client.post(url, {"accept": "true"}, headers=auth).json()["accepts_challenges"]
    other = reverse("api-bot-challenges", args=[bobs.uuid])
    assert client.post(other, {"accept": "false"}, headers=auth).status_code == 403
    assert client.post(url, {"accept": "false"}).status_code == 401


# ---------------------------------------------------------------------------- for real


def test_a_worker_on_the_challenges_queue_plays_it_and_the_ladder_does_not_move(
    alice: User, worker_env: dict[str, str], tmp_path: Any
) -> None:
    mine, house, bobs, _ = field(alice)
    ladder = basic_ladder(players=3)
    engine_match([mine, house, bobs], ladder=ladder)  # ratings to watch
    before = list(Rating.objects.order_by("pk").values())
    # A worker that takes the challenges queue only: the match is there and nowhere else.
    worker = CeleryProcess.worker(worker_env, tmp_path / "w.log", queues="challenges")
    worker.start()
    try:
        challenge = make_challenge(alice, mine, "basic", 3, [house, bobs], 2)
        match = wait_for(
            "the challenge's match to be played",
            lambda: Match.objects.filter(pk=challenge.match_id, status=Match.FINISHED).first(),
            timeout=240,
        )
    finally:
        worker.kill()
    assert match.games == 6 and not match.rated
    seats = list(match.seats.order_by("seat"))
    assert all(len(s.deal_scores) == 2 for s in seats)
    edges = services.edges(Challenge.objects.get(pk=challenge.pk))
    assert [e.opponent.name for e in edges] == ["house-a", "bobs"]
    assert all(e.comparison.games == 2 for e in edges)
    assert list(Rating.objects.order_by("pk").values()) == before
    assert not match.rating_changes.exists()


def test_a_challenge_sent_again_goes_back_to_the_challenges_queue(
    alice: User, worker_env: dict[str, str], tmp_path: Any, settings: Any
) -> None:
    settings.CHALLENGES_WAITING = 5
    mine, house, bobs, _ = field(alice)
    # A league match whose message waits in the matches queue, which the worker below never
    # takes: the league's queue says nothing of the challenges' messages.
    league = queue_match(basic_ladder(players=2), [house, bobs])
    # One challenge whose message was lost (a broker restart), for the sweeper to find...
    lost = services.create_challenge(alice, mine, "basic", 2, [house], 1)
    Match.objects.filter(pk=lost.match_id).update(queued_at=timezone.now() - timedelta(minutes=1))
    # ...one the arena could not play (another attempt)...
    retried = services.create_challenge(alice, mine, "basic", 2, [bobs], 1)
    with mock.patch.object(bridge, "play_match", side_effect=bridge.ArenaError("no sandbox")):
        run_match(match_pk=retried.match_id)
    # ...and one that found the disk full (sent again after DISK_FULL_RETRY_SECONDS).
    full = services.create_challenge(alice, mine, "basic", 2, [house], 1)
    no_space = OSError(errno.ENOSPC, "No space left on device")
    with mock.patch.object(bridge, "play_match", side_effect=no_space):
        run_match(match_pk=full.match_id)
    assert Match.objects.get(pk=retried.match_id).attempts == 1
    assert Match.objects.get(pk=full.match_id).error == disks.REASON
    requeue_stale_work()
    assert (broker_backlog("challenges"), broker_backlog("matches")) == (3, 1)
    worker = CeleryProcess.worker(worker_env, tmp_path / "w.log", queues="challenges")
    worker.start()
    try:
        wait_for(
            "the three challenges' matches to be played",
            lambda: (
                Match.objects.filter(
                    pk__in=[lost.match_id, retried.match_id, full.match_id], status=Match.FINISHED
                ).count()
                == 3
            ),
            timeout=240,
        )
    finally:
        worker.kill()
    assert Match.objects.get(pk=league.pk).status == Match.QUEUED
    assert broker_backlog("matches") == 1


def test_two_requests_at_once_cannot_together_pass_a_limit(
    transactional_db: None, settings: Any
) -> None:
    alice = make_user("alice")
    mine, house, _, _ = field(alice)
    settings.CHALLENGES_WAITING = 1
    barrier = threading.Barrier(4)
    outcomes: list[str] = []

    def ask() -> None:
        try:
            barrier.wait(timeout=30)
            services.create_challenge(alice, mine, "basic", 2, [house], 1)
            outcomes.append("made")
        except services.ChallengeLimit:
            outcomes.append("limit")
        finally:
            connection.close()

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcomes) == ["limit", "limit", "limit", "made"]
    assert Challenge.objects.count() == 1
