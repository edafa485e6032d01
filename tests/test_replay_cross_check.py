"""Engine replays agree, turn by turn, with an independent re-implementation of RULES.md.

``tests/independent_referee.py`` was written from RULES.md and REPLAY.md alone, without reading
the engine; every variant and player count is played with random legal decisions and checked.
"""

import random

import pytest
from independent_referee import check_replay

from arena.engine import VARIANT_NAMES, Game, variant
from arena.engine.replay import to_replay, verify

CASES = [(v, n) for v in VARIANT_NAMES for n in variant(v).players]


def random_replay(name: str, players: int, seed: int) -> dict:
    rng = random.Random(seed)
    game = Game.new(name, players, seed)
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
        assert check_replay(replay) == [], f"{name} {players}p seed {seed}"
        assert verify(replay) == []


def test_the_referee_notices_a_tampered_engine_replay() -> None:
    replay = random_replay("pro+luck", 4, 3)
    replay["turns"][2]["scores"][1] += 1
    assert check_replay(replay)
    assert verify(replay)
