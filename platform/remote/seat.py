"""The worker's side of a remote bot: :class:`RemoteSeat`, an :class:`arena.runner.seat.Seat`
whose bot is connected to a gateway, perhaps on another machine, reached through Redis
(:mod:`remote.handover`).

Time is the referee's, made fair to a bot across the internet. The gateway measures each answer
from when it wrote the request to the bot's stream until the answer arrived, so the hops
between the worker and the gateway are not the bot's; of that time, the seat's network
allowance is not counted either: the quickest request-to-answer time the connection has shown
(an upper bound on its round trip), capped at ``REMOTE_NETWORK_MS``. The referee waits
:attr:`RemoteSeat.transit` past the deadline for the answer to travel back, and judges the time
the seat reports.

A dropped connection mid-match: the open request is a fault (the arena plays the default
decision); messages for the bot are held back while it is away; a connection within the grace
period (``REMOTE_GRACE_SECONDS``) gets the Welcome and the game's GameStart again and plays on
from the next request. After the grace period the seat is lost (a crash: dropped).
"""

import asyncio
import contextlib
import logging
import statistics
import time
from collections import OrderedDict
from collections.abc import Mapping

import grpc
import redis.asyncio as aioredis
from django.conf import settings
from google.protobuf.message import DecodeError

from arena.protocol import arena_pb2 as pb
from arena.protocol import convert
from arena.protocol.convert import ProtocolError, decision_from_proto
from arena.runner.connected import SharedViews
from arena.runner.lineup import Join
from arena.runner.seat import Seat
from arena.table.messages import GameEnd, GameStart, Notice, Problem, Reply, Request, SeatLost
from arena.table.notes import Note
from arena.table.quote import quote
from remote import handover
from remote.handover import Assignment, Down, Up

log = logging.getLogger(__name__)

#: How long the referee waits past a deadline for an answer on its way back (seconds): the
#: gateway-to-worker hop through Redis, both ways.
HOP_ALLOWANCE = 0.5


class RemoteSeat(Seat):
    """A remote bot's seat in one match (made by :meth:`join`)."""

    def __init__(
        self,
        name: str,
        bot: int,
        seat: str,
        client: "aioredis.Redis",
        *,
        grace: float,
        network_cap_ms: int,
        joined: Up,
    ) -> None:
        super().__init__(name)
        self.bot = bot
        self.seat = seat
        self._closing: asyncio.Task[None] | None = None
        self._redis = client
        self._grace = grace
        self._cap = network_cap_ms / 1000
        self.transit = HOP_ALLOWANCE + self._cap
        self._views = SharedViews()
        self._open: dict[int, asyncio.Future[tuple[pb.Answer | None, float, str]]] = {}
        self._expired: OrderedDict[int, None] = OrderedDict()
        self._problems: list[Problem] = []
        self._times: list[float] = []  # seconds, each answer as the gateway timed it
        self._connected = asyncio.Event()
        self._connected.set()
        self._away_since = 0.0
        self.reconnects = 0
        self.kit = joined.kit
        self.address = joined.address
        self._ended = False
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def join(
        cls,
        *,
        name: str,
        bot: int,
        redis_url: str,
        grace: float,
        network_cap_ms: int,
        seat: str,
        welcome: pb.Welcome,
        wait_s: float,
    ) -> "RemoteSeat":
        """Ask bot ``bot``'s connection to take ``seat`` and wait up to ``wait_s`` for it;
        :class:`SeatLost` if it does not (the bot is offline, or busy)."""
        client = aioredis.Redis.from_url(redis_url)
        assignment = Assignment(
            seat, pb.EngineMessage(welcome=welcome).SerializeToString(), time.time() + wait_s
        )
        text = assignment.dumps()
        inbox = handover.inbox_key(bot)
        async with client.pipeline(transaction=True) as pipe:
            pipe.rpush(inbox, text)
            pipe.expire(inbox, int(wait_s) + 5)
            await pipe.execute()
        up = handover.up_key(seat)
        got = await client.blpop([up], timeout=max(1, round(wait_s)))
        if got is None:
            await client.lrem(inbox, 0, text)
            await client.aclose()
            raise SeatLost(
                f"the remote bot was not connected to the gateway within {wait_s:g} s (it is "
                "offline); start it with --remote and its token"
            )
        event = Up.loads(got[1])
        if event.kind != "joined":
            await client.aclose()
            raise SeatLost(f"the remote bot's connection ended as it took its seat: {event.reason}")
        return cls(
            name, bot, seat, client, grace=grace, network_cap_ms=network_cap_ms, joined=event
        )

    # -- the network allowance

    @property
    def rtt(self) -> float | None:
        """The quickest request-to-answer time seen (seconds): an upper bound on the round
        trip (it includes the bot's quickest think)."""
        return min(self._times) if self._times else None

    def allowance(self) -> float:
        """What of an answer's time is the network's, not the bot's (seconds)."""
        rtt = self.rtt
        return 0.0 if rtt is None else min(rtt, self._cap)

    def network(self) -> Mapping[str, float | int | str]:
        figures: dict[str, float | int | str] = {
            "address": self.address,
            "kit": self.kit,
            "reconnects": self.reconnects,
            "network_cap_ms": round(self._cap * 1000),
            "network_allowance_ms": round(self.allowance() * 1000, 1),
        }
        if self._times:
            figures["rtt_ms"] = round(min(self._times) * 1000, 1)
            figures["answer_ms_median"] = round(statistics.median(self._times) * 1000, 1)
        return figures

    # -- the hand-over

    async def _push(self, down: Down) -> None:
        key = handover.down_key(self.seat)
        try:
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.rpush(key, down.dumps())
                pipe.expire(key, handover.KEEP)
                await pipe.execute()
        except aioredis.RedisError as exc:
            raise SeatLost(f"the arena lost its hand-over to the gateway ({exc})") from None

    async def _read(self) -> None:
        key = handover.up_key(self.seat)
        loop = asyncio.get_running_loop()
        while not self._ended:
            try:
                got = await self._redis.blpop([key], timeout=1)
            except aioredis.RedisError as exc:
                log.warning("seat %s: hand-over read failed: %s", self.seat, exc)
                await asyncio.sleep(0.5)
                continue
            if got is None:
                continue
            event = Up.loads(got[1])
            if event.kind == "message":
                self._receive(event, loop.time())
            elif event.kind == "lost":
                self._connected.clear()
                self._away_since = loop.time()
                for future in self._open.values():
                    if not future.done():
                        future.set_result((None, 0.0, f"the connection dropped: {event.reason}"))
                self._open.clear()
            elif event.kind == "joined":
                self.reconnects += 1
                self.address, self.kit = event.address, event.kit
                self._connected.set()

    def _receive(self, event: Up, now: float) -> None:
        try:
            message = pb.BotMessage.FromString(event.raw)
        except DecodeError:
            self._problem(0, f"a message of {len(event.raw)} bytes that is not a BotMessage")
            return
        if message.WhichOneof("body") != "answer":
            self._problem(0, "a message that is not an Answer; after Hello send only Answers")
            return
        request_id = message.answer.request_id
        future = self._open.pop(request_id, None)
        if future is not None and not future.done():
            if event.spent >= 0:
                self._times.append(event.spent)
            future.set_result((message.answer, event.spent, ""))
        elif request_id in self._expired:
            del self._expired[request_id]
            detail = f"the answer to request {request_id} came too late"
            self._problems.append(Problem("late", request_id, detail))
        else:
            self._problem(request_id, f"an answer to request {request_id}, which is not open")

    def _problem(self, request_id: int, detail: str) -> None:
        if len(self._problems) < 64:
            self._problems.append(Problem("protocol", request_id, detail))

    async def _present(self, until: float) -> bool:
        """Whether the bot is connected, waiting for it until ``until`` (loop time) if it is
        away; :class:`SeatLost` once it has been away longer than the grace period."""
        if self._connected.is_set():
            return True
        loop = asyncio.get_running_loop()
        lost_at = self._away_since + self._grace
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(
                self._connected.wait(), max(0.0, min(until, lost_at) - loop.time())
            )
        if self._connected.is_set():
            return True
        if loop.time() >= lost_at:
            raise SeatLost(
                f"the bot's connection dropped and it did not reconnect within {self._grace:g} s"
            )
        return False

    async def _send(self, message: pb.EngineMessage, request_id: int = 0) -> None:
        if self._connected.is_set():
            await self._push(Down(message.SerializeToString(), request_id))

    # -- the referee's messages

    async def start_game(self, start: GameStart) -> None:
        await self._present(asyncio.get_running_loop().time())
        await self._send(convert.game_start_message(start))

    async def decide(self, request: Request) -> Reply:
        loop = asyncio.get_running_loop()
        handed = loop.time()
        if not await self._present(handed + request.deadline_ms / 1000):
            await asyncio.sleep(self.transit + 1.0)  # the referee's clock runs out: a timeout
        future: asyncio.Future[tuple[pb.Answer | None, float, str]] = loop.create_future()
        self._open[request.request_id] = future
        message = convert.request_message(request, self._views.public(request))
        await self._send(message, request.request_id)
        answer, spent, error = await future
        if answer is None:
            return Reply(None, handed, quote(error))  # a fault for what happened, not for time
        # The bot's time: as the gateway measured it, less the network allowance.
        received = handed + max(0.0, spent - self.allowance())
        note = Note.bounded(answer.note, answer.option_values, len(request.view.legal))
        try:
            decision = decision_from_proto(answer.decision)
        except ProtocolError as exc:
            return Reply(None, received, quote(str(exc)), note=note)
        return Reply(decision, received, note=note)

    def expire(self, request_id: int) -> bool:
        self._open.pop(request_id, None)
        self._expired[request_id] = None
        while len(self._expired) > 64:
            self._expired.popitem(last=False)
        return False

    async def notify(self, notice: Notice) -> None:
        await self._send(convert.notice_message(notice))

    async def end_game(self, end: GameEnd) -> None:
        await self._send(convert.game_end_message(end))

    def take_problems(self) -> list[Problem]:
        problems, self._problems = self._problems, []
        return problems

    async def end_match(self, games: int, faults: int) -> None:
        await self._send(convert.match_end_message(games, faults))
        await self._close(grpc.StatusCode.OK, "")

    def drop(self, kind: str, detail: str) -> None:
        if self._ended:
            return
        details = f"dropped from the match: {kind}: {detail}"[:1000]
        task = asyncio.get_running_loop().create_task(self._close(grpc.StatusCode.ABORTED, details))
        self._closing = task

    async def _close(self, code: grpc.StatusCode | None, details: str) -> None:
        """End the bot's stream (when ``code``), stop reading, let go of the connection."""
        if self._ended:
            return
        self._ended = True
        if code is not None:
            with contextlib.suppress(SeatLost):
                await self._push(Down(close=code.name, details=details))
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, aioredis.RedisError):
            await self._reader
        with contextlib.suppress(aioredis.RedisError):  # a reconnect must not find this seat
            resume = handover.resume_key(self.bot)
            if await self._redis.get(resume) == self.seat.encode():
                await self._redis.delete(resume)
        with contextlib.suppress(aioredis.RedisError):
            await self._redis.aclose()


def joiner(name: str, bot: int) -> Join:
    """How remote bot ``bot`` (seated as ``name``) takes a seat in a match: through Redis,
    from whichever gateway it is connected to (settings ``REMOTE_*``)."""

    async def join(seat: str, welcome: pb.Welcome, wait_s: float) -> Seat:
        if not settings.REMOTE_REDIS_URL:
            raise SeatLost("remote bots need the arena to run with a Redis broker")
        return await RemoteSeat.join(
            name=name,
            bot=bot,
            redis_url=settings.REMOTE_REDIS_URL,
            grace=settings.REMOTE_GRACE_SECONDS,
            network_cap_ms=settings.REMOTE_NETWORK_MS,
            seat=seat,
            welcome=welcome,
            wait_s=wait_s,
        )

    return join
