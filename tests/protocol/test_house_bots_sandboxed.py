"""The house bots as sandboxed programs play exactly the games they play in process, and
exactly the games of `nimmt play` (arena.local), for the same seed."""

import pytest

from arena.bots.registry import make_bot
from arena.engine.record import Series
from arena.local import bot_seed, play_game, series_game

from .conftest import house, needs_bwrap, play

pytestmark = needs_bwrap


def local_records(variant, specs, seed, games):
    """The records `nimmt play --bots specs --seed seed` makes (arena.cli.play._play_one)."""
    records = []
    for index in range(games):
        game = series_game(seed, index, len(specs))
        record = play_game(
            variant,
            [make_bot(specs[entry]) for entry in game.seats],
            game.deal_seed,
            [bot_seed(seed, index, seat) for seat in range(len(specs))],
            [{"name": specs[entry], "entry": entry} for entry in game.seats],
            game_id=f"game-{index + 1:05d}",
            series=Series(seed, index + 1),
        )
        records.append(record)
    return records


@pytest.mark.parametrize("variant", ["basic", "pro+luck", "classic"])
def test_it_plays_the_same_games_sandboxed_in_process_and_in_nimmt_play(variant, tmp_path):
    specs = ["heuristic", "random", "random"]
    copies = {}
    lineup = []
    for spec in specs:
        copies[spec] = copies.get(spec, 0) + 1
        lineup.append((spec, copies[spec]))
    settings = {"variant": variant, "games": 3, "seed": 4, "decision_ms": 5000, "bank_ms": 0}
    sandboxed = play([house(s, copy=c) for s, c in lineup], tmp_path / "sandboxed", **settings)
    in_process = play(
        [house(s, in_process=True, copy=c) for s, c in lineup], tmp_path / "local", **settings
    )
    assert sandboxed.sandbox.enabled
    assert sandboxed.replays == in_process.replays
    assert list(sandboxed.replays) == local_records(variant, specs, seed=4, games=3)
    assert all(b.faults == () for b in sandboxed.bots)
