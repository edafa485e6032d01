"""Hostile bot: prints what it can learn of the host (its boot line, its load, /usr/local)."""

import os

if __name__ == "__main__":
    for name in ("/proc/cmdline", "/proc/loadavg"):
        with open(name) as file:
            print(f"{name}: {file.read().strip()}", flush=True)
    print(f"/usr/local: {sorted(os.listdir('/usr/local'))}", flush=True)
