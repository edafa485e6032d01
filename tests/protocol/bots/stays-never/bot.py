"""A bot of a kit from before warm bots: its Hello does not say it stays (it exits after each
match), so the arena never keeps it. Such a kit knows only the gRPC socket."""

import os

from arena import botkit
from arena.bots.random import RandomBot

match = botkit._match


async def old_match(channel, bot, token, *, stays=False):  # type: ignore[no-untyped-def]
    return await match(channel, bot, token, stays=False)


if __name__ == "__main__":
    os.environ.pop(botkit.FRAMES_ENV, None)
    botkit._match = old_match
    botkit.run(RandomBot())
