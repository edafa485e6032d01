"""Hostile fixture: answers its first request, then reads on but never answers again, printing
when each timeout notice reaches it (seconds on the monotonic clock)."""

import asyncio
import os
import time

import grpc

from arena.botkit import token_from_env
from arena.protocol import arena_pb2 as pb
from arena.protocol.convert import PROTOCOL_VERSION


def raw(data):
    return data


async def main():
    async with grpc.aio.insecure_channel(os.environ["NIMMT_ENGINE"]) as channel:
        call = channel.stream_stream(
            "/nimmt.v1.Arena/Play", request_serializer=raw, response_deserializer=raw
        )()
        hello = pb.Hello(
            protocol_version=PROTOCOL_VERSION, bot_name="answers-once", token=token_from_env()
        )
        await call.write(pb.BotMessage(hello=hello).SerializeToString())
        answered = False
        while True:
            data = await call.read()
            if data is grpc.aio.EOF:
                return
            message = pb.EngineMessage.FromString(data)
            which = message.WhichOneof("body")
            if which == "notice" and message.notice.kind == pb.NOTICE_KIND_TIMEOUT:
                print(f"answers-once: timeout notice at {time.monotonic():.3f}", flush=True)
            elif which == "request" and not answered:
                answer = pb.BotMessage(answer=pb.Answer(request_id=message.request.request_id))
                answer.answer.decision.CopyFrom(message.request.view.legal[0])
                await call.write(answer.SerializeToString())
                answered = True


asyncio.run(main())
