"""A bot's notes in the replay viewer, in Chromium: its owner sees, step by step, the note and
the per-option numbers of their bot's decision at the step where it was asked; anyone else
sees no note, on the page or in what the browser was sent (page, API, download).

The match is played by the match runner (the ``mcs`` house bot, in process, notes its own
estimate per tile) and kept in the arena's storage as the pipeline keeps it."""

import json
from typing import Any

import pytest

pytest.importorskip("pytest_playwright", reason="pip install playwright pytest-playwright")

from django.test import Client
from django.urls import reverse
from matches.models import Match
from nimmt_site_testing import make_user, program_bot, runner_match
from playwright.sync_api import Page, Response, expect

from arena.bots.mcs import MonteCarloBot
from arena.bots.random import RandomBot
from arena.engine.decisions import Decision
from arena.engine.frames import frames
from arena.engine.observation import Observation
from arena.table.notes import Note

from .test_browser_site import log_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def noted() -> tuple[Match, dict[str, Any]]:
    alice = make_user("alice")
    make_user("carol")
    bots = [program_bot("alice-bot", owner=alice), program_bot("random-1")]
    match = runner_match(
        bots, [lambda: MonteCarloBot("playouts=10"), RandomBot], variant="basic", seed=5
    )
    assert match.result_path is not None
    notes = json.loads((match.result_path / "notes" / "game-00001.json").read_text())
    return match, notes


def open_game(page: Page, base: str, match: Match) -> list[str]:
    """Open the game's viewer; the bodies of what the browser was sent for it."""
    sent: list[str] = []

    def keep(response: Response) -> None:
        if "/matches/" in response.url and response.ok:
            sent.append(response.body().decode("utf-8", "replace"))

    page.on("response", keep)
    page.goto(base + reverse("match-game", args=[match.uuid, 1]))
    page.wait_for_selector("#viewer[data-ready='1']", state="attached", timeout=15_000)
    return sent


def test_the_owner_sees_their_bots_note_at_the_step_of_each_decision(
    page: Page, live_server: Any, noted: tuple[Match, dict[str, Any]]
) -> None:
    match, notes = noted
    log_in(page, live_server.url, "alice")
    open_game(page, live_server.url, match)
    tiles = [n for n in notes["notes"] if n["kind"] == "tile"]
    assert len(tiles) >= 5
    for note in tiles[:5]:
        # A tile is chosen in the position after the previous turn.
        page.evaluate(f"window.nimmtViewer.goToTurn({note['turn']})")
        shown = page.locator(f".viewer-note[data-turn='{note['turn']}']")
        expect(shown).to_have_count(1)
        expect(shown.locator(".viewer-note-text")).to_have_text(note["text"])
        rows = shown.locator(".viewer-note-values tbody tr")
        expect(rows).to_have_count(len(note["values"]))
        expect(shown.locator("tr.chosen td").first).to_have_text(note["decision"])
        # One step on (the reveal), the decision is made: its note is no longer shown.
        page.evaluate("window.nimmtViewer.goToStep(window.nimmtViewer.frame().index + 1)")
        expect(page.locator(".viewer-note")).to_have_count(0)
        expect(page.locator(".viewer-notes")).to_contain_text("none at this step")


def test_nobody_else_sees_a_note_or_is_sent_one(
    page: Page, live_server: Any, noted: tuple[Match, dict[str, Any]]
) -> None:
    match, notes = noted
    text = notes["notes"][0]["text"]
    for user in (None, "carol"):
        if user is not None:
            log_in(page, live_server.url, user)
        sent = open_game(page, live_server.url, match)
        page.evaluate("window.nimmtViewer.goToTurn(1)")
        expect(page.locator(".viewer-notes")).to_have_count(0)
        assert page.locator("#viewer-notes").count() == 0
        html = page.content()
        assert "playouts over" not in html
        assert sent and not any(text in body or "playouts over" in body for body in sent)
        # Their replay download and the API's answer hold no note either.
        cookies = {c["name"]: c["value"] for c in page.context.cookies()}
        client = Client()
        for name, value in cookies.items():
            client.cookies[name] = value
        for url in ("match-replay", "api-match-replay"):
            response = client.get(reverse(url, args=[match.uuid, 1]))
            body = response.getvalue()
            assert "notes" not in json.loads(body) and b"playouts" not in body


class SaysWhatItDoes(RandomBot):
    """Random play, with a note on every decision: its kind and the decision."""

    def decide(self, view: Observation) -> Decision:
        decision = super().decide(view)
        self._said = f"{decision} ({view.pending.kind.value if view.pending else ''})"
        return decision

    def note(self) -> Note | None:
        return Note(self._said)


def test_the_owner_sees_a_luck_or_action_note_at_the_step_that_asks_for_it(
    page: Page, live_server: Any
) -> None:
    alice = make_user("alice")
    bots = [program_bot("alice-bot", owner=alice), program_bot("random-1"), program_bot("r-2")]
    match = runner_match(bots, [SaysWhatItDoes, RandomBot, RandomBot], variant="pro+luck", seed=4)
    assert match.result_path is not None
    replay = json.loads((match.result_path / "game-00001.json").read_text())
    notes = json.loads((match.result_path / "notes" / "game-00001.json").read_text())["notes"]
    shown = frames(replay).to_json()
    ends, steps = shown["turn_ends"], shown["frames"]
    others = [n for n in notes if n["kind"] != "tile"]
    assert {n["kind"] for n in others} >= {"luck"}
    log_in(page, live_server.url, "alice")
    open_game(page, live_server.url, match)
    for note in others[:4]:
        asked = [  # the frames of the note's turn that ask the seat for this kind of decision
            i
            for i in range(ends[note["turn"]] + 1, ends[note["turn"] + 1] + 1)
            if steps[i]["asks"] == {"kind": note["kind"], "seat": note["seat"]}
        ]
        page.evaluate(f"window.nimmtViewer.goToStep({asked[note['index']]})")
        expect(page.locator(".viewer-note-text").filter(has_text=note["text"])).to_have_count(1)
