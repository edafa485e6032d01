"""Fixture: a bot that remembers every deal its process was dealt, as a cheat would.

A deal is known by the board it starts from (the same in every seat rotation of a deal) and
the hand this seat got. At each game's first decision the bot logs one line,
``DEALT <process> <board hash> <hand hash>``, and ``REPEAT <process> <board hash>`` when its
process has seen that board before: from then on it would know the hands of the seats it sat
in before. ``<process>`` is a random name for the process, so that a log of several processes
(a duplicate match starts the bot once per seat rotation) can be read process by process.
"""

import hashlib
import secrets
import sys

from arena.botkit import KitBot, run
from arena.bots.base import GameInfo
from arena.engine.decisions import Decision
from arena.engine.observation import Observation

PROCESS = secrets.token_hex(6)


def _digest(value: object) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]


class RemembersDeals(KitBot):
    name = "remembers-deals"

    def __init__(self) -> None:
        super().__init__()
        self.boards: set[str] = set()
        self.fresh = False

    def start_game(self, info: GameInfo) -> None:
        super().start_game(info)
        self.fresh = True

    def decide(self, view: Observation) -> Decision:
        if self.fresh:
            self.fresh = False
            board = _digest(view.spaces)
            if board in self.boards:
                print(f"REPEAT {PROCESS} {board}", file=sys.stderr, flush=True)
            self.boards.add(board)
            print(
                f"DEALT {PROCESS} {board} {_digest(sorted(view.hand))}", file=sys.stderr, flush=True
            )
        return super().decide(view)


if __name__ == "__main__":
    run(RemembersDeals())
