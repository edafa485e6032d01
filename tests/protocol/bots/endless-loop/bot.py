"""Hostile fixture: plays one turn, then loops forever on its second decision."""

from arena.botkit import KitBot, run


class Loop(KitBot):
    name = "endless-loop"

    def decide(self, view):
        if view.turn >= 2:
            while True:
                pass
        return self.rng.choice(view.legal)


if __name__ == "__main__":
    run(Loop())
