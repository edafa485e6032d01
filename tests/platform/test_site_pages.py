"""The site's pages with the Django test client on PostgreSQL: what each page shows, its
filters and pages, bounded queries, and privacy: no page shows another user's logs,
validation output, fault details or pause reason."""

import datetime as dt
import gzip
import json
import re
import uuid
from pathlib import Path
from typing import Any

import matches.views
import pytest
from accounts.models import User
from django.conf import settings
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from ladders.models import Ladder, Rating
from matches.listing import Listing
from matches.models import Match, Seat
from nimmt_site_testing import basic_ladder, engine_match, make_user, program_bot
from submissions.models import Bot, BotVersion

from arena.bots.heuristic import HeuristicBot
from arena.bots.random import RandomBot
from arena.engine.replay import read as read_replay
from arena.engine.replay import simulate

pytestmark = pytest.mark.django_db

SECRETS = (
    "ALICE-SECRET-LOG",
    "ALICE-SECRET-VALIDATION",
    "ALICE-SECRET-FAULT",
    "ALICE-SECRET-PAUSE",
)


class Site:
    """Alice's bot on a ladder with house bots; bob owns another bot."""

    def __init__(self) -> None:
        self.alice = make_user("alice")
        self.bob = make_user("bob")
        self.ladder = basic_ladder(players=4)
        self.alice_bot = program_bot("alice-bot", owner=self.alice)
        self.bob_bot = program_bot("bob-bot", owner=self.bob)
        self.house = [program_bot("house-a"), program_bot("house-b")]
        BotVersion.objects.create(
            bot=self.alice_bot,
            number=2,
            status=BotVersion.FAILED,
            validation_log="FAILED: ALICE-SECRET-VALIDATION",
        )
        BotVersion.objects.filter(bot=self.alice_bot, number=1).update(
            validation_log="PASSED: ALICE-SECRET-VALIDATION too"
        )
        lineup = [self.alice_bot, self.bob_bot, *self.house]
        start = timezone.now() - dt.timedelta(hours=3)
        self.matches: list[Match] = []
        for n in range(12):
            seats = lineup[n % 4 :] + lineup[: n % 4]
            engines = [HeuristicBot() if b == self.alice_bot else RandomBot() for b in seats]
            alice_seat = seats.index(self.alice_bot)
            faults = {}
            if n == 3:
                faults[alice_seat] = [
                    {
                        "seat": alice_seat,
                        "kind": "crash",
                        "turn": 4,
                        "game": 1,
                        "detail": "exited: ALICE-SECRET-FAULT",
                    }
                ]
            self.matches.append(
                engine_match(
                    seats,
                    ladder=self.ladder,
                    seed=100 + n,
                    players=engines,
                    created_at=start + dt.timedelta(minutes=10 * n),
                    logs={alice_seat: "thinking... ALICE-SECRET-LOG\n"},
                    faults=faults,
                )
            )
        Bot.objects.filter(pk=self.alice_bot.pk).update(
            paused_at=timezone.now(), pause_reason="Paused: ALICE-SECRET-PAUSE"
        )
        self.alice_bot.refresh_from_db()


@pytest.fixture
def site() -> Site:
    return Site()


def text(response: Any) -> str:
    assert response.status_code == 200, response.status_code
    return body(response)


def body(response: Any) -> str:
    if response.streaming:
        return b"".join(response.streaming_content).decode()
    return str(response.content.decode())


# ---------------------------------------------------------------------------- home and ladder


def test_it_shows_top_bots_latest_and_running_matches_on_the_home_page(
    client: Client, site: Site
) -> None:
    running = engine_match([site.bob_bot, *site.house, site.alice_bot], ladder=site.ladder)
    Match.objects.filter(pk=running.pk).update(status=Match.RUNNING, started_at=timezone.now())
    page = text(client.get(reverse("home")))
    assert "Basic 4" in page
    assert "Playing now" in page and "1 running" in page
    assert "Latest results" in page
    assert site.matches[-1].get_absolute_url() in page
    assert page.count('class="spark') == 3  # a trend per bot still playing (alice's is paused)
    for bot in [site.alice_bot, site.bob_bot, *site.house]:
        assert bot.name in page


def test_the_ladder_table_shows_elo_uncertainty_games_and_trend(client: Client, site: Site) -> None:
    page = text(client.get(site.ladder.get_absolute_url()))
    table = page[page.index('id="standings"') :]
    rows = re.findall(r'<td class="num rank">(\d+)</td>', table[: table.index("</table>")])
    assert rows == ["1", "2", "3", "4"]
    assert "±" in table and "<polyline" in table
    for rating in Rating.objects.filter(ladder=site.ladder):
        assert f">{rating.games}<" in table
    assert "alice" in table  # owners are listed
    assert "paused" in table  # alice's bot is paused: listed after those playing


def test_the_ladder_table_is_paged_and_its_queries_are_bounded(
    client: Client, django_assert_max_num_queries: Any
) -> None:
    ladder = basic_ladder(players=4)
    owner = make_user("many")
    for n in range(120):
        bot = program_bot(f"bot-{n:03d}", owner=owner)
        Rating.objects.create(ladder=ladder, bot=bot, elo=1000 + n, margin=n, games=5)
    with django_assert_max_num_queries(8):
        first = text(client.get(ladder.get_absolute_url()))
    assert "bot-119" in first and "bot-070" in first and "bot-069" not in first
    assert "Page 1 of 3" in first
    last = text(client.get(ladder.get_absolute_url(), {"page": 3}))
    assert "bot-000" in last and '<td class="num rank">120</td>' in last
    assert text(client.get(ladder.get_absolute_url(), {"page": "x"}))  # a bad page: page 1


# ---------------------------------------------------------------------------- bot page


def test_the_bot_page_shows_history_rivals_games_and_faults(
    client: Client, site: Site, django_assert_max_num_queries: Any
) -> None:
    with django_assert_max_num_queries(15):
        page = text(client.get(site.alice_bot.get_absolute_url()))
    assert 'class="chart"' in page and "<polygon" in page  # Elo with its band
    rivals = page[page.index('id="head-to-head"') :]
    rivals = rivals[: rivals.index("</table>")]
    for name in ("bob-bot", "house-a", "house-b"):
        assert name in rivals
    assert "12–" in rivals or "–12" in rivals or ">12<" in rivals  # 12 shared games each
    assert "%" in rivals  # LOS
    assert "crash" in page and "game 1, turn 5" in page
    assert "v1" in page and "v2" not in page  # the failed version is the owner's business
    assert "Upload a new version" not in page


def test_the_head_to_head_numbers_follow_the_shared_games(client: Client, site: Site) -> None:
    from ladders.services import head_to_head

    rows = {r.opponent.name: r for r in head_to_head(site.alice_bot.pk)}
    assert set(rows) == {"bob-bot", "house-a", "house-b"}
    diffs = []
    for match in site.matches:
        seats = {s.bot.name: s for s in match.seats.select_related("bot")}
        mine, theirs = seats["alice-bot"].score, seats["bob-bot"].score
        assert mine is not None and theirs is not None
        diffs.append(mine - theirs)
    bob = rows["bob-bot"]
    assert bob.games == 12
    assert bob.comparison.mean_diff == pytest.approx(sum(diffs) / 12)
    assert bob.wins + bob.draws + bob.losses == 12


def test_the_owner_sees_validation_output_logs_and_pause_reason(client: Client, site: Site) -> None:
    client.force_login(site.alice)
    page = text(client.get(site.alice_bot.get_absolute_url()))
    assert "ALICE-SECRET-VALIDATION" in page
    assert "ALICE-SECRET-PAUSE" in page
    assert "ALICE-SECRET-FAULT" in page
    assert "v2" in page and "Upload a new version" in page
    log_url = re.search(r'href="(/matches/[^"]+/logs/\d+/)"', page)
    assert log_url is not None
    assert "ALICE-SECRET-LOG" in text(client.get(log_url.group(1)))


# ---------------------------------------------------------------------------- match list


def test_the_match_list_filters_by_ladder_bot_and_day(client: Client, site: Site) -> None:
    other = Ladder.objects.create(slug="classic-4", name="Classic 4", variant="classic", players=4)
    elsewhere = engine_match(
        [site.bob_bot, *site.house, program_bot("loner")], ladder=other, seed=5
    )
    everything = text(client.get(reverse("match-list")))
    assert everything.count('<tr>\n    <td><a href="/matches/') == 13
    on_classic = text(client.get(reverse("match-list"), {"ladder": str(other.uuid)}))
    assert elsewhere.get_absolute_url() in on_classic
    assert site.matches[0].get_absolute_url() not in on_classic
    loner = text(client.get(reverse("match-list"), {"bot": "LONER"}))  # names ignore case
    assert elsewhere.get_absolute_url() in loner and site.matches[0].get_absolute_url() not in loner
    day = site.matches[0].created_at.date().isoformat()
    on_day = text(client.get(reverse("match-list"), {"day": day}))
    assert site.matches[0].get_absolute_url() in on_day
    nobody = text(client.get(reverse("match-list"), {"bot": "nobody-here"}))
    assert "No bot is called" in nobody
    empty = text(client.get(reverse("match-list"), {"day": "1999-01-01"}))
    assert "No matches match these filters" in empty


def test_the_match_list_pages_by_key_both_ways(
    client: Client, site: Site, settings: Any, django_assert_max_num_queries: Any
) -> None:
    import matches.views

    settings.DEBUG = False
    original = matches.views.LIST_PAGE_SIZE
    matches.views.LIST_PAGE_SIZE = 5
    try:
        with django_assert_max_num_queries(6):
            first = text(client.get(reverse("match-list"), {"ladder": str(site.ladder.uuid)}))
        newest = [m.get_absolute_url() for m in reversed(site.matches)]
        assert all(url in first for url in newest[:5]) and newest[5] not in first
        older = re.search(r'href="(\?[^"]*before=[^"]+)"', first)
        assert older is not None
        second = text(client.get(reverse("match-list") + older.group(1).replace("&amp;", "&")))
        assert all(url in second for url in newest[5:10]) and newest[4] not in second
        newer = re.search(r'href="(\?[^"]*after=[^"]+)"', second)
        assert newer is not None
        back = text(client.get(reverse("match-list") + newer.group(1).replace("&amp;", "&")))
        assert all(url in back for url in newest[:5])
        assert "ladder=" in newer.group(1)  # the filters stay
    finally:
        matches.views.LIST_PAGE_SIZE = original


def test_a_bots_match_list_is_in_the_lists_order_by_its_seats_both_ways_and_in_the_api(
    client: Client, site: Site, settings: Any
) -> None:
    """One bot's list is read from its seats (their copy of the match's creation time): the
    order must still be the list's own, also where creation times disagree with ids."""
    settings.DEBUG = False
    lister = program_bot("lister")
    others = site.house[:3]
    start = timezone.now() - dt.timedelta(days=1)
    minutes = [5, 1, 9, 3, 3, 7, 0, 8]  # out of the ids' order, and a tie
    made = [
        engine_match([lister, *others], seed=300 + n, created_at=start + dt.timedelta(minutes=m))
        for n, m in enumerate(minutes)
    ]
    assert all(s.match_created_at == s.match.created_at for m in made for s in m.seats.all())
    expected = [m.get_absolute_url() for m in sorted(made, key=lambda m: (m.created_at, m.pk))]
    expected.reverse()
    original = matches.views.LIST_PAGE_SIZE
    matches.views.LIST_PAGE_SIZE = 3
    try:
        seen: list[str] = []
        url: str | None = reverse("match-list") + "?bot=lister"
        pages = []
        while url is not None:
            page = text(client.get(url))
            pages.append(url)
            seen += [u for u in re.findall(r'<td><a href="(/matches/[^"]+/)"', page)]
            older = re.search(r'href="(\?[^"]*before=[^"]+)"', page)
            url = reverse("match-list") + older.group(1).replace("&amp;", "&") if older else None
        assert seen == expected and len(pages) == 3
        newer = re.search(r'href="(\?[^"]*after=[^"]+)"', text(client.get(pages[-1])))
        assert newer is not None
        back = text(client.get(reverse("match-list") + newer.group(1).replace("&amp;", "&")))
        assert re.findall(r'<td><a href="(/matches/[^"]+/)"', back) == expected[3:6]
    finally:
        matches.views.LIST_PAGE_SIZE = original
    api = client.get("/api/v1/matches/", {"bot": str(lister.uuid), "limit": "5"}).json()
    assert [f"/matches/{m['id']}/" for m in api["matches"]] == expected[:5] and api["next"]
    rest = client.get(api["next"]).json()
    assert [f"/matches/{m['id']}/" for m in rest["matches"]] == expected[5:]
    unknown = client.get("/api/v1/matches/", {"bot": str(uuid.uuid4())}).json()
    assert unknown["matches"] == []


def _plan(found: Any) -> str:
    sql, params = found.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {sql}", params)
        return "\n".join(row[0] for row in cursor.fetchall())


def _estimated_rows(plan: str) -> float:
    found = re.search(r"rows=(\d+)", plan)
    assert found is not None, plan
    return float(found.group(1))


def test_a_bots_list_is_read_newest_first_by_index_however_many_matches_it_has(
    site: Site,
) -> None:
    """The lists leave out an owner's version-test matches, in a form that PostgreSQL plans
    as an anti-join, so that it expects nearly every match to be listed and reads a bot's
    newest seats by index. Django's ``version_test__isnull=True`` made it expect almost none
    (0.5%), and then it read all of a bot's matches and sorted them: a busy bot's list cost
    grew with its history (48 ms for 3,351 matches, not 0.7 ms)."""
    lister = program_bot("busy-lister")
    start = timezone.now() - dt.timedelta(days=30)
    made = Match.objects.bulk_create(
        Match(variant="basic", players=4, seed=n, created_at=start + dt.timedelta(minutes=n))
        for n in range(2000)
    )
    Seat.objects.bulk_create(
        Seat(
            match=m,
            seat=0,
            bot=lister,
            version=lister.active_version,
            match_created_at=m.created_at,
        )
        for m in made
    )
    with connection.cursor() as cursor:
        for table in ("matches_match", "matches_seat", "versiontests_pairedmatch"):
            cursor.execute(f"ANALYZE {table}")
    everything = Match.objects.count()
    page = Listing(Match.objects.listed(), bot_id=lister.pk).newest_first()[:51]
    plan = _plan(page)
    assert "Sort" not in plan and "Anti Join" in plan and "seat_bot_listed" in plan, plan
    assert _estimated_rows(_plan(Match.objects.listed())) > 0.5 * everything
    unlisted_by_join = _plan(Match.objects.filter(version_test__isnull=True))
    assert _estimated_rows(unlisted_by_join) < 0.01 * everything  # what the old form made of it


def test_the_migration_copies_each_matchs_creation_time_to_its_seats(site: Site) -> None:
    from importlib import import_module

    from django.apps import apps as django_apps
    from django.db import connection
    from matches.models import Seat

    Seat.objects.update(match_created_at=timezone.now() + dt.timedelta(days=9))
    with connection.schema_editor() as editor:
        import_module("matches.migrations.0007_seat_match_created_at").fill(django_apps, editor)
    seats = list(Seat.objects.select_related("match"))
    assert seats and all(s.match_created_at == s.match.created_at for s in seats)


# ---------------------------------------------------------------------------- match and game


def test_the_match_page_shows_results_replays_and_the_viewer(client: Client, site: Site) -> None:
    match = site.matches[3]
    page = text(client.get(match.get_absolute_url()))
    assert 'id="results"' in page
    for seat in match.seats.all():
        assert f"<strong>{seat.score}</strong>" in page
    assert reverse("match-game", args=[match.uuid, 1]) in page
    assert reverse("match-replay", args=[match.uuid, 1]) in page
    assert "crash" in page  # public: that it faulted
    assert "your bot's log" not in page
    viewer = text(client.get(reverse("match-game", args=[match.uuid, 1])))
    assert 'href="' + reverse("match-replay", args=[match.uuid, 1]) in viewer  # the download
    assert 'data-frames-url="' + reverse("match-frames", args=[match.uuid, 1]) in viewer
    assert "matches/viewer.js" in viewer
    assert client.get(reverse("match-game", args=[match.uuid, 2])).status_code == 404
    download = client.get(reverse("match-replay", args=[match.uuid, 1]))
    assert download["Content-Disposition"].startswith("attachment")
    replay = json.loads(body(download))
    assert replay["format"] == "nimmt-replay/1"
    plain = client.get(reverse("match-replay", args=[site.matches[0].uuid, 1]))
    assert json.loads(body(plain))["format"] == "nimmt-replay/1"


def test_a_replay_shows_fault_details_to_the_seats_owner_only(client: Client, site: Site) -> None:
    match = site.matches[3]
    url = reverse("match-replay", args=[match.uuid, 1])
    stored = json.loads((match.result_path / "game-00001.json").read_text())  # type: ignore[operator]
    stored["result"]["faults"] = [
        {"seat": s.seat, "kind": "crash", "turn": 4, "detail": "last log lines: ALICE-SECRET-LOG"}
        for s in match.seats.filter(bot=site.alice_bot)
    ]
    (match.result_path / "game-00001.json").write_text(json.dumps(stored))  # type: ignore[operator]
    public = json.loads(body(client.get(url)))
    assert public["result"]["faults"][0]["kind"] == "crash"
    assert "ALICE-SECRET" not in json.dumps(public)
    assert public["turns"] == stored["turns"]
    client.force_login(site.alice)
    assert "ALICE-SECRET-LOG" in body(client.get(url))


def test_the_viewer_draws_the_engines_frames_of_the_game(client: Client, site: Site) -> None:
    match = site.matches[5]
    url = reverse("match-frames", args=[match.uuid, 1])
    viewer = text(client.get(reverse("match-game", args=[match.uuid, 1])))
    assert f'data-frames-url="{url}"' in viewer
    response = client.get(url)
    assert response["Content-Type"] == "application/json"
    assert response["Cache-Control"] == "public, max-age=86400"
    film = json.loads(text(response))
    assert match.result_path is not None
    replay = read_replay(match.result_path / match.replays[0])
    game, problems = simulate(replay)
    assert problems == [] and film["format"] == "nimmt-frames/1"
    assert film["turns"] == len(replay.turns) == len(film["turn_ends"]) - 1
    assert film["frames"][film["turn_ends"][-1]]["spaces"] == game.spaces
    assert film["result"]["scores"] == list(game.result().scores)
    assert film["players"] == list(replay.names)
    api = client.get(reverse("api-match-frames", args=[match.uuid, 1]))
    assert json.loads(text(api)) == film
    detail = json.loads(text(client.get(reverse("api-match", args=[match.uuid]))))
    assert detail["match"]["frames"] == [reverse("api-match-frames", args=[match.uuid, 1])]


def test_the_frames_name_a_fault_but_never_its_detail_even_to_its_owner(
    client: Client, site: Site
) -> None:
    match = site.matches[3]
    url = reverse("match-frames", args=[match.uuid, 1])
    assert match.result_path is not None
    stored = match.result_path / match.replays[0]
    replay = json.loads(stored.read_text())
    ranks = replay["result"]["ranks"]
    last = ranks.index(max(ranks))  # a fault there changes no rank: the replay still verifies
    assert ranks.count(max(ranks)) == 1
    fault = {"seat": last, "kind": "crash", "turn": 4, "detail": "log: ALICE-SECRET-LOG"}
    replay["result"]["faults"] = [fault]
    stored.write_text(json.dumps(replay))
    for who in (None, site.bob, site.alice):
        if who is not None:
            client.force_login(who)
        response = client.get(url)
        shown = body(response)
        assert response.status_code == 200, shown
        assert "ALICE-SECRET" not in shown
        public = {"seat": fault["seat"], "kind": "crash", "turn": fault["turn"]}
        assert json.loads(shown)["result"]["faults"] == [public]


def test_the_frames_of_a_replay_are_computed_once_and_again_when_it_changes(
    client: Client, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = site.matches[6]
    url = reverse("match-frames", args=[match.uuid, 1])
    first = text(client.get(url))
    kept = list((Path(settings.DATA_DIR) / "frames").rglob("*.json.gz"))
    assert [json.loads(gzip.decompress(p.read_bytes())) for p in kept] == [json.loads(first)]
    packed = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert packed["Content-Encoding"] == "gzip" and packed["Vary"] == "Accept-Encoding"
    assert "Content-Disposition" not in packed
    assert gzip.decompress(packed.getvalue()).decode() == first

    def not_again(replay: Any) -> Any:
        raise AssertionError("frames computed twice")

    monkeypatch.setattr(matches.views, "engine_frames", not_again)
    assert text(client.get(url)) == first
    monkeypatch.undo()
    # An edited replay is another file: its frames are computed anew, here refused.
    assert match.result_path is not None
    stored = match.result_path / match.replays[0]
    replay = json.loads(stored.read_text())
    replay["turns"][2]["scores"][0] += 4
    stored.write_text(json.dumps(replay))
    refused = client.get(url)
    assert refused.status_code == 422
    assert "turn 3: scores after the turn" in refused.json()["error"]
    api = client.get(reverse("api-match-frames", args=[match.uuid, 1]))
    assert api.status_code == 422 and "does not verify" in api.json()["error"]


def test_there_are_no_frames_of_a_game_that_is_not_there(client: Client, site: Site) -> None:
    match = site.matches[0]
    assert client.get(reverse("match-frames", args=[match.uuid, 2])).status_code == 404
    assert client.get(reverse("match-frames", args=[uuid.uuid4(), 1])).status_code == 404
    Match.objects.filter(pk=match.pk).update(status=Match.RUNNING)
    assert client.get(reverse("match-frames", args=[match.uuid, 1])).status_code == 404
    api = client.get(reverse("api-match-frames", args=[match.uuid, 1]))
    assert api.status_code == 404 and "error" in api.json()


RULES_1 = Path(__file__).resolve().parent.parent / "data" / "rules-1"


def test_the_replay_page_names_the_reading_its_game_was_played_under(
    client: Client, site: Site
) -> None:
    match = site.matches[1]
    page = text(client.get(reverse("match-game", args=[match.uuid, 1])))
    assert "rules nimmt-rules/2" in page and "earlier reading" not in page
    rules = text(client.get(reverse("guide-document", args=["rules"])))
    assert 'id="10-readings-of-the-rules"' in rules  # where the page's link leads


def test_a_stored_replay_of_the_earlier_reading_keeps_its_verdict_on_the_site(
    client: Client, site: Site
) -> None:
    """A replay stored before reading 2 (no ``rules`` key; tile 55 is played in it) is still
    served, judged by nimmt-rules/1, drawn, and named so on its page."""
    match = site.matches[2]
    assert match.result_path is not None
    old = (RULES_1 / "basic-4p-1.json").read_bytes()
    (match.result_path / match.replays[0]).write_bytes(old)
    page = text(client.get(reverse("match-game", args=[match.uuid, 1])))
    assert "rules nimmt-rules/1" in page and "earlier reading" in page
    film = json.loads(text(client.get(reverse("match-frames", args=[match.uuid, 1]))))
    assert film["rules"] == "nimmt-rules/1" and film["bullheads"][55] == 7
    assert film["result"]["scores"] == json.loads(old)["result"]["scores"]
    served = json.loads(body(client.get(reverse("match-replay", args=[match.uuid, 1]))))
    assert "rules" not in served and simulate(served)[1] == []
    api = client.get(reverse("api-match-frames", args=[match.uuid, 1]))
    assert json.loads(text(api)) == film


def test_a_seat_owner_sees_their_log_link_and_fault_detail_only(client: Client, site: Site) -> None:
    match = site.matches[3]
    client.force_login(site.bob)
    as_bob = text(client.get(match.get_absolute_url()))
    assert as_bob.count("your bot's log") == 1  # bob's own seat only
    assert "ALICE-SECRET-FAULT" not in as_bob
    alice_seat = match.seats.get(bot=site.alice_bot).seat
    assert client.get(reverse("match-log", args=[match.uuid, alice_seat])).status_code == 403
    client.force_login(site.alice)
    as_alice = text(client.get(match.get_absolute_url()))
    assert "ALICE-SECRET-FAULT" in as_alice and as_alice.count("your bot's log") == 1


def test_staff_do_not_read_bot_logs_either(client: Client, site: Site) -> None:
    boss = User.objects.create_superuser("boss", "boss@example.org", "a-long-test-password")
    client.force_login(boss)
    match = site.matches[0]
    seat = match.seats.get(bot=site.alice_bot).seat
    assert client.get(reverse("match-log", args=[match.uuid, seat])).status_code == 403


# ---------------------------------------------------------------------------- privacy


def _every_page(site: Site) -> list[str]:
    pages = [
        reverse("home"),
        site.ladder.get_absolute_url(),
        reverse("match-list"),
        reverse("match-list") + f"?bot={site.alice_bot.name}",
        reverse("tournament-list"),
        reverse("api-bots"),
        reverse("api-bot", args=[site.alice_bot.uuid]),
        reverse("api-bot-versions", args=[site.alice_bot.uuid]),
        reverse("api-matches") + f"?bot={site.alice_bot.uuid}",
        reverse("api-standings", args=[site.ladder.uuid]),
    ]
    pages += [reverse("match-replay", args=[m.uuid, 1]) for m in site.matches]
    pages += [reverse("match-frames", args=[m.uuid, 1]) for m in site.matches]
    for bot in Bot.objects.all():
        pages.append(bot.get_absolute_url())
        pages += [v.get_absolute_url() for v in bot.versions.filter(status=BotVersion.PASSED)]
    for match in site.matches:
        pages += [
            match.get_absolute_url(),
            reverse("match-game", args=[match.uuid, 1]),
            reverse("api-match", args=[match.uuid]),
        ]
    return pages


@pytest.mark.parametrize("who", ["anonymous", "bob"])
def test_no_page_shows_another_users_private_output(client: Client, site: Site, who: str) -> None:
    if who == "bob":
        client.force_login(site.bob)
    for url in _every_page(site):
        response = client.get(url)
        assert response.status_code == 200, url
        content = body(response)
        for secret in SECRETS:
            assert secret not in content, f"{url} shows {secret} to {who}"
    failed = site.alice_bot.versions.get(number=2)
    assert client.get(failed.get_absolute_url()).status_code == 403
    for match in site.matches:
        seat = match.seats.get(bot=site.alice_bot).seat
        assert client.get(reverse("match-log", args=[match.uuid, seat])).status_code == 403


# ---------------------------------------------------------------------------- explanations


def test_a_faulting_seats_rank_says_it_is_ranked_last_for_its_fault(
    client: Client, site: Site
) -> None:
    faulted = text(client.get(site.matches[3].get_absolute_url()))
    assert faulted.count("ranked last: fault") == 1
    assert "ranks below every seat without one" in faulted
    assert "ranked last: fault" not in text(client.get(site.matches[2].get_absolute_url()))


def test_an_empty_los_cell_says_there_are_too_few_shared_games(client: Client, site: Site) -> None:
    rare = program_bot("rare-bot")
    engine_match([rare, site.alice_bot, *site.house], ladder=site.ladder, seed=7)
    page = text(client.get(site.alice_bot.get_absolute_url()))
    row = re.search(r"<tr>\s*<td><a [^>]*>rare-bot</a>.*?</tr>", page, re.S)
    assert row is not None
    assert "only 1 shared game" in row.group(0)
    assert "needs at least 2 shared games" in row.group(0)
    house_row = re.search(r"<tr>\s*<td><a [^>]*>house-a</a>.*?</tr>", page, re.S)
    assert house_row is not None and "%" in house_row.group(0)  # many games: a LOS


def test_the_bot_page_shows_its_manifests_description_as_text(client: Client, site: Site) -> None:
    version = site.bob_bot.versions.get(number=1)
    version.manifest = {**version.manifest, "description": "Plays <b>low</b> cards\nfirst."}
    version.save()
    Bot.objects.filter(pk=site.bob_bot.pk).update(active_version=version)
    page = text(client.get(site.bob_bot.get_absolute_url()))
    assert 'id="bot-description">Plays &lt;b&gt;low&lt;/b&gt; cards<br>first.</p>' in page


def test_retiring_a_bot_asks_first_on_a_page_of_its_own(client: Client, site: Site) -> None:
    client.force_login(site.bob)
    page = text(client.get(site.bob_bot.get_absolute_url()))
    confirm_url = reverse("retire-bot", args=[site.bob_bot.uuid])
    assert f'href="{confirm_url}"' in page  # a link: no form on the bot page retires it
    asked = text(client.get(confirm_url))
    assert "Retire bob-bot for good?" in asked and 'name="confirm" value="yes"' in asked
    site.bob_bot.refresh_from_db()
    assert not site.bob_bot.is_retired
