"""The runner's replays stay byte-identical: matches recorded before the runner was split by
responsibility (``tests/golden/``) are played again and compared file by file.

Each case is a lineup, a variant, a seed and a number of games; the house bots play in process
(and, for one case, as sandboxed programs: the same replays); ``dropped-seat`` has a sandboxed bot
that plays an illegal tile on turn 2 of every game, so its faults, the drop after the third and
the default decisions played for it afterwards are pinned too.
"""

from pathlib import Path

import pytest

from arena.bots.registry import make_bot
from arena.runner.manifest import load
from arena.runner.match import Entrant, MatchConfig, run_match
from arena.stats import entry_names

from .conftest import BOTS, house, needs_bwrap

GOLDEN = Path(__file__).parent.parent / "golden"

#: (folder, variant, house bot specs, games, seed): as recorded.
HOUSE_CASES = [
    ("basic", "basic", ["mcs:playouts=40", "heuristic", "random", "random"], 3, 11),
    ("basic-luck", "basic+luck", ["heuristic", "random", "mcs:playouts=30"], 3, 12),
    ("pro", "pro", ["heuristic", "random"], 2, 13),
    ("pro-luck", "pro+luck", ["heuristic", "random", "random", "heuristic"], 2, 14),
    ("classic", "classic", ["heuristic", "random", "mcs:playouts=30", "random", "random"], 3, 15),
]


def in_process_lineup(specs: list[str]) -> list[Entrant]:
    return [
        Entrant(name, in_process=lambda spec=spec: make_bot(spec))
        for name, spec in zip(entry_names(specs), specs, strict=True)
    ]


def assert_same_files(expected: Path, out: Path) -> None:
    recorded = sorted(p.name for p in expected.glob("game-*.json"))
    played = sorted(p.name for p in out.glob("game-*.json"))
    assert played == recorded
    for name in recorded:
        assert (out / name).read_bytes() == (expected / name).read_bytes(), name


@pytest.mark.parametrize(("folder", "variant", "specs", "games", "seed"), HOUSE_CASES)
def test_house_bot_matches_replay_byte_identical_to_the_recording(
    tmp_path: Path, folder: str, variant: str, specs: list[str], games: int, seed: int
) -> None:
    config = MatchConfig(variant=variant, games=games, seed=seed, out=tmp_path)
    run_match(config, in_process_lineup(specs))
    assert_same_files(GOLDEN / folder, tmp_path)


@needs_bwrap
def test_sandboxed_house_bots_replay_byte_identical_to_the_recording(tmp_path: Path) -> None:
    config = MatchConfig(variant="pro", games=2, seed=13, out=tmp_path)
    run_match(config, [house("heuristic"), house("random")])
    assert_same_files(GOLDEN / "pro", tmp_path)


@needs_bwrap
def test_faults_drop_and_default_decisions_replay_byte_identical(tmp_path: Path) -> None:
    entrants = [
        Entrant("illegal", program=load(BOTS / "illegal")),
        Entrant("random", in_process=lambda: make_bot("random")),
        Entrant("heuristic", in_process=lambda: make_bot("heuristic")),
    ]
    run_match(MatchConfig(variant="basic", games=4, seed=21, out=tmp_path), entrants)
    assert_same_files(GOLDEN / "dropped-seat", tmp_path)
