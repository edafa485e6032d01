"""Writes FLOOD-START, then ``argv[1]`` MB of lines alternately to stdout and stderr, then
FLOOD-END."""

import os
import sys

if __name__ == "__main__":
    block = (b"y" * 1023 + b"\n") * 1024
    os.write(1, b"FLOOD-START\n")
    for i in range(int(sys.argv[1])):
        os.write(1 + i % 2, block)
    os.write(2, b"FLOOD-END\n")
