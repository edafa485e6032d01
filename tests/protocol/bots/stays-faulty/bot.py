"""Says it stays, and answers its first decision of every process illegally (a fault): a
process with a fault is never kept for another match."""

from arena.botkit import KitBot, run
from arena.engine.decisions import Decision, PlayTile
from arena.engine.observation import Observation


class Faulty(KitBot):
    name = "stays-faulty"

    def __init__(self) -> None:
        super().__init__()
        self.wrong = True

    def decide(self, view: Observation) -> Decision:
        if self.wrong:
            self.wrong = False
            return PlayTile(1000)
        return view.legal[0]


if __name__ == "__main__":
    run(Faulty())
