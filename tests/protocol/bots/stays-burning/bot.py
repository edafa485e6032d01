"""Hostile: says it stays for another match, and burns CPU from the match's end on (a thread
that spins for ever) while it waits for the next one: frozen in the pool, it must get none."""

import threading

from arena import botkit
from arena.bots.random import RandomBot

wait_for_token = botkit._next_token


def _spin() -> None:
    while True:
        pass


def burning_wait(path: str, last: str) -> str | None:
    threading.Thread(target=_spin, daemon=True).start()
    return wait_for_token(path, last)


if __name__ == "__main__":
    botkit._next_token = burning_wait
    botkit.run(RandomBot())
