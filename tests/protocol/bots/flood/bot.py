"""Hostile fixture: floods its log. On turn 1 of game 1 it starts ``flood.py``, which writes
``FLOOD_MB`` MB to stdout and stderr as fast as it can while the games go on; on turn 1 of game
2 it waits for it to finish."""

import os
import subprocess
import sys
import time

from arena.botkit import KitBot, run
from arena.engine.decisions import Decision
from arena.engine.observation import Observation


class Flood(KitBot):
    name = "flood"

    def __init__(self) -> None:
        super().__init__()
        self.child: subprocess.Popen[bytes] | None = None
        self.started = 0.0

    def decide(self, view: Observation) -> Decision:
        if view.turn == 1 and self.info.game_id == "game-00001":
            self.started = time.monotonic()
            self.child = subprocess.Popen([sys.executable, "flood.py", os.environ["FLOOD_MB"]])
        elif view.turn == 1 and self.child is not None:
            status = self.child.wait()
            spent = time.monotonic() - self.started
            print(f"flood: flood.py exited with {status} after {spent:.2f} s", flush=True)
            self.child = None
        return self.rng.choice(view.legal)


if __name__ == "__main__":
    run(Flood())
