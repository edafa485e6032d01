"""RULES.md 7: 6 nimmt! the card game, the engine's fifth variant."""

import pytest
from test_rules_basic import play, position

from arena.engine import Game, TakeRow, bullheads, competition_ranks, variant


def test_the_card_game_has_104_cards_hands_of_10_and_four_rows():
    v = variant("classic")
    assert (v.tiles, v.hand_size, v.start_rows) == (104, 10, 4)
    assert v.board is None
    game = Game.new("classic", 5, seed=1)
    assert len(game.spaces) == 4
    assert all(len(row) == 5 for row in game.spaces)  # a sixth card takes the row
    assert [len(game.row_tiles(r)) for r in range(4)] == [1, 1, 1, 1]
    assert [len(h) for h in game.hands] == [10] * 5
    assert len(game.supply) == 104 - 4 - 50
    placed = {t for row in game.spaces for t in row if t} | {t for h in game.hands for t in h}
    assert placed | set(game.supply) == set(range(1, 105))


def test_the_card_game_has_no_board_no_luck_cards_and_no_action_cards():
    game = Game.new("classic", 3, seed=1)
    assert game.layout == ()
    assert game.luck_deck == [] and game.action_deck == []


@pytest.mark.parametrize("players", [2, 10])
def test_the_card_game_is_for_2_to_10_players(players):
    game = Game.new("classic", players, seed=1)
    assert game.players == players
    assert variant("classic").players == range(2, 11)


def test_the_card_bullheads_use_the_same_table():
    assert [bullheads(t) for t in (101, 102, 103, 104, 55, 66, 70, 85)] == [1, 1, 1, 1, 7, 5, 3, 2]


def test_a_card_goes_to_the_row_ending_in_the_highest_lower_card():
    game = position("classic", {0: [10], 1: [30], 2: [20], 3: [50]}, [[35], [100]])
    play(game, 35, 100)
    assert game.row_tiles(1) == [30, 35]
    assert game.row_tiles(3) == [50, 100]


def test_cards_are_placed_lowest_first():
    game = position("classic", {0: [20], 1: [30], 2: [60], 3: [70]}, [[25], [22]])
    play(game, 25, 22)
    assert game.row_tiles(0) == [20, 22, 25]


def test_a_fifth_card_joins_the_row():
    game = position("classic", {0: [10, 11, 12, 13], 1: [60], 2: [70], 3: [80]}, [[20], [90]])
    play(game, 20, 90)
    assert game.row_tiles(0) == [10, 11, 12, 13, 20]
    assert game.scores == [0, 0]


def test_the_sixth_card_takes_the_five_before_it_and_starts_the_row():
    rows = {0: [10, 11, 12, 13, 14], 1: [60], 2: [70], 3: [80]}
    game = position("classic", rows, [[20], [90]])
    play(game, 20, 90)
    assert game.scores == [3 + 5 + 1 + 1 + 1, 0]
    assert game.row_tiles(0) == [20]
    assert {10, 11, 12, 13, 14} <= set(game.box)


def test_a_card_lower_than_every_row_makes_its_player_choose_a_row_to_take():
    game = position("classic", {0: [10], 1: [20], 2: [30], 3: [40]}, [[5], [50]])
    play(game, 5, 50)
    assert game.pending.kind.value == "take_row"
    assert game.pending.seats == (0,)
    assert game.pending.tile == 5
    assert game.legal(0) == [TakeRow(0), TakeRow(1), TakeRow(2), TakeRow(3)]
    assert game.to_place() == [(50, 1)]  # later cards wait for the choice


def test_the_chosen_row_is_taken_and_the_low_card_starts_it():
    game = position("classic", {0: [10], 1: [20], 2: [30, 33], 3: [40]}, [[5], [50]])
    play(game, 5, 50)
    game.apply(0, TakeRow(2))
    assert game.scores == [3 + 5, 0]
    assert game.row_tiles(2) == [5]
    assert game.row_tiles(3) == [40, 50]
    assert game.turns[0].choices == [{"seat": 0, "kind": "take_row", "row": 2}]


def test_the_score_is_the_penalty_and_the_lowest_penalty_wins():
    game = position("classic", {0: [10], 1: [20], 2: [30, 33], 3: [40]}, [[5], [50], [60]])
    play(game, 5, 50, 60)
    game.apply(0, TakeRow(2))
    assert game.result().scores == (8, 0, 0)
    assert game.result().ranks == (3, 1, 1)
    assert competition_ranks([5, 5, 9], higher_is_better=False) == (1, 1, 3)


@pytest.mark.parametrize("players", [2, 3, 10])
def test_one_game_is_one_hand_of_10_turns(players):
    game = Game.new("classic", players, seed=6)
    while not game.is_over():
        seat = game.pending.seats[0]
        game.apply(seat, game.legal(seat)[0])
    assert len(game.turns) == 10
    assert game.set_number == 1
    assert game.result().scores == tuple(game.turns[-1].scores)
