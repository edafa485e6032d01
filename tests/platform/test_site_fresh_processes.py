"""No bot process is dealt a deal twice on the site: a duplicate ladder match, a version test's
pair and a duplicate tournament, played for real by the match task with a bot that logs every
deal its process is dealt (``tests/platform/bots/remembers_deals``); and the bots that could
remember across processes (remote bots) are kept out of duplicate play."""

import re
from collections import Counter, defaultdict
from typing import Any

import pytest
from accounts.models import User
from core import storage
from ladders.models import Ladder, Rating
from matches.models import Match
from matches.scheduler import create_match
from matches.tasks import rate_match, run_match
from nimmt_site_testing import basic_ladder, make_user, organiser, program_bot
from submissions.models import Bot, BotVersion
from tournaments import services as tournaments
from tournaments.models import Tournament
from versiontests import services as versiontests
from versiontests.models import VersionTest

pytestmark = pytest.mark.django_db

DEALT = re.compile(r"^DEALT (\w+) (\w+) (\w+)$", re.M)
REMEMBERS = "remembers_deals"


def dealt(match: Match) -> dict[str, dict[str, list[str]]]:
    """Per bot of the played ``match``, per process of it, the boards it was dealt; and no
    process saw a board twice."""
    assert match.status == Match.FINISHED, match.error
    found: dict[str, dict[str, list[str]]] = {}
    for seat in match.seats.select_related("bot"):
        with storage.open_file(f"{match.result_dir}/{seat.log_file}") as log:
            text = log.read().decode()
        assert "REPEAT" not in text, text
        per_process: dict[str, list[str]] = defaultdict(list)
        for process, board, _hand in DEALT.findall(text):
            per_process[process].append(board)
        for boards in per_process.values():
            assert len(boards) == len(set(boards)), text
        found[seat.bot.name] = dict(per_process)
    return found


def remote_bot(name: str, owner: User | None = None) -> Bot:
    """A bot whose active version plays from its owner's machine."""
    bot = Bot.objects.create(owner=owner or make_user(f"owner-{name}"), name=name)
    version = BotVersion.objects.create(
        bot=bot, number=1, status=BotVersion.PASSED, code_root=BotVersion.REMOTE
    )
    bot.active_version = version
    bot.save()
    return bot


@pytest.mark.django_db(transaction=True)  # the live feed writes from a thread of its own
def test_a_duplicate_ladder_match_starts_each_bot_afresh_for_each_rotation(settings: Any) -> None:
    settings.GAMES_PER_MATCH = 6  # two deals, three rotations each
    ladder = basic_ladder(3)
    bots = [program_bot(f"keen-{n}", REMEMBERS) for n in range(3)]
    match = create_match(ladder, bots, seed=11)
    assert (match.duplicate, match.games) == (True, 6)
    run_match(match_pk=match.pk)
    match.refresh_from_db()
    for name, per_process in dealt(match).items():
        assert len(per_process) == 3, name  # one process per rotation
        assert all(len(boards) == 2 for boards in per_process.values()), name
        seen = Counter(b for boards in per_process.values() for b in boards)
        assert sorted(seen.values()) == [3, 3], name  # each deal in each rotation
    # Points per deal and the ratings, as before.
    for seat in match.seats.all():
        assert len(seat.deal_scores) == 2 and sum(seat.deal_scores) == seat.score
    rate_match(match_pk=match.pk)
    assert Rating.objects.filter(ladder=ladder).count() == 3
    assert all(r.games > 0 for r in Rating.objects.filter(ladder=ladder))  # rated


@pytest.mark.django_db(transaction=True)  # the live feed writes from a thread of its own
def test_a_version_tests_matches_never_deal_a_process_a_deal_twice(settings: Any) -> None:
    settings.GAMES_PER_MATCH = 6
    alice = make_user("alice")
    ladder = Ladder.objects.create(slug="basic-3", name="Basic 3", variant="basic", players=3)
    for n in range(2):
        program_bot(f"rival-{n}", REMEMBERS)
    mine = program_bot("mine", REMEMBERS, owner=alice)
    candidate = BotVersion.objects.create(
        bot=mine, number=2, status=BotVersion.PASSED, code_root=BotVersion.HOUSE, code_dir=REMEMBERS
    )
    test = versiontests.request_test(candidate, alice, ladder)
    step = versiontests.advance(test.pk)
    assert len(step.matches) == 2
    processes: list[str] = []
    for pk in step.matches:
        run_match(match_pk=pk)
        for per_process in dealt(Match.objects.get(pk=pk)).values():
            assert len(per_process) == 3 and all(len(b) == 2 for b in per_process.values())
            processes.extend(per_process)
    assert len(processes) == len(set(processes)) == 2 * 3 * 3  # two matches, 3 bots x 3
    versiontests.advance(test.pk)
    test.refresh_from_db()
    assert test.deals == 2 and test.status in (VersionTest.RUNNING, VersionTest.WAITING)


@pytest.mark.django_db(transaction=True)  # the live feed writes from a thread of its own
def test_a_duplicate_tournament_deals_each_process_one_deal() -> None:
    olga = organiser()
    versions = []
    for n in range(3):
        version = program_bot(f"cup-{n}", REMEMBERS).active_version
        assert version is not None
        versions.append(version)
    tournament = tournaments.create(
        olga,
        name="Cup",
        variant="basic",
        players=2,
        format=Tournament.DUPLICATE,
        games_per_pairing=1,
        rounds=1,
        versions=versions,
        seed=3,
    )
    tournaments.start(tournament, olga)
    boards: dict[str, list[str]] = defaultdict(list)
    for match in Match.objects.filter(tournament=tournament):
        run_match(match_pk=match.pk)
        match.refresh_from_db()
        for name, per_process in dealt(match).items():
            assert len(per_process) == 1, name
            (process_boards,) = per_process.values()
            boards[name].extend(process_boards)
    # Each bot met every deal of its pairings in both seats, each time in another process.
    for name, seen in boards.items():
        assert sorted(Counter(seen).values()) == [2, 2], name


def test_a_ladder_match_with_a_remote_bot_is_not_duplicate(settings: Any) -> None:
    settings.GAMES_PER_MATCH = 8
    ladder = basic_ladder(4)
    hosted = [program_bot(f"h-{n}") for n in range(3)]
    assert create_match(ladder, [*hosted, program_bot("h-3")]).duplicate
    match = create_match(ladder, [*hosted, remote_bot("far")])
    assert (match.duplicate, match.games) == (False, 8)


def test_a_duplicate_tournament_refuses_a_remote_version() -> None:
    olga = organiser()
    entrants = [program_bot("a").active_version, remote_bot("far").active_version]
    options: dict[str, Any] = {
        "name": "Cup",
        "variant": "basic",
        "players": 2,
        "games_per_pairing": 1,
        "rounds": 1,
        "versions": entrants,
    }
    with pytest.raises(tournaments.TournamentError, match=r"\['far v1'\] cannot enter it"):
        tournaments.create(olga, format=Tournament.DUPLICATE, **options)
    assert Tournament.objects.count() == 0
    assert tournaments.create(olga, format=Tournament.ROUND_ROBIN, **options).pk


def test_a_version_test_refuses_a_remote_version_and_takes_no_remote_opponent() -> None:
    alice = make_user("alice")
    ladder = Ladder.objects.create(slug="basic-3", name="Basic 3", variant="basic", players=3)
    remote_bot("far")
    rivals = [program_bot(f"rival-{n}") for n in range(2)]
    mine = program_bot("mine", owner=alice)
    assert {v.bot_id for v in versiontests.typical_opponents(ladder, mine)} == {
        b.pk for b in rivals
    }
    far = remote_bot("far-own", owner=alice)
    hosted = BotVersion.objects.create(
        bot=far, number=2, status=BotVersion.PASSED, code_root=BotVersion.HOUSE, code_dir="quick"
    )
    with pytest.raises(versiontests.TestRefused, match="v1 plays from its owner's machine"):
        versiontests.request_test(hosted, alice, ladder)
