"""The house bots by name: ``make_bot("random")``, ``make_bot("mcs:playouts=200")``.

A spec is a house bot's name, then optionally ``:`` and its options (each bot parses its own).
A module of its own, beside the bots it names, so that the :class:`~arena.bots.base.Bot`
interface (what the bot kit needs in every sandbox) loads without them.

>>> available()
['heuristic', 'mcs', 'random', 'search']
>>> make_bot("random").__class__.__name__
'RandomBot'
>>> make_bot("nope")
Traceback (most recent call last):
...
ValueError: unknown bot 'nope'; house bots: heuristic, mcs, random, search
"""

from collections.abc import Callable, Mapping
from types import MappingProxyType

from .base import Bot
from .heuristic import HeuristicBot
from .mcs import MonteCarloBot
from .random import RandomBot
from .search import SearchBot

#: Each house bot's factory, called with the spec's options ("" if none).
HOUSE_BOTS: Mapping[str, Callable[[str], Bot]] = MappingProxyType(
    {"heuristic": HeuristicBot, "mcs": MonteCarloBot, "random": RandomBot, "search": SearchBot}
)


def available() -> list[str]:
    """Names of the house bots."""
    return sorted(HOUSE_BOTS)


def make_bot(spec: str) -> Bot:
    """A house bot from its spec: ``random``, ``heuristic``, ``mcs``, ``search`` or
    ``mcs:playouts=200``."""
    name, _, options = spec.partition(":")
    factory = HOUSE_BOTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; house bots: {', '.join(available())}")
    return factory(options)
