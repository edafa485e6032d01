"""The arena's side of the bot protocol: a gRPC server on a Unix socket of one seat's own (and,
for a bot started on this machine, the same conversation framed on a second socket:
:mod:`arena.protocol.frames`), and the :class:`Connection` its bot plays on.

The server is thin. Each seat gets a :class:`SeatServer` listening on a socket of its own (the
sandbox mounts only that one, or that one and its framed sibling), expecting one token: the
first valid Hello on either socket takes the seat. It checks the bot's Hello (protocol
version, token), answers with Welcome, and then hands the stream to the match runner as a
:class:`Connection`: the runner writes requests and notices, a reader task reads answers and
resolves the runner's futures. Everything runs on one asyncio event loop (``grpc.aio``).

What one bot may open is capped, so that a bot flooding its socket hurts nobody else: at most
:data:`MAX_CONNECTIONS` connections (gRPC closes further ones as they are accepted), at most
:data:`MAX_STREAMS` streams on each, at most :data:`MAX_WAITING` streams at once that have not
said a valid Hello (more are refused at once), and none after the bot's Hello was accepted.

The framed socket has the same caps: at most :data:`MAX_CONNECTIONS` connections at once (one
stream each; further ones are closed as they are accepted), the same Hello checks with the
same status codes (sent as the conversation's status frame), and at most
:data:`MAX_BOT_MESSAGE` bytes in a frame.

Messages from bots are read as raw bytes and parsed here, so that garbage on the stream is a
protocol fault the match survives rather than an error that ends the stream.
"""

import asyncio
import collections
import contextlib
import hmac
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from google.protobuf.message import DecodeError

from arena.table.messages import Problem

from . import arena_pb2 as pb
from .convert import PROTOCOL_VERSION
from .frames import FrameBuffer, FrameError, frame, status_frames

SERVICE = "nimmt.v1.Arena"
#: The longest message accepted from a bot; an answer is a few bytes.
MAX_BOT_MESSAGE = 64 * 1024
#: Problems kept between two looks of the runner (each is a fault; a few drop the bot).
MAX_PROBLEMS = 64
#: Connections one seat's socket accepts at once.
MAX_CONNECTIONS = 4
#: Concurrent streams on one connection (HTTP/2 ``SETTINGS_MAX_CONCURRENT_STREAMS``).
MAX_STREAMS = 4
#: Streams of one seat at once that have not (yet) said a valid Hello.
MAX_WAITING = 4
#: Bytes of a framed connection's socket buffer, and of what is queued for it above that.
SEND_BUFFER = 32 * 1024
#: Bytes a framed connection reads at once, into a buffer of its own that every read reuses.
#: (A plain protocol's transport reads into a new 256 KiB object each time: glibc maps it,
#: shrinks it and unmaps it again, three system calls and a page fault for every answer.)
READ_SIZE = 64 * 1024
#: The longest a message that asks for no answer waits to go out with the next request
#: (:meth:`_FramedStream.write`): at a game's boundary the next request follows within a
#: fraction of this; a stream with nothing more to send gets it this late.
HOLD_SECONDS = 0.02
#: How long a connection may take to complete gRPC's handshake (ms).
HANDSHAKE_MS = 5000


class BotLost(Exception):
    """The bot's stream ended (the process exited, closed the stream, or was dropped)."""


@dataclass(frozen=True)
class Reply:
    """An answer as read off the stream, with the event-loop time it arrived."""

    answer: pb.Answer
    received: float


class Connection:
    """One bot's stream, as the match runner uses it.

    Only the runner writes (:meth:`send`, :meth:`ask`); the reader task started by the server
    resolves the futures :meth:`ask` returns and queues :class:`Problem` values in
    :attr:`problems` for the runner to record.
    """

    def __init__(self, name: str, hello: pb.Hello, context: Any) -> None:
        self.name = name
        self.hello = hello
        #: The socket the bot said hello on: ``framed`` or ``grpc``.
        self.transport = "framed" if isinstance(context, _FramedStream) else "grpc"
        self._context = context
        self._loop = asyncio.get_running_loop()
        self._open: dict[int, asyncio.Future[Reply]] = {}
        self._expired: collections.OrderedDict[int, None] = collections.OrderedDict()
        self.problems: list[Problem] = []
        self.lost: str | None = None  # why the stream ended, once it has
        #: Set once the bot flooded the stream (:meth:`_problem`): nothing more is read.
        self.deaf = False
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

    def can_post(self) -> bool:
        """Whether :meth:`post` may write now: a framed stream, open, its buffer not full."""
        context = self._context
        return self.lost is None and type(context) is _FramedStream and context.writable()

    def post(self, message: pb.EngineMessage) -> asyncio.Future[None] | None:
        """Write one message without waiting (after :meth:`can_post`); the future of the
        bot taking it if this filled its buffer, else ``None``. A stream that breaks meanwhile
        is found by the reader, which fails the open requests."""
        context = self._context
        assert type(context) is _FramedStream
        return context.write_now(message)

    def expect(self, request_id: int) -> asyncio.Future[Reply]:
        """The future of the answer to ``request_id`` (register it before sending the request;
        it fails with :class:`BotLost` if the stream ends first)."""
        future: asyncio.Future[Reply] = self._loop.create_future()
        if self.lost is not None:
            future.set_exception(BotLost(self.lost))
        else:
            self._open[request_id] = future
        return future

    async def ask(self, message: pb.EngineMessage, request_id: int) -> asyncio.Future[Reply]:
        """Send a request and return the future of its answer (fails with :class:`BotLost`)."""
        future = self.expect(request_id)
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
        if type(self._context) is _FramedStream:  # frames come to _receive as they arrive
            self._context.deliver = self._receive
        try:
            while not self.deaf:
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
        if future is not None and not future.done():
            future.set_result(Reply(message.answer, now))
        elif future is not None or request_id in self._expired:  # its deadline just passed
            self._expired.pop(request_id, None)
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
        """Keep a problem for the runner; the :data:`MAX_PROBLEMS`-th since its last look is a
        ``flood``: the bot sends messages that answer nothing faster than it is asked, the
        stream is no longer read (so a flood costs the runner a bounded amount of CPU, not its
        deadline's worth), and the referee drops the bot."""
        if self.deaf:
            return
        if len(self.problems) < MAX_PROBLEMS - 1:
            self.problems.append(Problem("protocol", request_id, detail))
            return
        self.deaf = True
        if type(self._context) is _FramedStream:
            self._context.stop_reading()
        self.problems.append(
            Problem(
                "flood",
                request_id,
                f"{MAX_PROBLEMS} messages that answer no request since the arena last looked "
                f"(the last: {detail}); the arena stopped reading the bot's stream",
            )
        )

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


class _FramedStream(asyncio.BufferedProtocol):
    """One connection to the framed socket, in the shape of the gRPC servicer context that
    :meth:`SeatServer._play` uses: ``read()`` (a message's bytes, or ``grpc.aio.EOF``),
    ``write(message)`` and ``abort(code, details)``, which sends the status and closes.

    The socket is read into one buffer of :data:`READ_SIZE` bytes for the connection's life
    (``asyncio.BufferedProtocol``); :class:`FrameBuffer` copies what it keeps."""

    #: Frames read ahead of the runner before the socket stops being read (a flood waits).
    READ_AHEAD = 16

    def __init__(self, server: "SeatServer") -> None:
        self._server = server
        self._loop = asyncio.get_running_loop()
        self._buffer = FrameBuffer(MAX_BOT_MESSAGE)
        self._read_into = memoryview(bytearray(READ_SIZE))
        self._frames: collections.deque[bytes] = collections.deque()
        self._waiter: asyncio.Future[None] | None = None
        self._writable: asyncio.Future[None] | None = None
        self._ended: str | None = None  # why no more frames will come
        self._paused = False
        self.transport: asyncio.Transport | None = None
        self.task: asyncio.Task[None] | None = None
        #: Once set (by the connection's reader), each frame is handed to it with the time it
        #: was read, as it arrives; :meth:`read` then only gives what a flood left queued.
        self.deliver: Callable[[bytes, float], None] | None = None
        self._stopped = False  # stop_reading(): nothing more is read
        #: Frames :meth:`write` holds back, sent in one piece with the next request
        #: (:meth:`write_now`) or :data:`HOLD_SECONDS` later, whichever is first.
        self._held: list[bytes] = []
        self._flushing: asyncio.TimerHandle | None = None

    # -- asyncio.Protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        # What a bot that stops reading lets pile up is bounded here, not by the bot: the
        # kernel's buffer of this socket and the transport's, after which the runner's writes
        # wait and the referee sees a request the bot never took.
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        transport.set_write_buffer_limits(high=SEND_BUFFER)
        self.task = self._server._framed_connection(self)

    def get_buffer(self, sizehint: int) -> memoryview:
        return self._read_into

    def buffer_updated(self, nbytes: int) -> None:
        if self._ended is not None or self._stopped:
            return
        try:
            frames = self._buffer.feed(self._read_into[:nbytes])
        except FrameError as exc:  # nothing more is read; the reader gets the reason
            self._broken(str(exc))
            return
        deliver = self.deliver
        if deliver is not None and not self._frames:
            # At most READ_AHEAD frames at once: a flood waits in the queue, where the reader
            # takes one frame per turn of the loop, as the other seats' answers come in.
            now = self._loop.time()
            try:
                for payload in frames[: self.READ_AHEAD]:
                    deliver(payload, now)
                    if self._stopped:
                        return
            except Exception as exc:  # as the reader's loop would: nothing more is read
                self._broken(f"{type(exc).__name__}: {exc}")
                return
            if len(frames) <= self.READ_AHEAD:
                return
            frames = frames[self.READ_AHEAD :]
        self._frames.extend(frames)
        if len(self._frames) > self.READ_AHEAD:
            self._pause()
        self._wake()

    def eof_received(self) -> bool:
        self._end("")
        return True  # keep the socket open for the status

    def connection_lost(self, exc: Exception | None) -> None:
        self._end(f"the connection broke ({exc})" if exc is not None else "")
        self._held.clear()  # a flush still due finds nothing to send
        if self._writable is not None and not self._writable.done():
            self._writable.set_result(None)

    def pause_writing(self) -> None:
        self._writable = self._loop.create_future()

    def resume_writing(self) -> None:
        if self._writable is not None and not self._writable.done():
            self._writable.set_result(None)
        self._writable = None

    def stop_reading(self) -> None:
        """Read nothing more (a flood): what is queued is dropped, the socket left unread, so
        the bot's writes wait on the kernel's buffer; writing to the bot goes on."""
        self._stopped = True
        self.deliver = None
        self._frames.clear()
        self._pause()

    def _pause(self) -> None:
        """Stop reading the socket until :meth:`read` has taken the queue down."""
        if not self._paused and self.transport is not None:
            self._paused = True
            self.transport.pause_reading()

    def _broken(self, reason: str) -> None:
        """The stream cannot be read on: the reader gets ``reason``, the socket is not read."""
        self._end(reason)
        if self.transport is not None:
            self.transport.pause_reading()

    def _end(self, reason: str) -> None:
        if self._ended is None:
            self._ended = reason
        self._wake()

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    # -- the context

    async def read(self) -> Any:
        while not self._frames:
            if self._ended is not None:
                if self._ended:
                    raise ConnectionError(self._ended)
                return grpc.aio.EOF
            self._waiter = self._loop.create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        payload = self._frames.popleft()
        if self._paused and len(self._frames) <= self.READ_AHEAD // 2 and self.transport:
            self._paused = False
            self.transport.resume_reading()
        return payload

    def writable(self) -> bool:
        """Whether a write goes straight into the transport (open, its buffer not full)."""
        transport = self.transport
        return transport is not None and self._writable is None and not transport.is_closing()

    def write_now(self, message: pb.EngineMessage) -> asyncio.Future[None] | None:
        """Write without waiting (after :meth:`writable`), after what :meth:`write` holds;
        the future of the buffer draining if this write filled it, else ``None``."""
        assert self.transport is not None
        self._send(frame(message.SerializeToString()))
        return self._writable

    async def write(self, message: pb.EngineMessage) -> None:
        """Write ``message``. A message that asks for no answer (a welcome, a game's start or
        end, a notice, the match's end) is held while the transport takes writes at once: it
        goes out with the next request, the status, or :data:`HOLD_SECONDS` later, whichever
        is first, so that a game's end, the next game's start and its first request reach the
        bot in one write and wake it once, not three times."""
        transport = self.transport
        if transport is None or transport.is_closing():
            raise ConnectionResetError("the bot's connection is closed")
        if self._writable is None and message.WhichOneof("body") != "request":
            self._held.append(frame(message.SerializeToString()))
            if self._flushing is None:
                self._flushing = self._loop.call_later(HOLD_SECONDS, self._flush)
            return
        drained = self.write_now(message)
        if drained is not None:
            await drained
            if transport.is_closing():
                raise ConnectionResetError("the bot's connection is closed")

    def _send(self, data: bytes) -> None:
        """``data`` into the transport after the held frames, in one write."""
        assert self.transport is not None
        if self._held:
            self._held.append(data)
            data = b"".join(self._held)
            self._held.clear()
            if self._flushing is not None:
                self._flushing.cancel()
                self._flushing = None
        self.transport.write(data)

    def _flush(self) -> None:
        self._flushing = None
        transport = self.transport
        if self._held and transport is not None and not transport.is_closing():
            self._send(b"")

    async def abort(self, code: grpc.StatusCode, details: str) -> None:
        self.finish(code, details)

    def finish(self, code: grpc.StatusCode, details: str = "") -> None:
        """Send the status and close (once; nothing after a closed socket)."""
        transport = self.transport
        if transport is not None and not transport.is_closing():
            self._send(status_frames(code.name, details))
            transport.close()


class SeatServer:
    """The gRPC server of one seat, on its own Unix socket, expecting one bot: the one that
    sends ``token`` in its Hello. :attr:`connected` is resolved with its :class:`Connection`.
    ``welcome`` is the Welcome message it gets. Refused streams are counted and the first few
    reasons kept in :attr:`rejections` (for diagnostics).
    """

    def __init__(
        self,
        socket_path: Path,
        name: str,
        token: str,
        welcome: pb.Welcome,
        hello_timeout: float = 10.0,
        frames_path: Path | None = None,
    ) -> None:
        self.socket_path = socket_path
        self.address = f"unix://{socket_path}"
        #: The framed socket (:mod:`arena.protocol.frames`), if the seat offers one.
        self.frames_path = frames_path
        self._framed: set[_FramedStream] = set()
        self._frames_server: asyncio.AbstractServer | None = None
        self.name = name
        self._token = token
        self._welcome = welcome
        self._hello_timeout = hello_timeout
        self._waiting = 0
        self._taken = False
        self._tasks: set[asyncio.Task[None]] = set()
        self.connected: asyncio.Future[Connection] = asyncio.get_running_loop().create_future()
        self.rejections: list[str] = []
        self.refused = 0
        self._server: Any = None

    async def start(self) -> None:
        """Listen on the socket (readable and writable by the bot's uid; keep its folder
        private)."""
        server = grpc.aio.server(
            options=[
                ("grpc.max_receive_message_length", MAX_BOT_MESSAGE),
                ("grpc.so_reuseport", 0),
                ("grpc.max_allowed_incoming_connections", MAX_CONNECTIONS),
                ("grpc.max_concurrent_streams", MAX_STREAMS),
                # A connection that never completes the HTTP/2 handshake is closed after this.
                ("grpc.server_handshake_timeout_ms", HANDSHAKE_MS),
                # A fixed flow-control window (64 KiB), not one grown to the link's bandwidth:
                # a bot that floods its stream is held there once the arena stops reading it.
                ("grpc.http2.bdp_probe", 0),
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
        os.chmod(self.socket_path, 0o666)  # the bot runs as another uid
        self._server = server
        if self.frames_path is not None:
            loop = asyncio.get_running_loop()
            self._frames_server = await loop.create_unix_server(
                lambda: _FramedStream(self), str(self.frames_path), backlog=MAX_CONNECTIONS
            )
            os.chmod(self.frames_path, 0o666)

    async def stop(self, grace: float = 0.5) -> None:
        """Stop serving; streams still open are cancelled after ``grace`` seconds."""
        if self._frames_server is not None:
            self._frames_server.close()
            self._frames_server = None
        if self._server is not None:
            await self._server.stop(grace)
            self._server = None
        for stream in list(self._framed):
            if stream.task is not None:
                stream.task.cancel()
            if stream.transport is not None:
                stream.transport.abort()
        for task in list(self._tasks):
            task.cancel()

    def _framed_connection(self, stream: _FramedStream) -> asyncio.Task[None] | None:
        """Serve a new connection to the framed socket (closed at once beyond the cap)."""
        if len(self._framed) >= MAX_CONNECTIONS:
            self.refused += 1
            if len(self.rejections) < 8:
                self.rejections.append(f"closed: over {MAX_CONNECTIONS} framed connections")
            assert stream.transport is not None
            stream.transport.abort()
            return None
        self._framed.add(stream)
        return asyncio.create_task(self._serve_framed(stream))

    async def _serve_framed(self, stream: _FramedStream) -> None:
        try:
            await self._play(None, stream)
            stream.finish(grpc.StatusCode.OK)
        except asyncio.CancelledError:
            stream.finish(grpc.StatusCode.CANCELLED, "the arena stopped")
            raise
        except Exception as exc:  # a broken frame before the Hello, a reset
            stream.finish(grpc.StatusCode.INVALID_ARGUMENT, f"the stream broke: {exc}")
        finally:
            self._framed.discard(stream)

    async def _refuse(self, context: Any, code: grpc.StatusCode, details: str) -> None:
        self.refused += 1
        if len(self.rejections) < 8:
            self.rejections.append(f"{code.name}: {details}")
        await context.abort(code, details)

    async def _play(self, request_iterator: Any, context: Any) -> None:
        if self._taken:
            await self._refuse(
                context,
                grpc.StatusCode.ALREADY_EXISTS,
                "this seat's bot already said hello; a bot plays the whole match on one stream",
            )
            return
        if self._waiting >= MAX_WAITING:
            await self._refuse(
                context,
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"{MAX_WAITING} streams of this seat are already waiting to say hello; open one "
                "stream and send Hello first",
            )
            return
        self._waiting += 1
        try:
            hello = await self._read_hello(context)
        finally:
            self._waiting -= 1
        if hello is None:
            return
        if self._taken:  # another stream said hello meanwhile
            await self._refuse(
                context,
                grpc.StatusCode.ALREADY_EXISTS,
                "a connection with this token already said hello; a bot plays the whole match "
                "on one stream",
            )
            return
        self._taken = True
        connection = Connection(self.name, hello, context)
        try:
            await connection.send(pb.EngineMessage(welcome=self._welcome))
        except BotLost:
            return
        reader = asyncio.create_task(connection.read_loop())
        self._tasks.add(reader)
        reader.add_done_callback(self._tasks.discard)
        if not self.connected.done():
            self.connected.set_result(connection)
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

    async def _read_hello(self, context: Any) -> pb.Hello | None:
        """The stream's valid Hello, or ``None`` after refusing it."""
        try:
            raw = await asyncio.wait_for(context.read(), self._hello_timeout)
        except TimeoutError:
            await self._refuse(
                context,
                grpc.StatusCode.DEADLINE_EXCEEDED,
                f"no Hello within {self._hello_timeout:g} s of connecting; send "
                "BotMessage{hello: {protocol_version, bot_name, token}} first",
            )
            return None
        if raw is grpc.aio.EOF:
            return None
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
            return None
        hello = first.hello
        if hello.protocol_version != PROTOCOL_VERSION:
            await self._refuse(
                context,
                grpc.StatusCode.FAILED_PRECONDITION,
                f"this arena speaks nimmt.v1 protocol version {PROTOCOL_VERSION}, the bot "
                f"said {hello.protocol_version}; build the bot against protos/nimmt/v1/"
                f"arena.proto and send protocol_version={PROTOCOL_VERSION}",
            )
            return None
        if not hmac.compare_digest(hello.token.encode(), self._token.encode()):
            await self._refuse(
                context,
                grpc.StatusCode.UNAUTHENTICATED,
                "missing or unknown token: send the token the arena gave the bot (the file "
                "named by $NIMMT_TOKEN_FILE, or --token) in Hello.token"
                + (" (it was empty)" if not hello.token else ""),
            )
            return None
        return hello
