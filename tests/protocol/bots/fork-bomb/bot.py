"""Hostile fixture: on turn 2 of game 1, starts a fork bomb (``bomb.py``) and waits for it,
so it never answers again."""

import subprocess
import sys

from arena.botkit import KitBot, run
from arena.engine.decisions import Decision, DecisionKind
from arena.engine.observation import Observation


class ForkBomb(KitBot):
    name = "fork-bomb"

    def decide(self, view: Observation) -> Decision:
        if (
            self.info.game_id == "game-00001"
            and view.turn == 2
            and view.pending is not None
            and view.pending.kind is DecisionKind.TILE
        ):
            print("fork-bomb: bombing", flush=True)
            # From a fresh interpreter: the children of a process holding a gRPC client run
            # gRPC's fork handlers, which stall or abort them before they fork on.
            subprocess.run([sys.executable, "bomb.py"])
        return self.rng.choice(view.legal)


if __name__ == "__main__":
    run(ForkBomb())
