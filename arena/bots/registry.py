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

import importlib
from collections.abc import Callable, Iterator, Mapping

from .base import Bot

#: Where each house bot's class lives; a bot's module is loaded when it is first asked for
#: (``mcs`` and ``search`` load the compiled playout core, a match of others needs neither).
_CLASSES = {
    "heuristic": ("arena.bots.heuristic", "HeuristicBot"),
    "mcs": ("arena.bots.mcs", "MonteCarloBot"),
    "random": ("arena.bots.random", "RandomBot"),
    "search": ("arena.bots.search", "SearchBot"),
}


class _Factories(Mapping[str, Callable[[str], Bot]]):
    """The house bots' factories by name, each module imported on first use."""

    def __getitem__(self, name: str) -> Callable[[str], Bot]:
        module, attribute = _CLASSES[name]
        factory: Callable[[str], Bot] = getattr(importlib.import_module(module), attribute)
        return factory

    def __iter__(self) -> Iterator[str]:
        return iter(_CLASSES)

    def __len__(self) -> int:
        return len(_CLASSES)


#: Each house bot's factory, called with the spec's options ("" if none).
HOUSE_BOTS: Mapping[str, Callable[[str], Bot]] = _Factories()


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
