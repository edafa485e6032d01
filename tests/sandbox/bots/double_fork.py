"""Hostile bot: leaves a daemon behind (fork, setsid, fork), then exits or sleeps."""

import os
import sys
import time

if __name__ == "__main__":
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            print(f"daemon {os.getpid()} session {os.getsid(0)}", flush=True)
            while True:
                time.sleep(1)
        os._exit(0)
    os.wait()
    print("parent done", flush=True)
    if sys.argv[1:] == ["stay"]:
        while True:
            time.sleep(1)
