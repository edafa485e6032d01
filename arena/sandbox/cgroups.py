"""Per-bot cgroups: a memory limit, a process limit and a CPU quota on all of a bot's processes
together, the list of every pid to kill at the end, the peak memory and the CPU time used.

Which controllers are usable is detected at run time: a cgroup v1 hierarchy mounted for the
controller (e.g. ``/sys/fs/cgroup/memory``), or the v2 unified hierarchy if the controller is
enabled for the children of the cgroup this process sits in. A bot's cgroup is created as a
child of this process's own cgroup in each usable hierarchy (once per hierarchy: v1 often
mounts ``cpu`` and ``cpuacct`` together, v2 has no ``cpuacct``: ``cpu.stat`` counts usage).
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

CONTROLLERS: tuple[str, ...] = ("memory", "pids", "cpu", "cpuacct", "freezer")
#: How long :meth:`BotCgroup.freeze` waits for every process to be frozen (seconds).
FREEZE_WAIT = 2.0
#: The CFS period of a bot's CPU quota, in microseconds (the kernel's default).
CFS_PERIOD_US = 100_000


@dataclass(frozen=True)
class Hierarchy:
    """Where children of our own cgroup go for one controller."""

    controller: str
    version: int
    parent: Path


def _own_cgroups() -> dict[str, str]:
    """Controller name (``""`` for v2) -> path of this process's cgroup in that hierarchy."""
    own: dict[str, str] = {}
    with open("/proc/self/cgroup") as lines:
        for line in lines:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            for name in controllers.split(",") if controllers else [""]:
                own[name] = path
    return own


def cgroup_mounts() -> list[tuple[Path, str, str, set[str]]]:
    """``(mount point, root inside the hierarchy, fstype, super options)`` of cgroup mounts."""
    mounts = []
    with open("/proc/self/mountinfo") as lines:
        for line in lines:
            fields = line.split()
            sep = fields.index("-")
            fstype, options = fields[sep + 1], fields[sep + 3]
            if fstype in ("cgroup", "cgroup2"):
                point = Path(fields[4].replace("\\040", " "))
                mounts.append((point, fields[3], fstype, set(options.split(","))))
    return mounts


def _under(own: str, root: str) -> str | None:
    """``own`` relative to the mount's ``root``, or None if the mount does not show it."""
    if root == "/":
        return own.lstrip("/")
    if own == root or own.startswith(root.rstrip("/") + "/"):
        return own[len(root) :].lstrip("/")
    return None


@functools.cache
def find_hierarchy(controller: str) -> Hierarchy | None:
    """The usable hierarchy for ``controller`` on this machine, or None."""
    try:
        own, mounts = _own_cgroups(), cgroup_mounts()
    except OSError:
        return None
    for point, root, fstype, options in mounts:
        if fstype == "cgroup2" and "" in own:
            rel = _under(own[""], root)
            if rel is None:
                continue
            parent = point / rel
            try:
                enabled = (parent / "cgroup.subtree_control").read_text().split()
            except OSError:
                continue
            if controller in enabled and os.access(parent, os.W_OK):
                return Hierarchy(controller, 2, parent)
        elif fstype == "cgroup" and controller in options and controller in own:
            rel = _under(own[controller], root)
            if rel is not None and os.access(point / rel, os.W_OK):
                return Hierarchy(controller, 1, point / rel)
    return None


def _read_counter(path: Path, key: str) -> int | None:
    """The value of ``key`` in a flat-keyed file like ``memory.events``."""
    try:
        for line in path.read_text().splitlines():
            name, _, value = line.partition(" ")
            if name == key:
                return int(value)
    except (OSError, ValueError):
        pass
    return None


class BotCgroup:
    """The cgroups (one per usable controller) of one bot."""

    def __init__(self, dirs: dict[str, tuple[Hierarchy, Path]]) -> None:
        self.dirs = dirs

    @classmethod
    def create(
        cls, name: str, *, memory_bytes: int, max_pids: int, cpus: float | None = None
    ) -> BotCgroup:
        """New cgroups called ``name`` in every usable hierarchy, with these limits (``cpus``:
        cores' worth of CPU time, None for no quota)."""
        cgroup = cls({})
        try:
            for controller in CONTROLLERS:
                hierarchy = find_hierarchy(controller)
                if hierarchy is None:
                    continue
                path = hierarchy.parent / name
                if all(path != made for _, made in cgroup.dirs.values()):
                    path.mkdir()
                cgroup.dirs[controller] = (hierarchy, path)
            cgroup._set_limits(memory_bytes, max_pids)
            if cpus is not None:
                cgroup._set_cpu_quota(cpus)
        except OSError:
            cgroup.remove()
            raise
        return cgroup

    def _set_cpu_quota(self, cpus: float) -> None:
        if "cpu" not in self.dirs:
            return
        hierarchy, path = self.dirs["cpu"]
        quota = max(1000, round(cpus * CFS_PERIOD_US))  # the kernel's minimum is 1 ms
        if hierarchy.version == 1:
            (path / "cpu.cfs_period_us").write_text(str(CFS_PERIOD_US))
            (path / "cpu.cfs_quota_us").write_text(str(quota))
        else:
            (path / "cpu.max").write_text(f"{quota} {CFS_PERIOD_US}")

    def _set_limits(self, memory_bytes: int, max_pids: int) -> None:
        if "memory" in self.dirs:
            hierarchy, path = self.dirs["memory"]
            if hierarchy.version == 1:
                (path / "memory.limit_in_bytes").write_text(str(memory_bytes))
                with contextlib.suppress(OSError):  # absent without swap accounting
                    (path / "memory.memsw.limit_in_bytes").write_text(str(memory_bytes))
            else:
                (path / "memory.max").write_text(str(memory_bytes))
                with contextlib.suppress(OSError):
                    (path / "memory.swap.max").write_text("0")
        if "pids" in self.dirs:
            (self.dirs["pids"][1] / "pids.max").write_text(str(max_pids))

    def _paths(self) -> list[tuple[Hierarchy, Path]]:
        """Each cgroup once (two controllers may share one)."""
        unique: dict[Path, Hierarchy] = {}
        for hierarchy, path in self.dirs.values():
            unique.setdefault(path, hierarchy)
        return [(hierarchy, path) for path, hierarchy in unique.items()]

    def add(self, pid: int) -> None:
        """Move a process into every controller's cgroup."""
        for _, path in self._paths():
            (path / "cgroup.procs").write_text(str(pid))

    def pids(self) -> set[int]:
        """Every process in the bot's cgroups."""
        found: set[int] = set()
        for _, path in self._paths():
            with contextlib.suppress(OSError):
                found.update(int(pid) for pid in (path / "cgroup.procs").read_text().split())
        return found

    def kill_all(self) -> None:
        """SIGKILL every process in the cgroups (``cgroup.kill`` where v2 has it), frozen ones
        too: they are thawed after the signal, so that they die at once."""
        for hierarchy, path in self._paths():
            if hierarchy.version == 2 and (path / "cgroup.kill").exists():
                with contextlib.suppress(OSError):
                    (path / "cgroup.kill").write_text("1")
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            self._set_frozen(False)

    @property
    def can_freeze(self) -> bool:
        """Whether the bot's processes can be frozen (a v1 freezer cgroup, or v2's
        ``cgroup.freeze``)."""
        if "freezer" in self.dirs:
            return True
        return any(
            hierarchy.version == 2 and (path / "cgroup.freeze").exists()
            for hierarchy, path in self._paths()
        )

    def freeze(self) -> bool:
        """Stop every process of the bot until :meth:`thaw` (they get no CPU time, whatever
        they were doing, and cannot fork meanwhile); False if it could not be done within
        :data:`FREEZE_WAIT` (the bot is thawed again)."""
        if not self.can_freeze:
            return False
        try:
            self._set_frozen(True)
            deadline = time.monotonic() + FREEZE_WAIT
            while not self._frozen():
                if time.monotonic() > deadline:
                    self._set_frozen(False)
                    return False
                time.sleep(0.002)
        except OSError:
            with contextlib.suppress(OSError):
                self._set_frozen(False)
            return False
        return True

    def thaw(self) -> None:
        """Let the bot's processes run again."""
        self._set_frozen(False)

    def _set_frozen(self, frozen: bool) -> None:
        if "freezer" in self.dirs and self.dirs["freezer"][0].version == 1:
            state = "FROZEN" if frozen else "THAWED"
            (self.dirs["freezer"][1] / "freezer.state").write_text(state)
            return
        for hierarchy, path in self._paths():
            if hierarchy.version == 2 and (path / "cgroup.freeze").exists():
                (path / "cgroup.freeze").write_text("1" if frozen else "0")
                return

    def _frozen(self) -> bool:
        if "freezer" in self.dirs and self.dirs["freezer"][0].version == 1:
            return (self.dirs["freezer"][1] / "freezer.state").read_text().strip() == "FROZEN"
        for hierarchy, path in self._paths():
            if hierarchy.version == 2 and (path / "cgroup.events").exists():
                return _read_counter(path / "cgroup.events", "frozen") == 1
        return False

    def peak_memory_bytes(self) -> int | None:
        """The highest memory use the memory cgroup saw, if there is one."""
        if "memory" not in self.dirs:
            return None
        hierarchy, path = self.dirs["memory"]
        name = "memory.max_usage_in_bytes" if hierarchy.version == 1 else "memory.peak"
        try:
            return int((path / name).read_text())
        except (OSError, ValueError):
            return None

    def cpu_seconds(self) -> float | None:
        """CPU time all the bot's processes used so far, if a cgroup counts it."""
        if "cpuacct" in self.dirs and self.dirs["cpuacct"][0].version == 1:
            try:
                return int((self.dirs["cpuacct"][1] / "cpuacct.usage").read_text()) / 1e9
            except (OSError, ValueError):
                return None
        if "cpu" in self.dirs and self.dirs["cpu"][0].version == 2:
            usage = _read_counter(self.dirs["cpu"][1] / "cpu.stat", "usage_usec")
            return None if usage is None else usage / 1e6
        return None

    def cpu_throttled(self) -> int | None:
        """How many CFS periods the bot's processes were stopped in for using up their quota."""
        if "cpu" not in self.dirs:
            return None
        return _read_counter(self.dirs["cpu"][1] / "cpu.stat", "nr_throttled")

    def oom_kills(self) -> int | None:
        """How many processes the memory cgroup's OOM killer killed, if there is one."""
        if "memory" not in self.dirs:
            return None
        hierarchy, path = self.dirs["memory"]
        name = "memory.oom_control" if hierarchy.version == 1 else "memory.events"
        return _read_counter(path / name, "oom_kill")

    def remove(self, timeout: float = 5.0) -> bool:
        """Kill what is left, then remove the cgroups; False if one would not go in time."""
        deadline = time.monotonic() + timeout
        for controller in list(self.dirs):
            _, path = self.dirs[controller]
            while True:
                self.kill_all()
                try:
                    path.rmdir()
                except FileNotFoundError:
                    pass
                except OSError:  # EBUSY until the last process is reaped
                    if time.monotonic() < deadline:
                        time.sleep(0.005)
                        continue
                    return False
                del self.dirs[controller]
                break
        return True


def remove_stale(prefix: str = "nimmt-") -> None:
    """Remove the cgroups named ``<prefix>...-<pid>-<hex>`` whose creating process is gone
    (a runner killed before it could clean up), with whatever still runs in them."""
    for controller in CONTROLLERS:
        hierarchy = find_hierarchy(controller)
        if hierarchy is None:
            continue
        for path in hierarchy.parent.glob(f"{prefix}*-*-*"):
            creator = path.name.rsplit("-", 2)[-2]
            if creator.isdigit() and not os.path.exists(f"/proc/{creator}"):
                BotCgroup({controller: (hierarchy, path)}).remove(timeout=1.0)
