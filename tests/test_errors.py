"""Typed errors with messages a bot author can act on (errors.py, Game, replay)."""

import copy
import gzip
import json
import re

import pytest
from test_rules_basic import play, position

from arena.engine import (
    Game,
    IllegalDecisionError,
    NimmtError,
    PlaceLuck,
    PlayAction,
    PlayerCountError,
    PlayTile,
    ReplayError,
    SetupError,
    TakeRow,
    UnexpectedDecisionError,
    UnknownVariantError,
    parse_decision,
    variant,
)
from arena.engine.replay import read, to_replay, verify, write


def finished_replay(name: str = "pro", players: int = 3, seed: int = 2) -> dict:
    game = Game.new(name, players, seed=seed)
    while not game.is_over():
        seat = game.pending.seats[0]
        game.apply(seat, game.legal(seat)[-1])
    return to_replay(game, [f"p{i}" for i in range(players)])


def snapshot(game: Game) -> tuple:
    return (
        [list(r) for r in game.spaces],
        [list(h) for h in game.hands],
        list(game.scores),
        [list(h) for h in game.held],
        list(game.supply),
        list(game.box),
        game.pending,
        game.to_place(),
        [game.chosen(s) for s in range(game.players)],
        [(t.plays, t.choices, t.scores) for t in copy.deepcopy(game.turns)],
    )


def test_every_engine_error_is_a_nimmt_error_and_a_value_error():
    for kind in (
        UnknownVariantError,
        PlayerCountError,
        IllegalDecisionError,
        UnexpectedDecisionError,
        SetupError,
        ReplayError,
    ):
        assert issubclass(kind, NimmtError)
        assert issubclass(kind, ValueError)
    assert issubclass(UnexpectedDecisionError, IllegalDecisionError)


# ---------------------------------------------------------------- variant and players


@pytest.mark.parametrize("name", ["chess", "Basic", "pro+", ""])
def test_an_unknown_variant_names_the_variants_there_are(name):
    with pytest.raises(UnknownVariantError, match="basic, basic\\+luck, pro, pro\\+luck, classic"):
        Game.new(name, 4, seed=1)
    with pytest.raises(UnknownVariantError):
        variant(name)


@pytest.mark.parametrize(
    ("name", "low", "high"),
    [("basic", 2, 6), ("basic+luck", 2, 6), ("pro", 2, 6), ("pro+luck", 2, 6), ("classic", 2, 10)],
)
def test_a_player_count_outside_the_variants_limits_is_refused(name, low, high):
    for players in (low - 1, high + 1, 0):
        with pytest.raises(PlayerCountError, match=f"{low} to {high} players, not {players}"):
            Game.new(name, players, seed=1)
    Game.new(name, low, seed=1)
    Game.new(name, high, seed=1)


def test_a_position_with_too_many_hands_is_refused():
    hands = [[t] for t in range(1, 8)]
    with pytest.raises(PlayerCountError):
        position("basic", {0: [50]}, hands)


# ---------------------------------------------------------------- decisions


def test_a_tile_not_in_hand_is_refused_with_the_hand_shown():
    game = position("basic", {0: [10]}, [[20, 21], [30, 31]])
    with pytest.raises(IllegalDecisionError, match="tile 30 is not in seat 0's hand; hand: 20 21"):
        game.apply(0, PlayTile(30))


def test_choosing_twice_in_a_turn_is_unexpected():
    game = position("basic", {0: [10]}, [[20, 21], [30, 31]])
    game.apply(0, PlayTile(20))
    with pytest.raises(UnexpectedDecisionError, match=r"seat 0 has nothing to decide.*seat\(s\) 1"):
        game.apply(0, PlayTile(21))


def test_a_decision_from_a_seat_that_is_not_asked_is_unexpected():
    game = position("pro", {0: [10], 5: [50]}, [[20], [15]], held=[["plus5"], []])
    play(game, 20, 15)
    with pytest.raises(UnexpectedDecisionError, match="waiting for action from seat\\(s\\) 0"):
        game.apply(1, PlayAction(None))


def test_a_seat_that_does_not_exist_is_unexpected():
    game = position("basic", {0: [10]}, [[20], [30]])
    with pytest.raises(UnexpectedDecisionError, match="there is no seat 2"):
        game.apply(2, PlayTile(20))
    with pytest.raises(UnexpectedDecisionError, match="there is no seat -1"):
        game.apply(-1, PlayTile(20))


@pytest.mark.parametrize(
    "decision", [PlaceLuck(0, 1), PlayAction(None), TakeRow(0)], ids=["luck", "action", "take_row"]
)
def test_a_decision_of_the_wrong_kind_is_unexpected(decision):
    game = position("basic", {0: [10]}, [[20], [30]])
    with pytest.raises(UnexpectedDecisionError, match="asked for a tile decision"):
        game.apply(0, decision)


def test_a_tile_while_an_action_card_is_asked_is_unexpected():
    game = position("pro", {0: [10], 5: [50]}, [[20, 21], [15, 16]], held=[["plus5"], []])
    play(game, 20, 15)
    with pytest.raises(UnexpectedDecisionError, match="asked for a action decision, not tile"):
        game.apply(0, PlayTile(21))


def test_any_decision_after_the_game_is_over_is_unexpected():
    game = position("basic", {0: [10]}, [[20], [30]])
    play(game, 20, 30)
    assert game.is_over()
    with pytest.raises(UnexpectedDecisionError, match="the game is over"):
        game.apply(0, PlayTile(20))
    assert game.legal(0) == []


def test_the_result_of_an_unfinished_game_is_refused():
    game = position("basic", {0: [10]}, [[20], [30]])
    with pytest.raises(UnexpectedDecisionError, match="not over yet"):
        game.result()


# ---------------------------------------------------------------- illegal targets


def pro_action_position() -> Game:
    game = position(
        "pro",
        {0: [10], 1: [30], 2: [50], 3: [15]},
        [[20, 25], [90]],
        held=[["stop", "ascending", "front", "swap", "anywhere"], []],
    )
    play(game, 20, 90)
    assert game.pending.tile == 20  # 20 goes to row 4 (ends 15)
    return game


@pytest.mark.parametrize(
    "decision",
    [
        PlayAction("stop", row=7),  # an empty row
        PlayAction("ascending", row=1),  # ends higher
        PlayAction("front", row=0),  # starts lower
        PlayAction("anywhere", row=9),  # empty
        PlayAction("swap", new_tile=90),  # not in this hand
        PlayAction("skip"),  # not held
        PlayAction("stop"),  # no target
        PlayAction("teleport", row=1),  # no such card
    ],
    ids=str,
)
def test_an_action_card_with_an_illegal_target_is_refused_and_lists_the_legal_ones(decision):
    game = pro_action_position()
    before = snapshot(game)
    with pytest.raises(
        IllegalDecisionError, match="is not legal for seat 0 now; legal: action none"
    ):
        game.apply(0, decision)
    assert snapshot(game) == before


@pytest.mark.parametrize("space", [(6, 0), (6, 1), (6, 3), (0, 0), (99, 1)])
def test_a_luck_card_on_a_forbidden_space_is_refused(space):
    game = position("basic+luck", {6: [10, 12]}, [[44], []], luck_deck=["plus5"])
    play(game, 44)
    with pytest.raises(IllegalDecisionError, match=r"'luck .*' is not legal for seat 0 now"):
        game.apply(0, PlaceLuck(*space))


def test_taking_a_row_that_does_not_exist_is_refused():
    game = position("classic", {0: [10], 1: [20], 2: [30], 3: [40]}, [[5], [50]])
    play(game, 5, 50)
    with pytest.raises(IllegalDecisionError, match="take_row 4"):
        game.apply(0, TakeRow(4))


def test_a_refused_decision_changes_nothing():
    game = position("basic", {0: [10]}, [[20, 21], [30, 31]])
    game.apply(1, PlayTile(30))
    before = snapshot(game)
    for seat, decision in [(0, PlayTile(99)), (1, PlayTile(31)), (0, TakeRow(0))]:
        with pytest.raises(IllegalDecisionError):
            game.apply(seat, decision)
        assert snapshot(game) == before


@pytest.mark.parametrize("text", ["", "tile", "tile x", "luck 1", "fly 3", "action stop row=x"])
def test_an_unreadable_decision_text_is_refused_with_the_accepted_forms(text):
    with pytest.raises(IllegalDecisionError, match=r"expected 'tile N'|empty decision"):
        parse_decision(text)


# ---------------------------------------------------------------- bad set-up


def full_setup(name: str = "basic") -> dict:
    return dict(Game.new(name, 2, seed=1).setup)


def test_a_setup_with_a_duplicated_tile_is_refused():
    setup = full_setup()
    setup["supply"] = [*setup["supply"][1:], setup["hands"][0][0]]
    with pytest.raises(SetupError, match=r"duplicated \[\d+\], missing \[\d+\]"):
        Game.from_setup("basic", **setup)


def test_a_setup_with_a_missing_tile_is_refused():
    setup = full_setup()
    missing = setup["supply"].pop()
    with pytest.raises(SetupError, match=rf"duplicated \[\], missing \[{missing}\]"):
        Game.from_setup("basic", **setup)


def test_a_setup_with_a_tile_out_of_range_is_refused():
    setup = full_setup()
    setup["supply"] = [*setup["supply"], 101]
    with pytest.raises(SetupError, match=r"out of range \[101\]"):
        Game.from_setup("basic", **setup)


def test_a_setup_with_the_wrong_number_of_rows_is_refused():
    setup = full_setup()
    setup["supply"] = setup["supply"] + [t for r in setup["rows"][4:] for t in r]
    setup["rows"] = setup["rows"][:4]
    with pytest.raises(SetupError, match="basic has 10 rows, setup gives 4"):
        Game.from_setup("basic", **setup)


def test_a_setup_with_a_full_row_is_refused():
    with pytest.raises(SetupError, match="row 3 holds 4 tiles"):
        position("basic", {3: [1, 2, 3, 4]}, [[10], [20]])


def test_a_setup_without_any_tile_on_the_board_is_refused():
    with pytest.raises(SetupError, match="at least one row"):
        position("basic", {}, [[10], [20]])


def test_a_card_game_setup_with_an_empty_row_is_refused():
    with pytest.raises(SetupError, match="every row of the card game starts with one card"):
        position("classic", {0: [1], 1: [2], 2: [3]}, [[10], [20]])


@pytest.mark.parametrize(
    ("name", "decks"),
    [
        ("basic", {"luck_deck": ["plus5"]}),
        ("basic+luck", {"action_deck": ["stop"]}),
        ("pro+luck", {"luck_deck": ["plus10"]}),
        ("pro", {"action_deck": ["teleport"]}),
    ],
)
def test_a_setup_with_decks_that_do_not_fit_the_variant_is_refused(name, decks):
    with pytest.raises(SetupError, match=re.escape(f"decks do not fit {name}:")):
        position(name, {0: [1]}, [[10], [20]], **decks)


# ---------------------------------------------------------------- malformed replays


def test_reading_a_file_that_is_not_json_is_a_replay_error(tmp_path):
    path = tmp_path / "garbage.json"
    path.write_bytes(b"\x00\xffnot json at all")
    with pytest.raises(ReplayError, match="not a readable replay"):
        read(path)


def test_reading_a_missing_file_is_a_replay_error(tmp_path):
    with pytest.raises(ReplayError, match="not a readable replay"):
        read(tmp_path / "nope.json")


def test_reading_a_corrupt_gzip_file_is_a_replay_error(tmp_path):
    data = bytearray(gzip.compress(json.dumps(finished_replay()).encode(), mtime=0))
    data[len(data) // 2] ^= 0xFF
    path = tmp_path / "broken.json.gz"
    path.write_bytes(bytes(data))
    with pytest.raises(ReplayError, match="not a readable replay"):
        read(path)


def test_reading_a_truncated_gzip_file_is_a_replay_error(tmp_path):
    data = gzip.compress(json.dumps(finished_replay()).encode(), mtime=0)
    path = tmp_path / "short.json.gz"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ReplayError, match="not a readable replay"):
        read(path)


@pytest.mark.parametrize("text", ["[]", "42", '"replay"', "null"])
def test_reading_json_that_is_not_an_object_is_a_replay_error(tmp_path, text):
    path = tmp_path / "x.json"
    path.write_text(text)
    with pytest.raises(ReplayError, match=r"x\.json: replay: expected an object"):
        read(path)


@pytest.mark.parametrize(
    "key", ["format", "variant", "seed", "players", "layout", "setup", "turns", "result"]
)
def test_a_replay_missing_a_required_key_names_it(tmp_path, key):
    data = finished_replay()
    del data[key]
    path = tmp_path / "x.json"
    write(path, data)
    with pytest.raises(ReplayError, match=f"x.json: replay: key '{key}' is missing"):
        read(path)
    with pytest.raises(ReplayError, match=f"^replay: key '{key}' is missing$"):
        verify(data)


@pytest.mark.parametrize("key", ["rows", "hands", "supply", "luck_deck", "action_deck"])
def test_a_replay_missing_a_setup_key_names_it(key):
    data = finished_replay()
    del data["setup"][key]
    with pytest.raises(ReplayError, match=f"^setup: key '{key}' is missing$"):
        verify(data)


@pytest.mark.parametrize("key", ["scores", "ranks", "faults"])
def test_a_replay_missing_a_result_key_names_it(key):
    data = finished_replay()
    del data["result"][key]
    with pytest.raises(ReplayError, match=f"^result: key '{key}' is missing$"):
        verify(data)


def test_a_replay_of_another_format_is_refused():
    data = finished_replay()
    data["format"] = "nimmt-replay/2"
    with pytest.raises(ReplayError, match="format is 'nimmt-replay/2', expected 'nimmt-replay/1'"):
        verify(data)


def test_a_replay_of_an_unknown_variant_is_refused():
    data = finished_replay()
    data["variant"] = "chess"
    with pytest.raises(ReplayError, match="unknown variant 'chess'"):
        verify(data)


@pytest.mark.parametrize(
    ("turn", "error"),
    [
        ([], r"turns\[3\]: expected an object, got \[\]"),
        ({"plays": [1], "choices": []}, r"turns\[3\]: key 'scores' is missing"),
        ({"plays": 1, "choices": [], "scores": []}, r"turns\[3\]\.plays: expected a list, got 1"),
    ],
)
def test_a_replay_with_a_malformed_turn_names_it(turn, error):
    data = finished_replay()
    data["turns"][3] = turn
    with pytest.raises(ReplayError, match=error):
        verify(data)


def test_a_replay_whose_choices_are_not_objects_is_refused():
    data = finished_replay()
    data["turns"][0]["choices"] = [5]
    with pytest.raises(ReplayError, match=r"turns\[0\]\.choices\[0\]: expected an object, got 5"):
        verify(data)


def test_a_replay_whose_faults_are_not_objects_is_refused():
    data = finished_replay()
    data["result"]["faults"] = ["timeout"]
    with pytest.raises(
        ReplayError, match=r"result\.faults\[0\]: expected an object, got 'timeout'"
    ):
        verify(data)


@pytest.mark.parametrize(
    "setup",
    [
        {"rows": [1, 2]},
        {"hands": [["a"], ["b"], ["c"]]},
        {"supply": [None]},
        {"hands": [5, 6, 7]},
        {"luck_deck": ["plus5"]},
        {"hands": [[1]]},
    ],
    ids=["rows-not-lists", "string-tiles", "null-tile", "hands-not-lists", "luck-in-pro", "one"],
)
def test_a_replay_with_a_broken_setup_is_a_replay_error(setup):
    data = finished_replay()
    data["setup"].update(setup)
    with pytest.raises(ReplayError, match=r"^setup[:.]"):  # the field, or the deal's fault
        verify(data)


def test_a_well_formed_replay_that_disagrees_lists_the_problems_instead_of_raising():
    data = finished_replay()
    data["turns"][2]["scores"] = [99, 99, 99]
    data["result"]["ranks"] = [3, 3, 3]
    problems = verify(data)
    assert any("turn 3: scores after the turn" in p for p in problems)
    assert any("ranks are" in p for p in problems)


def test_a_replay_with_a_tile_that_is_not_a_number_names_it():
    data = finished_replay()
    data["turns"][0]["plays"][0] = "x"
    with pytest.raises(ReplayError, match=r"turns\[0\]\.plays\[0\]: expected an integer, got 'x'"):
        verify(data)


def test_a_replay_with_an_impossible_play_lists_the_problem():
    data = finished_replay()
    data["turns"][0]["plays"][0] = 105
    assert verify(data) == [f"turn 1: tile 105 is not in seat 0's hand; hand: {hand(data, 0)}"]


def hand(data: dict, seat: int) -> str:
    return " ".join(map(str, sorted(data["setup"]["hands"][seat])))


def test_only_a_finished_game_has_a_replay():
    game = Game.new("basic", 4, seed=1)
    with pytest.raises(ReplayError, match="only a finished game"):
        to_replay(game, ["a", "b", "c", "d"])


def test_a_replay_needs_one_player_entry_per_seat():
    game = position("basic", {0: [10]}, [[20], [30]])
    play(game, 20, 30)
    with pytest.raises(ReplayError, match="2 seats but 3 player entries"):
        to_replay(game, ["a", "b", "c"])
