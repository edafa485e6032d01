"""The learning bots' option inputs read from the vector env's vectors (arena.env.options): equal,
number for number, to what the bots compute from their views (arena.bots.options), for every
decision of card games played by ``heuristic``, at random, and by both."""

import numpy as np
import pytest

from arena.bots.options import Table, option_inputs
from arena.engine import Game
from arena.engine.decisions import DecisionKind
from arena.engine.observation import observe
from arena.env.actions import action_of, decision_of
from arena.env.core import ClassicTables
from arena.env.encoding import action_mask, encode
from arena.env.options import MAX_OPTIONS, read_options
from arena.env.vector import VectorEnv, house_actions, random_actions


def _compare(env: VectorEnv, rng: np.random.Generator, chance: float) -> int:
    """Play ``env``'s first games to their end, ``heuristic`` answering except with ``chance``
    (then a random legal action), each game beside its engine ``Game``; at every step compare
    every asked seat's options with the bot's. The decisions compared."""
    obs, infos = env.reset()
    players = env.players
    games = [Game.new("classic", players, int(seed)) for seed in infos["deal_seed"]]
    compared = 0
    while not all(game.is_over() for game in games):
        options = read_options(
            obs["observation"].reshape(-1, obs["observation"].shape[-1]),
            obs["action_mask"].reshape(-1, obs["action_mask"].shape[-1]),
        )
        assert isinstance(env.tables, ClassicTables)
        chosen = house_actions(env.tables)
        randomly = random_actions(obs["action_mask"], rng)
        actions = np.where(rng.random(chosen.shape) < chance, randomly, chosen)
        for i, game in enumerate(games):
            asked = game.pending.seats if game.pending is not None else ()
            for seat in range(players):
                k = i * players + seat
                if seat not in asked:
                    assert game.is_over() or options.counts[k] == 0
                    continue
                view = observe(game, seat)
                table = Table(view)
                expected = {action_of(d): option_inputs(table, d) for d in view.legal}
                count = int(options.counts[k])
                assert sorted(expected) == options.actions[k, :count].tolist()
                assert (options.actions[k, count:] == -1).all()
                for j in range(count):
                    assert options.inputs[k, j].tolist() == expected[int(options.actions[k, j])]
                assert not options.inputs[k, count:].any()
                assert options.margin[k] == pytest.approx(table.margin, abs=0)
                compared += 1
            for seat in asked:
                decision = decision_of(int(actions[i, seat]))
                assert decision is not None
                game.apply(seat, decision)
        obs, *_ = env.step(actions)
    return compared


@pytest.mark.parametrize(
    ("players", "chance", "games"),
    [(4, 0.0, 48), (4, 1.0, 48), (4, 0.3, 48), (2, 0.5, 24), (10, 0.5, 12)],
)
def test_the_vectors_options_are_the_bots_options_at_every_decision(players, chance, games):
    seed = 1_000 * players + int(10 * chance)
    env = VectorEnv("classic", players, games, seed=seed)
    rng = np.random.default_rng(seed)
    compared = _compare(env, rng, chance)
    assert compared > games * players * 10  # a tile a turn, and some rows taken


def test_a_full_hand_is_the_most_options_and_a_row_choice_offers_every_row():
    game = Game.new("classic", 4, seed=2)
    view = observe(game, 0)
    options = read_options(encode(view)[None], action_mask(view.legal)[None])
    assert options.counts.tolist() == [MAX_OPTIONS]
    while game.pending is not None and game.pending.kind is not DecisionKind.TAKE_ROW:
        for seat in game.pending.seats:
            game.apply(seat, min(observe(game, seat).legal, key=lambda d: getattr(d, "tile", 0)))
    assert game.pending is not None
    seat = game.pending.seats[0]
    view = observe(game, seat)
    options = read_options(encode(view)[None], action_mask(view.legal)[None])
    assert options.actions[0, : options.counts[0]].tolist() == [action_of(d) for d in view.legal]


def test_it_refuses_a_board_game_vector_and_mismatched_shapes():
    view = observe(Game.new("basic", 4, seed=1), 0)
    with pytest.raises(ValueError, match="card game"):
        read_options(encode(view)[None], action_mask(view.legal)[None])
    classic = observe(Game.new("classic", 4, seed=1), 0)
    with pytest.raises(ValueError, match="observations"):
        read_options(encode(classic)[None], action_mask(classic.legal))
