"""Hostile fixture: asks for 4 GB on turn 2 of each game (RLIMIT_AS refuses it at once).

In game 1 it catches the MemoryError and plays on; in game 2 it lets the error escape its
decide(), which the bot kit reports as a crash of the bot's code.
"""

from arena.botkit import KitBot, run
from arena.engine.decisions import Decision, DecisionKind
from arena.engine.observation import Observation

FOUR_GB = 4 * 1024**3


class Alloc(KitBot):
    name = "alloc-4gb"

    def decide(self, view: Observation) -> Decision:
        if view.turn == 2 and view.pending is not None and view.pending.kind is DecisionKind.TILE:
            if self.info.game_id == "game-00001":
                try:
                    block = b"x" * FOUR_GB
                except MemoryError:
                    print("alloc-4gb: MemoryError, 4 GB refused; playing on", flush=True)
                else:
                    print(f"alloc-4gb: ALLOCATED {len(block)} bytes", flush=True)
            else:
                block = b"x" * FOUR_GB  # not caught this time
                print(f"alloc-4gb: ALLOCATED {len(block)} bytes", flush=True)
        return self.rng.choice(view.legal)


if __name__ == "__main__":
    run(Alloc())
