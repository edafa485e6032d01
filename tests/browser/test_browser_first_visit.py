"""A first visit, at 1280 and 375 px wide: the home page's ladder cards hold their columns, the
log-in page wears the site's name, the menu's Play works without an account, a guest who left a
table finds the way back to it or resigns it, a guest's menu offers only what a guest can use,
and at a table on a phone the rows stay in sight while a decision is asked."""

import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from matches.live import LiveFeed
from matches.models import Match
from nimmt_site_data import SiteData, build
from nimmt_site_testing import program_bot
from playwright.sync_api import Page, ViewportSize, expect
from tables import services
from tables.models import Guest, Table

from arena.bots.random import RandomBot
from arena.engine.game import Game
from arena.engine.observation import observe
from arena.table.messages import Request

pytestmark = pytest.mark.django_db(transaction=True)

SIZES: dict[str, ViewportSize] = {
    "desktop": {"width": 1280, "height": 900},
    "phone": {"width": 375, "height": 740},
}

# Per ladder card of the home page, the elements whose right edge passes the card's (1 px of
# rounding allowed), with their class, text and widths.
CLIPPED = """() => [...document.querySelectorAll('.ladder-card')].flatMap(card => {
  const box = card.getBoundingClientRect();
  return [...card.querySelectorAll('*')]
    .filter(el => el.getClientRects().length)
    .map(el => [el, el.getBoundingClientRect()])
    .filter(([el, r]) => r.width > 0 && (r.right > box.right + 1 || r.left < box.left - 1))
    .map(([el, r]) => ({card: card.getAttribute('aria-label'), tag: el.tagName,
                        cls: String(el.className.baseVal ?? el.className),
                        left: r.left, right: r.right, card_right: box.right}));
})"""


# The whole board on the screen, above the seat's sheet at the bottom (1 px of rounding).
BOARD_ABOVE_SHEET = """() => {
  const board = document.querySelector('#viewer svg.board').getBoundingClientRect();
  const sheet = document.getElementById('seat').getBoundingClientRect();
  return board.height > 0 && board.top >= -1 && board.bottom <= sheet.top + 1;
}"""


@pytest.fixture
def site() -> SiteData:
    return build()


@pytest.mark.parametrize("size", SIZES)
def test_the_home_page_s_ladder_cards_hold_every_column(
    page: Page, live_server: Any, site: SiteData, screenshot_dir: Path, size: str
) -> None:
    page.set_viewport_size(SIZES[size])
    page.goto(live_server.url + reverse("home"))
    cards = page.locator(".ladder-card")
    assert cards.count() >= 2
    page.screenshot(path=str(screenshot_dir / f"first-visit-home-{size}.png"), full_page=True)
    assert page.evaluate(CLIPPED) == []
    # the last games' column and its sparkline are there, whole
    assert page.locator(".ladder-card svg").count() >= 1


@pytest.mark.parametrize("size", SIZES)
def test_the_log_in_page_is_titled_with_the_site_s_name(
    page: Page, live_server: Any, screenshot_dir: Path, size: str
) -> None:
    page.set_viewport_size(SIZES[size])
    page.goto(live_server.url + reverse("login"))
    expect(page).to_have_title(f"Log in · {settings.SITE_NAME}")
    expect(page.locator(".site-header .brand")).to_contain_text(settings.SITE_NAME)
    assert "127.0.0.1" not in page.title() and "localhost" not in page.title()
    page.screenshot(path=str(screenshot_dir / f"first-visit-login-{size}.png"), full_page=True)


def _house_bots() -> None:
    for name in ("heuristic", "random"):
        program_bot(name)  # a house bot: its owner is "house"


@pytest.mark.parametrize("size", SIZES)
def test_an_anonymous_visitor_plays_from_the_menu_and_a_guest_who_left_returns_or_resigns(
    page: Page, live_server: Any, screenshot_dir: Path, size: str
) -> None:
    _house_bots()
    page.set_viewport_size(SIZES[size])
    page.goto(live_server.url + reverse("home"))
    page.locator(".site-nav").get_by_role("link", name="Play", exact=True).click()
    expect(page).to_have_url(live_server.url + reverse("play"))  # not the log-in page
    page.screenshot(path=str(screenshot_dir / f"first-visit-play-anonymous-{size}.png"))
    expect(page.locator("#guest-play")).to_contain_text("no account needed")
    page.locator("#guest-play").get_by_role("button", name="Play a game").click()
    expect(page).to_have_url(re.compile(r"/play/[0-9a-f-]{36}/$"))
    table = Table.objects.get()
    assert Guest.objects.filter(user=table.person).exists()
    # A guest's menu: no bots, no API tokens
    nav = page.locator(".site-nav")
    expect(nav.get_by_role("link", name="My bots")).to_have_count(0)
    expect(nav.get_by_role("link", name="API tokens")).to_have_count(0)
    expect(nav.get_by_role("link", name="Play", exact=True)).to_have_count(1)
    # The guest leaves the table for the home page; the menu's Play leads back to it.
    page.goto(live_server.url + reverse("home"))
    nav.get_by_role("link", name="Play", exact=True).click()
    playing = page.locator("#playing")
    expect(playing).to_contain_text("You are at a table")
    page.screenshot(path=str(screenshot_dir / f"first-visit-play-guest-{size}.png"))
    playing.get_by_role("link", name="Back to your table").click()
    expect(page).to_have_url(live_server.url + table.get_absolute_url())
    # ... or resigns it, from there or from the Play page.
    page.go_back()
    page.locator("#playing").get_by_role("button", name="Resign that game").click()
    expect(page).to_have_url(live_server.url + table.get_absolute_url())
    expect(page.locator(".messages")).to_contain_text("You resigned")
    table.refresh_from_db()
    assert table.dropped == services.RESIGNED


def _table_asking(person: Any, variant: str, turns: int, seed: int) -> Table:
    """A table of ``person`` against two house bots, its game played (by random decisions) to
    turn ``turns``, where the person is asked a decision: as the worker would have left it,
    the live frames written and the decision open."""
    _house_bots()
    bots = [b for b in services.playable_bots() if b.name in ("heuristic", "random")]
    table = services.create_table(
        person, variant, bots, decision_ms=600_000, bank_ms=600_000, seed=seed
    )
    match = table.match
    Match.objects.filter(pk=match.pk).update(status=Match.RUNNING)
    game = Game.new(variant, players=3, seed=match.seed)
    names = tuple(
        table.name if seat == table.entry else bots[seat - (seat > table.entry)].name
        for seat in range(3)
    )
    feed = LiveFeed(match.pk)
    feed(1, game, names)
    bot = RandomBot()
    rng = random.Random(seed)
    while True:
        pending = game.pending
        assert pending is not None
        if game.turn >= turns and table.entry in pending.seats:
            break
        seat = rng.choice([s for s in pending.seats if s != table.entry] or list(pending.seats))
        game.apply(seat, bot.decide(observe(game, seat)))
    feed.flush()
    Table.objects.filter(pk=table.pk).update(game=1, seat=table.entry, names=list(names))
    services.open_ask(
        table.pk,
        Request(
            request_id=1,
            moment=1,
            game_id="game-00001",
            seat=table.entry,
            kind=pending.kind,
            view=observe(game, table.entry),
            deadline_ms=600_000,
            bank_ms=600_000,
            allowance_ms=600_000,
        ),
    )
    return table


@pytest.mark.parametrize("variant", ["basic", "classic"])
def test_at_a_table_on_a_phone_the_rows_are_in_sight_while_a_decision_is_asked(
    page: Page, live_server: Any, screenshot_dir: Path, variant: str
) -> None:
    person = get_user_model().objects.create_user("paula", password="a-long-test-password")
    table = _table_asking(person, variant, turns=3, seed=4)
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": _session(person), "url": live_server.url}]
    )
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.goto(live_server.url + table.get_absolute_url())
        page.wait_for_selector("#seat .tbl-option, #seat .tbl-tile:not([disabled])")
        page.wait_for_selector("svg.board g.tile[data-row]")
        # the board is drawn after the decision came: it is brought into sight then
        page.wait_for_function(BOARD_ABOVE_SHEET, timeout=10_000)
        page.screenshot(path=str(screenshot_dir / f"first-visit-table-{variant}-{size}.png"))
        height = viewport["height"]
        rows = page.locator("svg.board").bounding_box()
        # a state poll may redraw the decision between two looks: measure the option drawn now
        choice = None
        for _ in range(50):
            option = page.locator("#seat .tbl-option, #seat .tbl-tile:not([disabled])").first
            choice = option.bounding_box()
            if choice is not None:
                break
            page.wait_for_timeout(100)
        assert rows is not None and choice is not None
        # The first option to choose is on the screen, and so is the whole board, above the
        # seat's sheet.
        assert choice["y"] >= 0 and choice["y"] + choice["height"] <= height, size
        sheet = page.locator("#seat").bounding_box()
        assert sheet is not None
        assert rows["y"] >= -1, (size, rows)
        assert rows["y"] + rows["height"] <= sheet["y"] + 1, (size, rows, sheet)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1


def _session(user: Any) -> str:
    """A logged-in session of ``user``, as its cookie's value."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    assert session.session_key is not None
    return session.session_key
