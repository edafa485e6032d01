"""A person at the table: the seat the worker plays through (tables.seat.PersonSeat) and the
person's state and answers, with the real runner, house bot programs and database.

Each test plays a real match in a thread of its own (the table's task, run as a worker runs
it) while the test answers through the site's views, as the person's browser does.
"""

import io
import json
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from accounts.models import User
from django.core.management import call_command
from django.db import connection, connections, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from matches.models import Match
from matches.tasks import run_match
from nimmt_site_testing import REPO, make_user, program_bot, wait_for
from submissions.models import Bot
from tables import services
from tables.ladder import rate_table
from tables.models import Ask, Guest, PeopleRating, Table
from tables.tasks import play_table

#: The tests that play a match in a thread need their rows committed (the others need not).
PLAYED = pytest.mark.django_db(transaction=True)


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _state(client: Client, table: Table) -> Any:
    response = client.get(reverse("table-state", args=[table.uuid]))
    assert response.status_code == 200, response.content
    return response.json()


def _answer(client: Client, table: Table, request: Any, decision: Any) -> Any:
    return client.post(
        reverse("table-answer", args=[table.uuid]),
        json.dumps({"request": request, "decision": decision}),
        content_type="application/json",
    )


@pytest.fixture
def house() -> list[Bot]:
    return [program_bot("quick-a"), program_bot("quick-b")]


@pytest.fixture
def played(sandbox_runtime: Path) -> Iterator[list[threading.Thread]]:
    """Threads playing tables as a worker would; each must end within the test."""
    threads: list[threading.Thread] = []
    yield threads
    for thread in threads:
        thread.join(timeout=60)
        assert not thread.is_alive()


def _play(played: list[threading.Thread], table: Table) -> None:
    def work() -> None:
        try:
            play_table(table_pk=table.pk)
        finally:
            connections.close_all()

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    played.append(thread)


def _next_ask(client: Client, table: Table, after: int = 0) -> Any:
    def asked() -> Any:
        state = _state(client, table)
        if state["ask"] and state["ask"]["request"] > after:
            return state
        return None

    return wait_for("the next decision", asked, timeout=30, every=0.05)


def _after(client: Client, table: Table, request: int) -> Any:
    """The state once a decision after ``request`` is asked or the match is over."""
    state = _state(client, table)
    if (state["ask"] and state["ask"]["request"] > request) or state["status"] == "finished":
        return state
    return None


@PLAYED
def test_it_takes_legal_answers_once_and_only_from_the_person(
    house: list[Bot], played: list[threading.Thread]
) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    table = services.create_table(alice, "basic", house, decision_ms=5000, bank_ms=5000, seed=3)
    _play(played, table)
    client = _client(alice)
    state = _next_ask(client, table)
    ask = state["ask"]
    assert ask["kind"] == "tile" and ask["legal"] == [f"tile {t}" for t in state["view"]["hand"]]
    assert 0 < ask["remaining_ms"] <= 10_000
    # Nobody else sees the hand or answers: not another user, not a visitor.
    for other in (_client(bob), Client()):
        assert other.get(reverse("table-state", args=[table.uuid])).status_code == 404
        assert other.get(reverse("table", args=[table.uuid])).status_code == 404
        assert _answer(other, table, ask["request"], ask["legal"][0]).status_code == 404
    # An illegal answer is refused with a message, and changes nothing.
    not_held = next(t for t in range(1, 105) if t not in state["view"]["hand"])
    refused = _answer(client, table, ask["request"], f"tile {not_held}")
    assert refused.status_code == 400
    assert f"'tile {not_held}' is not legal now" in refused.json()["error"]
    assert _answer(client, table, ask["request"], "play my best").status_code == 400
    assert _answer(client, table, "1", ask["legal"][0]).status_code == 400
    assert not Ask.objects.get(table=table, request_id=ask["request"]).answer
    # A double submission counts once.
    first = _answer(client, table, ask["request"], ask["legal"][-1])
    second = _answer(client, table, ask["request"], ask["legal"][0])
    assert first.status_code == 200 and first.json() == {"taken": ask["legal"][-1]}
    assert second.status_code == 409 and "answered already" in second.json()["error"]
    assert Ask.objects.get(table=table, request_id=ask["request"]).answer == ask["legal"][-1]
    # The person closes the tab and comes back (another session): the game goes on there.
    client = _client(alice)
    page = client.get(reverse("table", args=[table.uuid]))
    assert page.status_code == 200 and b'id="seat"' in page.content
    request = ask["request"]
    while True:
        state = wait_for("a decision or the end", partial(_after, client, table, request), 30)
        if state["status"] == "finished":
            break
        request = state["ask"]["request"]
        assert _answer(client, table, request, state["ask"]["legal"][0]).status_code == 200
    table.refresh_from_db()
    assert table.faults == [] and table.rank is not None and table.dropped == ""
    assert table.match.status == Match.FINISHED and table.match.replays
    # Rated on the people ladder: the person and both bots, one game each.
    ratings = PeopleRating.objects.filter(variant="basic")
    assert sorted(r.games for r in ratings) == [1, 1, 1]
    assert ratings.filter(person=alice).exists() and table.rated


@PLAYED
def test_it_plays_the_default_for_a_person_who_does_not_answer_then_drops_them(
    house: list[Bot], played: list[threading.Thread]
) -> None:
    alice = make_user("alice")
    table = services.create_table(alice, "basic", house[:1], decision_ms=300, bank_ms=200, seed=5)
    started = time.monotonic()
    _play(played, table)
    client = _client(alice)
    wait_for("the end", lambda: _state(client, table)["status"] == "finished" or None, 60)
    table.refresh_from_db()
    kinds = [fault["kind"] for fault in table.faults]
    assert kinds == ["timeout"] * 3  # then dropped: the arena plays for the person at once
    assert "3 faults in the match" in table.dropped
    assert any("no answer within 500 ms" in n["message"] for n in table.notices)
    assert time.monotonic() - started < 30
    # A late answer is refused.
    last = Ask.objects.filter(table=table).order_by("-request_id").first()
    assert last is not None and last.expired
    late = _answer(client, table, last.request_id, last.view["legal"][0])
    assert late.status_code == 409 and "out of time" in late.json()["error"]


@PLAYED
def test_a_person_who_resigns_leaves_the_game_which_the_bots_finish_at_once(
    house: list[Bot], played: list[threading.Thread]
) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    table = services.create_table(alice, "basic", house, decision_ms=60_000, bank_ms=60_000)
    _play(played, table)
    client = _client(alice)
    _next_ask(client, table)
    # Nobody else resigns it for the person.
    assert _client(bob).post(reverse("table-resign", args=[table.uuid])).status_code == 404
    assert Client().post(reverse("table-resign", args=[table.uuid])).status_code == 404
    assert client.get(reverse("table-resign", args=[table.uuid])).status_code == 405
    started = time.monotonic()
    response = client.post(reverse("table-resign", args=[table.uuid]))
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    # Not waiting for the decision's minute: the seat leaves, the bots play on at once.
    wait_for("the end", lambda: _state(client, table)["status"] == "finished" or None, 60)
    assert time.monotonic() - started < 30
    table.refresh_from_db()
    assert table.dropped == services.RESIGNED
    assert [f["kind"] for f in table.faults] == ["crash"]
    assert table.rank == 3  # a fault ranks the seat last
    assert not services.resign(table)  # over: nothing to resign
    # The person may sit down again.
    assert services.open_table_of(alice) is None


@pytest.mark.django_db
def test_it_refuses_a_table_the_variant_or_the_owners_do_not_allow(house: list[Bot]) -> None:
    alice, carol = make_user("alice"), make_user("carol")
    closed = program_bot("carols-bot", owner=carol)
    with pytest.raises(services.TableRefused, match="do not play people: carols-bot"):
        services.create_table(alice, "basic", [closed], decision_ms=1000, bank_ms=0)
    with pytest.raises(services.TableRefused, match="choose 1 to"):
        services.create_table(alice, "basic", [], decision_ms=1000, bank_ms=0)
    with pytest.raises(services.TableRefused, match="one seat only"):
        services.create_table(alice, "basic", [house[0], house[0]], decision_ms=1000, bank_ms=0)
    Bot.objects.filter(pk=closed.pk).update(plays_people=True)
    table = services.create_table(alice, "pro+luck", [closed, *house], decision_ms=1000, bank_ms=0)
    assert table.match.players == 4 and table.match.seats.count() == 3
    assert Match.objects.count() == 1


@pytest.mark.django_db
def test_a_paused_bot_or_one_whose_owner_was_shut_out_cannot_be_chosen(house: list[Bot]) -> None:
    alice, carol = make_user("alice"), make_user("carol")
    paused = program_bot("paused-bot", owner=carol)
    shut_out = program_bot("shut-out-bot", owner=make_user("dave"))
    Bot.objects.filter(pk__in=[paused.pk, shut_out.pk]).update(plays_people=True)
    Bot.objects.filter(pk=paused.pk).update(paused_at=timezone.now())
    User.objects.filter(username="dave").update(is_active=False)
    assert {b.name for b in services.playable_bots()} == {"quick-a", "quick-b"}
    for bot in (paused, shut_out):
        with pytest.raises(services.TableRefused, match=f"do not play people: {bot.name}"):
            services.create_table(alice, "basic", [bot, house[0]], decision_ms=1000, bank_ms=0)
    page = _client(alice).get(reverse("play")).content.decode()
    assert "paused-bot" not in page and "shut-out-bot" not in page


@pytest.mark.django_db
def test_it_seats_a_visitor_as_a_guest_in_one_click_whose_game_is_never_rated(
    house: list[Bot],
) -> None:
    visitor = Client()
    home = visitor.get(reverse("home"))
    assert reverse("play-guest").encode() in home.content
    response = visitor.post(reverse("play-guest"))
    table = Table.objects.select_related("person", "match").get()
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert table.guest and table.person.username.startswith("guest-")
    assert not table.person.has_usable_password()
    assert table.match.variant == "basic" and table.match.players == 3
    assert visitor.get(table.get_absolute_url()).status_code == 200
    assert Client().get(table.get_absolute_url()).status_code == 404  # another visitor
    # A second click while the game is on leads back to it; once it is over, to a new table.
    again = visitor.post(reverse("play-guest"))
    assert again["Location"] == table.get_absolute_url() and Table.objects.count() == 1
    with pytest.raises(services.TableRefused, match="at a table already"):
        services.create_table(table.person, "pro", house[:1], decision_ms=1000, bank_ms=0)
    Match.objects.filter(pk=table.match.pk).update(status=Match.FINISHED)
    visitor.post(reverse("play-guest"))
    assert Table.objects.filter(person=table.person).count() == 2
    table.refresh_from_db()
    rate_table(table, [])
    assert not PeopleRating.objects.exists()


def _guest(name: str, now: Any, days: float) -> User:
    """A guest made (and logged in) ``days`` ago."""
    user = User.objects.create_user(name)
    Guest.objects.create(user=user, created_at=now - timedelta(days=days))
    User.objects.filter(pk=user.pk).update(last_login=now - timedelta(days=days))
    return user


def _sat(user: User, house: list[Bot], now: Any, days: float, status: str) -> Table:
    """A table of ``user`` set up ``days`` ago, its match now ``status``."""
    table = services.create_table(user, "basic", house[:1], decision_ms=1000, bank_ms=0)
    Table.objects.filter(pk=table.pk).update(created_at=now - timedelta(days=days))
    Match.objects.filter(pk=table.match_id).update(status=status)
    return table


@pytest.mark.django_db
def test_guests_idle_past_the_keep_time_are_forgotten_with_their_tables_and_their_matches_stay(
    house: list[Bot],
) -> None:
    now = timezone.now()
    idle = _guest("guest-idle", now, 40)
    old_table = _sat(idle, house, now, 35, Match.FAILED)
    Ask.objects.create(
        table=old_table,
        game=1,
        request_id=1,
        kind="tile",
        view={"legal": ["tile 5"]},
        asked_at=now,
        deadline_at=now,
        allowance_ms=1000,
        bank_ms=0,
    )
    _guest("guest-never-sat", now, 31)
    _guest("guest-new", now, 5)
    came_back = _guest("guest-came-back", now, 40)
    _sat(came_back, house, now, 3, Match.FINISHED)
    playing = _guest("guest-playing", now, 40)
    _sat(playing, house, now, 35, Match.RUNNING)  # a table still under way, however old
    owner = _guest("guest-owner", now, 40)
    program_bot("given-to-a-guest", owner=owner)
    account = User.objects.create_user("an-account")  # never logged in, not a guest
    User.objects.filter(pk=account.pk).update(date_joined=now - timedelta(days=400))

    assert services.forget_guests(timedelta(days=30), now=now) == 2
    left = set(User.objects.values_list("username", flat=True))
    assert "guest-idle" not in left and "guest-never-sat" not in left
    assert {"guest-new", "guest-came-back", "guest-playing", "guest-owner", "an-account"} <= left
    assert not Table.objects.filter(pk=old_table.pk).exists() and not Ask.objects.exists()
    # The game stays: its match and its page.
    match = Match.objects.get(pk=old_table.match_id)
    assert Client().get(match.get_absolute_url()).status_code == 200
    assert services.forget_guests(timedelta(days=30), now=now) == 0


@pytest.mark.django_db
def test_the_beat_forgets_idle_guests_hourly_in_batches(
    house: list[Bot], monkeypatch: pytest.MonkeyPatch
) -> None:
    from config.celery_app import app
    from django.conf import settings
    from tables.tasks import forget_old_guests

    entry = settings.CELERY_BEAT_SCHEDULE["forget-old-guests"]
    assert entry["task"] == forget_old_guests.name and entry["task"] in app.tasks
    assert entry["schedule"] == 3600
    now = timezone.now()
    for number in range(7):
        _guest(f"guest-{number}", now, settings.GUEST_KEEP_DAYS + 1)
    _guest("guest-today", now, 0)
    monkeypatch.setattr(services, "FORGET_BATCH", 3)  # three transactions: 3, 3 and 1
    forget_old_guests()
    guests = User.objects.filter(username__startswith="guest-")
    assert list(guests.values_list("username", flat=True)) == ["guest-today"]


@pytest.mark.django_db
def test_a_guest_is_refused_with_words_when_the_guest_counter_cannot_be_read(
    house: list[Bot], settings: Any
) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
        }
    }
    response = Client().post(reverse("play-guest"))
    assert response.status_code == 503
    assert b"Guest games are unavailable for a moment" in response.content
    assert not Table.objects.exists() and not Guest.objects.exists()


@pytest.mark.django_db
def test_only_so_many_tables_play_at_once_on_the_site(house: list[Bot], settings: Any) -> None:
    settings.TABLES_AT_ONCE = 2
    first = services.create_table(make_user("alice"), "basic", house, decision_ms=1000, bank_ms=0)
    services.create_table(make_user("bob"), "basic", house, decision_ms=1000, bank_ms=0)
    with pytest.raises(services.TableRefused, match="every table is taken"):
        services.create_table(make_user("carol"), "basic", house, decision_ms=1000, bank_ms=0)
    # A visitor's click is refused with words, and makes no guest.
    refused = Client().post(reverse("play-guest"))
    assert refused.status_code == 503 and b"every table is taken" in refused.content
    assert not Guest.objects.exists() and Table.objects.count() == 2
    # A table over frees its place.
    Match.objects.filter(pk=first.match.pk).update(status=Match.FINISHED)
    assert Client().post(reverse("play-guest")).status_code == 302
    assert Table.objects.count() == 3


@pytest.mark.django_db(transaction=True)
def test_tables_asked_for_at_once_by_different_people_keep_to_the_sites_cap(
    house: list[Bot], settings: Any
) -> None:
    settings.TABLES_AT_ONCE = 1
    made = threading.Event()

    def first() -> None:
        try:
            with transaction.atomic():
                services.create_table(
                    make_user("alice"), "basic", house, decision_ms=1000, bank_ms=0
                )
                made.set()
                time.sleep(0.5)  # bob asks before alice's table is committed
        finally:
            connections.close_all()

    thread = threading.Thread(target=first, daemon=True)
    thread.start()
    assert made.wait(timeout=10)
    with pytest.raises(services.TableRefused, match="every table is taken"):
        services.create_table(make_user("bob"), "basic", house, decision_ms=1000, bank_ms=0)
    thread.join(timeout=10)
    assert Table.objects.count() == 1


@pytest.mark.django_db
def test_the_people_ladder_is_read_a_page_at_a_time_in_order() -> None:
    # Made in one statement, without passwords: hashing 120 passwords took a minute.
    people = User.objects.bulk_create(User(username=f"person{n:03d}") for n in range(120))
    PeopleRating.objects.bulk_create(
        PeopleRating(variant="basic", person=p, elo=2000 - n, games=1) for n, p in enumerate(people)
    )
    url = reverse("people-ladder", args=["basic"])
    with CaptureQueriesContext(connection) as queries:
        first = Client().get(url).content.decode()
    assert "person000" in first and "person049" in first and "person050" not in first
    assert "Page 1 of 3" in first and 'href="?page=2"' in first
    assert len(queries.captured_queries) <= 6
    third = Client().get(url, {"page": 3}).content.decode()
    assert "person100" in third and "person119" in third and "person099" not in third
    assert '<td class="num">101</td>' in third  # places go on from the pages before
    assert "person119" in Client().get(url, {"page": "99"}).content.decode()  # the last page


@pytest.mark.django_db
def test_it_shows_a_bots_record_against_people_and_lets_only_its_owner_open_it() -> None:
    carol, dave = make_user("carol"), make_user("dave")
    bot = program_bot("carols-bot", owner=carol)
    PeopleRating.objects.create(variant="pro", bot=bot, elo=1512.4, games=4, wins=3, losses=1)
    PeopleRating.objects.create(variant="pro", person=dave, elo=1487.6, games=4, wins=1, losses=3)
    page = Client().get(bot.get_absolute_url()).content.decode()
    assert "Against people" in page and ">1512<" in page and ">3<" in page
    assert "Let people play it" not in page  # only its owner sees the switch
    ladder = Client().get(reverse("people-ladder", args=["pro"])).content.decode()
    assert ladder.index("carols-bot") < ladder.index("dave")
    assert Client().get(reverse("people-ladder", args=["chess"])).status_code == 404
    switch = reverse("bot-plays-people", args=[bot.uuid])
    assert _client(dave).post(switch, {"allow": "1"}).status_code == 404
    assert _client(carol).post(switch, {"allow": "yes"}).status_code == 400
    bot.refresh_from_db()
    assert not bot.plays_people
    assert "Let people play it" in _client(carol).get(bot.get_absolute_url()).content.decode()
    assert _client(carol).post(switch, {"allow": "1"}).status_code == 302
    bot.refresh_from_db()
    assert bot.plays_people and bot in services.playable_bots()


@pytest.mark.django_db
def test_the_demo_seats_a_visitor_against_its_quick_house_bots(settings: Any) -> None:
    settings.HOUSE_BOTS_DIR = REPO / "bots"  # the real house bots, as the demo loads them
    call_command("load_demo", stdout=io.StringIO())
    visitor = Client()
    assert visitor.post(reverse("play-guest")).status_code == 302
    table = Table.objects.select_related("match").get()
    opponents = sorted(table.match.seats.values_list("bot__name", flat=True))
    assert opponents == ["heuristic", "random"]


@pytest.mark.django_db
def test_a_table_sent_to_the_bots_pipeline_after_its_worker_died_fails_instead(
    house: list[Bot],
) -> None:
    alice = make_user("alice")
    table = services.create_table(alice, "basic", house, decision_ms=1000, bank_ms=0)
    run_match(match_pk=table.match.pk)  # what the sweeper sends for a match left running
    table.match.refresh_from_db()
    assert table.match.status == Match.FAILED
    assert "worker stopped during the game" in table.match.error
    assert not table.match.replays


@pytest.mark.django_db
def test_it_refuses_an_answer_too_large_or_nested_too_deep_without_taking_it(
    house: list[Bot],
) -> None:
    alice = make_user("alice")
    table = services.create_table(alice, "basic", house, decision_ms=1000, bank_ms=0)
    client = _client(alice)
    url = reverse("table-answer", args=[table.uuid])
    nested = client.post(url, "[" * 100_000, content_type="application/json")
    assert nested.status_code == 413 and "at most" in nested.json()["error"]
    deep = client.post(url, "[" * 1000, content_type="application/json")
    assert deep.status_code == 400 and deep.json()["error"] == "the body must be JSON"
    padded = json.dumps({"request": 1, "decision": "tile 4", "pad": "x" * 2000})
    assert client.post(url, padded, content_type="application/json").status_code == 413
    huge = _answer(client, table, 10**30, "tile 4")
    assert huge.status_code == 404 and "never asked" in huge.json()["error"]
    assert not Ask.objects.exists()


@pytest.mark.django_db
def test_an_answer_after_the_game_failed_is_refused_and_not_taken(house: list[Bot]) -> None:
    alice = make_user("alice")
    table = services.create_table(alice, "basic", house, decision_ms=1000, bank_ms=0)
    now = timezone.now()
    view = {"legal": ["tile 4"]}
    Ask.objects.create(
        table=table,
        request_id=1,
        game=1,
        kind="tile",
        view=view,
        asked_at=now,
        deadline_at=now + timedelta(seconds=30),
        allowance_ms=1000,
        bank_ms=0,
    )
    Match.objects.filter(pk=table.match.pk).update(status=Match.FAILED, error="worker died")
    refused = _answer(_client(alice), table, 1, "tile 4")
    assert refused.status_code == 409 and "the game is over" in refused.json()["error"]
    assert Ask.objects.get().answer == ""


@pytest.mark.django_db
def test_an_answer_without_the_sites_csrf_token_is_refused(house: list[Bot]) -> None:
    alice = make_user("alice")
    table = services.create_table(alice, "basic", house, decision_ms=1000, bank_ms=0)
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(alice)
    body = json.dumps({"request": 1, "decision": "tile 4"})
    response = forged.post(
        reverse("table-answer", args=[table.uuid]), body, content_type="application/json"
    )
    assert response.status_code == 403


@pytest.mark.django_db
def test_a_guest_plays_but_cannot_upload_make_tokens_or_ask_for_analyses(
    house: list[Bot],
) -> None:
    guest = Client()
    assert guest.post(reverse("play-guest")).status_code == 302
    table = Table.objects.select_related("match").get()
    refused = [
        guest.post(reverse("new-bot"), {"name": "guests-bot"}),
        guest.post(reverse("tokens"), {"name": "a token"}),
        guest.post(reverse("match-analysis-request", args=[table.match.uuid, 1]), {"seat": "0"}),
    ]
    assert [r.status_code for r in refused] == [403, 403, 403]
    assert b"Guests can only play" in refused[0].content
    assert not Bot.objects.filter(name="guests-bot").exists()
    assert not table.person.api_tokens.exists()
    # The table's own pages stay open to the guest, and so does logging out.
    answer = _answer(guest, table, 1, "tile 4")
    assert answer.status_code == 404 and "never asked" in answer.json()["error"]
    assert guest.post(reverse("logout")).status_code == 302
    # A guest with an account logs in to it.
    erin = make_user("erin")
    again = Client()
    again.post(reverse("play-guest"))
    login = again.post(reverse("login"), {"username": "erin", "password": "a-long-test-password"})
    assert login.status_code == 302 and again.session["_auth_user_id"] == str(erin.pk)
    # A user with an account is not a guest.
    alice = _client(make_user("alice"))
    assert alice.post(reverse("tokens"), {"name": "a token"}).status_code != 403


@PLAYED
def test_two_tables_asked_for_at_once_by_one_person_make_one(house: list[Bot]) -> None:
    alice = make_user("alice")
    first_made = threading.Event()
    outcomes: list[str] = []

    def first() -> None:
        try:
            with transaction.atomic():
                services.create_table(alice, "basic", house, decision_ms=1000, bank_ms=0)
                first_made.set()
                time.sleep(0.5)  # the second request comes before this one commits
        finally:
            connections.close_all()

    thread = threading.Thread(target=first, daemon=True)
    thread.start()
    assert first_made.wait(timeout=10)
    try:
        services.create_table(alice, "basic", house, decision_ms=1000, bank_ms=0)
    except services.TableRefused as refused:
        outcomes.append(str(refused))
    thread.join(timeout=10)
    assert outcomes == ["you are at a table already: finish that game first"]
    assert Table.objects.filter(person=alice).count() == 1
