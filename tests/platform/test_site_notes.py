"""A bot's notes on its decisions are its owner's: the game page, the replay download and the
API give each owner their own bots' notes and nobody anything of anyone else's.

The match is played by the match runner (house search bots in process, which note their own
estimate per option) and kept in the arena's storage as the pipeline keeps it.
"""

import json
from dataclasses import replace
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from matches.models import Match
from nimmt_site_testing import make_token, make_user, program_bot, runner_match

from arena.bots.mcs import MonteCarloBot
from arena.bots.random import RandomBot
from arena.engine import Game
from arena.engine.record import Player
from arena.engine.replay import to_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def noted() -> dict[str, Any]:
    alice, bob, carol = (make_user(name) for name in ("alice", "bob", "carol"))
    bots = [
        program_bot("alice-bot", owner=alice),
        program_bot("bob-bot", owner=bob),
        program_bot("random-1"),
    ]
    match = runner_match(
        bots,
        [
            lambda: MonteCarloBot("playouts=10"),
            lambda: MonteCarloBot("playouts=10"),
            RandomBot,
        ],
        variant="basic",
        seed=7,
    )
    return {"alice": alice, "bob": bob, "carol": carol, "match": match}


def replay_seat(match: Match, name: str) -> int:
    """The seat of bot ``name`` in the match's game (the runner rotates the seats)."""
    page = Client().get(reverse("match-replay", args=[match.uuid, 1]))
    players = json.loads(page.getvalue())["players"]
    return [p["name"] for p in players].index(name)


def embedded_notes(html: str) -> dict[str, Any] | None:
    start = html.find('<script id="viewer-notes" type="application/json">')
    if start < 0:
        return None
    body = html[html.index(">", start) + 1 : html.index("</script>", start)]
    data: dict[str, Any] = json.loads(body)
    return data


def client_of(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def download(client: Client, match: Match, api: bool = False, **headers: str) -> tuple[str, Any]:
    """The replay download of the match's game (the site's, or ``api``: the API's)."""
    name = "api-match-replay" if api else "match-replay"
    response = client.get(reverse(name, args=[match.uuid, 1]), headers=headers)
    assert response.status_code == 200
    body = response.getvalue().decode()
    return body, response


def test_it_gives_the_owner_their_own_bots_notes_on_the_game_page(noted: dict[str, Any]) -> None:
    match = noted["match"]
    for owner, bot in (("alice", "alice-bot"), ("bob", "bob-bot")):
        page = client_of(noted[owner]).get(reverse("match-game", args=[match.uuid, 1]))
        assert page["Cache-Control"] == "private, no-store"
        html = page.content
        data = embedded_notes(html.decode())
        assert data is not None, f"{owner} sees no notes"
        seat = replay_seat(match, bot)
        assert data["seats"] == [seat]
        assert data["notes"] and {n["seat"] for n in data["notes"]} == {seat}
        first = data["notes"][0]
        assert "playouts over" in first["text"]
        assert len(first["values"]) == len(first["options"]) > 1
        assert b"matches/notes.js" in html


def test_it_gives_nobody_else_any_note_on_the_game_page(noted: dict[str, Any]) -> None:
    match = noted["match"]
    url = reverse("match-game", args=[match.uuid, 1])
    for client in (Client(), client_of(noted["carol"])):
        html = client.get(url).content.decode()
        assert embedded_notes(html) is None
        assert "playouts over" not in html and "notes.js" not in html


def test_the_owners_download_and_api_answer_carry_their_notes_and_no_one_elses(
    noted: dict[str, Any],
) -> None:
    match = noted["match"]
    seats = {"alice": replay_seat(match, "alice-bot"), "bob": replay_seat(match, "bob-bot")}
    for owner in ("alice", "bob"):
        token = make_token(noted[owner])
        for body, response in (
            download(client_of(noted[owner]), match),
            download(Client(), match, api=True, authorization=f"Bearer {token}"),
        ):
            notes = json.loads(body)["notes"]
            assert notes["seats"] == [seats[owner]]
            assert notes["notes"] and {n["seat"] for n in notes["notes"]} == {seats[owner]}
            assert response["Cache-Control"] == "private, no-store"


def test_the_public_download_and_api_answer_hold_no_note(noted: dict[str, Any]) -> None:
    match = noted["match"]
    carol_token = make_token(noted["carol"])
    answers = [
        download(Client(), match)[0],
        download(client_of(noted["carol"]), match)[0],
        download(Client(), match, api=True)[0],
        download(Client(), match, api=True, authorization=f"Bearer {carol_token}")[0],
    ]
    for body in answers:
        assert "notes" not in json.loads(body)
        assert "playouts" not in body


def test_a_match_without_notes_shows_none_even_to_the_owner(noted: dict[str, Any]) -> None:
    alice = noted["alice"]
    bot = program_bot("alice-plain", owner=alice)
    match = runner_match([bot, program_bot("random-9")], [RandomBot, RandomBot], seed=3)
    html = client_of(alice).get(reverse("match-game", args=[match.uuid, 1])).content.decode()
    assert embedded_notes(html) is None
    body, _ = download(client_of(alice), match)
    assert "notes" not in json.loads(body)


def test_a_seat_without_a_bot_row_does_not_shift_whose_notes_an_owner_gets() -> None:
    """A person's table has no seat row for the person: the bots' rows are seats 1 and 2 of a
    3-seat game, and the owner of the bot in seat 2 owns seat 2 only (not seat 1's notes)."""
    from matches.models import Seat
    from matches.notes import replay_owners

    alice, bob = make_user("alice"), make_user("bob")
    first, second = program_bot("alice-bot", owner=alice), program_bot("bob-bot", owner=bob)
    match = Match.objects.create(variant="basic", players=3, games=1, seed=1)
    for number, bot in ((1, first), (2, second)):
        assert bot.active_version is not None
        Seat.objects.create(match=match, seat=number, bot=bot, version=bot.active_version)
    seats = list(match.seats.select_related("bot", "version").order_by("seat"))
    game = Game.new("basic", players=3, seed=1)
    while not game.is_over():
        for at in game.pending.seats if game.pending else ():
            game.apply(at, game.legal(at)[0])
    names = ("a person", "alice-bot", "bob-bot")
    replay = to_record(game, [{"name": name, "entry": n} for n, name in enumerate(names)])

    def bobs(seat: Seat) -> bool:
        return bool(seat.bot.owner_id == bob.pk)

    def alices(seat: Seat) -> bool:
        return bool(seat.bot.owner_id == alice.pk)

    assert replay_owners(replay, seats, bobs) == [False, False, True]
    assert replay_owners(replay, seats, alices) == [False, True, False]
    # A person named like a bot is not taken for it: the entry decides.
    replay = replace(replay, players=(Player("bob-bot", 0), *replay.players[1:]))
    assert replay_owners(replay, seats, bobs) == [False, False, True]
