"""Hostile fixture: on turn 2 of every game plays a tile it does not hold."""

from arena.botkit import KitBot, run
from arena.engine.decisions import DecisionKind, PlayTile


class Illegal(KitBot):
    name = "illegal"

    def decide(self, view):
        if view.turn == 2 and view.pending.kind is DecisionKind.TILE:
            missing = next(t for t in range(1, 105) if t not in view.hand)
            return PlayTile(missing)
        return self.rng.choice(view.legal)


if __name__ == "__main__":
    run(Illegal())
