"""A replay is read as a :class:`GameRecord` at every door: whatever JSON comes in, a field that
is missing or of the wrong type is a :class:`ReplayError` naming it (a deal that breaks the rules
another typed :class:`NimmtError`), never a ``KeyError`` or ``TypeError`` from deep inside the
re-play, the viewer's frames or the decision analysis; and what the arena writes from a record is
byte for byte the format's JSON."""

import json
import random
from collections.abc import Callable, Iterator
from copy import deepcopy
from pathlib import Path
from typing import Any

import pytest

from arena.analysis import decision_points
from arena.engine import Game
from arena.engine.errors import NimmtError, ReplayError
from arena.engine.frames import UnverifiedReplayError, frames
from arena.engine.record import GameRecord, Series
from arena.engine.replay import (
    as_record,
    read,
    render,
    replay_turn,
    simulate,
    start,
    to_record,
    to_replay,
    verify,
    write,
)

TESTS = Path(__file__).parent


def played(variant: str, players: int, seed: int) -> Game:
    game = Game.new(variant, players, seed)
    rng = random.Random(seed)
    while not game.is_over():
        pending = game.pending
        assert pending is not None
        seat = pending.seats[0]
        game.apply(seat, rng.choice(game.legal(seat)))
    return game


def replay_with_every_kind_of_field() -> dict[str, Any]:
    """A pro+luck game (luck and action choices), with a fault and a series."""
    game = played("pro+luck", 3, 8)
    fault = {"seat": 1, "kind": "timeout", "turn": 2, "detail": "no answer"}
    data = to_replay(game, [{"name": n, "entry": i} for i, n in enumerate("abc")], [fault])
    data["series"] = {"seed": 8, "game": 1}
    kinds = {c["kind"] for t in data["turns"] for c in t["choices"]}
    assert {"luck", "action"} <= kinds, kinds
    return data


def paths(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key and index in ``value``, depth first (lists: their first two items)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*at, key)
            yield from paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:2]):
            yield (*at, index)
            yield from paths(item, (*at, index))


def changed(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """``data`` with the field at ``path`` deleted (``value`` is ``DELETE``) or replaced."""
    copy = deepcopy(data)
    parent = copy
    for step in path[:-1]:
        parent = parent[step]
    if value is DELETE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return copy


DELETE = object()
#: Values of the wrong type for every field of the format (each is wrong somewhere).
WRONG = [DELETE, "7", None, True, [], {}, 1.5]

DOORS: dict[str, Callable[[dict[str, Any]], object]] = {
    "verify": verify,
    "simulate": simulate,
    "render": lambda data: list(render(data)),
    "start": start,
    "frames": frames,
    "frames of a seat": lambda data: frames(data, seat=0),
    "decision points": lambda data: decision_points(data, 0),
    "as_record": as_record,
}


def outcome(door: Callable[[dict[str, Any]], object], data: dict[str, Any]) -> str:
    """How the door took it: ``ok``, ``problems`` (it re-played and disagreed), ``refused``
    (a ReplayError naming the field) or ``illegal`` (another typed error: the unchecked
    :func:`start` of a deal that breaks the rules); anything else raises out of the test."""
    try:
        door(data)
    except UnverifiedReplayError:
        return "problems"
    except ReplayError as error:
        assert str(error), "a replay error says what is wrong"
        return "refused"
    except NimmtError as error:
        assert str(error)
        return "illegal"
    return "ok"


def test_every_door_refuses_a_broken_field_with_a_replay_error_and_nothing_else() -> None:
    data = replay_with_every_kind_of_field()
    seen: dict[str, set[str]] = {name: set() for name in DOORS}
    for path in paths(data):
        for value in WRONG:
            broken = changed(data, path, value)
            for name, door in DOORS.items():
                seen[name].add(outcome(door, broken))
    # Every door refused some, and none let another exception through (outcome would raise).
    assert all("refused" in kinds for kinds in seen.values()), seen


@pytest.mark.parametrize(
    ("path", "value", "error"),
    [
        (("turns", 0, "scores"), DELETE, r"^turns\[0\]: key 'scores' is missing$"),
        (
            ("turns", 1, "plays", 0),
            "12",
            r"^turns\[1\]\.plays\[0\]: expected an integer, got '12'$",
        ),
        (("result", "faults", 0, "seat"), DELETE, r"^result\.faults\[0\]: key 'seat' is missing$"),
        (("players", 0), "a", r"^players\[0\]: expected an object, got 'a'$"),
        (("series", "game"), "1", r"^series\.game: expected an integer, got '1'$"),
        (("result", "ranks"), "1,2,3", r"^result\.ranks: expected a list, got '1,2,3'$"),
    ],
)
def test_a_broken_field_is_named_at_every_door(
    path: tuple[Any, ...], value: Any, error: str
) -> None:
    broken = changed(replay_with_every_kind_of_field(), path, value)
    for name, door in DOORS.items():
        with pytest.raises(ReplayError, match=error):
            door(broken)
        assert name


def test_a_luck_choice_without_its_space_is_named_not_a_key_error() -> None:
    data = replay_with_every_kind_of_field()
    turn, index = next(
        (t, i)
        for t, recorded in enumerate(data["turns"])
        for i, choice in enumerate(recorded["choices"])
        if choice["kind"] == "luck"
    )
    broken = changed(data, ("turns", turn, "choices", index, "space"), DELETE)
    game = start(data)
    for recorded in data["turns"][:turn]:
        replay_turn(game, recorded)
    with pytest.raises(ReplayError, match=rf"^turn\.choices\[{index}\]: key 'space' is missing$"):
        replay_turn(game, broken["turns"][turn])


def test_the_record_of_a_game_is_written_byte_for_byte_as_its_replay(tmp_path: Path) -> None:
    for variant in ("basic", "basic+luck", "pro", "pro+luck", "classic"):
        for seed in range(6):
            game = played(variant, 2 + seed % 4, seed)
            names = [{"name": f"p{s}", "entry": s} for s in range(game.players)]
            faults = [{"seat": 0, "kind": "illegal", "turn": 0, "detail": "x"}] if seed % 2 else []
            record = to_record(game, names, faults, Series(seed, seed + 1, seed or None))
            series = {"seed": seed, "game": seed + 1, **({"deal": seed} if seed else {})}
            data = to_replay(game, names, faults, series=series)
            assert record.to_text() == json.dumps(data, separators=(",", ":"))
            write(tmp_path / "record.json.gz", record)
            write(tmp_path / "dict.json.gz", data)
            assert (tmp_path / "record.json.gz").read_bytes() == (
                tmp_path / "dict.json.gz"
            ).read_bytes()
            assert read(tmp_path / "record.json.gz") == record
            assert verify(record) == []


def test_the_record_of_a_game_is_the_record_read_from_its_replay() -> None:
    for variant in ("basic", "basic+luck", "pro", "pro+luck", "classic"):
        for seed in range(4):
            game = played(variant, 2 + seed % 4, seed)
            names: list[str | dict[str, Any]] = [f"p{s}" for s in range(game.players)]
            names[0] = {"name": "p0", "entry": 1, "bot": {"version": 2}}
            faults = [{"seat": 1, "kind": "crash", "turn": 3, "detail": "x"}] if seed % 2 else []
            series = Series(seed, seed + 1, seed or None)
            record = to_record(game, names, faults, series)
            data = to_replay(game, names, faults, series=series.to_json())
            assert record == GameRecord.from_json(data)
            assert record.to_text() == json.dumps(data, separators=(",", ":"))
            assert to_record(game, names) == GameRecord.from_json(to_replay(game, names))


def test_the_stored_replays_read_back_to_their_very_bytes() -> None:
    files = sorted((TESTS / "golden").glob("*/game-*.json"))
    files += sorted((TESTS / "data" / "rules-1").glob("*.json"))
    assert len(files) > 40
    for path in files:
        assert read(path).to_text() == path.read_text(encoding="utf-8").strip(), path


def test_a_record_and_its_json_give_the_same_frames_text_and_analysis_points() -> None:
    record = GameRecord.from_json(replay_with_every_kind_of_field())
    data = record.to_json()
    assert frames(record) == frames(data)
    assert list(render(record)) == list(render(data))
    assert decision_points(record, 2) == decision_points(data, 2)
