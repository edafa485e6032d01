"""The lean path (arena.engine.playout) plays the Game API's games.

- From the deal: random games played on the lean path are recorded as replays that the Game API
  re-simulates without a single disagreement.
- From any position: a random playout, with or without a forced first decision, is recorded
  turn by turn (the playout itself: same generator, same scores) and the Game API, driven from
  that position with the recorded decisions, agrees with it after every turn and at the end.
- A forced decision plays out as the same decision taken through the API first, a batch of
  playouts as single ones, and random decisions are distributed as the random bot's.
"""

import random
import statistics
from typing import Any

import pytest

from arena.bots.rollouts import Rule
from arena.engine import VARIANT_NAMES, Game, PlaceLuck, PlayAction, PlayTile, TakeRow
from arena.engine.decisions import Decision, DecisionKind
from arena.engine.playout import Position, random_game, random_game_scores
from arena.engine.replay import to_replay, verify

COUNTS = [(v, n) for v in VARIANT_NAMES for n in (range(2, 11) if v == "classic" else range(2, 7))]


def api_game(variant: str, players: int, seed: int) -> tuple[Game, list[tuple[Game, Decision]]]:
    """A game of uniformly random decisions through the Game API, and every position on the
    way with the decision taken there."""
    rng = random.Random(seed)
    game = Game.new(variant, players, seed)
    stops: list[tuple[Game, Decision]] = []
    while (pending := game.pending) is not None:
        seat = pending.seats[0]
        decision = rng.choice(game.legal(seat))
        stops.append((game.clone(), decision))
        game.apply(seat, decision)
    return game, stops


def replay_of(game: Game) -> dict[str, Any]:
    return to_replay(game, [f"p{s}" for s in range(game.players)])


def drive(game: Game, turns: list[dict[str, Any]]) -> None:
    """Apply recorded turns to ``game`` through the API, starting wherever it stands; after
    each turn the API's scores must be the recorded ones."""
    for turn in turns:
        assert game.pending is not None
        start = len(game.turns) - (1 if game.in_turn() else 0)
        if turn["plays"] is not None:
            for seat in game.pending.seats:
                game.apply(seat, PlayTile(turn["plays"][seat]))
        choices = list(turn["choices"])
        while len(game.turns) == start + 1 and game.in_turn():
            pending = game.pending
            assert pending is not None
            seat = pending.seats[0]
            nxt = choices[0] if choices else None
            if pending.kind is DecisionKind.ACTION and not (
                nxt and nxt["kind"] == "action" and nxt["seat"] == seat
            ):
                game.apply(seat, PlayAction(None))
                continue
            assert nxt is not None and nxt["seat"] == seat, (nxt, pending)
            choices.pop(0)
            if pending.kind is DecisionKind.LUCK:
                game.apply(seat, PlaceLuck(nxt["row"], nxt["space"]))
            elif pending.kind is DecisionKind.TAKE_ROW:
                game.apply(seat, TakeRow(nxt["row"]))
            else:
                game.apply(seat, PlayAction(nxt["card"], nxt.get("row"), nxt.get("new_tile")))
        assert not choices
        assert game.turns[-1].scores == turn["scores"]


@pytest.mark.parametrize(("variant", "players"), COUNTS)
def test_it_plays_random_games_that_the_api_verifies(variant: str, players: int) -> None:
    rng = random.Random(f"{variant}/{players}")
    for _ in range(24):
        replay = random_game(variant, players, rng)
        assert verify(replay) == []


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_random_playouts_from_any_position_are_games_the_api_plays_alike(
    variant: str, players: int
) -> None:
    for seed in range(3):
        _, stops = api_game(variant, players, 200 + 10 * players + seed)
        for k, (mid, decision) in enumerate(stops[::3]):
            assert mid.pending is not None
            seat = mid.pending.seats[0]
            pos = Position(mid)
            forced = (seat, decision) if k % 2 else (None, None)
            turns, final = pos.trace(random.Random(k), *forced)
            assert final == pos.playout(random.Random(k), *forced)  # the playout, recorded
            game = mid.clone()
            drive(game, turns)  # a forced decision is the first one recorded
            assert game.is_over()
            assert list(game.result().scores) == final


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_forced_tile_plays_out_like_the_tile_chosen_through_the_api(variant: str) -> None:
    # Same generator state, same remaining randomness: forcing seat 0's tile on the lean
    # path and choosing it through the API first must give the same playout.
    for seed in range(20):
        game = Game.new(variant, 4, seed)
        tile = random.Random(seed).choice(game.hands[0])
        chosen = game.clone()
        chosen.apply(0, PlayTile(tile))
        forced = Position(game).playout(random.Random(seed), 0, PlayTile(tile))
        assert forced == Position(chosen).playout(random.Random(seed))


def test_a_forced_row_plays_out_like_the_row_taken_through_the_api() -> None:
    checked = 0
    for seed in range(60):
        _, stops = api_game("classic", 4, seed)
        for mid, decision in stops:
            if not isinstance(decision, TakeRow):
                continue
            after = mid.clone()
            assert mid.pending is not None
            after.apply(mid.pending.seats[0], decision)
            if after.pending is None or after.pending.kind is not DecisionKind.TILE:
                continue  # another row choice in the same turn draws differently
            seat = mid.pending.seats[0]
            forced = Position(mid).playout(random.Random(seed), seat, decision)
            assert forced == Position(after).playout(random.Random(seed))
            checked += 1
    assert checked > 20


def test_playouts_of_finished_games_are_their_results() -> None:
    for variant in VARIANT_NAMES:
        game, stops = api_game(variant, 3, 5)
        assert Position(game).playout(random.Random(1)) == list(game.result().scores)
        last, decision = stops[-1]
        assert last.pending is not None
        pos = Position(last)
        scores = pos.playout(random.Random(1), last.pending.seats[0], decision)
        assert scores == list(game.result().scores)


def test_playout_leaves_the_game_alone_and_follows_its_generator() -> None:
    game = Game.new("pro+luck", 4, 3)
    before = replay_state = (game.hands, game.scores, game.spaces, game.pending)
    first = Position(game).playout(random.Random(9))
    assert Position(game).playout(random.Random(9)) == first
    assert (game.hands, game.scores, game.spaces, game.pending) == replay_state == before


@pytest.mark.parametrize(("variant", "players"), COUNTS)
def test_random_game_scores_is_reproducible(variant: str, players: int) -> None:
    first = random_game_scores(variant, players, random.Random(4))
    assert len(first) == players
    assert random_game_scores(variant, players, random.Random(4)) == first


def _features(replay: dict[str, Any]) -> tuple[float, ...]:
    choices = [c for t in replay["turns"] for c in t["choices"]]
    luck = [10 * c["row"] + c["space"] for c in choices if c["kind"] == "luck"]
    return (
        statistics.mean(replay["result"]["scores"]),
        len(replay["turns"]),
        sum(1 for c in choices if c["kind"] == "action"),
        statistics.mean(luck) if luck else 0.0,
    )


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_random_decisions_are_distributed_as_the_random_bots(variant: str) -> None:
    # The lean random policy (shuffled hands, counted action options, sampled luck spaces)
    # must play like uniform choices from Game.legal: compare mean score, game length, action
    # cards played and where luck cards go.
    n = 120
    api = [_features(replay_of(api_game(variant, 4, 1000 + i)[0])) for i in range(n)]
    rng = random.Random(5)
    lean = [_features(random_game(variant, 4, rng)) for _ in range(2 * n)]
    for k in range(4):
        a = [f[k] for f in api]
        b = [f[k] for f in lean]
        se = (statistics.pvariance(a) / len(a) + statistics.pvariance(b) / len(b)) ** 0.5
        assert abs(statistics.mean(a) - statistics.mean(b)) <= 4 * se, k


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_playouts_of_several_decisions_share_their_randomness(variant: str) -> None:
    # A batch of playouts is the same as single playouts from the same generator state.
    for seed in range(6):
        _, stops = api_game(variant, 3, 300 + seed)
        for mid, _decision in stops[::5]:
            assert mid.pending is not None
            seat = mid.pending.seats[0]
            options = mid.legal(seat)[:6]
            pos = Position(mid)
            batch = pos.playouts(random.Random(seed), seat, options)
            singles = [pos.playout(random.Random(seed), seat, d) for d in options]
            assert batch == singles


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_playout_cut_after_some_turns_stops_with_the_scores_of_that_turn(variant: str) -> None:
    for seed in range(4):
        _, stops = api_game(variant, 4, 400 + seed)
        for mid, decision in stops[::7]:
            assert mid.pending is not None
            seat = mid.pending.seats[0]
            pos = Position(mid)
            full = pos.playout(random.Random(seed), seat, decision)
            assert pos.playout(random.Random(seed), seat, decision, turns=40) == full
            record, final = pos.trace(random.Random(seed), seat, decision)
            assert final == full
            for k in (1, 3):
                cut = pos.playout(random.Random(seed), seat, decision, turns=k)
                traced = pos.trace(random.Random(seed), seat, decision, turns=k)
                assert cut == traced[1]
                assert traced[0] == record[:k]
                if k >= len(record):
                    assert cut == final
                elif variant.startswith("pro"):  # less the hand penalty it can expect
                    assert all(c <= s for c, s in zip(cut, record[k - 1]["scores"], strict=True))
                else:
                    assert cut == record[k - 1]["scores"]


BOARD_VARIANTS = [v for v in VARIANT_NAMES if v != "classic"]


@pytest.mark.parametrize("variant", BOARD_VARIANTS)
def test_rule_playouts_from_any_position_are_games_the_api_plays_alike(variant: str) -> None:
    for seed in range(2):
        _, stops = api_game(variant, 3, 500 + seed)
        for k, (mid, decision) in enumerate(stops[::4]):
            assert mid.pending is not None
            seat = mid.pending.seats[0]
            pos = Position(mid)
            who, forced = (seat, decision) if k % 2 else (None, None)
            turns, final = pos.trace(random.Random(k), who, forced, rule=Rule(0.2))
            assert final == pos.playout(random.Random(k), who, forced, rule=Rule(0.2))
            game = mid.clone()
            drive(game, turns)
            assert game.is_over()
            assert list(game.result().scores) == final


@pytest.mark.parametrize("variant", BOARD_VARIANTS)
def test_without_exploration_the_rule_plays_the_tile_that_lands_best(variant: str) -> None:
    """First turn of a rule playout from the start of a turn: every seat plays a tile worth
    the most to it landing alone on the board, as the search bot's opponent model values
    tiles (a completed row's bullheads, a space's gain or loss)."""
    from arena.bots.search import landing_values
    from arena.engine.observation import observe

    spread = 0
    for seed in range(3):
        _, stops = api_game(variant, 4, 600 + seed)
        for k, (mid, _decision) in enumerate(stops):
            pending = mid.pending
            assert pending is not None
            if pending.kind is not DecisionKind.TILE or len(pending.seats) < 4:
                continue  # not the start of a turn
            turns, _ = Position(mid).trace(random.Random(k), rule=Rule(0.0))
            for seat in range(4):
                values = landing_values(observe(mid, seat))
                hand = [values[t] for t in mid.hands[seat]]
                assert values[turns[0]["plays"][seat]] == max(hand), (seed, k, seat)
                spread += max(hand) > min(hand)
    assert spread > 20  # the hands held tiles of different worth


def test_rule_playouts_are_refused_in_the_card_game_and_outside_0_to_1() -> None:
    with pytest.raises(ValueError, match="rollouts"):
        Position(Game.new("classic", 4, 1)).playout(random.Random(1), rule=Rule(0.1))
    with pytest.raises(ValueError, match="probability"):
        Position(Game.new("basic", 4, 1)).playouts(random.Random(1), 0, [], rule=Rule(1.5))
