"""Fixture: holds 900 MB of touched memory (of its 1024 MB) for the whole match, and plays."""

from arena.botkit import run
from arena.bots.random import RandomBot

if __name__ == "__main__":
    ballast = [b"x" * (100 * 1024 * 1024) for _ in range(9)]
    print(f"hold-900mb: holding {sum(map(len, ballast)) // 2**20} MB", flush=True)
    run(RandomBot())
