"""The TLS front's relay (``remote.front``), in process: what a bot sends over TLS reaches the
gateway's gRPC port whole and in order, and what comes back reaches the bot, in pieces of any
size; and relaying a message allocates nothing per read beyond the message itself."""

import asyncio
import ssl
import tracemalloc
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

from remote import front
from remote.tls import self_signed

T = TypeVar("T")


class Collector(asyncio.BufferedProtocol):
    """A peer of the test: keeps what it reads (into a buffer of its own, as the front does, so
    that its own reads allocate nothing) and echoes it if asked."""

    def __init__(self, echo: bool = False) -> None:
        self.echo = echo
        self.data = bytearray()
        self.transport: asyncio.Transport | None = None
        self.grew = asyncio.Event()
        self._into = memoryview(bytearray(front.READ_SIZE))

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def get_buffer(self, sizehint: int) -> memoryview:
        return self._into

    def buffer_updated(self, nbytes: int) -> None:
        self.data += self._into[:nbytes]
        if self.echo and self.transport is not None:
            self.transport.write(bytes(self._into[:nbytes]))
        self.grew.set()

    async def until(self, size: int) -> bytes:
        async with asyncio.timeout(10):
            while len(self.data) < size:
                self.grew.clear()
                await self.grew.wait()
        return bytes(self.data)


async def _relayed(tmp_path: Path, scenario: Callable[[Collector, Collector], Awaitable[T]]) -> T:
    """Run ``scenario(client, upstream)`` with a bot connected over TLS through a front whose
    gRPC port is an echoing :class:`Collector`."""
    loop = asyncio.get_running_loop()
    upstreams: list[Collector] = []

    def upstream_side() -> Collector:
        upstreams.append(Collector(echo=True))
        return upstreams[-1]

    sink = await loop.create_server(upstream_side, "127.0.0.1", 0)
    cert, key = self_signed(tmp_path, ["localhost", "127.0.0.1"])
    gateway = front.Front(cert, key, handshake_seconds=5, per_address=4, unacknowledged_seconds=10)
    port = await gateway.start("127.0.0.1:0", sink.sockets[0].getsockname()[1])
    context = ssl.create_default_context(cafile=str(cert))
    context.set_alpn_protocols(["h2"])  # as gRPC offers it; the front refuses a client without
    transport, client = await loop.create_connection(
        Collector, "127.0.0.1", port, ssl=context, server_hostname="localhost"
    )
    try:
        for _ in range(100):  # the front connects to the gRPC port after the handshake
            if upstreams:
                break
            await asyncio.sleep(0.02)
        return await scenario(client, upstreams[0])
    finally:
        transport.close()
        await gateway.stop()
        sink.close()


def test_the_front_relays_both_ways_whole_and_in_order(tmp_path: Path) -> None:
    async def scenario(client: Collector, upstream: Collector) -> tuple[bytes, bytes, bytes]:
        sent = b"".join(bytes([i % 251]) * (1000 + 997 * i) for i in range(90))
        assert len(sent) > 40 * front.READ_SIZE
        assert client.transport is not None
        for at in range(0, len(sent), 50_000):  # pieces that end anywhere in the reads
            client.transport.write(sent[at : at + 50_000])
        return sent, await upstream.until(len(sent)), await client.until(len(sent))

    sent, upstream_got, echoed = asyncio.run(_relayed(tmp_path, scenario))
    assert upstream_got == sent and echoed == sent


def test_relaying_a_message_allocates_no_buffer_per_read(tmp_path: Path) -> None:
    """A plain protocol's transport reads into a new 256 KiB object each time (glibc maps it,
    shrinks it and unmaps it again); the front's sides read into buffers they keep."""

    async def scenario(client: Collector, upstream: Collector) -> int:
        assert client.transport is not None
        tracemalloc.start()
        try:
            for i in range(1, 31):  # a request and its answer: small messages both ways
                client.transport.write(b"m" * 40)
                await client.until(40 * i)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        return peak

    assert asyncio.run(_relayed(tmp_path, scenario)) < front.READ_SIZE
