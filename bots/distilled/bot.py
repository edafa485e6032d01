"""The ``distilled`` bot: a small neural network that imitates the ``search`` house bot.

For each legal option the bot builds a short input vector (:func:`option_inputs`, 78 numbers):
the state (variant, decision kind, hand size, unseen tiles, own margin) and what the option does
as far as the seat can tell — the tile, the row it goes to by the normal rule (or the action
card's row), the space it lands on (its kind, a luck marker, the row's bullheads, spaces left
before the row is complete, unseen tiles that could land there first). A multilayer perceptron
(ReLU) scores each option; the bot plays the best. ``train.py`` beside this file trained it on the
``search`` bot's decisions for the bot's own positions in :class:`arena.env.SeatEnv` games
against ``heuristic`` (DAgger), and wrote ``weights.npz``; ``README.md`` has the figures.

The inputs and the plain-Python inference (the sandbox has no numpy) are
:mod:`arena.bots.options`.
"""

from pathlib import Path

from arena.botkit import run
from arena.bots.base import Bot, GameInfo
from arena.bots.options import Policy, Table, option_inputs, read_weights
from arena.engine.decisions import Decision
from arena.engine.observation import Observation

#: The network for the card game, and the one for the board game's four variants.
WEIGHTS = Path(__file__).resolve().parent / "weights.npz"
BOARD_WEIGHTS = Path(__file__).resolve().parent / "weights-board.npz"


class DistilledBot(Bot):
    """Plays the legal decision the network scores highest (the first of equal ones)."""

    name = "distilled"

    def __init__(self, weights: Path = WEIGHTS, board_weights: Path = BOARD_WEIGHTS) -> None:
        self.card = Policy(read_weights(weights))
        self.board = Policy(read_weights(board_weights))

    def start_game(self, info: GameInfo) -> None:
        """Nothing to prepare: the bot is deterministic."""

    def decide(self, view: Observation) -> Decision:
        legal = list(view.legal)
        if len(legal) == 1:
            return legal[0]
        table = Table(view)
        policy = self.card if table.classic else self.board
        scores = [policy.score(option_inputs(table, d)) for d in legal]
        return legal[max(range(len(legal)), key=scores.__getitem__)]


if __name__ == "__main__":
    run(DistilledBot())
