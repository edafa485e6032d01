"""The house bot ``random`` as a program: uniformly random legal decisions.

The strategy lives in ``arena/bots/random.py``; this file only connects it to the arena. Options
(as in ``nimmt play --bots random:...``) come from the NIMMT_BOT_OPTIONS environment variable.
"""

import os

from arena.botkit import run
from arena.bots.registry import make_bot

if __name__ == "__main__":
    run(make_bot("random:" + os.environ.get("NIMMT_BOT_OPTIONS", "")))
