"""Hostile bot: floods stdout and stderr with megabytes of output."""

import sys

if __name__ == "__main__":
    megabytes = int(sys.argv[1])
    line = "y" * 1023 + "\n"
    sys.stdout.write("HEAD-START\n")
    for i in range(megabytes * 1024):
        (sys.stdout if i % 2 else sys.stderr).write(line)
    sys.stdout.write("TAIL-END\n")
    sys.stdout.flush()
