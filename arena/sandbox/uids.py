"""Unprivileged uids for bots: each running bot gets a uid of its own, leased with a lock file.

A uid of its own matters because RLIMIT_NPROC counts processes per uid machine-wide, and because
no bot can then signal or ptrace another. The lease is an ``flock`` on
``<state dir>/uids/<uid>.lock``, so it is released when the holder closes it or dies; a uid
that still has processes (say, left by a runner killed with SIGKILL) is skipped.
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


def state_dir() -> Path:
    """The root-only directory holding the uid locks (``NIMMT_SANDBOX_STATE_DIR``)."""
    return Path(os.environ.get("NIMMT_SANDBOX_STATE_DIR", "/run/nimmt-sandbox"))


class UidLease:
    """One uid held for one bot until :meth:`release`."""

    def __init__(self, uid: int, lock_fd: int) -> None:
        self.uid = uid
        self._lock_fd: int | None = lock_fd

    def release(self) -> None:
        """Give the uid back (idempotent)."""
        if self._lock_fd is not None:
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


def uids_in_use() -> set[int]:
    """Real uids of every process on the machine."""
    return {uid for pid in _pids() if (uid := _real_uid(pid)) is not None}


def processes_of(uid: int) -> list[int]:
    """Pids of every live (not zombie) process whose real uid is ``uid``."""
    return [int(pid) for pid in _pids() if _real_uid(pid) == uid]


def acquire_uid() -> UidLease:
    """Lease a free uid from the range; raises :class:`SandboxUnavailable` if all are busy."""
    base = _env_int("NIMMT_SANDBOX_UID_BASE", UID_BASE)
    count = _env_int("NIMMT_SANDBOX_UID_COUNT", UID_COUNT)
    lock_dir = state_dir() / "uids"
    lock_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    busy = uids_in_use()
    for uid in range(base, base + count):
        if uid in busy:
            continue
        fd = os.open(lock_dir / f"{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
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
