"""The site in Chromium under its Content-Security-Policy, and its errors as people see them:
no page (the replay viewer and a running tournament's live standings included) breaks a rule
of the policy; error pages are in the site's layout with the view's words; a locked-out log-in
says so; retiring a bot asks first."""

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pytest_playwright", reason="pip install playwright pytest-playwright")

from django.urls import reverse
from nimmt_site_data import PASSWORD, SiteData, build
from playwright.sync_api import ConsoleMessage, Page, expect
from submissions.models import Bot
from tournaments import services
from tournaments.models import Tournament

from tests.browser.test_browser_site import log_in, shoot

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def site() -> SiteData:
    return build()


@pytest.fixture
def people() -> SiteData:
    """The users and their bots only (quicker to build)."""
    return build(viewer_only=True)


class Violations:
    """What the browser refused under the policy: console reports and violation events."""

    def __init__(self, page: Page) -> None:
        self.seen: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.seen.append(f"script error: {error}"))
        page.add_init_script(
            "document.addEventListener('securitypolicyviolation', e => console.error("
            "'CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));"
        )

    def _console(self, message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "CSP violation" in message.text:
            self.seen.append(f"{message.page.url if message.page else ''}: {message.text}")


def running_tournament(site: SiteData) -> Tournament:
    entrants = [site.bots[name].active_version for name in ("alice-bot", "bob-bot")]
    tournament = services.create(
        site.olga,
        name="Live one",
        variant="basic",
        players=2,
        format=Tournament.ROUND_ROBIN,
        games_per_pairing=2,
        rounds=1,
        versions=[v for v in entrants if v is not None],
        seed=3,
    )
    services.start(tournament, site.olga)
    return tournament


@pytest.mark.slow
def test_no_page_breaks_the_content_security_policy(
    page: Page, live_server: Any, site: SiteData, screenshot_dir: Path
) -> None:
    violations = Violations(page)
    assert site.showcase is not None and site.tournament is not None
    live = running_tournament(site)
    paths = [
        reverse("home"),
        site.ladders["basic"].get_absolute_url(),
        site.bots["alice-bot"].get_absolute_url(),
        reverse("match-list"),
        site.showcase.get_absolute_url(),
        site.tournament.get_absolute_url(),
        reverse("tournament-list"),
        reverse("signup"),
        reverse("login"),
        "/admin/login/",
    ]
    page.goto(live_server.url + reverse("home"))
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<b style=\"color: red\">x</b>')")
    page.wait_for_timeout(300)
    assert any("style-src" in seen for seen in violations.seen), violations.seen  # it watches
    violations.seen.clear()
    for path in paths:
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 200, path
        policy = response.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy
        assert "unsafe-inline" not in policy
    for variant in ("pro+luck", "classic"):
        match = site.viewer_matches[variant]
        page.goto(live_server.url + reverse("match-game", args=[match.uuid, 1]) + "#turn=4")
        page.wait_for_selector("#viewer[data-ready='1']", timeout=15_000)
        # The seat colours are set through the style object, which the policy allows.
        dot = page.locator(".players .seat-dot").first
        assert dot.evaluate("e => getComputedStyle(e).backgroundColor") != "rgba(0, 0, 0, 0)"
    # A running tournament's page polls its live fragment (a fetch under connect-src 'self').
    page.goto(live_server.url + live.get_absolute_url())
    with page.expect_response(lambda r: "/live/" in r.url, timeout=10_000) as polled:
        pass
    assert polled.value.status == 200
    expect(page.locator("progress.progress")).to_be_visible()
    log_in(page, live_server.url, "alice")
    for path in (reverse("new-bot"), reverse("my-bots"), reverse("tokens")):
        page.goto(live_server.url + path)
    shoot(page, screenshot_dir, "csp-tokens")
    assert violations.seen == []


def test_error_pages_are_in_the_layout_with_the_views_words(
    page: Page, live_server: Any, people: SiteData, screenshot_dir: Path
) -> None:
    violations = Violations(page)
    missing = page.goto(live_server.url + "/bots/not-here/")
    assert missing is not None and missing.status == 404
    expect(page.locator("h1")).to_have_text("Not found")
    expect(page.locator("#error-message")).to_contain_text("There is no page at /bots/not-here/.")
    expect(page.locator(".site-header")).to_be_visible()
    shoot(page, screenshot_dir, "error-404")
    log_in(page, live_server.url, "bob")
    alices = people.bots["alice-bot"]
    refused = page.goto(live_server.url + reverse("upload-version", args=[alices.uuid]))
    assert refused is not None and refused.status == 403
    expect(page.locator("#error-message")).to_have_text("Only the bot's owner can change it.")
    expect(page.get_by_role("button", name="Log out bob")).to_be_visible()
    shoot(page, screenshot_dir, "error-403")
    api = page.goto(live_server.url + "/api/v1/bots/not-a-uuid/")
    assert api is not None and api.status == 404
    assert api.headers["content-type"] == "application/json"
    assert "ids in paths are UUIDs" in api.json()["error"]
    assert violations.seen == []


def test_a_locked_out_log_in_says_so_and_a_right_password_waits(
    page: Page, live_server: Any, people: SiteData, screenshot_dir: Path
) -> None:
    for n in range(5):
        page.goto(live_server.url + reverse("login"))
        page.get_by_label("Username").fill("alice")
        page.get_by_label("Password").fill(f"wrong-{n}")
        page.get_by_role("button", name="Log in").click()
    expect(page.locator("#locked-out")).to_contain_text("Too many wrong passwords")
    page.goto(live_server.url + reverse("login"))
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("#locked-out")).to_be_visible()
    expect(page.get_by_role("button", name="Log out alice")).to_have_count(0)
    shoot(page, screenshot_dir, "locked-out")


def test_retiring_a_bot_asks_first_and_going_back_keeps_it(
    page: Page, live_server: Any, people: SiteData, screenshot_dir: Path
) -> None:
    bot = people.bots["bob-bot"]
    log_in(page, live_server.url, "bob")
    page.goto(live_server.url + bot.get_absolute_url())
    page.get_by_role("link", name="Retire bob-bot…").click()
    expect(page.locator("h1")).to_have_text("Retire bob-bot?")
    shoot(page, screenshot_dir, "retire-confirm")
    page.get_by_role("link", name="No, go back").click()
    expect(page.locator("h1")).to_have_text("bob-bot")
    assert not Bot.objects.get(pk=bot.pk).is_retired
    page.get_by_role("link", name="Retire bob-bot…").click()
    page.get_by_role("button", name="Yes, retire bob-bot").click()
    expect(page.locator(".messages")).to_contain_text("is retired")
    assert Bot.objects.get(pk=bot.pk).is_retired
