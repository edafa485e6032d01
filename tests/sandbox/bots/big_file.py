"""Hostile bot: writes one big file into its /tmp, a megabyte at a time."""

import errno
import sys

if __name__ == "__main__":
    megabytes = int(sys.argv[1])
    try:
        with open("/tmp/big", "wb") as file:
            for _ in range(megabytes):
                file.write(b"z" * 1024 * 1024)
                file.flush()
    except OSError as error:
        print(f"write failed: {errno.errorcode.get(error.errno or 0, error)}", flush=True)
        sys.exit(5)
    print("WROTE ALL", flush=True)
