"""The :class:`Bot` interface: see a seat's view, return a decision.

A bot is told when a game starts (:meth:`Bot.start_game`, with a seed for its own random
choices so matches are reproducible), asked for decisions (:meth:`Bot.decide`) and told the
result (:meth:`Bot.end_game`). It only ever sees an
:class:`~arena.engine.observation.Observation`; ``view.pending.kind`` says what is asked
(tile, luck, action, take_row) and ``view.legal`` lists the options. After each decision it may
say what it was thinking (:meth:`Bot.note`), for its owner's eyes only.
"""

from abc import ABC, abstractmethod
from dataclasses import dataclass

from arena.engine.decisions import Decision
from arena.engine.observation import Observation
from arena.table.notes import Note


@dataclass(frozen=True)
class GameInfo:
    """What a bot learns when a game starts."""

    variant: str
    players: int
    seat: int
    seed: int  # for the bot's own random generator
    game_id: str = ""


class Bot(ABC):
    """A player. Subclasses implement :meth:`decide`; the other hooks are optional."""

    name: str = "bot"

    def start_game(self, info: GameInfo) -> None:  # noqa: B027 - optional hook
        """Called before the first decision of each game."""

    @abstractmethod
    def decide(self, view: Observation) -> Decision:
        """The decision for ``view.pending``; must be one of ``view.legal``."""

    def note(self) -> Note | None:
        """A note on the decision :meth:`decide` just returned (text, and one number per
        option of ``view.legal``), or ``None`` (the default): kept for the bot's owner."""
        return None

    def end_game(self, view: Observation, scores: tuple[int, ...], ranks: tuple[int, ...]) -> None:  # noqa: B027
        """Called once the game is over, with the final scores and ranks."""
