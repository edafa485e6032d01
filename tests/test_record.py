"""The typed game record (arena.engine.record): every replay round-trips through it exactly.

Golden replays (``tests/golden/``, ``tests/data/rules-1/``), random games of every variant
(hypothesis), the site's kinds of extra keys, and bad input with the field it names.
"""

import json
import pickle
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.engine import VARIANT_NAMES, Game, ReplayError
from arena.engine.readings import READING_1
from arena.engine.record import (
    ActionChoice,
    Extra,
    Fault,
    GameRecord,
    LuckChoice,
    Series,
    TakeRowChoice,
)
from arena.engine.replay import read, to_replay, verify

TESTS = Path(__file__).parent
STORED = sorted((TESTS / "golden").rglob("*.json")) + sorted((TESTS / "data").rglob("*.json"))


def played(variant: str, players: int, seed: int, choices: int) -> Game:
    game = Game.new(variant, players, seed)
    rng = random.Random(choices)
    while game.pending is not None:
        seat = rng.choice(game.pending.seats)
        game.apply(seat, rng.choice(game.legal(seat)))
    return game


def test_the_stored_replays_are_there():
    assert len(STORED) >= 40


@pytest.mark.parametrize("path", STORED, ids=lambda p: str(p.relative_to(TESTS)))
def test_it_round_trips_every_stored_replay_exactly(path):
    text = path.read_text(encoding="utf-8")
    record = GameRecord.from_text(text)
    assert record.to_json() == json.loads(text)
    # the same keys in the same order: the arena's own files come back byte for byte
    assert json.dumps(record.to_json()) == json.dumps(json.loads(text))
    assert record.to_text() == text.rstrip("\n")
    assert GameRecord.from_json(record.to_json()) == record
    assert hash(GameRecord.from_json(record.to_json())) == hash(record)


def test_a_replay_without_rules_reads_as_reading_1_and_stays_without():
    path = next((TESTS / "data" / "rules-1").glob("*.json"))
    record = read(path)
    assert record.rules is None and record.reading is READING_1
    assert "rules" not in record.to_json()
    assert record.to_text() == path.read_text(encoding="utf-8").strip()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(VARIANT_NAMES),
    st.integers(2, 10),
    st.integers(0, 2**64 - 1),
    st.integers(0, 2**32),
    st.booleans(),
)
def test_it_round_trips_every_game_the_engine_plays(variant, players, seed, choices, duplicate):
    players = players if variant == "classic" else min(players, 6)
    game = played(variant, players, seed, choices)
    series = {"seed": seed, "game": 3, **({"deal": 2} if duplicate else {})}
    entries = [{"name": f"bot{i}", "entry": (i + 1) % players} for i in range(players)]
    faults = [{"seat": 1, "kind": "timeout", "turn": 2, "detail": "answered after 1000 ms"}]
    data = to_replay(game, entries, faults, series=series)
    record = GameRecord.from_json(data)
    assert record.to_json() == data
    assert json.dumps(record.to_json()) == json.dumps(data)
    assert record.series == Series(seed, 3, 2 if duplicate else None)
    assert record.result.faults == (Fault(1, "timeout", 2, "answered after 1000 ms"),)
    assert [t.scores for t in record.turns] == [tuple(t.scores) for t in game.turns]
    assert verify(record.to_json()) == []


def test_choices_are_typed_by_kind():
    turn = {
        "plays": [90, None, 3],
        "choices": [
            {"seat": 2, "kind": "action", "card": "swap", "tile": 90, "new_tile": 17},
            {"seat": 0, "kind": "action", "card": "stop", "tile": 3, "row": 4},
            {"seat": 1, "kind": "luck", "card": "final10", "row": 6, "space": 3},
            {"seat": 0, "kind": "take_row", "row": 2},
        ],
        "scores": [0, 1, 2],
    }
    data = json.loads((TESTS / "golden" / "classic" / "game-00001.json").read_text())
    data["turns"] = [turn]
    record = GameRecord.from_json(data)
    assert record.turns[0].plays == (90, None, 3)
    assert record.turns[0].choices == (
        ActionChoice(2, "swap", 90, new_tile=17),
        ActionChoice(0, "stop", 3, row=4),
        LuckChoice(1, "final10", 6, 3),
        TakeRowChoice(0, 2),
    )
    assert record.to_json()["turns"] == [turn]


def test_keys_the_format_does_not_name_are_kept_in_place_and_order():
    data = json.loads((TESTS / "golden" / "pro" / "game-00001.json").read_text())
    data["players"][0]["bot"] = {"version": 3}
    data["setup"]["note"] = "x"
    data["turns"][0]["clock_ms"] = [1, 2]
    data["turns"][0]["plays"]  # unchanged
    data["result"]["faults"].append({"seat": 0, "kind": "crash", "turn": 0, "game": 2})
    data["notes"] = {"format": "nimmt-notes/1", "seats": [0], "notes": []}
    record = GameRecord.from_json(data)
    assert record.to_json() == data
    assert json.dumps(record.to_json()) == json.dumps(data)
    assert record.result.faults[-1].detail is None
    assert "notes" in record.extra
    golden = json.loads((TESTS / "golden" / "pro" / "game-00001.json").read_text())
    golden["result"]["faults"].append({"seat": 0, "kind": "crash", "turn": 0})
    assert record.plain().to_json() == golden
    # the record's extra keys are its own: changing the source changes nothing
    data["notes"]["seats"].append(1)
    assert record.extra["notes"]["seats"] == [0]


def test_a_record_and_every_part_of_it_pickle_to_an_equal_read_only_value():
    game = played("pro+luck", 3, 8, 8)
    fault = {"seat": 1, "kind": "timeout", "turn": 2, "detail": "no answer", "clock": [3]}
    players = [{"name": n, "entry": i, "bot": {"version": i}} for i, n in enumerate("abc")]
    data = to_replay(game, players, [fault])
    data["series"] = {"seed": 8, "game": 1, "table": "t"}
    data["setup"]["note"] = "x"
    for turn in data["turns"]:
        turn["clock_ms"] = [1, 2, 3]
        for choice in turn["choices"]:
            choice["ms"] = 5
    data["notes"] = {"format": "nimmt-notes/1", "seats": [0], "notes": []}
    data["result"]["by"] = "referee"
    record = GameRecord.from_json(data)
    choices = [c for t in record.turns for c in t.choices]
    assert {type(c) for c in choices} == {LuckChoice, ActionChoice}
    parts = [record, *record.players, record.setup, *record.turns, *choices, record.result]
    parts += [*record.result.faults, record.series]
    assert all(part.extra for part in parts)  # each carries keys the format does not name
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        for part in parts:
            copy = pickle.loads(pickle.dumps(part, protocol))
            assert copy == part and type(copy) is type(part)
            assert copy.to_json() == part.to_json()
            assert list(copy.extra) == list(part.extra)  # the keys in their order
            assert isinstance(copy.extra, Extra)
            with pytest.raises(TypeError):
                copy.extra["added"] = 1
    copy = pickle.loads(pickle.dumps(record))
    assert json.dumps(copy.to_json()) == json.dumps(data)
    assert hash(copy) == hash(record)
    assert copy.extra["notes"] is not record.extra["notes"]  # a copy, not a shared value


def test_records_differ_when_a_decision_differs():
    data = json.loads((TESTS / "golden" / "classic" / "game-00002.json").read_text())
    other = json.loads(json.dumps(data))
    other["turns"][0]["plays"][0] += 0 if other["turns"][0]["plays"][0] is None else 1
    assert GameRecord.from_json(data) != GameRecord.from_json(other)
    assert GameRecord.from_json(data) == GameRecord.from_json(json.loads(json.dumps(data)))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="nimmt-replay/2"), "format is 'nimmt-replay/2'"),
        (lambda d: d.update(variant="chess"), "unknown variant 'chess'"),
        (lambda d: d.update(seed=True), "seed: expected an integer, got True"),
        (lambda d: d.pop("setup"), "key 'setup' is missing"),
        (lambda d: d["setup"]["rows"].append(["7"]), "setup.rows[4][0]: expected an integer"),
        (lambda d: d["turns"][1].update(plays="x"), "turns[1].plays: expected a list"),
        (
            lambda d: d["turns"][0]["choices"].append({"seat": 0, "kind": "jump"}),
            "turns[0].choices[0].kind: 'jump' is not",
        ),
        (
            lambda d: d["turns"][0]["choices"].append({"seat": 0, "kind": "take_row"}),
            "turns[0].choices[0]: key 'row' is missing",
        ),
        (
            lambda d: d["result"]["faults"].append({"seat": 0, "kind": "late", "turn": 0}),
            "result.faults[0].kind: 'late' is not one of",
        ),
        (lambda d: d.update(rules="nimmt-rules/9"), "unknown rules reading 'nimmt-rules/9'"),
        (lambda d: d.update(series={"seed": 1}), "series: key 'game' is missing"),
        (lambda d: d["players"].append("bob"), "players[5]: expected an object"),
    ],
)
def test_bad_input_gets_an_error_naming_the_field(change, message):
    data = json.loads((TESTS / "golden" / "classic" / "game-00001.json").read_text())
    data["turns"][0]["choices"] = []
    change(data)
    with pytest.raises(ReplayError, match=message.replace("[", r"\[").replace("]", r"\]")):
        GameRecord.from_json(data)


def test_text_that_is_not_json_is_a_replay_error():
    with pytest.raises(ReplayError, match="not a readable replay"):
        GameRecord.from_text("{")
    with pytest.raises(ReplayError, match="replay: expected an object"):
        GameRecord.from_text("[]")
