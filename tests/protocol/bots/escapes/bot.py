"""Hostile fixture: writes terminal escape sequences (window title, screen clear, a forged
line) to its log and into an illegal answer's text, then crashes on its third decision."""

import sys

from arena.botkit import KitBot, run
from arena.engine.decisions import PlayTile

ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x1b[H\rPASS everything is fine\u202e"


class Escapes(KitBot):
    name = "escapes"

    def __init__(self):
        super().__init__()
        self.asked = 0

    def decide(self, view):
        self.asked += 1
        sys.stderr.write(ESCAPES + "\n")
        sys.stderr.flush()
        if self.asked == 1:
            return PlayTile(999)  # illegal: the engine quotes it back
        if self.asked == 3:
            raise SystemExit(ESCAPES)
        return self.rng.choice(view.legal)


if __name__ == "__main__":
    run(Escapes())
