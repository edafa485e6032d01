"""The rules engine of 6 nimmt! Brettspiel (all four modes) and of the card game.

Pure Python, importing nothing from Django, gRPC or Celery. Start with :class:`Game`
(the state and its transitions), :func:`observe` (one seat's view) and
:mod:`arena.engine.replay` (the ``nimmt-replay/1`` format).
"""

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
from .game import Game, Result, Snapshot, TurnRecord, competition_ranks
from .tiles import bullheads
from .variants import VARIANT_NAMES, Variant, variant

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
