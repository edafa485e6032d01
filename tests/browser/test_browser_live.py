"""A match watched live in a real browser while a real worker plays it: the board moves as the
decisions land, without reloading, and shows exactly what the engine computed; from the first
frame to the last it never says "Game over" before a game's end, nor a turn beyond the game's."""

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from matches.live import public_frame
from matches.models import Match
from matches.tasks import queue_match
from nimmt_site_testing import CeleryProcess, basic_ladder, program_bot, wait_for
from playwright.sync_api import Page

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 375, "height": 740}

# Every frame the page draws, as the spectator read it: the viewer's "nimmt:frame" event (caught
# on its way down to #viewer), with the turn counter and the label of the empty tray.
RECORD_DRAWN = """
window.drawn = [];
document.addEventListener("nimmt:frame", function (e) {
  var tray = document.querySelector("#viewer .tray-empty");
  window.drawn.push({
    game: window.nimmtViewer.game(), index: e.detail.index, turn: e.detail.turn,
    counter: document.querySelector("#viewer .turn-out").textContent,
    tray: tray ? tray.textContent : "",
    caption: document.querySelector("#viewer .caption").textContent,
  });
}, true);
"""


def _engine_frames(page: Page, base: str, match: Match, game: int) -> list[dict[str, Any]]:
    response = page.request.get(base + reverse("match-frames", args=[match.uuid, game]))
    assert response.ok, response.status
    return [public_frame(frame) for frame in json.loads(response.body())["frames"]]


@pytest.mark.slow
def test_a_spectator_sees_the_board_move_as_the_worker_plays(
    page: Page, live_server: Any, celery_worker: CeleryProcess, screenshot_dir: Path
) -> None:
    ladder = basic_ladder(players=3)
    bots = [program_bot(f"sleepy-{n}", folder="sleepy") for n in range(3)]
    match = queue_match(ladder, bots, seed=9)  # a duplicate match: a deal in every rotation
    assert match.games >= 2
    page.set_viewport_size(PHONE)  # type: ignore[arg-type]
    page.add_init_script(RECORD_DRAWN)  # before the page's own scripts: from the first frame
    page.goto(live_server.url + reverse("match-live", args=[match.uuid]))
    page.wait_for_function("() => window.nimmtViewer && window.nimmtViewer.live")  # no eval (CSP)
    # While the match runs, the page receives more and more frames and keeps its board on the
    # newest one, the page never reloaded.
    page.evaluate("window.stayed = true")
    seen: list[int] = []

    def more_frames() -> bool | None:
        count = page.evaluate("window.nimmtViewer.frames(window.nimmtViewer.game() || 1).length")
        if count and (not seen or count > seen[-1]):
            seen.append(count)
        return len(seen) >= 3 or None

    wait_for("the board to move three times", more_frames, timeout=90, every=0.3)
    match.refresh_from_db()
    assert match.status == Match.RUNNING  # seen live, not afterwards
    assert page.evaluate("window.nimmtViewer.atLast()")
    board = page.evaluate("window.nimmtViewer.board()")
    tiles_drawn = page.locator("svg.board g.tile").count()
    assert tiles_drawn >= sum(1 for row in board for tile in row if tile > 0)
    page.screenshot(path=str(screenshot_dir / "live-phone.png"), full_page=True)
    wait_for(
        "the match to end",
        lambda: page.evaluate("window.nimmtViewer.ended") or None,
        timeout=120,
        every=0.5,
    )
    assert page.evaluate("window.stayed") is True
    assert page.locator("[data-live=end]").is_visible()
    match.refresh_from_db()
    assert match.status == Match.FINISHED
    # Every frame the spectator received is the engine's, from the stored replay.
    engine = {g: _engine_frames(page, live_server.url, match, g) for g in range(1, match.games + 1)}
    for game, frames in engine.items():
        received = page.evaluate(f"window.nimmtViewer.frames({game})")
        assert received == frames, game
    # What the spectator read, frame after frame: never "Game over" before a game's last frame,
    # never a turn above the game's number of turns (counted only once the game is over).
    drawn: list[dict[str, Any]] = page.evaluate("window.drawn")
    assert drawn[0]["game"] == 1
    assert (drawn[-1]["game"], drawn[-1]["index"]) == (match.games, len(engine[match.games]) - 1)
    for frame in drawn:
        frames = engine[frame["game"]]
        turns = sum(1 for f in frames if f["step"]["kind"] == "end")
        last = frame["index"] == len(frames) - 1
        assert (frame["tray"] == "Game over") == last, frame
        counter = re.fullmatch(
            r"(?:Deal|Turn (\d+))(?: / (\d+))?(?: · step \d+)?", frame["counter"]
        )
        assert counter, frame
        turn, total = counter.groups()
        assert turn is None or 1 <= int(turn) <= turns, frame
        assert total is None or (int(total) == turns and last), frame
        assert frame["turn"] == (int(turn) if turn else 0), frame
        # the caption speaks of the turn the counter shows
        ended = re.match(r"End of turn (\d+)\.", frame["caption"])
        assert ended is None or int(ended.group(1)) == frame["turn"], frame
        if last:
            assert "The game is over." in frame["caption"], frame
