"""Helpers of the sandbox tests: run a bot to its end and look at what it left."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from arena.sandbox import BotProcess, LaunchSpec, launch
from arena.sandbox.uids import processes_of


@dataclass
class Engine:
    """A gRPC server on a host Unix socket answering ``/nimmt.test.Echo/Echo``."""

    socket_path: Path
    calls: list[bytes] = field(default_factory=list)


@dataclass
class Finished:
    """A bot run to its end (or killed at the deadline), with what it left."""

    status: int | None
    log: str
    uid: int | None
    peak_memory_mb: float | None
    limit_exceeded: str | None
    left_behind: list[int]


def run_to_end(spec: LaunchSpec, timeout: float = 20.0) -> Finished:
    """Launch, wait up to ``timeout`` (then kill), and report."""
    bot = launch(spec)
    try:
        status = bot.wait(timeout)
    finally:
        bot.kill()
    return finish_report(bot, status)


def finish_report(bot: BotProcess, status: int | None) -> Finished:
    return Finished(
        status=status,
        log=bot.log_text(),
        uid=bot.uid,
        peak_memory_mb=bot.peak_memory_mb,
        limit_exceeded=bot.limit_exceeded,
        left_behind=processes_of(bot.uid) if bot.uid is not None else [],
    )


def cgroup_dirs_of(pid: int) -> dict[str, str]:
    """Controller -> cgroup path of a process, from ``/proc/<pid>/cgroup``."""
    found = {}
    with open(f"/proc/{pid}/cgroup") as lines:
        for line in lines:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            for name in controllers.split(","):
                found[name] = path
    return found


def wait_for(predicate: Callable[[], bool], timeout: float = 10.0) -> bool:
    """Poll ``predicate`` until true or ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()
