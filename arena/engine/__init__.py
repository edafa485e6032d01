"""The rules engine of 6 nimmt! Brettspiel (all four modes) and of the card game.

Pure Python, importing nothing from Django, gRPC or Celery. Start with :class:`Game`
(the state and its transitions), :func:`observe` (one seat's view) and
:mod:`arena.engine.replay` (the ``nimmt-replay/1`` format).
"""

from typing import TYPE_CHECKING, Any

from .decisions import (
    Choice,
    Decision,
    DecisionKind,
    Pending,
    PlaceLuck,
    PlayAction,
    PlayTile,
    TakeRow,
    parse_decision,
)
from .errors import (
    IllegalDecisionError,
    NimmtError,
    PlayerCountError,
    ReplayError,
    SetupError,
    UnexpectedDecisionError,
    UnknownVariantError,
)
from .tiles import bullheads
from .variants import VARIANT_NAMES, Variant, variant

if TYPE_CHECKING:
    from .game import Game, Result, Snapshot, TurnRecord, competition_ranks

#: Loaded on first use: a bot kit reads views and decisions without the rules themselves.
_FROM_GAME = frozenset({"Game", "Result", "Snapshot", "TurnRecord", "competition_ranks"})


def __getattr__(name: str) -> Any:
    if name in _FROM_GAME:
        from . import game

        return getattr(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "VARIANT_NAMES",
    "Choice",
    "Decision",
    "DecisionKind",
    "Game",
    "IllegalDecisionError",
    "NimmtError",
    "Pending",
    "PlaceLuck",
    "PlayAction",
    "PlayTile",
    "PlayerCountError",
    "ReplayError",
    "Result",
    "SetupError",
    "Snapshot",
    "TakeRow",
    "TurnRecord",
    "UnexpectedDecisionError",
    "UnknownVariantError",
    "Variant",
    "bullheads",
    "competition_ranks",
    "parse_decision",
    "variant",
]
