"""Hostile: says it stays for another match (Hello.stays), then never comes back: it sleeps
instead of reconnecting. The arena must give its seat a new process, not wait for it."""

import time

from arena import botkit
from arena.bots.random import RandomBot


def never(path: str, last: str) -> str | None:
    time.sleep(3600)
    return None


if __name__ == "__main__":
    botkit._next_token = never
    botkit.run(RandomBot())
