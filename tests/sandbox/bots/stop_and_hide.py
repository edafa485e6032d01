"""Hostile bot: leaves processes that are hard to kill by scanning for them: a stopped child,
a stopped daemon in a session of its own, and a process in uninterruptible sleep (the parent of
a vfork child that never execs), then waits."""

import ctypes
import os
import signal
import time

if __name__ == "__main__":
    libc = ctypes.CDLL(None, use_errno=True)
    if os.fork() == 0:
        os.kill(os.getpid(), signal.SIGSTOP)
        os._exit(0)
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.kill(os.getpid(), signal.SIGSTOP)
            os._exit(0)
        os._exit(0)
    if os.fork() == 0:
        if libc.vfork() == 0:  # the child borrows the parent's memory: C calls only
            libc.pause()
            libc._exit(0)
        os._exit(0)
    print("ready", flush=True)
    time.sleep(600)
