"""Hostile: says it stays, and at the match's end forks a child that outlives it (a detached
process that spins): frozen with the bot in the pool, ended with it."""

import os

from arena import botkit
from arena.bots.random import RandomBot

wait_for_token = botkit._next_token


def forking_wait(path: str, last: str) -> str | None:
    if os.fork() == 0:
        os.setsid()
        while True:
            pass
    return wait_for_token(path, last)


if __name__ == "__main__":
    botkit._next_token = forking_wait
    botkit.run(RandomBot())
