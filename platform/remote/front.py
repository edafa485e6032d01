"""The gateway's TLS front: it takes the bots' TCP connections, makes the TLS handshake itself
(Python's ``ssl``, ALPN ``h2``) and passes the plaintext HTTP/2 on to the gateway's gRPC server
on a loopback port, so that a handshake that fails leaves a line in the log with the client's
address and why (gRPC's server offers no hook for a failed handshake and logs neither its
address nor, by default, the failure: grpc/grpc#32893 and #38665 ask for both).

Why a handshake was refused, as the log says it: the client does not trust the certificate
(unknown CA: a bot without ``--ca`` for a self-signed one), it refused the certificate for
another reason (a host name the certificate does not name: the host it asked for is said), it
does not speak TLS (plaintext HTTP/2, an HTTP request, garbage), it made no handshake within
the bound, it closed the connection during the handshake, or right after it without a word
(Node checks the certificate after the handshake). A connection that closes before sending a
byte (a port check) is not logged.

The log is bounded (:class:`RefusalLog`): a few lines per address and minute, a few dozen in
all, then a count of what was not written. So are the connections: at most
``per_address`` open from one address, and at most :func:`connection_limit` in all (three file
descriptors each: the bot's, the front's to gRPC, and gRPC's); more are closed at once.
The gateway asks :meth:`Front.client_of` who a gRPC peer on loopback really is.
"""

import asyncio
import contextlib
import ipaddress
import logging
import resource
import socket
import ssl
import time
from collections import Counter
from pathlib import Path
from typing import Any

from cryptography import x509

log = logging.getLogger(__name__)

#: How much of a connection's first bytes is looked at before the handshake (a ClientHello's
#: first record at most).
PEEK = 16 * 1024 + 5
#: The most connections of the front in all, whatever the file descriptors allow.
MAX_CONNECTIONS = 4096
#: File descriptors a connection takes (the bot's, the front's to gRPC, gRPC's own), and those
#: kept for everything else (the database, Redis, logs).
FDS_PER_CONNECTION = 3
FDS_KEPT = 128
#: Bytes of a bot's that wait for the connection to gRPC before the front stops reading.
PENDING_MAX = 64 * 1024
#: Bytes a side reads at once, into the front's one buffer that every read reuses.
READ_SIZE = 64 * 1024
#: How long a side whose other side closed may take to write what it has left (seconds).
LINGER = 5.0
#: The refusals' log: lines per address, and in all, per window (seconds); addresses in a
#: window's count, the rest counted together; addresses named when the window's count is said.
LINES_PER_ADDRESS = 5
LINES_PER_WINDOW = 50
WINDOW = 60.0
ADDRESSES_COUNTED = 4096
ADDRESSES_NAMED = 10


class RefusalLog:
    """Refused handshakes in the log, rate-limited: per window of :data:`WINDOW` seconds at most
    :data:`LINES_PER_ADDRESS` lines per address and :data:`LINES_PER_WINDOW` in all; the
    refusals not written are counted, and :meth:`flush` (at the window's end) writes the counts:
    one line for each of the :data:`ADDRESSES_NAMED` busiest addresses and one for the rest."""

    def __init__(self, logger: logging.Logger = log) -> None:
        self.log = logger
        self.began = time.monotonic()
        self.written = 0
        self._lines: Counter[str] = Counter()  # address -> lines written this window
        self._unwritten: Counter[str] = Counter()  # address -> refusals not written
        self._last: dict[str, str] = {}  # address -> the last reason not written
        self._elsewhere = 0  # refusals not written from addresses past ADDRESSES_COUNTED

    def refused(self, address: str, reason: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        if now - self.began >= WINDOW:
            self.flush(now)
        if self._lines[address] < LINES_PER_ADDRESS and self.written < LINES_PER_WINDOW:
            self._lines[address] += 1
            self.written += 1
            self.log.warning("refused a TLS connection from %s: %s", address, reason)
        elif address in self._unwritten or len(self._unwritten) < ADDRESSES_COUNTED:
            self._unwritten[address] += 1
            self._last[address] = reason
        else:
            self._elsewhere += 1

    def flush(self, now: float | None = None) -> None:
        """Write the window's counts of refusals not written, and start a new window."""
        now = time.monotonic() if now is None else now
        seconds = round(now - self.began)
        named = self._unwritten.most_common(ADDRESSES_NAMED)
        for address, count in named:
            self.log.warning(
                "refused %d more TLS connections from %s in the last %d s, not logged one by "
                "one (the last: %s)",
                count,
                address,
                seconds,
                self._last[address],
            )
        rest = sum(self._unwritten.values()) - sum(count for _, count in named) + self._elsewhere
        if rest:
            others = len(self._unwritten) - len(named)
            self.log.warning(
                "refused %d more TLS connections in the last %d s from %s other addresses, not "
                "logged one by one",
                rest,
                seconds,
                f"{others}+" if self._elsewhere else others,
            )
        self.began = now
        self.written = 0
        self._lines.clear()
        self._unwritten.clear()
        self._last.clear()
        self._elsewhere = 0


class Refused(Exception):
    """A connection the front closes; the reason is logged."""


def connection_limit() -> int:
    """How many connections the front holds at once: :data:`MAX_CONNECTIONS`, or fewer when the
    process may not open enough files for them (after raising its soft limit to the hard one)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        wanted = MAX_CONNECTIONS * FDS_PER_CONNECTION + FDS_KEPT
        raised = wanted if hard == resource.RLIM_INFINITY else min(hard, wanted)
        if raised > soft:
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
                soft = raised
    return max(1, min(MAX_CONNECTIONS, (soft - FDS_KEPT) // FDS_PER_CONNECTION))


def certificate_names(cert: Path) -> list[str]:
    """The host names and addresses the certificate in ``cert`` names (its alternative names)."""
    loaded = x509.load_pem_x509_certificate(cert.read_bytes())
    try:
        alternatives = loaded.extensions.get_extension_for_class(x509.SubjectAlternativeName)
    except x509.ExtensionNotFound:
        return []
    names: list[str] = alternatives.value.get_values_for_type(x509.DNSName)
    addresses = alternatives.value.get_values_for_type(x509.IPAddress)
    return [*names, *(str(address) for address in addresses)]


def server_context(cert: Path, key: Path) -> ssl.SSLContext:
    """The front's TLS: the gateway's certificate, TLS 1.2 or newer, ALPN ``h2`` (gRPC's)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    context.set_alpn_protocols(["h2"])
    return context


def not_tls(head: bytes) -> str | None:
    """Why the first bytes of a connection are not a TLS handshake, or None if they may be."""
    if not head or head[0] == 0x16:  # a TLS handshake record
        return None
    if head.startswith(b"PRI * HTTP/2.0"[: len(head)]):
        return "not TLS: plaintext HTTP/2 (a bot given grpc:// or http://, not grpcs://?)"
    word = head.split(b" ", 1)[0]
    if word in (b"GET", b"POST", b"HEAD", b"PUT", b"OPTIONS", b"CONNECT", b"DELETE", b"PATCH"):
        return f"not TLS: a plain HTTP request ({word.decode()})"
    return f"not TLS: the first bytes were {head[:8].hex(' ')}"


def client_hello_host(head: bytes) -> str | None:
    """The host name a TLS ClientHello at the start of ``head`` asks for (SNI), if it says one
    within the bytes given."""
    try:
        if head[0] != 0x16 or head[5] != 0x01:  # a handshake record holding a ClientHello
            return None
        at = 5 + 4 + 2 + 32  # record header, handshake header, version, random
        at += 1 + head[at]  # session id
        at += 2 + int.from_bytes(head[at : at + 2], "big")  # cipher suites
        at += 1 + head[at]  # compression methods
        end = at + 2 + int.from_bytes(head[at : at + 2], "big")
        at += 2
        while at + 4 <= min(end, len(head)):
            kind = int.from_bytes(head[at : at + 2], "big")
            size = int.from_bytes(head[at + 2 : at + 4], "big")
            at += 4
            if kind == 0:  # server_name: a list of (type, length, name); type 0 is a host name
                if head[at + 2] != 0:
                    return None
                length = int.from_bytes(head[at + 3 : at + 5], "big")
                name = head[at + 5 : at + 5 + length]
                if len(name) != length:
                    return None
                return name.decode("ascii", "replace")
            at += size
    except IndexError:
        return None
    return None


def why_refused(error: BaseException, host: str | None, names: list[str], bound: float) -> str:
    """Why a handshake failed, for the log: ``error`` as the handshake raised it, ``host`` the
    name the client asked for (if any), ``names`` the certificate's."""
    if isinstance(error, Refused):
        reason = str(error)
    elif isinstance(error, TimeoutError):
        reason = f"no TLS handshake within {bound:g} s"
    elif isinstance(error, ssl.SSLError) and not isinstance(error, ssl.SSLEOFError):
        code: str = getattr(error, "reason", None) or ""
        if code == "TLSV1_ALERT_UNKNOWN_CA":
            reason = (
                f"the client does not trust the gateway's certificate ({code}: a bot without "
                "--ca for a self-signed certificate, or with another certificate)"
            )
        elif "ALERT" in code and ("CERTIFICATE" in code or "ACCESS_DENIED" in code):
            reason = (
                f"the client refused the gateway's certificate ({code}: not trusted, a bot "
                "without --ca?, or not for the host name it asked for)"
            )
        elif "ALERT" in code:
            reason = f"the client ended the handshake ({code})"
        elif code in ("NO_APPLICATION_PROTOCOL", "NO_SHARED_CIPHER", "UNSUPPORTED_PROTOCOL"):
            reason = f"no TLS the client and the gateway share ({code}; gRPC needs ALPN h2)"
        else:
            reason = f"not a TLS handshake the gateway could finish ({code or error})"
    elif isinstance(error, ssl.SSLEOFError | ConnectionError | EOFError):
        reason = (
            "the client closed the connection during the TLS handshake (gRPC's C core and "
            "Node close so, without a word, when they do not trust the certificate: a bot "
            "without --ca?)"
        )
    else:
        reason = f"{type(error).__name__}: {error}"
    if host is not None:
        shown = repr(host[:100])
        if host.lower().rstrip(".") not in (name.lower() for name in names):
            reason += (
                f"; it asked for the host {shown}, which the certificate does not name (it "
                f"names {', '.join(names) or 'nothing'})"
            )
    return reason


def client_address(host: str) -> str:
    """An accepted peer's address as gRPC would give it (an IPv4 address mapped into IPv6 as
    IPv4)."""
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return str(address)


class _Side(asyncio.BufferedProtocol):
    """One side of a joined connection (the bot's over TLS, or the front's to gRPC): what it
    reads is written to the other side; a side that cannot keep up pauses the other's reading.

    It reads into ``read_into``, a buffer that every side of the front shares: each read is
    copied out of it at once, before the event loop reads anything else (a plain protocol's
    transport makes a new 256 KiB object per read, which glibc maps, shrinks and unmaps again:
    system calls and a page fault for each message a match sends; a buffer per side would
    hold 64 KiB for each of thousands of connections)."""

    def __init__(self, name: str, read_into: memoryview) -> None:
        self.name = name
        self.transport: Any = None
        self.other: _Side | None = None
        self.received = 0
        self._pending: list[bytes] = []
        self._pending_size = 0
        self._read_into = read_into
        self.closed: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def join(self, other: "_Side") -> None:
        """Join to ``other`` (already connected); what waited is passed on."""
        self.other = other
        pending, self._pending = self._pending, []
        for data in pending:
            other.transport.write(data)
        if self._pending_size > PENDING_MAX and self.transport is not None:
            self.transport.resume_reading()
        self._pending_size = 0
        if self.closed.done():
            other.end()

    def connection_made(self, transport: Any) -> None:
        self.transport = transport

    def get_buffer(self, sizehint: int) -> memoryview:
        return self._read_into

    def buffer_updated(self, nbytes: int) -> None:
        # A copy: the other side's transport may keep what it cannot send at once.
        data = bytes(self._read_into[:nbytes])
        self.received += nbytes
        if self.other is not None and self.other.transport is not None:
            self.other.transport.write(data)
            return
        self._pending.append(data)
        self._pending_size += len(data)
        if self._pending_size > PENDING_MAX:
            self.transport.pause_reading()

    def eof_received(self) -> bool:
        return False  # this side closes, and so the other (HTTP/2 has no use for half a stream)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(self.name)
        if self.other is not None:
            self.other.end()

    def end(self) -> None:
        """Close after what is left to write, or at once after :data:`LINGER` seconds (a peer
        that reads nothing more, a link gone without a word, would hold it for many minutes)."""
        if self.transport is None or self.closed.done():
            return
        self.transport.close()
        asyncio.get_running_loop().call_later(LINGER, self._abort)

    def _abort(self) -> None:
        if not self.closed.done():
            self.transport.abort()

    def pause_writing(self) -> None:
        if self.other is not None and self.other.transport is not None:
            self.other.transport.pause_reading()

    def resume_writing(self) -> None:
        if self.other is not None and self.other.transport is not None:
            self.other.transport.resume_reading()


class Front:
    """The TLS front on ``host:port`` before the gRPC server on loopback port ``upstream``."""

    def __init__(
        self,
        cert: Path,
        key: Path,
        *,
        handshake_seconds: float,
        per_address: int,
        unacknowledged_seconds: float,
        refusals: RefusalLog | None = None,
    ) -> None:
        self.context = server_context(cert, key)
        # how long data sent to a bot may stay unacknowledged before the kernel ends the
        # connection (TCP_USER_TIMEOUT, as gRPC sets its own sockets' to its keepalive timeout:
        # with the keepalive pings in flight, a link gone without a word ends in that time)
        self.unacknowledged_ms = max(1, round(unacknowledged_seconds * 1000))
        self.names = certificate_names(cert)
        self.handshake_seconds = handshake_seconds
        self.per_address = per_address
        self.limit = connection_limit()
        self.refusals = refusals or RefusalLog()
        self.open: Counter[str] = Counter()  # address -> connections open (or in handshake)
        self.total = 0
        self.upstream = 0
        self._peers: dict[int, str] = {}  # the front's local port to gRPC -> the bot's address
        self._listener: socket.socket | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._sides: set[_Side] = set()
        self._read_into = memoryview(bytearray(READ_SIZE))  # what every side reads into
        self._accepting: asyncio.Task[None] | None = None
        self._flushing: asyncio.Task[None] | None = None

    def client_of(self, port: int) -> str | None:
        """The address of the bot whose connection reaches gRPC from local ``port``."""
        return self._peers.get(port)

    async def start(self, address: str, upstream: int) -> int:
        """Listen on ``address`` (``host:port``); the port."""
        host, _, port = address.rpartition(":")
        host = host.strip("[]")
        if host == "localhost":
            host = "127.0.0.1"
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        dual = family == socket.AF_INET6 and host == "::" and socket.has_dualstack_ipv6()
        listener = socket.create_server(
            (host, int(port)), family=family, backlog=1024, dualstack_ipv6=dual
        )
        listener.setblocking(False)
        self._listener = listener
        self.upstream = upstream
        self._accepting = asyncio.create_task(self._accept())
        self._flushing = asyncio.create_task(self._flush())
        bound: int = listener.getsockname()[1]
        return bound

    async def stop(self) -> None:
        """Stop listening and end every connection."""
        for task in (self._accepting, self._flushing, *self._tasks):
            if task is not None:
                task.cancel()
        for side in list(self._sides):
            if side.transport is not None:
                side.transport.abort()
        pending = [t for t in (self._accepting, self._flushing, *self._tasks) if t is not None]
        if pending:
            await asyncio.wait(pending, timeout=5)
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        self.refusals.flush()

    async def _flush(self) -> None:
        while True:
            await asyncio.sleep(WINDOW)
            self.refusals.flush()

    async def _accept(self) -> None:
        loop = asyncio.get_running_loop()
        assert self._listener is not None
        while True:
            try:
                sock, peer = await loop.sock_accept(self._listener)
            except OSError as error:  # out of file descriptors or memory: wait a moment
                log.warning("the gateway could not accept a connection: %s", error)
                await asyncio.sleep(0.1)
                continue
            address = client_address(peer[0])
            with contextlib.suppress(OSError, AttributeError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, self.unacknowledged_ms)
            if self.total >= self.limit:
                sock.close()
                self.refusals.refused(address, f"the gateway is full ({self.limit} connections)")
                continue
            if self.open[address] >= self.per_address:
                sock.close()
                self.refusals.refused(
                    address, f"{self.per_address} connections from this address are open already"
                )
                continue
            self.total += 1
            self.open[address] += 1
            task = asyncio.create_task(self._serve(sock, address))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _serve(self, sock: socket.socket, address: str) -> None:
        port = 0
        client: _Side | None = None
        upstream: _Side | None = None
        try:
            client = await self._handshake(sock, address)
            if client is None:
                return
            self._sides.add(client)
            try:
                loop = asyncio.get_running_loop()
                _, upstream = await loop.create_connection(
                    lambda: _Side("gateway", self._read_into), "127.0.0.1", self.upstream
                )
            except OSError as error:
                log.warning("the TLS front could not reach the gateway's gRPC server: %s", error)
                client.transport.abort()
                return
            self._sides.add(upstream)
            port = upstream.transport.get_extra_info("sockname")[1]
            self._peers[port] = address
            upstream.join(client)
            client.join(upstream)
            first = await asyncio.wait(
                [client.closed, upstream.closed], return_when=asyncio.FIRST_COMPLETED
            )
            if client.received == 0:
                ended = next(iter(first[0])).result()
                self.refusals.refused(
                    address,
                    "the client closed the connection right after the TLS handshake without a "
                    "word (it may not trust the certificate: a bot without --ca?)"
                    if ended == "bot"
                    else f"the client sent nothing within {self.handshake_seconds:g} s of its "
                    "TLS handshake",
                )
            await asyncio.wait([client.closed, upstream.closed])
        finally:
            for side in (client, upstream):
                if side is not None:
                    self._sides.discard(side)
            self._peers.pop(port, None)
            self.total -= 1
            self.open[address] -= 1
            if self.open[address] <= 0:
                del self.open[address]

    async def _handshake(self, sock: socket.socket, address: str) -> _Side | None:
        """The connection's TLS, within the bound: its bot's side, or None (refused, and said)."""
        loop = asyncio.get_running_loop()
        host: str | None = None
        handed = False  # whether the socket is the transport's to close
        try:
            async with asyncio.timeout(self.handshake_seconds):
                head = await _peek(sock)
                if not head:
                    return None  # closed before a byte: a port check, not a handshake
                if reason := not_tls(head):
                    raise Refused(reason)
                host = client_hello_host(head)
                handed = True
                transport, client = await loop.connect_accepted_socket(
                    lambda: _Side("bot", self._read_into),
                    sock,
                    ssl=self.context,
                    ssl_handshake_timeout=self.handshake_seconds + 5,
                )
        except (OSError, TimeoutError, Refused) as error:
            self.refusals.refused(
                address, why_refused(error, host, self.names, self.handshake_seconds)
            )
            return None
        finally:
            if not handed:
                sock.close()
        if transport.get_extra_info("ssl_object").selected_alpn_protocol() != "h2":
            transport.abort()
            self.refusals.refused(
                address, "the client offered no ALPN h2 (gRPC over TLS needs it: not gRPC?)"
            )
            return None
        return client


async def _peek(sock: socket.socket) -> bytes:
    """The first bytes the connection has sent (left for the handshake to read), once any
    came; empty if it closed first."""
    loop = asyncio.get_running_loop()
    readable: asyncio.Future[None] = loop.create_future()

    def ready() -> None:
        if not readable.done():
            readable.set_result(None)

    loop.add_reader(sock.fileno(), ready)
    try:
        await readable
    finally:
        loop.remove_reader(sock.fileno())
    try:
        return sock.recv(PEEK, socket.MSG_PEEK)
    except ConnectionError:
        return b""
