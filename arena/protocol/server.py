"""The arena's side of the bot protocol: a gRPC server on a Unix socket, one :class:`Connection`
per bot.

The server is thin. It checks each bot's Hello (protocol version, token), answers with Welcome,
and then hands the stream to the match runner as a :class:`Connection`: the runner writes
requests and notices, a reader task per connection reads answers and resolves the runner's
futures. Everything runs on one asyncio event loop (``grpc.aio``): no thread hop per message.

Messages from bots are read as raw bytes and parsed here, so that garbage on the stream is a
protocol fault the match survives rather than an error that ends the stream.
"""

import asyncio
import collections
import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from google.protobuf.message import DecodeError

from . import arena_pb2 as pb
from .convert import PROTOCOL_VERSION

SERVICE = "nimmt.v1.Arena"
#: The longest message accepted from a bot; an answer is a few bytes.
MAX_BOT_MESSAGE = 64 * 1024
#: Problems kept between two looks of the runner (each is a fault; a few drop the bot).
MAX_PROBLEMS = 64


class BotLost(Exception):
    """The bot's stream ended (the process exited, closed the stream, or was dropped)."""


@dataclass(frozen=True)
class Reply:
    """An answer as read off the stream, with the event-loop time it arrived."""

    answer: pb.Answer
    received: float


@dataclass(frozen=True)
class Problem:
    """Something a bot sent that answered no open request: ``kind`` is ``"protocol"`` (a
    fault) or ``"late"`` (an answer to a request that had timed out; not a fault)."""

    kind: str
    request_id: int
    detail: str


class Connection:
    """One bot's stream, as the match runner uses it.

    Only the runner writes (:meth:`send`, :meth:`ask`); the reader task started by the server
    resolves the futures :meth:`ask` returns and queues :class:`Problem` values in
    :attr:`problems` for the runner to record.
    """

    def __init__(self, name: str, hello: pb.Hello, context: Any) -> None:
        self.name = name
        self.hello = hello
        self._context = context
        self._loop = asyncio.get_running_loop()
        self._open: dict[int, asyncio.Future[Reply]] = {}
        self._expired: collections.OrderedDict[int, None] = collections.OrderedDict()
        self.problems: list[Problem] = []
        self.lost: str | None = None  # why the stream ended, once it has
        self.closing: asyncio.Future[tuple[grpc.StatusCode, str]] = self._loop.create_future()

    # -- runner side

    async def send(self, message: pb.EngineMessage) -> None:
        """Write one message; :class:`BotLost` if the stream is gone."""
        if self.lost is not None:
            raise BotLost(self.lost)
        try:
            await self._context.write(message)
        except Exception as exc:  # grpc raises several kinds once the peer is gone
            self.lose(f"the stream closed while the arena was writing to it ({exc!r})")
            raise BotLost(self.lost) from None

    async def ask(self, message: pb.EngineMessage, request_id: int) -> asyncio.Future[Reply]:
        """Send a request and return the future of its answer (fails with :class:`BotLost`)."""
        future: asyncio.Future[Reply] = self._loop.create_future()
        self._open[request_id] = future
        try:
            await self.send(message)
        except BotLost:
            self._open.pop(request_id, None)
            raise
        return future

    def expire(self, request_id: int) -> None:
        """The request timed out: a later answer to it is only a ``late`` problem."""
        self._open.pop(request_id, None)
        self._expired[request_id] = None
        while len(self._expired) > 64:
            self._expired.popitem(last=False)

    def close(self, code: grpc.StatusCode = grpc.StatusCode.OK, details: str = "") -> None:
        """End the stream with ``code`` (idempotent); the server finishes the RPC."""
        if not self.closing.done():
            self.closing.set_result((code, details))
        self.lose(details or "the arena closed the stream")

    # -- reader side

    async def read_loop(self) -> None:
        """Read until the stream ends; runs as a task of the server's handler."""
        try:
            while True:
                raw = await self._context.read()
                if raw is grpc.aio.EOF:
                    self.lose("the bot closed its stream")
                    return
                self._receive(raw, self._loop.time())
        except asyncio.CancelledError:
            self.lose("the arena closed the stream")
            raise
        except Exception as exc:
            self.lose(f"the stream broke ({type(exc).__name__}: {exc})")

    def _receive(self, raw: bytes, now: float) -> None:
        try:
            message = pb.BotMessage.FromString(raw)
        except DecodeError:
            self._problem(0, f"a message of {len(raw)} bytes that is not a nimmt.v1.BotMessage")
            return
        which = message.WhichOneof("body")
        if which != "answer":
            what = "a second Hello" if which == "hello" else "a BotMessage with no body set"
            self._problem(0, f"{what}; after the first message send only Answer messages")
            return
        request_id = message.answer.request_id
        future = self._open.pop(request_id, None)
        if future is not None:
            future.set_result(Reply(message.answer, now))
        elif request_id in self._expired:
            del self._expired[request_id]
            self.problems.append(
                Problem("late", request_id, f"the answer to request {request_id} came too late")
            )
        else:
            self._problem(
                request_id,
                f"an answer to request {request_id}, which is not open (never asked, or "
                "already answered); echo the request_id of the request you answer",
            )

    def _problem(self, request_id: int, detail: str) -> None:
        if len(self.problems) < MAX_PROBLEMS:  # a flood drops the bot anyway
            self.problems.append(Problem("protocol", request_id, detail))

    def lose(self, reason: str) -> None:
        """Mark the stream ended (first reason wins) and fail every open request."""
        if self.lost is None:
            self.lost = reason
        for future in self._open.values():
            if not future.done():
                future.set_exception(BotLost(self.lost))
        self._open.clear()
        if not self.closing.done():
            self.closing.set_result((grpc.StatusCode.OK, ""))


class ArenaServer:
    """The gRPC server of one match, on a Unix socket.

    ``expect(token, name)`` before the bots start; each returns a future resolved with the
    bot's :class:`Connection` once it says a valid Hello. ``welcome(name)`` builds the Welcome
    message for a bot. Refused hellos are kept in :attr:`rejections` (for diagnostics).
    """

    def __init__(
        self,
        socket_path: Path,
        welcome: Callable[[str], pb.Welcome],
        hello_timeout: float = 10.0,
    ) -> None:
        self.socket_path = socket_path
        self.address = f"unix://{socket_path}"
        self._welcome = welcome
        self._hello_timeout = hello_timeout
        self._expected: dict[str, tuple[str, asyncio.Future[Connection]]] = {}
        self._connected: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.rejections: list[str] = []
        self._server: Any = None

    def expect(self, token: str, name: str) -> "asyncio.Future[Connection]":
        """Accept one connection with ``token``, for the bot called ``name``."""
        future: asyncio.Future[Connection] = asyncio.get_running_loop().create_future()
        self._expected[token] = (name, future)
        return future

    async def start(self) -> None:
        """Listen on the socket (readable and writable by the bots' uids; keep its folder
        private)."""
        server = grpc.aio.server(
            options=[
                ("grpc.max_receive_message_length", MAX_BOT_MESSAGE),
                ("grpc.so_reuseport", 0),
            ]
        )
        handler = grpc.stream_stream_rpc_method_handler(
            self._play,
            request_deserializer=None,  # raw bytes: parsed in Connection._receive
            response_serializer=pb.EngineMessage.SerializeToString,
        )
        server.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler(SERVICE, {"Play": handler}),)
        )
        server.add_insecure_port(self.address)
        await server.start()
        os.chmod(self.socket_path, 0o666)  # the bots run as other uids
        self._server = server

    async def stop(self, grace: float = 0.5) -> None:
        """Stop serving; streams still open are cancelled after ``grace`` seconds."""
        if self._server is not None:
            await self._server.stop(grace)
            self._server = None
        for task in list(self._tasks):
            task.cancel()

    async def _refuse(self, context: Any, code: grpc.StatusCode, details: str) -> None:
        self.rejections.append(f"{code.name}: {details}")
        await context.abort(code, details)

    async def _play(self, request_iterator: Any, context: Any) -> None:
        try:
            raw = await asyncio.wait_for(context.read(), self._hello_timeout)
        except TimeoutError:
            await self._refuse(
                context,
                grpc.StatusCode.DEADLINE_EXCEEDED,
                f"no Hello within {self._hello_timeout:g} s of connecting; send "
                "BotMessage{hello: {protocol_version, bot_name, token}} first",
            )
            return
        if raw is grpc.aio.EOF:
            return
        try:
            first = pb.BotMessage.FromString(raw)
        except DecodeError:
            first = pb.BotMessage()
        if first.WhichOneof("body") != "hello":
            await self._refuse(
                context,
                grpc.StatusCode.INVALID_ARGUMENT,
                "the first message must be a nimmt.v1.BotMessage with `hello` set "
                "(protocol_version, bot_name, token)",
            )
            return
        hello = first.hello
        if hello.protocol_version != PROTOCOL_VERSION:
            await self._refuse(
                context,
                grpc.StatusCode.FAILED_PRECONDITION,
                f"this arena speaks nimmt.v1 protocol version {PROTOCOL_VERSION}, the bot "
                f"said {hello.protocol_version}; build the bot against protos/nimmt/v1/"
                f"arena.proto and send protocol_version={PROTOCOL_VERSION}",
            )
            return
        expected = self._expected.get(hello.token)
        if expected is None:
            await self._refuse(
                context,
                grpc.StatusCode.UNAUTHENTICATED,
                "missing or unknown token: send the value of the NIMMT_TOKEN environment "
                "variable in Hello.token" + (" (it was empty)" if not hello.token else ""),
            )
            return
        if hello.token in self._connected:
            await self._refuse(
                context,
                grpc.StatusCode.ALREADY_EXISTS,
                "a connection with this token already said hello; a bot plays the whole match "
                "on one stream",
            )
            return
        self._connected.add(hello.token)
        name, future = expected
        connection = Connection(name, hello, context)
        try:
            await connection.send(pb.EngineMessage(welcome=self._welcome(name)))
        except BotLost:
            return
        reader = asyncio.create_task(connection.read_loop())
        self._tasks.add(reader)
        reader.add_done_callback(self._tasks.discard)
        if not future.done():
            future.set_result(connection)
        try:
            code, details = await connection.closing
        except asyncio.CancelledError:  # gRPC cancels the handler when the bot goes away
            connection.lose("the bot's stream was cancelled (the bot went away)")
            raise
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
        if code != grpc.StatusCode.OK:
            await context.abort(code, details)
