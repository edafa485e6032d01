"""The compiled core is checked as a replay: what it plays, the Game and the independent referee
verify.

- The core deals a seed as ``Game.new`` deals it (its generator is ``arena/engine/rng.py``'s
  SplitMix64): a recorded whole game plays each hand in the order dealt.
- Thousands of core-played games per variant and reading verify with the Game
  (``nimmt replay verify``'s path) and with ``tests/independent_referee.py`` (slow).
- Playouts from random mid-game positions, every kind (tile, luck, action and row decisions,
  forced or free, to the end or cut short, random or by the rule), recorded by the core and
  driven through the Game from the same position, score as the Game scores them (slow).
- The card game's rule rollouts likewise.
- A call seeds the core from its generator (one draw): a batch of rounds is that many calls,
  a seed gives the same games, and any generator with ``getrandbits`` (or an int) seeds it.
- Without the core (``NIMMT_PURE_PLAYOUT=1``), the same random play goes through the Game.
- Bad arguments to the core are refused with a clear error, never a crash.
"""

import os
import random
import subprocess
import sys
from typing import Any

import pytest
from independent_referee import check_replay
from test_playout import drive

from arena.bots.rollouts import POLICY, Rule, classic_playouts
from arena.engine import VARIANT_NAMES, Game
from arena.engine import playout as lean
from arena.engine.decisions import DecisionKind, PlayTile
from arena.engine.observation import observe
from arena.engine.playout import SEED_BITS, Position, random_game, random_game_scores
from arena.engine.readings import CURRENT, READING_1, READINGS, Reading
from arena.engine.replay import verify
from arena.engine.rng import DealRandom
from arena.engine.sampling import Sampler, draw_by_weight

READING_IDS = [r.name for r in READINGS.values()]
#: Whole games checked per variant and reading, and player counts they cycle through.
GAMES = 2000
PLAYERS = {"classic": (2, 3, 4, 5, 6, 7, 8, 9, 10)}


def test_the_install_built_the_core_and_it_plays() -> None:
    assert lean.BACKEND == "compiled", lean.BACKEND_NOTE
    assert lean.CORE is not None


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_the_core_deals_a_seed_as_the_game_deals_it(variant: str) -> None:
    """The core's generator is the project's: the record's seed gives ``Game.new``'s deal, and
    each seat plays its hand in the order dealt (the basic and card-game loops deal in C)."""
    rng = random.Random(variant)
    for players in (2, 4):
        for _ in range(20):
            state = rng.getstate()
            replay = random_game(variant, players, rng)
            rng.setstate(state)
            assert replay["seed"] == rng.getrandbits(SEED_BITS)
            assert replay["setup"] == Game.new(variant, players, replay["seed"]).setup
            if variant in ("basic", "classic"):
                hands = replay["setup"]["hands"]
                for k, turn in enumerate(replay["turns"][: len(hands[0])]):
                    assert turn["plays"] == [hand[k] for hand in hands]


def test_the_cores_shuffles_are_the_deals_generator_draw_for_draw() -> None:
    """``deal_orders`` is ``DealRandom.shuffle`` (arena/engine/rng.py), one shuffle after the
    other, and leaves the generator where the Python one is left."""
    assert lean.CORE is not None
    rng = random.Random(8)
    for seed in [0, 1, 2**53 - 1, 2**64 - 1, 2**64 + 7, *(rng.getrandbits(64) for _ in range(50))]:
        sizes = [rng.randrange(0, 120) for _ in range(rng.randrange(1, 4))]
        orders, state = lean.CORE.deal_orders(seed, sizes)
        python = DealRandom(seed)
        for n, order in zip(sizes, orders, strict=True):
            items = list(range(n))
            python.shuffle(items)
            assert order == items
        assert state == python.state


@pytest.mark.parametrize("variant", ["basic", "basic+luck", "pro", "pro+luck"])
def test_a_whole_games_start_is_the_start_positions_state(variant: str) -> None:
    v = lean.variant(variant)
    for players in (2, 3, 6):
        for seed in range(5):
            tiles, luck, actions, _ = lean._shuffled_deal(v, seed)
            rows, hands, supply = lean.deal(v, players, tiles)
            pos = lean._start(variant, rows, hands, supply, luck, actions, CURRENT)
            start = lean._start_state(v, players, CURRENT, tiles, luck, actions)
            assert start == pos._core_state()


def test_a_whole_game_is_the_recorded_game_of_the_same_seed() -> None:
    for variant in VARIANT_NAMES:
        for players in (2, 3, 5):
            for seed in range(10):
                scores = random_game_scores(variant, players, random.Random(seed))
                replay = random_game(variant, players, random.Random(seed))
                assert scores == replay["result"]["scores"], (variant, players, seed)


@pytest.mark.slow
@pytest.mark.parametrize("rules", [READING_1, CURRENT], ids=READING_IDS)
@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_thousands_of_core_games_verify_with_the_game_and_the_independent_referee(
    variant: str, rules: Reading
) -> None:
    players = PLAYERS.get(variant, (2, 3, 4, 5, 6))
    rng = random.Random(f"{variant}/{rules.name}")
    for k in range(GAMES):
        replay = random_game(variant, players[k % len(players)], rng, rules)
        assert replay["rules"] == rules.name
        assert verify(replay) == [], (k, replay["seed"])
        assert check_replay(replay) == [], (k, replay["seed"])


def _positions(variant: str, players: int, seed: int, rules: Reading) -> list[tuple[Game, Any]]:
    """Every position of a random game played through the Game, with the decision taken."""
    rng = random.Random(seed)
    game = Game.new(variant, players, seed, rules)
    stops = []
    while (pending := game.pending) is not None:
        seat = pending.seats[0]
        decision = rng.choice(game.legal(seat))
        stops.append((game.clone(), decision))
        game.apply(seat, decision)
    return stops


@pytest.mark.slow
@pytest.mark.parametrize("rules", [READING_1, CURRENT], ids=READING_IDS)
@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_core_playouts_from_random_mid_game_positions_score_as_the_game(
    variant: str, rules: Reading
) -> None:
    kinds: dict[DecisionKind, int] = {}
    checked = 0
    rng = random.Random(f"mid/{variant}/{rules.name}")
    for seed in range(120):
        players = rng.choice(PLAYERS.get(variant, (2, 3, 4, 5, 6)))
        stops = _positions(variant, players, 1000 + seed, rules)
        for mid, decision in rng.sample(stops, min(8, len(stops))):
            pending = mid.pending
            assert pending is not None
            seat = pending.seats[0]
            kinds[pending.kind] = kinds.get(pending.kind, 0) + 1
            pos = Position(mid)
            forced = (seat, decision) if rng.random() < 0.5 else (None, None)
            rule = Rule(0.3) if variant != "classic" and rng.random() < 0.3 else None
            cut = rng.choice((0, 0, 1, 3))
            call = rng.getrandbits(64)
            turns, final = pos.trace(random.Random(call), *forced, turns=cut, rule=rule)
            assert final == pos.playout(random.Random(call), *forced, turns=cut, rule=rule)
            game = mid.clone()
            drive(game, turns)
            if game.is_over():
                assert list(game.result().scores) == final
            else:
                assert cut and len(turns) <= cut
                if not variant.startswith("pro"):
                    assert game.scores == final
            checked += 1
    assert checked >= 900
    assert kinds.get(DecisionKind.TILE)
    if variant == "classic":
        assert kinds.get(DecisionKind.TAKE_ROW)
    if variant.startswith("pro"):
        assert kinds.get(DecisionKind.ACTION)
    if variant.endswith("luck"):
        assert kinds.get(DecisionKind.LUCK)


def test_the_card_games_rule_rollouts_are_games_the_game_plays() -> None:
    for seed in range(40):
        players = 2 + seed % 9
        stops = _positions("classic", players, seed, CURRENT)
        for mid, decision in stops[:: max(1, len(stops) // 4)]:
            pending = mid.pending
            assert pending is not None
            if pending.kind is not DecisionKind.TILE:
                continue
            seat = pending.seats[0]
            record: list[dict[str, Any]] = []
            pos = Position(mid)
            (scores,) = classic_playouts(pos, random.Random(seed), seat, [decision], 0.3, record)
            assert classic_playouts(pos, random.Random(seed), seat, [decision], 0.3) == [scores]
            assert record[0]["plays"][seat] == decision.tile
            game = mid.clone()
            drive(game, record)
            assert game.is_over() and list(game.result().scores) == scores


def test_a_batch_of_rounds_is_the_same_as_that_many_calls() -> None:
    for variant in VARIANT_NAMES:
        game = Game.new(variant, 3, 8)
        pos = Position(game)
        legal = game.legal(0)
        one, many = random.Random(3), random.Random(3)
        batch = pos.playouts(one, 0, legal, repeat=4)
        calls = [r for _ in range(4) for r in pos.playouts(many, 0, legal)]
        assert [list(r) for r in batch] == [list(r) for r in calls]
        assert one.getstate() == many.getstate()
    with pytest.raises(ValueError, match="repeat"):
        pos.playouts(random.Random(0), 0, legal, repeat=0)


def test_a_call_takes_one_draw_of_its_generator_and_any_generator_seeds_it() -> None:
    class Counting(random.Random):
        calls = 0

        def getrandbits(self, k: int) -> int:
            Counting.calls += 1
            return super().getrandbits(k)

    pos = Position(Game.new("pro+luck", 4, 5))
    legal = Game.new("pro+luck", 4, 5).legal(0)
    gen = Counting(1)
    first = pos.playouts(gen, 0, legal)
    assert Counting.calls == 1
    assert first == pos.playouts(random.Random(1), 0, legal)  # the same draw, the same games
    seed = random.Random(1).getrandbits(64)
    assert lean.CORE is not None and pos.board is not None
    by_int = lean.CORE.general_playouts(
        seed, pos.board.general, pos._core_state(), 0, [lean._decision_code(d) for d in legal], 0, 1
    )
    assert by_int == first
    with pytest.raises(TypeError, match=r"int seed or a random\.Random"):
        pos.playout(object())  # type: ignore[arg-type]


def test_the_cores_draws_by_weight_follow_the_weights() -> None:
    counts = {7: 0, 8: 0, 9: 0}
    gen = random.Random(4)
    for _ in range(6000):
        hands: list[list[int]] = [[], [7, 8, 9]]
        chosen: list[int | None] = [None, None]
        draw_by_weight(gen, hands, chosen, [0, 1], [0.0] * 7 + [1.0, 3.0, 0.0])
        assert chosen[0] is None and chosen[1] in (7, 8) and len(hands[1]) == 2
        counts[chosen[1]] += 1
    assert counts[9] == 0
    assert 0.72 < counts[8] / 6000 < 0.78  # 3 to 1


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_the_cores_samples_are_the_views_games(variant: str) -> None:
    for seed in range(3):
        game = Game.new(variant, 4, seed)
        rng = random.Random(seed)
        while (pending := game.pending) is not None:
            for s in range(4):
                view = observe(game, s)
                sampler = Sampler(view)
                for _ in range(2):
                    assert observe(sampler.game(rng), s) == view
            seat = pending.seats[0]
            game.apply(seat, rng.choice(game.legal(seat)))


_WITHOUT_CORE = """
import random
from arena.engine import VARIANT_NAMES, Game, playout
from arena.engine.replay import verify
from arena.engine.rng import DealRandom
from arena.engine.sampling import Sampler
from arena.engine.observation import observe
from arena.bots.rollouts import Rule, classic_playouts
from arena.engine.decisions import PlayTile
print(playout.BACKEND, playout.CORE is None)
rng = random.Random(1)
for v in VARIANT_NAMES:
    for n in (2, 4):
        replay = playout.random_game(v, n, rng)
        assert verify(replay) == [], (v, n)
        game = Game.new(v, n, 3)
        pos = playout.Position(game)
        legal = game.legal(0)
        a = pos.playouts(random.Random(2), 0, legal, turns=2)
        assert a == pos.playouts(random.Random(2), 0, legal, turns=2) and len(a) == len(legal)
        turns, final = pos.trace(random.Random(5), 0, legal[0])
        assert final == pos.playout(random.Random(5), 0, legal[0])
        assert observe(Sampler(observe(game, 1)).game(rng), 1) == observe(game, 1)
        if v != "classic":  # the bots' rule, played on the Game
            turns, final = pos.trace(random.Random(6), rule=Rule(0.2))
            assert final == pos.playout(random.Random(6), rule=Rule(0.2)) and turns
game = Game.new("classic", 4, 2)
out = classic_playouts(playout.Position(game), rng, 0, [PlayTile(t) for t in game.hands[0]])
assert len(out) == 10
print("ok")
"""


def test_without_the_core_the_game_plays_the_same_rules() -> None:
    env = {**os.environ, "NIMMT_PURE_PLAYOUT": "1"}
    out = subprocess.run(
        [sys.executable, "-c", _WITHOUT_CORE], env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["game", "True", "ok"]


def test_bad_arguments_to_the_core_are_refused() -> None:
    core = lean.CORE
    assert core is not None
    rng = random.Random(0)
    ends, state, rows = [3, 20, 40, 60], [65, 65, 65, 65], [0, 1, 2, 3]
    hands = [[5, 6], [7, 8]]
    board = Position(Game.new("basic", 2, 1)).board
    assert board is not None
    board = board.core
    with pytest.raises(ValueError, match="out of range"):
        core.tile_playouts(
            rng, None, ends, state, rows, 0, [0, 0], [[5, 999], [7, 8]], [None, None], None,
            -1, None, 0, 12, 1,
        )  # fmt: skip
    with pytest.raises(ValueError, match="not a choice"):
        core.tile_playouts(
            rng, None, ends, state, rows, 0, [0, 0], hands, [None, None], None, 0, [9], 0, 12, 1
        )
    with pytest.raises(ValueError, match="too many seats"):
        core.tile_playouts(
            rng, None, ends, state, rows, 0, [0] * 20, [[5]] * 20, [None] * 20, None,
            -1, None, 0, 12, 1,
        )  # fmt: skip
    with pytest.raises(ValueError, match="one state per row end"):
        core.row_playouts(rng, ends, state[:2], rows, [0, 0], [], hands, 0, 12, None, 1)
    with pytest.raises(TypeError, match=r"random\.Random"):
        core.row_playouts(object(), ends, state, rows, [0, 0], [], hands, 0, 12, None, 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not on the board"):
        core.row_playouts(rng, ends, state, rows, [0, 0], [1 << 4], hands, 0, 12, [7], 1)
    with pytest.raises(ValueError, match="one playout only"):
        core.row_playouts(rng, ends, state, rows, [0, 0], [1 << 4], hands, 0, 12, None, 2, [])
    with pytest.raises(ValueError, match="bad players"):
        core.random_games(None, 11, 104, 10, False, rng, 1)
    with pytest.raises(ValueError, match="bad players"):
        core.random_games(None, 10, 104, 12, False, rng, 1)  # 124 cards
    with pytest.raises(ValueError, match="one game only"):
        core.random_games(None, 4, 104, 10, False, rng, 2, [])
    rows4 = [[1], [2], [3], [4]]
    with pytest.raises(ValueError, match="1 to 5 cards"):
        core.rule_playouts(rng, POLICY, [[1, 2, 3, 4, 5, 6], [7], [8], [9]], hands,
                           [None, None], [0, 0], 0, [5], 0.1)  # fmt: skip
    with pytest.raises(ValueError, match="a policy of the card game"):
        core.rule_playouts(rng, None, rows4, hands, [None, None], [0, 0], 0, [5], 0.1)
    with pytest.raises(ValueError, match=r"not a policy's capsule"):  # not a policy's capsule
        core.rule_playouts(rng, board, rows4, hands, [None, None], [0, 0], 0, [5], 0.1)


def test_bad_positions_and_decisions_for_the_general_simulator_are_refused() -> None:
    core = lean.CORE
    assert core is not None
    pos = Position(Game.new("pro", 3, 2))
    board = pos.board
    assert board is not None
    state = pos._core_state()
    rng = random.Random(0)
    hands = [*state[24][:2], [*state[24][2], 500]]
    with pytest.raises(ValueError, match="out of range"):
        core.general_playouts(rng, board.general, (*state[:24], hands, *state[25:]), 0, None, 0, 1)
    with pytest.raises(ValueError, match="wrong shape"):
        core.general_playouts(rng, board.general, (*state[:7], [[0]], *state[8:]), 0, None, 0, 1)
    with pytest.raises(TypeError, match="tuple"):
        core.general_playouts(rng, board.general, state[:5], 0, None, 0, 1)
    missing = next(t for t in range(1, 101) if t not in pos.hands[0])
    with pytest.raises(ValueError, match="breaks the rules"):  # a tile not in the hand
        core.general_playouts(rng, board.general, state, 0, [(1, missing, 0, 0)], 0, 1)
    with pytest.raises(ValueError, match="decision out of range"):
        core.general_playouts(rng, board.general, state, 0, [(3, 40, 0, 0)], 0, 1)
    with pytest.raises(ValueError, match="one playout only"):
        core.general_playouts(rng, board.general, state, 0, None, 0, 2, None, 0.0, [])
    with pytest.raises(ValueError, match=r"not a policy's capsule"):
        core.general_playouts(rng, board.general, state, 0, None, 0, 1, board.general, 0.0)
    with pytest.raises(ValueError, match="one playout only"):
        core.general_playouts(rng, board.general, state, 0, None, 0, 1, None, 0.0, "turns")  # type: ignore[arg-type]
    # a recorded playout of a valid position is recorded whole
    record: list[dict[str, Any]] = []
    core.general_playouts(rng, board.general, state, 0, [(1, pos.hands[0][0], 0, 0)], 0, 1,
                          None, 0.0, record)  # fmt: skip
    assert record and all(set(t) == {"plays", "choices", "scores"} for t in record)
    assert record[0]["plays"][0] == pos.hands[0][0]


def test_a_forced_tile_in_a_recorded_rule_rollout_is_its_first_play() -> None:
    game = Game.new("classic", 4, 9)
    record: list[dict[str, Any]] = []
    tile = game.hands[2][3]
    classic_playouts(Position(game), random.Random(0), 2, [PlayTile(tile)], 0.1, record)
    assert record[0]["plays"][2] == tile and len(record) == 10
