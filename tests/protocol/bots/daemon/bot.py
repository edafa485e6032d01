"""Hostile fixture: on turn 2 of game 1, leaves a daemon behind (``sleeper.py``: fork, setsid,
fork; a sleeper in a session of its own, nobody's child), then plays on as if nothing happened."""

import os
import subprocess
import sys

from arena.botkit import KitBot, run
from arena.engine.decisions import Decision, DecisionKind
from arena.engine.observation import Observation


class Daemon(KitBot):
    name = "daemon"

    def decide(self, view: Observation) -> Decision:
        if (
            self.info.game_id == "game-00001"
            and view.turn == 2
            and view.pending is not None
            and view.pending.kind is DecisionKind.TILE
        ):
            # From a fresh interpreter: the children of a process holding a gRPC client run
            # gRPC's fork handlers, which may stall or abort them.
            subprocess.run([sys.executable, "sleeper.py", str(os.getsid(0))], check=True)
            print("daemon: the sleeper is loose; playing on", flush=True)
        return self.rng.choice(view.legal)


if __name__ == "__main__":
    run(Daemon())
