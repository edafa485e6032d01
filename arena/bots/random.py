"""The ``random`` house bot: a uniformly random legal decision, reproducible from the game's seed.

It is the floor every other bot is measured against. Its generator is seeded by
:attr:`GameInfo.seed <arena.bots.base.GameInfo.seed>`, so the same seed gives the same game.

>>> from arena.engine import Game
>>> from arena.engine.observation import observe
>>> from arena.bots.base import GameInfo
>>> game = Game.new("basic", players=2, seed=5)
>>> bot = RandomBot()
>>> bot.start_game(GameInfo("basic", players=2, seat=0, seed=42))
>>> first = bot.decide(observe(game, 0))
>>> bot.start_game(GameInfo("basic", players=2, seat=0, seed=42))
>>> bot.decide(observe(game, 0)) == first
True
"""

import random

from arena.engine.decisions import Decision
from arena.engine.observation import Observation

from .base import Bot, GameInfo


class RandomBot(Bot):
    """Picks uniformly among ``view.legal``. Takes no options."""

    name = "random"

    def __init__(self, options: str = "") -> None:
        if options:
            raise ValueError(f"bot 'random' takes no options, got {options!r}")
        self._rng = random.Random(0)

    def start_game(self, info: GameInfo) -> None:
        self._rng = random.Random(info.seed)

    def decide(self, view: Observation) -> Decision:
        if not view.legal:
            raise ValueError(f"seat {view.seat} has nothing to decide")
        return self._rng.choice(view.legal)
