"""A sandboxed bot sees and touches nothing but its folder, its /tmp and the engine socket."""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import arena
from arena.sandbox import launch
from arena.sandbox.runtime import STAMP_NAME, ensure_runtime
from arena.sandbox.uids import processes_of

from .conftest import MakeBot
from .support import Engine, run_to_end, wait_for

BOT_ENV = ["PATH", "HOME", "TMPDIR", "LANG", "NIMMT_ENGINE", "PYTHONUNBUFFERED"]
BOT_ENV += ["PYTHONDONTWRITEBYTECODE", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"]
BOT_ENV += ["GRPC_EXPERIMENTS"]  # gRPC's transport engine, as the runner's
BOT_ENV += ["NIMMT_TOKEN_FILE", "JAVA_TOOL_OPTIONS"]
BOT_ENV += ["GOMAXPROCS"]  # Go sizes its threads by Limits.cpus, not the machine's cores


def test_it_runs_the_bot_as_a_uid_of_its_own(make_bot: MakeBot) -> None:
    done = run_to_end(make_bot("whoami"))

    report = json.loads(done.log)
    assert done.uid is not None and done.uid != 0
    assert report["uid"] == report["euid"] == done.uid
    assert report["gid"] != 0 and 0 not in report["groups"]
    assert report["cwd"] == "/bot"


def test_it_gives_the_bot_a_clean_environment(make_bot: MakeBot) -> None:
    spec = make_bot("whoami", env={"COLOUR": "red"})

    env = json.loads(run_to_end(spec).log)["env"]

    assert env["NIMMT_ENGINE"] == "unix:///run/nimmt/engine.sock"
    assert env["NIMMT_TOKEN_FILE"] == "/run/nimmt/token"
    assert env["JAVA_TOOL_OPTIONS"] == "-XX:MaxRAM=1024m"  # the JVM cannot see the cgroup
    assert env["COLOUR"] == "red"
    assert env["HOME"] == "/tmp"
    assert env["PATH"].startswith("/opt/nimmt/runtime/bin:")
    assert set(env) - {"PWD"} == set(BOT_ENV) | {"COLOUR"}  # nothing from the host
    assert env["GRPC_EXPERIMENTS"] == os.environ["GRPC_EXPERIMENTS"] == arena.GRPC_EXPERIMENTS


def test_it_cuts_the_network_off_even_from_host_loopback(make_bot: MakeBot) -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        server.setblocking(False)
        port = server.getsockname()[1]

        done = run_to_end(make_bot("tcp_escape", str(port)))

        with pytest.raises(BlockingIOError):  # nobody knocked: a connection would be queued
            server.accept()
    assert "interfaces: lo\n" in done.log
    assert done.status == 4, done.log
    assert "connect failed: ConnectionRefusedError" in done.log


def test_it_reaches_the_engine_over_grpc(make_bot: MakeBot, engine: Engine) -> None:
    word = secrets.token_hex(4)

    done = run_to_end(make_bot("grpc_client", word))

    assert done.status == 0, done.log
    assert f"reply: echo {word}" in done.log
    assert word.encode() in engine.calls


def test_it_hides_everything_outside_the_bot_folder(make_bot: MakeBot) -> None:
    source = Path(__file__).resolve().parents[2] / "arena" / "__init__.py"
    spec = make_bot("read_outside")
    secrets_on_host = [
        str(source),
        "/work",
        "/root",
        "/etc/shadow",
        "/home",
        "/var/log",
        str(spec.bot_dir.parent),  # the host side of the bot's own folder
        str(ensure_runtime()),
        "/sys/fs/cgroup",
        "/run/nimmt-sandbox",
    ]
    allowed = ["/bot/bot.py", "/etc/passwd", "/usr/lib", "/opt/nimmt/runtime/bin", "/tmp"]
    spec = make_bot("read_outside", *secrets_on_host, *allowed)

    done = run_to_end(spec)

    for path in secrets_on_host:
        assert f"DENIED {path} " in done.log, done.log
    for path in allowed:
        assert f"READ {path}\n" in done.log, done.log


def test_it_lets_the_bot_write_only_to_its_tmpfs(make_bot: MakeBot) -> None:
    name = f"escape-{secrets.token_hex(4)}"
    protected = ["/bot", "/", "/usr", "/usr/local", "/etc", "/opt/nimmt/runtime", "/run/nimmt"]
    protected += ["/dev", "/proc"]
    spec = make_bot("write_outside", name, *protected, "/tmp", "/dev/shm")
    before = sorted(os.listdir(spec.bot_dir))

    done = run_to_end(spec)

    for folder in protected:
        assert f"DENIED {folder} " in done.log, done.log
    assert "WROTE /tmp\n" in done.log
    assert "WROTE /dev/shm\n" in done.log
    assert sorted(os.listdir(spec.bot_dir)) == before


def test_it_writes_nothing_outside(make_bot: MakeBot) -> None:
    name = f"escape-{secrets.token_hex(4)}"
    spec = make_bot("write_outside", name, "/tmp", "/dev/shm", "/bot", "/var/tmp", "/root")
    runtime = ensure_runtime()

    def snapshot() -> set[tuple[str, int, int]]:
        found = set()
        for folder in (spec.bot_dir, runtime):
            for root, _dirs, files in os.walk(folder):
                for file in set(files) - {STAMP_NAME}:  # the runner marks the runtime in use
                    info = os.lstat(os.path.join(root, file))
                    found.add((os.path.join(root, file), info.st_size, info.st_mtime_ns))
        return found

    before = snapshot()
    done = run_to_end(spec)

    assert "WROTE /tmp\n" in done.log
    assert snapshot() == before
    for host_folder in ("/tmp", "/dev/shm", "/var/tmp", "/root", "/", str(spec.bot_dir)):
        assert not os.path.exists(os.path.join(host_folder, name)), host_folder
    assert {p.name for p in spec.log_path.parent.iterdir()} == {"bot", "bot.log"}


def test_it_kills_a_daemon_left_by_double_fork_and_setsid(make_bot: MakeBot) -> None:
    bot = launch(make_bot("double_fork", "stay"))
    assert wait_for(lambda: "parent done" in bot.log_text() and "daemon" in bot.log_text())
    assert bot.uid is not None and len(processes_of(bot.uid)) >= 2

    bot.kill()

    assert processes_of(bot.uid) == []


def _states(uid: int) -> set[str]:
    states = set()
    for pid in processes_of(uid):
        try:
            with open(f"/proc/{pid}/stat") as stat:
                states.add(stat.read().rsplit(")", 1)[1].split()[0])
        except OSError:
            pass
    return states


def test_it_kills_stopped_and_uninterruptible_processes_through_the_cgroup(
    make_bot: MakeBot,
) -> None:
    bot = launch(make_bot("stop_and_hide"))
    try:
        assert wait_for(lambda: "ready" in bot.log_text()), bot.log_text()
        uid = bot.uid
        assert uid is not None
        assert wait_for(lambda: {"T", "D"} <= _states(uid)), _states(uid)
    finally:
        bot.kill()

    assert processes_of(uid) == []


def test_it_ends_the_daemons_when_the_bot_exits(make_bot: MakeBot) -> None:
    bot = launch(make_bot("double_fork"))
    try:
        assert bot.wait(10) == 0
        # The bot's pid namespace dies with it: the daemon goes too, before any kill().
        assert bot.uid is not None
        assert wait_for(lambda: processes_of(bot.uid) == [], timeout=2)  # type: ignore[arg-type]
    finally:
        bot.kill()


RUNNER = """
import sys, time
from pathlib import Path
from arena.sandbox import LaunchSpec, launch
bot_dir, socket_path, log_path = map(Path, sys.argv[1:])
# "stay": the bot lives on beside its daemon (without it, the bot may exit before the daemon
# has written its line, and its pid namespace takes the daemon with it)
bot = launch(LaunchSpec(["python3", "bot.py", "stay"], bot_dir, socket_path, log_path))
print(bot.uid, flush=True)
time.sleep(60)
"""


def test_it_does_not_let_a_bot_outlive_its_runner(make_bot: MakeBot) -> None:
    spec = make_bot("double_fork", "stay")
    args = [str(spec.bot_dir), str(spec.socket_path), str(spec.log_path)]
    runner = subprocess.Popen([sys.executable, "-c", RUNNER, *args], stdout=subprocess.PIPE)
    try:
        assert runner.stdout is not None
        uid = int(runner.stdout.readline())
        assert wait_for(lambda: "daemon" in spec.log_path.read_text())
    finally:
        runner.kill()
        runner.wait()

    assert wait_for(lambda: processes_of(uid) == [], timeout=5)


def test_it_shows_no_host_boot_line_load_or_local_installs(make_bot: MakeBot) -> None:
    done = run_to_end(make_bot("host_view"))

    assert "/proc/cmdline: nimmt-bot\n" in done.log, done.log
    assert "/proc/loadavg: 0.00 0.00 0.00 1/1 1\n" in done.log
    assert "/usr/local: []\n" in done.log
    with open("/proc/cmdline") as host:
        assert host.read().strip() not in done.log
