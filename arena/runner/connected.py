"""Seats played over the bot protocol: a bot program the arena started (:class:`ProgramSeat`,
sandboxed or not) and a bot somebody started by hand (:class:`ExternalSeat`).

Both speak to their bot through a :class:`~arena.protocol.server.Connection`, turning the
referee's messages into protocol messages (:mod:`arena.protocol.convert`) and back. A seat
keeps track of the request it is writing: a request the bot never took (it stopped reading its
stream) is how the referee tells a stalled bot from a slow one.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections import OrderedDict

import grpc

from arena.protocol import arena_pb2 as pb
from arena.protocol import convert
from arena.protocol.convert import ProtocolError, decision_from_proto
from arena.protocol.server import BotLost, Connection
from arena.protocol.server import Reply as ServerReply
from arena.sandbox import BotProcess
from arena.table.messages import GameEnd, GameStart, Notice, Problem, Reply, Request, SeatLost
from arena.table.notes import Note
from arena.table.quote import quote

from .seat import Posted, Seat

#: Last lines of a bot's log quoted in a crash fault's detail.
LOG_LINES_IN_DETAIL = 3
#: How long a lost seat's process gets to exit, to report its status (seconds).
EXIT_WAIT = 0.5
#: How long the log of a process that exited gets to reach its end, for its last lines (seconds).
LOG_END_WAIT = 0.5
#: How long a dropped bot gets to log the arena's ABORTED status before it is killed (seconds).
DROP_GRACE = 0.3


class SharedViews:
    """The public part of the views asked at one moment, serialized once for all the seats
    asked then (it is the same for each)."""

    def __init__(self) -> None:
        self._views: OrderedDict[tuple[str, int], bytes] = OrderedDict()

    def public(self, request: Request) -> bytes:
        key = (request.game_id, request.moment)
        data = self._views.get(key)
        if data is None:
            data = self._views[key] = convert.public_view(request.view)
            while len(self._views) > 4:
                self._views.popitem(last=False)
        return data


class ConnectedSeat(Seat):
    """A bot on the other end of a protocol stream."""

    def __init__(self, name: str, connection: Connection, views: SharedViews) -> None:
        super().__init__(name)
        self.connection = connection
        self._views = views
        self._writing: int | None = None  # the request being written, until gRPC takes it

    async def _send(self, message: pb.EngineMessage) -> None:
        try:
            await self.connection.send(message)
        except BotLost as lost:
            raise SeatLost(str(lost)) from None

    async def start_game(self, start: GameStart) -> None:
        await self._send(convert.game_start_message(start))

    async def decide(self, request: Request) -> Reply:
        message = convert.request_message(request, self._views.public(request))
        answer = self.connection.expect(request.request_id)
        self._writing = request.request_id
        await self._send(message)
        self._writing = None
        with contextlib.suppress(BotLost):  # _posted_reply raises it as SeatLost
            await answer
        return _posted_reply(answer, request)

    def post(self, request: Request) -> Posted | None:
        """Write the request at once where the stream takes it without waiting (the framed
        socket, open, its buffer not full)."""
        connection = self.connection
        if not connection.can_post():
            return None
        answer = connection.expect(request.request_id)
        full = connection.post(convert.request_message(request, self._views.public(request)))
        if full is not None:  # the bot has not read what is in its buffer yet
            self._writing = request.request_id
            full.add_done_callback(lambda _: self._written(request.request_id))
        return Posted(answer, lambda: _posted_reply(answer, request))

    def _written(self, request_id: int) -> None:
        if self._writing == request_id:
            self._writing = None

    def expire(self, request_id: int) -> bool:
        self.connection.expire(request_id)
        return self._writing == request_id

    async def notify(self, notice: Notice) -> None:
        await self._send(convert.notice_message(notice))

    async def end_game(self, end: GameEnd) -> None:
        await self._send(convert.game_end_message(end))

    def take_problems(self) -> list[Problem]:
        problems, self.connection.problems = self.connection.problems, []
        return problems

    def drop(self, kind: str, detail: str) -> None:
        self.connection.close(
            grpc.StatusCode.ABORTED, f"dropped from the match: {kind}: {detail}"[:1000]
        )

    async def end_match(self, games: int, faults: int, stay: bool = False) -> None:
        """The match is over; ``stay``: the process is kept for another match (MatchEnd.stay)."""
        if self.connection.lost is None:
            await self._send(convert.match_end_message(games, faults, stay))
        self.connection.close()


class ProgramSeat(ConnectedSeat):
    """A bot program the arena launched (:func:`arena.sandbox.launch`) and that said hello."""

    def __init__(
        self, name: str, connection: Connection, views: SharedViews, process: BotProcess
    ) -> None:
        super().__init__(name, connection, views)
        self.process = process

    async def lost_detail(self, reason: str) -> str:
        """The exit status if the process ends within a moment (the stream usually closes just
        before it exits), the limit it ran into, and the last lines of its log."""
        return await program_lost_detail(self.process, reason)

    def drop(self, kind: str, detail: str) -> None:
        super().drop(kind, detail)
        if kind == "crash":
            self.process.kill()
        else:  # a moment to log the ABORTED status before the kill
            asyncio.get_running_loop().call_later(DROP_GRACE, self.process.kill)


class ExternalSeat(ConnectedSeat):
    """A bot somebody started by hand (in a debugger) that connected with its token."""


def _read_reply(reply: ServerReply, request: Request) -> Reply:
    """The answer as the referee's :class:`Reply` (an unreadable decision is its ``error``)."""
    sent = reply.answer
    note = Note.bounded(sent.note, sent.option_values, len(request.view.legal))
    try:
        decision = decision_from_proto(sent.decision)
    except ProtocolError as exc:
        return Reply(None, reply.received, quote(str(exc)), note=note)
    return Reply(decision, reply.received, note=note)


def _posted_reply(answer: asyncio.Future[ServerReply], request: Request) -> Reply:
    try:
        reply = answer.result()
    except BotLost as lost:
        raise SeatLost(str(lost)) from None
    return _read_reply(reply, request)


async def program_lost_detail(process: BotProcess, reason: str) -> str:
    """Why a program's seat was lost, in words for its author."""
    status = None
    loop = asyncio.get_running_loop()
    until = loop.time() + EXIT_WAIT
    while (status := process.poll()) is None and loop.time() < until:
        await asyncio.sleep(0.01)
    tail = await exited_log_tail(process)
    what = f"the process exited with status {status}" if status is not None else reason
    limit = process.limit_exceeded
    if limit is not None:
        what += f" (it ran into its {limit} limit)"
    elif status == 128 + signal.SIGSYS:
        what += " (the sandbox's seccomp filter killed it: a system call no bot may make)"
    return what + tail


async def exited_log_tail(process: BotProcess) -> str:
    """:func:`log_tail`, once the log has its last lines if the bot has exited: the log is
    read from a pipe by a thread of its own, which may not have read them yet (up to
    ``LOG_END_WAIT`` s, for a process that exited while something it started holds the pipe)."""
    if process.poll() is not None:
        loop = asyncio.get_running_loop()
        until = loop.time() + LOG_END_WAIT
        while not process.log_complete and loop.time() < until:
            await asyncio.sleep(0.005)
    return log_tail(process)


def log_tail(process: BotProcess) -> str:
    """The last few non-blank lines of the bot's log, quoted, for a fault's detail."""
    # Without the ^^^ markers under a traceback's source line.
    lines = [line for line in process.log_text().splitlines() if line.strip() and line.strip(" ~^")]
    if not lines:
        return "; its log is empty"
    tail = " | ".join(quote(line.strip(), 200) for line in lines[-LOG_LINES_IN_DETAIL:])
    return f"; last log lines: {tail}"
