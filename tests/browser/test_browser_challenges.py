"""Challenges in Chromium: an owner challenges two bots from a bot's page, sees the match queued,
played by a real worker and the edge on the results page, and the ladder's ratings unmoved; a
challenge against a bot whose owner does not accept them, or past a limit, is refused with the
reason."""

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pytest_playwright", reason="pip install playwright pytest-playwright")

from challenges import services
from challenges.models import Challenge
from core.templatetags.nimmt import signed
from django.urls import reverse
from ladders.models import Rating
from matches.models import Match
from nimmt_site_testing import (
    CeleryProcess,
    basic_ladder,
    engine_match,
    make_user,
    program_bot,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-long-test-password"


def log_in(page: Page, base: str, username: str) -> None:
    page.goto(base + reverse("login"))
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name=f"Log out {username}")).to_be_visible()


def test_an_owner_challenges_two_bots_and_sees_the_edge_and_the_refusals(
    page: Page,
    live_server: Any,
    worker_env: dict[str, str],
    tmp_path: Path,
    settings: Any,
    screenshot_dir: Path,
) -> None:
    alice = make_user("alice", PASSWORD)
    mine = program_bot("mine", owner=alice)
    house = program_bot("house-a")
    bobs = program_bot("bobs", owner=make_user("bob", PASSWORD))
    carols = program_bot("carols", owner=make_user("carol", PASSWORD))
    services.set_accepts_challenges(carols, False)
    ladder = basic_ladder(players=3)
    engine_match([mine, house, bobs], ladder=ladder)
    ratings_before = list(Rating.objects.order_by("pk").values())
    base = live_server.url
    log_in(page, base, "alice")

    # From bob's bot page: "Challenge bobs" opens the form with bobs chosen.
    page.goto(base + bobs.get_absolute_url())
    expect(page.locator("#challenge-policy")).to_contain_text("bobs accepts challenges")
    page.get_by_role("link", name="Challenge bobs").click()
    form = page.locator("#challenge-form")
    form.get_by_label("Players").fill("3")
    form.get_by_label("Opponents").select_option(
        [str(bobs.pk), str(house.pk)]  # the select's values are the bots' keys
    )
    form.get_by_label("Deals").fill("2")
    form.get_by_role("button", name="Challenge").click()
    expect(page.locator("#challenge-status")).to_have_text("queued")
    expect(page.get_by_text("Challenge sent")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "challenge-queued.png"), full_page=True)
    challenge = Challenge.objects.get()

    worker = CeleryProcess.worker(worker_env, tmp_path / "worker.log", queues="challenges")
    worker.start()
    try:
        # The page reloads itself until the match is over.
        expect(page.locator("#challenge-status")).to_have_text("finished", timeout=240_000)
    finally:
        worker.kill()
    edges = page.locator("#challenge-edges tbody tr")
    expect(edges).to_have_count(2)
    expected = services.edges(Challenge.objects.get(pk=challenge.pk))
    assert {e.opponent.name for e in expected} == {"bobs", "house-a"}
    for row, edge in zip((0, 1), expected, strict=True):
        expect(edges.nth(row)).to_contain_text(edge.opponent.name)
        # As the page writes it: a real minus sign, and no sign on an edge of exactly 0.
        shown = signed(edge.comparison.mean_diff, 2)
        expect(edges.nth(row).locator("td.edge")).to_contain_text(shown)
    page.screenshot(path=str(screenshot_dir / "challenge-played.png"), full_page=True)
    match = Match.objects.get(pk=challenge.match_id)
    assert match.status == Match.FINISHED and not match.rated and match.ladder_id is None
    assert list(Rating.objects.order_by("pk").values()) == ratings_before

    # carol does not accept challenges: refused, with the reason.
    page.goto(base + carols.get_absolute_url())
    expect(page.locator("#challenge-policy")).to_contain_text("does not accept challenges")
    expect(page.get_by_role("link", name="Challenge carols")).to_have_count(0)
    page.goto(base + reverse("new-challenge"))
    form = page.locator("#challenge-form")
    form.get_by_label("Players").fill("2")
    form.get_by_label("Opponents").select_option([str(carols.pk)])
    form.get_by_label("Deals").fill("1")
    form.get_by_role("button", name="Challenge").click()
    expect(page.locator("#challenge-refused")).to_have_text(
        "carols's owner does not accept challenges: choose another opponent."
    )

    # Past the hour's limit: refused, with the limit.
    settings.CHALLENGES_PER_HOUR = 1
    form = page.locator("#challenge-form")
    form.get_by_label("Opponents").select_option([str(house.pk)])
    form.get_by_role("button", name="Challenge").click()
    expect(page.locator("#challenge-refused")).to_contain_text(
        "You made 1 challenge in the last hour, the most allowed (1 an hour)"
    )
    page.screenshot(path=str(screenshot_dir / "challenge-refused.png"), full_page=True)
    assert Challenge.objects.count() == 1
