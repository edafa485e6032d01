"""The organisers' and owners' new pages in Chromium: a matchup, a season, the challenge form and
the notifications page render without script errors, fit a 375 px phone, and are photographed."""

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pytest_playwright", reason="pip install playwright pytest-playwright")

from challenges import services as challenges
from django.urls import reverse
from django.utils import timezone
from matches.models import Match, Seat
from matchups import services as matchups
from nimmt_site_testing import basic_ladder, make_user, organiser, program_bot
from playwright.sync_api import Browser, ViewportSize, expect
from seasons import services as seasons

pytestmark = pytest.mark.django_db(transaction=True)

PHONE: ViewportSize = {"width": 375, "height": 740}
PASSWORD = "a-long-test-password"


def test_the_new_pages_fit_a_phone_and_are_photographed(
    browser: Browser, live_server: Any, screenshot_dir: Path
) -> None:
    alice = make_user("alice", PASSWORD)
    mine, rival = program_bot("mine-with-a-long-name", owner=alice), program_bot("rival")
    ladder = basic_ladder(players=2)
    for n in range(30):
        match = Match.objects.create(
            ladder=ladder if n % 3 else None,
            variant="basic",
            players=2,
            games=2,
            duplicate=True,
            seed=n,
            status=Match.FINISHED,
            finished_at=timezone.now(),
        )
        for seat, bot in enumerate([mine, rival]):
            assert bot.active_version is not None
            points = [30 + (n * 7 + seat * 5) % 11]
            Seat.objects.create(
                match=match,
                seat=seat,
                bot=bot,
                version=bot.active_version,
                deal_scores=points,
                score=points[0],
                rank=1 + seat,
            )
        matchups.record(match.pk)
    challenge = challenges.create_challenge(alice, mine, "basic", 2, [rival], 2)
    now = timezone.now()
    season = seasons.create(
        organiser(),
        ladder.pk,
        name="Winter",
        starts_at=now,
        freezes_at=now + dt.timedelta(days=1),
        ends_at=now + dt.timedelta(days=2),
    )
    phone = browser.new_context(viewport=PHONE)
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    base = live_server.url
    page.goto(base + reverse("login"))
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out alice")).to_be_attached()
    for name, path in (
        ("matchup", reverse("matchup", args=[mine.uuid, rival.uuid])),
        ("challenge", challenge.get_absolute_url()),
        ("challenge-new", reverse("new-challenge")),
        ("challenges", reverse("challenge-list")),
        ("season", season.get_absolute_url()),
        ("notifications", reverse("notifications")),
    ):
        page.goto(base + path)
        expect(page.locator("h1")).to_be_visible()
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= 376, f"{path} is {wide} px wide"
        page.screenshot(path=str(screenshot_dir / f"{name}-phone.png"), full_page=True)
    assert errors == []
    phone.close()
