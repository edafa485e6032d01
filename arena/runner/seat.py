"""A seat at the table: the one interface between the referee and whoever plays.

The referee (:mod:`arena.runner.referee`) speaks to every seat alike, with the small messages
below; a :class:`Seat` turns them into whatever its player understands. One class per kind of
player:

- :class:`HouseSeat`: a house bot in this process (trusted, never timed);
- :class:`DroppedSeat`: a bot dropped from the match; the arena plays its default decisions;
- :class:`arena.runner.connected.ProgramSeat` and :class:`~arena.runner.connected.ExternalSeat`:
  a bot program over the protocol, sandboxed or started by hand;
- a seat an :class:`~arena.runner.lineup.Entrant` brings along (``joined``), e.g. the site's
  remote seat, a bot on its owner's machine playing through the gateway.

A seat raises :class:`SeatLost` once it can no longer play (its process ended, its stream
closed); everything else about time and faults is the referee's business.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from arena.bots.base import Bot, GameInfo
from arena.engine.decisions import Decision, DecisionKind
from arena.engine.observation import Observation

from .defaults import default_decision
from .notes import Note
from .results import Drop, Fault


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
    it was thinking (bounded, :class:`~arena.runner.notes.Note`)."""

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
    that had timed out; not a fault) or ``protocol`` (a fault)."""

    kind: str  # "late" or "protocol"
    request_id: int
    detail: str


class Seat(ABC):
    """Who plays one entrant's seat. Subclasses implement the ``async`` messages; a seat that
    can no longer play raises :class:`SeatLost` from any of them.

    ``timed``: whether the referee bounds the seat's answers and writes by its deadline (every
    seat but the house bots and the dropped seat).
    """

    timed = True
    #: Seconds the referee waits past a request's deadline for the answer to come back: the
    #: hops between the arena and a remote bot's gateway, which are not the bot's time (a
    #: remote seat's :attr:`Reply.received` leaves them out, so the verdict is still the
    #: deadline's).
    transit = 0.0

    def __init__(self, name: str) -> None:
        self.name = name

    @abstractmethod
    async def start_game(self, start: GameStart) -> None:
        """A game begins."""

    @abstractmethod
    async def decide(self, request: Request) -> Reply:
        """The seat's answer to ``request``."""

    async def notify(self, notice: Notice) -> None:
        """Tell the seat something (default: nothing to tell)."""
        return None

    @abstractmethod
    async def end_game(self, end: GameEnd) -> None:
        """A game is over."""

    def expire(self, request_id: int) -> bool:
        """``request_id`` ran out of time: forget it (a later answer is only ``late``). True if
        the request never even reached the seat (it stopped reading: it stalls the table)."""
        return False

    def take_problems(self) -> list[Problem]:
        """What the seat sent since the last look that answered nothing."""
        return []

    async def lost_detail(self, reason: str) -> str:
        """Why the seat was lost, in words for its author (exit status, last log lines)."""
        return reason

    def drop(self, kind: str, detail: str) -> None:
        """The arena drops the seat from the match: end its stream and process."""
        return None

    async def end_match(self, games: int, faults: int) -> None:
        """The match is over (sent to seats still playing)."""
        return None

    def network(self) -> Mapping[str, float | int | str] | None:
        """A remote seat's network figures for ``match.json`` (round trip, allowance); none
        for a seat on this machine."""
        return None


class HouseSeat(Seat):
    """A house bot in this process. ``threaded``: think in a worker thread, so that the event
    loop keeps reading (and timing) other seats' answers meanwhile; a table of house bots only
    thinks on the loop's thread, which is faster."""

    timed = False

    def __init__(self, name: str, bot: Bot, threaded: bool = False) -> None:
        super().__init__(name)
        self.bot = bot
        self.threaded = threaded

    async def start_game(self, start: GameStart) -> None:
        info = GameInfo(start.variant, start.players, start.seat, start.seed, start.game_id)
        self.bot.start_game(info)

    async def decide(self, request: Request) -> Reply:
        loop = asyncio.get_running_loop()
        if self.threaded:
            decision = await loop.run_in_executor(None, self.bot.decide, request.view)
        else:
            decision = self.bot.decide(request.view)
        said = self.bot.note()
        note = (
            None if said is None else Note.bounded(said.text, said.values, len(request.view.legal))
        )
        return Reply(decision, loop.time(), note=note)

    async def end_game(self, end: GameEnd) -> None:
        self.bot.end_game(end.view, end.scores, end.ranks)


class DroppedSeat(Seat):
    """A bot dropped from the match (:class:`~arena.runner.results.Drop`): the arena plays
    the default decision (:mod:`arena.runner.defaults`) for it, at once."""

    timed = False

    def __init__(self, name: str, dropped: Drop) -> None:
        super().__init__(name)
        self.dropped = dropped

    async def start_game(self, start: GameStart) -> None:
        pass

    async def decide(self, request: Request) -> Reply:
        return Reply(default_decision(request.view), asyncio.get_running_loop().time())

    async def end_game(self, end: GameEnd) -> None:
        pass
