"""arena.env.core's board tables: the compiled core steps the board game's four variants as the
Game plays them, under both readings (the same asked seats, masks, vectors, rewards and final
scores from the same seeds, every seat at every step), and refuses bad arguments with a clear
error."""

import os
import random
import subprocess
import sys

import numpy as np
import pytest

from arena.engine import VARIANT_NAMES, Game
from arena.engine.observation import observe
from arena.engine.readings import READINGS, Reading
from arena.env import SeatEnv, VectorEnv, env, parallel_env
from arena.env.actions import ACTION_COUNT, action_of
from arena.env.core import (
    ACTION,
    LUCK,
    OVER,
    TILE,
    BoardTables,
    ClassicTables,
    CoreTable,
    core_available,
    make_table,
)
from arena.env.encoding import action_mask, encode
from arena.env.table import IllegalActionError, Table

pytestmark = pytest.mark.skipif(not core_available(), reason="the compiled core is not built")

BOARD_VARIANTS = [name for name in VARIANT_NAMES if name != "classic"]
RULES = list(READINGS.values())
RULES_IDS = [r.name for r in RULES]


def play_side_by_side(variant: str, players: int, seed: int, rules: Reading, rng: random.Random):
    """One random game on the core's table and on the Game's from ``seed``: every step the
    same asked seats and, for every seat, the same vector and mask; the same rewards and
    illegal answers (now and then an action outside the mask, the fault default played for
    it); the same final scores. The decisions the Game took, by kind."""
    core, game = CoreTable(variant, players, rules), Table(variant, players, rules)
    core.deal(seed)
    game.deal(seed)
    kinds: dict[str, int] = {}
    while True:
        asked = core.asked()
        assert asked == game.asked(), (seed, game.game.turn)
        for seat in range(players):
            mine, theirs = core.observation(seat), game.observation(seat)
            assert np.array_equal(mine["action_mask"], theirs["action_mask"]), (seed, seat)
            assert np.array_equal(mine["observation"], theirs["observation"]), (seed, seat)
        if not asked:
            break
        pending = game.game.pending
        assert pending is not None
        kinds[pending.kind.value] = kinds.get(pending.kind.value, 0) + 1
        if rng.random() < 0.5:  # as the AEC env: one seat answers
            seat = rng.choice(asked)
            action = rng.choice(np.flatnonzero(core.mask(seat)).tolist())
            core.apply(seat, action)
            game.apply(seat, action)
        else:  # as the parallel env: every asked seat at once, now and then outside its mask
            actions = {
                s: rng.choice(np.flatnonzero(core.mask(s)).tolist())
                if rng.random() > 0.1
                else rng.randrange(-2, ACTION_COUNT + 8)
                for s in asked
            }
            assert core.answer(actions) == game.answer(actions), seed
        assert core.rewards() == game.rewards(), seed
    assert core.points() == game.points()
    assert core.game.result() == game.game.result()  # the core's log replays as the game
    return kinds


def play_many(variant: str, rules: Reading, games: int) -> dict[str, int]:
    rng = random.Random(f"{variant}/{rules.name}")
    kinds: dict[str, int] = {}
    for k in range(games):
        played = play_side_by_side(variant, 2 + k % 5, rng.getrandbits(64), rules, rng)
        for kind, n in played.items():
            kinds[kind] = kinds.get(kind, 0) + n
    return kinds


@pytest.mark.parametrize("rules", RULES, ids=RULES_IDS)
@pytest.mark.parametrize("variant", BOARD_VARIANTS)
def test_the_core_plays_every_board_game_as_the_game_does_every_seat_every_step(variant, rules):
    kinds = play_many(variant, rules, games=15)
    assert kinds["tile"] > 0
    assert ("luck" in kinds) == ("luck" in variant)
    assert ("action" in kinds) == variant.startswith("pro")


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES, ids=RULES_IDS)
@pytest.mark.parametrize("variant", BOARD_VARIANTS)
def test_thousands_of_board_games_on_the_core_are_the_games_games(variant, rules):
    play_many(variant, rules, games=500)


def points(game: Game) -> tuple[int, ...]:
    return game.result().scores if game.is_over() else tuple(game.scores)


@pytest.mark.parametrize("variant", BOARD_VARIANTS)
def test_many_board_tables_step_at_once_as_their_games_do(variant):
    """A batch of tables, every asked seat answering per step (a tenth of the answers outside
    the mask: the fault defaults are played and flagged); games that end wait as they are."""
    rng = random.Random(variant)
    count, players = 6, 3
    seeds = np.array([rng.getrandbits(64) for _ in range(count)], np.uint64)
    tables = BoardTables(variant, players, count)
    tables.deal(seeds)
    games = [Game.new(variant, players, int(s)) for s in seeds]
    totals = np.zeros((count, players))
    while True:
        obs, mask = tables.observe()
        phase, asked = tables.status()
        for i, game in enumerate(games):
            pending = game.pending
            expected = (
                OVER
                if pending is None
                else {"tile": TILE, "luck": LUCK}.get(pending.kind.value, ACTION)
            )
            assert phase[i] == expected
            assert asked[i] == (-1 if pending is None or expected == TILE else pending.seats[0])
            for seat in range(players):
                view = observe(game, seat)
                assert np.array_equal(obs[i, seat], encode(view)), (i, seat)
                assert np.array_equal(mask[i, seat], action_mask(view.legal)), (i, seat)
        if all(g.is_over() for g in games):
            break
        actions = np.full((count, players), -1, np.int64)
        for i, game in enumerate(games):
            for seat in game.pending.seats if game.pending else ():
                wild = rng.random() < 0.1
                legal = game.legal(seat)
                actions[i, seat] = rng.randrange(440) if wild else action_of(rng.choice(legal))
        rewards, illegal, played = tables.step(actions)
        for i, game in enumerate(games):
            before = points(game)
            for seat in game.pending.seats if game.pending else ():
                view = observe(game, seat)
                chosen = int(actions[i, seat])
                legal = {action_of(d) for d in view.legal}
                assert illegal[i, seat] == (chosen not in legal)
                assert played[i, seat] in legal
                if chosen in legal:
                    assert played[i, seat] == chosen
            for seat in game.pending.seats if game.pending else ():
                decision = next(d for d in game.legal(seat) if action_of(d) == played[i, seat])
                game.apply(seat, decision)
            after = points(game)
            assert rewards[i].tolist() == [a - b for a, b in zip(after, before, strict=True)]
            totals[i] += rewards[i]
    assert [tuple(t) for t in totals.astype(int).tolist()] == [g.result().scores for g in games]
    assert tables.scores().tolist() == [list(g.result().scores) for g in games]


def test_a_board_table_answered_one_seat_at_a_time_waits_for_the_others():
    tables = BoardTables("basic", 3, 1)
    tables.deal(np.array([9], np.uint64))
    hand = tables.view(0)["hands"][1]
    actions = np.array([[-1, hand[0], -1]], np.int64)
    tables.step(actions)
    assert tables.asked(0) == (0, 2)
    assert tables.view(0)["chosen"] == [0, hand[0], 0]
    assert tables.status()[0].tolist() == [TILE]
    _, illegal, _ = tables.step(np.array([[-1, hand[1], -1]], np.int64), strict=True)
    assert illegal.tolist() == [[False, False, False]]  # seat 1 was not asked: flagged 2
    assert tables.flags.tolist() == [[0, 2, 0]]
    assert tables.view(0)["chosen"] == [0, hand[0], 0]


def test_an_illegal_action_on_a_core_board_table_raises_and_changes_nothing():
    table = CoreTable("pro+luck", 3)
    table.deal(4)
    before = table.observation(0)
    hand = table.game.hands[0]
    missing = next(t for t in range(1, 101) if t not in hand)
    for action in (missing, 0, 105, 186, 428, ACTION_COUNT, -1, 10**6):
        with pytest.raises(IllegalActionError, match="not legal for seat 0"):
            table.apply(0, action)
    after = table.observation(0)
    assert np.array_equal(before["observation"], after["observation"])
    assert table.asked() == (0, 1, 2)
    table.apply(1, table.game.hands[1][0])
    with pytest.raises(IllegalActionError):  # only once a turn
        table.apply(1, table.game.hands[1][1])


def test_bad_arguments_to_the_board_tables_core_calls_are_clear_errors_never_a_crash():
    tables = BoardTables("pro", 3, 2)
    with pytest.raises(RuntimeError, match="reset"):
        tables.step(np.zeros((2, 3), np.int64))
    tables.deal(np.array([1, 2], np.uint64))
    core, rules, buffer = tables._core, tables._rules, tables._tables
    size = core.board_table_size()
    rewards, flags = np.zeros((2, 3), np.float32), np.zeros((2, 3), np.uint8)
    actions = np.zeros((2, 3), np.int64)
    with pytest.raises(ValueError, match="tables: a buffer"):
        core.board_step(buffer[:-1], rules, actions, rewards, flags)
    with pytest.raises(ValueError, match="actions: a buffer"):
        core.board_step(buffer, rules, actions[:, :2].copy(), rewards, flags)
    with pytest.raises(ValueError, match="rewards: a buffer"):
        core.board_step(buffer, rules, actions, rewards[:1], flags)
    with pytest.raises(ValueError, match="obs: a buffer"):
        core.board_observe(buffer, rules, tables._template, 0, np.zeros(7, np.float32), None)
    with pytest.raises(ValueError, match="template: a buffer"):
        core.board_observe(buffer, rules, np.zeros(3, np.float32), 0, None, None)
    with pytest.raises(ValueError, match="seat 3: the tables seat 3"):
        tables.observe(seat=3)
    with pytest.raises(ValueError, match=r"nimmt\.board_rules"):
        core.board_status(buffer, object(), np.zeros(2, np.int8), np.zeros(2, np.int8))
    with pytest.raises(IndexError, match="no such table"):
        tables.asked(2)
    for players in (1, 0, 9, 11, -3):  # 9 hands of 12 tiles and 4 rows: more than 100 tiles
        with pytest.raises(ValueError, match=f"players {players}"):
            core.board_deal(buffer, rules, players, np.zeros(2, np.uint64), None)
    with pytest.raises(ValueError, match="not dealt"):
        core.board_asked(np.zeros(size, np.uint8), rules, 0)
    wild = np.frombuffer(random.Random(0).randbytes(2 * size), np.uint8).copy()
    wild[:4] = buffer[:4]  # three seats, then anything
    with pytest.raises(ValueError, match="board table 0: "):
        core.board_observe(wild, rules, tables._template, -1, None, np.zeros((2, 3, 432), np.int8))
    with pytest.raises(ValueError, match="board table 1: players"):
        core.board_status(
            np.concatenate([buffer[:size], np.zeros(size, np.uint8)]),
            rules,
            np.zeros(2, np.int8),
            np.zeros(2, np.int8),
        )
    strict = np.array([[10**6, 10**6, 10**6], [-1, -1, -1]], np.int64)
    tables.step(strict, strict=True)  # out of range: flagged, nothing played
    assert tables.flags.tolist() == [[1, 1, 1], [0, 0, 0]]
    assert tables.asked(0) == (0, 1, 2)
    with pytest.raises(ValueError, match="bh: 105 entries"):
        core.board_rules(
            tables._core.general_board([[0, 0]] * 4, [0] * 4, []), [0] * 7, [], [], [0] * 7,
            [0] * 18, [0] * 11,
        )  # fmt: skip


def test_every_environment_plays_every_variant_on_the_cores_table():
    for variant in VARIANT_NAMES:
        assert type(make_table(variant, 3)) is CoreTable
        assert isinstance(env(variant, 3)._table, CoreTable)
        assert isinstance(parallel_env(variant, 3)._table, CoreTable)
        assert isinstance(SeatEnv(variant, ["random", "random"])._table, CoreTable)
        tables = VectorEnv(variant, 3, 2).tables
        assert isinstance(tables, ClassicTables if variant == "classic" else BoardTables)


_WITHOUT_CORE = """
import numpy as np
from arena.engine import VARIANT_NAMES
from arena.env import SeatEnv, VectorEnv, env
from arena.env.core import core_available, make_table
from arena.env.table import Table
assert not core_available()
for variant in VARIANT_NAMES:
    assert type(make_table(variant, 3)) is Table, variant
    game = env(variant, 3, seed=1)
    game.reset()
    for agent in game.agent_iter():
        observation, _, terminated, _, _ = game.last()
        game.step(None if terminated else int(observation["action_mask"].nonzero()[0][0]))
    assert game.game.is_over()
    seat = SeatEnv(variant, ["random", "random"], seed=2)
    observation, _ = seat.reset()
    terminated = False
    while not terminated:
        action = int(observation["action_mask"].nonzero()[0][0])
        observation, _, terminated, _, _ = seat.step(action)
    vector = VectorEnv(variant, 3, 2, seed=3)
    assert type(vector.tables).__name__ == "_GameTables"
    obs, _ = vector.reset()
    vector.step(obs["action_mask"].argmax(axis=-1))
print("ok")
"""


def test_without_the_core_the_environments_play_on_the_games_table():
    environ = {**os.environ, "NIMMT_PURE_PLAYOUT": "1"}
    out = subprocess.run(
        [sys.executable, "-c", _WITHOUT_CORE], env=environ, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["ok"]


#: Run in a child process: a crash there fails the test below instead of ending pytest.
CORRUPTED_MID_TURN = """
import random, sys
import numpy as np
from arena.env.core import BoardTables
seed = int(sys.argv[1])
rng = random.Random(seed)
tables = BoardTables("pro+luck", 4, 1)
tables.deal(np.array([seed], np.uint64))
while len(tables.asked(0)) != 1:  # a luck card or an action card asked: a turn under way
    masks = tables.masks()
    pick = [rng.choice(np.flatnonzero(masks[0, s])) if masks[0, s].any() else 0 for s in range(4)]
    tables.step(np.array([pick], np.int64))
core, rules, kept = tables._core, tables._rules, tables._tables.copy()
rewards, flags = np.zeros((1, 4), np.float32), np.zeros((1, 4), np.uint8)
refused = 0
for trial in range(150):
    wild = kept.copy()
    for _ in range(rng.randint(1, 12)):  # ints anywhere before the position now
        at = rng.randrange(0, kept.size // 2) // 4 * 4
        value = rng.choice([-5, -1, 7, 200, 1000, 2**30, rng.randrange(-100, 300)])
        wild[at : at + 4] = np.frombuffer(np.int32(value).tobytes(), np.uint8)
    masks = np.zeros((1, 4, 432), np.int8)
    try:
        core.board_observe(wild, rules, tables._template, -1, None, masks)
        pick = [rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in masks[0]]
        for _ in range(3):
            core.board_step(wild, rules, np.array([pick], np.int64), rewards, flags)
    except ValueError:
        refused += 1
print(refused)
"""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_board_table_corrupted_mid_turn_is_refused_or_played_never_a_crash(seed):
    """The turn's start and its answers so far are replayed from the buffer: numbers out of
    range there (a hostile or careless caller's bytes) give a ValueError, never a crash."""
    done = subprocess.run(
        [sys.executable, "-c", CORRUPTED_MID_TURN, str(seed)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(done.stdout) > 0  # some corruptions were caught, the rest played
