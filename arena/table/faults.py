"""Faults and drops: why the arena played a seat's decision for it, and a bot's removal.

The referee records :class:`Fault` and :class:`Drop` values; the replay keeps its own record of
each fault (``{"seat", "kind", "turn", "detail"}``, see docs/REPLAY.md), which
:meth:`Fault.replay_record` writes, and the protocol tells the bot of its own.

>>> fault = Fault(game=2, seat=1, kind=FaultKind.TIMEOUT, turn=4, detail="no answer\\x1b[2J")
>>> fault.replay_record()
{'seat': 1, 'kind': 'timeout', 'turn': 4, 'detail': 'no answer\\\\x1b[2J'}
>>> FaultKind("illegal").words
'illegal move(s)'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .quote import quote

#: The longest fault detail kept (a bot's text in it is cut before).
DETAIL_LIMIT = 2000


class FaultKind(StrEnum):
    """Why the arena played a seat's decision for it (the replay's ``faults[].kind``)."""

    TIMEOUT = "timeout"  # no answer within the deadline, or the bot stopped reading its stream
    CRASH = "crash"  # the process ended, or its stream did: the seat is dropped at once
    ILLEGAL = "illegal"  # a decision the rules do not allow
    PROTOCOL = "protocol"  # a message the arena could not use

    @property
    def words(self) -> str:
        """How a report to the bot's author counts faults of this kind."""
        return _WORDS[self]


_WORDS = {
    FaultKind.TIMEOUT: "answer(s) too late",
    FaultKind.CRASH: "crash(es)",
    FaultKind.ILLEGAL: "illegal move(s)",
    FaultKind.PROTOCOL: "message(s) the arena could not use",
}


@dataclass(frozen=True)
class Fault:
    """One fault: in game number ``game`` (1-based), at ``seat`` and ``turn`` (0-based, as in
    the replay). ``detail`` is quoted (:func:`~arena.table.quote.quote`) when the fault is made,
    so whatever of the bot's text it holds is safe to print anywhere."""

    game: int
    seat: int
    kind: FaultKind
    turn: int
    detail: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", FaultKind(self.kind))
        object.__setattr__(self, "detail", quote(self.detail, DETAIL_LIMIT))

    def replay_record(self) -> dict[str, Any]:
        """The replay's record of this fault."""
        return {
            "seat": self.seat,
            "kind": self.kind.value,
            "turn": self.turn,
            "detail": self.detail,
        }

    def to_dict(self) -> dict[str, Any]:
        """The replay's record plus the game number (how the site stores a seat's faults)."""
        return {**self.replay_record(), "game": self.game}


@dataclass(frozen=True)
class Drop:
    """A bot's removal from the rest of a match: in game number ``game`` (1-based; 0 before
    the first game, when it never started), because of a fault of ``kind``."""

    game: int
    kind: FaultKind
    detail: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", FaultKind(self.kind))
        object.__setattr__(self, "detail", quote(self.detail, DETAIL_LIMIT))

    @property
    def before_start(self) -> bool:
        """Whether the bot never took its seat (it did not start or never said hello)."""
        return self.game == 0

    def describe(self) -> str:
        """One line for a report."""
        when = "before the first game" if self.before_start else f"in game {self.game}"
        return f"dropped {when} ({self.kind.value}): {self.detail}"

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "kind": self.kind.value, "detail": self.detail}
