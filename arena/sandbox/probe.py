"""Which protections this machine gives, found by trying them once per process.

:func:`layers` starts one empty sandbox the way :func:`launch` does and looks from inside at the
network interfaces, the uid, whether ``/`` is writable and whether the seccomp filter is on; it
creates and removes a cgroup.
"""

from __future__ import annotations

import contextlib
import functools
import os
import resource
import secrets
import subprocess
import tempfile
from dataclasses import dataclass, field

from . import seccomp, uids
from .bubblewrap import Mounts, bwrap_argv, find_bwrap
from .cgroups import CONTROLLERS, BotCgroup, find_hierarchy, remove_stale
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


@functools.cache
def _probe() -> Probe:
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
