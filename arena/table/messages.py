"""The messages between the referee and a seat: what the arena says to whoever plays, and back.

The referee (:mod:`arena.runner.referee`) speaks to every seat alike
(:class:`arena.runner.seat.Seat`) with these small values; the protocol
(:mod:`arena.protocol.convert`) carries them to a bot program, the site's seats to a person or a
remote bot. A seat raises :class:`SeatLost` once it can no longer play.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from arena.engine.decisions import Decision, DecisionKind
from arena.engine.observation import Observation

from .faults import Fault
from .notes import Note


class SeatLost(Exception):
    """The seat cannot play any more (process ended, stream closed); the message says why."""


@dataclass(frozen=True)
class GameStart:
    """A game begins: who sits where, the deal's layout, the seat's own seed and bank."""

    game_id: str
    index: int  # 0-based, in the match
    variant: str
    players: int
    seat: int
    seed: int
    names: tuple[str, ...]
    layout: tuple[str, ...]
    bank_ms: int


@dataclass(frozen=True)
class Request:
    """A decision asked of the seat, with the time it has (allowance + bank left). Requests
    with the same ``moment`` are asked at once, of the same position: their views differ only
    in what is private to each seat."""

    request_id: int
    moment: int
    game_id: str
    seat: int
    kind: DecisionKind
    view: Observation
    deadline_ms: int
    bank_ms: int
    allowance_ms: int


@dataclass(frozen=True)
class Reply:
    """A seat's answer to a :class:`Request`: a decision, or ``error`` saying why what it sent
    is none; ``received`` is the event-loop time the answer arrived; ``note`` what the bot said
    it was thinking (bounded, :class:`~arena.table.notes.Note`)."""

    decision: Decision | None
    received: float
    error: str = ""
    note: Note | None = None


class NoticeKind(StrEnum):
    """What a :class:`Notice` tells the bot."""

    TIMEOUT = "timeout"
    ILLEGAL = "illegal"
    PROTOCOL = "protocol"
    LATE = "late"  # an answer came after its request timed out (the timeout was the fault)


@dataclass(frozen=True)
class Notice:
    """Something the bot should know: a fault of its own (and the decision played for it)."""

    kind: NoticeKind
    request_id: int
    game_id: str
    message: str
    fault: bool
    played: Decision | None = None


@dataclass(frozen=True)
class GameEnd:
    """A game is over: the seat's final view, every seat's score and rank, the faults."""

    game_id: str
    view: Observation
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    faults: tuple[Fault, ...]


@dataclass(frozen=True)
class Problem:
    """Something a seat sent that answered no open request: ``late`` (an answer to a request
    that had timed out; not a fault), ``protocol`` (a fault) or ``flood`` (too many such
    messages at once: a fault, and the seat is dropped)."""

    kind: str  # "late", "protocol" or "flood"
    request_id: int
    detail: str
