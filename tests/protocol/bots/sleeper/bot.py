"""Hostile fixture: plays random, but once (game 1, turn 3) sleeps past its deadline."""

import time

from arena.botkit import KitBot, run
from arena.engine.decisions import DecisionKind


class Sleeper(KitBot):
    name = "sleeper"

    def decide(self, view):
        if (
            self.info.game_id == "game-00001"
            and view.turn == 3
            and view.pending.kind is DecisionKind.TILE
        ):
            time.sleep(3.0)  # the test's deadline is 1,000 ms + 1,000 ms bank
        return self.rng.choice(view.legal)


if __name__ == "__main__":
    run(Sleeper())
