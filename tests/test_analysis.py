"""Decision analysis (arena.analysis): estimates against exhaustive enumeration on small
positions, every decision kind of every variant, the frames it points at, reproducibility."""

import math
from itertools import combinations
from random import Random

import pytest

from arena.analysis import analyse, decision_points, estimate
from arena.engine import Game
from arena.engine.decisions import DecisionKind
from arena.engine.frames import frames
from arena.engine.observation import observe
from arena.engine.replay import to_replay


def played_until(
    name: str, players: int, seed: int, tiles_left: int, kind: DecisionKind = DecisionKind.TILE
) -> Game:
    """A game of random decisions stopped where seat 0 is asked for a ``kind`` decision with
    ``tiles_left`` tiles in hand and no further hand to come (the board game's second set)."""
    game = Game.new(name, players=players, seed=seed)
    rng = Random(seed)
    while True:
        pending = game.pending
        assert pending is not None, "the game ended before the position was reached"
        last_set = game.variant.classic or game.set_number == 2
        asked = pending.kind is kind and 0 in pending.seats
        if asked and last_set and len(game.hands[0]) == tiles_left:
            return game
        seat = pending.seats[0]
        game.apply(seat, rng.choice(game.legal(seat)))


def exact_value(game: Game, seat: int) -> float:
    """The seat's expected final score when every decision from here on is uniformly random
    (by the Game API, every branch)."""
    if game.is_over():
        return float(game.result().scores[seat])
    pending = game.pending
    assert pending is not None
    who = pending.seats[0]
    options = game.legal(who)
    total = 0.0
    for decision in options:
        branch = game.clone()
        branch.apply(who, decision)
        total += exact_value(branch, seat)
    return total / len(options)


def exact_option_values(game: Game, seat: int) -> dict[str, float]:
    """Per tile of the seat, its expected final score over every deal of the unseen tiles to
    the other hands (each equally likely) and every random continuation."""
    view = observe(game, seat)
    board = {t for row in game.spaces for t in row if t > 0}
    revealed = {t for turn in view.history for t in turn if t is not None}
    # Basic and the card game: a revealed tile is on the board or out of play for good.
    unseen = sorted(set(range(1, game.variant.tiles + 1)) - board - set(view.hand) - revealed)
    others = [s for s in range(game.players) if s != seat]
    assert len(others) == 1, "enumerated for two players"
    other = others[0]
    values: dict[str, float] = {}
    for decision in view.legal:
        total, deals = 0.0, 0
        for hand in combinations(unseen, view.hand_sizes[other]):
            sample = game.clone()
            sample.hands[other] = list(hand)  # the deal: the rest of the unseen tiles is boxed
            sample.apply(seat, decision)
            total += exact_value(sample, seat)
            deals += 1
        values[str(decision)] = total / deals
    return values


@pytest.mark.parametrize(
    ("name", "seed", "kind", "tiles_left"),
    [
        ("basic", 4, DecisionKind.TILE, 2),
        ("classic", 2, DecisionKind.TILE, 2),
        ("classic", 1, DecisionKind.TAKE_ROW, 1),
    ],
)
def test_it_converges_to_the_exact_expected_score_of_each_option(
    name: str, seed: int, kind: DecisionKind, tiles_left: int
) -> None:
    game = played_until(name, players=2, seed=seed, tiles_left=tiles_left, kind=kind)
    exact = exact_option_values(game, 0)
    view = observe(game, 0)
    samples = 4000
    values = estimate(view, view.legal, Random(7), samples, policy="random")
    first = values[0]
    for decision, row in zip(view.legal, values, strict=True):
        m = sum(row) / samples
        sd = math.sqrt(sum((x - m) ** 2 for x in row) / (samples - 1))
        # Three standard errors: the enumeration is exact, the estimate is not.
        assert abs(m - exact[str(decision)]) <= 3 * sd / math.sqrt(samples), (decision, m, exact)
        # The paired difference to the first option (common random numbers) converges too.
        diffs = [x - y for x, y in zip(row, first, strict=True)]
        d = sum(diffs) / samples
        sd = math.sqrt(sum((x - d) ** 2 for x in diffs) / (samples - 1))
        want = exact[str(decision)] - exact[str(view.legal[0])]
        assert abs(d - want) <= 3 * sd / math.sqrt(samples) + 1e-9, (decision, d, want)


def random_replay(name: str, players: int, seed: int) -> dict[str, object]:
    game = Game.new(name, players=players, seed=seed)
    rng = Random(seed)
    while not game.is_over():
        pending = game.pending
        assert pending is not None
        seat = pending.seats[0]
        game.apply(seat, rng.choice(game.legal(seat)))
    return to_replay(game, [f"p{s}" for s in range(players)])


def test_it_analyses_every_decision_kind_of_every_variant() -> None:
    kinds = set()
    for name in ("basic", "basic+luck", "pro", "pro+luck", "classic"):
        replay = random_replay(name, 4, seed=3)
        for seat in range(2):
            result = analyse(replay, seat, samples=3, seed=1)
            assert result.complete and result.decisions
            for d in result.decisions:
                kinds.add(d.kind)
                estimated = [o.decision for o in d.options]
                assert d.chosen in estimated and d.best in estimated
                assert d.cost >= 0
                assert 2 <= len(d.options) <= d.legal
    assert kinds == {"tile", "luck", "action", "take_row"}


def test_each_decision_points_at_the_viewer_frame_where_the_engine_asked() -> None:
    replay = random_replay("pro+luck", 3, seed=5)
    film = frames(replay)
    points = decision_points(replay, 1)
    assert any(p.view.pending.kind is not DecisionKind.TILE for p in points if p.view.pending)
    for point in points:
        pending = point.view.pending
        assert pending is not None and point.chosen in point.view.legal
        frame = film.frames[point.frame]
        if pending.kind is DecisionKind.TILE:
            assert point.frame == film.turn_ends[point.turn - 1]
        else:
            assert frame.asks is not None
            assert (frame.asks.kind, frame.asks.seat) == (pending.kind.value, 1)
            assert frame.turn == point.turn


def test_it_is_reproducible_from_its_seed() -> None:
    replay = random_replay("classic", 3, seed=8)
    first = analyse(replay, 2, samples=5, seed=11).to_json()
    again = analyse(replay, 2, samples=5, seed=11).to_json()
    other = analyse(replay, 2, samples=5, seed=12).to_json()
    for data in (first, again, other):
        data.pop("seconds")
    assert first == again
    assert first["decisions"] != other["decisions"]


def test_a_spent_time_budget_stops_before_the_next_decision_and_says_so() -> None:
    replay = random_replay("basic", 3, seed=2)
    result = analyse(replay, 0, samples=5, seconds=0)
    assert not result.complete and result.decisions == ()


def test_it_refuses_bad_arguments_with_a_clear_message() -> None:
    replay = random_replay("basic", 2, seed=2)
    with pytest.raises(ValueError, match="no seat 5"):
        analyse(replay, 5)
    with pytest.raises(ValueError, match="unknown policy"):
        analyse(replay, 0, policy="oracle")
    with pytest.raises(ValueError, match="samples must be at least 1"):
        analyse(replay, 0, samples=0)
