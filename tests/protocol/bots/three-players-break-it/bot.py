"""Fixture: plays at any table but one of three players, where its code breaks (no check of
the arena's own plan sits at three; a ladder of three does)."""

from arena.botkit import KitBot, run


class ThreeBreaksIt(KitBot):
    name = "three-players-break-it"

    def decide(self, view):
        if view.players == 3:
            raise IndexError("seat table sized for 2, 4, 5 or 6 players")
        return self.rng.choice(view.legal)


if __name__ == "__main__":
    run(ThreeBreaksIt())
