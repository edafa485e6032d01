"""``nimmt replay decisions FILE --seat S BOT_DIR``: a real bot program, started in the sandbox
as a match starts it, re-asked every recorded decision of a seat; listed where it now differs."""

import json
import re
from pathlib import Path

import pytest

from arena.cli import main
from arena.engine.replay import read
from arena.runner.recheck import recorded_decisions

from .conftest import BOTS, needs_bwrap

ROOT = Path(__file__).resolve().parents[2]
STARTER = ROOT / "bots" / "starter-python"
HEURISTIC = ROOT / "bots" / "heuristic"
RANDOM = ROOT / "bots" / "random"


def nimmt(*argv: object) -> int:
    return main([str(a) for a in argv])


@pytest.fixture
def replay_file(tmp_path: Path) -> Path:
    """A pro+luck game of the heuristic (seat 0) and the random bot (seat 1), in process."""
    argv = ["play", "--variant", "pro+luck", "--bots", "heuristic,random", "--games", "1"]
    assert nimmt(*argv, "--seed", "5", "--out", tmp_path / "g", "-q") == 0
    return tmp_path / "g" / "game-00001.json"


@pytest.mark.slow
@needs_bwrap
def test_the_same_bots_answer_every_decision_as_recorded_and_another_bot_differs(
    replay_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replay = read(replay_file)
    mine, _ = recorded_decisions(replay, 0)
    theirs, _ = recorded_decisions(replay, 1)
    assert nimmt("replay", "decisions", replay_file, "--seat", "0", HEURISTIC) == 0
    out = capsys.readouterr().out
    assert f"{len(mine)} decisions of seat 0 (heuristic) re-asked: 0 differ" in out
    # The random bot gets the seed it had in the game: it answers the same again.
    assert nimmt("replay", "decisions", replay_file, "--seat", "1", RANDOM) == 0
    assert (
        f"{len(theirs)} decisions of seat 1 (random) re-asked: 0 differ" in capsys.readouterr().out
    )
    # The starter in the heuristic's seat plays otherwise somewhere: listed, exit status 1.
    assert nimmt("replay", "decisions", replay_file, "--seat", "0", STARTER) == 1
    out = capsys.readouterr().out
    listed = re.findall(r"^turn (\d+), (\w+): recorded (.+), now (.+)$", out, re.MULTILINE)
    [summary] = re.findall(
        rf"{len(mine)} decisions of seat 0 \(heuristic\) re-asked: (\d+) differ", out
    )
    assert int(summary) == len(listed) > 0
    recorded = {(str(r.turn), r.kind.value, str(r.decision)) for r in mine}
    assert all((turn, kind, was) in recorded and now != was for turn, kind, was, now in listed)


@pytest.mark.slow
@needs_bwrap
def test_an_illegal_answer_and_the_faults_of_the_game_are_listed_and_a_dead_bot_is_an_error(
    replay_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--variant", "pro+luck", "--games", "1", "--decision-ms", "2000"]
    assert nimmt("match", BOTS / "illegal", "random", *argv, "--out", tmp_path / "m") == 0
    capsys.readouterr()
    game = tmp_path / "m" / "game-00001.json"
    assert nimmt("replay", "decisions", game, "--seat", "0", BOTS / "illegal") == 1
    out = capsys.readouterr().out
    assert "seat 0 had faults in turn 2: there (and after a drop) the arena played" in out
    assert re.search(
        r"^turn 2, tile: recorded tile \d+, now tile \d+ \(not a legal decision here\)$",
        out,
        re.MULTILINE,
    )
    assert nimmt("replay", "decisions", replay_file, "--seat", "1", BOTS / "crash-at-start") == 1
    err = capsys.readouterr().err
    assert "did not start" in err and "exited with status 7" in err


def test_a_seat_the_game_lacks_a_folder_without_a_bot_or_a_bad_replay_are_refused(
    replay_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert nimmt("replay", "decisions", replay_file, "--seat", "2", STARTER) == 2
    assert "this game has seats 0 to 1" in capsys.readouterr().err
    assert nimmt("replay", "decisions", replay_file, "--seat", "0", tmp_path) == 2
    assert "nimmt-bot.toml" in capsys.readouterr().err
    tampered = json.loads(replay_file.read_text())
    tampered["turns"][2]["scores"][0] += 3
    (tmp_path / "bad.json").write_text(json.dumps(tampered))
    assert nimmt("replay", "decisions", tmp_path / "bad.json", "--seat", "0", STARTER) == 1
    assert "the replay does not verify" in capsys.readouterr().err
