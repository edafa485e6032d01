"""Hostile bot: several processes each touch memory, together more than the bot may have."""

import os
import sys
import time

if __name__ == "__main__":
    children, megabytes = int(sys.argv[1]), int(sys.argv[2])
    for _ in range(children):
        if os.fork() == 0:
            block = b"x" * (megabytes * 1024**2)
            time.sleep(1)
            os._exit(len(block) and 0)
    statuses = [os.wait()[1] for _ in range(children)]
    print("children:", statuses, flush=True)
