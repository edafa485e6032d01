"""Hostile fixture: on turn 2 of game 1, tries to read every path in ``ESCAPE_PATHS`` (a JSON
list; a file's first byte or a folder's listing), logs READ or DENIED for each, then plays on."""

import errno
import json
import os

from arena.botkit import KitBot, run
from arena.engine.decisions import Decision, DecisionKind
from arena.engine.observation import Observation


def errno_name(error: OSError) -> str:
    return errno.errorcode.get(error.errno or 0, str(error.errno))


def snoop(paths: list[str]) -> None:
    for path in paths:
        try:
            if os.path.isdir(path):
                os.listdir(path)
            else:
                with open(path, "rb") as file:
                    file.read(1)
        except OSError as error:
            print(f"read-outside: DENIED {path} {errno_name(error)}", flush=True)
        else:
            print(f"read-outside: READ {path}", flush=True)


class ReadOutside(KitBot):
    name = "read-outside"

    def decide(self, view: Observation) -> Decision:
        if (
            self.info.game_id == "game-00001"
            and view.turn == 2
            and view.pending is not None
            and view.pending.kind is DecisionKind.TILE
        ):
            snoop(json.loads(os.environ["ESCAPE_PATHS"]))
        return self.rng.choice(view.legal)


if __name__ == "__main__":
    run(ReadOutside())
