"""The house bot ``mcs`` as a program: Monte Carlo sampling of the hidden tiles.

The strategy lives in ``arena/bots/mcs.py``; this file only connects it to the arena. Options
(as in ``nimmt play --bots mcs:...``) come from the NIMMT_BOT_OPTIONS environment variable.
"""

import os

from arena.botkit import run
from arena.bots.registry import make_bot

if __name__ == "__main__":
    run(make_bot("mcs:" + os.environ.get("NIMMT_BOT_OPTIONS", "")))
