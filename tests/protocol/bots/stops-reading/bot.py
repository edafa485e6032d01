"""Hostile fixture: answers its first three requests, then stops reading its stream for good
and floods the arena with answers to requests nobody asked (each one a protocol fault the arena
tells it about in a notice it never reads), so that what the arena writes to it piles up in a
receive window it keeps small."""

import asyncio
import os

import grpc

from arena.botkit import token_from_env
from arena.protocol import arena_pb2 as pb
from arena.protocol.convert import PROTOCOL_VERSION


def raw(data):
    return data


async def main():
    # A small receive window, never grown: what the arena writes piles up at once.
    options = [("grpc.http2.bdp_probe", 0), ("grpc.http2.lookahead_bytes", 8192)]
    async with grpc.aio.insecure_channel(os.environ["NIMMT_ENGINE"], options=options) as channel:
        call = channel.stream_stream(
            "/nimmt.v1.Arena/Play", request_serializer=raw, response_deserializer=raw
        )()
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
            await asyncio.sleep(0.001)


asyncio.run(main())
