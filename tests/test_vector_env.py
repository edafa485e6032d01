"""arena.env.vector and arena.env.core: the card game's tables on the compiled core play the
Game's rules and show the Game's views; the vector environments play the single environments'
games for the same seeds; the batched house policies choose as the house bots do."""

import random
from typing import Any

import numpy as np
import pytest
from independent_referee import check_replay

from arena.bots import _policies
from arena.bots.base import GameInfo
from arena.bots.heuristic import HeuristicBot
from arena.engine import Game
from arena.engine.observation import observe
from arena.engine.replay import to_replay, verify
from arena.engine.variants import VARIANT_NAMES
from arena.env import IllegalActionError, SeatEnv, SeatVectorEnv, VectorEnv, env, parallel_env
from arena.env.actions import BLOCKS as ACTION_BLOCKS
from arena.env.actions import action_of, decision_of
from arena.env.core import BoardTables, ClassicTables, core_available
from arena.env.encoding import action_mask, encode
from arena.env.vector import random_actions
from arena.table.defaults import default_decision

pytestmark = pytest.mark.skipif(not core_available(), reason="the compiled core is not built")


def _seeds(count: int, rng: random.Random) -> np.ndarray:
    return np.array([rng.getrandbits(64) for _ in range(count)], np.uint64)


@pytest.mark.parametrize("players", [2, 4, 10])
def test_core_tables_play_the_games_rules_and_show_its_views(players):
    """Every step, every seat: the core's vector and mask equal encode(observe(game)); rewards,
    illegal answers (their fault defaults) and final scores equal the Game's."""
    rng = random.Random(players)
    count = 12
    seeds = _seeds(count, rng)
    tables = ClassicTables(players, count)
    tables.deal(seeds)
    games = [Game.new("classic", players, int(s)) for s in seeds]
    obs, mask = tables.observe()
    while True:
        fresh, _ = tables.observe()
        tables.observe(obs=obs, mask=mask, primed=True)  # over the last step's vectors
        assert np.array_equal(fresh, obs)
        for i, game in enumerate(games):
            for seat in range(players):
                view = observe(game, seat)
                assert np.array_equal(obs[i, seat], encode(view)), (i, seat, game.turn)
                assert np.array_equal(mask[i, seat], action_mask(view.legal))
        if all(g.is_over() for g in games):
            break
        actions = np.full((count, players), -1, np.int64)
        for i, game in enumerate(games):
            for seat in game.pending.seats if game.pending else ():
                legal = game.legal(seat)
                wild = rng.random() < 0.1  # now and then an illegal action, as a careless agent
                actions[i, seat] = rng.randrange(440) if wild else action_of(rng.choice(legal))
        before = [list(g.scores) for g in games]
        rewards, illegal, played = tables.step(actions)
        for i, game in enumerate(games):
            views = {s: observe(game, s) for s in (game.pending.seats if game.pending else ())}
            for seat, view in views.items():
                action = int(actions[i, seat])
                decision = decision_of(action) if 0 <= action < 432 else None
                wrong = decision is None or decision not in view.legal
                assert illegal[i, seat] == wrong
                decision = default_decision(view) if wrong else decision
                assert played[i, seat] == action_of(decision)
                game.apply(seat, decision)
            assert list(rewards[i]) == [b - a for a, b in zip(game.scores, before[i], strict=True)]
    for i, game in enumerate(games):
        assert tuple(tables.view(i)["scores"]) == game.result().scores


def test_a_seat_that_has_not_answered_yet_keeps_the_table_waiting():
    """-1 (the AEC env's seats answer one after the other): the choice waits for every seat."""
    tables = ClassicTables(3, 1)
    tables.deal(np.array([9], np.uint64))
    hand = tables.view(0)["hands"]
    tables.step(np.array([[hand[0][0], -1, -1]]))
    state = tables.view(0)
    assert state["chosen"] == [hand[0][0], 0, 0] and state["turn"] == 0
    assert tables.masks(0)[0, 0] == 1 and tables.masks(0)[0].sum() == 1  # seat 0: WAIT only
    tables.step(np.array([[-1, hand[1][0], hand[2][0]]]))
    assert tables.view(0)["turn"] == 1


def test_core_tables_refuse_bad_buffers_and_steps_before_a_deal():
    tables = ClassicTables(4, 2)
    with pytest.raises(RuntimeError, match="reset"):
        tables.step(np.zeros((2, 4), np.int64))
    with pytest.raises(ValueError, match="seeds"):
        tables.deal(np.zeros(3, np.uint64))
    tables.deal(np.zeros(2, np.uint64))
    with pytest.raises(ValueError, match="actions"):
        tables.step(np.zeros((2, 3), np.int64))
    core = tables._core
    with pytest.raises(ValueError, match="tables"):
        core.classic_step(
            np.zeros(7, np.uint8),
            np.zeros(8, np.int64),
            np.zeros(4, np.float32),
            np.zeros(4, np.uint8),
            428,
        )
    with pytest.raises(ValueError):
        _policies.classic_policy(
            np.zeros(7, np.uint8),
            "heuristic",
            0.5,
            np.zeros(1, np.uint64),
            428,
            np.zeros(8, np.int64),
        )
    with pytest.raises(ValueError, match="no house policy"):
        _policies.classic_policy(
            tables.buffer, "mcs", 0.5, np.zeros(1, np.uint64), 428, np.zeros((2, 4), np.int64)
        )
    half = np.concatenate(
        [tables.buffer[: tables.buffer.size // 2], np.zeros(tables.buffer.size // 2, np.uint8)]
    )  # a dealt table, then one never dealt
    with pytest.raises(ValueError, match="tables of different sizes, or not dealt"):
        core.classic_step(
            half,
            np.zeros((2, 4), np.int64),
            np.zeros((2, 4), np.float32),
            np.zeros((2, 4), np.uint8),
            428,
        )
    with pytest.raises(ValueError, match="tables of different sizes, or not dealt"):
        core.classic_observe(
            half, tables._layout, tables._template, -1, None, np.zeros((2, 4, 432), np.int8)
        )


@pytest.mark.parametrize("players", [2, 4, 7])
def test_the_batched_rule_policy_chooses_what_the_heuristic_bot_chooses(players):
    """classic_policy("heuristic") == HeuristicBot().decide for every asked seat, every step,
    on games played partly by it and partly at random."""
    rng = random.Random(players + 10)
    count = 30
    seeds = _seeds(count, rng)
    tables = ClassicTables(players, count)
    tables.deal(seeds)
    games = [Game.new("classic", players, int(s)) for s in seeds]
    bots = [[HeuristicBot() for _ in range(players)] for _ in games]
    for i, row in enumerate(bots):
        for seat, bot in enumerate(row):
            bot.start_game(GameInfo("classic", players, seat, i))
    gen = np.zeros(1, np.uint64)
    compared = 0
    while not all(g.is_over() for g in games):
        chosen = np.zeros((count, players), np.int64)
        _policies.classic_policy(tables.buffer, "heuristic", 0.5, gen, 428, chosen)
        actions = chosen.copy()
        for i, game in enumerate(games):
            views = {s: observe(game, s) for s in (game.pending.seats if game.pending else ())}
            for seat, view in views.items():
                assert action_of(bots[i][seat].decide(view)) == chosen[i, seat]
                compared += 1
                if rng.random() < 0.3:
                    actions[i, seat] = action_of(rng.choice(view.legal))
            for seat in views:
                game.apply(seat, decision_of(int(actions[i, seat])))
        tables.step(actions)
    assert compared > count * 10


def test_the_random_policy_plays_every_legal_action_and_only_those():
    tables = ClassicTables(4, 64)
    tables.deal(np.arange(64, dtype=np.uint64))
    gen = np.array([5], np.uint64)
    out = np.zeros((64, 4), np.int64)
    seen: set[int] = set()
    for _ in range(12):
        mask = tables.masks()
        _policies.classic_policy(tables.buffer, "random", 0.5, gen, 428, out)
        asked = mask[:, :, 0] == 0
        assert np.all(mask[asked, out[asked]] == 1)
        seen.update(out[asked].tolist())
        tables.step(np.where(asked, out, -1))
    assert set(ACTION_BLOCKS["take_row"]) <= seen and len(seen) > 100


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_the_vector_env_plays_the_parallel_envs_games_for_the_same_seeds(variant):
    count, players, seed = 5, 4, 7
    env = VectorEnv(variant, players, count, seed=seed)
    assert isinstance(env.tables, ClassicTables if variant == "classic" else BoardTables)
    obs, infos = env.reset()
    assert infos["deal_seed"].tolist() == [seed + i for i in range(count)]
    singles = [parallel_env(variant, players, seed=seed + i) for i in range(count)]
    single_obs = [e.reset()[0] for e in singles]
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(70 if variant == "classic" else 110):
        for i in range(count):
            for s in range(players):
                mine = single_obs[i][f"player_{s}"]
                assert np.array_equal(obs["observation"][i, s], mine["observation"])
                assert np.array_equal(obs["action_mask"][i, s], mine["action_mask"])
        actions = random_actions(obs["action_mask"], rng)
        obs, rewards, terminations, truncations, infos = env.step(actions)
        assert not truncations.any()
        for i, single in enumerate(singles):
            out = single.step({f"player_{s}": int(actions[i, s]) for s in range(players)})
            assert [out[1][f"player_{s}"] for s in range(players)] == rewards[i].tolist()
            if out[2]["player_0"]:
                ended += 1
                assert terminations[i].all() and i in infos["final_index"].tolist()
                k = infos["final_index"].tolist().index(i)
                final = infos["final_observation"]["observation"][k]
                assert np.array_equal(final[0], out[0]["player_0"]["observation"])
                assert tuple(infos["final_scores"][k]) == single.game.result().scores
                single_obs[i] = single.reset(seed=int(infos["deal_seed"][i]))[0]
            else:
                assert not terminations[i].any()
                single_obs[i] = out[0]
    assert ended >= count * 3


def test_the_vector_env_deals_seed_plus_game_then_one_round_further_and_reset_goes_on():
    env = VectorEnv("classic", 3, 4, seed=100)
    obs, infos = env.reset()
    rng = np.random.default_rng(1)
    dealt = {i: [100 + i] for i in range(4)}
    for _ in range(40):
        obs, _, terminations, _, infos = env.step(random_actions(obs["action_mask"], rng))
        for i in np.flatnonzero(terminations[:, 0]):
            dealt[int(i)].append(int(infos["deal_seed"][i]))
    for i, seeds in dealt.items():
        assert seeds == [100 + i + 4 * k for k in range(len(seeds))]
    after = max(len(seeds) for seeds in dealt.values())
    assert env.reset()[1]["deal_seed"].tolist() == [100 + 4 * after + i for i in range(4)]
    assert env.reset(seed=5)[1]["deal_seed"].tolist() == [5, 6, 7, 8]


def test_the_vector_env_refuses_bad_actions_and_plays_defaults_for_illegal_ones():
    env = VectorEnv("classic", 4, 3, seed=1)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros((3, 4), np.int64))
    env.reset()
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros((3, 3), np.int64))
    with pytest.raises(ValueError, match="int"):
        env.step(np.zeros((3, 4), np.float32))
    actions = np.array([[-5, 0, 431, 10**9]] * 3, np.int64)
    hands = [env.tables.view(i)["hands"] for i in range(3)]
    obs, _, _, _, infos = env.step(actions)
    for i in range(3):
        played = hands[i]
        state = env.tables.view(i)
        assert [sorted(set(a) - set(b)) for a, b in zip(played, state["hands"], strict=True)] == [
            [min(h)] for h in played
        ]
    assert infos["illegal_action"].all()
    huge = np.full((3, 4), 2**64 - 1, np.uint64)  # not -1 ("no answer") once cast: illegal
    before = [env.tables.view(i) for i in range(3)]
    _, _, _, _, infos = env.step(huge)
    assert np.array_equal(infos["illegal_action"], obs["action_mask"][:, :, 0] == 0)
    assert all(env.tables.view(i) != before[i] for i in range(3))  # every game moved on


@pytest.mark.parametrize("opponents", ["heuristic", "random", ("heuristic", "random", "random")])
def test_the_seat_vector_env_keeps_its_spaces_and_same_step_autoreset(opponents):
    env = SeatVectorEnv("classic", opponents, players=4, num_envs=8, seat=1, seed=2)
    obs, _ = env.reset()
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(3)
    totals = np.zeros(8)
    finished = 0
    for _ in range(40):
        obs, reward, terminated, truncated, infos = env.step(
            random_actions(obs["action_mask"], rng)
        )
        assert not truncated.any()
        assert env.observation_space.contains(obs)
        assert (obs["action_mask"][:, 0] == 0).all()  # the learner is asked in every game
        totals += reward
        for i in np.flatnonzero(terminated):
            assert infos["_final_obs"][i]
            assert totals[i] == -infos["final_scores"][i][1]
            totals[i] = 0
            finished += 1
    assert finished >= 8 * 3


def test_the_seat_vector_env_plays_the_seat_envs_games_against_the_heuristic_bot():
    count, seed = 6, 100
    env = SeatVectorEnv("classic", "heuristic", players=4, num_envs=count, seed=seed)
    obs, _ = env.reset()
    singles = [SeatEnv("classic", ["heuristic"] * 3, seat=0, seed=seed + i) for i in range(count)]
    single_obs = [e.reset()[0] for e in singles]
    rng = np.random.default_rng(0)
    for step in range(45):
        for i in range(count):
            assert np.array_equal(obs["observation"][i], single_obs[i]["observation"])
            assert np.array_equal(obs["action_mask"][i], single_obs[i]["action_mask"])
        actions = random_actions(obs["action_mask"], rng)
        if step % 7 == 3:
            actions[0] = 0  # illegal: the fault default, in both
        obs, reward, terminated, _, infos = env.step(actions)
        for i, single in enumerate(singles):
            o, r, t, _, info = single.step(int(actions[i]))
            assert (r, t) == (reward[i], terminated[i])
            assert info.get("illegal_action", False) == infos["illegal_action"][i]
            if t:
                assert np.array_equal(infos["final_obs"][i]["observation"], o["observation"])
                single_obs[i] = single.reset(seed=int(infos["deal_seed"][i]))[0]
            else:
                single_obs[i] = o


def test_the_seat_vector_env_refuses_what_it_cannot_play():
    with pytest.raises(ValueError, match="card game"):
        SeatVectorEnv("basic", "heuristic")
    with pytest.raises(ValueError, match="choose from"):
        SeatVectorEnv("classic", "mcs", num_envs=2)
    with pytest.raises(ValueError, match="one per other seat"):
        SeatVectorEnv("classic", ["heuristic"], players=4, num_envs=2)
    with pytest.raises(ValueError, match="seat"):
        SeatVectorEnv("classic", "random", players=4, seat=4, num_envs=2)


def _run(env, steps: int, seed: int):
    """Everything a seeded run returns, for Gymnasium's data_equivalence."""
    out = [env.reset(seed=seed)]
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        obs = out[-1][0]
        out.append(env.step(random_actions(obs["action_mask"], rng)))
    return out


@pytest.mark.parametrize("players", [2, 4, 10])
def test_the_seat_vector_env_passes_gymnasiums_space_and_determinism_checks(players):
    """Gymnasium (1.4) has no checker for vector envs: its single-env checks, batched."""
    from gymnasium.utils.env_checker import data_equivalence
    from gymnasium.utils.passive_env_checker import check_obs

    env = SeatVectorEnv("classic", "random", players=players, num_envs=6, seed=0)
    assert env.metadata["autoreset_mode"].value == "SameStep"
    first = _run(env, 25, seed=11)
    for result in first:
        check_obs(result[0], env.observation_space, "step")
    again = _run(SeatVectorEnv("classic", "random", players=players, num_envs=6), 25, seed=11)
    assert data_equivalence(first, again, exact=True)
    other = _run(env, 25, seed=12)
    assert not data_equivalence(first, other)
    # copy=True: returned arrays are never the env's own (check_returned_data_not_reused)
    obs_1, _ = env.reset(seed=3)
    obs_2, *_ = env.step(random_actions(obs_1["action_mask"], np.random.default_rng(0)))
    assert not np.shares_memory(obs_1["observation"], obs_2["observation"])


def test_copy_false_hands_out_read_only_arrays_that_the_next_step_overwrites():
    env = VectorEnv("classic", 4, 3, seed=2, copy=False)
    obs, _ = env.reset()
    before = obs["observation"].copy()
    with pytest.raises(ValueError, match="read-only"):
        obs["observation"][0, 0, 0] = 7.0
    nxt, *_ = env.step(random_actions(obs["action_mask"], np.random.default_rng(0)))
    assert np.shares_memory(obs["observation"], nxt["observation"])
    assert not np.array_equal(before, nxt["observation"])
    fresh = VectorEnv("classic", 4, 3, seed=2)
    fresh_obs, _ = fresh.reset()
    assert np.array_equal(before, fresh_obs["observation"])


def test_an_illegal_aec_action_on_the_core_raises_and_changes_nothing():
    """The card game's AEC env on the core, as a careless or hostile caller drives it."""
    game = env("classic", 3, seed=4)
    game.reset()
    hand = game.view("player_0").hand
    missing = next(t for t in range(1, 105) if t not in hand)
    observation = game.observe("player_0")
    for action in (missing, 0, 428, 431, 200):  # not held, wait, a row, an action card
        with pytest.raises(IllegalActionError, match="not legal for player_0"):
            game.step(action)
    with pytest.raises(ValueError, match="outside"):
        game.step(432)
    with pytest.raises(ValueError, match="outside"):
        game.step(-1)
    with pytest.raises(TypeError):
        game.step(7.0)
    after = game.observe("player_0")
    assert np.array_equal(observation["observation"], after["observation"])
    assert game.agent_selection == "player_0" and game.view("player_0").hand == hand
    table = game._table
    with pytest.raises(IllegalActionError):  # -1 is "no answer" to the core, never to a table
        table.apply(1, -1)
    with pytest.raises(IllegalActionError):
        table.apply(2, 10**6)
    table.apply(1, game.view("player_1").hand[0])  # seat 1 may answer before seat 0 here
    with pytest.raises(IllegalActionError):  # but only once a turn
        table.apply(1, game.view("player_1").hand[0])
    game.step(hand[0])
    assert game.agent_selection == "player_2"  # seat 1 has chosen already
    assert game.view("player_0").chosen == hand[0]


def test_the_aec_env_on_the_core_replays_as_the_games_record():
    """Its game (brought up to date from the core's decisions) verifies with the engine's
    replay checker and the independent referee, and pays what the record says."""

    rng = random.Random(5)
    for seed in range(6):
        game = env("classic", 2 + seed, seed=seed)
        game.reset()
        totals = dict.fromkeys(game.possible_agents, 0.0)
        for agent in game.agent_iter():
            observation, reward, terminated, _, _ = game.last()
            totals[agent] += reward
            legal = np.flatnonzero(observation["action_mask"]).tolist()
            game.step(None if terminated else rng.choice(legal))
        replay = to_replay(game.game, [f"p{s}" for s in range(2 + seed)])
        assert verify(replay) == []
        assert check_replay(replay) == []
        assert [-totals[a] for a in game.possible_agents] == list(game.game.result().scores)


@pytest.mark.parametrize("players", [2, 4, 10])
def test_a_step_writes_only_what_changed_and_shows_what_a_whole_write_shows(players):
    """VectorEnv brings its arrays from the last state shown to the new one entry by entry:
    after every step (take_row choices, illegal actions, ended games dealt again) they equal
    the vectors and masks written whole from the tables, and the final observations those of
    the ended games."""
    count = 24
    env = VectorEnv("classic", players, count, seed=players, copy=False)
    obs, _ = env.reset()
    tables = env.tables
    assert isinstance(tables, ClassicTables)
    rng = np.random.default_rng(players)
    ended = 0
    for step in range(150):
        whole_obs, whole_mask = tables.observe()
        assert np.array_equal(obs["observation"], whole_obs)
        assert np.array_equal(obs["action_mask"], whole_mask)
        actions = random_actions(obs["action_mask"], rng)
        if step % 7 == 0:  # some illegal actions: their defaults are played
            actions[rng.random(actions.shape) < 0.2] = 0
        before = tables.buffer.copy()
        obs, _, terminations, _, infos = env.step(actions)
        if terminations.any():
            ended += int(terminations[:, 0].sum())
            replay = ClassicTables(players, count)  # the ended games' last state, shown whole
            replay.restore(before)
            replay.step(actions)
            last_obs, last_mask = replay.observe()
            index = infos["final_index"]
            assert np.array_equal(infos["final_observation"]["observation"], last_obs[index])
            assert np.array_equal(infos["final_observation"]["action_mask"], last_mask[index])
    assert ended >= count * 3


@pytest.mark.parametrize("opponents", ["heuristic", "random"])
def test_the_seat_vector_env_writes_only_what_changed_for_its_seat(opponents):
    env = SeatVectorEnv("classic", opponents, players=5, num_envs=16, seat=3, seed=9, copy=False)
    obs, _ = env.reset()
    tables = env._batch.tables
    assert isinstance(tables, ClassicTables)
    rng = np.random.default_rng(1)
    for _ in range(60):
        whole_obs, whole_mask = tables.observe(seat=3)
        assert np.array_equal(obs["observation"], whole_obs)
        assert np.array_equal(obs["action_mask"], whole_mask)
        obs, *_ = env.step(random_actions(obs["action_mask"], rng))


def test_a_shown_buffer_that_lies_is_written_over_whole_never_out_of_the_arrays():
    """``shown`` is the caller's memory: one of another size, with indices out of bounds or
    random bytes makes the core write the vectors whole (the same as without it)."""
    players, count = 4, 6
    tables = ClassicTables(players, count)
    tables.deal(np.arange(count, dtype=np.uint64) + 40)
    rng = np.random.default_rng(5)
    actions = random_actions(tables.masks(), rng)
    tables.step(actions)
    whole_obs, whole_mask = tables.observe()
    obs, mask = tables.observe()
    shown = tables.shown_buffer()
    tables.observe(-1, obs, mask, shown=shown)
    size = shown.size // count
    ints = shown.view(np.int32).reshape(count, -1)  # players, phase, asked, current, turn, nq...
    ints[0, 5] = 1_000_000  # nq
    ints[1, 1] = 2
    ints[1, 3] = -7  # phase take_row, current out of range
    ints[2, 6 + 10 + 10] = 10_000  # chosen[0]
    ints[3, 0] = players + 1
    shown.reshape(count, size)[4] = rng.integers(0, 256, size, dtype=np.uint8)
    shown.reshape(count, size)[5, 8:] = 255  # every int -1 past players and phase
    obs[:] = 0.5
    mask[:] = 3
    tables.observe(-1, obs, mask, primed=True, shown=shown)
    for i in range(count):
        assert np.array_equal(obs[i], whole_obs[i]), i
        assert np.array_equal(mask[i], whole_mask[i]), i
    core = tables._core
    with pytest.raises(ValueError, match="shown: with obs and mask only"):
        core.classic_observe(
            tables.buffer, tables._layout, tables._template, -1, None, mask, None, True, shown
        )
    with pytest.raises(ValueError, match="shown"):
        tables.observe(-1, obs, mask, shown=shown[:-1])


def test_asking_the_core_for_a_table_it_does_not_hold_is_an_index_error() -> None:
    tables = ClassicTables(4, 2)
    tables.deal(np.arange(2, dtype=np.uint64))
    core: Any = tables._core
    assert core.classic_asked(tables.buffer, 1) == (0, 1, 2, 3)
    for name in ("classic_asked", "classic_view"):
        for index in (-1, 2):
            with pytest.raises(IndexError, match="no such table"):
                getattr(core, name)(tables.buffer, index)


def test_the_tables_memory_is_read_only_and_a_kept_state_comes_back_only_if_the_core_made_it():
    """Only the core writes the tables (their numbers index its arrays): ``buffer`` is a
    read-only view, and :meth:`ClassicTables.restore` checks every table of a state before it
    puts the state back."""
    players, count = 4, 3
    tables = ClassicTables(players, count)
    tables.deal(np.arange(count, dtype=np.uint64) + 7)
    with pytest.raises(ValueError, match="read-only"):
        tables.buffer[0] = 1
    rng = np.random.default_rng(3)
    kept = tables.buffer.copy()
    masks = tables.masks()
    for _ in range(30):  # every state the core makes passes the check
        tables._core.classic_check(tables.buffer, players)
        tables.step(random_actions(masks, rng))
        masks = tables.masks()
    later = tables.buffer.copy()
    tables.restore(kept)
    assert np.array_equal(tables.buffer, kept)
    # (what the check names, table, int32 index into the table's fields, value); the fields:
    # players, phase, asked, current, turn, nq, queue[10], scores[10], chosen[10], nhand[10],
    # latest[10], start[4], supply, cells[20], then the hands' bytes (_playout_core.h)
    broken = [
        ("players", 1, 0, players + 1),
        ("phase", 2, 1, 9),
        ("asked", 0, 2, -1),
        ("queue", 0, 5, 50),
        ("nhand", 2, 36, 3),
        ("cells", 1, 61 + 3, 105),
    ]
    for field, table, index, value in broken:
        state = later.copy()
        state.view(np.int32).reshape(count, -1)[table, index] = value
        with pytest.raises(ValueError, match=f"table {table}: {field}"):
            tables.restore(state)
        assert np.array_equal(tables.buffer, kept), field  # nothing changed
    state = later.copy()
    state.reshape(count, -1)[0, 81 * 4 + 5] = 7  # a hand's byte for card 5
    with pytest.raises(ValueError, match="table 0: hand"):
        tables.restore(state)
    with pytest.raises(ValueError, match="bytes"):
        tables.restore(later[:-1])
    with pytest.raises(ValueError, match="table 0"):
        tables.restore(np.full_like(later, 255))
    tables.restore(later)
    assert np.array_equal(tables.buffer, later)
