"""Hostile bot: starts N processes (argument 1) that all spin on the CPU forever."""

import os
import sys

if __name__ == "__main__":
    for _ in range(int(sys.argv[1]) - 1):
        if os.fork() == 0:
            break
    print(f"spinning {os.getpid()}", flush=True)
    while True:
        pass
