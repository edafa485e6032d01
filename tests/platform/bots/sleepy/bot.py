"""A test bot that plays random legal decisions slowly, so that a match lasts a few seconds.

NIMMT_BOT_OPTIONS is not used; the nap is 0.25 s per decision (well within the arena's 1 s),
or $SLEEPY_NAP_SECONDS where a test runs it by hand (the sandbox passes no such variable).
"""

import os
import time

from arena.botkit import run
from arena.bots.random import RandomBot
from arena.engine.decisions import Decision
from arena.engine.observation import Observation

NAP = float(os.environ.get("SLEEPY_NAP_SECONDS", "0.25"))


class SleepyBot(RandomBot):
    name = "sleepy"

    def decide(self, view: Observation) -> Decision:
        time.sleep(NAP)
        return super().decide(view)


if __name__ == "__main__":
    run(SleepyBot())
