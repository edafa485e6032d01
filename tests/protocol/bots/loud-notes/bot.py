"""Hostile fixture: answers every request with its first legal option and a note far over the
limit (60,000 bytes of three-byte characters, 500 values, some not finite), sent raw, past the
kit's own cut."""

import asyncio
import math
import os

import grpc

from arena.botkit import token_from_env
from arena.protocol import arena_pb2 as pb
from arena.protocol.convert import PROTOCOL_VERSION

VALUES = [math.nan, math.inf, -math.inf, 1.5] + [2.0] * 496


def raw(data):
    return data


async def main():
    async with grpc.aio.insecure_channel(os.environ["NIMMT_ENGINE"]) as channel:
        call = channel.stream_stream(
            "/nimmt.v1.Arena/Play", request_serializer=raw, response_deserializer=raw
        )()
        hello = pb.Hello(
            protocol_version=PROTOCOL_VERSION, bot_name="loud-notes", token=token_from_env()
        )
        await call.write(pb.BotMessage(hello=hello).SerializeToString())
        while True:
            data = await call.read()
            if data is grpc.aio.EOF:
                return
            message = pb.EngineMessage.FromString(data)
            if message.WhichOneof("body") == "request":
                answer = pb.Answer(
                    request_id=message.request.request_id, note="→" * 20000, option_values=VALUES
                )
                answer.decision.CopyFrom(message.request.view.legal[0])
                await call.write(pb.BotMessage(answer=answer).SerializeToString())


asyncio.run(main())
