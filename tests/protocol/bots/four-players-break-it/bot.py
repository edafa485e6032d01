"""Hostile fixture: plays well at any table but one of four players, where its code breaks."""

from arena.botkit import KitBot, run


class FourBreaksIt(KitBot):
    name = "four-players-break-it"

    def decide(self, view):
        if view.players == 4:
            raise IndexError("seat table sized for 2, 3, 5 or 6 players")
        return self.rng.choice(view.legal)


if __name__ == "__main__":
    run(FourBreaksIt())
