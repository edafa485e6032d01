"""Typed errors of the rules engine, each with a message a bot author can act on.

All derive from :class:`NimmtError`, itself a :class:`ValueError`, so callers can catch
one family or one exact kind.
"""


class NimmtError(ValueError):
    """Base class of every error the engine raises on bad input."""


class UnknownVariantError(NimmtError):
    """The variant name is not one of the five the engine plays."""


class PlayerCountError(NimmtError):
    """The number of players is outside what the variant allows."""


class IllegalDecisionError(NimmtError):
    """A decision that the rules forbid in the current position (e.g. a tile not in hand)."""


class UnexpectedDecisionError(IllegalDecisionError):
    """A decision nobody asked for: wrong seat, wrong kind, or the game is over."""


class SetupError(NimmtError):
    """An explicit starting position that is inconsistent (missing or duplicated tiles, ...)."""


class ReplayError(NimmtError):
    """A replay file that is not valid ``nimmt-replay/1``."""


class UnknownReadingError(NimmtError):
    """A rules reading (a replay's ``rules`` key) that the engine does not know."""
