"""A test bot that is slow but in time (0.1 s a decision), except once: in the first game, on
its third tile, it stalls 1.5 s, past a test clock of 500 ms plus a 500 ms bank (a timeout)."""

import time

from arena.botkit import KitBot, run
from arena.engine.decisions import Decision, DecisionKind
from arena.engine.observation import Observation


class SlowStaller(KitBot):
    name = "slow-staller"

    def decide(self, view: Observation) -> Decision:
        stall = (
            self.info.game_id == "game-00001"
            and view.turn == 3
            and view.pending is not None
            and view.pending.kind is DecisionKind.TILE
        )
        time.sleep(1.5 if stall else 0.1)
        return self.rng.choice(view.legal)


if __name__ == "__main__":
    run(SlowStaller())
