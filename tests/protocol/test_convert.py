"""Engine values <-> protocol messages: every conversion round-trips, through bytes too."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.engine import Game, PlaceLuck, PlayAction, PlayTile, TakeRow
from arena.engine.decisions import DecisionKind
from arena.engine.observation import observe
from arena.engine.variants import ACTION_CARDS, VARIANT_NAMES
from arena.protocol import arena_pb2 as pb
from arena.protocol.convert import (
    ProtocolError,
    decision_from_proto,
    decision_to_proto,
    fault_from_proto,
    fault_to_proto,
    observation_from_proto,
    observation_to_proto,
    put_private,
    put_public,
)


def views_of_random_games(variant, players, seed, games=3):
    """Every seat's view at every decision of a few random games (and at the end)."""
    rng = random.Random(seed)
    for g in range(games):
        game = Game.new(variant, players=players, seed=seed + g)
        while game.pending is not None:
            for seat in range(players):
                yield observe(game, seat)
            seat = game.pending.seats[0]
            game.apply(seat, rng.choice(game.legal(seat)))
        for seat in range(players):
            yield observe(game, seat)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_it_round_trips_every_view_of_random_games(variant):
    kinds = set()
    players = 3 if variant != "classic" else 5
    for view in views_of_random_games(variant, players, seed=11):
        message = observation_to_proto(view)
        assert observation_from_proto(message) == view
        again = pb.Observation.FromString(message.SerializeToString())
        assert observation_from_proto(again) == view
        if view.pending is not None and view.legal:
            kinds.add(view.pending.kind)
    expected = {DecisionKind.TILE}
    if variant == "classic":
        expected.add(DecisionKind.TAKE_ROW)
    if variant.endswith("+luck"):
        expected.add(DecisionKind.LUCK)
    if variant.startswith("pro"):
        expected.add(DecisionKind.ACTION)
    assert expected <= kinds  # the games reached every kind of decision of the variant


def test_it_splits_a_view_into_a_shared_and_a_private_part():
    view = next(v for v in views_of_random_games("pro+luck", 4, seed=3) if v.turn == 5)
    public, private = pb.Observation(), pb.Observation()
    put_public(public, view)
    put_private(private, view)
    merged = pb.Observation.FromString(public.SerializeToString() + private.SerializeToString())
    assert observation_from_proto(merged) == view


cards = st.sampled_from((None, *ACTION_CARDS))
small = st.integers(min_value=0, max_value=200)
decisions = st.one_of(
    st.builds(PlayTile, small),
    st.builds(PlaceLuck, small, small),
    st.builds(PlayAction, cards, st.none() | small, st.none() | small),
    st.builds(TakeRow, small),
)


@given(decisions)
def test_it_round_trips_every_decision(decision):
    message = decision_to_proto(decision)
    assert decision_from_proto(message) == decision
    assert decision_from_proto(pb.Decision.FromString(message.SerializeToString())) == decision


def test_it_explains_an_answer_without_a_decision():
    with pytest.raises(ProtocolError, match="holds no decision"):
        decision_from_proto(pb.Decision())


def test_it_refuses_an_unknown_action_card_number():
    message = pb.Decision(action=pb.PlayAction(card=99))  # proto3 enums are open
    with pytest.raises(ProtocolError, match="unknown action card number 99"):
        decision_from_proto(message)


def test_it_round_trips_fault_records():
    fault = {"seat": 2, "kind": "timeout", "turn": 7, "detail": "no answer within 1000 ms"}
    assert fault_from_proto(fault_to_proto(fault)) == fault
