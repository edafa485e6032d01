"""Determinization (arena.engine.sampling): a sampled game looks to the seat exactly like the
game it came from, holds every tile once, and can be played on; a game rebuilt from its
snapshot (as samples are built) plays on exactly like the original."""

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine import VARIANT_NAMES, Game, SetupError
from arena.engine.decisions import DecisionKind
from arena.engine.observation import observe
from arena.engine.playout import Position
from arena.engine.sampling import Sampler, determinize


@st.composite
def positions(draw: st.DrawFn) -> tuple[Game, int]:
    """A game after some random decisions (one seat at a time, so some seats may have chosen
    their tile already), and a seat to look from."""
    variant = draw(st.sampled_from(VARIANT_NAMES))
    players = draw(st.integers(2, 10 if variant == "classic" else 6))
    game = Game.new(variant, players, draw(st.integers(0, 2**32)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 400))):
        pending = game.pending
        if pending is None:
            break
        seat = rng.choice(pending.seats)
        game.apply(seat, rng.choice(game.legal(seat)))
    return game, draw(st.integers(0, players - 1))


def tiles_of(game: Game) -> list[int]:
    return sorted(
        [t for row in game.spaces for t in row if t > 0]
        + [t for hand in game.hands for t in hand]
        + [t for t in (game.chosen(s) for s in range(game.players)) if t is not None]
        + [t for t, _ in game.to_place()]
        + ([game.current[0]] if game.current else [])
        + game.supply
        + game.box
    )


def cards_of(game: Game) -> tuple[list[str], list[str]]:
    luck = list(game.luck_deck) + [m for row in game.markers for m in row if m]
    actions = list(game.action_deck) + [c for held in game.held for c in held]
    return luck, actions


@settings(max_examples=150, deadline=None)
@given(positions(), st.integers(0, 2**32))
def test_a_sample_looks_to_the_seat_exactly_like_the_game(
    position: tuple[Game, int], seed: int
) -> None:
    game, seat = position
    view = observe(game, seat)
    sample = determinize(view, random.Random(seed))
    assert observe(sample, seat) == view
    assert tiles_of(sample) == list(range(1, game.variant.tiles + 1))
    luck, actions = cards_of(sample)
    assert set(luck) <= set(game.variant.luck_deck)
    assert len(luck) <= len(game.variant.luck_deck)
    assert all(actions.count(c) <= game.variant.action_deck.count(c) for c in set(actions))
    # Hidden parts are the sizes the seat knows.
    assert [len(h) for h in sample.held] == [len(h) for h in game.held]
    assert len(sample.supply) == len(game.supply)
    assert len(sample.box) == len(game.box)


@settings(max_examples=60, deadline=None)
@given(positions(), st.integers(0, 2**32))
def test_a_sample_plays_on_through_the_api_and_the_lean_path(
    position: tuple[Game, int], seed: int
) -> None:
    game, seat = position
    rng = random.Random(seed)
    sample = determinize(observe(game, seat), rng)
    Position(sample).playout(rng)
    while (pending := sample.pending) is not None:
        for s in pending.seats:
            sample.apply(s, rng.choice(sample.legal(s)))
    assert sample.is_over()


def _public(pos: Position) -> dict[str, Any]:
    """What a position plays from: its fields, and the Game it stands for (but the box, which
    play never reads: a sampled position keeps its template's)."""
    fields = {k: v for k, v in vars(pos).items() if k not in ("board", "_snap")}
    snap = pos.to_game().snapshot()._replace(box=())
    return {**fields, "game": snap}


@settings(max_examples=60, deadline=None)
@given(positions(), st.integers(0, 2**32))
def test_a_sampled_position_is_the_position_of_the_sampled_game(
    position: tuple[Game, int], seed: int
) -> None:
    game, seat = position
    sampler = Sampler(observe(game, seat))
    for _ in range(2):  # the first sample makes the template, the second reuses it
        a, b = random.Random(seed), random.Random(seed)
        assert _public(sampler.position(a)) == _public(Position(sampler.game(b)))
        seed += 1


def test_every_sampled_position_is_its_own_to_change() -> None:
    sampler = Sampler(observe(Game.new("pro+luck", 4, 3), 0))
    rng = random.Random(1)
    first = sampler.position(rng)
    dealt = [list(h) for h in first.hands]
    first.hands[1].clear()
    first.chosen[2] = 99
    first.to_choose = (0,)
    again = sampler.position(random.Random(1))
    assert again is not first
    assert again.hands == dealt and again.chosen == [None] * 4
    assert again.to_choose == (0, 1, 2, 3)


def test_it_knows_what_basic_boxes_and_keeps_the_seats_own_cards() -> None:
    game = Game.new("basic", players=4, seed=2)
    rng = random.Random(0)
    while game.turn < 6:
        for s in game.pending.seats:  # type: ignore[union-attr]
            game.apply(s, rng.choice(game.legal(s)))
    view = observe(game, 0)
    revealed = {t for plays in view.history for t in plays if t is not None}
    on_board = {t for row in view.spaces for t in row if t > 0}
    for _ in range(5):
        sample = determinize(view, rng)
        assert revealed - on_board <= set(sample.box)
        assert sample.hands[0] == game.hands[0]
        assert not set(sample.supply) & revealed


def test_it_copies_the_decision_under_way() -> None:
    rng = random.Random(1)
    seen: set[DecisionKind] = set()
    for seed in range(40):
        game = Game.new("pro+luck", players=3, seed=seed)
        while (pending := game.pending) is not None and len(seen) < 3:
            if pending.kind.value != "tile" and pending.kind not in seen:
                seat = pending.seats[0]
                sample = determinize(observe(game, seat), rng)
                assert sample.pending == pending
                assert sample.legal(seat) == game.legal(seat)
                assert sample.to_place() == game.to_place()
                seen.add(pending.kind)
            seat = pending.seats[0]
            game.apply(seat, rng.choice(game.legal(seat)))
    assert len(seen) == 2  # action cards and luck cards


def test_a_tile_swapped_back_this_turn_is_in_its_owners_hand() -> None:
    checked = 0
    for seed in range(400):
        rng = random.Random(seed)
        game = Game.new("pro", 3, seed)
        while (pending := game.pending) is not None and checked < 5:
            seat = pending.seats[0]
            game.apply(seat, rng.choice(game.legal(seat)))
            swaps = [
                c
                for c in (game.turns[-1].choices if game.in_turn() else [])
                if c["kind"] == "action" and c["card"] == "swap"
            ]
            if swaps and swaps[-1]["tile"] in game.hands[swaps[-1]["seat"]]:
                owner, tile = swaps[-1]["seat"], swaps[-1]["tile"]
                sample = determinize(observe(game, (owner + 1) % 3), rng)
                assert tile in sample.hands[owner]
                checked += 1
        if checked >= 5:
            break
    assert checked == 5


@settings(max_examples=60, deadline=None)
@given(positions(), st.integers(0, 2**32))
def test_a_game_rebuilt_from_its_snapshot_plays_on_exactly_like_it(
    position: tuple[Game, int], seed: int
) -> None:
    game, _ = position
    copy = Game.from_snapshot(game.snapshot())
    assert copy.snapshot() == game.snapshot()
    rng = random.Random(seed)
    while game.pending is not None:
        assert [observe(copy, s) for s in range(game.players)] == [
            observe(game, s) for s in range(game.players)
        ]
        seat = game.pending.seats[0]
        decision = rng.choice(game.legal(seat))
        game.apply(seat, decision)
        copy.apply(seat, decision)
    assert copy.result() == game.result()
    assert copy.snapshot() == game.snapshot()


def test_a_snapshot_that_waits_for_nothing_and_is_not_over_is_refused() -> None:
    snap = Game.new("basic", 3, seed=1).snapshot()
    with pytest.raises(SetupError, match="exactly when it is not over"):
        Game.from_snapshot(snap._replace(pending=None))
    with pytest.raises(SetupError, match="exactly when it is not over"):
        Game.from_snapshot(snap._replace(final=(1, 2, 3)))
