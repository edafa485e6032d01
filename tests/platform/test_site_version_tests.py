"""Version against version: a new version and the active one on the same duplicate deals, in
the same seats, against the ladder's typical opponents, until the SPRT decides or the cap; the
owner's page shows it, nobody else sees or starts it, and a real test ends with the right
verdict."""

import random
import threading
from typing import Any

import psycopg
import pytest
from accounts.models import User
from core.locks import lock_key
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from ladders.models import Ladder, Rating
from ladders.services import rate_ladder
from matches.models import Match, Seat
from matches.results import pause_faulty_bots
from nimmt_site_testing import (
    CeleryProcess,
    database_url,
    make_token,
    make_user,
    program_bot,
    random_bot_upload,
    wait_for,
)
from submissions import services as submission_services
from submissions.models import Bot, BotVersion
from versiontests import services
from versiontests.models import PairedMatch, VersionTest
from versiontests.tasks import ask_for_test

from arena.sprt import SprtSettings

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice() -> User:
    return make_user("alice")


@pytest.fixture
def alice_client(alice: User) -> Client:
    client = Client()
    client.force_login(alice)
    return client


def ladder(players: int = 3) -> Ladder:
    return Ladder.objects.create(
        slug=f"basic-{players}", name=f"Basic {players}", variant="basic", players=players
    )


def add_version(bot: Bot, folder: str, *, status: str = BotVersion.PASSED) -> BotVersion:
    number = bot.versions.count() + 1
    return BotVersion.objects.create(
        bot=bot, number=number, status=status, code_root=BotVersion.HOUSE, code_dir=folder
    )


def setup(owner: User, players: int = 3, opponents: int = 2) -> tuple[Ladder, Bot, BotVersion]:
    """A ladder, ``opponents`` house bots, and the owner's bot ``mine`` (v1 active) with a
    passed v2 to test."""
    board = ladder(players)
    for n in range(opponents):
        program_bot(f"rival-{n}")
    mine = program_bot("mine", owner=owner)
    return board, mine, add_version(mine, "one_move_rule")


def finish(match: Match, seat0: list[int], rng: random.Random) -> None:
    """Store ``match`` as played: seat 0's points per deal (totals over the rotations),
    the other seats some points of their own."""
    deals = len(seat0)
    for seat in match.seats.all():
        points = seat0 if seat.seat == 0 else [rng.randrange(20, 60) for _ in range(deals)]
        seat.deal_scores = points
        seat.score = sum(points)
        seat.rank = 1 + seat.seat
        seat.save()
    match.status = Match.FINISHED
    match.save()


def pair(test: VersionTest) -> tuple[Match, Match]:
    sides = {s.side: s.match for s in test.matches.filter(counted=False).select_related("match")}
    return sides[PairedMatch.CANDIDATE], sides[PairedMatch.BASELINE]


def play_pairs(test: VersionTest, edge: float, rng: random.Random, spread: float = 6.0) -> None:
    """Play ``test`` to its end: on each deal the candidate makes ``edge`` points per game
    more than the baseline (noise ``spread``; the board game's points, higher wins)."""
    while True:
        test.refresh_from_db()
        if test.is_over:
            return
        candidate, baseline = pair(test)
        games = candidate.players
        base = [rng.randrange(20, 60) for _ in range(candidate.games // games)]
        # Totals over ``games`` rotations: per game the difference is edge + noise.
        cand = [round(b + games * (edge + rng.gauss(0, spread))) for b in base]
        finish(candidate, cand, rng)
        finish(baseline, base, rng)
        services.advance(test.pk)


def test_it_picks_the_ladders_nearest_bots_as_opponents(alice: User) -> None:
    board, mine, _ = setup(alice, players=3, opponents=4)
    margins = {"rival-0": 9.0, "rival-1": 4.5, "rival-2": -3.0, "rival-3": 5.25, "mine": 5.0}
    for name, margin in margins.items():
        Rating.objects.create(ladder=board, bot=Bot.objects.get(name=name), margin=margin)
    chosen = services.typical_opponents(board, mine)
    assert [v.bot.name for v in chosen] == ["rival-3", "rival-1"]  # 0.25 and 0.5 away
    assert services.typical_opponents(board, mine) == chosen  # deterministic


def test_it_plays_both_versions_on_the_same_deals_in_the_same_seats(
    alice: User, settings: Any
) -> None:
    settings.GAMES_PER_MATCH = 6
    board, mine, v2 = setup(alice)
    test = services.request_test(v2, alice, board)
    assert test.baseline == mine.active_version and test.status == VersionTest.WAITING
    step = services.advance(test.pk)
    assert len(step.matches) == 2
    candidate, baseline = (Match.objects.get(pk=pk) for pk in step.matches)
    for match in (candidate, baseline):
        assert match.ladder_id is None and match.tournament_id is None  # never rated
        assert match.duplicate and match.games == 6 and match.players == 3  # 2 deals
    assert candidate.seed == baseline.seed
    lineups = [
        list(m.seats.order_by("seat").values_list("version_id", flat=True))
        for m in (candidate, baseline)
    ]
    assert lineups[0][0] == v2.pk and lineups[1][0] == mine.active_version_id
    assert lineups[0][1:] == lineups[1][1:]
    assert services.advance(test.pk) == services.Step()  # the pair is still in flight


def test_it_counts_a_pair_once_however_often_it_is_told(alice: User, settings: Any) -> None:
    settings.GAMES_PER_MATCH = 6
    board, _, v2 = setup(alice)
    test = services.request_test(v2, alice, board)
    services.advance(test.pk)
    candidate, baseline = pair(test)
    rng = random.Random(1)
    # Points: the candidate makes 3 and 9 more per deal over 3 games: +1, +3 per game.
    finish(candidate, [30, 39], rng)
    finish(baseline, [27, 30], rng)
    first = services.advance(test.pk)
    again = services.advance(test.pk)
    test.refresh_from_db()
    assert test.deals == 2 and test.evidence.mean == pytest.approx(2.0)
    assert len(test.history) == 1 and len(first.matches) == 2 and again == services.Step()
    assert test.matches.count() == 4
    # The next pair plays new deals.
    _, nxt = pair(test)
    assert nxt.seed == candidate.seed + 2


@pytest.mark.parametrize(("edge", "verdict"), [(6.0, "h1"), (-4.0, "h0")])
def test_it_stops_at_the_right_verdict(
    alice: User, settings: Any, edge: float, verdict: str
) -> None:
    settings.GAMES_PER_MATCH = 6
    board, _, v2 = setup(alice)
    test = services.request_test(v2, alice, board, SprtSettings(e0=0.0, e1=2.0))
    services.advance(test.pk)
    play_pairs(test, edge, random.Random(3))
    test.refresh_from_db()
    assert (test.status, test.verdict) == (VersionTest.FINISHED, verdict)
    bound = test.settings.upper if verdict == "h1" else test.settings.lower
    assert (test.llr >= bound) if verdict == "h1" else (test.llr <= bound)
    assert test.deals >= test.settings.min_deals
    assert not test.matches.filter(counted=False).exists()  # nothing more is played
    lo, hi = test.evidence.mean - test.evidence.ci95, test.evidence.mean + test.evidence.ci95
    assert lo < edge < hi or abs(test.evidence.mean - edge) < 3


def test_it_is_inconclusive_at_the_cap(alice: User, settings: Any) -> None:
    settings.GAMES_PER_MATCH = 6
    board, _, v2 = setup(alice)
    test = services.request_test(v2, alice, board, SprtSettings(e0=0.0, e1=20.0, cap=12))
    services.advance(test.pk)
    rng = random.Random(4)
    for _ in range(6):
        candidate, baseline = pair(test)
        # Edges of 14 and 6 points per game: exactly halfway between e0 and e1, LLR 0.
        finish(candidate, [60 + 3 * 14, 60 + 3 * 6], rng)
        finish(baseline, [60, 60], rng)
        services.advance(test.pk)
        test.refresh_from_db()
        assert test.llr == pytest.approx(0.0, abs=1e-9)
    assert (test.status, test.verdict, test.deals) == (VersionTest.FINISHED, "inconclusive", 12)
    assert not test.matches.filter(counted=False).exists()


def test_pairs_the_arena_could_not_play_teach_nothing_and_stop_the_test(
    alice: User, settings: Any
) -> None:
    board, _, v2 = setup(alice)
    test = services.request_test(v2, alice, board)
    services.advance(test.pk)
    for _ in range(services.MAX_FAILED_PAIRS):
        candidate, baseline = pair(test)
        Match.objects.filter(pk__in=[candidate.pk, baseline.pk]).update(status=Match.FAILED)
        services.advance(test.pk)
    test.refresh_from_db()
    assert test.status == VersionTest.STOPPED and test.deals == 0
    assert "could not be played" in test.error


def test_its_matches_are_never_rated(alice: User, settings: Any) -> None:
    board, mine, v2 = setup(alice)
    test = services.request_test(v2, alice, board)
    services.advance(test.pk)
    candidate, baseline = pair(test)
    rng = random.Random(2)
    finish(candidate, [10], rng)
    finish(baseline, [40], rng)
    services.advance(test.pk)
    rate_ladder(board.pk)
    assert not Rating.objects.filter(bot=mine).exists()
    assert not Match.objects.filter(pk__in=[candidate.pk, baseline.pk], rated=True).exists()


def test_a_candidates_faults_in_its_test_do_not_pause_the_bot_on_the_ladder(
    alice: User, settings: Any
) -> None:
    settings.FAULT_PAUSE_MATCHES = 3
    board, mine, v2 = setup(alice)
    test = services.request_test(v2, alice, board)
    services.advance(test.pk)
    rng = random.Random(4)
    for match in pair(test):
        finish(match, [30], rng)
    Match.objects.filter(version_test__isnull=False).update(finished_at=timezone.now())
    fault = [{"kind": "timeout", "detail": "too slow", "game": 1, "turn": 0}]
    Seat.objects.filter(match__version_test__isnull=False, bot=mine).update(faults=fault)
    # The active version faults in one ladder match: one of three in a row is no pause.
    ladder_match = Match.objects.create(
        ladder=board, variant="basic", players=3, seed=1, status=Match.FINISHED
    )
    assert mine.active_version is not None
    Seat.objects.create(
        match=ladder_match, seat=0, bot=mine, version=mine.active_version, faults=fault
    )
    Match.objects.filter(pk=ladder_match.pk).update(finished_at=timezone.now())
    assert pause_faulty_bots([mine.pk]) == []
    mine.refresh_from_db()
    assert mine.paused_at is None


def test_its_matches_are_listed_nowhere_and_open_for_the_owner_only(
    alice: User, settings: Any
) -> None:
    board, mine, v2 = setup(alice)
    rival = Bot.objects.get(name="rival-0")
    test = services.request_test(v2, alice, board)
    services.advance(test.pk)
    candidate, baseline = pair(test)
    rng = random.Random(6)
    finish(candidate, [50], rng)
    finish(baseline, [40], rng)
    Match.objects.filter(pk=candidate.pk).update(finished_at=candidate.created_at)
    hidden = [str(candidate.uuid), str(baseline.uuid)]
    pages = [
        reverse("match-list"),
        reverse("home"),
        reverse("api-matches"),
        rival.get_absolute_url(),
        mine.get_absolute_url(),
    ]
    owner = Client()
    owner.force_login(alice)
    for viewer in (Client(), owner):
        for page in pages:
            text = viewer.get(page).content.decode()
            assert not any(uuid in text for uuid in hidden), page
    # By its address it opens for the owner only.
    bob = Client()
    bob.force_login(make_user("bob"))
    addresses = [
        reverse("match", args=[candidate.uuid]),
        reverse("match-game", args=[candidate.uuid, 1]),
        reverse("match-replay", args=[candidate.uuid, 1]),
        reverse("match-frames", args=[candidate.uuid, 1]),
        reverse("match-log", args=[candidate.uuid, 1]),
        reverse("match-live", args=[candidate.uuid]),
        reverse("match-live-events", args=[candidate.uuid]),
        reverse("match-analysis", args=[candidate.uuid, 1, 0]),
        reverse("api-match", args=[candidate.uuid]),
        reverse("api-match-replay", args=[candidate.uuid, 1]),
        reverse("api-match-frames", args=[candidate.uuid, 1]),
    ]
    for address in addresses:
        for viewer in (Client(), bob):
            assert viewer.get(address).status_code == 404, address
    ask = reverse("match-analysis-request", args=[candidate.uuid, 1])
    assert bob.post(ask, {"seat": "0"}).status_code == 404
    bobs_token = {"Authorization": f"Bearer {make_token(User.objects.get(username='bob'))}"}
    assert (
        Client().get(reverse("api-match", args=[candidate.uuid]), headers=bobs_token).status_code
        == 404
    )
    assert owner.get(reverse("match", args=[candidate.uuid])).status_code == 200
    assert owner.get(reverse("api-match", args=[candidate.uuid])).status_code == 200
    # The owner's API token opens them as the owner's session does.
    token = {"Authorization": f"Bearer {make_token(alice)}"}
    assert (
        Client().get(reverse("api-match", args=[candidate.uuid]), headers=token).status_code == 200
    )


def test_it_waits_for_a_candidate_that_passes_and_for_a_free_slot(
    alice: User, settings: Any
) -> None:
    settings.VERSION_TESTS_AT_ONCE = 1
    board, mine, v2 = setup(alice)
    first = services.request_test(v2, alice, board)
    services.advance(first.pk)
    bob = make_user("bob")
    theirs = program_bot("theirs", owner=bob)
    pending = add_version(theirs, "one_move_rule", status=BotVersion.PENDING)
    second = services.request_test(pending, bob, board)
    assert services.advance(second.pk) == services.Step()  # still being checked
    BotVersion.objects.filter(pk=pending.pk).update(status=BotVersion.PASSED)
    assert services.advance(second.pk) == services.Step()  # no free slot
    assert services.next_waiting() == second.pk
    VersionTest.objects.filter(pk=first.pk).update(status=VersionTest.STOPPED)
    assert len(services.advance(second.pk).matches) == 2
    failed = add_version(mine, "one_move_rule", status=BotVersion.PENDING)
    third = services.request_test(failed, alice, board)
    BotVersion.objects.filter(pk=failed.pk).update(status=BotVersion.FAILED)
    assert services.advance(third.pk).ended
    third.refresh_from_db()
    assert third.status == VersionTest.STOPPED and "did not pass" in third.error


@pytest.mark.django_db(transaction=True)
def test_tests_start_one_at_a_time(alice: User) -> None:
    board, _, v2 = setup(alice)
    test = services.request_test(v2, alice, board)
    steps: list[services.Step] = []

    def start() -> None:
        try:
            steps.append(services.advance(test.pk))
        finally:
            connection.close()  # this thread's own connection

    with psycopg.connect(database_url(), autocommit=True) as other:
        other.execute("SELECT pg_advisory_lock(%s)", [lock_key(services.SLOTS)])
        starting = threading.Thread(target=start)
        starting.start()
        starting.join(1.0)
        assert starting.is_alive() and not steps  # it waits for the slots' lock
        other.execute("SELECT pg_advisory_unlock(%s)", [lock_key(services.SLOTS)])
        starting.join(10)
    assert len(steps[0].matches) == 2


def test_it_refuses_what_cannot_be_tested(alice: User) -> None:
    board, mine, v2 = setup(alice)
    with pytest.raises(services.TestRefused, match="owner"):
        services.request_test(v2, make_user("mallory"), board)
    assert mine.active_version is not None
    with pytest.raises(services.TestRefused, match="active version already"):
        services.request_test(mine.active_version, alice, board)
    services.request_test(v2, alice, board)
    with pytest.raises(services.TestRefused, match="under way"):
        services.request_test(v2, alice, board)
    lonely = ladder(players=5)
    v3 = add_version(mine, "one_move_rule")
    test = services.request_test(v3, alice, lonely)
    v4 = add_version(mine, "one_move_rule")
    with pytest.raises(services.TestRefused, match="2 tests under way"):
        services.request_test(v4, alice, board)
    assert services.advance(test.pk).ended
    test.refresh_from_db()
    assert "needs 4 other playing bots" in test.error
    assert services.request_test(v4, alice, board).status == VersionTest.WAITING


def test_only_the_owner_sees_and_starts_a_test(alice: User, alice_client: Client) -> None:
    board, mine, v2 = setup(alice)
    page = reverse("bot-version", args=[mine.uuid, v2.uuid])
    start = reverse("version-test", args=[mine.uuid, v2.uuid])
    form = {"ladder": board.pk, "e0": 0, "e1": 2, "alpha": 0.05, "beta": 0.05, "cap": 100}
    bob = Client()
    bob.force_login(make_user("bob"))
    assert bob.post(start, form).status_code == 403
    assert Client().post(start, form).status_code == 302  # to the log-in page
    assert not VersionTest.objects.exists()
    response = alice_client.post(start, form, follow=True)
    assert "Test of v2 asked for" in response.content.decode()
    test = VersionTest.objects.get()
    assert (test.e1, test.cap, test.requested_by) == (2.0, 100, alice)
    services.advance(test.pk)
    candidate, baseline = pair(test)
    rng = random.Random(5)
    finish(candidate, [12], rng)
    finish(baseline, [30], rng)
    services.advance(test.pk)
    mine_page = alice_client.get(page).content.decode()
    assert "Against the active version" in mine_page and "Log-likelihood ratio" in mine_page
    assert "bounds -2.944 (H0) and 2.944 (H1)" in mine_page
    assert "Test against the active version</button>" not in mine_page  # one is under way
    for viewer in (bob, Client()):
        other = viewer.get(page).content.decode()
        assert "Against the active version" not in other and "Log-likelihood" not in other
    play_pairs(test, 8.0, rng)
    test.refresh_from_db()
    done = alice_client.get(page).content.decode()
    assert "better: H1 accepted" in done and '<svg class="chart"' in done
    assert f'<td class="deals">{test.deals}</td>' in done
    assert f'<td class="llr">{test.llr:.3f}</td>' in done
    low, high = test.evidence.mean - test.evidence.ci95, test.evidence.mean + test.evidence.ci95
    assert f"95% interval {low:.2f} to {high:.2f}" in done
    assert "Test against the active version</button>" in done  # over: it may be asked again


def test_a_bot_retired_during_the_test_plays_no_more_of_its_matches(alice: User) -> None:
    board, mine, v2 = setup(alice)
    test = services.request_test(v2, alice, board)
    services.advance(test.pk)
    rng = random.Random(3)
    candidate, baseline = pair(test)
    rival = Bot.objects.get(name="rival-1")
    submission_services.retire(rival)  # its owner stops it for good
    finish(candidate, [50], rng)
    finish(baseline, [40], rng)
    assert services.advance(test.pk) == services.Step(ended=True)
    test.refresh_from_db()
    assert (
        test.status == VersionTest.STOPPED and test.error == "rival-1 was retired during the test."
    )
    assert test.deals == 1 and test.matches.count() == 2  # the pair played counts, no new one
    # Retired while its test waited for a slot: the test stops before it plays.
    waiting = services.request_test(add_version(mine, "one_move_rule"), alice, board)
    submission_services.retire(mine)
    assert services.advance(waiting.pk) == services.Step(ended=True)
    waiting.refresh_from_db()
    assert waiting.status == VersionTest.STOPPED and "mine was retired" in waiting.error
    assert not waiting.matches.exists()


def test_it_refuses_unusable_settings_with_a_message(alice: User, alice_client: Client) -> None:
    board, mine, v2 = setup(alice)
    start = reverse("version-test", args=[mine.uuid, v2.uuid])
    form = {"ladder": board.pk, "e0": 3, "e1": 1, "alpha": 0.05, "beta": 0.05, "cap": 100}
    response = alice_client.post(start, form, follow=True)
    assert "e1 must be greater than e0" in response.content.decode()
    response = alice_client.post(start, {**form, "e0": 0, "alpha": 0.9}, follow=True)
    assert "The test was not started" in response.content.decode()
    for absurd in ({"e0": "nan"}, {"e1": "inf"}, {"alpha": 1}, {"beta": 0}, {"cap": 10**9}):
        response = alice_client.post(start, {**form, "e0": 0, **absurd}, follow=True)
        assert "The test was not started" in response.content.decode(), absurd
    assert not VersionTest.objects.exists()


def test_an_upload_asking_for_a_test_is_tested_not_made_active(
    alice: User, alice_client: Client
) -> None:
    board, mine, _ = setup(alice)
    upload = random_bot_upload("mine")
    response = alice_client.post(
        reverse("upload-version", args=[mine.uuid]),
        {"file": upload, "activate": "on", "test": "on"},
        follow=True,
    )
    assert "starts once it passes" in response.content.decode()
    version = mine.versions.get(number=3)
    assert not version.activate_when_passed
    test = VersionTest.objects.get(candidate=version)
    assert test.ladder == board and test.status == VersionTest.WAITING


@pytest.mark.slow
def test_a_real_test_finds_the_one_move_rule_better_than_random(
    alice: User, worker_env: dict[str, str], tmp_path: Any, settings: Any
) -> None:
    board, mine, v2 = setup(alice, players=2, opponents=1)
    # 5 deals per match (10 games, both seat rotations of each deal).
    worker = CeleryProcess.worker({**worker_env, "NIMMT_GAMES_PER_MATCH": "10"}, tmp_path / "w.log")
    worker.start()
    try:
        with transaction.atomic():
            # H1: better by 10 points per game or more (the one-move rule is about 17 better
            # than random at two players); loose error rates keep it to a few pairs.
            loose = SprtSettings(e0=5.0, e1=10.0, alpha=0.1, beta=0.1, cap=60)
            test = ask_for_test(v2, alice, board, loose)
        done = wait_for(
            "the version test's verdict",
            lambda: VersionTest.objects.filter(pk=test.pk, status=VersionTest.FINISHED).first(),
            timeout=240,
        )
    finally:
        worker.kill()
    assert done.verdict == "h1", (done.deals, done.llr, done.history, worker.output())
    assert done.llr >= done.settings.upper and done.evidence.mean > 5.0
    played = Match.objects.filter(version_test__test=done)
    assert played.count() % 2 == 0 and all(m.status == Match.FINISHED for m in played)
    assert not played.filter(rated=True).exists() and not Rating.objects.filter(bot=mine).exists()
