"""The replay viewer in Chromium: after every turn of a real game of each variant, the board
drawn on screen (read from the SVG) is the Python engine's board after that many turns; and
the controls, keys and turn links move it."""

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pytest_playwright", reason="pip install playwright pytest-playwright")

from django.urls import reverse
from nimmt_site_data import VIEWER_GAMES, SiteData, build, features
from playwright.sync_api import Page, expect

from arena.engine.replay import simulate

pytestmark = pytest.mark.django_db(transaction=True)

READ_BOARD = """() => {
  const svg = document.querySelector('svg.board');
  const sizes = {};
  svg.querySelectorAll('g.space[data-row]').forEach(g => {
    const r = +g.dataset.row, s = +g.dataset.space;
    sizes[r] = Math.max(sizes[r] || 0, s + 1);
  });
  const rows = Object.keys(sizes).length;
  const board = [];
  for (let r = 0; r < rows; r++) board.push(new Array(sizes[r]).fill(0));
  svg.querySelectorAll('g.space.skipped').forEach(
    g => { board[+g.dataset.row][+g.dataset.space] = -1; });
  const doubled = [], overflow = [];
  svg.querySelectorAll('g.tile[data-row]').forEach(g => {
    const r = +g.dataset.row, s = +g.dataset.space;
    if (g.classList.contains('overflow')) { overflow.push([r, s, +g.dataset.tile]); return; }
    if (board[r][s] > 0) doubled.push([r, s]);
    board[r][s] = +g.dataset.tile;
  });
  const markers = [...svg.querySelectorAll('g.marker')].map(
    g => [+g.dataset.row, +g.dataset.space, g.dataset.marker]);
  const scores = [...document.querySelectorAll('.players tbody tr .score .value')].map(
    td => +td.textContent);
  const tray = svg.querySelectorAll('g.tile[data-tray]').length;
  return {turn: +svg.dataset.turn, atTurnEnd: svg.dataset.atTurnEnd, board, markers, scores,
          doubled, overflow, tray, stops: svg.querySelectorAll('g.stop').length};
}"""


@pytest.fixture
def site() -> SiteData:
    return build(viewer_only=True)


def replay_of(site: SiteData, variant: str) -> dict[str, Any]:
    match = site.viewer_matches[variant]
    assert match.result_path is not None
    data: dict[str, Any] = json.loads(Path(match.result_path, "game-00001.json").read_text())
    return data


def engine_after(replay: dict[str, Any], turns: int) -> Any:
    """The engine's game after the first ``turns`` turns of ``replay``."""
    game, _problems = simulate({**replay, "turns": replay["turns"][:turns]})
    return game


def open_viewer(page: Page, live_server: Any, site: SiteData, variant: str, hash: str = "") -> None:
    match = site.viewer_matches[variant]
    page.goto(live_server.url + reverse("match-game", args=[match.uuid, 1]) + hash)
    page.wait_for_selector("#viewer[data-ready='1']", timeout=15_000)


@pytest.mark.parametrize(("variant", "players"), VIEWER_GAMES, ids=[v for v, _ in VIEWER_GAMES])
def test_the_board_on_screen_is_the_engines_after_every_turn(
    page: Page, live_server: Any, site: SiteData, variant: str, players: int
) -> None:
    replay = replay_of(site, variant)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_viewer(page, live_server, site, variant)
    assert page.evaluate("window.nimmtViewer.problems") == []
    turns = len(replay["turns"])
    assert page.evaluate("window.nimmtViewer.turns") == turns
    for k in range(turns + 1):
        page.evaluate(f"window.nimmtViewer.goToTurn({k})")
        shown = page.evaluate(READ_BOARD)
        game = engine_after(replay, k)
        where = f"{variant}, after turn {k}"
        assert shown["turn"] == k and shown["atTurnEnd"] == "1", where
        assert shown["doubled"] == [], where
        assert shown["board"] == game.spaces, where
        assert page.evaluate(f"window.nimmtViewer.boardAt({k})") == game.spaces, where
        markers = sorted(
            [r, s, card]
            for r, row in enumerate(game.markers)
            for s, card in enumerate(row)
            if card is not None
        )
        assert sorted(shown["markers"]) == markers, where
        assert shown["tray"] == 0 and shown["stops"] == 0, where
        expected = replay["result"]["scores"] if k == turns else game.scores
        assert shown["scores"] == list(expected), where
    assert errors == []
    seen = features(replay)
    if variant == "pro+luck":  # this game shows every action card and both luck markers
        for card in ("stop", "swap", "skip", "front", "ascending", "anywhere", "another", "plus5"):
            assert seen[f"action:{card}"], card
        assert seen["luck:plus5"] and seen["luck:final10"]
    if variant == "classic":
        assert seen["take_row:"]


@pytest.mark.parametrize("variant", [v for v, _ in VIEWER_GAMES])
def test_every_step_inside_a_turn_is_drawn_once_per_tile(
    page: Page, live_server: Any, site: SiteData, variant: str
) -> None:
    """Step through a whole game placement by placement: every frame's board on screen is
    the simulation's, no tile is drawn twice, revealed tiles wait above the board, and the
    card game's sixth card shows beyond its row before it takes it."""
    open_viewer(page, live_server, site, variant)
    frames = page.evaluate("window.nimmtViewer.game.frames")
    stops_seen = sixth_cards = 0
    for frame in frames:
        page.evaluate(f"window.nimmtViewer.viewer.goTo({frame['index']}, false)")
        shown = page.evaluate(READ_BOARD)
        where = f"{variant}, frame {frame['index']}"
        assert shown["doubled"] == [], where
        assert shown["board"] == frame["spaces"], where
        assert shown["tray"] == len(frame["tray"]), where
        overflow = frame["overflow"]
        expected = [[overflow["row"], 5, overflow["tile"]]] if overflow else []
        assert shown["overflow"] == expected, where
        sixth_cards += bool(overflow)
        stops_seen += shown["stops"]
    if variant.startswith("pro"):
        assert stops_seen > 0 or variant == "pro"  # pro+luck's game plays a Stop card
    if variant == "classic":
        assert sixth_cards > 0


def test_the_controls_keys_and_turn_links_move_the_viewer(
    page: Page, live_server: Any, site: SiteData
) -> None:
    replay = replay_of(site, "basic+luck")
    open_viewer(page, live_server, site, "basic+luck", "#turn=5")
    svg = page.locator("svg.board")
    expect(svg).to_have_attribute("data-turn", "5")
    assert page.evaluate(READ_BOARD)["board"] == engine_after(replay, 5).spaces
    page.keyboard.press("End")
    expect(svg).to_have_attribute("data-turn", str(len(replay["turns"])))
    assert page.url.endswith(f"#turn={len(replay['turns'])}")
    page.keyboard.press("Home")
    expect(svg).to_have_attribute("data-frame", "0")
    page.keyboard.press("Shift+ArrowRight")
    expect(svg).to_have_attribute("data-turn", "1")
    page.keyboard.press("ArrowRight")  # one placement into turn 2: the reveal
    expect(svg).to_have_attribute("data-at-turn-end", "0")
    expect(page.locator(".caption")).to_contain_text("Turn 2:")
    page.keyboard.press("ArrowLeft")
    expect(svg).to_have_attribute("data-at-turn-end", "1")
    page.locator("[data-act=next-turn]").click()
    expect(svg).to_have_attribute("data-turn", "2")
    page.locator("[data-act=prev-turn]").click()
    expect(svg).to_have_attribute("data-turn", "1")
    page.locator("[data-act=turn]").fill("7")
    expect(svg).to_have_attribute("data-turn", "7")
    expect(page.locator("[data-act=link]")).to_have_attribute("href", "#turn=7")
    page.evaluate("window.location.hash = '#turn=3'")
    expect(svg).to_have_attribute("data-turn", "3")
    # Playing animates frame after frame; Space pauses.
    page.locator("[data-act=speed]").select_option("4")
    start = int(svg.get_attribute("data-frame") or 0)
    page.locator("[data-act=play]").click()
    page.wait_for_function(
        f"+document.querySelector('svg.board').dataset.frame >= {start + 3}", timeout=10_000
    )
    page.locator("body").press(" ")
    stopped = svg.get_attribute("data-frame")
    page.wait_for_timeout(800)
    assert svg.get_attribute("data-frame") == stopped
    expect(page.locator("[data-act=play]")).to_contain_text("Play")


def test_the_legend_shows_every_kind_of_space_of_the_board(
    page: Page, live_server: Any, site: SiteData
) -> None:
    open_viewer(page, live_server, site, "pro+luck")
    kinds = page.evaluate(
        "[...document.querySelectorAll('svg[data-legend-kind]')].map(s => s.dataset.legendKind)"
    )
    assert sorted(kinds) == sorted(".+-FDAC")
    drawn = page.evaluate(
        "[...new Set([...document.querySelectorAll('svg.board g.space[data-kind]')]"
        ".map(g => g.dataset.kind))]"
    )
    assert set(drawn) <= set(kinds)
    for what in ("plus5", "final10", "stop", "skipped", "tile"):
        assert page.locator(f"svg[data-legend='{what}'] > g").count() == 1, what
