"""``nimmt replay view FILE``: the site's viewer for a local replay, served on 127.0.0.1 by the
command itself (started as a user starts it), its page, script and the engine's frames."""

import contextlib
import json
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main
from arena.engine.frames import frames
from arena.engine.replay import read

ROOT = Path(__file__).resolve().parents[1]
VIEWER_JS = ROOT / "platform" / "matches" / "static" / "matches" / "viewer.js"


@pytest.fixture
def replay_file(tmp_path: Path) -> Path:
    argv = ["play", "--variant", "pro+luck", "--bots", "heuristic,random,random", "--games", "1"]
    assert main([*argv, "--seed", "4", "--out", str(tmp_path), "-q"]) == 0
    return tmp_path / "game-00001.json"


@contextlib.contextmanager
def serve(*argv: str) -> Iterator[str]:
    """``nimmt replay view ...`` running: the address it printed."""
    code = f"from arena.cli import main; raise SystemExit(main({list(argv)!r}))"
    process = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert "http://127.0.0.1:" in line, (line, process.stderr and process.stderr.read())
        yield line.split(" is at ")[1].split()[0]
    finally:
        process.terminate()
        process.wait(10)


def get(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers["Content-Type"], response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read()


def test_it_serves_the_sites_viewer_and_the_engines_frames_of_the_replay_on_localhost(
    replay_file: Path,
) -> None:
    replay = read(replay_file)
    with serve("replay", "view", str(replay_file), "--seat", "2") as url:
        assert url.startswith("http://127.0.0.1:") and url.endswith("/#seat=2&turn=0")
        base = url.split("#")[0]
        status, kind, page = get(base)
        assert status == 200 and kind.startswith("text/html")
        html = page.decode()
        assert 'data-frames-url="/frames.json"' in html and 'data-act="seat"' in html
        assert '<script src="/static/matches/viewer.js"' in html
        status, kind, script = get(base + "static/matches/viewer.js")
        assert status == 200 and script == VIEWER_JS.read_bytes()  # the site's own file
        assert get(base + "static/core/site.css")[0] == 200
        status, kind, body = get(base + "frames.json")
        assert status == 200 and kind == "application/json"
        assert json.loads(body) == json.loads(json.dumps(frames(replay).to_json()))
        seen: dict[str, Any] = json.loads(get(base + "frames.json?seat=2")[2])
        assert seen == json.loads(json.dumps(frames(replay, seat=2).to_json()))
        assert json.loads(get(base + "replay.json")[2]) == replay.to_json()
        status, _kind, body = get(base + "frames.json?seat=3")
        assert status == 400 and b"seat must be a seat number from 0 to 2" in body
        for elsewhere in ("../pyproject.toml", "static/../../pyproject.toml", "platform"):
            assert get(base + elsewhere)[0] == 404
        # A page elsewhere whose name points at 127.0.0.1 (DNS rebinding) is refused.
        rebound = urllib.request.Request(base + "replay.json", headers={"Host": "evil.example"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(rebound, timeout=10)
        assert refused.value.code == 403


def test_it_refuses_a_seat_the_game_lacks_and_a_replay_that_does_not_verify(
    replay_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "view", str(replay_file), "--seat", "3"]) == 2
    assert "this game has seats 0 to 2" in capsys.readouterr().err
    tampered = json.loads(replay_file.read_text())
    tampered["turns"][1]["scores"][0] += 1
    (tmp_path / "bad.json").write_text(json.dumps(tampered))
    assert main(["replay", "view", str(tmp_path / "bad.json")]) == 1
    assert "does not verify" in capsys.readouterr().err
    assert main(["replay", "view", str(tmp_path / "missing.json")]) == 1
