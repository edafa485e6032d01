"""Card game playouts by rule (:mod:`arena.bots.rollouts`): the games they play are the Game
API's games, seats avoid the sixth card, every option meets the same randomness."""

import random
from typing import Any

import pytest

from arena.bots.rollouts import Rule, _landing_cost, classic_playouts
from arena.engine import Game
from arena.engine.decisions import DecisionKind, PlayTile, TakeRow
from arena.engine.playout import Position
from arena.engine.tiles import BULLHEADS


def replay_in_game(game: Game, plays: list[list[int | None]]) -> list[int]:
    """The recorded cards played through the Game, rows taken as the rule takes them."""
    for turn in plays:
        for seat, tile in enumerate(turn):
            if tile is not None:
                game.apply(seat, PlayTile(tile))
        while (pending := game.pending) is not None and pending.kind is DecisionKind.TAKE_ROW:
            rows = range(len(game.spaces))
            cheapest = min(
                rows,
                key=lambda r: (sum(BULLHEADS[t] for t in game.row_tiles(r)), game.last_tile(r)),
            )
            game.apply(pending.seats[0], TakeRow(cheapest))
    assert game.is_over()
    return list(game.result().scores)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("players", [2, 4, 7])
def test_a_rule_playout_is_the_game_the_engine_plays(seed: int, players: int) -> None:
    game = Game.new("classic", players, seed)
    rng = random.Random(seed)
    tile = rng.choice(game.hands[0])
    record: list[dict[str, Any]] = []
    (scores,) = classic_playouts(Position(game), rng, 0, [PlayTile(tile)], 0.3, record)
    plays = [turn["plays"] for turn in record]
    assert plays[0][0] == tile and len(plays) == 10
    assert replay_in_game(game, plays) == scores
    # the core's record is the game's: every row it took and every turn's scores
    taken = [c for turn in record for c in turn["choices"]]
    assert taken == [c for turn in game.turns for c in turn.choices]
    assert [turn["scores"] for turn in record] == [turn.scores for turn in game.turns]


def test_without_exploration_a_seat_takes_no_row_while_it_holds_a_safe_card() -> None:
    """First turn, seats 1-3 play by the rule: a card that takes a row on the starting board
    is only played when every card of the hand would."""
    checked = 0
    for seed in range(30):
        game = Game.new("classic", 4, seed)
        rows = [game.row_tiles(r) for r in range(4)]

        def takes_a_row(tile: int, rows: list[list[int]] = rows) -> bool:
            below = [row for row in rows if row[-1] < tile]
            return not below or len(max(below, key=lambda row: row[-1])) == 5

        record: list[dict[str, Any]] = []
        pos = Position(game)
        classic_playouts(pos, random.Random(seed), 0, [PlayTile(game.hands[0][0])], 0.0, record)
        for seat in (1, 2, 3):
            tile = record[0]["plays"][seat]
            assert tile is not None
            if takes_a_row(tile):
                assert all(takes_a_row(t) for t in game.hands[seat])
            elif any(takes_a_row(t) for t in game.hands[seat]):
                checked += 1
    assert checked  # some seat did hold a card that would have taken a row


def test_every_option_meets_the_same_randomness() -> None:
    game = Game.new("classic", 4, 3)
    pos = Position(game)
    options = [PlayTile(t) for t in game.hands[0]]
    first = classic_playouts(pos, random.Random(5), 0, options)
    again = classic_playouts(pos, random.Random(5), 0, list(reversed(options)))
    assert first == list(reversed(again))


@pytest.mark.parametrize("variant", ["basic", "basic+luck", "pro", "pro+luck"])
def test_the_compiled_rule_and_the_games_rule_play_the_cheapest_tiles(variant: str) -> None:
    """Without exploration, every seat's first tile of a rule playout costs least landing
    alone on the board, by the compiled rule (the core's playouts) and by the rule on a Game
    (the backend without the core)."""
    rng = random.Random(variant)
    for seed in range(12):
        game = Game.new(variant, 4, seed)
        for _ in range(rng.randrange(0, 30)):  # somewhere into the game
            pending = game.pending
            if pending is None:
                break
            game.apply(pending.seats[0], rng.choice(game.legal(pending.seats[0])))
        pending = game.pending
        if pending is None or pending.kind is not DecisionKind.TILE or len(pending.seats) < 4:
            continue
        turns, _ = Position(game).trace(random.Random(seed), rule=Rule(0.0))
        for seat in range(4):
            costs = {t: _landing_cost(game, t) for t in game.hands[seat]}
            cheapest = min(costs.values())
            assert costs[turns[0]["plays"][seat]] == cheapest
            assert costs[Rule(0.0).tile(game, seat, random.Random(seed))] == cheapest
