"""Fixture: a legal but slow bot that thinks 0.3 s over every decision (on its time bank)."""

import time

from arena.botkit import KitBot, run


class Thinker(KitBot):
    name = "thinker"

    def decide(self, view):
        time.sleep(0.3)
        return self.rng.choice(view.legal)


if __name__ == "__main__":
    run(Thinker())
