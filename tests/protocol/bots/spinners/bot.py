"""Hostile fixture: before it connects, starts four processes that spin on the CPU for the
whole match (``spin.py``), then plays random legal moves."""

import subprocess
import sys

from arena.botkit import run
from arena.bots.random import RandomBot

SPINNERS = 4

if __name__ == "__main__":
    spinners = [subprocess.Popen([sys.executable, "spin.py"]) for _ in range(SPINNERS)]
    print(f"spinners: {SPINNERS} spinning", flush=True)
    run(RandomBot())
