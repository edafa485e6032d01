"""The seccomp filter of a sandboxed bot: system calls no bot needs fail with EPERM.

The filter is compiled by libseccomp (Debian's ``libseccomp2``, loaded with ctypes: the runner's
Python need not be Debian's, so the ``python3-seccomp`` bindings are out of reach) into a classic
BPF program that bubblewrap installs (``--seccomp FD``) just before it execs the bot. libseccomp
rather than hand-written BPF: it knows every architecture's system call numbers by name, and it
emits the architecture checks that are easy to get wrong by hand (x86_64 filters must also
refuse x32 calls, whose numbers have bit 30 set).

What it denies (EPERM, as if the kernel refused a privilege): the kernel's big attack surfaces
that no game-playing program uses - io_uring, the key store (``keyctl``...), eBPF,
``perf_event_open``, ``userfaultfd``; looking into or steering other processes (``ptrace``,
``process_vm_readv``/``writev``, ``pidfd_getfd``...); new namespaces (``unshare``, ``setns``, and
``clone`` with a ``CLONE_NEW*`` flag); mounting; modules, kexec, reboot, swap, accounting,
quotas, clocks, file handles. ``personality`` is allowed only to query (``0xffffffff``): a
bot has no use for changing it, and some personas turn off address-space randomisation or make
data executable. ``clone3`` fails with ENOSYS, so the C library falls back to ``clone``, whose flags
the filter can see (``clone3`` passes them in memory). A system call of another architecture
(32-bit ``int 0x80`` or x32 on x86_64) kills the process: the compat entry points have a long
record of kernel bugs, and no bot needs them.

Everything else is allowed: Python, Node, Java and Go bots with gRPC run unchanged.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import functools
import os
from dataclasses import dataclass

#: Denied with EPERM (names unknown to this architecture are skipped).
DENIED = (
    # kernel attack surface no bot needs
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "keyctl",
    "add_key",
    "request_key",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "lookup_dcookie",
    "fanotify_init",
    # other processes
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "process_madvise",
    "pidfd_getfd",
    "kcmp",
    # namespaces and mounts
    "unshare",
    "setns",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "open_tree",
    "move_mount",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "mount_setattr",
    # the machine itself
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "swapon",
    "swapoff",
    "reboot",
    "acct",
    "quotactl",
    "quotactl_fd",
    "open_by_handle_at",
    "name_to_handle_at",
    "syslog",
    "vhangup",
    "iopl",
    "ioperm",
    "settimeofday",
    "clock_settime",
    "clock_adjtime",
    "adjtimex",
    "sethostname",
    "setdomainname",
    "nfsservctl",
    "uselib",
)
#: ``clone`` flags that make a namespace; a ``clone`` with any of them fails with EPERM.
CLONE_NAMESPACE_FLAGS = {
    "CLONE_NEWNS": 0x00020000,
    "CLONE_NEWCGROUP": 0x02000000,
    "CLONE_NEWUTS": 0x04000000,
    "CLONE_NEWIPC": 0x08000000,
    "CLONE_NEWUSER": 0x10000000,
    "CLONE_NEWPID": 0x20000000,
    "CLONE_NEWNET": 0x40000000,
}
#: The one ``personality`` argument allowed: query the current persona.
PERSONALITY_QUERY = 0xFFFFFFFF

SCMP_ACT_KILL_PROCESS = 0x80000000
SCMP_ACT_ALLOW = 0x7FFF0000
SCMP_FLTATR_ACT_BADARCH = 2
SCMP_CMP_NE = 1
SCMP_CMP_MASKED_EQ = 7


def scmp_act_errno(code: int) -> int:
    return 0x00050000 | (code & 0xFFFF)


class _ArgCmp(ctypes.Structure):
    """libseccomp's ``struct scmp_arg_cmp``."""

    _fields_ = [
        ("arg", ctypes.c_uint),
        ("op", ctypes.c_int),
        ("datum_a", ctypes.c_uint64),
        ("datum_b", ctypes.c_uint64),
    ]


class SeccompError(OSError):
    """libseccomp failed to build the filter."""


@dataclass(frozen=True)
class Filter:
    """A compiled filter: the BPF program bubblewrap loads, and the calls it denies."""

    program: bytes
    denied: tuple[str, ...]


@functools.cache
def _library() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("seccomp") or "libseccomp.so.2"
    try:
        lib = ctypes.CDLL(name, use_errno=True)
    except OSError:
        return None
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_release.argtypes = [ctypes.c_void_p]
    lib.seccomp_attr_set.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add_array.argtypes = [
        ctypes.c_void_p,
        ctypes.c_uint32,
        ctypes.c_int,
        ctypes.c_uint,
        ctypes.POINTER(_ArgCmp),
    ]
    lib.seccomp_export_bpf.argtypes = [ctypes.c_void_p, ctypes.c_int]
    return lib


def available() -> bool:
    """Whether libseccomp can be loaded here."""
    return _library() is not None


def syscall_number(name: str) -> int | None:
    """The native number of a system call, or None if this architecture has no such call."""
    lib = _library()
    if lib is None:
        return None
    number = int(lib.seccomp_syscall_resolve_name(name.encode()))
    return number if number >= 0 else None


def _check(result: int, what: str) -> None:
    if result < 0:
        raise SeccompError(-result, f"libseccomp: {what}: {os.strerror(-result)}")


def _rule(
    lib: ctypes.CDLL, ctx: int, action: int, name: str, *cmps: tuple[int, int, int, int]
) -> bool:
    number = syscall_number(name)
    if number is None:
        return False
    array = (_ArgCmp * max(1, len(cmps)))(*(_ArgCmp(*cmp) for cmp in cmps))
    _check(lib.seccomp_rule_add_array(ctx, action, number, len(cmps), array), f"rule for {name}")
    return True


@functools.cache
def bot_filter() -> Filter | None:
    """The bot's filter, compiled once per process; None if libseccomp is not installed."""
    lib = _library()
    if lib is None:
        return None
    ctx = lib.seccomp_init(SCMP_ACT_ALLOW)
    if not ctx:
        raise SeccompError(errno.ENOMEM, "libseccomp: seccomp_init failed")
    try:
        _check(
            lib.seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS), "bad arch"
        )
        eperm = scmp_act_errno(errno.EPERM)
        denied = [name for name in DENIED if _rule(lib, ctx, eperm, name)]
        for flag in CLONE_NAMESPACE_FLAGS.values():
            _rule(lib, ctx, eperm, "clone", (0, SCMP_CMP_MASKED_EQ, flag, flag))
        _rule(lib, ctx, eperm, "personality", (0, SCMP_CMP_NE, PERSONALITY_QUERY, 0))
        _rule(lib, ctx, scmp_act_errno(errno.ENOSYS), "clone3")
        fd = os.memfd_create("seccomp", os.MFD_CLOEXEC)
        try:
            _check(lib.seccomp_export_bpf(ctx, fd), "export")
            program = os.pread(fd, os.fstat(fd).st_size, 0)
        finally:
            os.close(fd)
    finally:
        lib.seccomp_release(ctx)
    return Filter(program, (*denied, "clone", "personality", "clone3"))
