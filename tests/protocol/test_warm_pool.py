"""Warm bot processes kept between matches (arena.runner.pool): a process comes back only to
its own bot version, never for a deal it was dealt, never after a fault; it is frozen while it
waits, ended with whatever it started, and nothing is left when the pool's process dies."""

import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.runner.manifest import load
from arena.runner.match import Entrant, MatchConfig, MatchResult, run_match
from arena.runner.pool import WarmPool
from arena.sandbox.cgroups import find_hierarchy

from .conftest import BOTS, FAST, house, needs_bwrap
from .test_duplicate_deals import REMEMBERS_DEALS, dealt

pytestmark = needs_bwrap


@pytest.fixture
def pool() -> Iterator[WarmPool]:
    kept = WarmPool(size=8)
    yield kept
    kept.close()


def match(
    entrants: list[Entrant], out: Path, pool: WarmPool, seed: int, **settings: Any
) -> MatchResult:
    config = MatchConfig(
        **{"variant": "basic", "games": 2, "seed": seed, **FAST, **settings}, out=out
    )
    return run_match(config, entrants, pool=pool)


def pids(result: MatchResult) -> dict[str, int]:
    return {b.name: b.program.pid for b in result.bots if b.program and b.program.pid}


def cpu_of(pid: int) -> float:
    """CPU seconds of the bot's cgroup (the freezer's: every process the bot started)."""
    hierarchy = find_hierarchy("cpuacct")
    assert hierarchy is not None
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if "cpuacct" in controllers.split(","):
            usage = Path("/sys/fs/cgroup/cpuacct", path.lstrip("/"), "cpuacct.usage")
            return int(usage.read_text()) / 1e9
    raise AssertionError("no cpuacct cgroup")


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_it_hands_a_kept_process_to_the_next_match_of_the_same_bot(
    tmp_path: Path, pool: WarmPool
) -> None:
    first = match([house("random"), house("random", copy=2)], tmp_path / "a", pool, 1)
    assert len(pool) == 2
    for bot in first.bots:  # what the bot wrote after the match's end is in that match's log
        log = (tmp_path / "a" / "logs" / f"{bot.name}.log").read_text()
        assert "keeps this process for another match" in log, log
    second = match([house("random"), house("random", copy=2)], tmp_path / "b", pool, 1001)
    assert set(pids(first).values()) == set(pids(second).values())
    for bot in second.bots:
        assert bot.faults == () and bot.dropped is None
        # the process's output of this match is in this match's log; a kept process plays on
        # the framed socket of its new seat as a new one does
        log = (tmp_path / "b" / "logs" / f"{bot.name}.log").read_text()
        assert "in the match" in log and "(framed socket)" in log, log


def test_it_never_hands_a_process_to_another_bot_version(tmp_path: Path, pool: WarmPool) -> None:
    first = match([house("random"), house("heuristic")], tmp_path / "a", pool, 1)
    second = match([house("heuristic"), house("random")], tmp_path / "b", pool, 1001)
    assert pids(first)["random"] == pids(second)["random"]
    assert pids(first)["heuristic"] == pids(second)["heuristic"]
    other = match(
        [Entrant("plain", program=load(BOTS / "plain-random")), house("heuristic")],
        tmp_path / "c",
        pool,
        2001,
    )
    assert pids(other)["plain"] not in pids(second).values()


def test_it_never_hands_a_process_a_deal_it_was_dealt(tmp_path: Path, pool: WarmPool) -> None:
    first = match([house("random"), house("random", copy=2)], tmp_path / "a", pool, 1, games=4)
    # seeds 3 and 4 were dealt in the first match (game i is dealt from seed + i)
    again = match([house("random"), house("random", copy=2)], tmp_path / "b", pool, 3)
    assert not set(pids(first).values()) & set(pids(again).values())


def test_a_bot_that_remembers_deals_sees_none_twice_across_kept_duplicate_matches(
    tmp_path: Path, pool: WarmPool
) -> None:
    def lineup() -> list[Entrant]:
        return [Entrant(n, program=load(REMEMBERS_DEALS)) for n in ("ann", "ben", "cat")]

    pool.size = 12
    processes: dict[str, set[str]] = {}
    for number, seed in enumerate((1, 1001, 2001)):
        out = tmp_path / str(number)
        result = match(lineup(), out, pool, seed, games=6, duplicate=True)
        for bot in result.bots:
            assert bot.faults == () and bot.dropped is None, bot
            log = (out / f"logs/{bot.name}.log").read_text("utf-8")
            assert "REPEAT" not in log, log
            per_process = dealt(log)
            assert len(per_process) == 3, log  # a process per seat rotation, as without a pool
            processes.setdefault(bot.name, set()).update(per_process)
    # kept processes came back (3 matches of 3 rotations did not take 9 processes each)
    assert all(len(names) < 9 for names in processes.values()), processes


def test_a_process_with_a_fault_is_not_kept(tmp_path: Path, pool: WarmPool) -> None:
    faulty = Entrant("faulty", program=load(BOTS / "stays-faulty"))
    result = match([faulty, house("random")], tmp_path / "a", pool, 1)
    faults = {b.name: b.faults for b in result.bots}
    assert faults["faulty"] and not faults["random"]
    assert [p.pid for p in pool.processes()] == [pids(result)["random"]]
    assert not alive(pids(result)["faulty"])


def test_a_bot_whose_kit_does_not_stay_is_not_kept_and_exits_as_before(
    tmp_path: Path, pool: WarmPool
) -> None:
    old = Entrant("old", program=load(BOTS / "stays-never"))
    result = match([old, house("random")], tmp_path / "a", pool, 1)
    [bot] = [b for b in result.bots if b.name == "old"]
    assert bot.faults == () and bot.dropped is None
    assert bot.program is not None and bot.program.exit_code == 0
    # A kit that knows only gRPC plays on the seat's gRPC socket, sandboxed as ever.
    assert "(gRPC)" in (tmp_path / "a" / "logs" / "old.log").read_text()
    assert [p.pid for p in pool.processes()] == [pids(result)["random"]]


def test_a_kept_process_gets_no_cpu_while_it_waits(tmp_path: Path, pool: WarmPool) -> None:
    burner = Entrant("burner", program=load(BOTS / "stays-burning"))
    result = match([burner, house("random")], tmp_path / "a", pool, 1)
    pid = pids(result)["burner"]
    assert pid in [p.pid for p in pool.processes()]
    before = cpu_of(pid)
    time.sleep(1.0)
    assert cpu_of(pid) - before < 0.01
    again = match([burner, house("random")], tmp_path / "b", pool, 1001)
    assert pids(again)["burner"] == pid  # thawed, it came back (and burns again)


def test_a_child_that_outlives_the_match_end_is_frozen_and_ended_with_its_bot(
    tmp_path: Path, pool: WarmPool
) -> None:
    forker = Entrant("forker", program=load(BOTS / "stays-forking"))
    result = match([forker, house("random")], tmp_path / "a", pool, 1)
    pid = pids(result)["forker"]
    [process] = [p for p in pool.processes() if p.pid == pid]
    cgroup = process._cgroup
    assert cgroup is not None
    time.sleep(0.3)
    members = cgroup.pids()
    before = cpu_of(pid)
    time.sleep(0.5)
    assert cpu_of(pid) - before < 0.01  # the spinning child is frozen too
    pool.close()
    assert not [p for p in members if alive(p)]


def test_a_bot_that_does_not_come_back_gets_a_new_process(tmp_path: Path, pool: WarmPool) -> None:
    away = Entrant("away", program=load(BOTS / "stays-away"))
    first = match([away, house("random")], tmp_path / "a", pool, 1)
    old = pids(first)["away"]
    assert old in [p.pid for p in pool.processes()]
    started = time.monotonic()
    second = match([away, house("random")], tmp_path / "b", pool, 1001)
    for bot in second.bots:
        assert bot.faults == () and bot.dropped is None, bot
    assert pids(second)["away"] != old and not alive(old)
    assert time.monotonic() - started < 15


def test_it_bounds_the_pool_and_ends_the_least_recently_used(tmp_path: Path) -> None:
    small = WarmPool(size=1)
    try:
        first = match([house("random"), house("heuristic")], tmp_path / "a", small, 1)
        assert len(small) == 1
        dropped = [p for p in pids(first).values() if p not in [k.pid for k in small.processes()]]
        assert len(dropped) == 1 and not alive(dropped[0])
    finally:
        small.close()
    assert not any(alive(p) for p in pids(first).values())


def test_it_ends_a_process_that_played_its_last_match(tmp_path: Path) -> None:
    once = WarmPool(size=4, max_matches=2)
    try:
        first = match([house("random"), house("random", copy=2)], tmp_path / "a", once, 1)
        second = match([house("random"), house("random", copy=2)], tmp_path / "b", once, 1001)
        assert set(pids(first).values()) == set(pids(second).values())
        assert len(once) == 0  # two matches each: worn out, ended
        assert not any(alive(p) for p in pids(second).values())
    finally:
        once.close()


def test_it_ends_a_process_idle_for_too_long(tmp_path: Path) -> None:
    brief = WarmPool(size=4, idle_s=0.4)
    try:
        result = match([house("random"), house("random", copy=2)], tmp_path / "a", brief, 1)
        deadline = time.monotonic() + 10
        kept = pids(result).values()
        while (len(brief) or any(map(alive, kept))) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(brief) == 0
        assert not any(alive(p) for p in pids(result).values())
    finally:
        brief.close()


WORKER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    sys.path.insert(0, {root!r})
    sys.path.insert(0, {tests!r})
    from protocol.conftest import house
    from arena.runner.match import MatchConfig, run_match
    from arena.runner.pool import WarmPool
    pool = WarmPool(size=4)
    config = MatchConfig("basic", 2, 1, decision_ms=200, bank_ms=300, out=Path({out!r}))
    result = run_match(config, [house("random"), house("random", copy=2)], pool=pool)
    print(" ".join(str(q) for p in pool.processes() for q in p._cgroup.pids()), flush=True)
    time.sleep(600)
    """
)


def test_a_worker_killed_with_sigkill_leaves_no_bot_behind(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parent.parent.parent
    code = WORKER.format(root=str(root), tests=str(root / "tests"), out=str(tmp_path / "out"))
    worker = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=os.environ.copy()
    )
    try:
        assert worker.stdout is not None
        kept = [int(p) for p in worker.stdout.readline().split()]
        assert len(kept) >= 4 and all(alive(p) for p in kept)  # bwrap's two, the bot...
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait()
        deadline = time.monotonic() + 10
        while any(alive(p) for p in kept) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(alive(p) for p in kept)
        # its seats' folder (sockets, tokens) goes when the next pool makes its own
        left = list(Path(tempfile.gettempdir()).glob(f"nimmt-warm-{worker.pid}-*"))
        assert left
        successor = WarmPool()
        successor.seat_dir()
        successor.close()
        assert not any(folder.exists() for folder in left)
    finally:
        worker.kill()
