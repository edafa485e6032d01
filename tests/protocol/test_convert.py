"""Engine values <-> protocol messages: every conversion round-trips, through bytes too."""

import dataclasses
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
    put_choice,
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


def test_views_with_this_turns_choices_round_trip_to_equal_views_that_hash_alike():
    # (A card game's row choice is never in a view: only a turn's lowest card takes a row,
    # and nothing more is asked in that turn.)
    kinds = set()
    for variant in ("basic+luck", "pro+luck"):
        for view in views_of_random_games(variant, 4, seed=21, games=6):
            if not view.choices:
                continue
            back = observation_from_proto(
                pb.Observation.FromString(observation_to_proto(view).SerializeToString())
            )
            assert back == view and hash(back) == hash(view)
            assert back.to_dict() == view.to_dict()
            kinds.update(c.kind for c in view.choices)
    assert kinds == {DecisionKind.LUCK, DecisionKind.ACTION}


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
    from arena.table.faults import Fault, FaultKind

    fault = Fault(3, 2, FaultKind.TIMEOUT, 7, "no answer within 1000 ms")
    assert fault_from_proto(fault_to_proto(fault)).to_json() == fault.replay_record()


def reference_observation(view):
    """The view encoded field by field, with no shortcut (what the lean ``put_*`` must equal)."""
    message = pb.Observation(
        variant=view.variant,
        seat=view.seat,
        players=view.players,
        turn=view.turn,
        set_number=view.set_number,
        layout=view.layout,
        stops=view.stops,
        hand=view.hand,
        scores=view.scores,
        hand_sizes=view.hand_sizes,
        action_counts=view.action_counts,
        supply_size=view.supply_size,
        luck_deck_size=view.luck_deck_size,
        action_deck_size=view.action_deck_size,
    )
    for row in view.spaces:
        message.spaces.add(tiles=row)
    for r, cards in enumerate(view.markers):
        for s, card in enumerate(cards):
            if card is not None:
                message.markers.add(
                    row=r, space=s, card=pb.LuckCard.Value(f"LUCK_CARD_{card}".upper())
                )
    message.action_cards.extend(
        [pb.ActionCard.Value(f"ACTION_CARD_{c}".upper()) for c in view.action_cards]
    )
    if view.chosen is not None:
        message.chosen = view.chosen
    for plays in view.history:
        message.history.add(tiles=[0 if t is None else t for t in plays])
    for choice in view.choices:  # recorded choices keep their own encoder
        put_choice(message.choices.add(), choice)
    for tile, seat in view.to_place:
        message.to_place.add(tile=tile, seat=seat)
    if view.pending is not None:
        message.pending.CopyFrom(observation_to_proto(view).pending)
    for decision in view.legal:
        message.legal.append(decision_to_proto(decision))
    return message


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_it_encodes_views_exactly_as_field_by_field(variant):
    players = 3 if variant != "classic" else 5
    for view in views_of_random_games(variant, players, seed=5):
        lean = observation_to_proto(view).SerializeToString(deterministic=True)
        assert lean == reference_observation(view).SerializeToString(deterministic=True)


def test_it_round_trips_turns_where_a_seat_revealed_no_tile():
    view = next(v for v in views_of_random_games("pro+luck", 4, seed=3) if v.turn == 5)
    marked = [list(row) for row in view.markers]
    marked[1][0] = "plus5"
    view = dataclasses.replace(
        view,
        history=((3, None, 17, 40), *view.history[1:]),
        markers=tuple(tuple(row) for row in marked),
    )
    message = observation_to_proto(view)
    assert list(message.history[0].tiles) == [3, 0, 17, 40]
    assert (1, 0) in [(m.row, m.space) for m in message.markers]
    assert observation_from_proto(message) == view


def test_views_read_from_messages_behave_like_views_the_engine_builds():
    # The reader fills the view's fields at once instead of through the dataclass's __init__;
    # what a bot can do with a view must not tell the two apart.
    for view in views_of_random_games("pro+luck", 4, seed=5, games=1):
        back = observation_from_proto(
            pb.Observation.FromString(observation_to_proto(view).SerializeToString())
        )
        assert back == view and hash(back) == hash(view) and repr(back) == repr(view)
        assert dataclasses.asdict(back) == dataclasses.asdict(view)
        assert back.to_dict() == view.to_dict()
        assert dataclasses.replace(back, turn=99) == dataclasses.replace(view, turn=99)
        with pytest.raises(dataclasses.FrozenInstanceError):
            back.turn = 3  # type: ignore[misc]


def test_tile_options_are_shared_but_only_for_tiles_a_deck_can_hold():
    message = observation_to_proto(observe(Game.new("basic", players=2, seed=1), seat=0))
    first, second = observation_from_proto(message), observation_from_proto(message)
    assert first.legal == second.legal
    assert all(a is b for a, b in zip(first.legal, second.legal, strict=True))
    odd = pb.Observation()
    odd.legal.add().tile.tile = 10**6
    odd.legal.add().tile.tile = 0
    one, two = observation_from_proto(odd), observation_from_proto(odd)
    assert one.legal == (PlayTile(10**6), PlayTile(0)) == two.legal
    assert one.legal[0] is not two.legal[0]  # not kept: a message cannot grow the kit's memory


def test_a_fault_of_a_kind_it_does_not_know_is_a_protocol_error_not_a_key_error():
    with pytest.raises(ProtocolError, match="unknown fault kind 99"):
        fault_from_proto(pb.Fault(seat=0, kind=99, turn=0, detail=""))  # proto3 enums are open
