"""A well-behaved opponent: the random house bot's strategy through the bot kit."""

from arena.botkit import run
from arena.bots.random import RandomBot

if __name__ == "__main__":
    run(RandomBot())
