"""House bots behind one small :class:`Bot` interface, and the registry that names them.

The same interface is what a bot author implements in the bot kit; the arena wraps it in a
process when the bot runs in the sandbox.
"""

from .base import Bot, GameInfo, available, make_bot, register

__all__ = ["Bot", "GameInfo", "available", "make_bot", "register"]
