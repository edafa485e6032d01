"""Hostile fixture: on turn 2 of game 1, allocates and touches 1.5 GB in 64 MB steps (more than
its 1024 MB), so the memory cgroup's OOM killer ends it."""

from arena.botkit import KitBot, run
from arena.engine.decisions import Decision, DecisionKind
from arena.engine.observation import Observation

STEP_MB = 64


class Oom(KitBot):
    name = "oom-1500mb"

    def decide(self, view: Observation) -> Decision:
        if (
            self.info.game_id == "game-00001"
            and view.turn == 2
            and view.pending is not None
            and view.pending.kind is DecisionKind.TILE
        ):
            blocks = []
            for step in range(1, 1536 // STEP_MB + 1):
                blocks.append(b"x" * (STEP_MB * 1024 * 1024))
                print(f"oom-1500mb: touched {step * STEP_MB} MB", flush=True)
        return self.rng.choice(view.legal)


if __name__ == "__main__":
    run(Oom())
