"""Hostile fixture: starts, prints a line, and never connects."""

import time

print("mute: thinking about it", flush=True)
time.sleep(60)
