"""House bots behind one small :class:`Bot` interface.

:mod:`arena.bots.base` is the interface (what a bot author implements in the bot kit; the arena
wraps it in a process when the bot runs in the sandbox); :mod:`arena.bots.registry` names the
house bots (:func:`~arena.bots.registry.make_bot`); one module per bot.
"""

from .base import Bot, GameInfo

__all__ = ["Bot", "GameInfo"]
