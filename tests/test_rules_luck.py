"""RULES.md 3.4: luck cards, in basic+luck and pro+luck, on hand-built positions."""

import json
from collections import Counter
from importlib import resources

import pytest
from test_rules_basic import play, position

from arena.engine import Game, PlaceLuck, PlayAction, variant


def luck_spaces_by_the_rules(game: Game, card: str) -> set[tuple[int, int]]:
    """RULES.md 3.4 read directly: free, unmarked, not skipped; plus5 off first/final spaces."""
    spaces = set()
    for r, row in enumerate(game.layout):
        final = len(row) - 1
        allowed = range(1, final) if card == "plus5" else [final]
        for s in allowed:
            if game.spaces[r][s] == 0 and game.markers[r][s] is None:
                spaces.add((r, s))
    return spaces


# ---------------------------------------------------------------- the deck


def test_the_luck_deck_is_12_cards_8_plus5_and_4_final10():
    """RULES.md 3.4 [decision]: the deck is 12 cards."""
    text = resources.files("arena.engine").joinpath("data", "decks.json").read_text()
    assert json.loads(text)["luck"] == {"plus5": 8, "final10": 4}
    for name in ("basic+luck", "pro+luck"):
        assert Counter(variant(name).luck_deck) == Counter(plus5=8, final10=4)


def test_only_the_luck_variants_have_a_luck_deck():
    assert variant("basic").luck_deck == variant("pro").luck_deck == ()
    assert Game.new("basic", 4, seed=1).luck_deck == []
    assert Game.new("pro", 4, seed=1).luck_deck == []


def test_setup_shuffles_the_luck_deck_with_the_seed():
    decks = [Game.new("basic+luck", 4, seed=s).luck_deck for s in range(10)]
    assert all(Counter(d) == Counter(plus5=8, final10=4) for d in decks)
    assert len({tuple(d) for d in decks}) > 1
    assert Game.new("basic+luck", 4, seed=3).luck_deck == decks[3]
    assert Game.new("basic+luck", 4, seed=3).setup["luck_deck"] == decks[3]


# ---------------------------------------------------------------- when a card is drawn


def test_a_placement_that_loses_points_draws_the_top_luck_card():
    game = position("basic+luck", {6: [10, 12]}, [[44], []], luck_deck=["plus5", "final10"])
    play(game, 44)  # '-' space of row 7: -5
    assert game.pending.kind.value == "luck"
    assert game.pending.card == "plus5"
    assert game.luck_deck == ["final10"]


def test_the_player_who_lost_the_points_places_the_luck_card():
    game = position("basic+luck", {6: [10, 12], 0: [1]}, [[2], [44]], luck_deck=["plus5"])
    play(game, 2, 44)
    assert game.pending.seats == (1,)
    assert PlaceLuck(0, 3) in game.legal(1)
    assert game.legal(0) == []


@pytest.mark.parametrize(
    ("rows", "tile"),
    [({3: [10, 12]}, 55), ({0: [10]}, 55)],  # '+' space, plain space
    ids=["plus", "plain"],
)
def test_a_placement_that_gains_or_changes_nothing_draws_no_luck_card(rows, tile):
    game = position("basic+luck", rows, [[tile], []], luck_deck=["plus5"])
    play(game, tile)
    assert game.is_over()
    assert game.luck_deck == ["plus5"]


def test_a_final_space_loss_draws_a_luck_card():
    game = position("basic+luck", {3: [10, 11, 20]}, [[25], []], luck_deck=["final10"])
    play(game, 25)
    assert game.pending.kind.value == "luck"
    assert game.scores == [-11, 0]


@pytest.mark.parametrize(
    ("row", "score"),
    [([10, 12, 13], 5), ([11, 15, 20], 0)],  # loss 5, loss 10
    ids=["net-positive", "net-zero"],
)
def test_a_final_space_loss_outweighed_by_a_final10_marker_draws_nothing(row, score):
    game = position(
        "basic+luck", {3: row}, [[25], []], luck_deck=["plus5"], markers={(3, 3): "final10"}
    )
    play(game, 25)
    assert game.is_over()
    assert game.scores == [score, 0]
    assert game.luck_deck == ["plus5"]


def test_a_final_space_loss_larger_than_a_final10_marker_still_draws():
    game = position(
        "basic+luck",
        {3: [11, 22, 30]},
        [[35], []],
        luck_deck=["plus5"],
        markers={(3, 3): "final10"},
    )
    play(game, 35)
    assert game.scores == [10 - 13, 0]
    assert game.pending.kind.value == "luck"


def test_a_plus5_marker_on_a_minus_space_makes_the_placement_positive_so_nothing_is_drawn():
    game = position(
        "basic+luck", {6: [10, 12]}, [[44], []], luck_deck=["plus5"], markers={(6, 2): "plus5"}
    )
    play(game, 44)
    assert game.scores == [5, 0]
    assert game.luck_deck == ["plus5"]


@pytest.mark.parametrize(("card", "score", "draws"), [(None, -1, True), ("plus5", 5, False)])
def test_a_plus_five_action_card_counts_towards_the_net_change(card, score, draws):
    game = position(
        "pro+luck",
        {0: [10, 11, 12, 13], 5: [80]},  # row 1 '...D-F': 14 lands on '-'
        [[14], [90]],
        luck_deck=["plus5"],
        held=[["plus5"], []],
    )
    play(game, 14, 90)
    game.apply(0, PlayAction(card))
    assert game.scores[0] == score
    assert (game.luck_deck == []) is draws


def test_a_claim_space_never_draws_a_luck_card():
    game = position("pro+luck", {6: [10, 11, 22], 0: [1]}, [[30], [2, 3]], luck_deck=["plus5"])
    play(game, 30, 2)  # 30 fills row 7 ('..DC') on its claim space
    assert game.hands[0] == [10, 11, 22]
    assert game.scores == [0, 0]
    assert game.luck_deck == ["plus5"]
    assert game.pending.kind.value == "tile"


def test_the_end_of_game_hand_penalty_never_draws_a_luck_card():
    game = position("pro+luck", {0: [10]}, [[20, 55], [30]], luck_deck=["plus5"])
    play(game, 20, 30)
    assert game.is_over()
    assert game.turns[-1].scores == [0, 0]
    assert game.result().scores == (-5, 0)
    assert game.luck_deck == ["plus5"]
    assert game.pending is None


# ---------------------------------------------------------------- when and where it goes


def test_the_luck_card_comes_after_the_row_is_cleared_and_the_tile_moved():
    game = position(
        "basic+luck", {0: [1], 1: [2], 2: [3], 3: [10, 11, 20]}, [[25], []], luck_deck=["final10"]
    )
    play(game, 25)
    assert game.pending.kind.value == "luck"
    assert game.row_tiles(3) == []
    assert game.row_tiles(4) == [25]
    assert PlaceLuck(3, 3) in game.legal(0)  # the final space just emptied


def test_the_luck_card_is_placed_before_the_next_tile():
    game = position("basic+luck", {6: [10, 12], 0: [50, 51]}, [[44], [60]], luck_deck=["plus5"])
    play(game, 44, 60)
    assert game.to_place() == [(60, 1)]
    assert game.spaces[0][2] == 0
    game.apply(0, PlaceLuck(0, 2))  # where 60 is about to land
    assert game.spaces[0][2] == 60
    assert game.scores == [-5, 5]


def test_a_plus5_card_goes_on_any_free_space_but_a_rows_first_and_final_spaces():
    game = position(
        "basic+luck",
        {6: [10, 12], 0: [50, 51, 52], 4: [70]},
        [[44], []],
        luck_deck=["plus5"],
        markers={(1, 2): "plus5", (5, 3): "plus5", (2, 6): "final10"},
    )
    play(game, 44)
    legal = {(d.row, d.space) for d in game.legal(0)}
    assert legal == luck_spaces_by_the_rules(game, "plus5")
    assert (1, 2) not in legal and (5, 3) not in legal  # marked
    assert (0, 1) not in legal and (0, 3) in legal  # tile / free
    assert not any(s == 0 or s == len(game.layout[r]) - 1 for r, s in legal)
    assert (9, 1) in legal  # rows without tiles too


@pytest.mark.parametrize("name", ["basic+luck", "pro+luck"])
def test_a_final10_card_goes_on_any_unmarked_final_space(name):
    minus_row = {"basic+luck": (6, [10, 12], 44), "pro+luck": (0, [10, 11, 12, 13], 14)}[name]
    row, tiles, tile = minus_row
    game = position(
        name,
        {row: tiles},
        [[tile], []],
        luck_deck=["final10"],
        markers={(8, len(variant(name).board.rows[8]) - 1): "final10"},
    )
    play(game, tile)
    legal = {(d.row, d.space) for d in game.legal(0)}
    assert legal == luck_spaces_by_the_rules(game, "final10")
    assert len(legal) == 9
    assert {game.layout[r][s] for r, s in legal} == set("FC" if name == "pro+luck" else "F")


def test_a_luck_card_never_goes_on_a_skipped_space():
    game = position(
        "pro+luck",
        {0: [10], 7: [60, 61, 62, 63]},
        [[20], [64]],
        luck_deck=["plus5"],
        held=[["skip"], []],
    )
    play(game, 20, 64)
    game.apply(0, PlayAction("skip"))  # row 1: space 1 skipped, 20 on space 2
    assert game.spaces[0][:3] == [10, -1, 20]
    assert game.pending.kind.value == "luck"  # 64 lost 1 on row 8's '-'
    legal = {(d.row, d.space) for d in game.legal(1)}
    assert (0, 1) not in legal
    assert (0, 3) in legal


def test_the_luck_choice_is_recorded_in_the_turn():
    game = position("basic+luck", {6: [10, 12]}, [[44], []], luck_deck=["plus5"])
    play(game, 44)
    game.apply(0, PlaceLuck(5, 2))
    assert game.turns[0].choices == [
        {"seat": 0, "kind": "luck", "card": "plus5", "row": 5, "space": 2}
    ]
    assert game.markers[5][2] == "plus5"


# ---------------------------------------------------------------- what a marker does


def test_a_plus5_marker_gives_5_instead_of_the_printed_effect():
    game = position(
        "basic+luck", {3: [10, 12]}, [[55], []], luck_deck=[], markers={(3, 2): "plus5"}
    )
    play(game, 55)  # a '+' space: 5, not 55's 7
    assert game.scores == [5, 0]


def test_a_plus5_marker_on_a_draw_space_draws_no_tile():
    game = position(
        "pro+luck",
        {0: [10, 11, 12], 5: [85]},
        [[13], [90]],
        supply=[80],
        markers={(0, 3): "plus5"},
    )
    play(game, 13, 90)
    assert game.scores[0] == 5
    assert game.supply == [80]
    assert 80 not in game.hands[0]


def test_a_plus5_marker_on_an_action_space_draws_no_action_card():
    game = position(
        "pro+luck",
        {3: [10, 11], 5: [85]},
        [[12], [90]],
        action_deck=["stop"],
        markers={(3, 2): "plus5"},
    )
    play(game, 12, 90)
    assert game.scores[0] == 5
    assert game.held[0] == []
    assert game.action_deck == ["stop"]


def test_a_final10_marker_adds_10_on_top_of_a_completion_so_it_can_net_positive():
    game = position(
        "basic+luck", {3: [10, 12, 13]}, [[25], []], markers={(3, 3): "final10"}, luck_deck=[]
    )
    play(game, 25)
    assert game.scores == [10 - 5, 0]


def test_a_final10_marker_on_a_claim_space_adds_10_and_the_row_is_claimed():
    game = position(
        "pro+luck", {6: [10, 11, 12], 0: [40]}, [[30, 50], [41, 42]], markers={(6, 3): "final10"}
    )
    play(game, 30, 41)
    assert game.scores[0] == 10
    assert {10, 11, 12} <= set(game.hands[0])


def test_a_marker_stays_until_its_row_is_cleared_then_it_is_gone():
    game = position(
        "basic+luck",
        {3: [10, 11], 0: [1]},
        [[12, 13], [2, 3]],
        markers={(3, 2): "plus5", (3, 3): "final10"},
    )
    play(game, 12, 2)
    assert game.scores[0] == 5
    assert game.markers[3][2:] == ["plus5", "final10"]  # still there, under the tile
    play(game, 13, 3)  # fills row 4
    assert game.scores[0] == 5 + 10 - (3 + 5 + 1)
    assert game.markers[3] == [None] * 4


# ---------------------------------------------------------------- running out


def test_an_empty_luck_deck_draws_nothing():
    game = position("basic+luck", {6: [10, 12]}, [[44], []], luck_deck=[])
    play(game, 44)
    assert game.is_over()


def test_the_luck_deck_runs_out():
    game = position("basic+luck", {6: [30, 32], 2: [20, 21, 22]}, [[44], [23]], luck_deck=["plus5"])
    play(game, 44, 23)  # 23 on row 3's '-' (draws the last card), then 44 on row 7's '-'
    assert game.pending.seats == (1,)
    game.apply(1, PlaceLuck(9, 1))
    assert game.is_over()
    assert game.scores == [-5, -1]
    assert game.luck_deck == []


def test_a_full_game_draws_at_most_the_12_cards_of_the_deck():
    game = Game.new("basic+luck", 6, seed=4)
    placed = 0
    while not game.is_over():
        seat = game.pending.seats[0]
        options = game.legal(seat)
        placed += game.pending.kind.value == "luck"
        game.apply(seat, options[-1])
    markers_drawn = 12 - len(game.luck_deck)
    assert placed == markers_drawn <= 12


def test_a_luck_card_without_a_free_space_is_not_drawn():
    """Interpretation: RULES.md 3.4 does not say what happens when the top card has no allowed
    space; the engine leaves it on the deck (it is not drawn and nothing is placed)."""
    finals = {(r, len(row) - 1): "final10" for r, row in enumerate(variant("basic").board.rows)}
    game = position(
        "basic+luck", {6: [10, 12]}, [[44], []], luck_deck=["final10", "plus5"], markers=finals
    )
    play(game, 44)
    assert game.is_over()
    assert game.luck_deck == ["final10", "plus5"]
