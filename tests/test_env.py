"""arena.env: the PettingZoo and Gymnasium environments pass their libraries' own checks, ask only
the seats the engine asks, mask exactly the legal decisions, show only the seat's own view, and
pay score changes."""

import random
import re
import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from arena import env as nimmt_env
from arena.bots.base import GameInfo
from arena.bots.registry import make_bot
from arena.engine import Game, PlayerCountError, UnknownVariantError
from arena.engine.decisions import DecisionKind, PlaceLuck, PlayAction, PlayTile, TakeRow
from arena.engine.observation import observe
from arena.engine.variants import VARIANT_NAMES
from arena.env import (
    ACTION_COUNT,
    WAIT,
    IllegalActionError,
    SeatEnv,
    action_mask,
    action_of,
    decision_of,
    encode,
)
from arena.env.actions import BLOCKS as ACTION_BLOCKS
from arena.env.features import BLOCKS, OBSERVATION_SIZE, features
from arena.local import bot_seed, play_game

TABLES = [
    ("basic", 2),
    ("basic", 4),
    ("basic+luck", 3),
    ("basic+luck", 6),
    ("pro", 2),
    ("pro", 5),
    ("pro+luck", 3),
    ("pro+luck", 6),
    ("classic", 2),
    ("classic", 5),
    ("classic", 10),
]
# PettingZoo's checks warn that a dict observation "is not a NumPy array" / "probably should be a
# Box" for every env outside their own list; the dict of vector and mask is their own convention.
EXPECTED_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent")


def quiet_run(check, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check(*args, **kwargs)
    unexpected = [
        str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)
    ]
    assert unexpected == []


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_the_aec_env_passes_pettingzoos_api_and_seed_tests(variant, players):
    quiet_run(api_test, nimmt_env.env(variant, players, seed=1), num_cycles=400)
    quiet_run(seed_test, lambda: nimmt_env.env(variant, players), num_cycles=400)


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_the_parallel_env_passes_pettingzoos_api_and_seed_tests(variant, players):
    quiet_run(parallel_api_test, nimmt_env.parallel_env(variant, players, seed=1), num_cycles=400)
    quiet_run(parallel_seed_test, lambda: nimmt_env.parallel_env(variant, players), num_cycles=400)


@pytest.mark.parametrize(
    ("variant", "opponents"),
    [
        ("basic", ["heuristic", "heuristic", "random"]),
        ("basic+luck", ["random"]),
        ("pro", ["heuristic", "random", "random"]),
        ("pro+luck", ["heuristic", "mcs:playouts=8"]),
        ("classic", ["heuristic"] * 4),
    ],
)
def test_the_seat_env_passes_gymnasiums_env_checker(variant, opponents):
    check_env(SeatEnv(variant, opponents, seed=3), skip_render_check=True)
    made = gymnasium.make(
        "arena.env.single:nimmt/Seat-v0", variant=variant, opponents=opponents, seed=3
    )
    check_env(made.unwrapped, skip_render_check=True)


def mask_decisions(mask):
    return {decision_of(int(a)) for a in np.flatnonzero(mask)}


def random_games(variant, players, games, seed=0):
    """Every (env, agent) step of AEC games played with random legal actions."""
    rng = random.Random(seed)
    for g in range(games):
        env = nimmt_env.env(variant, players, seed=seed * 1000 + g)
        env.reset()
        for agent in env.agent_iter():
            observation, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            yield env, agent, observation
            env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_an_agent_acts_only_when_the_engine_asks_it_and_its_mask_is_exactly_its_options(variant):
    kinds = set()
    for env, agent, observation in random_games(variant, 3, games=4):
        seat = int(agent.split("_")[1])
        pending = env.game.pending
        assert pending is not None and seat in pending.seats
        kinds.add(pending.kind)
        legal = env.game.legal(seat)
        assert mask_decisions(observation["action_mask"]) == set(legal)
        assert observation["action_mask"][WAIT] == 0
        for other in env.possible_agents:
            if int(other.split("_")[1]) not in pending.seats:
                assert env.observe(other)["action_mask"].tolist() == action_mask(()).tolist()
    expected = {DecisionKind.TILE}
    if variant == "classic":
        expected.add(DecisionKind.TAKE_ROW)
    if "luck" in variant:
        expected.add(DecisionKind.LUCK)
    if variant.startswith("pro"):
        expected.add(DecisionKind.ACTION)
    assert kinds == expected


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_observations_stay_within_the_declared_bounds(variant):
    space = nimmt_env.env(variant, 4).observation_space("player_0")
    for env, agent, observation in random_games(variant, 4, games=3, seed=7):
        assert space.contains(observation), agent
        at, values = features(env.view(agent))
        assert len(set(at)) == len(at)  # a plain-Python dot product may add them up
        dense = np.zeros(OBSERVATION_SIZE, np.float32)
        dense[at] = values
        assert np.array_equal(dense, observation["observation"])
    assert observation["observation"].shape == (OBSERVATION_SIZE,)


def test_every_decision_of_every_variant_has_one_action_and_back():
    seen = set()
    for variant in VARIANT_NAMES:
        for env, agent, _ in random_games(variant, 4, games=2, seed=3):
            for decision in env.game.legal(int(agent.split("_")[1])):
                assert decision_of(action_of(decision)) == decision
                seen.add(type(decision))
    assert seen == {PlayTile, PlaceLuck, PlayAction, TakeRow}
    assert len({action_of(d) for d in (PlayTile(5), PlaceLuck(0, 5), TakeRow(3))}) == 3
    assert decision_of(WAIT) is None
    with pytest.raises(ValueError, match="outside"):
        decision_of(ACTION_COUNT)
    with pytest.raises(ValueError, match="outside the action space"):
        action_of(PlayTile(105))


def test_the_action_blocks_tile_the_space_without_gaps():
    covered = sorted(i for block in ACTION_BLOCKS.values() for i in block)
    assert covered == list(range(ACTION_COUNT))
    assert ACTION_BLOCKS["tile"] == range(1, 105)  # action t is tile t


def test_the_vector_shows_nothing_of_other_hands_or_the_supply_order():
    game = Game.new("pro+luck", players=4, seed=21)
    snap = game.snapshot()
    others = [t for seat in (1, 2, 3) for t in snap.hands[seat]] + list(snap.supply)
    random.Random(1).shuffle(others)
    hands = [list(snap.hands[0])] + [sorted(others[i * 12 : (i + 1) * 12]) for i in range(3)]
    rows = [[t for t in row if t > 0] for row in snap.spaces]
    rest = others[36:]
    luck, actions = list(snap.luck_deck)[::-1], list(snap.action_deck)[::-1]
    twin = Game.from_setup("pro+luck", rows, hands, rest, luck, actions)
    assert encode(observe(game, 0)).tobytes() == encode(observe(twin, 0)).tobytes()
    assert encode(observe(game, 1)).tobytes() != encode(observe(twin, 1)).tobytes()


def test_a_chosen_tile_stays_hidden_from_the_seats_choosing_after_it():
    env = nimmt_env.env("basic", 4, seed=5)
    env.reset()
    before = env.observe("player_1")["observation"].copy()
    mask = env.observe("player_0")["action_mask"]
    env.step(int(np.flatnonzero(mask)[-1]))
    assert env.agent_selection == "player_1"
    assert np.array_equal(env.observe("player_1")["observation"], before)
    chosen = env.observe("player_0")["observation"][BLOCKS["chosen"]]
    assert chosen.sum() == 1  # the chooser itself sees its choice


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_aec_rewards_add_up_to_the_final_scores_penalty_points_negative(variant):
    env = nimmt_env.env(variant, 3, seed=9)
    env.reset()
    totals = dict.fromkeys(env.possible_agents, 0.0)
    rng = random.Random(2)
    for agent in env.agent_iter():
        observation, reward, terminated, _, _ = env.last()
        totals[agent] += reward
        env.step(None if terminated else rng.choice(np.flatnonzero(observation["action_mask"])))
    sign = -1 if variant == "classic" else 1
    assert list(totals.values()) == [sign * s for s in env.game.result().scores]


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_parallel_steps_answer_one_decision_point_and_rewards_add_up(variant):
    env = nimmt_env.parallel_env(variant, 3, seed=4)
    observations, _ = env.reset()
    totals = dict.fromkeys(env.possible_agents, 0.0)
    rng = random.Random(5)
    while env.agents:
        pending = env.game.pending
        assert pending is not None
        for agent, observation in observations.items():
            asked = int(agent.split("_")[1]) in pending.seats
            assert (observation["action_mask"][WAIT] == 1) is not asked
        if pending.kind is not DecisionKind.TILE:
            assert len(pending.seats) == 1
        actions = {
            a: rng.choice(np.flatnonzero(o["action_mask"]).tolist())
            for a, o in observations.items()
        }
        observations, rewards, terminations, _, infos = env.step(actions)
        assert not any(info.get("illegal_action") for info in infos.values())
        for agent, reward in rewards.items():
            totals[agent] += reward
    sign = -1 if variant == "classic" else 1
    assert all(terminations.values())
    assert list(totals.values()) == [sign * s for s in env.game.result().scores]


def test_an_illegal_aec_action_raises_and_changes_nothing():
    env = nimmt_env.env("basic", 2, seed=1)
    env.reset()
    hand = env.view("player_0").hand
    missing = next(t for t in range(1, 101) if t not in hand)
    with pytest.raises(IllegalActionError, match="not legal for player_0"):
        env.step(missing)
    with pytest.raises(IllegalActionError):
        env.step(WAIT)
    with pytest.raises(ValueError, match="outside"):
        env.step(-1)
    with pytest.raises(TypeError):
        env.step(3.7)  # not an integer: never silently rounded
    assert env.agent_selection == "player_0" and env.view("player_0").hand == hand
    env.step(hand[0])
    assert env.agent_selection == "player_1"


def test_a_parallel_agent_outside_its_mask_gets_the_arenas_default_and_is_told():
    env = nimmt_env.parallel_env("basic", 2, seed=1)
    env.reset()
    hand = env.view("player_1").hand
    missing = next(t for t in range(1, 101) if t not in hand)
    _, _, _, _, infos = env.step({"player_0": env.view("player_0").hand[-1], "player_1": missing})
    assert infos == {"player_0": {}, "player_1": {"illegal_action": True}}
    assert env.game.turns[0].plays[1] == min(hand)  # the default: the lowest tile
    with pytest.raises(ValueError, match="player_1 is asked"):
        env.step({"player_0": env.view("player_0").hand[0]})
    with pytest.raises(ValueError, match="no agents"):
        env.step({"player_0": 1, "player_1": 2, "player_7": 3})


def test_the_seat_env_plays_exactly_like_a_local_game_of_the_same_bots():
    deal = 17
    env = SeatEnv("pro+luck", ["heuristic", "random", "heuristic"], seat=1, seed=deal)
    learner = make_bot("random")
    learner.start_game(GameInfo("pro+luck", 4, 1, bot_seed(deal, 0, 1)))
    observation, _ = env.reset()
    terminated, total = False, 0.0
    while not terminated:
        decision = learner.decide(env.view())
        assert observation["action_mask"][action_of(decision)] == 1
        observation, reward, terminated, _, _ = env.step(action_of(decision))
        total += reward
    bots = [make_bot(s) for s in ("heuristic", "random", "random", "heuristic")]
    record = play_game(
        "pro+luck",
        bots,
        seed=deal,
        bot_seeds=[bot_seed(deal, 0, s) for s in range(4)],
        names=["a", "b", "c", "d"],
    )
    assert env.game.result().scores == record.result.scores
    assert total == env.game.result().scores[1]


def test_reset_deals_from_the_seed_then_the_following_seeds():
    env = nimmt_env.env("classic", 4, seed=30)
    env.reset()
    assert env.game.seed == 30
    env.reset()
    assert env.game.seed == 31
    env.reset(seed=5)
    assert env.game.seed == 5
    assert env.game.snapshot().hands == Game.new("classic", 4, 5).snapshot().hands
    seat = SeatEnv("basic", ["random"], seed=8)
    seat.reset()
    seat.reset()
    assert seat.game.seed == 9


def test_bad_settings_get_clear_errors():
    with pytest.raises(UnknownVariantError):
        nimmt_env.env("chess", 4)
    with pytest.raises(PlayerCountError):
        nimmt_env.parallel_env("basic", 7)
    with pytest.raises(ValueError, match="unknown bot"):
        SeatEnv("basic", ["nobody"])
    with pytest.raises(ValueError, match=r"seats 0\.\.1"):
        SeatEnv("basic", ["random"], seat=2)
    with pytest.raises(TypeError, match="list of bot specs"):
        SeatEnv("basic", "heuristic")
    env = nimmt_env.env("basic", 2)
    with pytest.raises(RuntimeError, match="reset"):
        env.observe("player_0")
    env.reset()
    with pytest.raises(ValueError, match="no agent"):
        env.observe("player_2")
    with pytest.raises(ValueError, match="render_mode"):
        nimmt_env.env("basic", 2, render_mode="human")


def test_the_ansi_render_shows_the_public_table():
    env = nimmt_env.env("basic", 2, seed=3, render_mode="ansi")
    env.reset()
    text = env.render()
    first_row = env.game.spaces[0]
    assert text.startswith("basic turn 1 scores 0 0")
    assert f"row  1: {first_row[0]} " in text
    assert not any(str(t) in text.split() for t in env.view("player_1").hand if t > 30)


def test_the_arena_and_the_envs_plain_python_parts_import_without_the_env_libraries():
    code = (
        "import sys\n"
        "sys.modules.update(pettingzoo=None, gymnasium=None, numpy=None)\n"
        "import arena.engine, arena.bots.registry, arena.local, arena.botkit, arena.cli\n"
        "from arena.env import ACTION_COUNT, action_of, features\n"  # plain Python, for bots
        "import arena.env.actions, arena.env.features\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


GUIDE = (Path(__file__).resolve().parent.parent / "docs" / "ENVIRONMENT.md").read_text("utf-8")


def test_the_guides_examples_run():
    blocks = re.findall(r"^```python\n(.*?)^```$", GUIDE, re.S | re.M)
    assert len(blocks) == 3  # AEC, SeatEnv, VectorEnv
    for block in blocks:
        exec(compile(block, "docs/ENVIRONMENT.md", "exec"), {})


def test_the_guides_action_table_and_sizes_are_the_codes():
    assert f"`Discrete({ACTION_COUNT})`" in GUIDE
    assert f"vector of {OBSERVATION_SIZE} numbers" in GUIDE
    rows = dict(re.findall(r"^\| (\d+(?:–\d+)?) \| (.+?) \|$", GUIDE, re.M))
    spans = {k: range(int(k.split("–")[0]), int(k.split("–")[-1]) + 1) for k in rows}
    assert sorted(i for span in spans.values() for i in span) == list(range(ACTION_COUNT))
    examples = {
        "105 + 8 *r* + *s*": (PlaceLuck(2, 3), 105 + 8 * 2 + 3),
        "186 + *r*": (PlayAction("stop", row=4), 190),
        "195 + *t*": (PlayAction("swap", new_tile=9), 204),
        "297 + *r*": (PlayAction("front", row=1), 298),
        "307 + *r*": (PlayAction("ascending", row=9), 316),
        "317 + *r*": (PlayAction("anywhere", row=0), 317),
        "326 + *t*": (PlayAction("another", new_tile=100), 426),
        "428 + *r*": (TakeRow(3), 431),
    }
    for formula, (decision, action) in examples.items():
        assert any(formula in text for text in rows.values()), formula
        assert action_of(decision) == action
    assert action_of(PlayAction(None)) == 185 and action_of(PlayAction("skip")) == 296
    assert action_of(PlayAction("plus5")) == 427 and action_of(PlayTile(104)) == 104
    sizes = dict(re.findall(r"^\| ([a-z ]+) \| ([\d × ]+) \|", GUIDE, re.M))
    total = sum(np.prod([int(n) for n in size.split(" × ")]) for size in sizes.values())
    assert total == OBSERVATION_SIZE
    assert set(sizes) == set(BLOCKS)


@pytest.mark.parametrize(("variant", "heads"), [("basic", 5), ("classic", 7)])
def test_the_rows_bullheads_follow_the_games_table(variant, heads):
    tiles = 100 if variant == "basic" else 104
    rest = [t for t in range(1, tiles + 1) if t not in (55, 12, 30, 80)]
    nrows = 10 if variant == "basic" else 4
    rows = [[55], [12], [30], [80]] + [[] for _ in range(nrows - 4)]
    hands = [rest[:12], rest[12:24]] if variant == "basic" else [rest[:10], rest[10:20]]
    game = Game.from_setup(variant, rows, hands, rest[len(hands) * len(hands[0]) :])
    vector = encode(observe(game, 0))
    assert vector[BLOCKS["rows"].start + 4] == pytest.approx(heads / 64)
