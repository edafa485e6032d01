"""The bubblewrap command line that isolates one bot.

The bot gets new user, pid, network (loopback only), ipc, uts and cgroup namespaces, its own
session, and a root file system built from nothing and then made read-only: the host's ``/usr``
(with ``/bin``, ``/lib``... as on the host), a handful of ``/etc`` files (a generated
``passwd`` naming only root, nobody and the bot), a new ``/proc``, a minimal ``/dev``, the
runtime at ``/opt/nimmt/runtime``, the bot's folder at ``/bot``, the engine socket at
``/run/nimmt/engine.sock``, the bot's token at ``/run/nimmt/token`` (0400, from a memfd: never
on a command line) and, as the only writable places, size-limited tmpfs at ``/tmp`` and
``/dev/shm`` (and, for a build, the copy of the bot's folder). No ``/root``, ``/home``,
``/work``, ``/var``, ``/srv``, host ``/tmp`` or ``/usr/local`` (an empty folder there); the
host's ``/proc/cmdline`` and ``/proc/loadavg`` are replaced by neutral ones. A seccomp filter
(:mod:`.seccomp`) denies the system calls no bot needs.

Host paths come in as file descriptors (``--ro-bind-fd``) opened by the runner, so what is
mounted is what the runner checked, whatever is renamed meanwhile. bubblewrap still resolves
them (``/proc/self/fd/N``) as the bot's uid: the folders above them must be searchable (o+x).
"""

from __future__ import annotations

import functools
import glob
import os
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field

from .spec import SANDBOX_BOT_DIR, SANDBOX_FRAMES, SANDBOX_RUNTIME, SANDBOX_SOCKET, SANDBOX_TOKEN

#: Flags without which we do not sandbox (bubblewrap >= 0.5 has them all).
REQUIRED_FLAGS = frozenset(
    {
        "--unshare-all",
        "--unshare-user",
        "--die-with-parent",
        "--new-session",
        "--ro-bind-fd",
        "--bind-fd",
        "--ro-bind-data",
        "--remount-ro",
        "--clearenv",
        "--size",
    }
)
#: Host paths that are symlinks into /usr on merged-/usr systems, bind-mounted otherwise.
TOP_LEVEL = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
#: Host /etc entries a dynamically linked program (Python, Java, ...) may want; all harmless.
ETC_SHARED = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "alternatives")
HOSTNAME = "nimmt-bot"


@dataclass(frozen=True)
class Bwrap:
    """An installed bubblewrap and the flags it understands."""

    path: str
    flags: frozenset[str]

    @property
    def missing(self) -> frozenset[str]:
        return REQUIRED_FLAGS - self.flags


def bwrap_path() -> str | None:
    """Where the bubblewrap binary is: ``NIMMT_BWRAP``, else ``bwrap`` on PATH (None: nowhere)."""
    return os.environ.get("NIMMT_BWRAP") or shutil.which("bwrap")


@functools.cache
def find_bwrap() -> Bwrap | None:
    """The bubblewrap binary (:func:`bwrap_path`) and the options it takes, or None."""
    path = bwrap_path()
    if path is None:
        return None
    try:
        usage = subprocess.run(
            [path, "--help"], capture_output=True, text=True, timeout=10, check=False
        )
    except OSError:
        return None
    flags = {word for word in usage.stdout.split() if word.startswith("--")}
    return Bwrap(path, frozenset(flags))


@dataclass(frozen=True)
class Mounts:
    """The file descriptors bound into the sandbox; data fds hold generated /etc files and
    the token."""

    bot_dir: int
    bot_dir_writable: bool = False  # a build's copy of the folder
    runtime: int | None = None
    socket: int | None = None
    #: The seat's framed socket, bound at ``SANDBOX_FRAMES`` beside ``socket``.
    frames: int | None = None
    etc_data: Mapping[str, int] = field(default_factory=dict)
    proc_data: Mapping[str, int] = field(default_factory=dict)
    token: int | None = None
    seccomp: int | None = None
    #: A reusable process's folder holding its socket and token file, bound at /run/nimmt
    #: (instead of ``socket`` and ``token``).
    seat_dir: int | None = None

    def fds(self) -> tuple[int, ...]:
        found = [self.bot_dir, self.runtime, self.socket, self.frames, self.token, self.seccomp]
        found.append(self.seat_dir)
        found += [*self.etc_data.values(), *self.proc_data.values()]
        return tuple(fd for fd in found if fd is not None)


def etc_files(uid: int, gid: int) -> dict[str, bytes]:
    """The generated /etc files: only root, nobody and the bot exist."""
    return {
        "passwd": (
            "root:x:0:0:root:/nonexistent:/usr/sbin/nologin\n"
            f"bot:x:{uid}:{gid}:bot:/tmp:/usr/sbin/nologin\n"
            "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
        ).encode(),
        "group": f"root:x:0:\nbot:x:{gid}:\nnogroup:x:65534:\n".encode(),
        "nsswitch.conf": b"passwd: files\ngroup: files\nhosts: files\n",
        "hosts": f"127.0.0.1 localhost {HOSTNAME}\n::1 localhost\n".encode(),
    }


def proc_files() -> dict[str, bytes]:
    """Neutral stand-ins for the ``/proc`` files that tell of the host: its boot line (kernel
    image, root device, boot options) and its load (what other processes do)."""
    return {"cmdline": b"nimmt-bot\n", "loadavg": b"0.00 0.00 0.00 1/1 1\n"}


def _root_filesystem() -> list[str]:
    args: list[str] = []
    for name in TOP_LEVEL:
        host = f"/{name}"
        if os.path.islink(host):
            args += ["--symlink", os.readlink(host), host]
        elif os.path.isdir(host):
            args += ["--ro-bind", host, host]
    args += ["--ro-bind", "/usr", "/usr"]
    # The host's own installs (its tools, their configuration: npmrc, pip.conf, keys) are
    # not the bots'; the runtimes come from Debian's /usr and the bot runtime.
    args += ["--tmpfs", "/usr/local", "--remount-ro", "/usr/local"]
    # Runtimes' own configuration: Debian's JDK links conf/security/* into /etc/java-NN-openjdk.
    runtime_etc = [
        os.path.basename(p) for p in (*glob.glob("/etc/python3*"), *glob.glob("/etc/java*"))
    ]
    for name in (*ETC_SHARED, *runtime_etc):
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    return args


def bwrap_argv(
    bwrap: Bwrap,
    command: list[str],
    *,
    mounts: Mounts,
    env: Mapping[str, str],
    tmpfs_bytes: int,
) -> list[str]:
    """The full argv of bubblewrap running ``command`` in ``/bot``."""
    args = [bwrap.path, "--unshare-all", "--unshare-user"]
    if "--disable-userns" in bwrap.flags:  # no nested namespaces: less kernel to attack
        args.append("--disable-userns")
    args += ["--die-with-parent", "--new-session", "--hostname", HOSTNAME]
    if mounts.seccomp is not None:  # see seccomp.py; installed right before the exec
        args += ["--seccomp", str(mounts.seccomp)]
    args += _root_filesystem()
    for name, fd in mounts.etc_data.items():
        args += ["--perms", "0644", "--ro-bind-data", str(fd), f"/etc/{name}"]
    args += ["--proc", "/proc"]
    for name, fd in mounts.proc_data.items():
        args += ["--perms", "0444", "--ro-bind-data", str(fd), f"/proc/{name}"]
    args += ["--dev", "/dev"]
    args += ["--size", str(tmpfs_bytes), "--tmpfs", "/dev/shm", "--remount-ro", "/dev"]
    args += ["--size", str(tmpfs_bytes), "--tmpfs", "/tmp"]
    if mounts.runtime is not None:
        args += ["--ro-bind-fd", str(mounts.runtime), SANDBOX_RUNTIME]
    bind = "--bind-fd" if mounts.bot_dir_writable else "--ro-bind-fd"
    args += [bind, str(mounts.bot_dir), SANDBOX_BOT_DIR]
    if mounts.socket is not None or mounts.token is not None or mounts.seat_dir is not None:
        run_dir = os.path.dirname(os.path.dirname(SANDBOX_SOCKET))
        args += ["--tmpfs", run_dir]
        if mounts.seat_dir is not None:
            args += ["--ro-bind-fd", str(mounts.seat_dir), os.path.dirname(SANDBOX_SOCKET)]
        if mounts.socket is not None:
            args += ["--ro-bind-fd", str(mounts.socket), SANDBOX_SOCKET]
        if mounts.frames is not None:
            args += ["--ro-bind-fd", str(mounts.frames), SANDBOX_FRAMES]
        if mounts.token is not None:
            args += ["--perms", "0400", "--ro-bind-data", str(mounts.token), SANDBOX_TOKEN]
        args += ["--remount-ro", run_dir]
    args += ["--remount-ro", "/", "--chdir", SANDBOX_BOT_DIR, "--clearenv"]
    for name, value in env.items():
        args += ["--setenv", name, value]
    return [*args, "--", *command]
