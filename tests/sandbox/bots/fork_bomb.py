"""Hostile bot: every process forks forever; children sleep (and fork too)."""

import os
import time

if __name__ == "__main__":
    print("bombing", flush=True)
    failures = 0
    while True:
        try:
            os.fork()
        except OSError:
            failures += 1
            if failures == 1:
                print(f"fork failed in {os.getpid()}", flush=True)
            time.sleep(0.01)
