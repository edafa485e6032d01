"""The house bot ``heuristic`` as a program: a one-move rule for every decision of every variant.

The strategy lives in ``arena/bots/heuristic.py``; this file only connects it to the arena. Options
(as in ``nimmt play --bots heuristic:...``) come from the NIMMT_BOT_OPTIONS environment variable.
"""

import os

from arena.botkit import run
from arena.bots.registry import make_bot

if __name__ == "__main__":
    run(make_bot("heuristic:" + os.environ.get("NIMMT_BOT_OPTIONS", "")))
