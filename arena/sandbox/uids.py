"""Unprivileged uids for bots: each running bot gets a uid of its own, leased with a lock file.

A uid of its own matters because RLIMIT_NPROC counts processes per uid machine-wide, and because
no bot can then signal or ptrace another. The lease is an ``flock`` on
``<state dir>/uids/<uid>.lock``, so it is released when the holder closes it or dies.

A holder that saw its uid's processes gone says so in the lock file before it lets go
(:meth:`UidLease.release` with ``clean=True``). Only a uid whose last holder did not (a runner
killed with SIGKILL, a process that would not die) costs a scan of ``/proc`` when it is leased
again, and is skipped while it still has processes: leasing a uid normally reads no ``/proc``.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from pathlib import Path

from .spec import SandboxUnavailable

#: The first uid (and gid) handed to bots; override with ``NIMMT_SANDBOX_UID_BASE``.
UID_BASE = 61000
#: How many uids the range holds; override with ``NIMMT_SANDBOX_UID_COUNT``.
UID_COUNT = 1000
#: What a lock file says while its uid is known to have no process.
CLEAN = b"clean\n"
#: What it says while a holder has the uid (from its lease to a clean release).
HELD = b"held\n"


def state_dir() -> Path:
    """The root-only directory holding the uid locks (``NIMMT_SANDBOX_STATE_DIR``)."""
    return Path(os.environ.get("NIMMT_SANDBOX_STATE_DIR", "/run/nimmt-sandbox"))


class UidLease:
    """One uid held for one bot until :meth:`release`."""

    def __init__(self, uid: int, lock_fd: int) -> None:
        self.uid = uid
        self._lock_fd: int | None = lock_fd

    @property
    def held(self) -> bool:
        return self._lock_fd is not None

    def release(self, clean: bool = False) -> None:
        """Give the uid back (idempotent); ``clean``: none of its processes is left, so the
        next holder need not look."""
        if self._lock_fd is not None:
            try:
                if clean:
                    os.pwrite(self._lock_fd, CLEAN, 0)
                    os.ftruncate(self._lock_fd, len(CLEAN))
            except OSError:
                pass  # then the next holder looks for processes first
            finally:
                os.close(self._lock_fd)
                self._lock_fd = None

    def __repr__(self) -> str:
        return f"UidLease(uid={self.uid}, held={self._lock_fd is not None})"


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SandboxUnavailable(f"{name} must be an integer, got {raw!r}") from None
    if value <= 0:
        raise SandboxUnavailable(f"{name} must be positive, got {raw!r}")
    return value


def _real_uid(pid: str) -> int | None:
    """The real uid of a live process; None if it is gone or a zombie (it holds nothing)."""
    try:
        with open(f"/proc/{pid}/status", "rb") as status:
            for line in status:
                if line.startswith(b"State:") and line.split()[1] in (b"Z", b"X"):
                    return None
                if line.startswith(b"Uid:"):
                    return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        pass
    return None


def _pids() -> list[str]:
    return [entry.name for entry in os.scandir("/proc") if entry.name.isdigit()]


def processes_of(uid: int) -> list[int]:
    """Pids of every live (not zombie) process whose real uid is ``uid``."""
    return [int(pid) for pid in _pids() if _real_uid(pid) == uid]


def processes_of_any(wanted: set[int]) -> dict[int, list[int]]:
    """Pids of the live processes of each uid in ``wanted`` that has any: one scan of /proc."""
    found: dict[int, list[int]] = {}
    if not wanted:
        return found
    for pid in _pids():
        uid = _real_uid(pid)
        if uid in wanted:
            found.setdefault(uid, []).append(int(pid))
    return found


def acquire_uid() -> UidLease:
    """Lease a free uid from the range; raises :class:`SandboxUnavailable` if all are busy."""
    base = _env_int("NIMMT_SANDBOX_UID_BASE", UID_BASE)
    count = _env_int("NIMMT_SANDBOX_UID_COUNT", UID_COUNT)
    lock_dir = state_dir() / "uids"
    lock_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    for uid in range(base, base + count):
        fd = os.open(lock_dir / f"{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if os.pread(fd, len(CLEAN) + 1, 0) != CLEAN and processes_of(uid):
                os.close(fd)
                continue
            os.pwrite(fd, HELD, 0)
            os.ftruncate(fd, len(HELD))
        except BlockingIOError:
            os.close(fd)
            continue
        except BaseException:
            os.close(fd)
            raise
        return UidLease(uid, fd)
    raise SandboxUnavailable(
        f"all {count} sandbox uids from {base} are in use; raise NIMMT_SANDBOX_UID_COUNT"
    )


def drop_root(uid: int) -> list[str]:
    """The command prefix that runs the rest as ``uid`` (gid ``uid``, no other groups).

    A prefix rather than Popen's ``user=``: the runner sets the bot's rlimits before this runs,
    and setting another uid's rlimits needs CAP_SYS_RESOURCE, which root in a container may lack.
    """
    setpriv = shutil.which("setpriv") or "/usr/bin/setpriv"
    ids = ["--reuid", str(uid), "--regid", str(uid), "--clear-groups"]
    return [setpriv, *ids, "--no-new-privs", "--"]
