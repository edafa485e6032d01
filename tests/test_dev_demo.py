"""``./dev demo`` as a newcomer runs it: the demo league's site answers, and stopping the script
stops every process it started (the server, supervisord's workers and beat, the gateway and
its private Redis), none left running without it."""

import contextlib
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def in_session(session: int) -> list[int]:
    """The processes of ``session`` (the demo's, which it started in a session of its own)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        fields = stat.rsplit(")", 1)[1].split()  # after "pid (comm)": state, ppid, pgrp, sid
        if fields[0] != "Z" and int(fields[3]) == session:
            found.append(int(entry.name))
    return found


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return bool(response.status == 200)
    except OSError:
        return False


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_the_demo_answers_and_stopping_the_script_stops_all_it_started(
    tmp_path: Path, stop: signal.Signals
) -> None:
    address = f"127.0.0.1:{free_port()}"
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("NIMMT_", "DJANGO_", "PYTEST_"))
    }
    env |= {
        "NIMMT_VAR_DIR": str(tmp_path / "var"),
        "NIMMT_GATEWAY_ADDRESS": "127.0.0.1:0",  # the kernel's pick: no other test's port
    }
    with (tmp_path / "demo.log").open("wb") as log:
        demo = subprocess.Popen(
            [str(REPO / "dev"), "demo", address],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        limit = time.monotonic() + 240
        while not answers(f"http://{address}/"):
            assert demo.poll() is None, (tmp_path / "demo.log").read_text()
            assert time.monotonic() < limit, "the demo's site did not answer within 240 s"
            time.sleep(1)
        started = in_session(demo.pid)
        assert len(started) >= 5, started  # the script, server, supervisord and its programs
        demo.send_signal(stop)  # to the script alone, as `kill` or Ctrl-C in its terminal
        demo.wait(timeout=90)
        limit = time.monotonic() + 30
        while (left := in_session(demo.pid)) and time.monotonic() < limit:
            time.sleep(0.5)
        assert not left, [Path(f"/proc/{pid}/cmdline").read_bytes() for pid in left]
        assert not answers(f"http://{address}/")
    finally:  # whatever a failure left: every process of the demo's session
        for pid in in_session(demo.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        demo.wait(timeout=30)
