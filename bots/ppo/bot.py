"""The ``ppo`` bot: a small network trained by reinforcement learning for the card game.

In the card game (``classic``) the bot scores each legal option with a multilayer perceptron
(``weights.npz``) over the option's inputs (:func:`arena.bots.options.option_inputs`) and plays
the best; ``train.py`` beside this file trained it with PPO against ``heuristic`` after a
behaviour-cloning warm start (``README.md`` has the command, the seed and the figures). The board
game's four variants were not trained: there the bot plays the ``heuristic`` house rule.

Inference is plain Python (:mod:`arena.bots.options`), so the bot runs in the arena's sandbox,
which has no numpy.

The option ``weights=clone`` (``NIMMT_BOT_OPTIONS``, as for the house bot programs) plays
``clone.npz`` instead, the warm start before PPO, so that what the reinforcement learning added
can be measured; only ``.npz`` files of this folder can be named.
"""

import os
import re
from pathlib import Path

from arena.botkit import run
from arena.bots.base import Bot, GameInfo
from arena.bots.heuristic import HeuristicBot
from arena.bots.options import Policy, Table, option_inputs, read_weights
from arena.engine.decisions import Decision
from arena.engine.observation import Observation

#: The card game's network.
WEIGHTS = Path(__file__).resolve().parent / "weights.npz"
#: The one variant the network was trained for.
TRAINED = "classic"


def weights_of(options: str) -> Path:
    """The weights that ``options`` (``""`` or ``weights=NAME``) name: ``NAME.npz`` beside this
    file.

    >>> weights_of("").name, weights_of("weights=clone").name
    ('weights.npz', 'clone.npz')
    """
    if not options:
        return WEIGHTS
    match = re.fullmatch(r"weights=([a-z0-9_-]+)", options)
    if match is None:
        raise ValueError(f"options {options!r}: only weights=NAME (NAME.npz of {WEIGHTS.parent})")
    path = WEIGHTS.parent / f"{match[1]}.npz"
    if not path.is_file():
        raise ValueError(f"options {options!r}: there is no {path}")
    return path


class PPOBot(Bot):
    """Card game: the legal decision the network scores highest (the first of equal ones);
    board game: ``heuristic``'s."""

    name = "ppo"

    def __init__(self, weights: Path | None = None) -> None:
        if weights is None:
            weights = weights_of(os.environ.get("NIMMT_BOT_OPTIONS", ""))
        self.policy = Policy(read_weights(weights))
        self.fallback = HeuristicBot()

    def start_game(self, info: GameInfo) -> None:
        self.fallback.start_game(info)

    def decide(self, view: Observation) -> Decision:
        if view.variant != TRAINED:
            return self.fallback.decide(view)
        legal = list(view.legal)
        if len(legal) == 1:
            return legal[0]
        table = Table(view)
        scores = [self.policy.score(option_inputs(table, d)) for d in legal]
        return legal[max(range(len(legal)), key=scores.__getitem__)]


if __name__ == "__main__":
    run(PPOBot())
