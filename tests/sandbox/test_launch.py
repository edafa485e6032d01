"""What launch() promises around the sandbox: truthful layers, clear refusals, uids of their
own, cgroups cleaned up, and the plain process of ``--unsafe-no-sandbox``."""

from __future__ import annotations

import json
import os
import secrets
import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from arena.sandbox import (
    LaunchSpec,
    SandboxUnavailable,
    bubblewrap,
    end_all,
    launch,
    layers,
    probe,
    require_isolation,
    uids,
)
from arena.sandbox.cgroups import find_hierarchy
from arena.sandbox.spec import AS_BACKSTOP_FACTOR
from arena.sandbox.uids import processes_of

from .conftest import MakeBot
from .support import Engine, cgroup_dirs_of, run_to_end, wait_for

MIB = 1024 * 1024


def _limit(pid: int, name: str) -> str:
    with open(f"/proc/{pid}/limits") as limits:
        for line in limits:
            if line.startswith(name):
                return line[len(name) :].split()[0]
    raise AssertionError(name)


def test_it_reports_the_layers_this_machine_gives(make_bot: MakeBot) -> None:
    found = layers()
    assert set(found) == {
        "bubblewrap",
        "network_cutoff",
        "readonly_root",
        "non_root_uid",
        "seccomp",
        "rlimits",
        "cgroup_memory",
        "cgroup_pids",
        "cpu",
    }
    assert found["bubblewrap"] == (shutil.which("bwrap") is not None)
    assert found["cgroup_memory"] == (find_hierarchy("memory") is not None)
    assert found["cgroup_pids"] == (find_hierarchy("pids") is not None)
    assert found["cpu"] == (find_hierarchy("cpu") is not None)

    bot = launch(make_bot("sleeper"))
    try:
        assert wait_for(lambda: "hello" in bot.log_text())
        assert bot.uid is not None and bot.uid != 0
        pids = processes_of(bot.uid)
        assert pids, "the bot runs under its uid"
        for pid in pids:
            where = cgroup_dirs_of(pid)
            assert ("nimmt-bot-" in where["memory"]) == found["cgroup_memory"]
            assert ("nimmt-bot-" in where["pids"]) == found["cgroup_pids"]
            assert ("nimmt-bot-" in where["cpu"]) == found["cpu"]
            if found["rlimits"]:
                space = 1024 * MIB * (AS_BACKSTOP_FACTOR if found["cgroup_memory"] else 1)
                assert _limit(pid, "Max address space") == str(space)
                assert _limit(pid, "Max processes") == str(64 + 2)
    finally:
        bot.kill()


def test_it_removes_the_cgroups_after_kill(make_bot: MakeBot) -> None:
    run_to_end(make_bot("sleeper"), timeout=0.3)

    for controller in ("memory", "pids"):
        hierarchy = find_hierarchy(controller)
        if hierarchy is not None:
            assert not list(hierarchy.parent.glob(f"nimmt-bot-{os.getpid()}-*"))


def test_it_gives_concurrent_bots_uids_of_their_own(make_bot: MakeBot) -> None:
    bots = [launch(make_bot("sleeper")) for _ in range(3)]
    try:
        assert len({bot.uid for bot in bots}) == 3
    finally:
        for bot in bots:
            bot.kill()
    assert all(processes_of(bot.uid) == [] for bot in bots if bot.uid is not None)


def test_it_ends_many_bots_at_once_with_one_look_at_proc(
    make_bot: MakeBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    bots = [launch(make_bot("double_fork", "stay")) for _ in range(4)]
    assert all(wait_for(lambda b=bot: "daemon" in b.log_text()) for bot in bots)
    scans: list[dict[int, list[int]]] = []
    real_scan = uids.processes_of_any

    def scan(wanted: set[int]) -> dict[int, list[int]]:
        scans.append(real_scan(wanted))
        return scans[-1]

    monkeypatch.setattr(uids, "processes_of_any", scan)

    end_all(bots)

    # Their cgroups held every process: one check that the uids are free, not one per bot. A
    # second look comes only when a process the cgroup killed was still on its way out (not
    # yet a zombie) at the first, seen under load; that look finds nothing.
    assert len(scans) in (1, 2), scans
    assert scans[-1] == {}, scans
    monkeypatch.undo()
    assert all(bot.uid is not None and processes_of(bot.uid) == [] for bot in bots)
    end_all(bots)  # ended already: nothing to do


def test_it_gives_the_uid_back_whatever_a_kill_raises(
    make_bot: MakeBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.sandbox import process

    leases: list[uids.UidLease] = []
    acquire_uid = uids.acquire_uid
    monkeypatch.setattr(uids, "acquire_uid", lambda: leases.append(acquire_uid()) or leases[-1])
    bot = launch(make_bot("double_fork", "stay"))
    assert wait_for(lambda: "daemon" in bot.log_text())

    def broken(self: object, timeout: float = 5.0) -> bool:
        raise OSError("the cgroup file system went away")

    monkeypatch.setattr(process.BotCgroup, "remove", broken)
    with pytest.raises(OSError, match="went away"):
        bot.kill()

    assert leases and not leases[0].held
    assert processes_of(leases[0].uid) == []  # the look at /proc killed what the cgroup held
    monkeypatch.undo()
    assert bot._cgroup is not None and bot._cgroup.remove()  # not left to the next test


def test_a_uid_given_back_unchecked_is_looked_at_before_it_is_leased_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("NIMMT_SANDBOX_STATE_DIR", str(tmp_path))
    monkeypatch.setenv("NIMMT_SANDBOX_UID_BASE", "64900")  # no test's bots run as these
    monkeypatch.setenv("NIMMT_SANDBOX_UID_COUNT", "2")
    scans = []
    real_pids = uids._pids
    monkeypatch.setattr(uids, "_pids", lambda: scans.append(1) or real_pids())
    first = uids.acquire_uid()
    assert len(scans) == 1  # a lock file nobody released clean yet
    first.release(clean=True)
    again = uids.acquire_uid()
    assert again.uid == first.uid and len(scans) == 1, "released clean: no look at /proc"
    again.release()
    uids.acquire_uid().release(clean=True)
    assert len(scans) == 2


@pytest.fixture
def without_bubblewrap(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("NIMMT_BWRAP", "/nonexistent/bwrap")
    bubblewrap.find_bwrap.cache_clear()
    probe._probe.cache_clear()
    yield
    monkeypatch.undo()
    bubblewrap.find_bwrap.cache_clear()
    probe._probe.cache_clear()


@pytest.mark.usefixtures("without_bubblewrap")
def test_it_refuses_untrusted_bots_without_bubblewrap(make_bot: MakeBot) -> None:
    assert layers()["bubblewrap"] is False
    assert layers()["network_cutoff"] is False
    with pytest.raises(SandboxUnavailable, match="apt-get install bubblewrap"):
        require_isolation()
    with pytest.raises(SandboxUnavailable, match="--unsafe-no-sandbox"):
        launch(make_bot("sleeper"))


def test_it_runs_a_plain_process_without_sandbox(make_bot: MakeBot, engine: Engine) -> None:
    spec = make_bot("whoami", sandbox=False, token="t0ken")

    done = run_to_end(spec)

    report = json.loads(done.log)
    assert done.uid is None
    assert report["uid"] == os.getuid()
    assert report["cwd"] == str(spec.bot_dir)
    assert report["work_visible"] is True
    assert report["env"]["NIMMT_ENGINE"] == f"unix://{engine.socket_path}"
    assert "NIMMT_TOKEN" not in report["env"]
    assert report["token"] == "t0ken" and report["token_mode"] == "0o600"
    assert not os.path.exists(report["env"]["NIMMT_TOKEN_FILE"])  # removed with the bot
    space = 1024 * MIB * (AS_BACKSTOP_FACTOR if layers()["cgroup_memory"] else 1)
    assert report["limits"]["RLIMIT_AS"] == [space, space]
    assert report["limits"]["RLIMIT_CPU"] == [300, 301]


def test_it_reaches_the_engine_without_sandbox(make_bot: MakeBot, engine: Engine) -> None:
    word = secrets.token_hex(4)

    done = run_to_end(make_bot("grpc_client", word, sandbox=False))

    assert f"reply: echo {word}" in done.log, done.log


def test_it_kills_the_plain_process_tree(make_bot: MakeBot) -> None:
    bot = launch(make_bot("double_fork", "stay", sandbox=False))
    assert wait_for(lambda: "daemon" in bot.log_text() and "parent done" in bot.log_text())
    daemon = int(bot.log_text().split("daemon ")[1].split()[0])

    bot.kill()

    if layers()["cgroup_pids"] or layers()["cgroup_memory"]:
        assert not os.path.exists(f"/proc/{daemon}") or _is_zombie(daemon)
    assert bot.poll() is not None


def _is_zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_it_explains_a_bot_folder_bot_uids_cannot_reach(make_bot: MakeBot) -> None:
    spec = make_bot("sleeper")
    private = spec.bot_dir.parent
    private.chmod(0o700)
    try:
        with pytest.raises(PermissionError, match=f"chmod o\\+x {private}"):
            launch(spec)
    finally:
        private.chmod(0o755)


def test_it_needs_the_engine_socket_first(make_bot: MakeBot) -> None:
    spec = replace(make_bot("sleeper"), socket_path=Path("/nonexistent/engine.sock"))

    with pytest.raises(FileNotFoundError, match="engine socket"):
        launch(spec)


def test_it_checks_the_spec() -> None:
    with pytest.raises(ValueError, match="command"):
        LaunchSpec(command=[], bot_dir=Path("."), socket_path=Path("s"), log_path=Path("l"))
    with pytest.raises(ValueError, match="env"):
        LaunchSpec(
            command=["x"],
            bot_dir=Path("."),
            socket_path=Path("s"),
            log_path=Path("l"),
            env={"BAD NAME": "1"},
        )
