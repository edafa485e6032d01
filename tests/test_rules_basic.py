"""RULES.md 1–4 for the basic game: components, set-up, placement, final spaces, the end.

Every test builds the position it needs with :meth:`Game.from_setup`; tiles a test does not
name go to the box, so nothing outside the position can interfere.
"""

from importlib import resources

import pytest

from arena.engine import Game, PlayTile, bullheads, competition_ranks, variant
from arena.engine.rng import DealRandom
from arena.engine.tiles import BOARD_BULLHEADS, board_bullheads

# RULES.md 1, the basic side exactly as printed there.
RULES_BASIC_BOARD = """
 1  . . . + - F
 2  . . . . + F
 3  . . . - + - F
 4  . . + F
 5  . . . . - F
 6  . . . . + - + F
 7  . . - F
 8  . . . + - F
 9  . . . . - + F
10  . . . - + F
"""


def board_rows(text: str) -> list[str]:
    """Rows of a RULES.md board drawing (``' 1  . . + F'`` -> ``'..+F'``), top first."""
    return ["".join(line.split()[1:]) for line in text.strip().splitlines()]


def data_file_rows(name: str) -> list[str]:
    """Rows of a board data file, read the way a board owner would write it."""
    text = resources.files("arena.engine").joinpath("data", "boards", name).read_text()
    return [line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"]


def position(
    name: str, rows: dict[int, list[int]], hands: list[list[int]], **kwargs: object
) -> Game:
    """A game at a hand-built position; every tile not named goes to the box."""
    v = variant(name)
    count = len(v.board.rows) if v.board else v.start_rows
    full = [list(rows.get(r, [])) for r in range(count)]
    supply = list(kwargs.pop("supply", []))  # type: ignore[call-overload]
    used = {t for part in (*full, *hands, supply) for t in part}
    box = [t for t in range(1, v.tiles + 1) if t not in used]
    return Game.from_setup(name, full, hands, supply, box=box, **kwargs)  # type: ignore[arg-type]


def play(game: Game, *tiles: int | None) -> None:
    """Every seat reveals its tile (``None``: a seat without tiles)."""
    for seat, tile in enumerate(tiles):
        if tile is not None:
            game.apply(seat, PlayTile(tile))


def play_first_legal(game: Game, turns: int) -> None:
    """Play ``turns`` whole turns with every seat taking its first legal decision."""
    for _ in range(turns):
        start = len(game.turns)
        while not game.is_over() and (len(game.turns) == start or game.in_turn()):
            seat = game.pending.seats[0]
            game.apply(seat, game.legal(seat)[0])


# ---------------------------------------------------------------- 1. components


def test_a_tile_carries_the_card_games_bullheads_capped_at_5():
    """RULES.md 1 [decision], reading nimmt-rules/2: tiles carry 1 to 5 bullheads."""
    assert board_bullheads(55) == 5
    assert [board_bullheads(t) for t in (11, 22, 33, 44, 66, 77, 88, 99)] == [5] * 8
    assert [board_bullheads(t) for t in range(10, 101, 10)] == [3] * 10
    assert [board_bullheads(t) for t in range(5, 100, 10) if t != 55] == [2] * 9
    others = [t for t in range(1, 101) if t % 5 and t % 11]
    assert {board_bullheads(t) for t in others} == {1}
    assert len(others) == 100 - 20 - 9 + 1  # multiples of 5 or 11 (55 counted once)
    assert [board_bullheads(t) for t in range(1, 101)] == [
        min(bullheads(t), 5) for t in range(1, 101)
    ]
    assert Game.new("basic", 2, 1).bullheads == BOARD_BULLHEADS
    assert max(BOARD_BULLHEADS[1:101]) == 5


def test_the_bullheads_of_the_104_cards_add_up_to_the_card_games_171():
    assert sum(bullheads(t) for t in range(1, 105)) == 171


def test_the_basic_board_data_file_is_the_layout_of_rules_md():
    assert data_file_rows("basic.txt") == board_rows(RULES_BASIC_BOARD)
    assert list(variant("basic").board.rows) == board_rows(RULES_BASIC_BOARD)
    assert variant("basic+luck").board == variant("basic").board


def test_the_board_has_ten_rows_each_starting_plain_and_ending_in_its_only_final_space():
    for name in ("basic", "pro"):
        rows = variant(name).board.rows
        assert len(rows) == 10
        for row in rows:
            assert row[0] == "."
            assert row[-1] in "FC"
            assert not set(row[:-1]) & {"F", "C"}


def test_the_basic_board_uses_only_plain_plus_minus_and_final_spaces():
    assert set("".join(variant("basic").board.rows)) == set(".+-F")


def test_a_game_has_tiles_1_to_100_and_hands_of_12():
    v = variant("basic")
    assert (v.tiles, v.hand_size, v.start_rows, v.players) == (100, 12, 4, range(2, 7))


# ---------------------------------------------------------------- 2. set-up


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_puts_one_tile_on_the_first_space_of_rows_1_to_4(players):
    game = Game.new("basic", players, seed=11)
    for r in range(4):
        assert game.fill[r] == 1
        assert game.spaces[r][0] > 0
    assert all(game.fill[r] == 0 and not game.row_tiles(r) for r in range(4, 10))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_deals_12_tiles_per_seat_in_seat_order_and_the_rest_is_the_supply(players):
    deck = list(range(1, 101))
    DealRandom(2024).shuffle(deck)
    game = Game.new("basic", players, seed=2024)
    assert [game.spaces[r][0] for r in range(4)] == deck[:4]
    for seat in range(players):
        dealt = deck[4 + 12 * seat : 16 + 12 * seat]
        assert game.setup["hands"][seat] == dealt
        assert game.hands[seat] == sorted(dealt)
    assert game.supply == deck[4 + 12 * players :]
    assert len(game.supply) == 100 - 4 - 12 * players


def test_every_score_starts_at_zero():
    assert Game.new("basic", 5, seed=3).scores == [0] * 5


def test_the_same_seed_gives_the_same_deal():
    one, two = Game.new("basic", 4, seed=99), Game.new("basic", 4, seed=99)
    assert one.setup == two.setup


def test_different_seeds_give_different_deals():
    deals = {str(Game.new("basic", 4, seed=s).setup) for s in range(20)}
    assert len(deals) == 20


# ---------------------------------------------------------------- 3.1 choose and reveal


def test_every_seat_with_tiles_chooses_at_the_same_time_in_any_order():
    game = position("basic", {0: [10]}, [[20, 21], [30, 31], [40, 41]])
    assert game.pending.kind.value == "tile"
    assert game.pending.seats == (0, 1, 2)
    game.apply(2, PlayTile(40))
    game.apply(0, PlayTile(20))
    assert game.pending.seats == (1,)


def test_nothing_is_placed_until_every_seat_has_chosen():
    game = position("basic", {0: [10]}, [[20, 21], [30, 31]])
    game.apply(0, PlayTile(20))
    assert game.row_tiles(0) == [10]
    assert game.chosen(0) == 20
    assert game.turns == []
    game.apply(1, PlayTile(30))
    assert game.row_tiles(0) == [10, 20, 30]
    assert game.turns[0].plays == [20, 30]


def test_a_seat_without_tiles_is_not_asked_to_choose():
    game = position("basic", {0: [10]}, [[20], []])
    assert game.pending.seats == (0,)


# ---------------------------------------------------------------- 3.2 placement


def test_a_tile_goes_to_the_row_whose_last_tile_is_the_highest_lower_one():
    game = position("basic", {0: [10], 1: [30], 2: [20], 3: [50]}, [[35], []])
    play(game, 35)
    assert game.row_tiles(1) == [30, 35]


def test_a_tile_lower_than_every_row_goes_on_the_highest_row():
    game = position("basic", {0: [10], 1: [30], 2: [20], 3: [50]}, [[5], []])
    play(game, 5)
    assert game.row_tiles(3) == [50, 5]
    assert game.scores == [0, 0]  # nobody takes a row for playing low


def test_empty_rows_are_not_active_and_take_no_tile():
    game = position("basic", {2: [40], 7: [60]}, [[70], [30]])
    play(game, 70, 30)
    assert game.row_tiles(7) == [60, 30]  # lower than every row: the highest row, not row 1
    assert game.row_tiles(2) == [40, 70]
    assert all(not game.row_tiles(r) for r in range(10) if r not in (2, 7))


def test_a_tile_goes_on_the_next_empty_space_of_its_row():
    game = position("basic", {0: [10, 12]}, [[15], []])
    play(game, 15)
    assert game.spaces[0][:4] == [10, 12, 15, 0]


def test_a_plain_space_changes_nothing():
    game = position("basic", {0: [10]}, [[55], []])  # row 1, space 2: '.'
    play(game, 55)
    assert game.scores == [0, 0]


def test_a_plus_space_gains_the_placed_tiles_bullheads():
    game = position("basic", {3: [10, 12]}, [[55], []])  # row 4 '..+F'
    play(game, 55)
    assert game.spaces[3][2] == 55
    assert game.scores == [5, 0]


def test_a_minus_space_loses_the_placed_tiles_bullheads():
    game = position("basic", {6: [10, 12]}, [[44], []])  # row 7 '..-F'
    play(game, 44)
    assert game.scores == [-5, 0]


def test_a_score_may_go_negative():
    game = position("basic", {6: [10, 12]}, [[44], []], scores=[2, 0])
    play(game, 44)
    assert game.scores[0] == -3
    assert game.result().scores == (-3, 0)


def test_the_space_effect_goes_to_the_player_whose_tile_it_is():
    game = position("basic", {3: [10, 12], 6: [60, 61]}, [[70], [15]])
    play(game, 70, 15)  # 15 on '+' of row 4, 70 on '-' of row 7
    assert game.scores == [-3, 2]


# ---------------------------------------------------------------- 3.3 final spaces


def test_filling_a_final_space_loses_the_bullheads_of_the_rows_other_tiles():
    game = position("basic", {3: [10, 11, 20]}, [[25], []])  # row 4 '..+F'
    play(game, 25)
    assert game.scores[0] == -(3 + 5 + 3)  # not the placed tile's own 2


def test_the_other_tiles_of_a_filled_row_go_to_the_box():
    game = position("basic", {3: [10, 11, 20]}, [[25], []])
    box_before = len(game.box)
    play(game, 25)
    assert set(game.box[box_before:]) == {10, 11, 20}
    assert game.fill[3] == 0
    assert game.spaces[3][1:] == [0, 0, 0]


def test_the_filling_tile_moves_to_the_first_space_of_the_topmost_empty_row():
    game = position("basic", {0: [1], 1: [2], 2: [3], 3: [10, 11, 20]}, [[25], []])
    play(game, 25)
    assert game.row_tiles(3) == []
    assert game.row_tiles(4) == [25]
    assert game.spaces[4][0] == 25


def test_the_filling_tile_does_not_count_the_row_just_cleared_as_empty():
    """RULES.md 3.3 [decision]: the cleared row is the topmost empty one, yet not the target."""
    game = position("basic", {0: [10, 11, 12, 13, 20], 1: [1], 2: [2], 3: [3]}, [[25], []])
    play(game, 25)
    assert game.row_tiles(0) == []
    assert game.row_tiles(4) == [25]


def test_moving_the_filling_tile_triggers_nothing():
    # 60 fills row 3 and moves to row 4 ('..+F'); only the loss of the others counts.
    game = position("basic", {0: [6], 1: [7], 2: [10, 11, 20, 30, 40, 50]}, [[60], []])
    play(game, 60)
    assert game.scores[0] == -(3 + 5 + 3 + 3 + 3 + 3)
    assert game.row_tiles(3) == [60]
    assert game.fill[3] == 1


def test_a_cleared_row_is_empty_and_can_be_used_again():
    rows = {0: [10, 11, 12, 13, 20], 1: [30, 31, 32, 33, 40], 2: [2], 3: [3]}
    game = position("basic", rows, [[25], [45]])
    play(game, 25, 45)
    assert game.row_tiles(4) == [25]  # first completion skips the cleared row 1
    assert game.row_tiles(0) == [45]  # second completion reuses it
    assert game.row_tiles(1) == []


def test_tiles_are_placed_one_at_a_time_lowest_first_whatever_the_seat():
    game = position("basic", {0: [20], 1: [30]}, [[25], [22]])
    play(game, 25, 22)
    # Seat order would put 25 after 20 and then 22 on the highest row (30).
    assert game.row_tiles(0) == [20, 22, 25]
    assert game.row_tiles(1) == [30]


def test_the_tile_placed_earlier_in_a_turn_changes_where_a_later_one_goes():
    game = position("basic", {0: [10], 1: [40]}, [[45], [50]])
    play(game, 45, 50)
    assert game.row_tiles(1) == [40, 45, 50]


# ---------------------------------------------------------------- 4. the end


@pytest.mark.parametrize("players", [4, 5, 6])
def test_four_to_six_players_end_after_the_12th_turn(players):
    game = Game.new("basic", players, seed=5)
    play_first_legal(game, 11)
    assert not game.is_over()
    play_first_legal(game, 1)
    assert game.is_over()
    assert len(game.turns) == 12
    assert game.pending is None


@pytest.mark.parametrize("players", [2, 3])
def test_two_or_three_players_draw_12_more_tiles_in_seat_order_after_turn_12(players):
    game = Game.new("basic", players, seed=8)
    supply = list(game.supply)
    play_first_legal(game, 12)
    assert not game.is_over()
    assert game.set_number == 2
    for seat in range(players):
        assert game.hands[seat] == sorted(supply[12 * seat : 12 * seat + 12])
    assert game.supply == supply[12 * players :]


@pytest.mark.parametrize("players", [2, 3])
def test_the_board_stays_as_it_is_between_the_two_sets(players):
    game = Game.new("basic", players, seed=8)
    first_rows = [game.spaces[r][0] for r in range(4)]
    play_first_legal(game, 12)
    assert game.set_number == 2
    on_board = {t for row in game.spaces for t in row if t > 0}
    played = {t for turn in game.turns for t in turn.plays}
    assert len(on_board) >= 4
    assert on_board | set(game.box) == played | set(first_rows)
    assert sorted(on_board) != sorted(first_rows)


@pytest.mark.parametrize("players", [2, 3])
def test_two_or_three_players_end_after_the_24th_turn(players):
    game = Game.new("basic", players, seed=8)
    play_first_legal(game, 23)
    assert not game.is_over()
    play_first_legal(game, 1)
    assert game.is_over()
    assert len(game.turns) == 24


def test_every_turn_records_every_seats_score_after_it():
    game = position("basic", {3: [10, 12], 6: [60, 61]}, [[15, 16], [70, 71]])
    play(game, 15, 70)
    assert game.turns[0].scores == [2, -3]
    play(game, 16, 71)
    assert game.turns[1].scores == game.scores
    assert len(game.turns) == 2


def test_the_highest_score_wins():
    game = position("basic", {3: [10, 12], 6: [60, 61]}, [[15], [70]])
    play(game, 15, 70)
    assert game.result().scores == (2, -3)
    assert game.result().ranks == (1, 2)


def test_equal_scores_share_a_rank_competition_style():
    # seat 0: '+' of row 1 (+1); seat 1: '+' of row 4 (+1); seat 2 fills row 4 (-5).
    game = position("basic", {0: [1, 2, 3], 3: [40, 41]}, [[4], [42], [43]])
    play(game, 4, 42, 43)
    assert game.result().scores == (1, 1, -5)
    assert game.result().ranks == (1, 1, 3)


def test_competition_ranks_are_1_1_3():
    assert competition_ranks([7, 7, 2], higher_is_better=True) == (1, 1, 3)
    assert competition_ranks([2, 9, 9, 9], higher_is_better=True) == (4, 1, 1, 1)
    assert competition_ranks([0, 0, 0], higher_is_better=True) == (1, 1, 1)
