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


Pairs = list[tuple[Collector, Collector]]


async def _relayed(
    tmp_path: Path,
    scenario: Callable[[Pairs], Awaitable[T]],
    bots: int = 1,
    first: Callable[[int], bytes] | None = None,
) -> T:
    """Run ``scenario(pairs)`` with ``bots`` bots connected over TLS through one front whose
    gRPC port is an echoing :class:`Collector` per connection: each pair is a bot's side and
    the gRPC port's side of its connection. Bot ``i`` writes ``first(i)`` as soon as its
    handshake is done, before the front has reached the gRPC port (what it reads waits)."""
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
    transports: list[asyncio.BaseTransport] = []
    pairs: Pairs = []
    try:
        for _ in range(bots):
            transport, client = await loop.create_connection(
                Collector, "127.0.0.1", port, ssl=context, server_hostname="localhost"
            )
            transports.append(transport)
            if first is not None:
                assert client.transport is not None
                client.transport.write(first(len(pairs)))
            for _ in range(100):  # the front connects to the gRPC port after the handshake
                if len(upstreams) > len(pairs):
                    break
                await asyncio.sleep(0.02)
            pairs.append((client, upstreams[len(pairs)]))
        return await scenario(pairs)
    finally:
        for opened in transports:
            opened.close()
        await gateway.stop()
        sink.close()


def test_the_front_relays_both_ways_whole_and_in_order(tmp_path: Path) -> None:
    """Three bots at once, whose reads all go through the front's one read buffer: each gets
    back exactly what it sent, in pieces that end anywhere in the reads, the first of them
    sent before the front had reached the gRPC port."""

    def data(bot: int) -> bytes:
        return b"".join(bytes([(i + 7 * bot) % 251]) * (1000 + 997 * i) for i in range(60 - bot))

    def first(bot: int) -> bytes:
        return data(bot)[:100_000]

    async def scenario(pairs: Pairs) -> list[tuple[bytes, bytes, bytes]]:
        sent = [data(bot) for bot in range(len(pairs))]
        assert min(map(len, sent)) > 20 * front.READ_SIZE
        for at in range(100_000, max(map(len, sent)), 50_000):  # the bots' writes interleave
            for (client, _), whole in zip(pairs, sent, strict=True):
                assert client.transport is not None
                client.transport.write(whole[at : at + 50_000])
            await asyncio.sleep(0)
        return [
            (whole, await upstream.until(len(whole)), await client.until(len(whole)))
            for (client, upstream), whole in zip(pairs, sent, strict=True)
        ]

    relayed = asyncio.run(_relayed(tmp_path, scenario, bots=3, first=first))
    for sent, upstream_got, echoed in relayed:
        assert upstream_got == sent and echoed == sent


def test_relaying_a_message_allocates_no_buffer_per_read(tmp_path: Path) -> None:
    """A plain protocol's transport reads into a new 256 KiB object each time (glibc maps it,
    shrinks it and unmaps it again); the front's sides read into buffers they keep."""

    async def scenario(pairs: Pairs) -> int:
        [(client, _)] = pairs
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
