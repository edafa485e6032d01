"""The bot kit: write a bot in Python, then ``run(bot)`` connects it to the arena.

A bot is any :class:`arena.bots.Bot` (one ``decide(view)`` method, the interface of the house
bots), or, simpler, a :class:`KitBot` with one method per decision, each with a sensible default
so a bot overrides only what it cares about::

    from arena.botkit import KitBot, run

    class Lowball(KitBot):
        name = "lowball"

        def choose_tile(self, view):
            return min(view.hand)        # a tile number; the rest keeps the defaults

    if __name__ == "__main__":
        run(Lowball())

``view`` is an :class:`arena.engine.observation.Observation`: the seat's whole view (hand,
board, scores, history, ... and ``view.legal``, the legal options). The same bot runs in
process with ``nimmt play``-style code and as a program in the arena, and sees the same views.

Where to connect: the arena sets ``NIMMT_ENGINE`` (e.g. ``unix:///run/nimmt/engine.sock``) and
``NIMMT_TOKEN_FILE``, the file holding the bot's token (``/run/nimmt/token``; the token is never
on a command line or in the environment, where other local users could read it); for local use
pass ``--connect ADDRESS`` and ``--token`` (or set ``NIMMT_TOKEN``). ``run`` plays until
the match ends and exits the process: 0 after a normal match, 1 if the arena ended the
connection with an error (the reason is logged to stderr, which the arena keeps as the bot's log),
2 for a usage error, 3 if the bot's own code raised (with the traceback); ``atexit`` handlers
run and output is flushed, but the interpreter does not take its modules apart first (that
cost a few milliseconds of every bot's start). A bot given its token
as a file stays for another match when the arena asks it to (``MatchEnd.stay``): it waits for a
new token in the file, connects again and plays on with the same bot object, so what the bot
keeps in its attributes carries over (never a deal: the arena sees to that).

Notes: a bot may say what it was thinking about a decision, for its owner's eyes only: in a
:class:`KitBot` method call ``self.annotate("text", values)``, where ``values`` are numbers per
legal option (a list in the order of ``view.legal``, or a dict by option or by tile number),
e.g. the bot's own estimate of each tile. A plain :class:`Bot` returns an
:class:`~arena.table.notes.Note` from its ``note()`` method. The arena keeps the note with the
game, shows it in the site's viewer to the bot's owner only, and writes it locally to
``notes/game-00001.json``; a note longer than 1000 bytes is cut (here, before it is sent),
values that are not finite count as none. Notes never cause a fault.

To play from the owner's machine through the arena's gateway (docs/REMOTE.md): ``--remote
grpcs://HOST:PORT`` with the bot's remote token in ``NIMMT_REMOTE_TOKEN`` (``--ca FILE`` for a
certificate that no public CA signed): match after match, reconnecting after each and after a
dropped connection (:func:`play_remote`).

Time: each request has a deadline (allowance + what is left of the game's time bank, measured by
the arena). :func:`time_left` (or :meth:`KitBot.time_left`) says how many seconds remain for
the current decision, counted from when the kit read the request. An answer after the deadline
is a fault, and the arena plays a default decision instead (:mod:`arena.table.defaults`).
"""

import argparse
import atexit
import contextlib
import gc
import logging
import math
import os
import random
import select
import socket
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NoReturn, TypeVar

from google.protobuf.message import DecodeError

from arena.bots.base import Bot, GameInfo
from arena.engine.decisions import (
    Decision,
    DecisionKind,
    PlaceLuck,
    PlayAction,
    PlayTile,
    TakeRow,
)
from arena.engine.observation import Observation
from arena.protocol import arena_pb2 as pb
from arena.protocol.convert import (
    PROTOCOL_VERSION,
    decision_from_proto,
    fault_from_proto,
    observation_from_proto,
    put_decision,
)
from arena.protocol.frames import FrameBuffer, FrameError, frame, parse_status
from arena.table.defaults import fewest_bullheads_row
from arena.table.notes import Note

if TYPE_CHECKING:
    import grpc

# gRPC, asyncio and ssl are imported where they are used: a bot on the framed socket (every
# Python bot the arena starts) needs none of them, and they are most of its start.

__all__ = [
    "ArenaError",
    "Bot",
    "GameInfo",
    "KitBot",
    "MatchSummary",
    "Note",
    "main",
    "play",
    "run",
    "token_from_env",
]

KIT = f"nimmt-botkit-python/{PROTOCOL_VERSION}"
#: The environment variable where the arena names its framed socket.
FRAMES_ENV = "NIMMT_FRAMES"
#: An address's prefix for the framed transport (``frames+unix:///run/nimmt/frames.sock``).
FRAMED = "frames+unix://"
#: The most bytes read off the framed socket at once: a request is a few hundred bytes, and a
#: read buffer under glibc's mmap threshold (128 KiB) comes from the heap, where 256 KiB was
#: mapped and unmapped for every read (about 2 page faults per decision).
RECEIVE_BYTES = 64 * 1024
#: How long :func:`play` waits for the arena's socket to accept a connection.
CONNECT_TIMEOUT = 10.0
#: How often a bot that stays looks for its next match's token (seconds); the arena freezes it
#: meanwhile, so the looking costs nothing between matches.
STAY_POLL = 0.005
#: How long a bot that stays waits for its next match before it exits (seconds of no new token).
STAY_WAIT = 3600.0

log = logging.getLogger("nimmt.botkit")
T = TypeVar("T")

_deadline = math.inf  # time.monotonic() by which the current request must be answered


def time_left() -> float:
    """Seconds left to answer the current request (``inf`` outside the arena)."""
    return max(0.0, _deadline - time.monotonic())


class KitBot(Bot):
    """A bot with one method per decision; override the ones you want.

    Every method gets the seat's ``view``; ``self.info`` is the current game's
    :class:`GameInfo` and ``self.rng`` a :class:`random.Random` seeded from the game's seed (so
    a bot that draws all its randomness from it replays the same game for the same match seed).
    A subclass that overrides :meth:`start_game` must call ``super().start_game(info)``.

    The defaults are the arena's default decisions: lowest tile, first legal luck space, no
    action card, the row with the fewest bullheads.
    """

    name = "kitbot"

    def __init__(self) -> None:
        self.info = GameInfo(variant="", players=0, seat=0, seed=0)
        self.rng = random.Random(0)
        self._note: Note | None = None
        self._legal: tuple[Decision, ...] = ()

    def start_game(self, info: GameInfo) -> None:
        self.info = info
        self.rng = random.Random(info.seed)

    def decide(self, view: Observation) -> Decision:
        """Dispatch on ``view.pending.kind`` to the four methods below."""
        pending = view.pending
        if pending is None:
            raise ValueError(f"seat {view.seat} has nothing to decide")
        self._note, self._legal = None, view.legal
        if pending.kind is DecisionKind.TILE:
            return PlayTile(_number(self.choose_tile(view), "choose_tile", "a tile number"))
        if pending.kind is DecisionKind.LUCK:
            assert pending.card is not None
            place = self.place_luck(view, pending.card)
            if not (isinstance(place, tuple) and len(place) == 2):
                raise TypeError(f"place_luck() must return (row, space), not {place!r}")
            return PlaceLuck(
                _number(place[0], "place_luck", "a row"), _number(place[1], "place_luck", "a space")
            )
        assert pending.tile is not None
        if pending.kind is DecisionKind.ACTION:
            action = self.play_action(view, pending.tile)
            if action is not None and not isinstance(action, PlayAction):
                raise TypeError(f"play_action() must return a PlayAction or None, not {action!r}")
            return action or PlayAction(None)
        return TakeRow(_number(self.take_row(view, pending.tile), "take_row", "a row number"))

    def choose_tile(self, view: Observation) -> int:
        """The tile to reveal this turn, from ``view.hand``. Default: the lowest."""
        return min(view.hand)

    def place_luck(self, view: Observation, card: str) -> tuple[int, int]:
        """``(row, space)`` for the luck card ``card`` (``"plus5"`` or ``"final10"``) just drawn.

        The legal spaces are ``view.legal`` (:class:`PlaceLuck` values). Default: the first.
        """
        first = view.legal[0]
        assert isinstance(first, PlaceLuck)
        return first.row, first.space

    def play_action(self, view: Observation, tile: int) -> PlayAction | None:
        """An action card to play on ``tile`` (yours, about to be placed), or ``None``.

        The legal options are ``view.legal`` (:class:`PlayAction` values, e.g.
        ``PlayAction("stop", row=3)``). Default: ``None`` (keep the cards).
        """
        return None

    def take_row(self, view: Observation, tile: int) -> int:
        """Card game: the row to take because ``tile`` is lower than every row's end.

        Default: the row with the fewest bullheads.
        """
        return fewest_bullheads_row(view.spaces)

    def time_left(self) -> float:
        """Seconds left to answer the current request (see :func:`time_left`)."""
        return time_left()

    def annotate(
        self,
        text: str = "",
        values: Sequence[float | None] | Mapping[Decision | int, float] | None = None,
    ) -> None:
        """A note on the decision being made, for the bot's owner (see the module's
        docstring): ``text``, and ``values`` per legal option, either in the order of
        ``view.legal`` or keyed by option (a tile may be keyed by its number). A later call
        in the same decision replaces the note.

        >>> bot = KitBot()
        >>> bot._legal = (PlayTile(3), PlayTile(40))
        >>> bot.annotate("40 is safe", {40: 1.5})
        >>> bot.note()
        Note(text='40 is safe', values=(None, 1.5))
        """
        if values is None:
            numbers: list[float | None] = []
        elif isinstance(values, Mapping):
            numbers = [
                values.get(
                    option, values.get(option.tile) if isinstance(option, PlayTile) else None
                )
                for option in self._legal
            ]
        else:
            numbers = list(values)
        self._note = Note.bounded(str(text), numbers, len(self._legal))

    def note(self) -> Note | None:
        """The note :meth:`annotate` made for the decision just taken."""
        return self._note


def _number(value: object, method: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{method}() must return {what} (an int), not {value!r}")
    return value


class ArenaError(RuntimeError):
    """The arena refused the bot or ended the match early; the message says why, ``code`` the
    gRPC status it ended the stream with (``None`` if it was never reached)."""

    def __init__(self, message: str, code: "grpc.StatusCode | None" = None) -> None:
        super().__init__(message)
        self.code = code


class BotCodeError(RuntimeError):
    """The bot's own code raised; the cause is the original exception."""


@dataclass
class MatchSummary:
    """What happened to the bot in one match, as the kit saw it."""

    games: int = 0
    answers: int = 0
    notices: list[str] = field(default_factory=list)
    faults: int = 0  # reported by the arena at the end of the match
    stay: bool = False  # the arena keeps the process for another match (MatchEnd.stay)


class _Session:
    """Turns arena messages into calls of the bot and its answers into messages."""

    def __init__(self, bot: Bot, transport: str = "gRPC") -> None:
        self.bot = bot
        self.transport = transport
        self.summary = MatchSummary()
        self.names: list[str] = []

    def handle(self, message: pb.EngineMessage, received: float) -> pb.BotMessage | None:
        global _deadline
        which = message.WhichOneof("body")
        if which == "request":
            request = message.request
            _deadline = received + request.deadline_ms / 1000
            view = observation_from_proto(request.view)
            decision = self._call("decide", lambda: self.bot.decide(view))
            if not isinstance(decision, PlayTile | PlaceLuck | PlayAction | TakeRow):
                raise BotCodeError(
                    f"the bot's decide() returned {decision!r}, not a decision (PlayTile, "
                    "PlaceLuck, PlayAction or TakeRow; view.legal lists the legal ones)"
                )
            if decision not in view.legal:
                log.warning(
                    "request %d: decide() returned %r, which is not among the legal options "
                    "(%s); the arena will count it as illegal",
                    request.request_id,
                    decision,
                    ", ".join(map(str, view.legal[:12])),
                )
            spent = time.monotonic() - received
            if spent * 1000 > request.deadline_ms:
                log.warning(
                    "request %d: answered after %.0f ms, the deadline was %d ms",
                    request.request_id,
                    spent * 1000,
                    request.deadline_ms,
                )
            _deadline = math.inf
            reply = pb.BotMessage()
            reply.answer.request_id = request.request_id
            put_decision(reply.answer.decision, decision)
            note = self._call("note", self.bot.note)
            if note is not None and not isinstance(note, Note):
                log.warning("note() returned %r, not a Note; no note sent", note)
                note = None
            if note is not None:
                note = Note.bounded(note.text, note.values, len(view.legal))
            if note is not None:  # cut here: a message over 64 KiB would be unreadable
                reply.answer.note = note.text
                reply.answer.option_values.extend(math.nan if v is None else v for v in note.values)
            self.summary.answers += 1
            return reply
        if which == "game_start":
            start = message.game_start
            self.names = list(start.player_names)
            info = GameInfo(start.variant, start.players, start.seat, start.seed, start.game_id)
            self._call("start_game", lambda: self.bot.start_game(info))
        elif which == "game_end":
            end = message.game_end
            view = observation_from_proto(end.view)
            scores, ranks = tuple(end.scores), tuple(end.ranks)
            self._call("end_game", lambda: self.bot.end_game(view, scores, ranks))
            self.summary.games += 1
            seat = view.seat
            mine = [f for f in map(fault_from_proto, end.faults) if f.seat == seat]
            log.info(
                "%s over: seat %d, score %d, rank %d of %d%s",
                end.game_id,
                seat,
                scores[seat],
                ranks[seat],
                len(ranks),
                "".join(f"; fault {f.kind} in turn {f.turn + 1}: {f.detail}" for f in mine),
            )
        elif which == "notice":
            notice = message.notice
            kind = pb.NoticeKind.Name(notice.kind).removeprefix("NOTICE_KIND_").lower()
            text = f"{kind} (request {notice.request_id}, game {notice.game_id}): {notice.message}"
            if notice.HasField("played"):
                text += f"; the arena played '{decision_from_proto(notice.played)}'"
            self.summary.notices.append(text)
            log.warning("arena notice: %s", text)
        elif which == "welcome":
            w = message.welcome
            log.info(
                "in the match %s as %r (%s): %d games, %d ms per decision + %d ms bank per game, "
                "dropped after %d faults",
                w.match_id,
                w.bot_name,
                self.transport,
                w.games,
                w.decision_ms,
                w.bank_ms,
                w.max_faults,
            )
        elif which == "match_end":
            self.summary.faults = message.match_end.faults
            self.summary.stay = message.match_end.stay
            log.info(
                "match over: %d games, %d answers, %d faults",
                message.match_end.games,
                self.summary.answers,
                message.match_end.faults,
            )
        return None

    def _call(self, method: str, call: Callable[[], T]) -> T:
        try:
            return call()
        except Exception as exc:
            raise BotCodeError(f"the bot's {method}() raised {type(exc).__name__}: {exc}") from exc


async def _play(
    bot: Bot, address: str, token: str, connect_timeout: float, token_file: str | None = None
) -> MatchSummary:
    import asyncio

    import grpc

    options = [("grpc.enable_http_proxy", 0)]
    while True:
        async with grpc.aio.insecure_channel(address, options=options) as channel:
            try:
                await asyncio.wait_for(channel.channel_ready(), connect_timeout)
            except TimeoutError:
                raise ArenaError(
                    f"cannot reach the arena at {address} within {connect_timeout:g} s: "
                    "is the match running, and is the address right?"
                ) from None
            summary = await _match(channel, bot, token, stays=token_file is not None)
        if not summary.stay or token_file is None:
            return summary
        log.info("the arena keeps this process for another match: waiting for it")
        next_token = _next_token(token_file, token)
        if next_token is None:
            return summary
        token = next_token


def _hello(bot: Bot, token: str, stays: bool) -> pb.BotMessage:
    """The first message on either socket."""
    hello = pb.BotMessage()
    hello.hello.protocol_version = PROTOCOL_VERSION
    hello.hello.bot_name = bot.name
    hello.hello.token = token
    hello.hello.kit = KIT
    hello.hello.stays = stays
    return hello


def _next_token(path: str, last: str) -> str | None:
    """The next match's token, once the arena has written it to ``path`` (None after
    :data:`STAY_WAIT` seconds without one)."""
    limit = time.monotonic() + STAY_WAIT
    while True:
        try:
            with open(path, encoding="utf-8") as file:
                token = file.read().strip()
        except OSError:
            token = ""
        if token and token != last:
            return token
        if time.monotonic() > limit:
            return None
        time.sleep(STAY_POLL)  # the arena keeps the process frozen until the token is there


async def _match(
    channel: "grpc.aio.Channel", bot: Bot, token: str, *, stays: bool = False
) -> MatchSummary:
    """Play one match on one stream of ``channel``; ``stays``: say that this bot stays for
    another match if the arena asks (``Hello.stays``)."""
    # The generated stub has no type hints (protoc's gRPC plugin writes none).
    import grpc

    from arena.protocol import arena_pb2_grpc

    stub = arena_pb2_grpc.ArenaStub(channel)  # type: ignore[no-untyped-call]
    call = stub.Play()
    session = _Session(bot)
    hello = _hello(bot, token, stays)
    try:
        await call.write(hello)
        while True:
            message = await call.read()
            if message is grpc.aio.EOF:
                break
            reply = session.handle(message, time.monotonic())
            if reply is not None:
                await call.write(reply)
        code = await call.code()
    except grpc.aio.AioRpcError as exc:
        raise ArenaError(_status_text(exc.code().name, exc.details()), exc.code()) from None
    except BotCodeError as exc:
        # Logged before the stream closes, so the arena finds it in the log of the crash.
        log.critical("%s; the bot stops here (a crash)", exc, exc_info=exc.__cause__)
        raise
    if code != grpc.StatusCode.OK:
        raise ArenaError(_status_text(code.name, await call.details()), code)
    return session.summary


def _connect_unix(path: str, timeout: float) -> socket.socket:
    """A connected Unix socket to ``path``, trying again until ``timeout`` seconds have passed
    (the arena may still be starting); :class:`ArenaError` if it never accepts."""
    limit = time.monotonic() + timeout
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(path)
        except OSError as exc:
            sock.close()
            if time.monotonic() > limit:
                raise ArenaError(
                    f"cannot reach the arena at {path} within {timeout:g} s ({exc.strerror}): "
                    "is the match running, and is the address right?"
                ) from None
            time.sleep(0.02)
            continue
        return sock


def _play_framed(
    bot: Bot, path: str, token: str, connect_timeout: float, token_file: str | None = None
) -> MatchSummary:
    """:func:`play` on the framed socket at ``path`` (:mod:`arena.protocol.frames`)."""
    while True:
        with _connect_unix(path, connect_timeout) as sock:
            summary = _framed_match(sock, bot, token, stays=token_file is not None)
        if not summary.stay or token_file is None:
            return summary
        log.info("the arena keeps this process for another match: waiting for it")
        next_token = _next_token(token_file, token)
        if next_token is None:
            return summary
        token = next_token


def _framed_match(sock: socket.socket, bot: Bot, token: str, *, stays: bool) -> MatchSummary:
    """Play one match on a connected framed socket: the conversation of :func:`_match`,
    blocking, without gRPC (nothing but the bot runs in the process meanwhile)."""
    session = _Session(bot, "framed socket")
    hello = _hello(bot, token, stays)
    buffer = FrameBuffer()
    ended = False
    # The kit waits in poll, not in recv: a recv asleep on a Unix stream socket is also woken
    # each time the arena reads one of the bot's answers (the kernel wakes the socket's
    # sleepers when the room its data took is free again), a needless wake-up a decision;
    # poll's wake-ups are for what it waits for.
    readable = select.poll()
    readable.register(sock, select.POLLIN)
    try:
        sock.sendall(frame(hello.SerializeToString()))
        while True:
            readable.poll()
            data = sock.recv(RECEIVE_BYTES)
            if not data:
                raise ArenaError("the arena ended the connection without a status (it went away)")
            received = time.monotonic()
            for payload in buffer.feed(data):
                if ended:
                    code, details = parse_status(payload)
                    if code != "OK":
                        raise ArenaError(_status_text(code, details))
                    return session.summary
                if not payload:
                    ended = True
                    continue
                message = pb.EngineMessage.FromString(payload)
                reply = session.handle(message, received)
                if reply is not None:
                    sock.sendall(frame(reply.SerializeToString()))
    except (OSError, FrameError, DecodeError) as exc:
        raise ArenaError(f"the arena ended the connection without a status: {exc}") from None
    except BotCodeError as exc:
        log.critical("%s; the bot stops here (a crash)", exc, exc_info=exc.__cause__)
        raise


#: Statuses after which a remote bot does not connect again: fix something first.
_FINAL = ("UNAUTHENTICATED", "FAILED_PRECONDITION", "INVALID_ARGUMENT", "PERMISSION_DENIED")
#: The longest wait between two attempts to reach the gateway (seconds).
RECONNECT_MAX = 10.0


def remote_channel(url: str, ca_file: str | None = None) -> "grpc.aio.Channel":
    """A channel to the arena's gateway at ``url``: ``grpcs://host:port`` (or ``host:port``)
    with TLS, trusting the system's CAs or ``ca_file``; ``grpc://host:port`` in plaintext,
    only to a loopback address. :class:`ArenaError` for anything else."""
    scheme, _, target = url.rpartition("://")
    if scheme not in ("", "grpcs", "grpc") or not target or "/" in target:
        raise ArenaError(f"--remote {url!r}: give grpcs://HOST:PORT (the bot page shows it)")
    import grpc

    options = [
        ("grpc.enable_http_proxy", 0),
        ("grpc.keepalive_time_ms", 20_000),
        ("grpc.keepalive_timeout_ms", 10_000),
    ]
    if scheme == "grpc":
        host = target.rsplit(":", 1)[0].strip("[]")
        if host not in ("localhost", "127.0.0.1", "::1"):
            raise ArenaError(f"--remote {url!r}: plaintext only to loopback; use grpcs://")
        return grpc.aio.insecure_channel(target, options=options)
    credentials = grpc.ssl_channel_credentials(root_certificates=_ca(ca_file))
    return grpc.aio.secure_channel(target, credentials, options=options)


def _ca(ca_file: str | None) -> bytes | None:
    if not ca_file:
        return None
    try:
        with open(ca_file, "rb") as file:
            return file.read()
    except OSError as exc:
        raise ArenaError(f"cannot read the CA file {ca_file}: {exc}") from exc


#: What a kit says when the gateway answers but its certificate is not trusted.
UNTRUSTED = "the arena's certificate is not trusted (pass --ca FILE)"


def untrusted_certificate(url: str, ca_file: str | None, timeout: float = 5.0) -> str | None:
    """Why the gateway at ``url`` cannot be trusted (its certificate fails verification against
    the system's CAs or ``ca_file``), or ``None`` if it can, or cannot be reached, or ``url`` is
    not TLS: a TLS handshake of its own, asked after gRPC could not connect, since gRPC says
    only that it could not."""
    import ssl

    scheme, _, target = url.rpartition("://")
    if scheme == "grpc":
        return None
    host, _, port = target.rpartition(":")
    host = host.strip("[]")
    try:
        context = ssl.create_default_context(
            cadata=None if ca_file is None else (_ca(ca_file) or b"").decode("ascii", "replace")
        )
    except ssl.SSLError as exc:
        return f"the CA file {ca_file} holds no certificate ({exc.reason})"
    context.set_alpn_protocols(["h2"])
    try:
        with (
            socket.create_connection((host, int(port)), timeout=timeout) as sock,
            context.wrap_socket(sock, server_hostname=host),
        ):
            return None
    except ssl.SSLCertVerificationError as exc:
        return str(exc.verify_message or exc)
    except (OSError, ValueError):
        return None  # not reachable: the caller's "cannot reach" stands


async def _play_remote(
    bot: Bot, url: str, token: str, *, ca_file: str | None, matches: int, connect_timeout: float
) -> int:
    """Play match after match through the gateway (``matches``: how many, 0 for no end),
    connecting again after each one and whenever the connection drops (a dropped match is
    resumed if the arena still holds the seat); the number played."""
    import asyncio

    import grpc

    played = 0
    pause = 1.0
    async with remote_channel(url, ca_file) as channel:
        while not matches or played < matches:
            try:
                await asyncio.wait_for(channel.channel_ready(), connect_timeout)
                summary = await _match(channel, bot, token)
            except TimeoutError:
                why = await asyncio.to_thread(untrusted_certificate, url, ca_file)
                if why is not None:  # connecting again would not help
                    raise ArenaError(
                        f"{UNTRUSTED}: {url}: {why}", grpc.StatusCode.FAILED_PRECONDITION
                    ) from None
                log.warning("cannot reach the gateway at %s; trying again in %g s", url, pause)
            except ArenaError as exc:
                if exc.code is not None and exc.code.name in _FINAL:
                    raise
                log.warning("%s; connecting again in %g s", exc, pause)
            else:
                played += 1
                pause = 1.0
                log.info("match %d over (%d games); waiting for the next", played, summary.games)
                continue
            await asyncio.sleep(pause)
            pause = min(RECONNECT_MAX, pause * 2)
    return played


def play_remote(
    bot: Bot,
    url: str,
    token: str,
    *,
    ca_file: str | None = None,
    matches: int = 0,
    connect_timeout: float = CONNECT_TIMEOUT,
) -> int:
    """Play ``bot`` from this machine in the arena's matches through its gateway at ``url``
    (see :func:`remote_channel`), with the bot's remote token; ``matches`` how many (0: until
    stopped). Raises :class:`ArenaError` if the gateway refuses the token or the protocol."""
    import asyncio

    return asyncio.run(
        _play_remote(
            bot, url, token, ca_file=ca_file, matches=matches, connect_timeout=connect_timeout
        )
    )


def _status_text(code: str, details: str | None) -> str:
    return f"the arena ended the connection: {code}: {details or '(no details)'}"


def play(
    bot: Bot,
    address: str,
    token: str = "",
    *,
    connect_timeout: float = CONNECT_TIMEOUT,
    token_file: str | None = None,
) -> MatchSummary:
    """Connect ``bot`` to the arena at ``address`` (``unix:///path``: gRPC;
    ``frames+unix:///path``: the framed socket, :mod:`arena.protocol.frames`) and play until
    the match ends; with the
    ``token_file`` the token came from, play on in later matches while the arena keeps the
    process (``MatchEnd.stay``: the next token appears in the file). The last match's summary.

    Raises :class:`ArenaError` if the arena refuses the bot or ends the match early, and
    :class:`BotCodeError` if the bot's own code raises.
    """
    if address.startswith(FRAMED):
        path = address.removeprefix(FRAMED)
        return _play_framed(bot, path, token, connect_timeout, token_file)
    import asyncio  # the gRPC socket's client runs on asyncio; the framed one needs none

    return asyncio.run(_play(bot, address, token, connect_timeout, token_file))


def token_from_env() -> str:
    """The bot's token: the content of the file ``$NIMMT_TOKEN_FILE`` names (how the arena
    hands it over), else ``$NIMMT_TOKEN`` (for a bot started by hand), else ``""``.

    Raises :class:`ArenaError` if ``NIMMT_TOKEN_FILE`` is set but the file cannot be read.
    """
    path = os.environ.get("NIMMT_TOKEN_FILE")
    if path:
        try:
            with open(path, encoding="utf-8") as file:
                return file.read().strip()
        except OSError as exc:
            raise ArenaError(f"cannot read the token file $NIMMT_TOKEN_FILE={path}: {exc}") from exc
    return os.environ.get("NIMMT_TOKEN", "")


def default_address() -> str:
    """Where the arena said to connect: its framed socket (``$NIMMT_FRAMES``, the cheaper
    transport, on this machine only) if it offers one, else its gRPC socket
    (``$NIMMT_ENGINE``), else ``""``."""
    frames = os.environ.get(FRAMES_ENV, "")
    if frames.startswith("unix://"):
        return "frames+" + frames
    return os.environ.get("NIMMT_ENGINE", "")


def main(bot: Bot, argv: Sequence[str] | None = None) -> int:
    """Parse the command line and environment, play, and return the exit code (see module)."""
    parser = argparse.ArgumentParser(
        prog=os.path.basename(sys.argv[0]) or "bot.py",
        description=f"Run the bot {bot.name!r} in a Nimmt Arena match.",
    )
    parser.add_argument(
        "--connect",
        metavar="ADDRESS",
        default=default_address(),
        help=(
            "the arena's address: unix:///path for gRPC, frames+unix:///path for the framed "
            f"socket (default: the framed ${FRAMES_ENV} if set, else $NIMMT_ENGINE)"
        ),
    )
    parser.add_argument(
        "--token",
        default=None,
        help=(
            "the bot's token for this match (default: the content of $NIMMT_TOKEN_FILE, "
            "else $NIMMT_TOKEN)"
        ),
    )
    parser.add_argument(
        "--connect-timeout",
        type=float,
        default=CONNECT_TIMEOUT,
        metavar="SECONDS",
        help=f"how long to wait for the arena to accept the connection ({CONNECT_TIMEOUT:g} s)",
    )
    parser.add_argument(
        "--remote",
        metavar="URL",
        default=None,
        help=(
            "play from this machine through the arena's gateway, e.g. grpcs://arena.example.org:"
            "7443, with the bot's remote token in $NIMMT_REMOTE_TOKEN (the bot page issues it)"
        ),
    )
    parser.add_argument(
        "--ca",
        metavar="FILE",
        default=os.environ.get("NIMMT_REMOTE_CA") or None,
        help="with --remote: trust the gateway certificate in FILE (default: $NIMMT_REMOTE_CA)",
    )
    parser.add_argument(
        "--matches",
        type=int,
        default=0,
        metavar="N",
        help="with --remote: stop after N matches (default: play until stopped)",
    )
    parser.add_argument("--quiet", action="store_true", help="log only warnings and errors")
    args = parser.parse_args(argv)
    logging.basicConfig(
        stream=sys.stderr,
        level=logging.WARNING if args.quiet else logging.INFO,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
    )
    if args.remote is not None:
        return _main_remote(bot, args.remote, args.ca, args.matches, args.connect_timeout)
    if not args.connect:
        parser.error(
            "no arena address: the arena sets NIMMT_ENGINE; to connect by hand pass "
            "--connect unix:///path/to/engine.sock"
        )
    try:
        token = token_from_env() if args.token is None else args.token
        token_file = os.environ.get("NIMMT_TOKEN_FILE") if args.token is None else None
        play(
            bot,
            args.connect,
            token,
            connect_timeout=args.connect_timeout,
            token_file=token_file or None,
        )
    except ArenaError as exc:
        log.error("%s", exc)
        return 1
    except BotCodeError:
        return 3  # already logged, with the traceback
    return 0


def _main_remote(bot: Bot, url: str, ca: str | None, matches: int, connect_timeout: float) -> int:
    token = os.environ.get("NIMMT_REMOTE_TOKEN", "").strip()
    if not token:
        log.error("set NIMMT_REMOTE_TOKEN to the bot's remote token (shown on the bot's page)")
        return 2
    try:
        play_remote(bot, url, token, ca_file=ca, matches=matches, connect_timeout=connect_timeout)
    except ArenaError as exc:
        log.error("%s", exc)
        return 1
    except BotCodeError:
        return 3
    except KeyboardInterrupt:
        return 0
    return 0


def run(bot: Bot, argv: Sequence[str] | None = None) -> NoReturn:
    """Play the match the environment (or ``--connect``) names, then exit the process."""
    # What the imports made lives as long as the process: collections need not look at it.
    gc.freeze()
    try:
        code = main(bot, argv)
    except SystemExit as exit_:  # --help, a usage error (argparse has said why), or the bot's own
        code = _exit_status(exit_.code)
    _exit(code)


def _exit_status(code: object) -> int:
    """The status ``sys.exit(code)`` would end the process with (printing a message)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _exit(code: int) -> NoReturn:
    """End the process as ``sys.exit`` would (the ``atexit`` handlers run, logs and streams
    are flushed), without taking every module apart first: a bot's process ends right after
    its match, and that teardown cost a few milliseconds of each start."""
    atexit._run_exitfuncs()  # logging's shutdown is one of them
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)
