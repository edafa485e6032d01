"""Invariants of random games of every variant and player count (hypothesis).

Each example is a whole game: hypothesis draws the variant, the player count, the deal's seed
and the seed of the generator that picks one legal decision after another.
"""

import dataclasses
import gzip
import json
import random
import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arena.engine.game as game_module
from arena.engine import VARIANT_NAMES, DecisionKind, Game, PlayTile
from arena.engine.game import ActionPlayed, Event, Landed, Revealed, RowCompleted, RowTaken
from arena.engine.observation import observe
from arena.engine.replay import read, to_replay, verify, write

EXAMPLES = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@dataclasses.dataclass(frozen=True)
class Case:
    variant: str
    players: int
    seed: int
    choices: int  # seed of the generator that picks the decisions


@st.composite
def cases(draw: st.DrawFn) -> Case:
    name = draw(st.sampled_from(VARIANT_NAMES))
    players = draw(st.integers(2, 10 if name == "classic" else 6))
    return Case(name, players, draw(st.integers(0, 2**64 - 1)), draw(st.integers(0, 2**32)))


def steps(game: Game, choices: int, limit: int = 20_000):
    """Drive ``game`` with random legal decisions; yield (seat, decision) after each one."""
    rng = random.Random(choices)
    for _ in range(limit):
        if game.is_over():
            return
        seat = rng.choice(game.pending.seats)
        decision = rng.choice(game.legal(seat))
        game.apply(seat, decision)
        yield seat, decision
    raise AssertionError(f"no end after {limit} decisions")


def play_out(case: Case) -> Game:
    game = Game.new(case.variant, case.players, case.seed)
    for _ in steps(game, case.choices):
        pass
    return game


def names(players: int) -> list[str]:
    return [f"bot{i}" for i in range(players)]


# ---------------------------------------------------------------- every tile in one place


def places(game: Game) -> Counter[int]:
    """How often each tile appears across every place a tile can be."""
    seen: Counter[int] = Counter()
    seen.update(t for row in game.spaces for t in row if t > 0)
    for seat in range(game.players):
        seen.update(game.hands[seat])
        if game.chosen(seat) is not None:
            seen[game.chosen(seat)] += 1
    seen.update(t for t, _ in game.to_place())
    pending = game.pending
    if pending is not None and pending.kind in (DecisionKind.ACTION, DecisionKind.TAKE_ROW):
        seen[pending.tile] += 1  # the tile being placed
    seen.update(game.supply)
    seen.update(game.box)
    return seen


@EXAMPLES
@given(cases())
def test_every_tile_is_in_exactly_one_place_at_all_times(case):
    game = Game.new(case.variant, case.players, case.seed)
    every = Counter(range(1, game.variant.tiles + 1))
    assert places(game) == every
    for _ in steps(game, case.choices):
        assert places(game) == every


# ---------------------------------------------------------------- scores are sums of events


def scoring_events(game: Game) -> list[tuple[int, int, int]]:
    """Listen to ``game``: the list it fills with every scoring event as ``(turn index, seat,
    points)``, each valued by the printed rules (RULES.md 3.2-3.4, 5, 7) from what the step
    event says happened, without the score change the engine reports with it."""
    found: list[tuple[int, int, int]] = []
    turn = -1
    bh = game.bullheads
    plus5_on: int | None = None  # the tile a Plus five card was just played on

    def value(event: Event) -> None:
        nonlocal turn, plus5_on
        layout = game.layout
        match event:
            case Revealed():
                turn = event.turn - 1
            case ActionPlayed(seat, tile, card="plus5"):
                found.append((turn, seat, 5))
                plus5_on = tile
            case Landed(seat, tile, row, space, marker=marker):
                replaced = plus5_on == tile and game.rules.plus5_replaces
                plus5_on = None
                if space == len(game.spaces[row]) - 1:
                    return  # the row's completion, next, scores
                if replaced:  # reading 2: the card's +5 instead of the space
                    points = 0
                elif marker == "plus5":
                    points = 5
                elif layout:
                    points = {"+": bh[tile], "-": -bh[tile]}.get(layout[row][space], 0)
                else:
                    points = 0
                found.append((turn, seat, points))
            case RowCompleted(seat, row=row, tiles=tiles, marker=marker):
                lost = 0 if layout[row][-1] == "C" else sum(bh[t] for t in tiles)
                found.append((turn, seat, (10 if marker == "final10" else 0) - lost))
            case RowTaken(seat, tiles=tiles):
                found.append((turn, seat, sum(bh[t] for t in tiles)))

    game.listen(value)
    return found


@EXAMPLES
@given(cases())
def test_each_seats_score_is_the_sum_of_its_scoring_events(case):
    game = Game.new(case.variant, case.players, case.seed)
    events = scoring_events(game)
    for _ in steps(game, case.choices):
        pass
    for i, turn in enumerate(game.turns):
        for seat in range(game.players):
            total = sum(points for t, s, points in events if s == seat and t <= i)
            assert turn.scores[seat] == total, (i, seat)
    penalty = [
        sum(game.bullheads[t] for t in hand) if game.variant.actions else 0 for hand in game.hands
    ]
    assert list(game.result().scores) == [
        s - p for s, p in zip(game.turns[-1].scores, penalty, strict=True)
    ]


# ---------------------------------------------------------------- replays


@EXAMPLES
@given(cases())
def test_the_same_seed_and_decisions_give_the_same_replay(case):
    one = to_replay(play_out(case), names(case.players))
    two = to_replay(play_out(case), names(case.players))
    assert one == two
    assert Game.new(case.variant, case.players, case.seed).setup == one["setup"]


@EXAMPLES
@given(cases())
def test_every_replay_verifies_also_after_a_round_trip_through_a_file(case):
    game = play_out(case)
    replay = to_replay(game, names(case.players))
    assert verify(replay) == []
    assert replay["result"]["scores"] == list(game.result().scores)
    with tempfile.TemporaryDirectory() as folder:
        for name in ("game.json", "game.json.gz"):
            path = Path(folder) / name
            write(path, replay)
            assert read(path).to_json() == json.loads(json.dumps(replay))
            assert verify(read(path)) == []
        assert gzip.decompress((Path(folder) / "game.json.gz").read_bytes())


# ---------------------------------------------------------------- what a seat sees


def hide_differently(game: Game, viewer: int) -> Game:
    """A copy that differs from ``game`` only in what ``viewer`` must not know."""
    other = game.clone()
    for seat in range(game.players):
        if seat == viewer:
            continue
        if other.hands[seat] and other.supply:
            tile, other.supply[0] = other.supply[0], other.hands[seat][0]
            other.hands[seat] = sorted([tile, *other.hands[seat][1:]])
        other.held[seat] = ["anywhere" if c != "anywhere" else "stop" for c in other.held[seat]]
    other.supply.reverse()
    other.luck_deck.reverse()
    other.action_deck.reverse()
    return other


@EXAMPLES
@given(cases())
def test_a_view_never_shows_other_hands_chosen_tiles_supply_or_deck_order(case):
    game = Game.new(case.variant, case.players, case.seed)
    views = [observe(game, s) for s in range(game.players)]
    for chooser, decision in steps(game, case.choices):
        for seat in range(game.players):
            view = observe(game, seat)
            assert view.hand == tuple(game.hands[seat])
            assert view.action_cards == tuple(game.held[seat])
            assert view.chosen == game.chosen(seat)
            assert observe(hide_differently(game, seat), seat) == view
            secret = isinstance(decision, PlayTile) and game.chosen(chooser) is not None
            if secret and seat != chooser:  # another seat's choice shows only as "answered"
                assert dataclasses.replace(view, pending=views[seat].pending) == views[seat]
            views[seat] = view


# ---------------------------------------------------------------- turns and the end


@EXAMPLES
@given(cases())
def test_every_turn_records_every_seats_score_and_the_game_terminates(case):
    game = Game.new(case.variant, case.players, case.seed)
    for _ in steps(game, case.choices):
        if game.turns and not game.in_turn() and not game.is_over():
            assert game.turns[-1].scores == game.scores
    assert game.is_over() and game.pending is None
    assert all(len(t.scores) == case.players for t in game.turns)
    assert all(len(t.plays) == case.players for t in game.turns)
    v = game.variant
    if v.classic:
        assert len(game.turns) == 10
    elif not v.actions:
        assert len(game.turns) == (24 if case.players <= 3 else 12)
    else:
        assert len(game.turns) <= game_module.PRO_TURN_CAP
        assert not all(game.hands) or len(game.turns) == game_module.PRO_TURN_CAP
    assert list(game.result().ranks) == to_replay(game, names(case.players))["result"]["ranks"]
