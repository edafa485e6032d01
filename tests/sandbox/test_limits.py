"""A bot cannot take more than its limits: CPU, memory, processes, log output."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from arena.sandbox import BotProcess, Limits, cgroups, launch, layers, process
from arena.sandbox.capped_log import HEAD_BYTES, TAIL_BYTES
from arena.sandbox.spec import FALLBACK_NICE
from arena.sandbox.uids import processes_of

from .conftest import MakeBot
from .support import cgroup_dirs_of, run_to_end, wait_for


def test_it_stops_an_endless_loop_at_the_cpu_limit(make_bot: MakeBot) -> None:
    done = run_to_end(make_bot("cpu_loop", limits=Limits(cpu_seconds=1)), timeout=15)

    assert done.status == 128 + signal.SIGXCPU
    assert done.limit_exceeded == "cpu_seconds"
    assert "spinning" in done.log
    assert done.left_behind == []


def test_it_kills_an_endless_loop_on_demand(make_bot: MakeBot) -> None:
    bot = launch(make_bot("cpu_loop"))
    assert wait_for(lambda: "spinning" in bot.log_text())
    assert bot.poll() is None

    started = time.monotonic()
    bot.kill()

    assert time.monotonic() - started < 2
    assert bot.poll() == 128 + signal.SIGKILL
    assert bot.uid is not None and processes_of(bot.uid) == []
    bot.kill()  # idempotent


def test_it_refuses_a_4_gb_allocation(make_bot: MakeBot) -> None:
    done = run_to_end(make_bot("big_alloc"))

    assert done.status == 3, done.log
    assert "MemoryError" in done.log
    assert "ALLOCATED" not in done.log


@pytest.mark.skipif(not layers()["cgroup_memory"], reason="no usable memory cgroup here")
def test_a_python_grpc_bot_can_touch_900_mb_of_its_1024(make_bot: MakeBot) -> None:
    done = run_to_end(make_bot("grpc_alloc", "900", "50"), timeout=60)

    assert done.status == 0, done.log
    assert "grpc reply: b'echo up'" in done.log
    assert "HELD 900 MB" in done.log
    assert done.peak_memory_mb is not None and 900 < done.peak_memory_mb <= 1024
    assert done.limit_exceeded is None


@pytest.mark.skipif(not layers()["cgroup_memory"], reason="no usable memory cgroup here")
def test_a_python_grpc_bot_touching_1_5_gb_is_killed_at_its_limit(make_bot: MakeBot) -> None:
    done = run_to_end(make_bot("grpc_alloc", "1536", "16"), timeout=60)

    assert done.status == 128 + signal.SIGKILL, done.log
    assert done.limit_exceeded == "memory_mb"
    assert done.peak_memory_mb is not None and done.peak_memory_mb <= 1024
    got = int(done.log.rsplit("touched ", 1)[1].split()[0])
    print(f"a Python gRPC bot touched {got} MB of its 1024 MB before the OOM killer ended it")
    assert 900 <= got < 1024
    assert done.left_behind == []


@pytest.mark.skipif(not layers()["cgroup_memory"], reason="no usable memory cgroup here")
def test_it_bounds_the_memory_of_all_processes_together(make_bot: MakeBot) -> None:
    # Three processes of 150 MB each fit their RLIMIT_AS of 256 MB but not the cgroup's.
    spec = make_bot("memory_hog", "3", "150", limits=Limits(memory_mb=256))

    done = run_to_end(spec, timeout=30)

    assert done.limit_exceeded == "memory_mb", done.log
    assert done.peak_memory_mb is not None and 200 < done.peak_memory_mb <= 256
    assert done.left_behind == []


def test_it_reports_peak_memory(make_bot: MakeBot) -> None:
    done = run_to_end(make_bot("sleeper"), timeout=0.5)

    if layers()["cgroup_memory"]:
        assert done.peak_memory_mb is not None and 1 < done.peak_memory_mb < 200
    else:
        assert done.peak_memory_mb is None


def test_it_bounds_a_fork_bomb_and_kills_all_of_it(make_bot: MakeBot) -> None:
    limits = Limits(processes=16)
    bot = launch(make_bot("fork_bomb", limits=limits))
    try:
        assert wait_for(lambda: "fork failed" in bot.log_text(), timeout=10), bot.log_text()
        assert bot.uid is not None
        # The two bubblewrap processes are counted on top of the bot's own.
        for _ in range(20):
            assert len(processes_of(bot.uid)) <= limits.processes + 2
            time.sleep(0.02)
    finally:
        bot.kill()
    assert processes_of(bot.uid) == []


def test_it_caps_a_flood_of_output_keeping_head_and_tail(make_bot: MakeBot) -> None:
    spec = make_bot("flood", "8")

    done = run_to_end(spec, timeout=30)

    assert done.status == 0
    assert done.log.startswith("HEAD-START\n")
    assert done.log.endswith("TAIL-END\n")
    assert "bytes cut ...]" in done.log
    cut = int(done.log.split("[... ")[1].split(" bytes cut")[0])
    assert (
        cut == len("HEAD-START\n") + 8 * 1024 * 1024 + len("TAIL-END\n") - HEAD_BYTES - TAIL_BYTES
    )
    on_disk = spec.log_path.read_text()
    assert on_disk == done.log
    assert len(on_disk) < HEAD_BYTES + TAIL_BYTES + 100


def test_it_stops_a_file_at_the_file_size_limit(make_bot: MakeBot) -> None:
    done = run_to_end(make_bot("big_file", "8", limits=Limits(file_size_mb=2)))

    # Python ignores SIGXFSZ, so the write fails with EFBIG instead of killing the bot.
    assert done.status == 5
    assert "write failed: EFBIG" in done.log


def test_it_bounds_the_private_tmp(make_bot: MakeBot) -> None:
    done = run_to_end(make_bot("big_file", "8", limits=Limits(tmpfs_mb=4)))

    assert done.status == 5
    assert "write failed: ENOSPC" in done.log


@pytest.fixture
def without_memory_cgroup(monkeypatch: pytest.MonkeyPatch) -> None:
    """Launch as on a machine without a usable memory controller."""
    rest = tuple(name for name in cgroups.CONTROLLERS if name != "memory")
    monkeypatch.setattr(cgroups, "CONTROLLERS", rest)
    monkeypatch.setattr(process, "CONTROLLERS", rest)


@pytest.mark.usefixtures("without_memory_cgroup")
def test_without_a_memory_cgroup_the_address_space_limit_bounds_the_bot(
    make_bot: MakeBot,
) -> None:
    done = run_to_end(make_bot("grpc_alloc", "1536", "16"), timeout=60)

    assert done.status == 3, done.log
    assert done.peak_memory_mb is None
    got = int(done.log.split("MemoryError after ")[1].split()[0])
    print(f"without a memory cgroup, a Python gRPC bot got {got} MB of its 1024 MB")
    assert 300 < got < 1024
    assert done.left_behind == []


def _cpu_used_over(bot: BotProcess, wall: float) -> float:
    """Cores' worth of CPU the bot used over ``wall`` seconds, from its cgroup."""
    before, started = bot.cpu_seconds, time.monotonic()
    time.sleep(wall)
    after, ended = bot.cpu_seconds, time.monotonic()
    assert before is not None and after is not None
    return (after - before) / (ended - started)


@pytest.mark.skipif(not layers()["cpu"], reason="no usable cpu cgroup here")
@pytest.mark.parametrize("cpus", [0.1, 0.5])
def test_a_bot_spinning_many_processes_gets_only_its_cpus(make_bot: MakeBot, cpus: float) -> None:
    bot = launch(make_bot("spinners", "4", limits=Limits(cpus=cpus)))
    try:
        assert wait_for(lambda: bot.log_text().count("spinning") == 4), bot.log_text()

        used = _cpu_used_over(bot, 2.0)

        print(f"4 spinning processes with Limits(cpus={cpus}) used {used:.2f} cores")
        assert used <= cpus * 1.15 + 0.05
        if cpus == 0.1:  # surely less than 4 spinners get, however busy the machine is
            assert bot.cpu_throttled is not None and bot.cpu_throttled > 0
    finally:
        bot.kill()
    assert bot.uid is not None and processes_of(bot.uid) == []


@pytest.mark.skipif(not layers()["cpu"], reason="no usable cpu cgroup here")
def test_a_bot_gets_one_core_by_default(make_bot: MakeBot) -> None:
    bot = launch(make_bot("sleeper"))
    try:
        assert wait_for(lambda: "hello" in bot.log_text())
        hierarchy = cgroups.find_hierarchy("cpu")
        assert hierarchy is not None
        dirs = cgroup_dirs_of(bot.pid)
        where = hierarchy.parent / Path(dirs["cpu" if hierarchy.version == 1 else ""]).name

        if hierarchy.version == 1:
            quota = int((where / "cpu.cfs_quota_us").read_text())
            period = int((where / "cpu.cfs_period_us").read_text())
        else:
            quota, period = map(int, (where / "cpu.max").read_text().split())

        assert quota / period == Limits().cpus == 1.0
    finally:
        bot.kill()


@pytest.fixture
def without_cpu_cgroup(monkeypatch: pytest.MonkeyPatch) -> None:
    """Launch as on a machine without a usable cpu controller."""
    rest = tuple(name for name in cgroups.CONTROLLERS if name not in ("cpu", "cpuacct"))
    monkeypatch.setattr(cgroups, "CONTROLLERS", rest)
    monkeypatch.setattr(process, "CONTROLLERS", rest)


def _nice(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as stat:
        return int(stat.read().rsplit(")", 1)[1].split()[16])


@pytest.mark.usefixtures("without_cpu_cgroup")
def test_without_a_cpu_cgroup_the_bot_runs_at_a_lower_priority(make_bot: MakeBot) -> None:
    bot = launch(make_bot("spinners", "3"))
    try:
        assert wait_for(lambda: bot.log_text().count("spinning") == 3), bot.log_text()
        assert bot.uid is not None

        nices = {_nice(pid) for pid in processes_of(bot.uid)}

        assert nices == {FALLBACK_NICE}
        assert bot.cpu_seconds is None
    finally:
        bot.kill()


def test_a_bot_runs_as_a_batch_process_and_can_neither_raise_its_priority_nor_run_in_real_time(
    make_bot: MakeBot,
) -> None:
    done = run_to_end(make_bot("priority"))

    report = json.loads(done.log)
    assert report["raise"] == "PermissionError"
    assert report["fifo"] == "PermissionError"
    assert report["policy"] == os.SCHED_BATCH  # it never preempts the referee that wakes it
