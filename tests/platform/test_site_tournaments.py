"""Tournaments: who may run them, the games each format plans, Swiss rounds, standings with
intervals, the crosstable, and a tournament played to the end by a real worker."""

import itertools
import math
import re
from collections import Counter
from typing import Any

import pytest
from accounts.models import User
from django.test import Client
from django.urls import reverse
from ladders.models import RatingChange
from matches.models import Match
from nimmt_site_testing import (
    CeleryProcess,
    make_user,
    organiser,
    play_in_process,
    program_bot,
    wait_for,
)
from submissions.models import Bot, BotVersion
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def versions(count: int, prefix: str = "t") -> list[BotVersion]:
    found = []
    for n in range(count):
        bot = program_bot(f"{prefix}-{n}")
        assert bot.active_version is not None
        found.append(bot.active_version)
    return found


def make(
    user: User, entrants: list[BotVersion], *, fmt: str = Tournament.ROUND_ROBIN, **kw: Any
) -> Tournament:
    options: dict[str, Any] = {
        "name": "Cup",
        "variant": "basic",
        "players": 2,
        "format": fmt,
        "games_per_pairing": 1,
        "rounds": 1,
        "seed": 7,
    }
    options.update(kw)
    return services.create(user, versions=entrants, **options)


def finish_round(tournament: Tournament) -> None:
    for match in Match.objects.filter(tournament=tournament, status=Match.QUEUED):
        play_in_process(match)
    services.advance(tournament.pk)
    tournament.refresh_from_db()


# ---------------------------------------------------------------------------- who


def test_only_organisers_may_create_or_start_tournaments(client: Client) -> None:
    url = reverse("tournament-new")
    assert client.get(url).status_code == 302  # to the log-in page
    client.force_login(make_user("bob"))
    assert client.get(url).status_code == 403
    assert "New tournament" not in client.get(reverse("tournament-list")).content.decode()
    client.force_login(organiser("olga"))
    assert client.get(url).status_code == 200
    client.force_login(User.objects.create_user("sam", is_staff=True))
    assert client.get(url).status_code == 200


def test_a_draft_is_hidden_from_everyone_but_organisers(client: Client) -> None:
    olga = organiser()
    tournament = make(olga, versions(2))
    assert client.get(tournament.get_absolute_url()).status_code == 404
    client.force_login(make_user("bob"))
    assert client.get(tournament.get_absolute_url()).status_code == 404
    response = client.post(reverse("tournament-start", args=[tournament.uuid]))
    assert response.status_code == 403
    client.force_login(olga)
    assert "Start the tournament" in client.get(tournament.get_absolute_url()).content.decode()


def test_an_organiser_creates_a_tournament_with_the_form(client: Client) -> None:
    entrants = versions(4)
    retired = program_bot("gone")
    Bot.objects.filter(pk=retired.pk).update(retired_at="2020-01-01T00:00:00Z")
    client.force_login(organiser())
    form = client.get(reverse("tournament-new")).content.decode()
    assert "t-0 v1" in form and "gone" not in form
    data = {
        "name": "Spring cup",
        "variant": "basic",
        "players": 2,
        "format": Tournament.DUPLICATE,
        "games_per_pairing": 2,
        "rounds": "",
        "entrants": [str(v.pk) for v in entrants],
    }
    response = client.post(reverse("tournament-new"), data)
    assert response.status_code == 302, response.content.decode()
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.DRAFT and tournament.name == "Spring cup"
    assert sorted(e.version_id for e in tournament.entrants.all()) == sorted(v.pk for v in entrants)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "Start the tournament (24 games)" in page  # 6 tables x 2 deals x 2 seat orders


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"players": 7}, "basic is played by 2 to 6 bots"),
        ({"format": "swiss", "rounds": ""}, "needs a number of rounds"),
        ({"entrants": []}, "This field is required"),
    ],
)
def test_the_form_refuses_what_cannot_be_played(
    client: Client, change: dict[str, Any], error: str
) -> None:
    entrants = versions(3)
    client.force_login(organiser())
    data = {
        "name": "Cup",
        "variant": "basic",
        "players": 2,
        "format": Tournament.ROUND_ROBIN,
        "games_per_pairing": 1,
        "rounds": 1,
        "entrants": [str(v.pk) for v in entrants],
        **change,
    }
    response = client.post(reverse("tournament-new"), data)
    assert response.status_code == 400
    assert error in response.content.decode()
    assert not Tournament.objects.exists()


def test_it_refuses_a_tournament_too_big_or_with_too_few_entrants(settings: Any) -> None:
    olga = organiser()
    with pytest.raises(services.TournamentError, match="cannot fill a table of 3"):
        make(olga, versions(2), players=3)
    settings.TOURNAMENT_MAX_GAMES = 10
    with pytest.raises(services.TournamentError, match="would play 15 games"):
        make(olga, versions(6, "big"), games_per_pairing=1)
    failed = versions(1, "bad")[0]
    BotVersion.objects.filter(pk=failed.pk).update(status=BotVersion.FAILED)
    failed.refresh_from_db()
    with pytest.raises(services.TournamentError, match="passed validation"):
        make(olga, [*versions(2, "ok"), failed])


# ---------------------------------------------------------------------------- formats


def lineups(tournament: Tournament) -> list[tuple[int, tuple[str, ...]]]:
    return [
        (m.seed, tuple(s.bot.name for s in m.seats.select_related("bot").order_by("seat")))
        for m in Match.objects.filter(tournament=tournament).order_by("id")
    ]


def test_a_round_robin_queues_every_table_with_rotating_seats(
    django_capture_on_commit_callbacks: Any,
) -> None:
    olga = organiser()
    tournament = make(olga, versions(4), players=3, games_per_pairing=3)
    with django_capture_on_commit_callbacks() as sent:
        services.start(tournament, olga)
    games = lineups(tournament)
    assert len(games) == len(sent) == math.comb(4, 3) * 3
    assert len({seed for seed, _ in games}) == len(games)  # a deal per game
    for table in itertools.combinations(sorted({n for _, lu in games for n in lu}), 3):
        seatings = [lu for _, lu in games if sorted(lu) == list(table)]
        assert len(seatings) == 3
        assert {lu[0] for lu in seatings} == set(table)  # every entrant once in seat 0
    for match in Match.objects.filter(tournament=tournament):
        assert match.ladder_id is None and match.games == 1 and match.status == Match.QUEUED


def test_duplicate_replays_each_deal_with_the_seats_rotated() -> None:
    olga = organiser()
    tournament = make(olga, versions(3), fmt=Tournament.DUPLICATE, players=2, games_per_pairing=2)
    services.start(tournament, olga)
    games = lineups(tournament)
    assert len(games) == 3 * 2 * 2
    by_deal: dict[int, list[tuple[str, ...]]] = {}
    for seed, lineup in games:
        by_deal.setdefault(seed, []).append(lineup)
    assert len(by_deal) == 6
    for seatings in by_deal.values():
        assert len(seatings) == 2 and seatings[0] == tuple(reversed(seatings[1]))


def test_swiss_pairs_round_by_round_without_rematches_and_rotates_the_bye() -> None:
    olga = organiser()
    tournament = make(olga, versions(5), fmt=Tournament.SWISS, players=2, rounds=3)
    services.start(tournament, olga)
    met: Counter[frozenset[str]] = Counter()
    sat_out: list[str] = []
    names = {f"t-{n}" for n in range(5)}
    for round_number in (1, 2, 3):
        assert tournament.current_round == round_number
        current = [lu for _, lu in lineups(tournament)][-2:]
        assert Match.objects.filter(tournament=tournament, round=round_number).count() == 2
        for lineup in current:
            met[frozenset(lineup)] += 1
        (out,) = names - {n for lu in current for n in lu}
        sat_out.append(out)
        finish_round(tournament)
    assert tournament.status == Tournament.FINISHED
    assert max(met.values()) == 1  # nobody met twice
    assert len(set(sat_out)) == 3  # a different bye each round
    report = services.build_report(tournament)
    byes = {report.labels[e]: n for e, n in report.byes.items()}
    assert byes == dict.fromkeys(sat_out, 1)
    for standing in report.standings:
        assert standing.possible == 3.0  # 2 games and a bye, or 3 games


# ---------------------------------------------------------------------------- results


@pytest.fixture
def finished() -> Tournament:
    olga = organiser()
    tournament = make(olga, versions(3), players=3, games_per_pairing=6, variant="classic")
    services.start(tournament, olga)
    finish_round(tournament)
    return tournament


def test_standings_have_points_intervals_and_the_crosstable(
    client: Client, finished: Tournament
) -> None:
    assert finished.status == Tournament.FINISHED
    report = services.build_report(finished)
    assert report.progress.done == report.progress.planned == 6
    assert sum(s.points for s in report.standings) == 6 * 3  # three pairs per game
    penalties = [s.score.mean for s in report.standings if s.score]
    points = [s.points for s in report.standings]
    assert points == sorted(points, reverse=True)
    assert all(s.games == 6 and s.score and s.score.has_interval for s in report.standings)
    assert len(penalties) == 3
    page = client.get(finished.get_absolute_url()).content.decode()
    for name in ("t-0", "t-1", "t-2"):
        assert name in page
    assert 'id="standings"' in page and 'id="crosstable"' in page and 'id="significance"' in page
    assert "±" in page and "LOS" in page
    assert "lower is better" in page  # the card game's penalty
    cells = re.findall(r"(\d+)–(\d+)–(\d+)<span", page)
    assert len(cells) == 6 and all(sum(map(int, c)) == 6 for c in cells)
    assert "tournaments/live.js" not in page  # over: no polling
    listed = client.get(reverse("tournament-list")).content.decode()
    assert finished.name in listed and "Finished" in listed


def test_tournament_games_are_not_rated_and_tell_the_tournament_when_done(
    django_capture_on_commit_callbacks: Any,
) -> None:
    from matches.tasks import match_is_over

    olga = organiser()
    tournament = make(olga, versions(2))
    services.start(tournament, olga)
    match = Match.objects.get(tournament=tournament)
    with django_capture_on_commit_callbacks() as sent:
        match_is_over(match, stored=True)  # what run_match does once the game is stored
    assert len(sent) == 2  # the tournament's advance, and the recording of its pairs (matchups)
    play_in_process(match)
    assert services.advance(tournament.pk) == "finished"
    assert not RatingChange.objects.exists()
    assert services.advance(tournament.pk) == "idle"


def test_the_live_fragment_says_how_far_it_got(client: Client) -> None:
    olga = organiser()
    tournament = make(olga, versions(3))
    services.start(tournament, olga)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "tournaments/live.js" in page
    live = client.get(reverse("tournament-live", args=[tournament.uuid]))
    assert live["X-Tournament-Status"] == "running"
    assert "0 of 3 games done" in live.content.decode()
    play_in_process(Match.objects.filter(tournament=tournament).first())  # type: ignore[arg-type]
    again = client.get(reverse("tournament-live", args=[tournament.uuid])).content.decode()
    assert "1 of 3 games done" in again


def test_an_organiser_cancels_a_running_tournament(client: Client) -> None:
    olga = organiser()
    tournament = make(olga, versions(3))
    services.start(tournament, olga)
    client.force_login(olga)
    asked = client.post(reverse("tournament-cancel", args=[tournament.uuid]))
    assert b"Yes, cancel the tournament" in asked.content
    tournament.refresh_from_db()
    assert tournament.status == Tournament.RUNNING  # not without the "yes"
    client.post(reverse("tournament-cancel", args=[tournament.uuid]), {"confirm": "yes"})
    tournament.refresh_from_db()
    assert tournament.status == Tournament.CANCELLED
    assert set(Match.objects.filter(tournament=tournament).values_list("status", flat=True)) == {
        Match.FAILED
    }
    assert client.get(tournament.get_absolute_url()).status_code == 200


# ---------------------------------------------------------------------------- a real worker


@pytest.mark.django_db(transaction=True)
def test_a_worker_plays_a_tournament_where_one_bot_enters_twice(
    client: Client, celery_worker: CeleryProcess
) -> None:
    olga = organiser()
    twice = program_bot("twice")
    second = BotVersion.objects.create(
        bot=twice, number=2, status=BotVersion.PASSED, code_root=BotVersion.HOUSE, code_dir="quick"
    )
    entrants = [*versions(1, "solo"), twice.versions.get(number=1), second]
    tournament = make(olga, entrants)
    services.start(tournament, olga)
    try:
        wait_for(
            "the tournament to finish",
            lambda: Tournament.objects.filter(
                pk=tournament.pk, status=Tournament.FINISHED
            ).exists(),
            timeout=180,
        )
    except AssertionError:
        print(list(Match.objects.values_list("status", "error", "attempts")))
        print(celery_worker.output()[-6000:])
        raise
    report = services.build_report(tournament)
    assert report.progress.finished == 3, celery_worker.output()[-3000:]
    assert sorted(report.labels.values()) == ["solo-0", "twice v1", "twice v2"]
    assert [s.games for s in report.standings] == [2, 2, 2]
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "twice" in page and "finished" in page
