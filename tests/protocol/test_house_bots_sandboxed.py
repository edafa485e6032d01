"""The house bots as sandboxed programs play exactly the games they play in process, and
exactly the games of `nimmt play` (arena.local), for the same seed."""

import pytest

from arena.bots.registry import make_bot
from arena.local import bot_seed, play_game, series_game

from .conftest import house, needs_bwrap, play

pytestmark = needs_bwrap


def local_replays(variant, specs, seed, games):
    """The replays `nimmt play --bots specs --seed seed` makes (arena.cli._play_one)."""
    replays = []
    for index in range(games):
        game = series_game(seed, index, len(specs))
        replay = play_game(
            variant,
            [make_bot(specs[entry]) for entry in game.seats],
            game.deal_seed,
            [bot_seed(seed, index, seat) for seat in range(len(specs))],
            [{"name": specs[entry], "entry": entry} for entry in game.seats],
            game_id=f"game-{index + 1:05d}",
        )
        replay["series"] = {"seed": seed, "game": index + 1}
        replays.append(replay)
    return replays


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
    assert [r.to_json() for r in sandboxed.replays] == local_replays(
        variant, specs, seed=4, games=3
    )
    assert all(b.faults == () for b in sandboxed.bots)
