"""The gateway's TLS front (``remote.front``): every refused handshake leaves a line in the
gateway's log with the client's address and why, a flood of them a bounded number of lines; and
clients that attack the handshake (never finishing it, sending garbage, a huge ClientHello,
thousands of connections from one address, half-closing a connection in a match) leave the
gateway up, bounded in memory and file descriptors, and a match under way playing.

The gateway runs as ``./dev demo`` runs it (``manage.py run_gateway --self-signed``, a process of
its own, so that its file descriptors and memory are its own); a bot with a seat in a match is
played by this test through the gateway's Redis, as a worker would.
"""

import asyncio
import contextlib
import logging
import queue
import re
import socket
import ssl
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections
from nimmt_site_testing import wait_for
from remote import front, handover
from remote.gateway import Gateway, GatewayConfig
from remote.models import RemoteConnection
from remote.tls import self_signed
from test_site_gateway import DemoGateway, _remote_bot

from arena.protocol import arena_pb2 as pb
from arena.protocol.convert import PROTOCOL_VERSION

pytestmark = pytest.mark.django_db(transaction=True)

PER_ADDRESS = 8  # the gateway's cap of open connections from one address here
#: Attackers connect from loopback addresses of their own, so that the cap of one is not the
#: seated bot's (127.0.0.1).
ATTACKER = "127.0.0.2"


@pytest.fixture
def gateway(tmp_path: Path) -> Iterator[DemoGateway]:
    started = DemoGateway(tmp_path, env={"NIMMT_GATEWAY_CONNECTIONS_PER_ADDRESS": str(PER_ADDRESS)})
    started.start()
    yield started
    started.stop(redis_too=True)


def _pid(gateway: DemoGateway) -> int:
    assert gateway.process is not None and gateway.process.poll() is None, gateway.log.read_text()
    return gateway.process.pid


def _fds(gateway: DemoGateway) -> int:
    return len(list(Path(f"/proc/{_pid(gateway)}/fd").iterdir()))


def _rss_mb(gateway: DemoGateway) -> float:
    status = Path(f"/proc/{_pid(gateway)}/status").read_text()
    found = re.search(r"VmRSS:\s+(\d+) kB", status)
    assert found is not None
    return int(found.group(1)) / 1024


def _refusals(gateway: DemoGateway, address: str = ATTACKER) -> list[str]:
    return [
        line
        for line in gateway.log.read_text(errors="replace").splitlines()
        if f"refused a TLS connection from {address}:" in line
    ]


def _connect(gateway: DemoGateway, source: str = ATTACKER) -> socket.socket:
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(10)
    sock.connect(("127.0.0.1", gateway.port))
    return sock


def _closed(sock: socket.socket) -> None:
    """Wait for the gateway to close ``sock`` (a reset, if it left what was sent unread)."""
    with contextlib.suppress(ConnectionError):
        assert sock.recv(10) == b""


class Seated:
    """A bot with a seat in a match through the gateway (a real gRPC client over TLS, through
    ``port`` if given); :meth:`decide` is one decision: a request down, its answer back up."""

    def __init__(self, gateway: DemoGateway, name: str, port: int = 0) -> None:
        self.bot, token = _remote_bot(name)
        self.redis = redis.Redis.from_url(gateway.redis_url)
        self.seat = uuid.uuid4().hex
        self.request = 0
        credentials = grpc.ssl_channel_credentials(gateway.cert.read_bytes())
        self.channel = grpc.secure_channel(f"127.0.0.1:{port or gateway.port}", credentials)
        play = self.channel.stream_stream(
            "/nimmt.v1.Arena/Play",
            request_serializer=pb.BotMessage.SerializeToString,
            response_deserializer=pb.EngineMessage.FromString,
        )
        self.outbox: queue.Queue[pb.BotMessage | None] = queue.Queue()
        hello = pb.Hello(protocol_version=PROTOCOL_VERSION, token=token)
        self.outbox.put(pb.BotMessage(hello=hello))
        self.call = play(iter(self.outbox.get, None))
        self.reader = threading.Thread(target=self._answer, daemon=True)
        self.reader.start()
        live = handover.live_key(self.bot.pk)
        wait_for("the bot to be live", lambda: self.redis.exists(live), 30)
        welcome = pb.EngineMessage(welcome=pb.Welcome(match_id="m"))
        assignment = handover.Assignment(self.seat, welcome.SerializeToString(), time.time() + 60)
        self.redis.rpush(handover.inbox_key(self.bot.pk), assignment.dumps())
        assert self._up(10).kind == "joined"

    def _answer(self) -> None:
        with contextlib.suppress(grpc.RpcError):
            for message in self.call:
                if message.WhichOneof("body") == "request":
                    answer = pb.Answer(request_id=message.request.request_id)
                    self.outbox.put(pb.BotMessage(answer=answer))

    def _up(self, timeout: float) -> handover.Up:
        got = self.redis.blpop([handover.up_key(self.seat)], timeout=timeout)
        assert got is not None, "nothing from the gateway"
        return handover.Up.loads(got[1])

    def decide(self, timeout: float = 5) -> float:
        """One decision's round trip (seconds)."""
        self.request += 1
        request = pb.EngineMessage(request=pb.DecisionRequest(request_id=self.request))
        down = handover.Down(request.SerializeToString(), request_id=self.request)
        began = time.monotonic()
        self.redis.rpush(handover.down_key(self.seat), down.dumps())
        up = self._up(timeout)
        assert up.kind == "message", up
        assert pb.BotMessage.FromString(up.raw).answer.request_id == self.request
        return time.monotonic() - began

    def close(self) -> None:
        self.outbox.put(None)
        self.channel.close()


@pytest.fixture
def seated(gateway: DemoGateway) -> Iterator[Seated]:
    bot = Seated(gateway, "in-a-match")
    yield bot
    bot.close()


# ------------------------------------------------------------------- what the log says, and why


def _untrusted_grpc(gateway: DemoGateway) -> None:
    """A gRPC client without the certificate (the public CAs only), as a kit without --ca."""
    channel = grpc.secure_channel(f"127.0.0.1:{gateway.port}", grpc.ssl_channel_credentials())
    with contextlib.suppress(grpc.FutureTimeoutError):
        grpc.channel_ready_future(channel).result(timeout=3)
    channel.close()


def _tls(gateway: DemoGateway, context: ssl.SSLContext, host: str, source: str) -> str:
    with _connect(gateway, source) as sock:
        try:
            with context.wrap_socket(sock, server_hostname=host):
                return "connected"
        except ssl.SSLError as error:
            return str(error)


def test_each_refused_handshake_is_logged_with_the_clients_address_and_why(
    gateway: DemoGateway,
) -> None:
    _untrusted_grpc(gateway)
    untrusted = ssl.create_default_context()  # the system's CAs: not the self-signed one
    assert "CERTIFICATE_VERIFY_FAILED" in _tls(gateway, untrusted, "127.0.0.1", "127.0.0.3")
    trusting = ssl.create_default_context(cafile=gateway.cert)
    assert "CERTIFICATE_VERIFY_FAILED" in _tls(gateway, trusting, "elsewhere.example", "127.0.0.4")
    plaintext = grpc.insecure_channel(f"127.0.0.1:{gateway.port}")  # grpc:// for grpcs://
    with contextlib.suppress(grpc.FutureTimeoutError):
        grpc.channel_ready_future(plaintext).result(timeout=3)
    plaintext.close()
    with _connect(gateway, "127.0.0.5") as sock:  # the same, by hand
        sock.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
        _closed(sock)
    with _connect(gateway, "127.0.0.6") as sock:
        sock.sendall(b"\x00\x01garbage\xff" * 10)
        _closed(sock)
    with _connect(gateway, "127.0.0.7") as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        _closed(sock)
    with _connect(gateway, "127.0.0.8") as sock:  # connects, and never says a word
        began = time.monotonic()
        assert sock.recv(10) == b""  # the gateway closed it
        assert 4 < time.monotonic() - began < 8
    with _connect(gateway, "127.0.0.9"):
        pass  # a port check: closed before a byte, not logged
    time.sleep(0.5)
    expected = {
        # gRPC's client closes the connection without an alert
        "127.0.0.1": "the client closed the connection during the TLS handshake (gRPC's C "
        "core and Node close so, without a word, when they do not trust the certificate: a bot "
        "without --ca?)",
        "127.0.0.3": "the client does not trust the gateway's certificate (TLSV1_ALERT_UNKNOWN_CA",
        "127.0.0.4": "it asked for the host 'elsewhere.example', which the certificate does not "
        "name (it names localhost, 127.0.0.1)",
        "127.0.0.5": "not TLS: plaintext HTTP/2 (a bot given grpc:// or http://",
        "127.0.0.6": "not TLS: the first bytes were 00 01 67 61",
        "127.0.0.7": "not TLS: a plain HTTP request (GET)",
        "127.0.0.8": "no TLS handshake within 5 s",
    }
    for address, reason in expected.items():
        lines = _refusals(gateway, address)
        assert lines and reason in lines[0], (address, lines, gateway.log.read_text())
    assert not _refusals(gateway, "127.0.0.9")
    assert any("not TLS: plaintext HTTP/2" in line for line in _refusals(gateway, "127.0.0.1"))


def test_a_flood_of_refusals_from_one_address_writes_a_few_lines_then_a_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    refusals = front.RefusalLog()
    began = refusals.began
    with caplog.at_level(logging.WARNING, logger="remote.front"):
        for n in range(10_000):
            refusals.refused("203.0.113.5", "not TLS", now=began + n / 1000)
        refusals.refused("198.51.100.7", "no TLS handshake within 5 s", now=began + 10)
        assert len(caplog.records) == front.LINES_PER_ADDRESS + 1
        refusals.refused("203.0.113.5", "not TLS", now=began + front.WINDOW + 1)  # a new window
    lines = [record.getMessage() for record in caplog.records]
    assert lines[-2] == (
        f"refused {10_000 - front.LINES_PER_ADDRESS} more TLS connections from 203.0.113.5 in "
        "the last 61 s, not logged one by one (the last: not TLS)"
    )
    assert lines[-1] == "refused a TLS connection from 203.0.113.5: not TLS"
    assert len(lines) == front.LINES_PER_ADDRESS + 3


def test_a_flood_from_many_addresses_writes_a_bounded_number_of_lines_in_all(
    caplog: pytest.LogCaptureFixture,
) -> None:
    refusals = front.RefusalLog()
    began = refusals.began
    with caplog.at_level(logging.WARNING, logger="remote.front"):
        for n in range(20_000):  # more addresses than are counted one by one
            refusals.refused(f"10.{n // 65536}.{n // 256 % 256}.{n % 256}", "x", now=began + 1)
        refusals.flush(now=began + 30)
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == front.LINES_PER_WINDOW + front.ADDRESSES_NAMED + 1
    assert lines[-1] == (
        f"refused {20_000 - front.LINES_PER_WINDOW - front.ADDRESSES_NAMED} more TLS connections "
        f"in the last 30 s from {front.ADDRESSES_COUNTED - front.ADDRESSES_NAMED}+ other "
        "addresses, not logged one by one"
    )
    refusals.flush(now=began + 90)  # nothing more to say
    assert len(caplog.records) == len(lines)


def test_a_flood_of_garbage_from_one_address_writes_a_few_lines_in_the_gateways_log(
    gateway: DemoGateway, seated: Seated
) -> None:
    for _ in range(300):
        with _connect(gateway) as sock:
            sock.sendall(b"garbage!")
            with contextlib.suppress(ConnectionError):
                sock.recv(10)
    time.sleep(0.5)
    assert len(_refusals(gateway)) == front.LINES_PER_ADDRESS
    assert seated.decide() < 2


@pytest.mark.parametrize(
    ("name", "host", "expected"),
    [
        ("elsewhere.example", "elsewhere.example", "'elsewhere.example', which the certificate"),
        ("named", "localhost", None),
    ],
)
def test_the_host_a_client_hello_asks_for_is_read_and_compared_with_the_certificate(
    tmp_path: Path, name: str, host: str, expected: str | None
) -> None:
    """The part of the log line that says a client asked for a host the certificate does not
    name, from the first bytes of a real ClientHello."""
    cert, _ = self_signed(tmp_path, ["127.0.0.1", "localhost"])
    outgoing = ssl.MemoryBIO()
    client = ssl.create_default_context().wrap_bio(ssl.MemoryBIO(), outgoing, server_hostname=host)
    with contextlib.suppress(ssl.SSLWantReadError):
        client.do_handshake()
    hello = outgoing.read()
    assert front.client_hello_host(hello) == host
    assert front.client_hello_host(hello[:40]) is None  # cut short: nothing is guessed
    assert front.client_hello_host(b"\x16\x03\x01\xff") is None
    alert = ssl.SSLError(1, "[SSL: SSLV3_ALERT_BAD_CERTIFICATE] sslv3 alert bad certificate")
    alert.reason = "SSLV3_ALERT_BAD_CERTIFICATE"  # as the ssl module sets it
    reason = front.why_refused(alert, host, front.certificate_names(cert), 5)
    assert "refused the gateway's certificate (SSLV3_ALERT_BAD_CERTIFICATE" in reason
    assert (expected in reason) if expected else ("which the certificate" not in reason)


# ------------------------------------------------------------------------------------- attacks


def test_connections_that_never_handshake_are_closed_at_the_bound_and_capped_per_address(
    gateway: DemoGateway, seated: Seated
) -> None:
    """Slowloris: an address opens many connections and sends nothing, or one byte at a time."""
    before = _fds(gateway)
    opened = [_connect(gateway) for _ in range(100)]
    try:
        for sock in opened[:50:2]:
            sock.sendall(b"\x16")  # the start of a handshake, and no more
        time.sleep(1)
        held = _fds(gateway) - before
        assert held <= PER_ADDRESS + 2, held
        assert seated.decide() < 2
        time.sleep(5)  # the handshake's bound
        assert _fds(gateway) <= before + 2
        assert seated.decide() < 2
    finally:
        for sock in opened:
            sock.close()
    lines = _refusals(gateway)
    assert any(f"{PER_ADDRESS} connections from this address are open" in line for line in lines)
    assert len(lines) <= front.LINES_PER_ADDRESS


def test_thousands_of_connections_from_one_address_leave_the_gateway_bounded(
    gateway: DemoGateway, seated: Seated
) -> None:
    seated.decide()
    fds, rss = _fds(gateway), _rss_mb(gateway)
    took: list[float] = []

    async def flood() -> None:
        async def one(handshake: bool) -> None:
            with contextlib.suppress(OSError):
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", gateway.port, local_addr=(ATTACKER, 0)
                )
                writer.write(b"\x16\x03\x01\x00\x05hello" if handshake else b"junk")
                with contextlib.suppress(OSError, asyncio.TimeoutError):
                    await asyncio.wait_for(reader.read(10), 1)
                writer.close()

        for _ in range(10):
            await asyncio.gather(*(one(n % 2 == 0) for n in range(300)))
            took.append(await asyncio.to_thread(seated.decide))

    asyncio.run(flood())
    time.sleep(1)
    assert max(took) < 2, took
    assert _fds(gateway) <= fds + 2
    assert _rss_mb(gateway) - rss < 30, (rss, _rss_mb(gateway))
    assert len(_refusals(gateway)) <= front.LINES_PER_ADDRESS
    assert seated.decide() < 2


def test_a_huge_client_hello_is_refused_without_the_gateway_reading_it_all(
    gateway: DemoGateway, seated: Seated
) -> None:
    rss = _rss_mb(gateway)
    sent = 0
    with _connect(gateway) as sock:
        # a handshake record announcing a ClientHello of 16 MB, and megabytes of it
        sock.sendall(b"\x16\x03\x01\x40\x00" + b"\x01\xff\xff\xff" + b"\x03\x03" + bytes(32))
        chunk = bytes(range(256)) * 256
        with contextlib.suppress(ConnectionError, socket.timeout):
            while sent < 64 * 1024 * 1024:
                sock.sendall(chunk)
                sent += len(chunk)
    assert sent < 8 * 1024 * 1024, f"the gateway took {sent} bytes of a ClientHello"
    time.sleep(0.5)
    assert _rss_mb(gateway) - rss < 20
    lines = _refusals(gateway)
    assert lines and "not a TLS handshake the gateway could finish" in lines[0], lines
    assert seated.decide() < 2


class HalfCloser:
    """A TCP relay from a port of its own to the gateway that can half-close the connection
    toward the gateway (the bot's side stops writing, and still reads)."""

    def __init__(self, target: int) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.target = target
        self.upstream: socket.socket | None = None
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        client, _ = self.listener.accept()
        upstream = socket.create_connection(("127.0.0.1", self.target))
        self.upstream = upstream

        def pipe(source: socket.socket, sink: socket.socket) -> None:
            with contextlib.suppress(OSError):
                while data := source.recv(65536):
                    sink.sendall(data)

        threading.Thread(target=pipe, args=(client, upstream), daemon=True).start()
        pipe(upstream, client)

    def half_close(self) -> None:
        assert self.upstream is not None
        self.upstream.shutdown(socket.SHUT_WR)


def test_a_connection_half_closed_in_a_match_is_lost_and_the_other_match_plays_on(
    gateway: DemoGateway, seated: Seated
) -> None:
    relay = HalfCloser(gateway.port)
    halved = Seated(gateway, "half-closed", port=relay.port)
    try:
        assert halved.decide() < 2
        relay.half_close()
        up = halved._up(10)
        assert up.kind == "lost", up
        assert seated.decide() < 2
        row = wait_for(
            "the connection's end",
            lambda: RemoteConnection.objects.filter(bot=halved.bot, ended_at__isnull=False).first(),
            10,
        )
        assert row.address == "127.0.0.1"
        assert gateway.process is not None and gateway.process.poll() is None
    finally:
        halved.close()


# ---------------------------------------------------------------------- the front and the gRPC


def test_behind_the_front_the_grpc_port_refuses_a_client_that_bypasses_it(tmp_path: Path) -> None:
    """gRPC listens on loopback behind the front; a local client that connects to it directly
    (no TLS, no address of its own to the gateway) is refused before anything is read."""
    cert, key = self_signed(tmp_path, ["127.0.0.1"])

    async def scenario() -> tuple[grpc.StatusCode, str]:
        gateway = Gateway(
            GatewayConfig(
                address="127.0.0.1:0",
                redis_url=settings.REMOTE_REDIS_URL,
                cert=cert,
                key=key,
                name="t",
            )
        )
        await gateway.start()
        assert gateway.front is not None
        channel = grpc.aio.insecure_channel(f"127.0.0.1:{gateway.front.upstream}")
        try:
            call: Any = channel.stream_stream("/nimmt.v1.Arena/Play")()
            with contextlib.suppress(grpc.aio.AioRpcError):
                await call.write(b"")
                await call.read()
            return await call.code(), await call.details()
        finally:
            await channel.close()
            await gateway.stop()
            await sync_to_async(connections.close_all)()

    code, details = asyncio.run(scenario())
    assert code == grpc.StatusCode.PERMISSION_DENIED and "TLS address" in details
