"""The house bot ``search`` as a program: determinized search with an opponent model.

The strategy lives in ``arena/bots/search.py``; this file only connects it to the arena. Options
(as in ``nimmt play --bots search:...``) come from the NIMMT_BOT_OPTIONS environment variable.
"""

import os

from arena.botkit import run
from arena.bots.registry import make_bot

if __name__ == "__main__":
    run(make_bot("search:" + os.environ.get("NIMMT_BOT_OPTIONS", "")))
