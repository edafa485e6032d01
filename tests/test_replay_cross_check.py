"""Engine replays agree, turn by turn, with an independent re-implementation of RULES.md.

``tests/independent_referee.py`` was written from RULES.md and REPLAY.md alone, without reading
the engine; every variant and player count is played with random legal decisions and checked,
under the reading the engine plays (``nimmt-rules/2``) and under the old one, which the
replays written before it (``tests/data/rules-1/``) were played under.
"""

import json
import random
from pathlib import Path

import pytest
from independent_referee import check_replay

from arena.engine import VARIANT_NAMES, Game, variant
from arena.engine.playout import random_game
from arena.engine.readings import CURRENT, READING_1, Reading
from arena.engine.replay import to_replay, verify

CASES = [(v, n) for v in VARIANT_NAMES for n in variant(v).players]
OLD = sorted((Path(__file__).parent / "data" / "rules-1").glob("*.json"))


def random_replay(name: str, players: int, seed: int, rules: Reading = CURRENT) -> dict:
    rng = random.Random(seed)
    game = Game.new(name, players, seed, rules=rules)
    while not game.is_over():
        pending = game.pending
        assert pending is not None
        for seat in pending.seats:
            game.apply(seat, rng.choice(game.legal(seat)))
    return to_replay(game, [f"p{s}" for s in range(players)])


@pytest.mark.parametrize(("name", "players"), CASES)
def test_replays_of_every_variant_and_player_count_agree_with_the_independent_referee(
    name: str, players: int
) -> None:
    for seed in range(12):
        replay = random_replay(name, players, seed * 7919 + players)
        assert replay["rules"] == "nimmt-rules/2"
        assert check_replay(replay) == [], f"{name} {players}p seed {seed}"
        assert verify(replay) == []


@pytest.mark.parametrize(("name", "players"), [c for c in CASES if c[0] != "classic"])
def test_games_played_under_reading_1_agree_with_the_referee_under_reading_1(
    name: str, players: int
) -> None:
    for seed in range(6):
        replay = random_replay(name, players, seed * 7907 + players, READING_1)
        assert replay["rules"] == "nimmt-rules/1"
        assert check_replay(replay) == [], f"{name} {players}p seed {seed}"
        del replay["rules"]  # as the replays written before readings had names
        assert check_replay(replay) == [] and verify(replay) == []


@pytest.mark.parametrize("path", OLD, ids=[p.stem for p in OLD])
def test_the_replays_written_before_reading_2_agree_with_the_referee(path: Path) -> None:
    assert check_replay(json.loads(path.read_text())) == []


@pytest.mark.parametrize("rules", [READING_1, CURRENT], ids=lambda r: r.name)
def test_lean_path_games_agree_with_the_referee_under_their_reading(rules: Reading) -> None:
    rng = random.Random(17)
    for name in ("pro", "pro+luck", "basic+luck"):
        for players in (2, 4, 6):
            replay = random_game(name, players, rng, rules=rules)
            assert check_replay(replay) == [], f"{name} {players}p"


def test_the_referee_and_the_engine_judge_old_replays_relabelled_alike() -> None:
    """Relabelled as reading 2, an old replay is judged by reading 2 by both implementations:
    they agree on which ones still hold."""
    for path in OLD:
        replay = json.loads(path.read_text())
        replay["rules"] = "nimmt-rules/2"
        assert bool(check_replay(replay)) == bool(verify(replay)), path.name


def test_the_referee_notices_a_tampered_engine_replay() -> None:
    replay = random_replay("pro+luck", 4, 3)
    replay["turns"][2]["scores"][1] += 1
    assert check_replay(replay)
    assert verify(replay)
