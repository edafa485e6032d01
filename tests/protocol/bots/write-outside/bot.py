"""Hostile fixture: on turn 2 of game 1, tries to create the file ``ESCAPE_NAME`` in every
folder of ``ESCAPE_FOLDERS`` (a JSON list), logs WROTE or DENIED for each, then plays on."""

import errno
import json
import os

from arena.botkit import KitBot, run
from arena.engine.decisions import Decision, DecisionKind
from arena.engine.observation import Observation


def errno_name(error: OSError) -> str:
    return errno.errorcode.get(error.errno or 0, str(error.errno))


def scribble(name: str, folders: list[str]) -> None:
    for folder in folders:
        try:
            with open(os.path.join(folder, name), "w") as file:
                file.write("escaped\n")
        except OSError as error:
            print(f"write-outside: DENIED {folder} {errno_name(error)}", flush=True)
        else:
            print(f"write-outside: WROTE {folder}", flush=True)


class WriteOutside(KitBot):
    name = "write-outside"

    def decide(self, view: Observation) -> Decision:
        if (
            self.info.game_id == "game-00001"
            and view.turn == 2
            and view.pending is not None
            and view.pending.kind is DecisionKind.TILE
        ):
            scribble(os.environ["ESCAPE_NAME"], json.loads(os.environ["ESCAPE_FOLDERS"]))
        return self.rng.choice(view.legal)


if __name__ == "__main__":
    run(WriteOutside())
