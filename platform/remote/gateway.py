"""The gateway: where remote bots connect from their owners' machines, over TCP with TLS, to
play the site's matches with the same ``nimmt.v1`` protocol a sandboxed bot speaks.

Run it with ``manage.py run_gateway`` (its own process; as many as you like, on any machines
that reach the database and Redis: a bot is on one of them, and workers find it through Redis,
:mod:`remote.handover`). One connection plays one match at a time:

1. the bot sends ``Hello`` with its remote token (``Hello.token``); the gateway checks the
   token (kept hashed, scoped to one bot, :class:`remote.models.RemoteToken`) and that the bot
   has no other live connection (a second one is refused with ``ALREADY_EXISTS``);
2. the bot waits, online, until a worker assigns it a seat; then it gets ``Welcome`` and the
   match as any bot does, the gateway passing messages between its stream and the worker;
3. after ``MatchEnd`` the stream ends with ``OK``; the kit connects again for the next match.

Limits, so that one client cannot hurt the others: messages from a bot are capped in size
(:data:`MAX_MESSAGE`) and rate (``GATEWAY_MESSAGES_PER_SECOND``, more end the connection with
``RESOURCE_EXHAUSTED``); a connection waiting longer than ``GATEWAY_IDLE_SECONDS`` for a match
is ended (``UNAVAILABLE``; the kit reconnects), and so is one in a match whose worker has
said nothing for that long; a write the bot does not read within :data:`WRITE_TIMEOUT` ends
its connection (a slow reader only ever blocks its own task); HTTP/2 keepalive pings end a
half-open connection within ``keepalive_seconds + keepalive_timeout_seconds``; the TLS handshake
must be done within :data:`HANDSHAKE_MS`; an address opens at most
``GATEWAY_CONNECTS_PER_MINUTE`` streams a minute (more are refused with ``RESOURCE_EXHAUSTED``
before anything is read). TLS is required unless the gateway listens on loopback only.

With TLS, the handshake is the TLS front's (:mod:`remote.front`): it logs every refused
handshake (rate-limited), bounds the connections per address and in all, and passes the
plaintext HTTP/2 to this module's gRPC server on a loopback port, which learns each bot's real
address from it (:meth:`Gateway.address_of`).

A bot learns nothing through the gateway but its own match: it is sent only its seat's
messages, and its token names its bot only.
"""

import asyncio
import contextlib
import ipaddress
import logging
import os
import secrets
import socket
import time
from collections import deque
from collections.abc import Awaitable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import grpc
import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from django.utils import timezone
from google.protobuf.message import DecodeError

from arena.protocol import arena_pb2 as pb
from arena.protocol.convert import PROTOCOL_VERSION
from arena.protocol.server import SERVICE
from remote import handover
from remote.front import Front
from remote.handover import Assignment, Down, Up
from remote.models import RemoteConnection, RemoteToken, token_hash

log = logging.getLogger(__name__)
_T = TypeVar("_T")

#: The longest message accepted from a bot (an answer is a few bytes).
MAX_MESSAGE = 64 * 1024
#: How long a write to a bot may wait for the bot to read (seconds).
WRITE_TIMEOUT = 5.0
#: How long a new stream has to say Hello (seconds).
HELLO_TIMEOUT = 10.0
#: TLS and HTTP/2 handshake bound (ms).
HANDSHAKE_MS = 5000
#: How many addresses the per-address connection counter remembers: then it forgets the quiet
#: ones and the oldest, down to half (its memory and time stay bounded whatever a crowd of
#: addresses does; such a crowd is a firewall's to stop).
ADDRESSES_KEPT = 4096
#: After the bot's stream reads as ended, how long to wait for gRPC to cancel the call, which
#: it does when the connection went rather than the bot closing its stream (seconds). The two
#: come within 0.1 ms of each other here (40 cancelled calls on a loaded machine: 3 ms at most),
#: but a busy machine can hold the gateway's threads for longer than 0.2 s (a test's cancelled
#: call was recorded as closed once in CI); the wait only delays the status of a bot that
#: closes its own stream, which no kit does while connected.
EOF_SETTLE = 1.0
#: How a connection's end is recorded, by how it ended.
CLOSED = "the bot closed its stream"
GONE = (
    "the connection went without the bot closing its stream (its network was cut, its process "
    "killed, or it left keepalive pings unanswered)"
)
STOPPED = "the gateway stopped"
#: The longest a connection's end waits for each of its steps (its tasks to stop after being
#: cancelled, each write to Redis, the database row): the stream closes whatever hangs.
TEARDOWN_TIMEOUT = 3.0


@dataclass(frozen=True)
class GatewayConfig:
    """What a gateway needs (read from the settings by ``run_gateway``)."""

    address: str  # host:port to listen on
    redis_url: str
    cert: Path | None = None
    key: Path | None = None
    grace_seconds: float = 30.0  # online after a disconnect; how long a match waits for a reconnect
    idle_seconds: float = 600.0
    messages_per_second: float = 50.0
    # HTTP/2 keepalive: a ping this often; the connection is dropped if unanswered in time
    keepalive_seconds: float = 10.0
    keepalive_timeout_seconds: float = 5.0
    connects_per_minute: int = 60  # streams opened per address and minute
    connections_per_address: int = 16  # open at once from one address (the TLS front's bound)
    name: str = ""  # this gateway's name in the connection records


class GatewayRefused(Exception):
    """A stream the gateway ends with a status (``code``) and a message the bot's author reads."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(details)
        self.code = code
        self.details = details


def is_loopback(address: str) -> bool:
    """Whether ``host:port`` listens on loopback only."""
    host = address.rsplit(":", 1)[0].strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Gateway:
    """One gateway process's server (``await start()``, ``await stop()``)."""

    def __init__(self, config: GatewayConfig) -> None:
        if (config.cert is None) != (config.key is None):
            raise ValueError("give both the TLS certificate and its key, or neither")
        if config.cert is None and not is_loopback(config.address):
            raise ValueError(
                f"the gateway listens on {config.address} without TLS: set "
                "NIMMT_GATEWAY_TLS_CERT and NIMMT_GATEWAY_TLS_KEY (plaintext only on loopback)"
            )
        self.config = config
        self.name = config.name or f"{socket.gethostname()}-{os.getpid()}"
        self.redis = aioredis.Redis.from_url(config.redis_url)
        self._server: Any = None
        self.front: Front | None = None
        self.stopping = False
        self.port = 0
        self.connections: set[_Connection] = set()
        self._opened: dict[
            str, deque[float]
        ] = {}  # address -> when its streams of the last minute began

    async def start(self) -> int:
        """Listen; the port (useful when the address asks for port 0)."""
        config = self.config
        server = grpc.aio.server(
            options=[
                ("grpc.max_receive_message_length", MAX_MESSAGE),
                ("grpc.max_concurrent_streams", 2),
                ("grpc.server_handshake_timeout_ms", HANDSHAKE_MS),
                ("grpc.keepalive_time_ms", round(config.keepalive_seconds * 1000)),
                ("grpc.keepalive_timeout_ms", round(config.keepalive_timeout_seconds * 1000)),
                ("grpc.keepalive_permit_without_calls", 1),
                # no bandwidth-probe pings: an unanswered one in flight when a link goes
                # holds back the keepalive ping (and its timeout) behind it; messages are small
                ("grpc.http2.bdp_probe", 0),
                ("grpc.http2.max_pings_without_data", 0),
                ("grpc.http2.min_ping_interval_without_data_ms", 5000),
                ("grpc.so_reuseport", 0),
            ]
        )
        handler = grpc.stream_stream_rpc_method_handler(
            self._play, request_deserializer=None, response_serializer=None
        )
        server.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler(SERVICE, {"Play": handler}),)
        )
        if self.config.cert is not None and self.config.key is not None:
            # TLS is the front's (it logs refused handshakes); gRPC listens on loopback behind it
            self.front = Front(
                self.config.cert,
                self.config.key,
                handshake_seconds=HANDSHAKE_MS / 1000,
                per_address=self.config.connections_per_address,
                unacknowledged_seconds=self.config.keepalive_timeout_seconds,
            )
            inner = server.add_insecure_port("127.0.0.1:0")
            await server.start()
            self._server = server
            self.port = await self.front.start(self.config.address, inner)
        else:
            self.port = server.add_insecure_port(self.config.address)
            await server.start()
            self._server = server
        log.info("gateway %s listening on %s (port %d)", self.name, self.config.address, self.port)
        return self.port

    async def stop(self, grace: float = 1.0) -> None:
        self.stopping = True
        if self._server is not None:
            await self._server.stop(grace)
            self._server = None
        if self.front is not None:
            await self.front.stop()
        await self.redis.aclose()

    def address_of(self, context: Any) -> str | None:
        """The address of the bot on the stream of ``context``: behind the TLS front, the one
        its connection came from (None if it did not come through the front)."""
        peer = context.peer()
        if self.front is None:
            return _address(peer)
        kind, _, rest = peer.partition(":")
        host, _, port = rest.rpartition(":")
        if kind != "ipv4" or host != "127.0.0.1" or not port.isdigit():
            return None
        return self.front.client_of(int(port))

    async def wait(self) -> None:
        if self._server is not None:
            await self._server.wait_for_termination()

    def admit(self, address: str, now: float | None = None) -> bool:
        """Whether ``address`` may open one more stream now (and count it if so): at most
        ``connects_per_minute`` in any minute. Refused attempts are not counted, so the memory
        per address stays at most the cap."""
        now = time.monotonic() if now is None else now
        opened = self._opened.get(address)
        if opened is None:
            if len(self._opened) >= ADDRESSES_KEPT:
                # forget the quiet addresses, then the first seen, down to half the room
                kept = [(a, d) for a, d in self._opened.items() if d and d[-1] > now - 60]
                self._opened = dict(kept[-(ADDRESSES_KEPT // 2) :])
            opened = self._opened[address] = deque()
        while opened and opened[0] <= now - 60:
            opened.popleft()
        if len(opened) >= self.config.connects_per_minute:
            return False
        opened.append(now)
        return True

    async def _play(self, requests: Any, context: Any) -> None:
        address = self.address_of(context)
        if address is None:  # on the loopback port, but not through the front
            await context.abort(
                grpc.StatusCode.PERMISSION_DENIED, "connect to the gateway's TLS address"
            )
            return
        if not self.admit(address):
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"more than {self.config.connects_per_minute} connections a minute from "
                f"{address}; wait a minute (the kit connects again by itself)",
            )
            return
        connection = _Connection(self, context, address)
        self.connections.add(connection)
        try:
            await connection.run()
        except GatewayRefused as refused:
            await connection.finish()
            await context.abort(refused.code, refused.details)
        except asyncio.CancelledError:
            connection.gone()
            raise
        finally:
            self.connections.discard(connection)
            await connection.finish()


@sync_to_async
def _bot_of(token: str) -> tuple[int, str] | None:
    row = (
        RemoteToken.objects.filter(digest=token_hash(token), revoked_at__isnull=True)
        .select_related("bot")
        .first()
    )
    if row is None or row.bot.is_retired:
        return None
    return row.bot_id, row.bot.name


@sync_to_async
def _record_connection(bot: int, gateway: str, address: str, kit: str) -> int:
    row = RemoteConnection.objects.create(
        bot_id=bot, gateway=gateway[:80], address=address[:80], kit=kit[:80]
    )
    return row.pk


@sync_to_async
def _record_end(pk: int, ended: str, matches: int, rtt_ms: float | None) -> None:
    RemoteConnection.objects.filter(pk=pk).update(
        ended_at=timezone.now(), ended=ended[:200], matches=matches, rtt_ms=rtt_ms
    )


_REFRESH_IF_MINE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('pexpire', KEYS[1], ARGV[2])
  return 1
end
return 0
"""
_DELETE_IF_MINE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class _Connection:
    """One bot's stream through the gateway: Hello, then match after match, until it ends."""

    def __init__(self, gateway: Gateway, context: Any, address: str) -> None:
        self.gateway = gateway
        self.redis = gateway.redis
        self.context = context
        self.id = secrets.token_hex(8)
        self.address = address
        self.bot = 0
        self.kit = ""
        self.record = 0
        self._recording: asyncio.Future[int] | None = None
        self.matches = 0
        self.ended = ""
        self.rtt: float | None = None
        self.seat = ""  # the seat of the match under way
        self._refused: GatewayRefused | None = None
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._sent: dict[int, float] = {}  # request id -> when it was written to the stream
        self._match_over = False
        self._finished = False

    def refuse(self, code: grpc.StatusCode, details: str) -> None:
        """End the connection with ``code`` (the first reason wins)."""
        if self._refused is None:
            self._refused = GatewayRefused(code, details)
            self.ended = f"{code.name}: {details}"
        self._wake.set()

    # -- the stream

    async def run(self) -> None:
        """Serve the stream until it ends; :class:`GatewayRefused` to end it with a status."""
        hello = await self._hello()
        self.kit = hello.kit
        found = await _bot_of(hello.token) if hello.token else None
        if found is None:
            raise GatewayRefused(
                grpc.StatusCode.UNAUTHENTICATED,
                "missing, unknown or revoked remote token: set NIMMT_REMOTE_TOKEN to the token "
                "shown on your bot's page (issue a new one there if you lost it)",
            )
        bot, name = found
        live = handover.live_key(bot)
        if not await self.redis.set(live, self.id, nx=True, ex=handover.LIVE_TTL):
            raise GatewayRefused(
                grpc.StatusCode.ALREADY_EXISTS,
                f"bot {name} already has a live connection; one connection per bot (stop the "
                "other, or wait a few seconds after it ended)",
            )
        self.bot = bot
        # Shielded, and kept: if the connection goes meanwhile, finish() still gets the row's key
        # (the row is written whatever happens to this task) and records its end.
        self._recording = asyncio.ensure_future(
            _record_connection(bot, self.gateway.name, self.address, hello.kit)
        )
        self.record = await asyncio.shield(self._recording)
        log.info("bot %s connected from %s (%s)", name, self.address, hello.kit)
        await self._heartbeat_once()
        self._tasks = [
            asyncio.create_task(self._heartbeat()),
            asyncio.create_task(self._reader()),
            asyncio.create_task(self._relay()),
        ]
        await self._wake.wait()
        if self._refused is not None:
            raise self._refused

    async def _hello(self) -> pb.Hello:
        try:
            raw = await asyncio.wait_for(self.context.read(), HELLO_TIMEOUT)
        except TimeoutError:
            raise GatewayRefused(
                grpc.StatusCode.DEADLINE_EXCEEDED,
                f"no Hello within {HELLO_TIMEOUT:g} s of connecting",
            ) from None
        if raw is grpc.aio.EOF:
            raise GatewayRefused(grpc.StatusCode.INVALID_ARGUMENT, "the stream ended before Hello")
        try:
            first = pb.BotMessage.FromString(raw)
        except DecodeError:
            first = pb.BotMessage()
        if first.WhichOneof("body") != "hello":
            raise GatewayRefused(
                grpc.StatusCode.INVALID_ARGUMENT,
                "the first message must be a nimmt.v1.BotMessage with `hello` set",
            )
        if first.hello.protocol_version != PROTOCOL_VERSION:
            raise GatewayRefused(
                grpc.StatusCode.FAILED_PRECONDITION,
                f"this gateway speaks nimmt.v1 protocol version {PROTOCOL_VERSION}, the bot "
                f"said {first.hello.protocol_version}",
            )
        return first.hello

    # -- background work of a live connection

    async def _heartbeat_once(self) -> bool:
        mine = await self.redis.eval(
            _REFRESH_IF_MINE,
            1,
            handover.live_key(self.bot),
            self.id,
            str(handover.LIVE_TTL * 1000),
        )
        if not mine:
            return False
        await self.redis.set(
            handover.online_key(self.bot),
            self.gateway.name,
            ex=max(1, round(self.gateway.config.grace_seconds)),
        )
        return True

    async def _heartbeat(self) -> None:
        """Keep the bot's keys fresh; cut the connection when its token was revoked. Stops by
        itself once the connection is ending (even if a cancellation was lost on the way)."""
        while self._refused is None and not self._finished and not self._match_over:
            await asyncio.sleep(handover.HEARTBEAT)
            try:
                if not await self._heartbeat_once():
                    self.refuse(
                        grpc.StatusCode.UNAUTHENTICATED,
                        "the bot's remote token was revoked (or a new one issued) on the site",
                    )
                    return
            except aioredis.RedisError as exc:
                log.warning("gateway heartbeat of bot %s failed: %s", self.bot, exc)

    async def _reader(self) -> None:
        """Read the bot's messages: pass them to the worker, within the rate cap."""
        config = self.gateway.config
        rate = config.messages_per_second
        allowance = rate * 2  # a token bucket: bursts of up to two seconds' worth
        last = time.monotonic()
        try:
            while self._refused is None:
                raw = await self.context.read()
                if raw is grpc.aio.EOF:
                    # A connection that went (its network cut, its process killed, keepalive
                    # pings unanswered) ends the reading as EOF too, and gRPC cancels the call
                    # a moment later (the handler records that: _Connection.gone).
                    await asyncio.sleep(EOF_SETTLE)
                    self._lost(CLOSED)
                    return
                now = time.monotonic()
                allowance = min(rate * 2, allowance + (now - last) * rate)
                last = now
                if allowance < 1:
                    self.refuse(
                        grpc.StatusCode.RESOURCE_EXHAUSTED,
                        f"more than {rate:g} messages per second; send one Answer per request",
                    )
                    return
                allowance -= 1
                if not self.seat:
                    continue  # nothing is asked between matches; the rate cap still counts
                spent = -1.0
                with contextlib.suppress(DecodeError):
                    message = pb.BotMessage.FromString(raw)
                    if message.WhichOneof("body") == "answer":
                        sent = self._sent.pop(message.answer.request_id, None)
                        if sent is not None:
                            spent = max(0.0, now - sent)
                            self.rtt = spent if self.rtt is None else min(self.rtt, spent)
                await self._up(Up("message", raw=raw, spent=spent))
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self._lost(f"the stream broke ({type(exc).__name__})")

    def gone(self) -> None:
        """gRPC cancelled the call: the connection went without the bot closing its stream
        (or the gateway is stopping)."""
        if not self.ended:
            self.ended = STOPPED if self.gateway.stopping else GONE

    def _lost(self, reason: str) -> None:
        if not self.ended:
            self.ended = reason
        self._wake.set()

    async def _up(self, event: Up) -> None:
        key = handover.up_key(self.seat)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.rpush(key, event.dumps())
            pipe.expire(key, handover.KEEP)
            await pipe.execute()

    async def _write(self, data: bytes, request_id: int = 0) -> None:
        """Write ``data`` to the bot; end the connection if the bot does not take it in time
        (only this connection's task waits for a slow reader)."""
        if request_id:  # timed from the hand-over to gRPC: the write's completion may be
            self._sent[request_id] = time.monotonic()  # reported after the answer is read
        try:
            await asyncio.wait_for(self.context.write(data), WRITE_TIMEOUT)
        except TimeoutError:
            self.refuse(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"the bot did not read what the gateway sent within {WRITE_TIMEOUT:g} s",
            )
            return
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self._lost(f"the stream closed while the gateway wrote to it ({type(exc).__name__})")
            return

    async def _relay(self) -> None:
        """Wait for a seat, then pass the worker's messages to the bot until the match ends."""
        config = self.gateway.config
        try:
            await self._take_seat()
            if not self.seat:
                return
            idle_since = time.monotonic()
            down = handover.down_key(self.seat)
            while self._refused is None and not self.ended:
                got = await self.redis.blpop([down], timeout=1)
                if got is None:
                    if time.monotonic() - idle_since > config.idle_seconds:
                        self.refuse(
                            grpc.StatusCode.UNAVAILABLE,
                            "the match went quiet on the arena's side; connect again",
                        )
                    continue
                idle_since = time.monotonic()
                item = Down.loads(got[1])
                if item.message:
                    await self._keep(item.message)
                    await self._write(item.message, item.request_id)
                if item.close:
                    self._match_over = True
                    if item.close != "OK":
                        self.refuse(grpc.StatusCode[item.close], item.details)
                    else:
                        self.ended = "the match is over"
                        self._wake.set()
                    return
        except aioredis.RedisError as exc:
            self.refuse(grpc.StatusCode.UNAVAILABLE, f"the gateway lost its broker ({exc})")

    async def _take_seat(self) -> None:
        """A seat of a match whose connection dropped (resume) or a new assignment."""
        config = self.gateway.config
        resume = await self.redis.getdel(handover.resume_key(self.bot))
        if resume is not None:
            seat = resume.decode() if isinstance(resume, bytes) else resume
            kept = await self.redis.hgetall(handover.seat_key(seat))
            await self.redis.delete(handover.down_key(seat))
            self.seat = seat
            for field in (b"welcome", b"game_start"):
                message = kept.get(field)
                if isinstance(message, bytes):
                    await self._write(message)
            await self._up(Up("joined", kit=self.kit, address=self.address))
            self.matches += 1
            return
        waited = time.monotonic()
        inbox = handover.inbox_key(self.bot)
        while self._refused is None and not self.ended:
            got = await self.redis.blpop([inbox], timeout=1)
            if got is None:
                if time.monotonic() - waited > config.idle_seconds:
                    self.refuse(
                        grpc.StatusCode.UNAVAILABLE,
                        f"no match for {config.idle_seconds:g} s; connect again to keep waiting",
                    )
                    return
                continue
            assignment = Assignment.loads(got[1])
            if assignment.until < time.time():
                continue  # its worker gave up waiting
            self.seat = assignment.seat
            kept_key = handover.seat_key(self.seat)
            await self.redis.hset(kept_key, "welcome", assignment.welcome)
            await self.redis.expire(kept_key, handover.KEEP)
            await self._write(assignment.welcome)
            await self._up(Up("joined", kit=self.kit, address=self.address))
            self.matches += 1
            return

    async def _keep(self, message: bytes) -> None:
        """Remember the game's GameStart, for a connection that resumes the match."""
        with contextlib.suppress(DecodeError):
            if pb.EngineMessage.FromString(message).WhichOneof("body") == "game_start":
                await self.redis.hset(handover.seat_key(self.seat), "game_start", message)

    # -- the end

    async def finish(self) -> None:
        """Let go of the bot's keys; tell the worker if a match was under way (once). Every
        step is bounded by :data:`TEARDOWN_TIMEOUT`, so the stream closes whatever hangs."""
        if self._finished:
            return
        self._finished = True
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            _, stuck = await asyncio.wait(self._tasks, timeout=TEARDOWN_TIMEOUT)
            if stuck:  # a task that swallowed its cancellation: left to end by itself
                log.warning("bot %s: %d task(s) did not stop in time", self.bot, len(stuck))
        if not self.bot:
            return
        try:
            if self.seat and not self._match_over:
                reason = self.ended or "the connection ended"
                await _bounded(
                    self.redis.set(
                        handover.resume_key(self.bot),
                        self.seat,
                        ex=max(1, round(self.gateway.config.grace_seconds)),
                    )
                )
                await _bounded(self._up(Up("lost", reason=reason)))
            await _bounded(
                self.redis.eval(_DELETE_IF_MINE, 1, handover.live_key(self.bot), self.id)
            )
        except (aioredis.RedisError, TimeoutError) as exc:
            log.warning("bot %s: letting go of its keys failed: %r", self.bot, exc)
        rtt = None if self.rtt is None else round(self.rtt * 1000, 1)
        try:
            if self._recording is not None and not self.record:
                # The connection went while its row was being written: the row is there.
                self.record = await _bounded(asyncio.shield(self._recording))
            await _bounded(_record_end(self.record, self.ended or "ended", self.matches, rtt))
        except Exception as exc:
            log.warning("bot %s: recording the connection's end failed: %r", self.bot, exc)
        log.info("bot %s disconnected: %s", self.bot, self.ended)


async def _bounded(step: Awaitable[_T]) -> _T:
    """``step``, or :class:`TimeoutError` after :data:`TEARDOWN_TIMEOUT`."""
    return await asyncio.wait_for(step, TEARDOWN_TIMEOUT)


def _address(peer: str) -> str:
    """``ipv4:10.0.0.2:5555`` → ``10.0.0.2``; ``ipv6:[::1]:5555`` → ``::1``."""
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6"):
        return rest.rsplit(":", 1)[0].strip("[]")
    return peer
