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
from arena.engine import VARIANT_NAMES, DecisionKind, Game, PlayTile, bullheads
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


class ScoringEvents(Game):
    """A Game that logs every scoring event, valued by the printed rules from the position
    just before the tile lands (RULES.md 3.2-3.4, 5, 7) without asking the engine's own code."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.events: list[tuple[int, int, int]] = []  # (turn index, seat, points)

    def _land(self, seat, tile, row, space, bonus):  # Plus five: counted from the record
        kind, marker = self.layout[row][space], self.markers[row][space]
        if space == len(self.layout[row]) - 1:
            lost = 0 if kind == "C" else sum(bullheads(t) for t in self.row_tiles(row))
            points = (10 if marker == "final10" else 0) - lost
        elif marker == "plus5":
            points = 5
        else:
            points = {"+": bullheads(tile), "-": -bullheads(tile)}.get(kind, 0)
        self.events.append((len(self.turns) - 1, seat, points))
        super()._land(seat, tile, row, space, bonus)

    def _take_row(self, seat, tile, row):
        taken = sum(bullheads(t) for t in self.row_tiles(row))
        self.events.append((len(self.turns) - 1, seat, taken))
        super()._take_row(seat, tile, row)


@EXAMPLES
@given(cases())
def test_each_seats_score_is_the_sum_of_its_scoring_events(case):
    game = ScoringEvents.new(case.variant, case.players, case.seed)
    assert isinstance(game, ScoringEvents)
    for _ in steps(game, case.choices):
        pass
    events = list(game.events)
    for i, turn in enumerate(game.turns):  # the Plus five action card, from the record
        events += [
            (i, c["seat"], 5)
            for c in turn.choices
            if c["kind"] == "action" and c["card"] == "plus5"
        ]
    for i, turn in enumerate(game.turns):
        for seat in range(game.players):
            total = sum(points for t, s, points in events if s == seat and t <= i)
            assert turn.scores[seat] == total, (i, seat)
    penalty = [
        sum(bullheads(t) for t in hand) if game.variant.actions else 0 for hand in game.hands
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
            assert read(path) == json.loads(json.dumps(replay))
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
