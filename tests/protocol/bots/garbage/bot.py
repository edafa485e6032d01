"""Hostile fixture: a hand-written client that misbehaves on the stream, then plays on.

On its 2nd request it first sends bytes that are no BotMessage, on its 4th an answer without a
decision, on its 6th an answer to a request id nobody asked, then the right answer. With
``NIMMT_BOT_OPTIONS=framed`` it does the same on the framed socket.
"""

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
    _channel, call = await open_call()  # the channel lives as long as the bot
    hello = pb.Hello(protocol_version=PROTOCOL_VERSION, bot_name="garbage", token=token_from_env())
    await call.write(pb.BotMessage(hello=hello).SerializeToString())
    asked = 0
    while True:
        data = await call.read()
        if data is grpc.aio.EOF:
            return
        message = pb.EngineMessage.FromString(data)
        which = message.WhichOneof("body")
        if which == "notice":
            print("notice:", message.notice.message, flush=True)
        if which != "request":
            continue
        asked += 1
        request = message.request
        answer = pb.BotMessage(answer=pb.Answer(request_id=request.request_id))
        answer.answer.decision.CopyFrom(request.view.legal[-1])
        if asked == 2:
            await call.write(b"\xff\xfe this is not protobuf \x00\x01")
        elif asked == 4:
            answer.answer.ClearField("decision")
        elif asked == 6:
            stray = pb.BotMessage(answer=pb.Answer(request_id=request.request_id + 1000))
            stray.answer.decision.CopyFrom(request.view.legal[0])
            await call.write(stray.SerializeToString())
        await call.write(answer.SerializeToString())


asyncio.run(main())
