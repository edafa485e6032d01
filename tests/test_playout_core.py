"""The compiled playout core plays the pure lean path's playouts, game by game.

- A seeded sweep over every variant, both readings of the rules and several player counts:
  at every decision of a random game, each kind of call (a batch over the legal options, one
  forced decision, a free playout; to the end and cut short) gives the same scores on both
  backends and leaves the generator in the same state.
- The house search bots (``search``, ``mcs``) play the same games on both backends.
- The card game's rule rollouts (``arena.bots.rollouts``) likewise, at every tile choice,
  and the board game's (``Position.playouts(..., rule=...)``) at every decision.
- A batch of rounds (``repeat``) is the same as that many calls, on either backend.
- The sampler's deal (``arena.engine.sampling.Sampler``) and the search's opponent-model draw
  (``draw_by_weight``) give the same samples on both backends, sample by sample, from the
  same random numbers.
- ``NIMMT_PURE_PLAYOUT=1`` switches to the Python loops; the install built the core here.
- Bad arguments to the core (positions, decisions) are refused with a clear error, never a
  crash.
"""

import itertools
import os
import random
import subprocess
import sys
from collections.abc import Iterator, Sequence

import pytest

from arena.bots.registry import make_bot
from arena.bots.rollouts import classic_playouts
from arena.engine import VARIANT_NAMES, Game
from arena.engine import playout as lean
from arena.engine.decisions import Decision
from arena.engine.observation import observe
from arena.engine.playout import Position
from arena.engine.readings import READINGS, Reading
from arena.engine.sampling import Sampler, draw_by_weight
from arena.local import play_game

PLAYERS = {"classic": (2, 4, 10), "basic": (2, 3, 5)}


def _call(
    backend: str, pos: Position, seed: int, seat: int, legal: Sequence[Decision], turns: int
) -> tuple[list[list[float]], object]:
    """Every kind of playout call from ``pos`` on ``backend``, and the generator's state after."""
    lean.BACKEND = backend
    rng = random.Random(seed)
    results = [list(r) for r in pos.playouts(rng, seat, legal, turns)]
    results += [list(r) for r in pos.playouts(rng, seat, legal, turns, repeat=3)]
    results.append(list(pos.playout(rng, seat, legal[-1], turns)))
    results.append(list(pos.playout(rng, None, None, turns)))
    return results, rng.getstate()


def _sweep(variant: str, players: int, rules: Reading, seed: int) -> int:
    """Compare both backends at every decision of one random game; the number compared."""
    game = Game.new(variant, players, seed, rules)
    rng = random.Random(seed)
    compared = 0
    while (pending := game.pending) is not None:
        pos = Position(game)
        seat = pending.seats[0]
        legal = game.legal(seat)
        for turns in (0, 2):
            call_seed = seed * 1000 + compared
            pure = _call("python", pos, call_seed, seat, legal, turns)
            compiled = _call("compiled", pos, call_seed, seat, legal, turns)
            assert compiled == pure, (variant, players, rules.name, seed, game.turn, turns)
            compared += 1
        game.apply(seat, rng.choice(legal))
    return compared


@pytest.fixture
def restore_backend() -> Iterator[str]:
    saved = lean.BACKEND
    yield saved
    lean.BACKEND = saved


def test_the_install_built_the_core_and_it_plays() -> None:
    assert lean.BACKEND == "compiled", lean.BACKEND_NOTE


@pytest.mark.parametrize("rules", list(READINGS.values()), ids=list(READINGS))
@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_both_backends_give_the_same_playouts_game_by_game(
    variant: str, rules: Reading, restore_backend: str
) -> None:
    counts = PLAYERS.get(variant, (2, 5))
    seeds = range(3) if variant in PLAYERS else range(1)
    compared = sum(_sweep(variant, n, rules, seed) for n in counts for seed in seeds)
    assert compared > 20


@pytest.mark.parametrize("explore", [0.0, 0.1, 1.0])
@pytest.mark.parametrize("players", [2, 4, 10])
def test_both_backends_give_the_same_rule_rollouts(
    players: int, explore: float, restore_backend: str
) -> None:
    for seed in range(3):
        game = Game.new("classic", players, seed)
        rng = random.Random(seed)
        while (pending := game.pending) is not None:
            seat = pending.seats[-1]
            legal = game.legal(seat)
            if pending.kind.value == "tile":
                pos = Position(game)
                seen = []
                for backend in ("python", "compiled"):
                    lean.BACKEND = backend
                    gen = random.Random(game.turn * 31 + seed)
                    results = classic_playouts(pos, gen, seat, legal, explore)
                    seen.append(([list(r) for r in results], gen.getstate()))
                assert seen[0] == seen[1], (players, seed, game.turn)
            game.apply(seat, rng.choice(legal))


@pytest.mark.parametrize("explore", [0.0, 0.2])
@pytest.mark.parametrize("variant", [v for v in VARIANT_NAMES if v != "classic"])
def test_both_backends_give_the_same_board_game_rule_playouts(
    variant: str, explore: float, restore_backend: str
) -> None:
    compared = 0
    for players in (2, 4):
        game = Game.new(variant, players, players)
        rng = random.Random(players)
        for k in itertools.count():
            if (pending := game.pending) is None:
                break
            seat = pending.seats[0]
            legal = game.legal(seat)
            if k % 3:
                game.apply(seat, rng.choice(legal))
                continue
            pos = Position(game)
            seen = []
            for backend in ("python", "compiled"):
                lean.BACKEND = backend
                gen = random.Random(compared)
                results = [list(r) for r in pos.playouts(gen, seat, legal, repeat=2, rule=explore)]
                results.append(list(pos.playout(gen, seat, legal[0], 2, rule=explore)))
                results.append(list(pos.playout(gen, rule=explore)))
                seen.append((results, gen.getstate()))
            assert seen[0] == seen[1], (variant, players, game.turn)
            compared += 1
            game.apply(seat, rng.choice(legal))
    assert compared > 10


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_the_search_bots_play_the_same_game_on_both_backends(
    variant: str, restore_backend: str
) -> None:
    games = []
    for backend in ("python", "compiled"):
        lean.BACKEND = backend
        bots = [make_bot("search:playouts=40"), make_bot("mcs:playouts=40"), make_bot("random")]
        replay = play_game(variant, bots, seed=3, bot_seeds=[1, 2, 3], names=["s", "m", "r"])
        games.append((replay["turns"], replay["result"]))
    assert games[0] == games[1]


def test_a_batch_of_rounds_is_the_same_as_that_many_calls(restore_backend: str) -> None:
    for variant in ("basic", "classic", "pro"):
        game = Game.new(variant, 3, 8)
        pos = Position(game)
        legal = game.legal(0)
        for backend in ("python", "compiled"):
            lean.BACKEND = backend
            one, many = random.Random(3), random.Random(3)
            batch = pos.playouts(one, 0, legal, repeat=4)
            calls = [r for _ in range(4) for r in pos.playouts(many, 0, legal)]
            assert [list(r) for r in batch] == [list(r) for r in calls]
            assert one.getstate() == many.getstate()
    with pytest.raises(ValueError, match="repeat"):
        pos.playouts(random.Random(0), 0, legal, repeat=0)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_both_backends_deal_the_same_samples_sample_by_sample(
    variant: str, restore_backend: str
) -> None:
    seen = {"chose": 0, "gone": 0, "to hands": 0, "swapped": 0, "actions": 0, "luck": 0}
    for players in (2, 4, 6) if variant == "classic" else (2, 4):
        for seed in range(2):
            game = Game.new(variant, players, seed)
            rng = random.Random(seed)
            while (pending := game.pending) is not None:
                for s in range(players):
                    view = observe(game, s)
                    for actions in (True, False):
                        deals = []
                        for backend in ("python", "compiled"):
                            lean.BACKEND = backend
                            sampler = Sampler(view, actions)
                            gen = random.Random(game.turn * 97 + s)
                            made = [sampler._deal(gen) for _ in range(3)]
                            pos = sampler.position(gen)
                            made.append((pos.hands, pos.chosen, pos.held, pos.supply))
                            deals.append((made, gen.getstate()))
                        assert deals[0] == deals[1], (variant, players, seed, game.turn, s)
                    seen["chose"] += any(sampler.chose)
                    seen["gone"] += bool(sampler.gone or sampler.box_known)
                    seen["to hands"] += len(sampler.gone) > sampler.box_size  # gone, not boxed
                    seen["swapped"] += any(sampler.returned)
                    seen["actions"] += bool(sampler.action_pool)
                    seen["luck"] += bool(sampler.luck_pool)
                seat = pending.seats[0]
                game.apply(seat, rng.choice(game.legal(seat)))
    assert seen["chose"] and seen["gone"] > 10
    if variant.startswith("pro"):
        assert seen["actions"] and seen["to hands"] and seen["swapped"], seen
    if variant.endswith("luck"):
        assert seen["luck"]


def test_both_backends_draw_the_same_tiles_by_weight(restore_backend: str) -> None:
    rng = random.Random(5)
    for _ in range(300):
        players = rng.randint(2, 6)
        tiles = rng.sample(range(1, 105), 40)
        hands = [sorted(tiles[6 * s : 6 * s + rng.randint(0, 6)]) for s in range(players)]
        weight = [rng.choice((0.5, 1.0, 3.0, 1e-300, rng.random())) for _ in range(105)]
        seats = rng.sample(range(players), rng.randint(1, players))
        seed = rng.randrange(1 << 30)
        drawn = []
        for backend in ("python", "compiled"):
            lean.BACKEND = backend
            gen = random.Random(seed)
            these: list[int | None] = [None] * players
            mine = [list(h) for h in hands]
            draw_by_weight(gen, mine, these, seats, weight)
            drawn.append((mine, these, gen.getstate()))
        assert drawn[0] == drawn[1]
        mine, these, _ = drawn[0]
        for s in range(players):
            assert (these[s] is not None) == (s in seats and bool(hands[s]))
            assert sorted(mine[s] + [t for t in [these[s]] if t is not None]) == hands[s]


def test_a_generator_subclass_plays_on_the_python_path(restore_backend: str) -> None:
    class Counting(random.Random):
        calls = 0

        def random(self) -> float:
            Counting.calls += 1
            return super().random()

    pos = Position(Game.new("basic", 4, 5))
    lean.BACKEND = "compiled"
    pos.playout(Counting(1))
    assert Counting.calls > 0  # its own random() was asked, so the core stayed out


def test_the_environment_switch_forces_the_python_loops() -> None:
    code = "from arena.engine import playout; print(playout.BACKEND, playout.BACKEND_NOTE)"
    env = {**os.environ, "NIMMT_PURE_PLAYOUT": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split()[0] == "python"
    assert "NIMMT_PURE_PLAYOUT" in out.stdout


def test_bad_arguments_to_the_core_are_refused() -> None:
    core = lean.CORE
    assert core is not None
    rng = random.Random(0)
    ends, state, rows = [3, 20, 40, 60], [65, 65, 65, 65], [0, 1, 2, 3]
    hands = [[5, 6], [7, 8]]
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
