"""Watching a running match live: the frames the worker writes as the decisions land, the stream
of server-sent events that carries them, and the page that draws them."""

import http.client
import random
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from unittest import mock
from urllib.parse import urlsplit

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from matches.live import (
    KEEP_AFTER_END,
    LiveFeed,
    Position,
    events,
    public_frame,
    remove_ended,
)
from matches.models import LiveChunk, Match
from nimmt_site_testing import program_bot

from arena.bots.registry import make_bot
from arena.engine.frames import HIDDEN_CARD, frames
from arena.engine.game import Event, Game, TurnEnded
from arena.runner.lineup import Entrant
from arena.runner.match import run_match
from arena.runner.rules import MatchConfig

pytestmark = pytest.mark.django_db


def _running(variant: str, players: int) -> Match:
    match = Match.objects.create(variant=variant, players=players, seed=5, status=Match.RUNNING)
    for seat in range(players):
        bot = program_bot(f"b{seat}")
        assert bot.active_version is not None
        match.seats.create(seat=seat, bot=bot, version=bot.active_version)
    return match


def _by_game(match: Match) -> dict[int, list[dict[str, Any]]]:
    """The frames of each game as the chunks carry them, checked to follow on one another."""
    games: dict[int, list[dict[str, Any]]] = {}
    for chunk in LiveChunk.objects.filter(match=match).order_by("seq"):
        so_far = games.setdefault(chunk.game, [])
        assert chunk.first == len(so_far)
        assert (chunk.header is not None) == (chunk.first == 0)
        so_far += chunk.frames
    return games


class _FlushEveryTurn:
    """The feed as the runner's watch, written at every turn's end (the writer thread's job in
    a worker; here a thread per flush, since the match's loop may not touch the database), so
    that a game arrives in many chunks."""

    def __init__(self, feed: LiveFeed) -> None:
        self.feed = feed

    def __call__(self, number: int, game: Game, names: tuple[str, ...]) -> None:
        self.feed(number, game, names)

        def flush(event: Event) -> None:
            if isinstance(event, TurnEnded):
                writer = threading.Thread(target=self.write)
                writer.start()
                writer.join()

        game.listen(flush)

    def write(self) -> None:
        try:
            self.feed.flush()
        finally:
            connection.close()  # the thread's own


@pytest.mark.django_db(transaction=True)  # the writer's thread sees the match
@pytest.mark.parametrize(("variant", "players"), [("basic", 4), ("pro+luck", 3), ("classic", 5)])
def test_the_live_frames_are_the_engines_frames_of_the_replay_with_held_cards_hidden(
    variant: str, players: int
) -> None:
    match = _running(variant, players)
    feed = LiveFeed(match.pk)
    entrants = [Entrant(f"h{k}", in_process=lambda: make_bot("heuristic")) for k in range(players)]
    result = run_match(
        MatchConfig(variant=variant, games=2, seed=11), entrants, watch=_FlushEveryTurn(feed)
    )
    feed.flush()
    live = _by_game(match)
    assert sorted(live) == [1, 2]
    chunks = LiveChunk.objects.filter(match=match)
    assert chunks.count() > 2 * 5  # one per turn, at least
    for number, replay in enumerate(result.replays, start=1):
        film = frames(replay).to_json()
        assert live[number] == [public_frame(f) for f in film["frames"]]
        head = chunks.get(game=number, first=0).header
        assert head is not None and head == {k: film[k] for k in head}
        assert head["players"] == list(replay.names)
        for frame in live[number]:
            assert all(card == HIDDEN_CARD for cards in frame["held"] for card in cards)
            assert frame["asks"] is None
        _never_shows_a_tile_before_it_is_revealed(live[number])
    if variant.startswith("pro"):
        assert any(frame["held"] != [[]] * players for frame in live[1])


def _never_shows_a_tile_before_it_is_revealed(film: list[dict[str, Any]]) -> None:
    """Every tile a frame shows (on the board or revealed in the tray) was dealt face up or
    revealed by then: hands stay hidden."""
    shown = {tile for row in film[0]["spaces"] for tile in row if tile > 0}
    for frame in film:
        step = frame["step"]
        if step["kind"] == "reveal":
            shown |= {tile for tile, _seat in frame["tray"]}
        if step["kind"] == "action" and "new_tile" in step:
            shown.add(step["new_tile"])
        visible = {t for row in frame["spaces"] for t in row if t > 0}
        visible |= {tile for tile, _seat in frame["tray"]}
        assert visible <= shown, (frame["turn"], step, sorted(visible - shown))


@pytest.mark.django_db(transaction=True)
def test_a_feed_starts_an_attempt_afresh_and_its_frames_go_a_while_after_the_end() -> None:
    match = _running("basic", 2)
    LiveChunk.objects.create(match=match, attempt="old", seq=1, game=1, first=0, frames=[])
    feed = LiveFeed(match.pk)
    with feed:
        assert not LiveChunk.objects.filter(attempt="old").exists()
        game = Game.new("basic", players=2, seed=3)
        feed(1, game, ("a", "b"))
        while (pending := game.pending) is not None:
            for seat in pending.seats:
                game.apply(seat, game.legal(seat)[0])
        feed.flush()
        assert LiveChunk.objects.filter(match=match, attempt=feed.attempt).exists()
    # Kept at the end, for spectators still catching up; the sweeper removes them later.
    assert LiveChunk.objects.filter(match=match).exists()
    assert remove_ended() == 0  # still running
    Match.objects.filter(pk=match.pk).update(status=Match.FINISHED, finished_at=timezone.now())
    assert remove_ended() == 0  # just over
    later = timezone.now() + KEEP_AFTER_END + timedelta(seconds=1)
    with mock.patch("django.utils.timezone.now", return_value=later):
        assert remove_ended() > 0
    assert not LiveChunk.objects.filter(match=match).exists()


@pytest.mark.django_db(transaction=True)
def test_flushes_at_the_same_time_write_each_chunk_once_in_order() -> None:
    """The writer thread flushes every 0.25 s and so may anybody else: two at once once wrote
    two chunks with the same number (the second a unique-key error, its frames lost)."""
    match = _running("basic", 2)
    feed = LiveFeed(match.pk)  # its own thread not started: these threads race instead
    game = Game.new("basic", players=2, seed=4)
    feed(1, game, ("a", "b"))
    done = threading.Event()
    errors: list[BaseException] = []

    def flusher() -> None:
        try:
            while not done.is_set():
                feed.flush()
        except BaseException as problem:  # reported below
            errors.append(problem)
        finally:
            connection.close()

    threads = [threading.Thread(target=flusher) for _ in range(3)]
    for thread in threads:
        thread.start()
    try:
        while (pending := game.pending) is not None:
            for seat in pending.seats:
                game.apply(seat, game.legal(seat)[0])
            time.sleep(0.002)
    finally:
        done.set()
        for thread in threads:
            thread.join()
    feed.flush()
    assert errors == []
    seqs = list(LiveChunk.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    (frames,) = _by_game(match).values()  # each chunk goes on where the one before ended
    assert frames[0]["step"]["kind"] != "end" and frames[-1]["step"]["kind"] == "end"
    assert len(seqs) > 3  # the frames came in several chunks while the game went on


# ---------------------------------------------------------------------------- the stream


def _parse(stream: Iterator[str]) -> list[tuple[str, str | None, Any]]:
    import json

    found = []
    for text in stream:
        if text.startswith(("retry:", ":")):
            continue
        fields = dict(line.split(": ", 1) for line in text.strip().split("\n"))
        found.append((fields["event"], fields.get("id"), json.loads(fields["data"])))
    return found


def _chunk(match: Match, attempt: str, seq: int, game: int = 1) -> LiveChunk:
    return LiveChunk.objects.create(
        match=match,
        attempt=attempt,
        seq=seq,
        game=game,
        first=seq - 1,
        header={"variant": match.variant} if seq == 1 else None,
        frames=[{"n": seq}],
    )


def test_the_stream_sends_every_chunk_in_order_then_the_end() -> None:
    match = _running("basic", 2)
    for seq in (1, 2, 3):
        _chunk(match, "a1", seq)
    Match.objects.filter(pk=match.pk).update(status=Match.FINISHED)
    sent = _parse(events(match, Position(), poll_s=0.01))
    assert [(kind, ident) for kind, ident, _ in sent] == [
        ("chunk", "a1:1"),
        ("chunk", "a1:2"),
        ("chunk", "a1:3"),
        ("end", None),
    ]
    assert sent[0][2]["header"] == {"variant": "basic"} and "header" not in sent[1][2]
    assert sent[-1][2] == {"status": "finished", "url": match.get_absolute_url()}


def test_a_spectator_who_reconnects_goes_on_from_the_last_chunk_he_had() -> None:
    match = _running("basic", 2)
    for seq in (1, 2, 3):
        _chunk(match, "a1", seq)
    Match.objects.filter(pk=match.pk).update(status=Match.FINISHED)
    sent = _parse(events(match, Position.parse("a1:2"), poll_s=0.01))
    assert [ident for _, ident, _ in sent] == ["a1:3", None]


def test_a_retried_match_tells_the_spectator_to_start_over() -> None:
    match = _running("basic", 2)
    _chunk(match, "b2", 1)
    Match.objects.filter(pk=match.pk).update(status=Match.FINISHED)
    sent = _parse(events(match, Position.parse("a1:7"), poll_s=0.01))
    assert [(kind, ident) for kind, ident, _ in sent] == [
        ("reset", None),
        ("chunk", "b2:1"),
        ("end", None),
    ]


def test_a_stream_of_a_quiet_match_ends_after_its_time_and_the_browser_comes_back() -> None:
    match = _running("basic", 2)
    stream = list(events(match, Position(), stream_s=0.2, poll_s=0.05))
    assert stream[0] == "retry: 1000\n\n"
    assert _parse(iter(stream)) == []  # nothing yet, no end: the browser reconnects


def test_the_live_page_and_its_events_over_http(client: Client) -> None:
    match = _running("basic", 2)
    page = client.get(reverse("match-live", args=[match.uuid]))
    assert page.status_code == 200
    events_url = reverse("match-live-events", args=[match.uuid])
    assert f'data-live-url="{events_url}"' in page.content.decode()
    _chunk(match, "c3", 1)
    Match.objects.filter(pk=match.pk).update(status=Match.FINISHED)
    # An event id int() cannot read ("²" is a digit to isdigit) starts from the beginning.
    odd = client.get(events_url, HTTP_LAST_EVENT_ID="ab:²")
    assert odd.status_code == 200
    b"".join(odd.streaming_content)  # type: ignore[attr-defined]
    response = client.get(events_url, HTTP_LAST_EVENT_ID="junk")
    assert response["Content-Type"] == "text/event-stream"
    assert response["Cache-Control"] == "no-cache"
    body = b"".join(response.streaming_content).decode()  # type: ignore[attr-defined]
    assert [kind for kind, _, _ in _parse(iter(body.split("\n\n")[:-1]))] == ["chunk", "end"]
    # A finished match is watched from its replays.
    finished = client.get(reverse("match-live", args=[match.uuid]))
    assert finished.status_code == 302 and finished["Location"] == match.get_absolute_url()
    unknown = reverse("match-live-events", args=[uuid.uuid4()])
    assert client.get(unknown).status_code == 404


# ---------------------------------------------------------------------------- many spectators


def _spectate(url: str, received: list[tuple[str, dict[str, Any]]], deadline: float) -> None:
    """A browser's EventSource, roughly: read the stream, reconnect from the last event's id
    when it ends, stop at ``end``."""
    import json

    last_id = ""
    while time.monotonic() < deadline:
        parts = urlsplit(url)
        connection = http.client.HTTPConnection(str(parts.hostname), parts.port, timeout=10)
        connection.request("GET", parts.path, headers={"Last-Event-ID": last_id})
        response = connection.getresponse()
        assert response.status == 200
        fields: dict[str, str] = {}
        while line := response.readline().decode():
            if line.strip():
                name, _, value = line.rstrip("\n").partition(": ")
                fields[name] = value
                continue
            if fields.get("event") == "chunk":
                last_id = fields["id"]
                received.append((last_id, json.loads(fields["data"])))
            elif fields.get("event") == "end":
                connection.close()
                return
            fields = {}
        connection.close()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)  # the writer's thread and the server's see the match
def test_fifty_spectators_at_once_each_get_every_frame_in_order(live_server: Any) -> None:
    match = _running("basic", 4)
    url = live_server.url + reverse("match-live-events", args=[match.uuid])
    deadline = time.monotonic() + 12
    received: list[list[tuple[str, dict[str, Any]]]] = [[] for _ in range(50)]
    spectators = [
        threading.Thread(target=_spectate, args=(url, mine, deadline), daemon=True)
        for mine in received
    ]
    for spectator in spectators:
        spectator.start()
    rng = random.Random(2)
    with LiveFeed(match.pk) as feed:  # the worker's writer, a chunk every FLUSH_S
        for number in (1, 2):
            game = Game.new("basic", players=4, seed=number)
            feed(number, game, ("a", "b", "c", "d"))
            while (pending := game.pending) is not None:
                for seat in pending.seats:
                    time.sleep(0.01)  # a bot's thinking: the games span several flushes
                    game.apply(seat, rng.choice(game.legal(seat)))
    Match.objects.filter(pk=match.pk).update(status=Match.FINISHED, finished_at=timezone.now())
    for spectator in spectators:
        spectator.join(timeout=max(0.1, deadline - time.monotonic()))
    written = [
        (f"{c.attempt}:{c.seq}", c.game, c.first, c.frames)
        for c in LiveChunk.objects.filter(match=match).order_by("seq")
    ]
    # How many chunks the frames come in depends on the writer's pace (a loaded machine
    # flushes less often); what is pinned is that both games came and every spectator got
    # every chunk, in order.
    assert len(written) >= 2 and {game for _, game, _, _ in written} == {1, 2}
    for mine in received:
        assert [(i, c["game"], c["first"], c["frames"]) for i, c in mine] == written
