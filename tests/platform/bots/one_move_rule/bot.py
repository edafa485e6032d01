"""A test bot: the house bot ``heuristic``'s strategy (a one-move rule), connected with the bot
kit; a much stronger player than ``quick``."""

from arena.botkit import run
from arena.bots.heuristic import HeuristicBot

if __name__ == "__main__":
    run(HeuristicBot())
