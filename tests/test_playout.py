"""The lean path (arena.engine.playout) gives the Game API's games, in both directions.

- API -> lean: random games played through the Game API are re-played on the lean path from
  their replay (same deal, same decisions): same scores after every turn, same final scores.
- lean -> API: random games played on the lean path are recorded as replays that the Game API
  re-simulates without a single disagreement.
- Resuming: from any position of an API game, with or without a forced first decision, the lean
  path continues exactly as the API did; random playouts from any position are games the API
  accepts move by move.
"""

import random
import statistics
from typing import Any

import pytest

from arena.engine import VARIANT_NAMES, Game, PlaceLuck, PlayAction, PlayTile, TakeRow
from arena.engine.decisions import Decision, DecisionKind
from arena.engine.playout import (
    Position,
    playout,
    random_game,
    random_game_scores,
    replay_scores,
)
from arena.engine.replay import to_replay, verify

ENGINES = ("auto", "general")
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
    """Apply recorded turns to ``game`` through the API, starting wherever it stands."""
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
def test_it_replays_api_games_with_identical_scores(variant: str, players: int) -> None:
    for seed in range(12):
        game, _ = api_game(variant, players, seed)
        replay = replay_of(game)
        want = ([t["scores"] for t in replay["turns"]], replay["result"]["scores"])
        for engine in ENGINES:
            assert replay_scores(replay, engine) == want, (seed, engine)


@pytest.mark.parametrize(("variant", "players"), COUNTS)
def test_it_plays_random_games_that_the_api_verifies(variant: str, players: int) -> None:
    rng = random.Random(f"{variant}/{players}")
    for _ in range(12):
        for engine in ENGINES:
            replay = random_game(variant, players, rng, engine)
            assert verify(replay) == [], engine


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize("players", [2, 4, 6])
def test_it_resumes_any_position_as_the_api_went_on(variant: str, players: int) -> None:
    for seed in range(4):
        game, stops = api_game(variant, players, 100 + seed)
        replay = replay_of(game)
        final = replay["result"]["scores"]
        for mid, decision in stops[::3]:
            pos = Position(mid)
            first = len(mid.turns) - (1 if mid.in_turn() else 0)
            per_turn = [t["scores"] for t in replay["turns"][first:]]
            assert mid.pending is not None
            seat = mid.pending.seats[0]
            for engine in ENGINES:
                assert pos.replay(replay["turns"], engine=engine) == (per_turn, final)
                forced = pos.replay(replay["turns"], seat, decision, engine=engine)
                assert forced == (per_turn, final), (engine, decision)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_it_traces_random_playouts_from_any_position_that_the_api_accepts(
    variant: str, players: int
) -> None:
    rng = random.Random(7)
    _, stops = api_game(variant, players, 200 + players)
    for mid, decision in stops[::4]:
        assert mid.pending is not None
        seat = mid.pending.seats[0]
        turns, final = Position(mid).trace(rng, seat, decision)
        game = mid.clone()
        drive(game, turns)  # the forced decision is the first one recorded
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
        assert playout(game, random.Random(1)) == list(game.result().scores)
        last, decision = stops[-1]
        assert last.pending is not None
        pos = Position(last)
        scores = pos.playout(random.Random(1), last.pending.seats[0], decision)
        assert scores == list(game.result().scores)


def test_playout_leaves_the_game_alone_and_follows_its_generator() -> None:
    game = Game.new("pro+luck", 4, 3)
    before = replay_state = (game.hands, game.scores, game.spaces, game.pending)
    first = playout(game, random.Random(9))
    assert playout(game, random.Random(9)) == first
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
    from arena.engine.playout import _random_keys

    for seed in range(4):
        _, stops = api_game(variant, 4, 400 + seed)
        for mid, decision in stops[::7]:
            assert mid.pending is not None
            seat = mid.pending.seats[0]
            pos = Position(mid)
            full = pos.playout(random.Random(seed), seat, decision)
            assert pos.playout(random.Random(seed), seat, decision, turns=40) == full
            for k in (1, 3):
                cut = pos.playout(random.Random(seed), seat, decision, turns=k)
                if pos._fast == "basic":  # the fast loop's own tile order, replayed
                    assert isinstance(decision, PlayTile)
                    key = _random_keys(random.Random(seed)).__getitem__
                    seqs = pos._sequences(key, seat, decision.tile, k)
                    plays = [[q[j] for q in seqs] for j in range(len(seqs[0]))]
                    turns = [{"plays": p, "choices": []} for p in plays]
                    per_turn, _ = pos.replay([{}] * len(mid.turns) + turns)
                    assert cut == per_turn[-1]
                elif pos._fast == "":  # the general simulator: its record after k turns
                    record, final = pos.trace(random.Random(seed), seat, decision)
                    traced = pos.trace(random.Random(seed), seat, decision, turns=k)
                    assert cut == traced[1]
                    assert traced[0] == record[:k]
                    if k >= len(record):
                        assert cut == final
                    elif variant.startswith("pro"):  # less the hand penalty it can expect
                        assert all(
                            c <= s for c, s in zip(cut, record[k - 1]["scores"], strict=True)
                        )
                    else:
                        assert cut == record[k - 1]["scores"]
