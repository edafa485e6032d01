"""A test bot: the house bot ``random``'s strategy, connected with the bot kit."""

from arena.botkit import run
from arena.bots.random import RandomBot

if __name__ == "__main__":
    run(RandomBot())
