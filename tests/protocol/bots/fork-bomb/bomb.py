"""The fork bomb: every process forks forever; each says so, in one write, when fork first
fails."""

import os
import time

if __name__ == "__main__":
    failures = 0
    while True:
        try:
            os.fork()
        except OSError as error:
            failures += 1
            if failures == 1:
                os.write(1, f"fork-bomb: fork failed: {error.strerror}\n".encode())
            time.sleep(0.01)
