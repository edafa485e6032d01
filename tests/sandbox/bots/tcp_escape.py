"""Hostile bot: tries to reach a TCP server on the host's 127.0.0.1; shows its interfaces."""

import socket
import sys

if __name__ == "__main__":
    with open("/proc/net/dev") as dev:
        names = sorted(line.split(":")[0].strip() for line in dev if ":" in line)
    print("interfaces:", ",".join(names), flush=True)
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=3).close()
    except OSError as error:
        print(f"connect failed: {error!r}", flush=True)
        sys.exit(4)
    print("CONNECTED", flush=True)
