"""The five variants as the OpenSpiel game ``python_nimmt`` (arena.env.openspiel): OpenSpiel's own
random simulation test on every variant, the facts the game states, one seat's information, and
OpenSpiel's ISMCTS bot playing the card game against ``heuristic`` through the registration."""

import random
import re
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from arena.bots.base import GameInfo  # noqa: E402
from arena.bots.registry import make_bot  # noqa: E402
from arena.engine import VARIANT_NAMES, Game, PlayTile, variant  # noqa: E402
from arena.engine.observation import observe  # noqa: E402
from arena.engine.replay import to_replay, verify  # noqa: E402
from arena.env import openspiel  # noqa: E402
from arena.env.actions import WAIT, action_of  # noqa: E402
from arena.env.encoding import OBSERVATION_SIZE, encode  # noqa: E402


def load(name: str, players: int):
    return pyspiel.load_game("python_nimmt", {"variant": name, "players": players})


def dealt(name: str, players: int, seed: int):
    state = load(name, players).new_initial_state()
    for outcome in openspiel.deal_actions(name, players, seed):
        state.apply_action(outcome)
    return state


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_openspiels_random_simulation_test_passes_on_every_variant(name):
    low, high = variant(name).players.start, variant(name).players.stop - 1
    for players in (low, 4, high):
        pyspiel.random_sim_test(load(name, players), num_sims=2, serialize=True, verbose=False)


def test_the_game_states_its_facts():
    game = load("pro+luck", 3)
    kind = game.get_type()
    assert kind.short_name == "python_nimmt"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.provides_information_state_tensor and kind.provides_observation_tensor
    assert game.num_players() == 3 and game.num_distinct_actions() == 432
    assert game.observation_tensor_shape() == [OBSERVATION_SIZE]
    assert game.information_state_tensor_shape() == [openspiel.INFO_STATE_SIZE]
    assert pyspiel.load_game("python_nimmt").get_parameters() == {
        "players": 4,
        "variant": "classic",
    }


def test_bad_parameters_are_refused():
    with pytest.raises(Exception, match="unknown variant 'chess'"):
        load("chess", 4)
    with pytest.raises(Exception, match="player"):
        load("basic", 7)


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_chance_deals_what_the_arena_deals_for_a_seed(name):
    state = load(name, 3).new_initial_state()
    for outcome in openspiel.deal_actions(name, 3, seed=11):
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        assert outcome in {a for a, _ in outcomes}
        state.apply_action(outcome)
    assert not state.is_chance_node()
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    arena = Game.new(name, 3, seed=11)
    for seat in range(3):
        tiles = {action_of(d) for d in arena.legal(seat)}
        assert set(state.legal_actions(seat)) == tiles


def test_a_seats_tensors_are_its_view_and_its_first_hand():
    state = dealt("classic", 4, seed=3)
    arena = Game.new("classic", 4, seed=3)
    for seat in range(4):
        view = np.asarray(state.observation_tensor(seat), np.float32)
        assert np.array_equal(view, encode(observe(arena, seat)))
        info = np.asarray(state.information_state_tensor(seat), np.float32)
        hand = np.flatnonzero(info[OBSERVATION_SIZE:]) + 1
        assert sorted(hand) == sorted(arena.setup["hands"][seat])


def test_a_seats_information_never_holds_another_hand_and_resampling_keeps_it():
    game = pyspiel.convert_to_turn_based(load("classic", 4))
    state = game.new_initial_state()
    for outcome in openspiel.deal_actions("classic", 4, seed=8):
        state.apply_action(outcome)
    rng = random.Random(1)
    for _ in range(9):  # into the second turn: seats 0 and 1 have chosen, seat 2 is asked
        state.apply_action(rng.choice(state.legal_actions()))
    while state.current_player() != 2:
        state.apply_action(rng.choice(state.legal_actions()))
    others = Game.new("classic", 4, seed=8).setup["hands"][3]
    text = state.information_state_string(2)
    assert str(sorted(others)) not in text
    worlds = [openspiel.resample_classic(state, 2, random.Random(k)) for k in range(5)]
    for world in worlds:
        assert world.information_state_string(2) == text
        assert world.legal_actions() == state.legal_actions()
    # the hidden hands differ between the worlds drawn
    assert len({w.information_state_string(3) for w in worlds}) > 1
    board = pyspiel.convert_to_turn_based(load("basic", 4)).new_initial_state()
    with pytest.raises(ValueError, match="card-game worlds"):
        openspiel.resample_classic(board, 0, rng)


def test_wait_is_the_only_action_of_a_seat_asked_nothing_and_nothing_else_is_taken():
    state = dealt("classic", 2, seed=4)
    hands = Game.new("classic", 2, seed=4).hands
    before = str(state)
    with pytest.raises(pyspiel.SpielError, match="seat 0: action 0 \\(wait\\) is not legal"):
        state.apply_actions([WAIT, action_of_tile(hands[1][0])])
    # seat 0's tile is legal, seat 1's is not: nothing is applied
    with pytest.raises(pyspiel.SpielError, match=r"seat 1: action .* is not legal"):
        state.apply_actions([action_of_tile(hands[0][0]), action_of_tile(hands[0][1])])
    assert str(state) == before
    state.apply_actions([action_of_tile(hands[0][0]), action_of_tile(hands[1][0])])
    assert str(state) != before


def action_of_tile(tile: int) -> int:
    return action_of(PlayTile(tile))


def test_a_game_played_through_openspiel_is_a_replay_the_engine_verifies():
    state = dealt("pro", 3, seed=5)
    rng = random.Random(5)
    while not state.is_terminal():
        if state.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(3)])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    game = state.engine_game  # the Python state itself: pyspiel hands it out as it is
    assert isinstance(state, openspiel.NimmtState) and game is not None
    assert verify(to_replay(game, ["a", "b", "c"])) == []
    assert list(state.returns()) == [float(s) for s in game.result().scores]
    copy = state.clone()
    assert copy.returns() == state.returns() and copy.engine_game is not game


def test_openspiels_ismcts_plays_the_card_game_against_heuristic_through_the_registration():
    game = pyspiel.convert_to_turn_based(load("classic", 3))
    deciders = [openspiel.ismcts_decider(openspiel.ismcts_bot(game, 10, seed=1))]
    for seat in (1, 2):
        house = make_bot("heuristic")
        house.start_game(GameInfo("classic", 3, seat, seat))
        deciders.append(openspiel.bot_decider(house))
    returns = openspiel.play_turn_based(game, 21, deciders)
    assert len(returns) == 3 and all(-171 <= r <= 0 for r in returns)
    assert sum(returns) < 0  # someone took bullheads


def test_the_guides_openspiel_example_runs():
    guide = (Path(__file__).parents[1] / "docs" / "ENVIRONMENT.md").read_text()
    section = guide[guide.index("## OpenSpiel") :]
    blocks = re.findall(r"^```py\n(.*?)^```$", section, re.S | re.M)
    assert blocks
    for block in blocks:
        scope: dict[str, object] = {}
        exec(compile(block, "docs/ENVIRONMENT.md", "exec"), scope)
        assert scope["state"].is_chance_node()
