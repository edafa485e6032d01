"""A person plays in a real browser against house bots that a real worker runs, while a
spectator watches the same match on its live page in another browser context: the person's
hand, options and clock; the spectator's board, which equals the engine's after every step and
never shows a tile before it is revealed; a person who stops answering; phone-width shots."""

import json
import time
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from matches.live import public_frame
from matches.models import Match
from nimmt_site_testing import CeleryProcess, program_bot, wait_for
from playwright.sync_api import Browser, BrowserContext, Page, Route, ViewportSize, expect
from submissions.models import Bot
from tables import services
from tables.models import Table
from tables.tasks import start_table

pytestmark = pytest.mark.django_db(transaction=True)

PHONE: ViewportSize = {"width": 375, "height": 740}

#: The option the person can take now (an enabled tile or a numbered option), or the end.
CHOICE = "#seat .tbl-option, #seat .tbl-tile:not([disabled]), #seat[data-over]"


def _spectator_snapshot(spectator: Page) -> dict[str, Any] | None:
    """What the spectator's board shows now: the game, the frame index, the board and the
    tiles drawn on it."""
    snapshot: dict[str, Any] | None = spectator.evaluate(
        """() => {
          const v = window.nimmtViewer;
          if (!v || !v.viewer) return null;
          const tiles = [...document.querySelectorAll('svg.board g.tile[data-tile]:not(.leaving)')]
            .map(n => +n.getAttribute('data-tile'));
          return {game: v.game(), index: v.viewer.index, board: v.board(), tiles: tiles};
        }"""
    )
    return snapshot


def _engine_frames(page: Page, base: str, match: Match, game: int) -> list[dict[str, Any]]:
    response = page.request.get(base + reverse("match-frames", args=[match.uuid, game]))
    assert response.ok, response.status
    frames: list[dict[str, Any]] = json.loads(response.body())["frames"]
    return frames


def _sent_more(person: Page, sent: int) -> bool | None:
    return len(person.evaluate("window.nimmtSeat.sent")) > sent or None


def _play_through(person: Page, spectator: Page, shots: Path, name: str) -> list[dict[str, Any]]:
    """Answer every decision of the person's table by click, tap or key, until the game is
    over; the spectator's board after each answer."""
    seen: list[dict[str, Any]] = []
    kinds: set[str] = set()
    answers = 0
    while True:
        person.wait_for_selector(CHOICE, timeout=30_000)
        if person.locator("#seat[data-over]").count():
            break
        state = person.evaluate("window.nimmtSeat.state")
        ask = state["ask"]
        if ask is not None and ask["kind"] not in kinds:
            kinds.add(ask["kind"])
            person.screenshot(path=str(shots / f"{name}-{ask['kind']}-phone.png"), full_page=True)
        sent = len(person.evaluate("window.nimmtSeat.sent"))
        options = person.locator("#seat .tbl-option")
        if options.count():
            person.keyboard.press("1") if answers % 2 else options.first.tap()
        else:
            tile = person.locator("#seat .tbl-tile:not([disabled])").last
            if answers % 3 == 1:
                tile.focus()
                person.keyboard.press("Enter")
            else:
                tile.click()
        wait_for("the answer to be sent", partial(_sent_more, person, sent), 10, every=0.05)
        answers += 1
        snapshot = _spectator_snapshot(spectator)
        if snapshot is not None:
            seen.append(snapshot)
    assert answers >= 5 and "tile" in kinds
    return seen


def _check_spectator(spectator: Page, base: str, match: Match, seen: list[dict[str, Any]]) -> None:
    """Every board the spectator saw is the engine's at that step, drawing no tile that was
    not revealed; every frame sent is the engine's as a spectator may see it."""
    wait_for(
        "the spectator to see the end",
        lambda: spectator.evaluate("window.nimmtViewer.ended") or None,
        timeout=60,
        every=0.2,
    )
    frames = _engine_frames(spectator, base, match, 1)
    assert spectator.evaluate("window.nimmtViewer.frames(1)") == [public_frame(f) for f in frames]
    assert len(seen) >= 5
    for snapshot in seen:
        frame = frames[snapshot["index"]]
        assert snapshot["board"] == frame["spaces"]
        shown = {t for row in frame["spaces"] for t in row if t > 0}
        shown |= {entry[0] if isinstance(entry, list) else entry["tile"] for entry in frame["tray"]}
        if frame.get("overflow"):
            shown.add(frame["overflow"]["tile"])
        assert set(snapshot["tiles"]) <= shown, (snapshot, frame)


def _contexts(browser: Browser) -> tuple[BrowserContext, BrowserContext]:
    return browser.new_context(viewport=PHONE, has_touch=True), browser.new_context()


@pytest.mark.slow
def test_a_person_plays_basic_and_pro_luck_while_a_spectator_watches_then_stops_answering(
    browser: Browser, live_server: Any, celery_worker: CeleryProcess, screenshot_dir: Path
) -> None:
    for name in ("quick-a", "quick-b"):
        program_bot(name)
    base = live_server.url
    person_context, spectator_context = _contexts(browser)
    person, spectator = person_context.new_page(), spectator_context.new_page()
    # basic: one click from the home page, as a guest.
    person.goto(base + "/")
    person.get_by_role("button", name="Play a game against the house bots").tap()
    person.wait_for_url("**/play/*/")
    table = Table.objects.select_related("match", "person").get()
    assert table.guest and table.match.variant == "basic"
    spectator.goto(base + reverse("match-live", args=[table.match.uuid]))
    seen = _play_through(person, spectator, screenshot_dir, "table-basic")
    expect(person.locator("[data-seat=end]")).to_contain_text("Game over: you ranked")
    _check_spectator(spectator, base, table.match, seen)
    table.refresh_from_db()
    assert table.faults == [] and not table.rated  # a guest's game is not rated
    # pro+luck: set up on the Play page.
    person.goto(base + reverse("play"))
    person.get_by_label("Variant").select_option("pro+luck")
    person.get_by_label("quick-a").check()
    person.get_by_role("button", name="Sit down").tap()
    person.wait_for_url("**/play/*/")
    table = Table.objects.select_related("match").filter(match__variant="pro+luck").get()
    spectator.goto(base + reverse("match-live", args=[table.match.uuid]))
    seen = _play_through(person, spectator, screenshot_dir, "table-proluck")
    _check_spectator(spectator, base, table.match, seen)
    table.refresh_from_db()
    assert table.faults == [] and table.rank is not None
    assert person.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    spectator_context.close()
    # A person who stops answering (a short clock): the clock is shown and runs out, the arena
    # plays the default decision on time and says so, and drops the person at the third fault.
    guest = table.person
    quick = services.create_table(
        guest, "basic", [Bot.objects.get(name="quick-a")], decision_ms=800, bank_ms=400, seed=2
    )
    start_table(quick)
    person.goto(base + quick.get_absolute_url())
    expect(person.locator("[data-seat=clock]")).to_be_visible(timeout=30_000)
    person.screenshot(path=str(screenshot_dir / "table-clock-phone.png"), full_page=True)
    expect(person.locator("[data-seat=notices]")).to_contain_text("no answer within", timeout=5_000)
    expect(person.locator("#seat[data-over]")).to_be_attached(timeout=30_000)
    quick.refresh_from_db()
    assert [f["kind"] for f in quick.faults] == ["timeout"] * 3
    assert "3 faults" in quick.dropped
    person_context.close()


def _asked(
    base: dict[str, Any], request: int, kind: str, legal: list[str], hand: list[int]
) -> dict[str, Any]:
    """The table's state with ``kind`` asked (``request``), for a scripted state URL."""
    view = {"hand": hand, "action_cards": [], "chosen": None, "pending": None, "legal": legal}
    ask = {
        "request": request,
        "kind": kind,
        "legal": legal,
        "remaining_ms": 60_000,
        "allowance_ms": 60_000,
        "bank_ms": 0,
    }
    return {**base, "status": "running", "view": view, "ask": ask}


def test_a_seat_never_reopens_a_decision_from_a_poll_answered_before_it_arrived(
    browser: Browser, live_server: Any
) -> None:
    # A state poll in flight while the person answers must not be shown when it comes back
    # late: it would reopen the answered decision (tiles enabled again after the person has
    # moved on), and a click on it would answer nothing. The state URL is scripted here: one
    # poll is held back until two decisions later.
    person = get_user_model().objects.create_user("ann")
    table = services.create_table(
        person, "basic", [program_bot("quick-a")], decision_ms=60_000, bank_ms=0, seed=1
    )
    client = Client()
    client.force_login(person)
    base = services.state(table)
    tile = _asked(base, 1, "tile", ["tile 5", "tile 17", "tile 33"], [5, 17, 33])
    row = _asked(base, 2, "take_row", [f"take_row {r}" for r in range(4)], [5, 33])
    waiting = {**base, "status": "running", "view": row["view"], "ask": None}
    script: dict[str, Any] = {"next": tile, "hold": False}
    held: list[Route] = []
    polls: list[str] = []

    def state_url(route: Route) -> None:
        if script["hold"]:
            script["hold"] = False
            held.append(route)
            return
        polls.append(route.request.url)
        route.fulfill(json=script["next"])

    context = browser.new_context()
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    page = context.new_page()
    page.route("**/state/", state_url)
    page.route("**/answer/", lambda route: route.fulfill(json={"taken": "ok"}))
    page.goto(live_server.url + table.get_absolute_url())
    expect(page.locator("#seat .tbl-tile:not([disabled])")).to_have_count(3)

    script["hold"] = True  # the next poll stays in flight (it would say: tile asked)
    deadline = time.monotonic() + 10
    while not held:
        assert time.monotonic() < deadline, "the page stopped polling"
        page.wait_for_timeout(20)
    script["next"] = row
    page.get_by_role("button", name="Tile 17").click()
    page.get_by_role("button", name="Take row 2").click()
    script["next"] = waiting
    expect(page.locator("[data-seat=prompt]")).to_have_text("Waiting for the others…")
    page.evaluate(
        """() => {
          window.reopened = false;
          const seat = document.getElementById('seat');
          new MutationObserver(() => {
            if (seat.querySelector('.tbl-tile:not([disabled])')) window.reopened = true;
          }).observe(seat, {subtree: true, childList: true, attributes: true});
        }"""
    )
    served = len(polls)
    held[0].fulfill(json=tile)  # the late answer to the held poll: tile asked
    while len(polls) < served + 3:  # three polls later
        assert time.monotonic() < deadline + 10, "the page stopped polling"
        page.wait_for_timeout(20)
    assert page.evaluate("window.reopened") is False
    assert page.evaluate("window.nimmtSeat.sent") == ["tile 17", "take_row 1"]
    assert page.evaluate("window.nimmtSeat.state.ask") is None
    expect(page.locator("[data-seat=prompt]")).to_have_text("Waiting for the others…")
    context.close()
