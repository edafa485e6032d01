"""Which protections this machine gives, found by trying them once per process.

:func:`layers` starts one empty sandbox the way :func:`launch` does and looks from inside at the
network interfaces, the uid, whether ``/`` is writable and whether the seccomp filter is on; it
creates and removes a cgroup.

A probe that found every protection working is remembered until the machine restarts, in the
root-only state folder (:func:`arena.sandbox.uids.state_dir`), under a key made of all it
depends on (:func:`_fingerprint`): the boot, the bubblewrap binary, libseccomp, the cgroup
hierarchies, the user-namespace settings and the sandbox's own source. The probe costs about as
much CPU as a Python bot's start, and each ``nimmt match`` is a process of its own. What could
change within a boot without changing the key only makes the bots' launches fail (bubblewrap
cannot create the namespaces, load the filter or join the cgroups), never run them with less
protection. A probe that found anything missing is never remembered: the next process probes
again.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import resource
import secrets
import stat
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from . import seccomp, uids
from .bubblewrap import Mounts, bwrap_argv, bwrap_path, find_bwrap
from .cgroups import CONTROLLERS, BotCgroup, cgroup_mounts, find_hierarchy, remove_stale
from .spec import SandboxUnavailable

LAYERS = (
    "bubblewrap",
    "network_cutoff",
    "readonly_root",
    "non_root_uid",
    "seccomp",
    "rlimits",
    "cgroup_memory",
    "cgroup_pids",
    "cpu",
)
#: Runs inside the probe sandbox; the lines it prints are parsed by :func:`_probe`.
PROBE_SCRIPT = (
    "cat /proc/net/dev; echo uid=$(id -u); "
    "if (echo x > /probe) 2>/dev/null; then echo root=writable; else echo root=readonly; fi; "
    "sed -n 's/^Seccomp:[[:space:]]*/seccomp=/p' /proc/self/status"
)
INSTALL_HINT = "install it with: apt-get install bubblewrap"


@dataclass
class Probe:
    """What the probe found, with the reason when bubblewrap does not work."""

    layers: dict[str, bool] = field(default_factory=lambda: dict.fromkeys(LAYERS, False))
    problem: str = ""


def _interfaces(proc_net_dev: list[str]) -> set[str]:
    return {line.split(":")[0].strip() for line in proc_net_dev if ":" in line}


def _run_probe_sandbox(probe: Probe) -> None:
    bwrap = find_bwrap()
    if bwrap is None:
        probe.problem = f"bubblewrap (bwrap) is not installed; {INSTALL_HINT}"
        return
    if bwrap.missing:
        probe.problem = f"{bwrap.path} is too old (lacks {', '.join(sorted(bwrap.missing))})"
        return
    lease = uids.acquire_uid() if os.geteuid() == 0 else None
    uid = lease.uid if lease else None
    program = seccomp.bot_filter() if "--seccomp" in bwrap.flags else None
    filter_fd = None
    try:
        with tempfile.TemporaryDirectory(prefix="nimmt-probe-") as empty:
            os.chmod(empty, 0o755)
            fd = os.open(empty, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
            if program is not None:
                filter_fd = os.memfd_create("seccomp", os.MFD_CLOEXEC)
                os.write(filter_fd, program.program)
                os.lseek(filter_fd, 0, os.SEEK_SET)
            mounts = Mounts(bot_dir=fd, seccomp=filter_fd)
            try:
                argv = bwrap_argv(
                    bwrap,
                    ["/bin/sh", "-c", PROBE_SCRIPT],
                    mounts=mounts,
                    env={"PATH": "/usr/bin:/bin"},
                    tmpfs_bytes=1024 * 1024,
                )
                if uid is not None:
                    argv = [*uids.drop_root(uid), *argv]
                done = subprocess.run(
                    argv,
                    capture_output=True,
                    text=True,
                    timeout=20,
                    check=False,
                    cwd="/",
                    pass_fds=mounts.fds(),
                )
            finally:
                for opened in mounts.fds():
                    os.close(opened)
    finally:
        if lease is not None:
            lease.release()
    if done.returncode != 0:
        probe.problem = (
            f"bubblewrap does not start a sandbox here (exit {done.returncode}): "
            f"{done.stderr.strip()[-500:]}; unprivileged user namespaces may be disabled "
            "(sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0)"
        )
        return
    lines = done.stdout.splitlines()
    interfaces = _interfaces(lines)
    probe.layers["bubblewrap"] = True
    probe.layers["network_cutoff"] = interfaces == {"lo"}
    probe.layers["readonly_root"] = "root=readonly" in lines
    probe.layers["non_root_uid"] = any(line.startswith("uid=") for line in lines) and (
        "uid=0" not in lines
    )
    probe.layers["seccomp"] = program is not None and "seccomp=2" in lines  # 2: filter mode
    if not probe.layers["network_cutoff"]:
        probe.problem = f"the sandbox sees network interfaces {sorted(interfaces)}, not only lo"


def _usable_cgroups() -> set[str]:
    """Controllers of which a bot cgroup can be created (and removed) here."""
    if not any(find_hierarchy(controller) for controller in CONTROLLERS):
        return set()
    remove_stale()
    name = f"nimmt-probe-{os.getpid()}-{secrets.token_hex(4)}"
    try:
        cgroup = BotCgroup.create(name, memory_bytes=64 * 1024 * 1024, max_pids=8, cpus=1.0)
    except OSError:
        return set()
    usable = set(cgroup.dirs)
    return usable if cgroup.remove() else set()


#: Files whose content the probe's finding depends on besides the machine: the sandbox's recipe.
RECIPE = ("probe.py", "bubblewrap.py", "seccomp.py", "cgroups.py", "uids.py", "spec.py")
#: Kernel settings that allow or forbid the user namespaces bubblewrap makes (where they exist).
USERNS_SETTINGS = (
    "/proc/sys/user/max_user_namespaces",
    "/proc/sys/kernel/unprivileged_userns_clone",
    "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
)
#: The most bytes a remembered probe's file may hold.
REMEMBERED_BYTES = 4096
#: How many remembered probes (of other keys: another checkout, bubblewrap before an upgrade)
#: are kept at most; the oldest go.
REMEMBERED_KEYS = 8


def _memory_folder() -> Path:
    """Where a probe is remembered: a folder of the root-only sandbox state folder."""
    return uids.state_dir() / "probe"


def _fingerprint() -> str | None:
    """The key of what the probe would find now (None: nothing is remembered without bubblewrap
    or the boot's identity)."""
    bwrap = bwrap_path()
    if bwrap is None:
        return None
    try:
        binary = os.stat(bwrap)
        with open("/proc/sys/kernel/random/boot_id") as boot:
            parts = [boot.read().strip(), str(os.geteuid())]
        parts.append(
            f"{bwrap} {binary.st_dev} {binary.st_ino} {binary.st_size} {binary.st_mtime_ns}"
        )
        parts.append(f"seccomp {seccomp.available()}")
        for setting in USERNS_SETTINGS:
            with contextlib.suppress(FileNotFoundError), open(setting) as value:
                parts.append(f"{setting} {value.read().strip()}")
        # The hierarchies, not this process's place in them: each command of a benchmark, each
        # worker of a service sits in a cgroup of its own.
        mounts = cgroup_mounts()
        parts += sorted(f"{at} {root} {kind} {sorted(opts)}" for at, root, kind, opts in mounts)
        here = Path(__file__).parent
        parts += [hashlib.sha256((here / name).read_bytes()).hexdigest() for name in RECIPE]
    except OSError:
        return None
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:32]


def _trusted(status: os.stat_result, kind: int) -> bool:
    """Only this user (root) could have written it: of ``kind``, its own, not writable by others."""
    return (
        stat.S_IFMT(status.st_mode) == kind
        and status.st_uid == os.geteuid()
        and not status.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    )


def _remembered(key: str) -> Probe | None:
    """The probe remembered under ``key``, if there is one that only root could have written."""
    folder = _memory_folder()
    try:
        if not _trusted(os.lstat(folder), stat.S_IFDIR):
            return None
        fd = os.open(folder / f"{key}.json", os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as file:
        status = os.fstat(file.fileno())
        if not _trusted(status, stat.S_IFREG) or status.st_size > REMEMBERED_BYTES:
            return None
        try:
            found = json.loads(file.read(REMEMBERED_BYTES))
        except ValueError:
            return None
    if not isinstance(found, dict) or found.get("layers") != dict.fromkeys(LAYERS, True):
        return None
    return Probe(layers=dict.fromkeys(LAYERS, True))


def _remember(key: str, probe: Probe) -> None:
    """Keep ``probe`` for the processes after this one, if it found every protection (and this
    is root: nobody else may write the state folder), beside the few newest of other keys."""
    if os.geteuid() != 0 or not all(probe.layers.values()):
        return
    folder = _memory_folder()
    with contextlib.suppress(OSError):  # a full disk, a read-only /run: probe again next time
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _trusted(os.lstat(folder), stat.S_IFDIR):
            return
        partial = folder / f".{key}.{os.getpid()}.{secrets.token_hex(4)}"
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            with os.fdopen(fd, "w") as file:
                json.dump({"layers": probe.layers}, file)
            os.replace(partial, folder / f"{key}.json")
        finally:
            partial.unlink(missing_ok=True)
        others = [(entry.stat().st_mtime_ns, entry) for entry in os.scandir(folder)]
        for _, old in sorted(others, key=lambda item: item[0], reverse=True)[REMEMBERED_KEYS:]:
            os.unlink(old.path)


@functools.cache
def _probe() -> Probe:
    key = _fingerprint()
    remembered = _remembered(key) if key is not None else None
    if remembered is not None:
        remove_stale()  # the cgroups of runners killed since, as the probe's own check does
        return remembered
    probe = _probe_now()
    if key is not None:
        _remember(key, probe)
    return probe


def _probe_now() -> Probe:
    probe = Probe()
    try:
        _run_probe_sandbox(probe)
    except (OSError, subprocess.SubprocessError, SandboxUnavailable) as error:
        probe.problem = f"the sandbox probe failed: {error}"
    with contextlib.suppress(OSError, ValueError):
        resource.prlimit(os.getpid(), resource.RLIMIT_CORE)  # readable: prlimit(2) works
        probe.layers["rlimits"] = True
    usable = _usable_cgroups()
    probe.layers["cgroup_memory"] = "memory" in usable
    probe.layers["cgroup_pids"] = "pids" in usable
    probe.layers["cpu"] = "cpu" in usable
    return probe


def layers() -> dict[str, bool]:
    """Which protections a sandboxed bot gets on this machine (probed once per process).

    ``bubblewrap``: a sandbox starts; ``network_cutoff``: it sees only ``lo``;
    ``readonly_root``: it cannot write to ``/``; ``non_root_uid``: the bot's uid is not 0;
    ``seccomp``: the filter of :mod:`.seccomp` is on (needs libseccomp: ``libseccomp2``);
    ``rlimits``: per-process limits apply; ``cgroup_memory`` / ``cgroup_pids``: the bot's
    processes together are bounded in memory / number; ``cpu``: they share a CPU quota
    (``Limits.cpus``; without it, bots run at a lower priority, which protects the runner but
    not one seat from another).
    """
    return dict(_probe().layers)


def require_isolation() -> None:
    """Raise :class:`SandboxUnavailable` unless bubblewrap and the network cut-off work, and
    the seccomp filter too where libseccomp is installed (without it, bots run unfiltered)."""
    probe = _probe()
    if not (probe.layers["bubblewrap"] and probe.layers["network_cutoff"]):
        raise SandboxUnavailable(
            f"cannot sandbox bots on this machine: {probe.problem}. "
            "Only trusted bots may run without it (--unsafe-no-sandbox)."
        )
    if seccomp.available() and not probe.layers["seccomp"]:
        raise SandboxUnavailable(
            "cannot sandbox bots on this machine: libseccomp is installed but the sandbox's "
            "seccomp filter did not take effect (bubblewrap without --seccomp?). "
            "Only trusted bots may run without it (--unsafe-no-sandbox)."
        )
