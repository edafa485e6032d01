"""A seat's view of a replay (``frames(replay, seat=S)``) against that seat's Observation.

The observations come from the engine's own observer (:func:`arena.engine.observation.observe`),
taken while the replay is re-played independently of the seat's frames: at every step the
frames note, and, where the engine asks the seat for a decision, at that decision (the view the
bot was sent). What the seat's frame shows must be exactly what the observation held: the
seat's hand and action cards, every hand's and action deck's size, the board, the scores and the
revealed tiles; and the other seats' action cards only as a count.
"""

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_frames import GOLDEN, random_replay

from arena.engine import VARIANT_NAMES, ReplayError
from arena.engine.frames import HIDDEN_CARD, Film, Frame, frames
from arena.engine.game import Event
from arena.engine.observation import Observation, observe
from arena.engine.replay import read, replay_turn, start


def observations(replay: dict[str, Any], seat: int) -> list[Observation]:
    """Per frame of the replay, the seat's observation at that step; where the engine then
    asks for a decision, the observation at the moment it asks (the last one wins)."""
    game = start(replay)
    film = Film(game)  # only to count the frames: the views compared are the observer's
    seen: dict[int, Observation] = {0: observe(game, seat)}

    def look(_event: Event) -> None:
        seen[len(film.notes) - 1] = observe(game, seat)

    game.listen(film.step)
    game.listen(look)
    for turn in replay["turns"]:
        replay_turn(game, turn)
    assert sorted(seen) == list(range(len(film.notes)))
    return [seen[i] for i in range(len(film.notes))]


def check_shown_equals_observed(frame: Frame, view: Observation) -> None:
    seat = view.seat
    assert frame.hand == view.hand
    assert frame.history == view.history
    assert frame.held[seat] == view.action_cards
    for other, cards in enumerate(frame.held):
        if other != seat:
            assert cards == (HIDDEN_CARD,) * view.action_counts[other]
    assert frame.hands == view.hand_sizes
    assert frame.spaces == view.spaces
    assert frame.markers == view.markers
    assert frame.stops == view.stops
    assert frame.scores == view.scores
    assert (frame.supply, frame.luck_deck, frame.action_deck) == (
        view.supply_size,
        view.luck_deck_size,
        view.action_deck_size,
    )
    # The revealed tiles still to place: an action step shows the tile the card is played on
    # in front; a decision about the tile being placed shows that tile in front.
    front = len(frame.tray) - len(view.to_place)
    assert front in (0, 1) and frame.tray[front:] == view.to_place
    if frame.step.kind == "action":
        assert front == 1 and frame.tray[0] == (frame.step.tile, frame.step.seat)
    elif front:
        assert view.pending is not None and frame.tray[0][1] == view.pending.seats[0]


def check_seat_view(replay: dict[str, Any]) -> None:
    players = len(replay["players"])
    public = frames(replay)
    for seat in range(players):
        seen = frames(replay, seat=seat)
        assert seen.seat == seat and len(seen.frames) == len(public.frames)
        views = observations(replay, seat)
        for index, (frame, view) in enumerate(zip(seen.frames, views, strict=True)):
            try:
                check_shown_equals_observed(frame, view)
            except AssertionError:
                pytest.fail(f"seat {seat}, frame {index} ({frame.step.kind}): {frame} != {view}")
            # Only the seat's own secrets were added to the public frame.
            assert frame.step == public.frames[index].step
            assert frame.asks == public.frames[index].asks
        data = json.loads(json.dumps(seen.to_json()))
        assert data["seat"] == seat
        for frame_json in data["frames"]:
            assert all(
                card == HIDDEN_CARD
                for other, cards in enumerate(frame_json["held"])
                if other != seat
                for card in cards
            )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(VARIANT_NAMES),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**64 - 1),
    choices=st.integers(0, 2**32),
)
def test_a_seats_view_shows_at_every_step_exactly_what_its_observation_held(
    variant: str, players: int, seed: int, choices: int
) -> None:
    check_seat_view(random_replay(variant, players, seed, choices))


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_every_variant_has_a_seat_view_that_agrees_with_the_observer(variant: str) -> None:
    check_seat_view(random_replay(variant, 3, seed=7, choices=11))


def test_the_golden_replays_of_real_matches_have_seat_views_that_agree_with_the_observer() -> None:
    paths = sorted(GOLDEN.glob("*/game-*.json"))
    assert {read(p).variant for p in paths} >= {"basic", "pro+luck"}
    for path in paths:
        check_seat_view(read(path).to_json())


def test_the_public_frames_name_no_hand_and_a_seat_view_only_its_own() -> None:
    replay = random_replay("pro+luck", 4, seed=3, choices=5)
    public = frames(replay).to_json()
    assert public["seat"] is None and all("hand" not in f for f in public["frames"])
    hands = start(replay).hands
    seen = frames(replay, seat=2).to_json()
    assert seen["frames"][0]["hand"] == hands[2]
    others = {t for s, hand in enumerate(hands) if s != 2 for t in hand}
    assert not others & set(seen["frames"][0]["hand"])


@pytest.mark.parametrize("seat", [-1, 4, True, "1", 1.0])
def test_a_seat_the_game_does_not_have_is_refused(seat: Any) -> None:
    replay = random_replay("basic", 4, seed=1)
    with pytest.raises(ReplayError, match="no seat"):
        frames(replay, seat=seat)
