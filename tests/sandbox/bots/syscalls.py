"""Bot that makes raw system calls and reports, as JSON, the errno of each ("ok" if it worked).

Arguments: ``NAME=NUMBER`` pairs (the native numbers, resolved by the test), or one of the
special words ``ia32`` (a 32-bit ``int 0x80`` getpid), ``x32`` (an x32-ABI getpid) and
``threads`` (start a thread: the C library's clone3 must fall back to clone). Arguments that do
something real where it is cheap to give them (an io_uring of one entry, a key in the process
keyring, reading one's own memory), so that a call the filter lets through shows up as "ok".
"""

import ctypes
import errno
import json
import mmap
import os
import sys
import threading

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
IO_URING_PARAMS = ctypes.create_string_buffer(120)
ADDR_NO_RANDOMIZE = 0x0040000
SIGCHLD = 17
KEY_SPEC_PROCESS_KEYRING = -2
PTRACE_PEEKDATA = 2
CLONE_FLAGS = {
    "CLONE_NEWNS": 0x00020000,
    "CLONE_NEWCGROUP": 0x02000000,
    "CLONE_NEWUTS": 0x04000000,
    "CLONE_NEWIPC": 0x08000000,
    "CLONE_NEWUSER": 0x10000000,
    "CLONE_NEWPID": 0x20000000,
    "CLONE_NEWNET": 0x40000000,
}


def arguments(name: str) -> list[object]:
    """The arguments to call ``name`` with (zeros unless given here)."""
    if name == "io_uring_setup":
        return [1, IO_URING_PARAMS]
    if name == "add_key":
        return [b"user", b"nimmt", b"x", 1, KEY_SPEC_PROCESS_KEYRING]
    if name == "keyctl":  # KEYCTL_GET_KEYRING_ID of the process keyring, creating it
        return [0, KEY_SPEC_PROCESS_KEYRING, 1]
    if name == "process_vm_readv":
        return [os.getpid(), None, 0, None, 0, 0]
    if name == "ptrace":
        return [PTRACE_PEEKDATA, 1, 0, 0]
    if name == "personality":
        return [ADDR_NO_RANDOMIZE]
    if name == "personality_query":
        return [0xFFFFFFFF]
    if name.startswith("clone_"):
        return [CLONE_FLAGS[name.removeprefix("clone_")] | SIGCHLD, 0, 0, 0, 0]
    return [0, 0, 0, 0, 0, 0]


def call(number: int, args: list[object]) -> str:
    converted = [ctypes.c_long(a) if isinstance(a, int) else a for a in args]
    result: int = libc.syscall(ctypes.c_long(number), *converted)
    if result == 0 and converted and number_is_clone.get(number):
        os._exit(0)  # a clone the filter let through: the child leaves at once
    if result > 0 and number_is_clone.get(number):
        os.waitpid(result, 0)
    if result == -1:
        return errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno()))
    return "ok"


def ia32_getpid() -> int:
    code = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    code.write(b"\xb8" + (20).to_bytes(4, "little") + b"\xcd\x80\xc3")  # mov eax,20; int 0x80
    address = ctypes.addressof(ctypes.c_char.from_buffer(code))
    pid: int = ctypes.CFUNCTYPE(ctypes.c_int)(address)()
    return pid


number_is_clone: dict[int, bool] = {}

if __name__ == "__main__":
    report: dict[str, str] = {}
    for word in sys.argv[1:]:
        print(f"trying {word}", file=sys.stderr, flush=True)
        if word == "ia32":
            report[word] = f"pid {ia32_getpid()}"
        elif word == "x32":
            report[word] = call(0x40000000 | int(os.environ.get("GETPID", "39")), [])
        elif word == "threads":
            thread = threading.Thread(target=report.__setitem__, args=(word, "ok"))
            thread.start()
            thread.join()
        else:
            name, _, number = word.partition("=")
            if name.startswith("clone_"):
                number_is_clone[int(number)] = True
            report[name] = call(int(number), arguments(name))
    print(json.dumps(report), flush=True)
