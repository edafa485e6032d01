"""A bot author's path in a real browser, in a language that is not Python: download the
JavaScript starter kit from "Write a bot", upload it through the form, see a real worker check
it, and see it play a ladder match."""

from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from ladders.models import Ladder
from matches.models import Match
from matches.tasks import queue_match
from nimmt_site_data import PASSWORD, build
from nimmt_site_testing import CeleryProcess, wait_for
from playwright.sync_api import Page, expect
from submissions.models import Bot, BotVersion

pytestmark = pytest.mark.django_db(transaction=True)


def _log_in(page: Page, base: str, username: str) -> None:
    page.goto(base + reverse("login"))
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name=f"Log out {username}")).to_be_visible()


@pytest.mark.slow
def test_a_javascript_kit_from_the_guide_is_uploaded_checked_and_plays_a_ladder_match(
    page: Page, live_server: Any, celery_worker: CeleryProcess, screenshot_dir: Path, tmp_path: Path
) -> None:
    build(viewer_only=True)
    _log_in(page, live_server.url, "alice")
    page.goto(live_server.url + reverse("home"))
    page.get_by_role("link", name="Write a bot").click()
    expect(page.locator("h1")).to_have_text("Write a bot")
    with page.expect_download() as download:
        page.locator(f'a[href="{reverse("guide-kit", args=["javascript"])}"]').click()
    kit = tmp_path / "kit.zip"
    download.value.save_as(kit)
    page.goto(live_server.url + reverse("new-bot"))
    page.get_by_label("Name").fill("js-bot")
    page.get_by_label("File").set_input_files(str(kit))
    page.get_by_role("button", name="Upload").click()
    expect(page.locator("h1")).to_have_text("js-bot")
    version = BotVersion.objects.get(bot__name="js-bot")

    def checked() -> BotVersion | None:
        version.refresh_from_db()
        return version if version.is_final else None

    wait_for("the check of the JavaScript bot", checked, timeout=300, every=1)
    assert version.status == BotVersion.PASSED, version.validation_log
    page.reload()
    expect(page.locator("#versions")).to_contain_text("passed")
    # On the ladder it plays like any bot.
    ladder = Ladder.objects.get(slug="pro-luck-3")
    js_bot = Bot.objects.get(name="js-bot")  # its passed version is the active one now
    match = queue_match(
        ladder, [js_bot, Bot.objects.get(name="heuristic"), Bot.objects.get(name="random-1")]
    )
    wait_for(
        "the ladder match",
        lambda: Match.objects.filter(pk=match.pk, status=Match.FINISHED).first(),
        timeout=240,
        every=1,
    )
    page.goto(live_server.url + match.get_absolute_url())
    row = page.locator("#results tr", has_text="js-bot")
    expect(row).to_contain_text("none")  # no fault
    page.screenshot(path=str(screenshot_dir / "js-bot-match.png"), full_page=True)
