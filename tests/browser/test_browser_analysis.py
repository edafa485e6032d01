"""The decision analysis panel of the replay viewer, in Chromium, for a real game: a signed-in
user asks for a seat's analysis, a real worker computes it, and the panel shows the stored
result: at each of the seat's decisions its options' expected scores, and the costliest
decisions, each moving the viewer to its step. A visitor who is not signed in sees it too but
cannot ask for one."""

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pytest_playwright", reason="pip install playwright pytest-playwright")

from django.urls import reverse
from matches.models import SeatAnalysis
from nimmt_site_data import SiteData, build
from nimmt_site_testing import CeleryProcess
from playwright.sync_api import Page, expect

from .test_browser_site import log_in, shoot

pytestmark = pytest.mark.django_db(transaction=True)

READ_PANEL = """() => {
  const rows = [...document.querySelectorAll('[data-analysis=options] tr')].map(tr => ({
    cells: [...tr.querySelectorAll('td')].map(td => td.textContent),
    chosen: tr.classList.contains('chosen'), best: tr.classList.contains('best')}));
  const list = [...document.querySelectorAll('[data-analysis=list] button')].map(
    b => ({text: b.textContent, frame: +b.dataset.frame}));
  return {rows, list, index: window.nimmtViewer.viewer.index,
          asks: window.nimmtViewer.frame().asks,
          note: document.querySelector('[data-analysis=step-note]').textContent};
}"""


def fixed(x: float | None) -> str:
    """A number as the panel writes it (JavaScript's Math.round: halves round up)."""
    return "\u2013" if x is None else f"{math.floor(x * 100 + 0.5) / 100:.2f}"


@pytest.fixture
def site() -> SiteData:
    return build(viewer_only=True)


@pytest.fixture
def analysis_worker(worker_env: dict[str, str], tmp_path: Path) -> Iterator[CeleryProcess]:
    """A real worker on the maintenance queue with a small analysis budget."""
    env = {**worker_env, "NIMMT_ANALYSIS_SAMPLES": "8"}
    worker = CeleryProcess.worker(env, tmp_path / "worker.log", queues="maintenance")
    worker.start()
    yield worker
    worker.kill()


@pytest.mark.slow
def test_the_analysis_panel_shows_a_seats_options_and_costliest_decisions_of_a_real_game(
    page: Page,
    live_server: Any,
    site: SiteData,
    analysis_worker: CeleryProcess,
    screenshot_dir: Path,
) -> None:
    match = site.viewer_matches["pro+luck"]
    url = live_server.url + reverse("match-game", args=[match.uuid, 1])
    log_in(page, live_server.url, "alice")
    page.goto(url)
    page.wait_for_selector("#viewer[data-ready='1']", state="attached", timeout=15_000)
    panel = page.locator("#analysis")
    expect(panel).to_have_attribute("data-status", "none")
    page.locator("[data-analysis=seat]").select_option("1")
    page.get_by_role("button", name="Analyse this seat").click()
    expect(panel).to_have_attribute("data-status", "done", timeout=60_000)
    result = SeatAnalysis.objects.get(match=match, game=1, seat=1).result
    assert result is not None and result["samples"] == 8
    decisions = result["decisions"]
    assert {d["kind"] for d in decisions} >= {"tile", "luck"}

    # The costliest decisions, in the stored order, with their costs and intervals.
    shown = page.evaluate(READ_PANEL)
    assert len(shown["list"]) == len(result["costliest"]) > 0
    for item, i in zip(shown["list"], result["costliest"], strict=True):
        d = decisions[i]
        assert item["frame"] == d["frame"]
        assert f"cost {fixed(d['cost'])} \u00b1 {fixed(d['cost_half'])}" in item["text"]
        assert f"Turn {d['turn']}, {d['kind']}" in item["text"]

    # Clicking one moves the viewer to the step where the engine asked the seat.
    costliest = decisions[result["costliest"][0]]
    page.locator("[data-analysis=list] button").first.click()
    assert page.evaluate(READ_PANEL)["index"] == costliest["frame"]

    # At every decision of the seat: its options, expected scores and intervals as stored.
    for d in decisions:
        page.evaluate(f"window.nimmtViewer.goToStep({d['frame']})")
        panel_now = page.evaluate(READ_PANEL)
        if d["kind"] != "tile":
            assert panel_now["asks"] == {"kind": d["kind"], "seat": 1}
        rows = {r["cells"][0].split(" \u00b7 ")[0]: r for r in panel_now["rows"]}
        assert set(rows) == {o["decision"] for o in d["options"]}
        for o in d["options"]:
            row = rows[o["decision"]]
            assert row["cells"][1:] == [fixed(o["mean"]), fixed(o["half"]), str(o["samples"])]
            assert row["chosen"] == (o["decision"] == d["chosen"])
            assert row["best"] == (o["decision"] == d["best"])
    page.locator("[data-analysis=list] button").first.click()
    shoot(page, screenshot_dir, "analysis-panel")

    # A visitor who is not signed in sees the stored analysis, and no button to ask for one.
    page.context.clear_cookies()
    page.goto(url)
    page.wait_for_selector("#viewer[data-ready='1']", state="attached", timeout=15_000)
    page.locator("[data-analysis=seat]").select_option("1")
    expect(panel).to_have_attribute("data-status", "done")
    expect(page.get_by_role("button", name="Analyse this seat")).to_have_count(0)
    assert len(page.evaluate(READ_PANEL)["list"]) == len(result["costliest"])
    assert SeatAnalysis.objects.count() == 1
