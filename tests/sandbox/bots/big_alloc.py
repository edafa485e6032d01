"""Hostile bot: allocates (and touches) 4 GB at once."""

import sys

if __name__ == "__main__":
    try:
        block = b"x" * (4 * 1024**3)
    except MemoryError:
        print("MemoryError: 4 GB refused", flush=True)
        sys.exit(3)
    print(f"ALLOCATED {len(block)} bytes", flush=True)
