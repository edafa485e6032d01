"""A seat's point of view in the replay viewer, in Chromium: chosen with "Seen by" (or
``#seat=S``), it shows at every step the seat's hand and action cards exactly as the engine's
observer gave them to that seat (:func:`arena.engine.observation.observe`, re-played
independently of the frames), and nothing of the other hands: not on the screen and not in
what the browser was sent (``?seat=S`` frames, computed on the server)."""

import json
import threading
from typing import Any

import pytest

pytest.importorskip("pytest_playwright", reason="pip install playwright pytest-playwright")

from django.test import Client
from django.urls import reverse
from nimmt_site_data import SiteData, build
from playwright.sync_api import Page, Response, expect

from arena.cli.local_viewer import LocalViewer, ViewerServer
from arena.engine.frames import HIDDEN_CARD, Film
from arena.engine.game import Event
from arena.engine.observation import Observation, observe
from arena.engine.replay import as_record, replay_turn, start

from .test_browser_viewer import READ_BOARD, replay_of

pytestmark = pytest.mark.django_db(transaction=True)

READ_SEAT_VIEW = """() => {
  const box = document.querySelector('.seat-hand');
  const hand = box.hidden ? null
    : [...box.querySelectorAll('svg.hand-tile')].map(svg => +svg.dataset.tile);
  const everyTile = [...document.querySelectorAll('[data-tile]')].map(n => +n.dataset.tile);
  const held = [...document.querySelectorAll('.players tbody tr .held')].map(
    td => ({count: +td.textContent, title: td.title}));
  const viewpoint = [...document.querySelectorAll('.players tbody tr.viewpoint')].map(
    tr => +tr.dataset.seat);
  const cards = box.querySelector('.seat-hand-cards').textContent;
  const history = [...box.querySelectorAll('.seat-hand-history li .tiles')].map(
    span => span.textContent);
  return {hand, everyTile, held, viewpoint, cards, history};
}"""

CARD_NAMES = {
    "stop": "Stop",
    "swap": "Swap",
    "skip": "Skip",
    "front": "Front",
    "ascending": "Ascending",
    "anywhere": "Anywhere",
    "another": "Another",
    "plus5": "Plus five",
}


@pytest.fixture
def site() -> SiteData:
    return build(viewer_only=True)


def observations(replay: dict[str, Any], seat: int) -> list[Observation]:
    """Per step of the replay (as the frames count them), the seat's observation by the
    engine's observer, re-played here independently of the frames served; where the engine
    then asks for a decision, the one at that moment."""
    record = as_record(replay)
    game = start(record)
    film = Film(game)  # only to count the steps
    seen = {0: observe(game, seat)}

    def look(_event: Event) -> None:
        seen[len(film.notes) - 1] = observe(game, seat)

    game.listen(film.step)
    game.listen(look)
    for turn in record.turns:
        replay_turn(game, turn)
    return [seen[i] for i in range(len(film.notes))]


@pytest.mark.parametrize(("variant", "seat"), [("pro+luck", 1), ("classic", 3)])
def test_a_seats_view_shows_its_own_hand_and_hides_the_other_hands_at_every_step(
    page: Page, live_server: Any, site: SiteData, variant: str, seat: int
) -> None:
    replay = replay_of(site, variant)
    views = observations(replay, seat)
    dealt = start(as_record(replay)).hands
    others = {t for s, hand in enumerate(dealt) if s != seat for t in hand}
    match = site.viewer_matches[variant]
    page.goto(live_server.url + reverse("match-game", args=[match.uuid, 1]))
    page.wait_for_selector("#viewer[data-ready='1']", state="attached", timeout=15_000)
    assert page.evaluate(READ_SEAT_VIEW)["hand"] is None  # the public view shows no hand
    with page.expect_response(lambda r: "/frames/" in r.url) as sent:
        page.locator("[data-act=seat]").select_option(str(seat))
    expect(page.locator("#viewer")).to_have_attribute("data-seat", str(seat))
    # What the browser was sent for the seat's view: its own hand only, no one else's cards.
    response: Response = sent.value
    data = response.json()
    assert response.url.endswith(f"?seat={seat}") and data["seat"] == seat
    for frame in data["frames"]:
        assert all(c == HIDDEN_CARD for s, cs in enumerate(frame["held"]) if s != seat for c in cs)
    steps = page.evaluate("window.nimmtViewer.steps()")
    assert len(steps) == len(views)
    for step, view in zip(steps, views, strict=True):
        page.evaluate(f"window.nimmtViewer.goToStep({step['index']})")
        shown, board = page.evaluate(READ_SEAT_VIEW), page.evaluate(READ_BOARD)
        where = f"{variant}, seat {seat}, step {step['index']} ({step['kind']})"
        assert shown["hand"] == list(view.hand), where
        assert shown["history"] == [
            " \u00b7 ".join(str(plays[s]) for plays in view.history if plays[s] is not None)
            or "\u2014"
            for s in range(len(view.hand_sizes))
        ], where
        assert shown["viewpoint"] == [seat], where
        assert board["hands"] == list(view.hand_sizes), where
        # Every tile on the page is on the board, revealed, or the seat's own.
        public = {t for row in board["board"] for t in row if t > 0}
        public |= {t for t, _s in board["trayTiles"]} | {t for _r, _s, t in board["overflow"]}
        assert set(shown["everyTile"]) <= public | set(view.hand), where
        assert not set(shown["hand"]) & (others - set(view.hand)), where
        if replay["variant"].startswith("pro"):
            for s, cell in enumerate(shown["held"]):
                assert cell["count"] == view.action_counts[s], where
                if s == seat:
                    names = ", ".join(CARD_NAMES[c] for c in view.action_cards)
                    assert shown["cards"] == "Action cards: " + (names or "none"), where
                elif cell["count"]:
                    assert "does not see" in cell["title"], where
                    assert not any(name in cell["title"] for name in CARD_NAMES.values()), where
    # Back to everyone's view: no hand again, at the same step.
    at = page.evaluate("window.nimmtViewer.frame().index")
    page.locator("[data-act=seat]").select_option("")
    expect(page.locator("#viewer")).to_have_attribute("data-seat", "")
    assert page.evaluate(READ_SEAT_VIEW)["hand"] is None
    assert page.evaluate("window.nimmtViewer.frame().index") == at


def test_a_link_to_a_seats_view_opens_it_at_that_turn(
    page: Page, live_server: Any, site: SiteData
) -> None:
    replay = replay_of(site, "pro")
    views = observations(replay, 2)
    match = site.viewer_matches["pro"]
    page.goto(live_server.url + reverse("match-game", args=[match.uuid, 1]) + "#seat=2&turn=4")
    page.wait_for_selector("#viewer[data-ready='1']", state="attached", timeout=15_000)
    expect(page.locator("#viewer")).to_have_attribute("data-seat", "2")
    expect(page.locator("svg.board")).to_have_attribute("data-turn", "4")
    index = page.evaluate("window.nimmtViewer.frame().index")
    assert page.evaluate(READ_SEAT_VIEW)["hand"] == list(views[index].hand)
    expect(page.locator("[data-act=link]")).to_have_attribute("href", "#seat=2&turn=4")


def test_the_frames_of_a_seat_are_served_by_the_site_and_the_api_and_other_seats_refused(
    client: Client, site: SiteData
) -> None:
    match = site.viewer_matches["pro+luck"]  # three players: seats 0..2
    replay = replay_of(site, "pro+luck")
    views = observations(replay, 0)
    url = reverse("match-frames", args=[match.uuid, 1])
    page = client.get(url, {"seat": "0"})
    assert page.status_code == 200 and page["Cache-Control"] == "public, max-age=86400"
    data = json.loads(page.getvalue())
    assert [f["hand"] for f in data["frames"]] == [list(v.hand) for v in views]
    api = client.get(reverse("api-match-frames", args=[match.uuid, 1]), {"seat": "0"})
    assert json.loads(api.getvalue()) == data
    for seat in ["-1", "3", "x", "1e1", "\u0661", "", " 1", "9" * 5000]:
        response = client.get(url, {"seat": seat})
        assert response.status_code == 400, seat
        assert json.loads(response.content) == {"error": "seat must be a seat number from 0 to 2"}


def test_the_local_viewer_of_nimmt_replay_view_draws_a_seats_view_in_the_browser(
    page: Page, site: SiteData
) -> None:
    replay = replay_of(site, "pro+luck")
    views = observations(replay, 1)
    server = ViewerServer(LocalViewer(as_record(replay), "game.json"))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server.url + "#seat=1&turn=3")
        page.wait_for_selector("#viewer[data-ready='1']", state="attached", timeout=15_000)
        expect(page.locator("#viewer")).to_have_attribute("data-seat", "1")
        index = page.evaluate("window.nimmtViewer.frame().index")
        assert page.evaluate(READ_SEAT_VIEW)["hand"] == list(views[index].hand)
        assert page.evaluate(READ_BOARD)["board"] == [list(r) for r in views[index].spaces]
        page.locator("[data-act=seat]").select_option("2")
        expect(page.locator("#viewer")).to_have_attribute("data-seat", "2")
        assert page.evaluate(READ_SEAT_VIEW)["hand"] == list(observations(replay, 2)[index].hand)
        assert errors == []
    finally:
        server.shutdown()
        server.server_close()
