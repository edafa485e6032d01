"""Warm bot processes kept between matches: a bounded pool, keyed by bot version, per worker.

Starting a sandboxed bot costs more CPU than a short match's decisions (a Python bot: ~190 ms,
mostly its imports). A :class:`WarmPool` keeps the processes of bots whose kit *stays*
(``Hello.stays``) after a match, frozen, and hands each to a later match of the same bot:

- a process is only ever handed to the same :class:`PoolKey` (the program's folder, command,
  environment, limits and trust: one bot version of one owner), and never to a match whose
  deals it was already dealt (:attr:`Warm.deals`; a duplicate match's seat rotations are
  played by different processes, each of which may come back for a later match it has not
  seen the deals of);
- only a process that ended its match in good standing comes back (no fault, no drop, alive,
  under its limits, frozen in time): :class:`~arena.runner.lineup.Lineup` decides that;
- between matches it is frozen (its freezer cgroup: no CPU time at all) and thawed for its
  next match; it is ended (through its cgroups, :func:`arena.sandbox.end_all`) when the pool
  is over :attr:`WarmPool.size` (the least recently used first), idle for
  :attr:`WarmPool.idle_s`, has played :attr:`WarmPool.max_matches` matches or used half of its
  CPU-time limit (the rlimit counts its whole life), and when the pool closes;
- if the process that holds the pool dies without closing it, a small watcher it started
  (:class:`_Watcher`, a shell waiting on a pipe) thaws the frozen bots, whose bubblewrap then
  dies with its parent, taking every process of the bot with it.

The CLI's matches take no pool (each ``nimmt match`` is one-shot); the site's match workers keep
one per process (``NIMMT_WARM_BOTS``).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from arena import sandbox
from arena.sandbox.cgroups import find_hierarchy

#: What a key is made of: the program's folder, command, environment, limits and trust.
PoolKey = tuple[object, ...]


@dataclass(eq=False)
class Warm:
    """One kept process: what it was dealt, how many matches it played, since when it waits."""

    key: PoolKey
    process: sandbox.BotProcess
    deals: set[int] = field(default_factory=set)
    matches: int = 0
    idle_since: float = 0.0
    #: The process's CPU-time rlimit (seconds: ``Limits.cpu_seconds``), which counts its life.
    cpu_limit: float = float(sandbox.Limits().cpu_seconds)


class WarmPool:
    """The warm processes of one worker process (thread-safe). ``size``: at most this many
    kept at once; ``idle_s``: a process idle this long is ended; ``max_matches``: a process
    plays at most this many matches."""

    def __init__(self, size: int = 8, idle_s: float = 300.0, max_matches: int = 50) -> None:
        if size < 0 or idle_s <= 0 or max_matches < 1:
            raise ValueError(f"WarmPool({size}, {idle_s}, {max_matches}): out of range")
        self.size = size
        self.idle_s = idle_s
        self.max_matches = max_matches
        self._kept: list[Warm] = []  # least recently used first
        self._lock = threading.Lock()
        self._closed = False
        self._root: Path | None = None
        self._watcher: _Watcher | None = None
        self._sweeper: threading.Thread | None = None
        self._wake = threading.Event()
        atexit.register(self.close)

    # -- for the line-up

    def seat_dir(self) -> Path:
        """A new folder (0711) for a reusable process's socket and token; the process's end
        removes it."""
        with self._lock:
            if self._root is None:
                remove_stale_folders()
                self._root = Path(tempfile.mkdtemp(prefix=f"nimmt-warm-{os.getpid()}-"))
                self._root.chmod(0o711)
            folder = Path(tempfile.mkdtemp(prefix="seat-", dir=self._root))
        folder.chmod(0o711)
        return folder

    def take(self, key: PoolKey, deals: Iterable[int]) -> Warm | None:
        """A kept process of ``key`` that was dealt none of ``deals`` (the most recently kept
        one), out of the pool and still frozen; None if there is none."""
        wanted = set(deals)
        self._sweep()
        with self._lock:
            for warm in reversed(self._kept):
                if warm.key == key and not warm.deals & wanted:
                    self._kept.remove(warm)
                    return warm
        return None

    def give(self, warm: Warm) -> bool:
        """Keep ``warm`` (which just played a match in good standing) for a later match: frozen,
        or ended if it cannot be frozen, is worn out or the pool is closed; True if kept."""
        process = warm.process
        worn = warm.matches >= self.max_matches or _half_cpu_spent(process, warm.cpu_limit)
        if self._closed or self.size == 0 or worn or process.poll() is not None:
            _end([process])
            return False
        self._watch()
        if not process.freeze():
            _end([process])
            return False
        warm.idle_since = time.monotonic()
        with self._lock:
            if self._closed:
                evicted = [warm]
            else:
                self._kept.append(warm)
                evicted = self._kept[: max(0, len(self._kept) - self.size)]
                del self._kept[: len(evicted)]
        _end(w.process for w in evicted)
        self._start_sweeper()
        return warm not in evicted

    def discard(self, warm: Warm) -> None:
        """End a process taken from the pool that will not play (it did not come back)."""
        _end([warm.process])

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)

    def processes(self) -> list[sandbox.BotProcess]:
        """The kept processes (least recently used first)."""
        with self._lock:
            return [warm.process for warm in self._kept]

    def close(self) -> None:
        """End every kept process and remove the pool's folder (idempotent)."""
        with self._lock:
            self._closed = True
            kept, self._kept = self._kept, []
        self._wake.set()
        _end(w.process for w in kept)
        if self._root is not None:
            shutil.rmtree(self._root, ignore_errors=True)
        if self._watcher is not None:
            self._watcher.stop()

    # -- bounds

    def _sweep(self) -> None:
        """End the processes idle for longer than :attr:`idle_s`."""
        cutoff = time.monotonic() - self.idle_s
        with self._lock:
            stale = [warm for warm in self._kept if warm.idle_since < cutoff]
            self._kept = [warm for warm in self._kept if warm not in stale]
        _end(w.process for w in stale)

    def _start_sweeper(self) -> None:
        with self._lock:
            if self._sweeper is not None or self._closed:
                return
            self._sweeper = threading.Thread(target=self._sweeping, name="warm-pool", daemon=True)
        self._sweeper.start()

    def _sweeping(self) -> None:
        while not self._wake.wait(max(0.05, self.idle_s / 4)):
            self._sweep()

    def _watch(self) -> None:
        with self._lock:
            if self._watcher is None:
                self._watcher = _Watcher.start()


def remove_stale_folders() -> None:
    """Remove the folders of pools whose process is gone (``nimmt-warm-<pid>-...``: a worker
    killed before it could close its pool leaves its seats' sockets and tokens)."""
    for folder in Path(tempfile.gettempdir()).glob("nimmt-warm-*-*"):
        creator = folder.name.split("-")[2]
        if creator.isdigit() and not os.path.exists(f"/proc/{creator}"):
            shutil.rmtree(folder, ignore_errors=True)


def _half_cpu_spent(process: sandbox.BotProcess, limit: float) -> bool:
    """Whether the process used half of its CPU-time rlimit ``limit`` (which counts its whole
    life, so a kept process would otherwise be killed by it in some later match)."""
    used = process.cpu_seconds
    return used is not None and used > limit / 2


def _end(processes: Iterable[sandbox.BotProcess]) -> None:
    batch = list(processes)
    if batch:
        with contextlib.suppress(Exception):
            sandbox.end_all(batch)


class _Watcher:
    """A shell that waits for the end of a pipe whose other end only this process holds: when
    this process dies (even by SIGKILL), it thaws the process's frozen bots, which then die with
    their parent (bubblewrap's ``--die-with-parent``: the kill waits while they are frozen)."""

    SCRIPT = (
        'read -r _; for state in "$1"/nimmt-bot-"$2"-*/freezer.state; do '
        '[ -f "$state" ] && echo THAWED > "$state"; done; exit 0'
    )

    def __init__(self, popen: subprocess.Popen[bytes] | None, write_fd: int | None) -> None:
        self._popen = popen
        self._write_fd = write_fd

    @classmethod
    def start(cls) -> _Watcher:
        hierarchy = find_hierarchy("freezer")
        if hierarchy is None or hierarchy.version != 1:  # v2's frozen tasks die of SIGKILL
            return cls(None, None)
        read_fd, write_fd = os.pipe()
        os.set_inheritable(write_fd, False)
        try:
            popen = subprocess.Popen(
                [
                    "/bin/sh",
                    "-c",
                    cls.SCRIPT,
                    "nimmt-warm-watch",
                    str(hierarchy.parent),
                    str(os.getpid()),
                ],
                stdin=read_fd,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        finally:
            os.close(read_fd)
        return cls(popen, write_fd)

    def stop(self) -> None:
        if self._write_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._write_fd)
            self._write_fd = None
        if self._popen is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._popen.wait(2.0)
