"""The sandbox's hardening seen from a match: the token never shows in the process list, the
seccomp filter refuses or kills, one seat's CPU hunger does not slow the others, and a bot gets
the memory it was promised and no more.

Each test plays a short real match, the bots in the real sandbox over real gRPC, and ends with
the match finished, every game's replay verifying, the fault (if any) in the replay, and nothing
of any bot left running (``play`` checks the last by ``/proc``).
"""

import contextlib
import platform
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena import sandbox
from arena.engine.replay import verify
from arena.runner.match import MatchResult

from .conftest import faults_of, fixture_bot, in_process_random, needs_bwrap, play

pytestmark = needs_bwrap

x86_64_only = pytest.mark.skipif(
    platform.machine() != "x86_64", reason="the fixture makes x86_64 system calls"
)


@pytest.fixture
def tokens(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The token of every bot the runner launches, as it launches it."""
    seen: list[str] = []
    launch = sandbox.launch

    def recording_launch(spec: sandbox.LaunchSpec) -> sandbox.BotProcess:
        seen.append(spec.token)
        return launch(spec)

    monkeypatch.setattr(sandbox, "launch", recording_launch)
    return seen


@contextlib.contextmanager
def process_list_watch(secrets: list[str]) -> Iterator[dict[str, Any]]:
    """Every 20 ms while the block runs, every process's command line and environment, searched
    for any of ``secrets`` (as root: what any local user could read of their own, and more)."""
    found: dict[str, Any] = {"scans": 0, "hits": []}
    stop = threading.Event()

    def look() -> None:
        while not stop.wait(0.02):
            wanted = [secret.encode() for secret in secrets if secret]
            if not wanted:
                continue
            for entry in Path("/proc").iterdir():
                if not entry.name.isdigit():
                    continue
                for name in ("cmdline", "environ"):
                    with contextlib.suppress(OSError):
                        data = (entry / name).read_bytes()
                        if any(secret in data for secret in wanted):
                            found["hits"].append(f"{entry}/{name}")
            found["scans"] += 1

    thread = threading.Thread(target=look, name="process-list-watch", daemon=True)
    thread.start()
    try:
        yield found
    finally:
        stop.set()
        thread.join()


def finished(result: MatchResult) -> None:
    """The match ran to its end: every game's replay verifies."""
    for index, replay in enumerate(result.replays):
        assert verify(replay) == [], f"game {index + 1} does not verify"


def log_of(tmp_path: Path, name: str) -> str:
    return (tmp_path / "logs" / f"{name}.log").read_text()


def report_of(result: MatchResult, name: str) -> Any:
    return next(bot for bot in result.bots if bot.name == name)


# ----------------------------------------------------------------------------- the token


def test_no_process_list_shows_a_token_while_the_bots_play(tmp_path, tokens):
    lineup = [fixture_bot("plain-random"), fixture_bot("garbage"), in_process_random("random")]

    with process_list_watch(tokens) as watch:
        result = play(lineup, tmp_path, games=3)

    finished(result)
    assert len(tokens) == 2 and all(len(token) > 20 for token in tokens)
    assert watch["scans"] >= 2, "the watch looked while the bots ran"
    assert watch["hits"] == []
    # Both read their token from $NIMMT_TOKEN_FILE and were let in: they played every game.
    assert report_of(result, "plain-random").faults == ()
    assert report_of(result, "plain-random").answers > 0
    assert report_of(result, "garbage").answers > 0


# ----------------------------------------------------------------------------- seccomp


@x86_64_only
def test_a_bot_refused_dangerous_system_calls_plays_on_without_a_fault(tmp_path):
    lineup = [fixture_bot("syscall-probe"), fixture_bot("plain-random")]

    result = play(lineup, tmp_path)

    finished(result)
    log = log_of(tmp_path, "syscall-probe")
    for name in ("io_uring_setup", "keyctl", "add_key", "ptrace", "unshare", "mount", "bpf"):
        assert f"syscall-probe: {name} EPERM" in log, log
    assert "playing on" in log
    assert all(bot.faults == () and bot.dropped is None for bot in result.bots)


@x86_64_only
def test_a_bot_making_a_32_bit_system_call_is_killed_and_recorded_as_a_crash(tmp_path):
    lineup = [fixture_bot("ia32-call"), fixture_bot("plain-random")]

    result = play(lineup, tmp_path)

    finished(result)
    log = log_of(tmp_path, "ia32-call")
    assert "ia32-call: int 0x80" in log
    assert "survived" not in log
    faults = faults_of(result, "ia32-call")
    assert (faults[0]["game"], faults[0]["kind"], faults[0]["turn"]) == (0, "crash", 1), faults
    assert f"status {128 + signal.SIGSYS}" in faults[0]["detail"], faults
    assert "seccomp filter killed it" in faults[0]["detail"], faults
    assert {f["kind"] for f in faults} == {"crash"}  # game 2: the seat of a crashed bot
    bot = report_of(result, "ia32-call")
    assert bot.dropped is not None and bot.dropped.kind == "crash"
    assert bot.program.exit_code == 128 + signal.SIGSYS
    assert report_of(result, "plain-random").faults == ()


# ----------------------------------------------------------------------------- CPU


def test_a_bot_spinning_four_processes_does_not_slow_the_other_seat(tmp_path):
    """The figure printed is the well-behaved bot's answer times with the spinner beside it;
    benchmarks/cpu_isolation.py compares with and without the quota."""
    if not sandbox.layers()["cpu"]:
        pytest.skip("no cpu cgroup here")
    settings = {"games": 3, "decision_ms": 2000, "bank_ms": 0}
    alone = play(
        [fixture_bot("plain-random"), in_process_random("random")], tmp_path / "a", **settings
    )
    beside = play(
        [fixture_bot("spinners"), fixture_bot("plain-random"), in_process_random("random")],
        tmp_path / "b",
        **settings,
    )

    finished(beside)
    assert "spinners: 4 spinning" in log_of(tmp_path / "b", "spinners")
    calm = report_of(beside, "plain-random")
    print(
        f"\nplain-random's answers: alone mean {report_of(alone, 'plain-random').think_mean_ms:.1f}"
        f" max {report_of(alone, 'plain-random').think_max_ms:.1f} ms; beside 4 spinning "
        f"processes mean {calm.think_mean_ms:.1f} max {calm.think_max_ms:.1f} ms"
    )
    assert calm.faults == () and calm.dropped is None
    assert calm.think_mean_ms is not None and calm.think_mean_ms < 50  # generous: ~5 ms alone
    assert calm.think_max_ms < 500


# ----------------------------------------------------------------------------- memory


def test_a_bot_holding_900_mb_plays_the_whole_match(tmp_path):
    if not sandbox.layers()["cgroup_memory"]:
        pytest.skip("no memory cgroup here: RLIMIT_AS alone allows a gRPC bot about 540 MB")
    lineup = [fixture_bot("hold-900mb"), fixture_bot("plain-random")]

    result = play(lineup, tmp_path)

    finished(result)
    assert "hold-900mb: holding 900 MB" in log_of(tmp_path, "hold-900mb")
    bot = report_of(result, "hold-900mb")
    assert bot.faults == () and bot.dropped is None
    assert bot.program.peak_memory_mb is not None and 900 < bot.program.peak_memory_mb <= 1024


def test_a_bot_touching_more_than_its_memory_is_killed_as_a_crash_and_the_match_goes_on(
    tmp_path,
):
    if not sandbox.layers()["cgroup_memory"]:
        pytest.skip("no memory cgroup here")
    lineup = [fixture_bot("oom-1500mb"), fixture_bot("plain-random"), in_process_random("r")]

    result = play(lineup, tmp_path, decision_ms=5000)  # time to reach the limit

    finished(result)
    log = log_of(tmp_path, "oom-1500mb")
    touched = [int(line.split()[2]) for line in log.splitlines() if "touched" in line]
    assert 900 <= max(touched) < 1024, log  # killed at its limit
    faults = faults_of(result, "oom-1500mb")
    assert (faults[0]["game"], faults[0]["kind"], faults[0]["turn"]) == (0, "crash", 1), faults
    assert "its memory_mb limit" in faults[0]["detail"]
    assert {f["kind"] for f in faults} == {"crash"}  # game 2: the seat of a crashed bot
    bot = report_of(result, "oom-1500mb")
    assert bot.dropped is not None and bot.dropped.kind == "crash"
    assert bot.program.exit_code == 128 + signal.SIGKILL
    assert bot.program.peak_memory_mb <= 1024
    assert report_of(result, "plain-random").faults == ()
