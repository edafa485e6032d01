"""A seat at the table: the one interface between the referee and whoever plays.

The referee (:mod:`arena.runner.referee`) speaks to every seat alike, with the small messages
of :mod:`arena.table.messages`; a :class:`Seat` turns them into whatever its player
understands. One class per kind of player:

- :class:`HouseSeat`: a house bot in this process (trusted, never timed);
- :class:`DroppedSeat`: a bot dropped from the match; the arena plays its default decisions;
- :class:`arena.runner.connected.ProgramSeat` and :class:`~arena.runner.connected.ExternalSeat`:
  a bot program over the protocol, sandboxed or started by hand;
- a seat an :class:`~arena.runner.lineup.Entrant` brings along (``joined``), e.g. the site's
  remote seat, a bot on its owner's machine playing through the gateway.

A seat raises :class:`~arena.table.messages.SeatLost` once it can no longer play (its process
ended, its stream closed); everything else about time and faults is the referee's business.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any

from arena.bots.base import Bot, GameInfo
from arena.table.defaults import default_decision
from arena.table.faults import Drop
from arena.table.messages import GameEnd, GameStart, Notice, Problem, Reply, Request
from arena.table.notes import Note


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

    def post(self, request: Request) -> Posted | None:
        """Hand ``request`` over without waiting, if the seat can take it at once: its answer
        comes through the :class:`Posted`, so the referee needs no task per decision to judge
        each seat at its own deadline. ``None`` (the default): the referee awaits
        :meth:`decide` instead."""
        return None

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


class Posted:
    """A request a seat took without waiting (:meth:`Seat.post`). ``answer`` is done once the
    answer has been read or the seat lost (the referee fails it with :class:`TimeoutError` at
    the deadline); ``reply()`` then gives the seat's :class:`Reply`, or raises what
    :meth:`Seat.decide` would (:class:`~arena.table.messages.SeatLost`, ``TimeoutError``)."""

    __slots__ = ("answer", "reply")

    def __init__(self, answer: asyncio.Future[Any], reply: Callable[[], Reply]) -> None:
        self.answer = answer
        self.reply = reply


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
    """A bot dropped from the match (:class:`~arena.table.faults.Drop`): the arena plays
    the default decision (:mod:`arena.table.defaults`) for it, at once."""

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
