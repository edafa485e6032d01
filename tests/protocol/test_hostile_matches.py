"""Hostile bot programs that attack the machine rather than the protocol, each in a short real
match: the bot in the real sandbox against house bots, over real gRPC on a real Unix socket.

The sandbox tests (``tests/sandbox``) show each attack failing for a bare program; these show
that a match survives it. Every test checks the same promises: the match completes and every
game's replay verifies; the other bots play every game without a fault; the fault is recorded
with the right kind, or there is none when the sandbox simply refuses the attack and the bot
plays on; no process of the bot is left (its uid runs nothing, by ``/proc``); and nothing is
written outside (the bot's folder, the bot runtime and the match folder hold what they should).
"""

import contextlib
import json
import os
import re
import secrets
import signal
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import arena.engine.game
from arena import sandbox
from arena.engine.replay import verify
from arena.runner.manifest import load
from arena.runner.match import Entrant, MatchResult
from arena.sandbox.capped_log import HEAD_BYTES, TAIL_BYTES
from arena.sandbox.runtime import STAMP_NAME
from arena.sandbox.uids import processes_of

from .conftest import BOTS, faults_of, fixture_bot, in_process_random, needs_bwrap, play

pytestmark = needs_bwrap

MIB = 1024 * 1024
#: Bounds on a whole hostile match (a few games of basic): it must not hang on the bot.
MATCH_SECONDS = 20


# ----------------------------------------------------------------------------- helpers


Launched = dict[str, sandbox.BotProcess]


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> Launched:
    """Every bot the runner starts, by name, as it starts (to look at its uid mid-match)."""
    started: Launched = {}
    launch = sandbox.launch

    def recording_launch(spec: sandbox.LaunchSpec) -> sandbox.BotProcess:
        process = launch(spec)
        started[spec.log_path.stem] = process
        return process

    monkeypatch.setattr(sandbox, "launch", recording_launch)
    return started


def files_under(*folders: Path) -> dict[str, tuple[int, int, int]]:
    """Path -> (mode, size, mtime) of everything under ``folders`` (the runtime's stamp aside:
    the runner touches it to say the runtime is in use)."""
    found = {}
    for folder in folders:
        for root, dirs, files in os.walk(folder):
            for name in [*dirs, *files]:
                if name != STAMP_NAME:
                    path = os.path.join(root, name)
                    info = os.lstat(path)
                    found[path] = (info.st_mode, info.st_size, info.st_mtime_ns)
    return found


def hostile_match(
    name: str, tmp_path: Path, env: dict[str, str] | None = None, **settings: Any
) -> tuple[MatchResult, str]:
    """Play ``bots/<name>`` against a sandboxed and an in-process random bot (``play`` checks
    that no process of any bot is left); check the promises every hostile match keeps; return
    the result and the hostile bot's log."""
    hostile = Entrant(name, program=load(BOTS / name), env=env or {})
    lineup = [hostile, fixture_bot("plain-random"), in_process_random("random")]
    untouched = [BOTS / name, BOTS / "plain-random", sandbox.ensure_runtime()]
    before = files_under(*untouched)

    result = play(lineup, tmp_path, **settings)

    assert result.duration_s < MATCH_SECONDS
    assert result.sandbox.enabled is True
    for index, replay in enumerate(result.replays):
        assert verify(replay) == [], f"game {index + 1} does not verify"
    for bot in result.bots[1:]:  # the others played on, unharmed
        assert bot.faults == (), bot
        assert bot.dropped is None, bot
    assert files_under(*untouched) == before
    games = {f"game-{i + 1:05d}.json" for i in range(len(result.replays))}
    assert {p.name for p in tmp_path.iterdir()} == {*games, "match.json", "logs"}
    assert {p.name for p in (tmp_path / "logs").iterdir()} == {f"{name}.log", "plain-random.log"}
    return result, (tmp_path / "logs" / f"{name}.log").read_text()


@contextlib.contextmanager
def census(launched: Launched, name: str) -> Iterator[list[list[str]]]:
    """Every 10 ms while the block runs, the command lines of the processes of bot ``name``'s
    uid (once it has started, until it exits)."""
    samples: list[list[str]] = []
    stop = threading.Event()

    def look() -> None:
        while not stop.wait(0.01):
            bot = launched.get(name)
            if bot is not None and bot.uid is not None and bot.poll() is None:
                samples.append(command_lines(bot.uid))

    thread = threading.Thread(target=look, name="process-census", daemon=True)
    thread.start()
    try:
        yield samples
    finally:
        stop.set()
        thread.join()


def command_lines(uid: int) -> list[str]:
    """The command lines of the live processes of ``uid``."""
    lines = []
    for pid in processes_of(uid):
        with contextlib.suppress(OSError):
            lines.append(Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode())
    return lines


# ----------------------------------------------------------------------------- the attacks


def test_it_refuses_4_gb_and_records_a_crash_only_when_the_bot_lets_the_error_escape(tmp_path):
    result, log = hostile_match("alloc-4gb", tmp_path)

    # Game 1: RLIMIT_AS refuses the 4 GB at once; the bot catches the MemoryError, plays on.
    assert "alloc-4gb: MemoryError, 4 GB refused; playing on" in log
    assert "ALLOCATED" not in log
    # Game 2: the same MemoryError escapes decide(): the kit exits 3, a crash on turn 2.
    faults = faults_of(result, "alloc-4gb")
    assert [(f["game"], f["kind"], f["turn"]) for f in faults] == [(1, "crash", 1)]
    assert "exited with status 3" in faults[0]["detail"]
    assert "MemoryError" in faults[0]["detail"]
    assert "the bot's decide() raised MemoryError" in log
    bot = result.bots[0]
    assert bot.dropped is not None and bot.dropped.kind == "crash" and bot.dropped.game == 2
    assert bot.program is not None and bot.program.exit_code == 3
    if bot.program.peak_memory_mb is not None:  # a memory cgroup saw it: nothing was touched
        assert bot.program.peak_memory_mb < 256


def test_it_bounds_a_fork_bomb_then_drops_the_bot_and_kills_every_process(tmp_path, launched):
    limits = sandbox.Limits()
    with census(launched, "fork-bomb") as samples:
        result, log = hostile_match("fork-bomb", tmp_path)

    assert "fork-bomb: bombing" in log
    assert "fork-bomb: fork failed: Resource temporarily unavailable" in log
    # It multiplied, but never beyond its limit (its own processes + the two of bubblewrap).
    assert max(len(sample) for sample in samples) <= limits.processes + 2
    assert max(sum("bomb.py" in line for line in sample) for sample in samples) >= 10
    # The bomb never answers again: timeouts on turns 2, 3, 4, dropped, then absent in game 2.
    faults = faults_of(result, "fork-bomb")
    assert [(f["game"], f["kind"], f["turn"]) for f in faults] == [
        (0, "timeout", 1),
        (0, "timeout", 2),
        (0, "timeout", 3),
        (1, "timeout", 0),
    ]
    bot = result.bots[0]
    assert bot.dropped is not None and bot.dropped.game == 1 and "3 faults" in bot.dropped.detail
    assert bot.program is not None
    # Killed by the arena at the drop (once, in a loaded run of the whole suite, the status was
    # 1 instead: the log's last lines say what the bot did last).
    last = log.splitlines()[-5:]
    assert bot.program.exit_code == 128 + signal.SIGKILL, (bot.program.exit_code, last)
    # Beyond play()'s check of the uid: not one piece of the bomb is left.
    assert not any("bomb.py" in line for line in command_lines(bot.program.uid))


def test_it_keeps_the_bot_off_the_hosts_loopback(tmp_path):
    with (
        socket.create_server(("127.0.0.1", 0)) as tcp,
        socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp,
    ):
        udp.bind(("127.0.0.1", 0))
        tcp.setblocking(False)
        udp.setblocking(False)
        tcp_port, udp_port = tcp.getsockname()[1], udp.getsockname()[1]
        env = {"ESCAPE_TCP_PORT": str(tcp_port), "ESCAPE_UDP_PORT": str(udp_port)}

        result, log = hostile_match("tcp-escape", tmp_path, env=env)

        with pytest.raises(BlockingIOError):  # nobody knocked: a connection would be queued
            tcp.accept()
        with pytest.raises(BlockingIOError):  # no datagram arrived
            udp.recvfrom(64)
    assert "tcp-escape: interfaces: lo\n" in log  # loopback only, its own
    assert f"connect to 127.0.0.1:{tcp_port} failed: ConnectionRefusedError" in log
    assert "CONNECTED" not in log
    assert result.sandbox.layers["network_cutoff"] is True
    assert faults_of(result, "tcp-escape") == []  # the attempt costs the bot nothing


def test_it_hides_the_engine_the_host_and_the_other_bots_from_the_bot(tmp_path):
    secret = [
        arena.engine.game.__file__,  # the engine's own source, on the host
        str(Path(arena.engine.game.__file__).parents[2]),  # the project
        "/root",
        "/etc/shadow",
        "/home",
        "/var/log",
        str(BOTS / "plain-random" / "bot.py"),  # another bot's code
        str(tmp_path),  # the match folder: replays, the other bots' logs
        "/run/nimmt-sandbox",
        "/sys/fs/cgroup",
    ]
    allowed = ["/bot/bot.py", "/etc/passwd", "/tmp"]
    env = {"ESCAPE_PATHS": json.dumps([*secret, *allowed])}

    result, log = hostile_match("read-outside", tmp_path, env=env)

    for path in secret:
        assert re.search(f"DENIED {re.escape(path)} (ENOENT|EACCES)\n", log), path
    for path in allowed:
        assert f"READ {path}\n" in log
    assert faults_of(result, "read-outside") == []  # then it played normally


def test_it_lets_the_bot_write_only_to_its_private_tmp(tmp_path):
    name = f"escape-{secrets.token_hex(4)}"
    protected = ["/bot", "/", "/usr", "/usr/local", "/etc", "/run/nimmt", "/opt/nimmt/runtime"]
    env = {"ESCAPE_NAME": name, "ESCAPE_FOLDERS": json.dumps([*protected, "/tmp", "/dev/shm"])}

    result, log = hostile_match("write-outside", tmp_path, env=env)

    for folder in protected:
        assert re.search(f"DENIED {re.escape(folder)} (EROFS|EACCES)\n", log), folder
    assert "WROTE /tmp\n" in log and "WROTE /dev/shm\n" in log
    assert faults_of(result, "write-outside") == []
    host = ["/", "/tmp", "/dev/shm", "/var/tmp", "/root", "/usr", "/usr/local", "/etc", "/run"]
    host += [str(BOTS / "write-outside"), str(tmp_path), str(sandbox.ensure_runtime())]
    for folder in host:
        assert not os.path.exists(os.path.join(folder, name)), folder


def test_it_caps_a_flood_of_output_and_times_the_others_as_usual(tmp_path):
    megabytes = 400
    # A bank for the flooder's wait for its child on turn 1 of game 2, whatever the machine.
    settings = {"games": 3, "decision_ms": 200, "bank_ms": 5000}

    result, log = hostile_match("flood", tmp_path, env={"FLOOD_MB": str(megabytes)}, **settings)

    head, cut, tail = re.split(r"\n\[\.\.\. (\d+) bytes cut \.\.\.\]\n", log)
    assert len(head) == HEAD_BYTES and len(tail) == TAIL_BYTES
    assert "in the match" in head.partition("\n")[0]  # the bot's first words
    assert "FLOOD-START\n" in head
    assert megabytes * MIB - HEAD_BYTES - TAIL_BYTES < int(cut) < (megabytes + 1) * MIB
    assert "FLOOD-END\n" in tail and "flood: flood.py exited with 0" in tail
    assert tail.rstrip().endswith("0 faults")  # the kit's last words: "match over: ..."
    assert faults_of(result, "flood") == []
    # The runner drained hundreds of MB and still timed the other program's answers as usual.
    other = result.bots[1]
    assert other.think_max_ms < settings["decision_ms"], other


def test_it_ends_a_daemon_the_bot_leaves_in_a_session_of_its_own(tmp_path, launched):
    with census(launched, "daemon") as samples:
        result, log = hostile_match("daemon", tmp_path)

    assert "daemon: the sleeper is loose; playing on" in log
    sleeper = re.search(r"daemon: sleeper \d+ in session (\d+), the bot's is (\d+)\n", log)
    assert sleeper is not None and sleeper[1] != sleeper[2]  # in a session of its own
    # Mid-match the sleeper ran beside the bot; it outlived none of it.
    assert any("sleeper.py" in line for sample in samples for line in sample)
    assert faults_of(result, "daemon") == []
    uid = result.bots[0].program.uid if result.bots[0].program else None
    assert not any("sleeper.py" in line for line in command_lines(uid))
