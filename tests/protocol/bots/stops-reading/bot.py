"""Hostile fixture: answers its first three requests, then stops reading its stream for good
and floods the arena with answers to requests nobody asked (each one a protocol fault the arena
tells it about in a notice it never reads), so that what the arena writes to it piles up in a
receive window it keeps small. With ``NIMMT_BOT_OPTIONS=framed`` it does the same on the
framed socket, where the arena bounds what it lets pile up."""

import asyncio
import os

import grpc

from arena.botkit import token_from_env
from arena.protocol import arena_pb2 as pb
from arena.protocol.convert import PROTOCOL_VERSION
from arena.protocol.frames import FrameBuffer, frame


def raw(data):
    return data


class FramedCall:
    """The framed socket's conversation with the same two calls as a gRPC stream's."""

    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer
        self.buffer, self.frames = FrameBuffer(), []

    async def write(self, data):
        self.writer.write(frame(data))
        await self.writer.drain()

    async def read(self):
        while not self.frames:
            data = await self.reader.read(65536)
            if not data:
                return grpc.aio.EOF
            self.frames += self.buffer.feed(data)
        payload = self.frames.pop(0)
        return grpc.aio.EOF if payload == b"" else payload  # the end: a status follows


async def open_call(options=()):
    """The stream to play on: the framed socket with ``NIMMT_BOT_OPTIONS=framed``, else gRPC's."""
    if os.environ.get("NIMMT_BOT_OPTIONS") == "framed":
        path = os.environ["NIMMT_FRAMES"].removeprefix("unix://")
        return None, FramedCall(*await asyncio.open_unix_connection(path))
    channel = grpc.aio.insecure_channel(os.environ["NIMMT_ENGINE"], options=list(options))
    call = channel.stream_stream(
        "/nimmt.v1.Arena/Play", request_serializer=raw, response_deserializer=raw
    )()
    return channel, call


async def main():
    # A small receive window, never grown: what the arena writes piles up at once.
    options = [("grpc.http2.bdp_probe", 0), ("grpc.http2.lookahead_bytes", 8192)]
    _channel, call = await open_call(options)  # the channel lives as long as the bot
    hello = pb.Hello(
        protocol_version=PROTOCOL_VERSION, bot_name="stops-reading", token=token_from_env()
    )
    await call.write(pb.BotMessage(hello=hello).SerializeToString())
    answered = 0
    while answered < 3:
        message = pb.EngineMessage.FromString(await call.read())
        if message.WhichOneof("body") == "request":
            answer = pb.BotMessage(answer=pb.Answer(request_id=message.request.request_id))
            answer.answer.decision.CopyFrom(message.request.view.legal[0])
            await call.write(answer.SerializeToString())
            answered += 1
    print("stops-reading: not reading any more", flush=True)
    stray = 10**9
    while True:  # never reads again; the sandbox and the arena end it
        stray += 1
        await call.write(pb.BotMessage(answer=pb.Answer(request_id=stray)).SerializeToString())
        await asyncio.sleep(0.01)  # fewer than the 64 between two decisions that are a flood


asyncio.run(main())
