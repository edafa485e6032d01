"""A test bot that crashes at start, before it connects to the arena."""

import sys

if __name__ == "__main__":
    print("crasher: giving up at once", file=sys.stderr)
    raise SystemExit(7)
