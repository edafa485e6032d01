"""Hostile fixture: a bug in the bot's own code on turn 3 of the first game."""

from arena.botkit import KitBot, run


class Raises(KitBot):
    name = "raises"

    def choose_tile(self, view):
        if view.turn == 3:
            return min(view.hand) // 0
        return min(view.hand)


if __name__ == "__main__":
    run(Raises())
