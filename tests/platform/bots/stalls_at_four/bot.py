"""A test bot that plays at once at any table but one of four players, where it stalls past
every deadline (it answers after 30 s): it must fail validation, which plays four players."""

import time

from arena.botkit import KitBot, run
from arena.engine.decisions import Decision
from arena.engine.observation import Observation


class StallsAtFour(KitBot):
    name = "stalls-at-four"

    def decide(self, view: Observation) -> Decision:
        if view.players == 4:
            time.sleep(30)
        return self.rng.choice(view.legal)


if __name__ == "__main__":
    run(StallsAtFour())
