"""RULES.md 6: a seat's view holds exactly the listed facts, and nothing hidden."""

import dataclasses
import json
import random

import pytest
from test_rules_basic import play, position

from arena.engine import Choice, DecisionKind, Game, PlaceLuck, PlayAction, PlayTile
from arena.engine.observation import Observation, observe

# RULES.md 6, item by item, and the Observation fields that carry it.
RULES_VIEW = {
    "own hand": {"hand", "chosen"},  # chosen: the own tile picked but not yet revealed
    "own action cards": {"action_cards"},
    "the whole board with markers": {"layout", "spaces", "markers", "stops"},
    "every score": {"scores"},
    "each player's hand size and action-card count": {"hand_sizes", "action_counts"},
    "the tiles revealed so far": {"history", "to_place", "choices"},
    "supply and deck sizes": {"supply_size", "luck_deck_size", "action_deck_size"},
    "turn and set number": {"turn", "set_number"},
}
# Which game (and reading of the rules) and seat the view is of, and the decision it is asked
# for (RULES.md 6, 1-4).
CONTEXT = {"variant", "rules", "seat", "players", "pending", "legal"}


def fields() -> set[str]:
    return {f.name for f in dataclasses.fields(Observation)}


def test_the_view_holds_exactly_the_facts_rules_md_lists():
    listed = set().union(*RULES_VIEW.values())
    assert fields() == listed | CONTEXT


def test_the_time_left_to_answer_is_not_part_of_the_engines_view():
    """Interpretation: RULES.md 6 lists "the time left to answer"; the engine has no clock, so
    the arena (which owns deadlines, STYLE.md) sends it beside this view, not inside it."""
    assert not any("time" in name or "deadline" in name for name in fields())


def mid_game() -> Game:
    """Pro+luck, two seats, turn 2: seat 0 has chosen 21, seat 1 is still to choose."""
    game = position(
        "pro+luck",
        {0: [10], 1: [30], 6: [60, 61]},
        [[20, 21, 22], [35, 36, 37]],
        supply=[80, 81, 82],
        luck_deck=["plus5", "final10"],
        action_deck=["skip", "front"],
        held=[["swap"], ["stop", "plus5"]],
        scores=[3, -2],
        markers={(2, 3): "plus5"},
    )
    play(game, 20, 35)
    game.apply(0, PlayAction(None))
    game.apply(1, PlayAction(None))
    game.apply(0, PlayTile(21))
    return game


def test_the_view_shows_the_own_hand_cards_and_the_public_facts():
    game = mid_game()
    view = observe(game, 1)
    assert view.variant == "pro+luck" and view.seat == 1 and view.players == 2
    assert view.hand == (36, 37)
    assert view.action_cards == ("stop", "plus5")
    assert view.chosen is None
    assert view.layout == game.layout
    assert view.spaces == tuple(tuple(r) for r in game.spaces)
    assert view.markers[2][3] == "plus5"
    assert view.scores == (3, -2)
    assert view.hand_sizes == (2, 2)  # seat 0's chosen 21 still counts in its hand
    assert view.action_counts == (1, 2)
    assert view.history == ((20, 35),)
    assert view.supply_size == 3
    assert view.luck_deck_size == 2 and view.action_deck_size == 2
    assert view.turn == 2 and view.set_number == 1
    assert view.pending.kind.value == "tile" and view.pending.seats == (1,)
    assert {str(d) for d in view.legal} == {"tile 36", "tile 37"}


def test_the_view_shows_the_own_chosen_tile_but_not_another_seats():
    game = mid_game()
    assert observe(game, 0).chosen == 21
    assert observe(game, 1).chosen is None
    assert 21 not in observe(game, 1).hand


def test_another_seats_choice_changes_nothing_in_the_view_but_who_is_awaited():
    game = position("basic", {0: [10]}, [[20, 21], [30, 31], [40, 41]])
    before = observe(game, 0)
    game.apply(1, PlayTile(31))
    after = observe(game, 0)
    assert dataclasses.replace(after, pending=before.pending) == before
    assert after.pending.seats == (0, 2)


def test_the_view_does_not_change_when_hidden_facts_change():
    game = mid_game()
    other = game.clone()
    other.hands[0] = [80]  # seat 0's 22 traded with the supply's 80, and the supply reordered
    other.supply = [82, 81, 22]
    other.luck_deck.reverse()
    other.action_deck.reverse()
    other.held[0] = ["anywhere"]
    for name in ("hands", "supply", "luck_deck", "action_deck", "held"):
        assert getattr(other, name) != getattr(game, name)
    assert observe(other, 1) == observe(game, 1)


def test_the_legal_decisions_are_only_the_viewing_seats():
    game = position("pro", {0: [10], 5: [50]}, [[20], [15]], held=[["plus5"], []])
    play(game, 20, 15)
    assert observe(game, 0).legal == (PlayAction(None), PlayAction("plus5"))
    assert observe(game, 1).legal == ()
    assert observe(game, 1).pending == observe(game, 0).pending


def test_the_view_shows_the_tiles_revealed_and_still_to_be_placed():
    game = position("pro", {0: [10], 5: [50]}, [[20], [15]], held=[[], ["plus5"]])
    play(game, 20, 15)
    view = observe(game, 0)
    assert view.history == ((20, 15),)
    assert view.to_place == ((20, 0),)
    assert view.pending.tile == 15


def test_the_view_shows_this_turns_other_decisions_so_far_then_clears_them():
    game = position(
        "basic+luck",
        {6: [10, 12], 2: [50, 51, 52]},
        [[44, 45], [60, 61]],
        luck_deck=["plus5", "final10"],
    )
    play(game, 44, 60)  # 44 on row 7's '-', then 60 on row 3's '-': two luck cards
    game.apply(0, PlaceLuck(9, 1))
    luck = Choice(seat=0, kind=DecisionKind.LUCK, card="plus5", row=9, space=1)
    assert observe(game, 0).choices == observe(game, 1).choices == (luck,)
    assert observe(game, 1).to_dict()["choices"] == tuple(game.turns[-1].choices)
    assert luck.to_dict() == {"seat": 0, "kind": "luck", "card": "plus5", "row": 9, "space": 1}
    assert observe(game, 1).pending.card == "final10"
    game.apply(1, PlaceLuck(9, 5))
    assert observe(game, 1).choices == ()
    assert observe(game, 0).markers[9][1] == "plus5"
    assert observe(game, 0).markers[9][5] == "final10"


def test_the_turn_counts_from_one_and_stays_on_the_last_turn_at_the_end():
    game = Game.new("basic", 4, seed=3)
    assert observe(game, 0).turn == 1
    while not game.is_over():
        seat = game.pending.seats[0]
        game.apply(seat, game.legal(seat)[0])
    view = observe(game, 2)
    assert view.turn == 12
    assert view.pending is None and view.legal == ()


def test_the_view_of_the_card_game_has_four_rows_and_no_layout():
    view = observe(Game.new("classic", 6, seed=1), 5)
    assert view.layout == ()
    assert len(view.spaces) == 4 and all(len(r) == 5 for r in view.spaces)
    assert view.hand_sizes == (10,) * 6


def test_the_view_is_json_ready():
    game = mid_game()
    data = observe(game, 0).to_dict()
    assert set(data) == fields()
    assert json.loads(json.dumps(data))["legal"] == []
    assert json.loads(json.dumps(observe(game, 1).to_dict()))["pending"]["kind"] == "tile"


def test_views_are_hashable_and_equal_views_hash_alike():
    rng = random.Random(4)
    seen: dict[Observation, Observation] = {}
    with_choices = 0
    for variant in ("pro+luck", "classic"):
        game = Game.new(variant, 3, seed=8)
        while game.pending is not None:
            for seat in range(game.players):
                view = observe(game, seat)
                again = observe(game.clone(), seat)  # equal, built from other objects
                assert again == view and hash(again) == hash(view)
                assert seen.setdefault(view, view) == view  # a usable dict key / set member
                with_choices += bool(view.choices)
            seat = game.pending.seats[0]
            game.apply(seat, rng.choice(game.legal(seat)))
    assert with_choices > 10  # views with this turn's choices in them were hashed too


def test_the_json_form_of_the_choices_is_the_replays():
    rng = random.Random(2)
    compared = 0
    for seed in range(6):
        game = Game.new("pro+luck", 4, seed=seed)
        while game.pending is not None:
            if game.in_turn() and game.turns[-1].choices:
                text = json.dumps(observe(game, 0).to_dict()["choices"])
                assert text == json.dumps(game.turns[-1].choices)  # keys in the same order
                compared += 1
            seat = game.pending.seats[0]
            game.apply(seat, rng.choice(game.legal(seat)))
    assert compared > 20


def test_a_recorded_choice_with_a_field_no_choice_has_is_refused():
    with pytest.raises(TypeError, match="colour"):
        Choice.from_dict({"seat": 0, "kind": "luck", "card": "plus5", "colour": "red"})
    with pytest.raises(ValueError, match="'pass' is not a valid DecisionKind"):
        Choice.from_dict({"seat": 0, "kind": "pass"})


def test_a_view_of_a_seat_that_does_not_exist_is_refused():
    with pytest.raises(ValueError, match="there is no seat 4"):
        observe(Game.new("basic", 4, seed=1), 4)
