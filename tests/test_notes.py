"""A bot's notes on its decisions: bounded, never a fault, kept apart from the public replay.

The referee is driven with fake seats (as in tests/test_referee.py); the match runner with house
bots in process; the bot kit through a real arena over gRPC.
"""

import asyncio
import json
import math

from arena.bots.mcs import MonteCarloBot
from arena.bots.random import RandomBot
from arena.cli.local_viewer import LocalViewer, read_notes
from arena.engine.decisions import PlayTile
from arena.engine.frames import frames
from arena.engine.game import Game
from arena.engine.replay import read
from arena.protocol import arena_pb2 as pb
from arena.runner.match import Entrant, MatchConfig, run_match
from arena.runner.referee import Player, Referee, TableRules
from arena.runner.seat import Seat
from arena.table.defaults import default_decision
from arena.table.messages import GameEnd, GameStart, Reply, Request
from arena.table.notes import MAX_VALUES, NOTE_BYTES, DecisionNote, Note, cut_utf8

RULES = TableRules(decision_ms=50, bank_ms=100, max_faults=3)


def test_a_long_note_is_cut_at_a_character_boundary():
    text = "→" * 400  # 3 bytes each: 1000 is not a multiple
    note = Note.bounded(text, [])
    assert note is not None
    assert len(note.text.encode()) <= NOTE_BYTES
    assert note.text == "→" * (NOTE_BYTES // 3)
    assert cut_utf8("ab\udcff") == "ab?"  # a lone surrogate cannot be sent: replaced


def test_values_that_are_not_finite_count_as_none_and_extra_values_are_dropped():
    note = Note.bounded("x", [1.0, math.nan, -math.inf, 2.5, 7.0], options=4)
    assert note == Note("x", (1.0, None, None, 2.5))
    many = Note.bounded("", [1.0] * (MAX_VALUES + 50))
    assert many is not None and len(many.values) == MAX_VALUES
    assert Note.bounded("", [math.nan, None]) is None


def test_an_answer_without_text_or_values_has_no_note_whatever_holds_its_values():
    answer = pb.Answer()
    assert Note.bounded(answer.note, answer.option_values, 3) is None
    assert Note.bounded("", [], 3) is None and Note.bounded("", iter(()), 3) is None
    assert Note.bounded("", iter([1.0]), 3) == Note("", (1.0,))  # an iterator is read
    answer.option_values.append(2.0)
    assert Note.bounded(answer.note, answer.option_values, 3) == Note("", (2.0,))


class Annotating(Seat):
    """Answers at once with the default decision (or ``answer``) and a note naming the
    request; ``slow`` requests are answered after the deadline."""

    timed = True

    def __init__(self, name: str, slow: tuple[int, ...] = (), illegal: bool = False) -> None:
        super().__init__(name)
        self.slow = slow
        self.illegal = illegal
        self.asked = 0

    async def start_game(self, start: GameStart) -> None:
        pass

    async def decide(self, request: Request) -> Reply:
        self.asked += 1
        if self.asked in self.slow:
            await asyncio.sleep(0.3)
        decision = default_decision(request.view)
        if self.illegal and self.asked == 1:
            decision = PlayTile(next(t for t in range(1, 105) if t not in request.view.hand))
        note = Note.bounded(f"request {self.asked}", [float(self.asked)] * 2)
        return Reply(decision, asyncio.get_running_loop().time(), note=note)

    async def end_game(self, end: GameEnd) -> None:
        pass


def play_noted(seats: list[Seat]) -> tuple[list[DecisionNote], Game]:
    players = [Player(i, seat.name, seat) for i, seat in enumerate(seats)]
    notes: list[DecisionNote] = []
    game = Game.new("basic", players=len(seats), seed=5)

    async def main() -> None:
        await Referee(RULES).play(
            game,
            number=1,
            game_id="g1",
            players=players,
            seeds=[1] * len(seats),
            names=[s.name for s in seats],
            notes=notes,
        )

    asyncio.run(main())
    return notes, game


def test_the_referee_keeps_each_note_with_its_turn_seat_and_kind_but_not_a_late_ones():
    notes, _ = play_noted([Annotating("a", slow=(2,)), Annotating("b", illegal=True)])
    a = [n for n in notes if n.seat == 0]
    b = [n for n in notes if n.seat == 1]
    assert [n.note.text for n in a[:2]] == ["request 1", "request 3"]  # request 2 came late
    assert [n.turn for n in a[:2]] == [0, 2]
    assert all(n.kind == "tile" and n.index == 0 for n in a if n.kind == "tile")
    # An illegal answer in time keeps its note, with what the bot answered.
    assert b[0].note.text == "request 1" and b[0].turn == 0
    assert b[0].decision.startswith("tile ") and b[0].options[0].startswith("tile ")
    assert len(b) == b[-1].note.values[0]  # every answer of seat b was noted
    record = b[0].to_dict()
    assert record["options"] == list(b[0].options[:2]) and record["values"] == [1.0, 1.0]


def test_a_match_writes_every_seats_notes_beside_a_replay_that_has_none(tmp_path):
    config = MatchConfig(variant="basic", games=2, seed=4, out=tmp_path)
    result = run_match(
        config,
        [
            Entrant("mcs", in_process=lambda: MonteCarloBot("playouts=40")),
            Entrant("random", in_process=RandomBot),
        ],
    )
    assert result.notes_files == ["notes/game-00001.json", "notes/game-00002.json"]
    assert json.loads((tmp_path / "match.json").read_text())["notes"] == result.notes_files
    for index, name in enumerate(result.notes_files):
        assert name is not None
        data = json.loads((tmp_path / name).read_text())
        assert data["format"] == "nimmt-notes/1"
        mcs_seat = result.replays[index].players[0].name == "random"
        assert {n["seat"] for n in data["notes"]} == {int(mcs_seat)}
        first = data["notes"][0]
        assert "playouts" in first["text"] and len(first["values"]) == len(first["options"])
        replay_text = (tmp_path / f"game-{index + 1:05d}.json").read_text()
        assert "playouts" not in replay_text and '"notes"' not in replay_text


class NotesEverything(RandomBot):
    """Random play, with a note on every decision naming it."""

    def decide(self, view):  # type: ignore[no-untyped-def]
        self._said = view.pending.kind.value if view.pending else ""
        return super().decide(view)

    def note(self) -> Note | None:
        return Note(self._said)


def test_every_note_names_a_step_where_the_frames_ask_for_its_decision(tmp_path):
    """The viewer finds a note's step from its keys alone (docs/REPLAY.md, section 5)."""
    config = MatchConfig(variant="pro+luck", games=3, seed=3, out=tmp_path)
    result = run_match(config, [Entrant(n, in_process=NotesEverything) for n in "abc"])
    kinds = set()
    for replay, notes in zip(result.replays, result.notes, strict=True):
        shown = frames(replay).to_json()
        ends, steps = shown["turn_ends"], shown["frames"]
        for note in notes:
            assert note.note.text == note.kind
            kinds.add(note.kind)
            if note.kind == "tile":  # asked in the position after the previous turn
                assert steps[ends[note.turn] + 1]["step"]["kind"] == "reveal"
                continue
            asked = [
                i
                for i in range(ends[note.turn] + 1, ends[note.turn + 1] + 1)
                if (steps[i]["asks"] or {}) == {"kind": note.kind, "seat": note.seat}
            ]
            assert note.index < len(asked), note
    assert kinds == {"tile", "luck", "action"}


def test_the_local_viewer_gives_the_notes_beside_a_replay_to_its_notes_panel(tmp_path):
    config = MatchConfig(variant="basic", games=1, seed=2, out=tmp_path / "noted")
    run_match(config, [Entrant(n, in_process=NotesEverything) for n in "ab"])
    path = tmp_path / "noted" / "game-00001.json"
    notes = read_notes(path)
    assert notes is not None and notes["notes"][0]["text"] == "tile"
    page = LocalViewer(read(path), path.name, notes).page.decode()
    assert '<script id="viewer-notes" type="application/json">' in page
    assert '<script src="/static/matches/notes.js" defer>' in page
    bare = tmp_path / "bare.json"
    bare.write_bytes(path.read_bytes())  # no notes file beside it
    assert read_notes(bare) is None
    page = LocalViewer(read(bare), bare.name, None).page.decode()
    assert "viewer-notes" not in page and "notes.js" not in page


def test_a_bot_program_written_against_the_kits_old_path_of_note_still_imports_it():
    from arena.botkit import Note as KitNote
    from arena.runner.notes import Note as OldNote

    assert OldNote is Note is KitNote
