"""The product's documents (``docs/RULES.md``, ``docs/REPLAY.md``) checked against the code.

What can be checked mechanically is: names and numbers the documents quote (variants, the arena's
rule constants, the board layouts, the deck counts, the decision text forms), the example files
they show (the example replay must verify; every example has the keys the code writes), that every
key the code writes is documented, and that every repository path they name exists.
"""

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from arena.bots.registry import make_bot
from arena.cli import main as nimmt
from arena.engine import replay as replays
from arena.engine.decisions import parse_decision
from arena.engine.frames import frames
from arena.engine.game import Game
from arena.engine.record import FORMAT, GameRecord
from arena.engine.variants import ACTION_CARDS, LUCK_CARDS, PRO_TURN_CAP, VARIANT_NAMES, variant
from arena.local import play_game
from arena.runner import rules
from arena.runner.results import BotReport, MatchResult, MatchSettings, ProgramInfo, SandboxReport
from arena.stats import BotSummary
from arena.table.faults import Drop, Fault, FaultKind
from arena.table.notes import DecisionNote, Note, notes_file

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
RULES = (DOCS / "RULES.md").read_text(encoding="utf-8")
REPLAY = (DOCS / "REPLAY.md").read_text(encoding="utf-8")


def code_blocks(text: str, language: str) -> list[str]:
    """The bodies of the fenced blocks of ``language`` in a markdown text."""
    return re.findall(rf"^```{language}\n(.*?)^```$", text, re.S | re.M)


def examples() -> dict[str, dict[str, Any]]:
    """REPLAY.md's JSON examples by their ``format``."""
    found: dict[str, dict[str, Any]] = {}
    for block in code_blocks(REPLAY, "json"):
        data = json.loads(block)
        found[data["format"]] = data
    return found


def section(text: str, heading: str) -> str:
    """The part of ``text`` from the ``## heading`` line to the next ``## `` heading."""
    start = text.index(f"\n## {heading}")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def documented(text: str, key: str) -> bool:
    """Is ``key`` named as code (`` `key` ``) in ``text``?"""
    return f"`{key}`" in text


def finished_game(name: str, players: int, seed: int) -> GameRecord:
    """The record of a game between house bots (heuristic bots play cards and luck)."""
    bots = [make_bot("heuristic") for _ in range(players)]
    return play_game(name, bots, seed, list(range(players)), [f"p{s}" for s in range(players)])


@pytest.fixture(scope="module")
def series(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder written by a real ``nimmt play --out`` (replays and summary.json)."""
    out = tmp_path_factory.mktemp("series")
    command = "play --variant pro+luck --bots heuristic,random,heuristic --games 2 --seed 11 -q"
    status = nimmt([*command.split(), "--out", str(out)])
    assert status == 0
    return out


# ---------------------------------------------------------------------------- RULES.md


def test_every_variant_the_engine_plays_is_named_in_the_rules() -> None:
    missing = [name for name in VARIANT_NAMES if not documented(RULES, name)]
    assert missing == []


def test_the_variant_table_in_the_rules_gives_the_engines_players_tiles_and_hands() -> None:
    rows = re.findall(
        r"^\| `([a-z+]+)` \| [^|]+ \| (\d+)–(\d+) \| 1–(\d+) \| (\d+) \|", RULES, re.M
    )
    quoted = {name: tuple(map(int, numbers)) for name, *numbers in rows}
    engine = {name: variant(name) for name in VARIANT_NAMES}
    assert quoted == {
        name: (v.players.start, v.players.stop - 1, v.tiles, v.hand_size)
        for name, v in engine.items()
    }


def test_the_arena_numbers_in_the_rules_are_the_codes() -> None:
    quoted = dict(re.findall(r"\| `([A-Z_]+_(?:MS|FAULTS))` \| (\d+) \|", RULES))
    expected = {
        name: getattr(rules, name)
        for name in ("DECISION_MS", "BANK_MS", "MAX_FAULTS", "START_MS", "EXTERNAL_WAIT_MS")
    }
    assert {name: int(value) for name, value in quoted.items()} == expected


def test_the_turn_cap_in_the_rules_is_the_engines() -> None:
    quoted = re.search(r"after (\d+) turns\s+\(`PRO_TURN_CAP`", RULES)
    assert quoted is not None
    assert int(quoted.group(1)) == PRO_TURN_CAP


def test_the_board_layouts_in_the_rules_are_the_data_files() -> None:
    (block,) = [b for b in code_blocks(RULES, "text") if "basic side" in b]
    rows = [line.split() for line in block.splitlines()[1:]]
    assert [int(row[0]) for row in rows] == list(range(len(rows)))
    assert tuple(row[1] for row in rows) == variant("basic").board.rows  # type: ignore[union-attr]
    assert tuple(row[2] for row in rows) == variant("pro").board.rows  # type: ignore[union-attr]


def test_the_deck_counts_in_the_rules_are_the_data_files() -> None:
    luck = {card: int(n) for n, card in re.findall(r"(\d+) × `(\w+)`", RULES)}
    assert luck == dict(Counter(variant("basic+luck").luck_deck))
    assert set(luck) == set(LUCK_CARDS)
    total, each = map(int, re.findall(r"(\d+) cards, (\d+) of each", RULES)[0])
    deck = Counter(variant("pro").action_deck)
    assert (total, set(deck.values()), set(deck)) == (
        len(variant("pro").action_deck),
        {each},
        set(ACTION_CARDS),
    )


def test_the_decision_text_forms_in_the_rules_round_trip() -> None:
    table = section(RULES, "6. ")
    forms = [
        form
        for row in table.splitlines()
        if row.startswith("| ") and row.count("|") == 6
        for form in re.findall(r"`([a-z_]+(?: [a-z0-9_=]+)*)`", row.rsplit("|", 2)[1])
    ]
    assert len(forms) >= 4
    for form in forms:
        assert str(parse_decision(form)) == form


def test_the_reading_the_rules_say_the_engine_plays_is_the_one_its_replays_name() -> None:
    status = re.search(r"engine of this release plays reading `(nimmt-rules/\d+)`", RULES)
    assert status is not None
    written = finished_game("basic", 2, 1).reading.name
    assert status.group(1) == written
    assert documented(section(RULES, "10. "), written)


# ---------------------------------------------------------------------------- REPLAY.md


def test_the_example_replay_is_a_real_game_that_verifies() -> None:
    example = examples()[FORMAT]
    assert replays.verify(example) == []
    dealt = Game.new(example["variant"], players=len(example["players"]), seed=example["seed"])
    assert dealt.setup == example["setup"]


def test_every_key_a_replay_has_is_documented(series: Path) -> None:
    text = section(REPLAY, "1. ")
    seen: list[dict[str, Any]] = [
        replays.read(p).to_json() for p in sorted(series.glob("game-*.json"))
    ]
    seen.append(finished_game("classic", 3, 2).to_json())
    kinds: set[str] = set()
    for data in seen:
        assert [k for k in data if not documented(text, k)] == []
        assert [k for k in data["setup"] if not documented(text, f"setup.{k}")] == []
        assert [k for k in data["result"] if not documented(text, f"result.{k}")] == []
        for player in data["players"]:
            assert [k for k in player if not documented(text, k)] == []
        for turn in data["turns"]:
            assert [k for k in turn if not documented(text, k)] == []
            for choice in turn["choices"]:
                kinds.add(choice["kind"])
                assert [k for k in choice if not documented(text, k)] == []
    assert kinds == {"luck", "action", "take_row"}
    assert all(documented(text, f'"{kind}"') for kind in kinds)


def test_every_fault_key_and_kind_a_replay_can_hold_is_documented() -> None:
    text = section(REPLAY, "1. ")
    record = Fault(game=1, seat=0, kind=FaultKind.CRASH, turn=0, detail="x").replay_record()
    assert [k for k in record if not documented(text, k)] == []
    assert [k.value for k in FaultKind if not documented(text, f'"{k.value}"')] == []


def sample_match() -> MatchResult:
    """A match result with every optional part present (a program, a fault, a drop)."""
    fault = Fault(game=1, seat=1, kind=FaultKind.TIMEOUT, turn=3, detail="late")
    program = ProgramInfo("bots/x", ("python3", "bot.py"), "python", False, 12.5, 20.0, 0, 7, 8)
    bot = BotReport(
        name="x",
        kind="program",
        faults=(fault,),
        dropped=Drop(1, FaultKind.TIMEOUT, "stalled"),
        answers=5,
        think_mean_ms=1.5,
        think_max_ms=3.0,
        score=4,
        rank=1,
        program=program,
    )
    return MatchResult(
        match_id="m",
        protocol="nimmt.v1/1",
        started="2026-01-01T00:00:00+00:00",
        duration_s=1.0,
        settings=MatchSettings("classic", 1, 5, 1000, 10_000, 3),
        sandbox=SandboxReport(True, {"bubblewrap": True}, "a note"),
        bots=(bot,),
        table=(BotSummary("x", 1, 4.0, float("nan"), 1, 1.0, 1.0),),
        replays=({},),
    )


def test_every_key_of_match_json_is_documented_and_the_example_has_them() -> None:
    text = section(REPLAY, "2. ")
    data = sample_match().to_json()
    bot, row = data["bots"][0], data["results"][0]
    fault, drop = bot["fault_list"][0], bot["dropped"]
    for keys in (data, data["sandbox"], bot, bot["faults"], bot["think_ms"], fault, drop, row):
        assert [k for k in keys if not documented(text, k)] == []
    example = examples()["nimmt-match/2"]
    assert list(example) == list(data)
    assert [list(b) for b in example["bots"]] == [list(bot)] * len(example["bots"])
    assert [list(r) for r in example["results"]] == [list(row)] * len(example["results"])


def test_every_key_of_summary_json_is_documented_and_the_example_has_them(series: Path) -> None:
    text = section(REPLAY, "3. ")
    data = json.loads((series / "summary.json").read_text(encoding="utf-8"))
    for keys in (data, data["rules"], data["results"][0]):
        assert [k for k in keys if not documented(text, k)] == []
    example = examples()["nimmt-summary/1"]
    assert list(example) == list(data)
    assert list(example["rules"]) == list(data["rules"])
    assert list(example["results"][0]) == list(data["results"][0])


def test_every_key_and_step_of_the_frames_is_documented_and_the_example_has_them(
    series: Path,
) -> None:
    text = section(REPLAY, "4. ")
    films = [frames(replays.read(p)).to_json() for p in sorted(series.glob("game-*.json"))]
    films.append(frames(finished_game("classic", 4, 3)).to_json())
    steps: set[str] = set()
    for film in films:
        assert [k for k in film if not documented(text, k)] == []
        for frame in film["frames"]:
            assert [k for k in frame if not documented(text, k)] == []
            steps.add(frame["step"]["kind"])
            assert [k for k in frame["step"] if not documented(text, k)] == []
    assert {"setup", "reveal", "land", "complete", "action", "luck", "take", "end"} <= steps
    assert [kind for kind in steps if f"| `{kind}` |" not in text] == []
    example = examples()["nimmt-frames/1"]
    assert list(example) == list(films[0])
    assert all(list(frame) == list(films[0]["frames"][0]) for frame in example["frames"])
    replay = examples()[FORMAT]
    assert example["turn_ends"] == frames(replay).to_json()["turn_ends"]


# ---------------------------------------------------------------------------- both


def test_every_repository_path_the_docs_name_exists() -> None:
    roots = "arena|platform|bots|tests|protos|benchmarks|docs|seeds"
    for doc in (RULES, REPLAY):
        named = set(re.findall(rf"`((?:{roots})/[A-Za-z0-9_./-]+)`", doc))
        linked = set(re.findall(r"\]\(([^)#:]+)\)", doc))
        assert named
        assert [p for p in sorted(named) if not (ROOT / p).exists()] == []
        assert [p for p in sorted(linked) if not (DOCS / p).exists()] == []


def test_every_key_of_a_notes_file_is_documented_and_the_example_has_them() -> None:
    text = section(REPLAY, "5. ")
    note = DecisionNote(0, 2, "tile", 0, Note("safe", (1.5, None)), ("tile 3", "tile 40"), "tile 3")
    data = notes_file([note])
    for keys in (data, data["notes"][0]):
        assert [k for k in keys if not documented(text, k)] == []
    example = examples()["nimmt-notes/1"]
    assert list(example) == list(data)
    assert [list(n) for n in example["notes"]] == [list(data["notes"][0])]
    assert all(len(n["values"]) == len(n["options"]) for n in example["notes"])
