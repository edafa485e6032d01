"""The site in Chromium: every page fits a phone, screenshots of each (desktop and 375x740),
a bot uploaded through the form and validated by a real worker, and a tournament an organiser
creates and starts in the browser, played by a real worker until its standings appear."""

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pytest_playwright", reason="pip install playwright pytest-playwright")

from django.urls import reverse
from nimmt_site_data import PASSWORD, SiteData, build
from nimmt_site_testing import TEST_BOTS, CeleryProcess, bot_files
from playwright.sync_api import Browser, Page, ViewportSize, expect
from submissions.models import BotVersion
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

PHONE: ViewportSize = {"width": 375, "height": 740}


def log_in(page: Page, base: str, username: str) -> None:
    page.goto(base + reverse("login"))
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name=f"Log out {username}")).to_be_visible()


def shoot(page: Page, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def fits_the_screen(page: Page) -> None:
    """Nothing sticks out sideways: wide tables scroll inside their own frame."""
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= page.viewport_size["width"] + 1, f"{page.url} is {wide} px wide"  # type: ignore[index]


@pytest.fixture
def site() -> SiteData:
    return build()


def pages(site: SiteData) -> list[tuple[str, str, str | None]]:
    """(screenshot name, path, who is logged in)."""
    assert site.showcase is not None and site.tournament is not None
    showcase = site.showcase
    replay = site.viewer_matches["pro+luck"]
    return [
        ("home", reverse("home"), None),
        ("ladder", site.ladders["basic"].get_absolute_url(), None),
        ("bot", site.bots["alice-bot"].get_absolute_url(), None),
        ("bot-owner", site.bots["alice-bot"].get_absolute_url(), "alice"),
        ("matches", reverse("match-list"), None),
        ("match", showcase.get_absolute_url(), None),
        ("replay", reverse("match-game", args=[replay.uuid, 1]) + "#turn=9", None),
        (
            "replay-classic",
            reverse("match-game", args=[site.viewer_matches["classic"].uuid, 1]) + "#turn=6",
            None,
        ),
        ("tournament", site.tournament.get_absolute_url(), None),
        ("tournaments", reverse("tournament-list"), None),
        ("write-a-bot", reverse("guide"), None),
        ("rules", reverse("guide-document", args=["rules"]), None),
        ("protocol", reverse("guide-document", args=["protocol"]), None),
    ]


def test_every_page_renders_fits_a_phone_and_is_photographed(
    page: Page, browser: Browser, live_server: Any, site: SiteData, screenshot_dir: Path
) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    phone_context = browser.new_context(viewport=PHONE)
    phone = phone_context.new_page()
    phone.on("pageerror", lambda error: errors.append(str(error)))
    logged_in: set[tuple[str, str]] = set()
    for name, path, user in pages(site):
        for tab, suffix in ((page, ""), (phone, "-phone")):
            if user and (user, suffix) not in logged_in:
                tab.context.clear_cookies()
                log_in(tab, live_server.url, user)
                logged_in.add((user, suffix))
            elif not user:
                tab.context.clear_cookies()
                logged_in.clear()
            response = tab.goto(live_server.url + path)
            assert response is not None and response.status == 200, path
            if name.startswith("replay"):
                tab.wait_for_selector("#viewer[data-ready='1']")
            if suffix:
                fits_the_screen(tab)
            shoot(tab, screenshot_dir, name + suffix)
            if name == "replay" and not suffix:  # inside a turn: revealed tiles, a placement
                tab.keyboard.press("ArrowRight")
                tab.keyboard.press("ArrowRight")
                tab.wait_for_timeout(700)  # the tile's glide
                shoot(tab, screenshot_dir, "replay-step")
    phone_context.close()
    assert errors == []
    assert len(list(screenshot_dir.glob("*.png"))) >= 2 * len(pages(site))


def test_a_bot_is_uploaded_through_the_form_and_validated(
    page: Page, live_server: Any, celery_worker: CeleryProcess, screenshot_dir: Path, tmp_path: Path
) -> None:
    build(viewer_only=True)
    archive = tmp_path / "carol-bot.zip"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zipped:
        for name, content in bot_files(TEST_BOTS / "quick", "carol-bot").items():
            zipped.writestr(name, content)
    archive.write_bytes(buffer.getvalue())
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + reverse("new-bot"))
    page.get_by_label("Name").fill("carol-bot")
    page.get_by_label("File").set_input_files(str(archive))
    page.get_by_role("button", name="Upload").click()
    expect(page.locator("h1")).to_have_text("carol-bot")
    expect(page.locator(".messages")).to_contain_text("Uploaded")
    version = BotVersion.objects.get(bot__name="carol-bot")
    for _ in range(90):
        version.refresh_from_db()
        if version.is_final:
            break
        page.wait_for_timeout(1000)
    assert version.status == BotVersion.PASSED, version.validation_log
    page.reload()
    expect(page.locator("#versions")).to_contain_text("passed")
    page.locator("#versions summary").first.click()
    expect(page.locator("#versions pre")).to_contain_text("PASSED")
    shoot(page, screenshot_dir, "bot-uploaded")


def test_an_organiser_runs_a_tournament_in_the_browser(
    page: Page,
    browser: Browser,
    live_server: Any,
    celery_worker: CeleryProcess,
    screenshot_dir: Path,
) -> None:
    build(viewer_only=True)
    log_in(page, live_server.url, "olga")
    page.goto(live_server.url + reverse("tournament-list"))
    page.get_by_role("link", name="New tournament").click()
    page.get_by_label("Name").fill("Browser cup")
    page.get_by_label("Variant").select_option("basic")
    page.get_by_label("Bots per game").fill("2")
    page.get_by_label("round robin").check()
    page.get_by_label("Games per pairing").fill("1")
    page.locator("#entrant-filter").fill("bot")  # the filter narrows the list
    expect(page.get_by_label("heuristic v1 (house)")).to_be_hidden()
    page.locator("#entrant-filter").fill("")
    for label in ("alice-bot v1 (alice)", "bob-bot v1 (bob)", "heuristic v1 (house)"):
        page.get_by_label(label).check()
    shoot(page, screenshot_dir, "tournament-new")
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.locator("h1")).to_have_text("Browser cup")
    page.get_by_role("button", name="Start the tournament (3 games)").click()
    expect(page.locator(".messages")).to_contain_text("Started")
    # The page polls while the workers play; when the last game is in, it shows the result.
    expect(page.locator(".meta .badge")).to_have_text("finished", timeout=180_000)
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(3)
    for row in range(3):
        expect(rows.nth(row).locator("td").nth(2)).to_have_text("2")  # games each
    expect(page.locator("#crosstable")).to_be_visible()
    assert Tournament.objects.get().status == Tournament.FINISHED
    shoot(page, screenshot_dir, "tournament-played")
    phone_context = browser.new_context(viewport=PHONE)
    phone = phone_context.new_page()
    phone.goto(page.url)
    fits_the_screen(phone)
    shoot(phone, screenshot_dir, "tournament-played-phone")
    phone_context.close()
