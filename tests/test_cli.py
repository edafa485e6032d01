"""The ``nimmt`` command line: play, replay verify, replay show; exit statuses and messages."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from arena.cli import main
from arena.engine import replay as replays


def _play(out: Path, *extra: str, bots: str = "heuristic,random,random", games: int = 4) -> int:
    argv = ["play", "--variant", "basic+luck", "--bots", bots, "--games", str(games)]
    return main([*argv, "--seed", "11", "--out", str(out), "-q", *extra])


def test_it_writes_replays_that_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _play(tmp_path) == 0
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == [f"game-0000{i}.json" for i in range(1, 5)] + ["summary.json"]
    capsys.readouterr()

    assert main(["replay", "verify", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.count("OK ") == 4
    assert "4 replays: 4 ok, 0 mismatched, 0 unreadable (1 other files skipped)" in out
    assert out.count("(nimmt-rules/2)") == 4  # each judged by the reading it names


def test_it_verifies_and_shows_a_replay_under_the_reading_it_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = Path(__file__).parent / "data" / "rules-1" / "pro-4p-1.json"  # no rules key
    assert main(["replay", "verify", str(old)]) == 0
    assert f"OK {old} (nimmt-rules/1)" in capsys.readouterr().out
    assert main(["replay", "show", str(old)]) == 0
    assert "rules nimmt-rules/1" in capsys.readouterr().out.splitlines()[0]
    relabelled = replays.read(old).to_json()
    relabelled["rules"] = "nimmt-rules/2"  # tile 55 is played in this game
    replays.write(tmp_path / "r2.json", relabelled)
    assert main(["replay", "verify", str(tmp_path / "r2.json")]) == 1
    assert "MISMATCH" in capsys.readouterr().out
    relabelled["rules"] = "nimmt-rules/7"
    replays.write(tmp_path / "r7.json", relabelled)
    assert main(["replay", "verify", str(tmp_path / "r7.json")]) == 1
    assert "unknown rules reading 'nimmt-rules/7'" in capsys.readouterr().out


def test_it_prints_a_table_per_bot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _play(tmp_path, games=3) == 0
    out = capsys.readouterr().out
    header, *rows = out.splitlines()[1:5]
    assert "mean score ± 95% CI" in header and "win rate" in header and "mean rank" in header
    assert [row.split()[:2] for row in rows] == [
        ["heuristic", "3"],
        ["random", "3"],
        ["random#2", "3"],
    ]
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["bots"] == ["heuristic", "random", "random"]
    assert [row["name"] for row in summary["table"]] == ["heuristic", "random", "random#2"]
    assert [r["file"] for r in summary["results"]] == [f"game-0000{i}.json" for i in (1, 2, 3)]


def test_it_rotates_seats_between_games(tmp_path: Path) -> None:
    assert _play(tmp_path) == 0
    for i in range(4):
        replay = replays.read(tmp_path / f"game-{i + 1:05d}.json")
        assert replay.seed == 11 + i  # game i is dealt from seed S + i
        entries = [p.entry for p in replay.players]
        assert [entries.index(k) for k in range(3)] == [(k + i) % 3 for k in range(3)]
        names = replay.names
        assert names[entries.index(0)] == "heuristic"


def test_it_gives_the_same_games_with_several_jobs(tmp_path: Path) -> None:
    assert _play(tmp_path / "one", "--jobs", "1") == 0
    assert _play(tmp_path / "two", "--jobs", "3") == 0
    for i in range(1, 5):
        name = f"game-{i:05d}.json"
        assert (tmp_path / "one" / name).read_text() == (tmp_path / "two" / name).read_text()
    one = json.loads((tmp_path / "one" / "summary.json").read_text())
    two = json.loads((tmp_path / "two" / "summary.json").read_text())
    assert one == two


def test_it_removes_replays_of_an_earlier_longer_run(tmp_path: Path) -> None:
    assert _play(tmp_path, games=4) == 0
    assert _play(tmp_path, games=2) == 0
    assert sorted(p.name for p in tmp_path.glob("game-*")) == ["game-00001.json", "game-00002.json"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--variant", "chess", "--bots", "random,random"], "invalid choice: 'chess'"),
        (["--bots", "random,bogus"], "unknown bot 'bogus'"),
        (["--bots", "random"], "basic is played by 2 to 6 players, not 1"),
        (["--variant", "classic", "--bots", ",".join(["random"] * 11)], "not 11"),
        (["--bots", "random,random", "--games", "0"], "--games: must be at least 1"),
        (["--bots", "random,random", "--games", "many"], "expected a whole number"),
        (["--bots", "random,random", "--jobs", "0"], "--jobs: must be at least 1"),
        (["--bots", "heuristic:depth=2,random"], "bad heuristic option"),
        (["--bots", "random,,random"], "expected bot names separated by commas"),
    ],
)
def test_it_rejects_bad_play_arguments(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", *argv]) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert "Traceback" not in captured.err and captured.out == ""


def test_it_refuses_a_file_as_output_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "taken").write_text("x")
    assert main(["play", "--bots", "random,random", "--out", str(tmp_path / "taken")]) == 2
    assert "is not a folder" in capsys.readouterr().err


def test_verify_exits_1_on_a_tampered_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _play(tmp_path, games=2) == 0
    path = tmp_path / "game-00002.json"
    data = json.loads(path.read_text())
    data["turns"][3]["scores"][0] += 1
    path.write_text(json.dumps(data))
    capsys.readouterr()

    assert main(["replay", "verify", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"OK {tmp_path / 'game-00001.json'}" in out
    assert f"MISMATCH {path}" in out and "turn 4: scores after the turn" in out
    assert "2 replays: 1 ok, 1 mismatched, 0 unreadable" in out


def test_verify_exits_1_on_unreadable_or_missing_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    assert main(["replay", "verify", str(garbage), str(tmp_path / "missing.json")]) == 1
    out = capsys.readouterr().out
    assert f"UNREADABLE {garbage}" in out and "no such file" in out
    assert "2 replays: 0 ok, 0 mismatched, 2 unreadable" in out


def test_verify_reports_a_replay_it_cannot_re_simulate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _play(tmp_path, games=1) == 0
    path = tmp_path / "game-00001.json"
    data = json.loads(path.read_text())
    data["setup"]["hands"][0][0] = data["setup"]["hands"][1][0]  # a tile dealt twice
    path.write_text(json.dumps(data))
    assert main(["replay", "verify", str(path)]) == 1
    assert "Traceback" not in capsys.readouterr().err


def test_show_prints_the_game_turn_by_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _play(tmp_path, games=1) == 0
    capsys.readouterr()
    assert main(["replay", "show", str(tmp_path / "game-00001.json")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("basic+luck · 3 players · seed 11")
    assert all(f"Turn {n}:" in out for n in range(1, 25))
    assert "Result: #" in out


def test_show_explains_an_unreadable_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "show", str(tmp_path / "nope.json")]) == 1
    assert "not a readable replay" in capsys.readouterr().err


def test_it_needs_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "required: COMMAND" in capsys.readouterr().err
    assert main(["--help"]) == 0
    assert "play" in capsys.readouterr().out


def test_the_installed_console_script_plays_and_verifies(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "nimmt"
    if not script.exists():
        pytest.skip("the nimmt console script is not installed (pip install -e .)")
    argv = ["play", "--variant", "classic", "--bots", "heuristic,random", "--games", "3"]
    play = subprocess.run(
        [str(script), *argv, "--seed", "2", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert play.returncode == 0, play.stderr
    assert "3/3 games" in play.stderr  # not a terminal: plain progress lines
    assert "penalty ± 95% CI" in play.stdout
    verify = subprocess.run(
        [str(script), "replay", "verify", str(tmp_path)], capture_output=True, text=True
    )
    assert verify.returncode == 0, verify.stdout
    bad = subprocess.run([str(script), "play", "--bots", "nobody,random"], capture_output=True)
    assert bad.returncode == 2 and b"unknown bot 'nobody'" in bad.stderr
    assert b"Traceback" not in bad.stderr
