"""The replay viewer in Chromium: after every turn of a real game of each variant, and at
every decision the engine asks for inside a turn, the board drawn on screen (read from the SVG)
is the Python engine's (the Game re-simulated through its public API, not the frames the page
draws); every step between shows only tiles that are in play; and the controls, keys and turn
links move it."""

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pytest_playwright", reason="pip install playwright pytest-playwright")

from django.urls import reverse
from nimmt_site_data import VIEWER_GAMES, SiteData, build, features
from playwright.sync_api import Page, expect

from arena.engine import DecisionKind, Game, PlaceLuck, PlayAction, PlayTile, TakeRow
from arena.engine.replay import as_record, simulate, start

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
  const hands = [...document.querySelectorAll('.players tbody tr .hand')].map(
    td => +td.textContent);
  const trayTiles = [...svg.querySelectorAll('g.tile[data-tray]')]
    .sort((a, b) => a.dataset.traySlot - b.dataset.traySlot)
    .map(g => [+g.dataset.tile, +g.dataset.tray]);  // in the placing order the tray shows
  const stopRows = [...svg.querySelectorAll('g.stop')].map(g => +g.dataset.row).sort();
  return {turn: +svg.dataset.turn, atTurnEnd: svg.dataset.atTurnEnd, board, markers, scores,
          hands, doubled, overflow, tray: trayTiles.length, trayTiles, stopRows,
          stops: stopRows.length};
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


def markers_of(game: Game) -> list[list[Any]]:
    return sorted(
        [r, s, card] for r, row in enumerate(game.markers) for s, card in enumerate(row) if card
    )


def decisions_inside_turns(replay: dict[str, Any]) -> list[dict[str, Any]]:
    """The engine's position at every decision it asks for inside a turn, in order (the replay
    driven decision by decision through Game.apply), as the screen shows it."""
    game = start(as_record(replay))
    found = []
    for turn in replay["turns"]:
        for seat, tile in enumerate(turn["plays"]):
            if tile is not None:
                game.apply(seat, PlayTile(tile))
        choices = list(turn["choices"])
        while game.in_turn():
            pending = game.pending
            assert pending is not None
            seat = pending.seats[0]
            current = [list(game.current)] if game.current is not None else []
            found.append(
                {
                    "kind": pending.kind.value,
                    "seat": seat,
                    "board": [list(row) for row in game.spaces],
                    "markers": markers_of(game),
                    "scores": list(game.scores),
                    "hands": [len(h) for h in game.hands],
                    "tray": current + [list(p) for p in game.to_place()],
                    "stops": sorted(game.stops),
                }
            )
            nxt = choices[0] if choices else {}
            if pending.kind is DecisionKind.ACTION:
                if nxt.get("kind") == "action" and nxt.get("tile") == pending.tile:
                    choices.pop(0)
                    game.apply(seat, PlayAction(nxt["card"], nxt.get("row"), nxt.get("new_tile")))
                else:
                    game.apply(seat, PlayAction(None))
            elif pending.kind is DecisionKind.LUCK:
                choices.pop(0)
                game.apply(seat, PlaceLuck(nxt["row"], nxt["space"]))
            else:
                choices.pop(0)
                game.apply(seat, TakeRow(nxt["row"]))
    return found


def open_viewer(page: Page, live_server: Any, site: SiteData, variant: str, hash: str = "") -> None:
    match = site.viewer_matches[variant]
    page.goto(live_server.url + reverse("match-game", args=[match.uuid, 1]) + hash)
    page.wait_for_selector("#viewer[data-ready]", state="attached", timeout=15_000)
    status = page.locator(".viewer-status").text_content()
    assert page.get_attribute("#viewer", "data-ready") == "1", status


@pytest.mark.parametrize(("variant", "players"), VIEWER_GAMES, ids=[v for v, _ in VIEWER_GAMES])
def test_the_board_on_screen_is_the_engines_after_every_turn(
    page: Page, live_server: Any, site: SiteData, variant: str, players: int
) -> None:
    replay = replay_of(site, variant)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_viewer(page, live_server, site, variant)
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
        assert sorted(shown["markers"]) == markers_of(game), where
        assert shown["tray"] == 0 and shown["stops"] == 0, where
        expected = replay["result"]["scores"] if k == turns else game.scores
        assert shown["scores"] == list(expected), where
    assert errors == []
    seen = features(as_record(replay))
    if variant == "pro+luck":  # this game shows every action card and both luck markers
        for card in ("stop", "swap", "skip", "front", "ascending", "anywhere", "another", "plus5"):
            assert seen[f"action:{card}"], card
        assert seen["luck:plus5"] and seen["luck:final10"]
    if variant == "classic":
        assert seen["take_row:"]


@pytest.mark.parametrize("variant", [v for v, _ in VIEWER_GAMES])
def test_every_step_inside_a_turn_shows_the_engines_tiles_and_its_position_at_each_decision(
    page: Page, live_server: Any, site: SiteData, variant: str
) -> None:
    """Step through a whole game placement by placement. Where the engine stops for a decision
    inside a turn, the screen is the engine's position there: board, markers, scores, hand
    sizes, the revealed tiles still waiting above the board, Stop markers. At every step no
    tile is drawn twice, and every tile on screen is one the engine had on the board after the
    turn before or one revealed this turn; a card game's sixth card shows beyond its full row."""
    replay = replay_of(site, variant)
    decisions = decisions_inside_turns(replay)
    open_viewer(page, live_server, site, variant)
    steps = page.evaluate("window.nimmtViewer.steps()")
    asked = [s for s in steps if s["asks"]]
    assert [(s["asks"]["kind"], s["asks"]["seat"]) for s in asked] == [
        (d["kind"], d["seat"]) for d in decisions
    ]
    expected = iter(decisions)
    boards = [engine_after(replay, k).spaces for k in range(len(replay["turns"]) + 1)]
    stops_seen = sixth_cards = 0
    for step in steps:
        page.evaluate(f"window.nimmtViewer.goToStep({step['index']})")
        shown = page.evaluate(READ_BOARD)
        turn = step["turn"]
        where = f"{variant}, step {step['index']} ({step['kind']}, turn {turn})"
        assert shown["doubled"] == [], where
        on_screen = [t for row in shown["board"] for t in row if t > 0]
        on_screen += [t for t, _seat in shown["trayTiles"]] + [t for _r, _s, t in shown["overflow"]]
        if turn > 0:
            plays = replay["turns"][turn - 1]
            revealed = {t for t in plays["plays"] if t is not None} | {
                c["new_tile"] for c in plays["choices"] if "new_tile" in c
            }
            before = {t for row in boards[turn - 1] for t in row if t > 0}
            assert set(on_screen) <= before | revealed, where
        if step["asks"]:
            engine = next(expected)
            assert shown["board"] == engine["board"], where
            assert sorted(shown["markers"]) == engine["markers"], where
            assert shown["scores"] == engine["scores"], where
            assert shown["hands"] == engine["hands"], where
            assert shown["trayTiles"] == engine["tray"], where
            assert shown["stopRows"] == engine["stops"], where
        if step["kind"] == "end":
            assert shown["board"] == boards[turn] and shown["tray"] == 0, where
        if step["kind"] == "sixth":
            [(row, space, tile)] = shown["overflow"]
            assert space == 5 and all(t > 0 for t in shown["board"][row]), where
            assert tile not in [t for r in shown["board"] for t in r], where
            sixth_cards += 1
        else:
            assert shown["overflow"] == [], where
        stops_seen += shown["stops"]
    if variant == "pro+luck":  # this game plays a Stop card
        assert stops_seen > 0
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
        # A function, not an expression: the site's policy forbids eval, which an expression needs.
        f"() => +document.querySelector('svg.board').dataset.frame >= {start + 3}",
        timeout=10_000,
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


def test_a_replay_that_does_not_verify_shows_why_instead_of_a_board(
    page: Page, live_server: Any, site: SiteData
) -> None:
    match = site.viewer_matches["basic"]
    assert match.result_path is not None
    stored = Path(match.result_path, "game-00001.json")
    replay = json.loads(stored.read_text())
    replay["turns"][3]["scores"][1] += 2
    stored.write_text(json.dumps(replay))
    page.goto(live_server.url + reverse("match-game", args=[match.uuid, 1]))
    page.wait_for_selector("#viewer[data-ready='error']", state="attached", timeout=15_000)
    status = page.locator(".viewer-status")
    expect(status).to_contain_text("This replay has no frames")
    expect(status).to_contain_text("turn 4: scores after the turn")
    assert page.locator("svg.board g.tile").count() == 0
