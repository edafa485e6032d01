"""Hostile fixture: on its first decision tries system calls no bot needs (io_uring, the key
store, ptrace, new namespaces, mounting, eBPF), says what each gave, and plays on."""

import ctypes
import errno
import os

from arena.botkit import KitBot, run
from arena.engine.decisions import Decision
from arena.engine.observation import Observation

#: x86_64 numbers (the test runs this fixture only there).
CALLS = {
    "io_uring_setup": 425,
    "keyctl": 250,
    "add_key": 248,
    "ptrace": 101,
    "unshare": 272,
    "mount": 165,
    "bpf": 321,
    "perf_event_open": 298,
    "userfaultfd": 323,
}
CLONE_NEWUSER = 0x10000000

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def attempt(name: str, number: int) -> str:
    args = [ctypes.c_long(CLONE_NEWUSER if name == "unshare" else 0)] * 5
    if libc.syscall(ctypes.c_long(number), *args) == -1:
        return errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno()))
    return "ok"


class SyscallProbe(KitBot):
    name = "syscall-probe"
    tried = False

    def decide(self, view: Observation) -> Decision:
        if not self.tried:
            self.tried = True
            for name, number in CALLS.items():
                print(f"syscall-probe: {name} {attempt(name, number)}", flush=True)
            print(f"syscall-probe: still pid {os.getpid()}, playing on", flush=True)
        return self.rng.choice(view.legal)


if __name__ == "__main__":
    run(SyscallProbe())
