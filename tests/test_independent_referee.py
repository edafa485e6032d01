"""Tests of the independent referee with small replays made by hand from RULES.md.

Every expected score below was worked out by hand from the rules (the comments show the working);
nothing here runs the engine. Most scenarios are the first few turns of a game: the referee then
reports that the game is not over, and the helpers ignore exactly that message.
"""

from __future__ import annotations

import gzip
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # works with or without tests/__init__
from independent_referee import UNFINISHED, bullheads, check_replay, main

BASIC = ["...+-F", "....+F", "...-+-F", "..+F", "....-F", "....+-+F", "..-F", "...+-F",
         "....-+F", "...-+F"]  # fmt: skip
PRO = ["...D-F", "....AC", "...-D+F", "..AF", "....DC", "....+A-F", "..DC", "...A-F",
       "....D+F", "...-AC"]  # fmt: skip
LUCK = Counter({"plus5": 8, "final10": 4})
ACTIONS = Counter(
    {c: 3 for c in ("stop", "swap", "skip", "front", "ascending", "anywhere", "another", "plus5")}
)

Replay = dict[str, Any]


def deck(composition: Counter[str], top: list[str]) -> list[str]:
    """A full deck with ``top`` first and the rest of ``composition`` after it."""
    rest = composition - Counter(top)
    return [*top, *rest.elements()]


def make_replay(
    variant: str,
    rows: list[int],
    hands: list[list[int]],
    turns: list[dict[str, Any]],
    *,
    supply_top: tuple[int, ...] = (),
    luck_top: tuple[str, ...] = (),
    action_top: tuple[str, ...] = (),
    result: dict[str, Any] | None = None,
) -> Replay:
    """A replay with the given start tiles and hands; hands are filled up with the highest unused
    tiles, the supply is ``supply_top`` followed by the unused tiles in ascending order."""
    classic = variant == "classic"
    top = 104 if classic else 100
    size = 10 if classic else 12
    used = set(rows) | set(supply_top) | {t for hand in hands for t in hand}
    spare = [t for t in range(top, 0, -1) if t not in used]
    full_hands = []
    for hand in hands:
        filler = size - len(hand)
        full_hands.append([*hand, *spare[:filler]])
        del spare[:filler]
    n = len(hands)
    return {
        "format": "nimmt-replay/1",
        "variant": variant,
        "seed": 7,
        "players": [{"name": f"p{seat}"} for seat in range(n)],
        "layout": [] if classic else (PRO if variant.startswith("pro") else BASIC),
        "setup": {
            "rows": [[t] for t in rows] + ([] if classic else [[] for _ in range(6)]),
            "hands": full_hands,
            "supply": [*supply_top, *sorted(spare)],
            "luck_deck": deck(LUCK, list(luck_top)) if variant.endswith("+luck") else [],
            "action_deck": deck(ACTIONS, list(action_top)) if variant.startswith("pro") else [],
        },
        "turns": turns,
        "result": result or {"scores": [0] * n, "ranks": [1] * n, "faults": []},
    }


def turn(plays: list[int | None], scores: list[int], *choices: dict[str, Any]) -> dict[str, Any]:
    return {"plays": plays, "choices": list(choices), "scores": scores}


def luck(seat: int, card: str, row: int, space: int) -> dict[str, Any]:
    return {"seat": seat, "kind": "luck", "card": card, "row": row, "space": space}


def action(seat: int, card: str, tile: int, **target: int) -> dict[str, Any]:
    return {"seat": seat, "kind": "action", "card": card, "tile": tile, **target}


def take_row(seat: int, row: int) -> dict[str, Any]:
    return {"seat": seat, "kind": "take_row", "row": row}


def problems(replay: Replay) -> list[str]:
    """Mismatches other than 'the game is not over' (the scenarios stop early)."""
    return [p for p in check_replay(replay) if UNFINISHED not in p]


def assert_accepted_prefix(replay: Replay) -> None:
    found = check_replay(replay)
    assert len(found) == 1 and UNFINISHED in found[0], found


def assert_flagged(replay: Replay, *fragments: str) -> None:
    found = problems(replay)
    assert any(all(f in p for f in fragments) for p in found), found


def test_bullhead_table() -> None:
    tiles = (55, 11, 99, 10, 100, 5, 95, 1, 104)
    assert [bullheads(t) for t in tiles] == [7, 5, 5, 3, 3, 2, 2, 1, 1]


# --------------------------------------------------------------------------- basic board


def basic_start(variant: str = "basic") -> Replay:
    """Three turns, 4 players, rows 0..3 start with 10, 20, 30, 40.

    turn 1: 3 is lower than every row -> highest row (row 3, 40) space 1 '.'; 12 -> row 0 (10, the
    smallest difference; 3 on row 3 is lower too but further); 25 -> row 1; 45 -> row 2.
    turn 2: 4 -> row 3 (ends 3) space 2 '+': seat 0 +1. 5 -> row 3 final: loses 40, 3, 4 =
    3+1+1 = 5, 5 moves to row 4 (rows 0-2 hold tiles, row 3 was just cleared). 13 -> row 0, 46 ->
    row 2, both '.'.
    turn 3: 6 -> row 4 (ends 5) space 1, 7 -> row 4 space 2 '.' (row 3 space 2 would be '+');
    14 -> row 0 space 3 '+': seat 3 +1; 47 -> row 2 space 3 '-': seat 2 -1.
    """
    hands = [[25, 4, 6, 15], [12, 5, 7, 16], [45, 46, 47, 48], [3, 13, 14, 26]]
    turns = [
        turn([25, 12, 45, 3], [0, 0, 0, 0]),
        turn([4, 5, 46, 13], [1, -5, 0, 0]),
        turn([6, 7, 47, 14], [1, -5, -1, 1]),
    ]
    return make_replay(variant, [10, 20, 30, 40], hands, turns)


def test_it_accepts_correct_basic_turns() -> None:
    assert_accepted_prefix(basic_start())


def test_it_flags_a_wrong_score() -> None:
    replay = basic_start()
    replay["turns"][1]["scores"] = [1, -4, 0, 0]
    assert_flagged(replay, "turn 2 (turns[1])", "seat 1 score -5, replay says -4")


def test_it_moves_a_completing_tile_to_the_topmost_empty_row_not_the_cleared_one() -> None:
    replay = basic_start()
    # Tile 5 on the cleared row 3 would give 7 the '+' of row 3 space 2 (seat 1: -5 + 1).
    replay["turns"][2]["scores"] = [1, -4, -1, 1]
    assert_flagged(replay, "turn 3", "seat 1 score -5, replay says -4")


def test_it_puts_a_tile_lower_than_every_row_on_the_highest_row() -> None:
    # turn 1 all '.', row 3 = 90 91; turn 2: 1 is lower than all -> row 3 space 2 '+': +1.
    hands = [[91, 1], [11, 12], [21, 22], [31, 32]]
    turns = [turn([91, 11, 21, 31], [0, 0, 0, 0]), turn([1, 12, 22, 32], [1, 0, 0, 0])]
    replay = make_replay("basic", [10, 20, 30, 90], hands, turns)
    assert_accepted_prefix(replay)
    replay["turns"][1]["scores"] = [0, 0, 0, 0]
    assert_flagged(replay, "seat 0 score 1, replay says 0")


def test_it_flags_a_tile_not_in_hand() -> None:
    replay = basic_start()
    replay["turns"][0]["plays"] = [50, 12, 45, 3]  # 50 is in the supply
    assert_flagged(replay, "turn 1 (turns[0])", "seat 0 plays tile 50, which is not in its hand")


def test_it_flags_a_tile_of_another_seat() -> None:
    replay = basic_start()
    replay["turns"][1]["plays"] = [4, 5, 46, 15]  # 15 is in seat 0's hand
    assert_flagged(replay, "turn 2", "seat 3 plays tile 15, which is not in its hand")


def test_it_flags_a_tile_played_twice() -> None:
    replay = basic_start()
    replay["turns"][2]["plays"] = [6, 7, 47, 13]  # 13 was played in turn 2
    assert_flagged(replay, "turn 3", "seat 3 plays tile 13, which is not in its hand")


def test_it_flags_a_wrong_tile_count() -> None:
    replay = basic_start()
    replay["setup"]["hands"][0].pop()
    assert_flagged(replay, "setup.hands[0] holds 11 tiles")
    replay = basic_start()
    replay["setup"]["supply"].append(10)
    assert_flagged(replay, "more than once [10]")
    replay = basic_start()
    replay["setup"]["supply"].remove(50)
    assert_flagged(replay, "missing [50]")


def test_it_flags_wrong_format_layout_and_decks() -> None:
    replay = basic_start()
    replay["format"] = "nimmt-replay/2"
    assert_flagged(replay, "format")
    replay = basic_start()
    replay["layout"] = PRO
    assert_flagged(replay, "layout")
    replay = basic_start()
    replay["setup"]["luck_deck"] = ["plus5"]
    assert_flagged(replay, "setup.luck_deck")
    replay = basic_start("basic+luck")
    replay["setup"]["luck_deck"] = ["plus5"] * 9 + ["final10"] * 3
    assert_flagged(replay, "setup.luck_deck")
    replay = pro_start()
    replay["setup"]["action_deck"].pop()
    assert_flagged(replay, "setup.action_deck")


# --------------------------------------------------------------------------- luck cards


def basic_luck_game() -> Replay:
    """basic+luck; turns 1-3 as in basic_start, plus the luck cards, then a final10 completion.

    turn 2: 5 completes row 3 for -5 -> seat 1 draws the top card (plus5) and puts it on row 4
    space 2 (row 4 holds 5 on space 0 by then). Then 13, 46 as before.
    turn 3: 7 lands on row 4 space 2 (plus5 marker): +5 instead of '.', seat 1 -5+5 = 0. 47 on
    row 2 space 3 '-': seat 2 -1, draws final10, puts it on row 0's final space.
    turn 4: 15 -> row 0 space 4 '-': seat 0 -2 (-1 in all), draws plus5 and puts it on row 9
    space 1 (an empty row is allowed). 16 -> row 0 final: loses 10 12 13 14 15 = 3+1+1+1+2 = 8,
    +10 marker = +2, no luck card. 16 moves to row 3 (topmost empty but row 0). 26 -> row 1
    space 2 '.', 48 -> row 2 space 4 '+': seat 2 +1.
    """
    replay = basic_start("basic+luck")
    replay["setup"]["luck_deck"] = deck(LUCK, ["plus5", "final10", "plus5"])
    turns = replay["turns"]
    turns[1]["choices"] = [luck(1, "plus5", 4, 2)]
    turns[2]["choices"] = [luck(2, "final10", 0, 5)]
    turns[2]["scores"] = [1, 0, -1, 1]
    turns.append(turn([15, 16, 48, 26], [-1, 2, 0, 1], luck(0, "plus5", 9, 1)))
    return replay


def test_it_accepts_luck_cards_after_negative_placements() -> None:
    assert_accepted_prefix(basic_luck_game())


def test_it_flags_a_missing_luck_card() -> None:
    replay = basic_luck_game()
    replay["turns"][1]["choices"] = []
    assert_flagged(replay, "turn 2", "must place luck card 'plus5'")


def test_it_flags_a_luck_card_that_is_not_the_top_card() -> None:
    replay = basic_luck_game()
    replay["turns"][1]["choices"] = [luck(1, "final10", 4, 5)]
    assert_flagged(replay, "turn 2", "the top luck card is 'plus5'")


@pytest.mark.parametrize(
    ("row", "space"),
    [(5, 0), (5, 7), (0, 1), (3, 5), (10, 1)],
    ids=["first-space", "final-space", "holds-a-tile", "beyond-row", "no-such-row"],
)
def test_it_flags_a_plus5_marker_on_an_illegal_space(row: int, space: int) -> None:
    replay = basic_luck_game()
    replay["turns"][1]["choices"] = [luck(1, "plus5", row, space)]
    assert_flagged(replay, "turn 2", "cannot go on")


def test_it_flags_a_final10_marker_off_the_final_space() -> None:
    replay = basic_luck_game()
    replay["turns"][2]["choices"] = [luck(2, "final10", 0, 4)]
    assert_flagged(replay, "turn 3", "cannot go on")


def test_it_flags_a_luck_card_without_a_negative_placement() -> None:
    replay = basic_luck_game()
    replay["turns"][0]["choices"] = [luck(0, "plus5", 5, 2)]
    assert_flagged(replay, "turn 1", "unexpected choice")


def test_it_flags_a_luck_card_drawn_by_the_wrong_seat() -> None:
    replay = basic_luck_game()
    replay["turns"][2]["choices"] = [luck(3, "final10", 0, 5)]
    assert_flagged(replay, "turn 3", "seat 2 scored -1 with tile 47")


def test_it_counts_the_final10_marker_in_the_completion() -> None:
    replay = basic_luck_game()
    replay["turns"][3]["scores"] = [-1, -8, 0, 1]  # as if the +10 were ignored
    assert_flagged(replay, "turn 4", "seat 1 score 2, replay says -8")


# --------------------------------------------------------------------------- full basic games


CHAIN_SCORES = [
    # Rows start 1 2 3 4; seat s plays 4k+5+s in turn k+1, so every tile goes after the previous
    # one: row 3 ('..+F') gets x+1 '.', x+2 '+', x+3 final; x+3 moves to row 4 ('....-F'),
    # which gets x+4..x+6 '.', x+7 '-', x+8 final; x+8 moves back to row 3 (x = 4, 12, ..., 44).
    [0, 1, -4, 0],  # 6 '+' +1; 7 final -(4 5 6 = 1+2+1)
    [0, 1, -9, -11],  # 11 '-' -5; 12 final -(7 8 9 10 11 = 1+1+1+3+5)
    [0, 2, -12, -11],  # 14 '+' +1; 15 final -(12 13 14 = 3)
    [0, 2, -13, -17],  # 19 '-' -1; 20 final -(15..19 = 2+1+1+1+1)
    [0, 7, -22, -17],  # 22 '+' +5; 23 final -(20 21 22 = 3+1+5)
    [0, 7, -23, -23],  # 27 '-' -1; 28 final -(23..27 = 1+1+2+1+1)
    [0, 10, -28, -23],  # 30 '+' +3; 31 final -(28 29 30 = 1+1+3)
    [0, 10, -30, -33],  # 35 '-' -2; 36 final -(31..35 = 1+1+5+1+2)
    [0, 11, -33, -33],  # 38 '+' +1; 39 final -(36 37 38 = 3)
    [0, 11, -34, -40],  # 43 '-' -1; 44 final -(39..43 = 1+3+1+1+1)
    [0, 12, -42, -40],  # 46 '+' +1; 47 final -(44 45 46 = 5+2+1)
    [0, 12, -43, -47],  # 51 '-' -1; 52 final -(47..51 = 1+1+1+3+1)
]


def basic_chain_game() -> Replay:
    hands = [[4 * k + 5 + seat for k in range(12)] for seat in range(4)]
    turns = [turn([4 * k + 5 + s for s in range(4)], CHAIN_SCORES[k]) for k in range(12)]
    result = {"scores": [0, 12, -43, -47], "ranks": [2, 1, 3, 4], "faults": []}
    return make_replay("basic", [1, 2, 3, 4], hands, turns, result=result)


def test_it_accepts_a_complete_basic_game() -> None:
    assert check_replay(basic_chain_game()) == []


def test_it_flags_a_game_that_goes_on_too_long() -> None:
    replay = basic_chain_game()
    replay["turns"].append(turn([None] * 4, [0, 12, -43, -47]))
    assert_flagged(replay, "replay has 13 turns, but the game ends after turn 12")


def test_it_flags_a_game_that_stops_too_early() -> None:
    replay = basic_chain_game()
    replay["turns"].pop()
    assert any(UNFINISHED in p for p in check_replay(replay))


def test_it_flags_wrong_result_scores_and_ranks() -> None:
    replay = basic_chain_game()
    replay["result"]["scores"] = [0, 12, -43, -46]
    assert_flagged(replay, "result", "expected [0, 12, -43, -47]")
    replay = basic_chain_game()
    replay["result"]["ranks"] = [2, 1, 4, 3]
    assert_flagged(replay, "result", "ranks", "expected [2, 1, 3, 4]")


def test_it_ranks_faulted_seats_below_the_others() -> None:
    replay = basic_chain_game()
    replay["result"]["faults"] = [{"seat": 1, "kind": "timeout", "turn": 3, "detail": "slow"}]
    replay["result"]["ranks"] = [1, 4, 2, 3]
    assert check_replay(replay) == []
    replay["result"]["ranks"] = [2, 1, 3, 4]
    assert_flagged(replay, "ranks", "expected [1, 4, 2, 3]")


def two_player_basic() -> Replay:
    """2 players: seat 0 plays the odd tiles 5..27, seat 1 the even ones 6..28 (the chain above
    with two seats); after turn 12 seat 0 draws 29..40 and seat 1 draws 41..52. Turn 13: 29 ->
    row 3 (ends 28) space 1, 41 -> row 3 space 2 '+': seat 1 +1."""
    hands = [list(range(5, 29, 2)), list(range(6, 29, 2))]
    scores = [[0, 1], [-4, 1], [-4, 1], [-9, -10], [-9, -9], [-12, -9], [-12, -9], [-13, -15],
              [-13, -10], [-22, -10], [-22, -10], [-23, -16]]  # fmt: skip
    turns = [turn([5 + 2 * k, 6 + 2 * k], scores[k]) for k in range(12)]
    turns.append(turn([29, 41], [-23, -15]))
    return make_replay("basic", [1, 2, 3, 4], hands, turns)


def test_it_deals_a_second_set_with_two_players() -> None:
    assert_accepted_prefix(two_player_basic())
    replay = two_player_basic()
    replay["turns"][12]["plays"] = [29, 40]  # 40 went to seat 0
    assert_flagged(replay, "turn 13", "seat 1 plays tile 40, which is not in its hand")


# --------------------------------------------------------------------------- classic


def classic_game() -> Replay:
    """2 players, rows 10 20 30 40, hand-checked:

    t1: 1 is lower than every row: seat 1 takes row 0 (10: 3). 41 -> row 3.
    t2: 42, 43 -> row 3. t3: 44 -> row 3 (5 cards); 45 is the 6th: seat 1 takes 40..44
    (3+1+1+1+5 = 11) -> 14. t4-t7: seat 0 plays 2..5 on row 0, seat 1 21..24 on row 1.
    t8: 6 is the 6th card of row 0: seat 1 takes 1..5 (1+1+1+1+2 = 6) -> 20; 25 is the 6th of
    row 1: seat 0 takes 20..24 (3+1+5+1+1 = 11). t9: 9 -> row 0, 46 -> row 3.
    t10: 7 is lower than every row: seat 0 takes row 3 (45 46: 2+1) -> 14; 8 then goes after 7.
    """
    hands = [[41, 42, 44, 2, 3, 4, 5, 25, 9, 7], [1, 43, 45, 21, 22, 23, 24, 6, 46, 8]]
    turns = [
        turn([41, 1], [0, 3], take_row(1, 0)),
        turn([42, 43], [0, 3]),
        turn([44, 45], [0, 14]),
        turn([2, 21], [0, 14]),
        turn([3, 22], [0, 14]),
        turn([4, 23], [0, 14]),
        turn([5, 24], [0, 14]),
        turn([25, 6], [11, 20]),
        turn([9, 46], [11, 20]),
        turn([7, 8], [14, 20], take_row(0, 3)),
    ]
    result = {"scores": [14, 20], "ranks": [1, 2], "faults": []}
    return make_replay("classic", [10, 20, 30, 40], hands, turns, result=result)


def test_it_accepts_a_complete_classic_game() -> None:
    assert check_replay(classic_game()) == []


def test_it_flags_a_missing_take_row() -> None:
    replay = classic_game()
    replay["turns"][0]["choices"] = []
    assert_flagged(replay, "turn 1", "expected a take_row choice of seat 1")


def test_it_flags_a_take_row_that_was_not_needed() -> None:
    replay = classic_game()
    replay["turns"][1]["choices"] = [take_row(0, 2)]
    assert_flagged(replay, "turn 2", "unexpected choice")


def test_it_charges_the_sixth_card() -> None:
    replay = classic_game()
    replay["turns"][2]["scores"] = [0, 3]
    assert_flagged(replay, "turn 3", "seat 1 score 14, replay says 3")


def test_it_ranks_classic_by_lowest_penalty() -> None:
    replay = classic_game()
    replay["result"]["ranks"] = [2, 1]
    assert_flagged(replay, "ranks", "expected [1, 2]")


def test_it_flags_board_game_keys_in_classic() -> None:
    replay = classic_game()
    replay["layout"] = BASIC
    assert_flagged(replay, "layout")
    replay = classic_game()
    replay["setup"]["hands"][0].append(104)
    replay["setup"]["supply"].remove(104)
    assert_flagged(replay, "setup.hands[0] holds 11 tiles")


# --------------------------------------------------------------------------- professional


PRO_HANDS = [[41, 21, 22, 15], [42, 43, 13, 14, 5, 23], [11, 31, 33], [12, 32, 34, 44]]
PRO_T1 = turn([41, 42, 11, 12], [0, 0, 0, 0])
# After turn 1 (pro board): row 0 = 10 11 12 (next: space 3 'D'), row 1 = 20, row 2 = 30,
# row 3 = 40 41 42 (next: the final space); 42 landed on row 3 space 2 'A': seat 1 drew the top
# action card.


def pro_start(
    card: str = "plus5", turns: list[dict[str, Any]] | None = None, variant: str = "pro"
) -> Replay:
    return make_replay(
        variant,
        [10, 20, 30, 40],
        PRO_HANDS,
        [PRO_T1, *(turns or [])],
        supply_top=(60, 70),
        action_top=(card,),
    )


def test_it_accepts_a_pro_d_draw() -> None:
    # t2: 13 -> row 0 space 3 'D': seat 1 draws 60. t3: 60 -> row 3 final: 40 41 42 = 3+1+1 -> -5,
    # 60 moves to row 4; 22 -> row 1; 33 -> row 2 space 3 '-': -5; 34 -> row 2 'D': seat 3 draws 70.
    turns = [turn([21, 13, 31, 32], [0, 0, 0, 0]), turn([22, 60, 33, 34], [0, -5, -5, 0])]
    assert_accepted_prefix(pro_start(turns=turns))


def test_it_flags_a_tile_that_was_not_drawn() -> None:
    turns = [turn([21, 13, 31, 32], [0, 0, 0, 0]), turn([60, 43, 33, 34], [0, -5, -5, 0])]
    assert_flagged(pro_start(turns=turns), "turn 3", "seat 0 plays tile 60")


def claim_game() -> Replay:
    """t1: 21 22 23 -> row 1, 24 on row 1 space 4 'A' (seat 3 draws an action card).
    t2: 11 -> row 0, 25 -> row 1 final 'C': seat 0 takes 20..24 into its hand, loses nothing,
    25 moves to row 4; 31 -> row 2, 41 -> row 3.
    t3: 22 (claimed) -> row 0 (ends 11) space 2; 32 -> row 2; 42 -> row 3 space 2 'A';
    43 -> row 3 final: 40 41 42 = 3+1+1 -> seat 3 -5, 43 moves to row 1 (emptied in t2)."""
    hands = [[21, 25], [22, 11, 42], [23, 31, 32], [24, 41, 43]]
    turns = [
        turn([21, 22, 23, 24], [0, 0, 0, 0]),
        turn([25, 11, 31, 41], [0, 0, 0, 0]),
        turn([22, 42, 32, 43], [0, 0, 0, -5]),
    ]
    return make_replay("pro", [10, 20, 30, 40], hands, turns)


def test_it_accepts_a_pro_c_claim() -> None:
    assert_accepted_prefix(claim_game())


def test_it_flags_a_c_claim_scored_as_a_final() -> None:
    replay = claim_game()
    replay["turns"][1]["scores"] = [-11, 0, 0, 0]
    assert_flagged(replay, "turn 2", "seat 0 score 0, replay says -11")


def test_it_accepts_plus5_action() -> None:
    # 43 completes row 3: -(40 41 42 = 3+1+1) + 5 = 0.
    turns = [turn([21, 43, 31, 32], [0, 0, 0, 0], action(1, "plus5", 43))]
    assert_accepted_prefix(pro_start("plus5", turns))
    turns[0]["scores"] = [0, -5, 0, 0]
    assert_flagged(pro_start("plus5", turns), "seat 1 score 0, replay says -5")
    # On a plain space it is simply +5: 23 -> row 1 (ends 21) space 2 '.'.
    turns = [turn([21, 23, 31, 32], [0, 5, 0, 0], action(1, "plus5", 23))]
    assert_accepted_prefix(pro_start("plus5", turns))


def test_it_flags_an_action_card_not_held() -> None:
    turns = [turn([21, 43, 31, 32], [0, 0, 0, 0], action(1, "plus5", 43))]
    assert_flagged(pro_start("stop", turns), "seat 1 plays action card 'plus5'")
    turns = [turn([21, 43, 31, 32], [5, -5, 0, 0], action(0, "plus5", 21))]
    assert_flagged(pro_start("plus5", turns), "seat 0 plays action card 'plus5'")


def test_it_accepts_stop() -> None:
    # 13 (stop on row 3) -> row 0 'D'; 44 would complete row 3 but goes to row 2 (ends 31) '.'.
    turns = [turn([21, 13, 31, 44], [0, 0, 0, 0], action(1, "stop", 13, row=3))]
    assert_accepted_prefix(pro_start("stop", turns))


@pytest.mark.parametrize("row", [0, 5], ids=["the-tiles-own-row", "an-empty-row"])
def test_it_flags_an_illegal_stop(row: int) -> None:
    turns = [turn([21, 13, 31, 44], [0, 0, 0, 0], action(1, "stop", 13, row=row))]
    assert_flagged(pro_start("stop", turns), "stop on row")


def test_it_accepts_swap_and_returns_the_tile_to_the_hand() -> None:
    # t2: 43 swapped for 14 -> row 0 'D'. t3: 43 (back in hand) -> row 3 final -5; 33 '-' -5.
    turns = [
        turn([21, 43, 31, 32], [0, 0, 0, 0], action(1, "swap", 43, new_tile=14)),
        turn([22, 43, 33, 34], [0, -5, -5, 0]),
    ]
    assert_accepted_prefix(pro_start("swap", turns))


@pytest.mark.parametrize("new_tile", [43, 99, 11], ids=["itself", "not-owned", "other-seat"])
def test_it_flags_a_swap_for_a_tile_not_in_hand(new_tile: int) -> None:
    turns = [turn([21, 43, 31, 32], [0, 0, 0, 0], action(1, "swap", 43, new_tile=new_tile))]
    assert_flagged(pro_start("swap", turns), "new_tile")


def test_it_accepts_skip_and_counts_the_skipped_space_as_filled() -> None:
    # t2: 13 skips row 0 space 3 'D' and lands on space 4 '-': -1.
    # t3: 15 fills row 0's final: 10 11 12 13 = 3+5+1+1 -> -10, moves to row 4; 23 -> row 1;
    # 33 -> row 2 '-' -5; 44 completes row 3 (-5) and moves to row 0, emptied just before.
    turns = [
        turn([21, 13, 31, 32], [0, -1, 0, 0], action(1, "skip", 13)),
        turn([15, 23, 33, 44], [-10, -1, -5, -5]),
    ]
    assert_accepted_prefix(pro_start("skip", turns))


def test_it_flags_skip_without_a_second_empty_space() -> None:
    turns = [turn([21, 43, 31, 32], [0, -5, 0, 0], action(1, "skip", 43))]
    assert_flagged(pro_start("skip", turns), "skip on tile 43")


def test_it_accepts_front() -> None:
    # 5 goes in front of row 2 (30): row 2 = 5 30; 31 -> row 2 space 2; 32 space 3 '-': -1.
    turns = [turn([21, 5, 31, 32], [0, 0, 0, -1], action(1, "front", 5, row=2))]
    assert_accepted_prefix(pro_start("front", turns))


@pytest.mark.parametrize(
    ("tile", "row"), [(5, 3), (23, 1), (5, 6)], ids=["one-empty-space", "lower-first", "empty"]
)
def test_it_flags_an_illegal_front(tile: int, row: int) -> None:
    # row 3 = 40 41 42 of 4 spaces; row 1 = 20 21 when 23 comes; row 6 holds no tile.
    turns = [turn([21, tile, 31, 32], [0, 0, 0, 0], action(1, "front", tile, row=row))]
    assert_flagged(pro_start("front", turns), f"front: tile {tile} cannot go in front of row {row}")


def test_it_accepts_ascending() -> None:
    # t2: 43 on row 0 (ends 12) instead of completing row 3: lands on 'D', seat 1 draws 60.
    # t3: 22 -> row 1; 33 -> row 2 '-' -5; 34 -> 'D'; 60 -> row 0 (ends 43) space 4 '-': -3.
    turns = [
        turn([21, 43, 31, 32], [0, 0, 0, 0], action(1, "ascending", 43, row=0)),
        turn([22, 60, 33, 34], [0, -3, -5, 0]),
    ]
    assert_accepted_prefix(pro_start("ascending", turns))


def test_it_flags_ascending_onto_a_higher_row() -> None:
    turns = [turn([21, 14, 31, 32], [0, 0, 0, 0], action(1, "ascending", 14, row=2))]
    assert_flagged(pro_start("ascending", turns), "ascending: row 2 ends in 30")


def test_it_accepts_anywhere() -> None:
    # t2: 5 on row 1 (20) space 1; 21 then goes to row 0 (ends 12) 'D': seat 0 draws 60.
    # t3: 33 -> row 2 (ends 32) '-' -5; 34 -> 'D'; 43 -> row 3 final -5, moves to row 4;
    # 60 -> row 4 (ends 43) space 1 '.'.
    turns = [
        turn([21, 5, 31, 32], [0, 0, 0, 0], action(1, "anywhere", 5, row=1)),
        turn([60, 43, 33, 34], [0, -5, -5, 0]),
    ]
    assert_accepted_prefix(pro_start("anywhere", turns))


def test_it_flags_anywhere_onto_an_inactive_row() -> None:
    turns = [turn([21, 5, 31, 32], [0, 0, 0, 0], action(1, "anywhere", 5, row=7))]
    assert_flagged(pro_start("anywhere", turns), "anywhere: row 7 is not active")


def test_it_accepts_another_with_its_luck_card_in_between() -> None:
    # pro+luck: 43 completes row 3 (-5), seat 1 puts plus5 on row 0 space 3, then the extra tile
    # 14 lands there (+5 instead of 'D'): 0.
    turns = [
        turn(
            [21, 43, 31, 32],
            [0, 0, 0, 0],
            action(1, "another", 43, new_tile=14),
            luck(1, "plus5", 0, 3),
        )
    ]
    assert_accepted_prefix(pro_start("another", turns, variant="pro+luck"))
    # Without the luck card first, 14 would draw from the supply and the score would be -5.
    turns[0]["scores"] = [0, -5, 0, 0]
    assert_flagged(pro_start("another", turns, variant="pro+luck"), "seat 1 score 0")


def test_it_flags_an_action_on_a_swapped_in_tile() -> None:
    replay = pro_start("swap")
    replay["turns"].append(
        turn(
            [21, 43, 31, 32],
            [0, 5, 0, 0],
            action(1, "swap", 43, new_tile=14),
            action(1, "plus5", 14),
        )
    )
    assert_flagged(replay, "turn 2", "unexpected choice")


def pro_chain_game() -> Replay:
    """A complete 4-player pro game. Rows start 1 2 3 4; seat s plays 4k+5+s in turn k+1 so every
    tile follows the previous one. Row 3 ('..AF') gets x+1, x+2 on 'A' (seat 1 draws an action
    card), x+3 on the final (seat 2 loses x, x+1, x+2); x+3 moves to row 4 ('....DC'): x+4..x+6,
    x+7 on 'D' (seat 2 draws from the supply 53, 54, ...), x+8 on 'C' (seat 3 claims x+3..x+7);
    x+8 moves back to row 3. x = 4, 12, 20, 28, 36, 44. Seat 2 loses 4+5+6 -> 4, 12 13 14 -> 3,
    20 21 22 -> 9, 28 29 30 -> 5, 36 37 38 -> 3, 44 45 46 -> 8.
    After turn 12 seats 0 and 1 have empty hands: the game ends. Hand penalties: seat 2 holds
    53..58 = 1+1+7+1+1+1 = 12; seat 3 holds 7..11, 15..19, 23..27, 31..35, 39..43, 47..51 =
    11+6+6+10+7+7 = 47."""
    hands = [[4 * k + 5 + seat for k in range(12)] for seat in range(4)]
    seat2 = [-4, -4, -7, -7, -16, -16, -21, -21, -24, -24, -32, -32]
    turns = [turn([4 * k + 5 + s for s in range(4)], [0, 0, seat2[k], 0]) for k in range(12)]
    result = {"scores": [0, 0, -44, -47], "ranks": [1, 1, 3, 4], "faults": []}
    return make_replay("pro", [1, 2, 3, 4], hands, turns, result=result)


def test_it_accepts_a_complete_pro_game_with_hand_penalties() -> None:
    assert check_replay(pro_chain_game()) == []


def test_it_flags_a_hand_penalty_in_the_last_turn_scores() -> None:
    replay = pro_chain_game()
    replay["turns"][11]["scores"] = [0, 0, -44, -47]
    assert_flagged(replay, "turn 12", "seat 2 score -32, replay says -44")


def test_it_flags_a_missing_hand_penalty() -> None:
    replay = pro_chain_game()
    replay["result"]["scores"] = [0, 0, -32, 0]
    replay["result"]["ranks"] = [1, 1, 4, 1]
    assert_flagged(replay, "result", "expected [0, 0, -44, -47]")


# --------------------------------------------------------------------------- readings
#
# The scenarios above name no reading, so they are judged by nimmt-rules/1 (RULES.md 10). Here
# each point on which nimmt-rules/2 differs, worked by hand under both readings.


def under(reading: str | None, replay: Replay) -> Replay:
    """``replay`` as played under ``reading`` (``None``: a replay that names none)."""
    if reading is not None:
        replay["rules"] = reading
    return replay


def test_it_rejects_an_unknown_reading() -> None:
    assert_flagged(under("nimmt-rules/3", pro_start()), "unknown rules reading 'nimmt-rules/3'")


def test_reading_2_tile_55_carries_5_bullheads_in_the_board_game() -> None:
    # pro_chain_game's seat 2 ends holding 53..58: 1+1+5+1+1+1 = 10 under reading 2 (55 -> 5),
    # so its final score is -32 - 10 = -42; seat 3's hand holds no 55.
    replay = under("nimmt-rules/2", pro_chain_game())
    assert_flagged(replay, "result", "expected [0, 0, -42, -47]")
    replay["result"] = {"scores": [0, 0, -42, -47], "ranks": [1, 1, 3, 4], "faults": []}
    assert check_replay(replay) == []


@pytest.mark.parametrize("reading", [None, "nimmt-rules/1"])
def test_reading_1_tile_55_carries_7_bullheads_in_the_board_game(reading: str | None) -> None:
    assert check_replay(under(reading, pro_chain_game())) == []


@pytest.mark.parametrize("reading", ["nimmt-rules/1", "nimmt-rules/2"])
def test_the_card_game_keeps_55_at_7_bullheads_under_every_reading(reading: str) -> None:
    # 55 is the only card of row 0; 54 is lower than every row end: seat 0 takes row 0 (7).
    replay = make_replay("classic", [55, 60, 70, 80], [[54], [81]], [])
    replay["turns"] = [turn([54, 81], [7, 0], take_row(0, 0))]
    assert_accepted_prefix(under(reading, replay))


STOP_OWN_ROW = [turn([21, 13, 31, 32], [0, -5, 0, 0], action(1, "stop", 13, row=0))]
# Seat 1 stops row 0, where 13 would go (after 12). 13 is then lower than every active row end
# (20, 30, 42) and goes to the highest, row 3 ('..AF'): its final space, -(40 41 42 = 3+1+1),
# and 13 moves to row 4. 21 -> row 1, 31 and 32 -> row 2, all on plain spaces.


def test_reading_2_stop_may_close_the_row_the_tile_would_go_to() -> None:
    assert_accepted_prefix(under("nimmt-rules/2", pro_start("stop", STOP_OWN_ROW)))


@pytest.mark.parametrize("reading", [None, "nimmt-rules/1"])
def test_reading_1_stop_may_not_close_the_row_the_tile_would_go_to(reading: str | None) -> None:
    replay = under(reading, pro_start("stop", STOP_OWN_ROW))
    assert_flagged(replay, "stop on row 0, the row tile 13 goes to")


ANOTHER_LOW = [action(1, "another", 43, new_tile=5)]
# Turn 2: 21 -> row 1, 31 and 32 -> row 2 (next: space 3 '-'), then seat 1's 43 with Another
# revealing 5.
# Reading 2, lowest first: 5 is lower than every row end and goes to the highest, row 3 (ends
# 42): the final space, -5, and 5 moves to row 4; then 43 goes after 32 on row 2's '-': -1.
# Reading 1, 43 first: row 3's final space, -5, 43 moves to row 4; 5 then goes after 43: plain.


def test_reading_2_another_places_the_seats_two_tiles_lowest_first() -> None:
    good = [turn([21, 43, 31, 32], [0, -6, 0, 0], *ANOTHER_LOW)]
    assert_accepted_prefix(under("nimmt-rules/2", pro_start("another", good)))
    wrong = [turn([21, 43, 31, 32], [0, -5, 0, 0], *ANOTHER_LOW)]
    assert_flagged(under("nimmt-rules/2", pro_start("another", wrong)), "seat 1 score -6")


@pytest.mark.parametrize("reading", [None, "nimmt-rules/1"])
def test_reading_1_another_places_the_carded_tile_first(reading: str | None) -> None:
    good = [turn([21, 43, 31, 32], [0, -5, 0, 0], *ANOTHER_LOW)]
    assert_accepted_prefix(under(reading, pro_start("another", good)))


PLUS5_ON_D = [
    turn([21, 13, 31, 32], [0, 5, 0, 0], action(1, "plus5", 13)),
    turn([22, 60, 33, 34], [0, 0, -5, 0]),
]
# Turn 2: seat 1's 13 with Plus five lands on row 0's 'D' space: +5. Turn 3: seat 1 plays 60,
# the supply's top tile, which only that D space can have given it. Reading 1: 22 -> row 1,
# 33 -> row 2 '-' (seat 2 -5), 34 -> row 2 'D', 60 -> row 3's final space, cost 40 41 42
# (3+1+1): seat 1 at 5 - 5 = 0.


def test_reading_2_plus_five_gives_5_instead_of_the_spaces_draw() -> None:
    assert_accepted_prefix(under("nimmt-rules/2", pro_start("plus5", PLUS5_ON_D[:1])))
    replay = under("nimmt-rules/2", pro_start("plus5", PLUS5_ON_D))
    assert_flagged(replay, "turn 3", "seat 1 plays tile 60, which is not in its hand")


@pytest.mark.parametrize("reading", [None, "nimmt-rules/1"])
def test_reading_1_plus_five_gives_5_on_top_of_the_spaces_draw(reading: str | None) -> None:
    assert_accepted_prefix(under(reading, pro_start("plus5", PLUS5_ON_D)))


# --------------------------------------------------------------------------- command line


def test_the_command_line_reads_json_and_gzip(tmp_path: Path, capsys: Any) -> None:
    good = tmp_path / "good.json.gz"
    good.write_bytes(gzip.compress(json.dumps(classic_game()).encode()))
    bad_replay = classic_game()
    bad_replay["turns"][2]["scores"] = [0, 3]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(bad_replay))
    assert main([str(good)]) == 0
    assert main([str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"{good}: OK" in out
    assert "seat 1 score 14, replay says 3" in out
