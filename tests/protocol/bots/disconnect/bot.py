"""Hostile fixture: plays a few turns of game 1, then closes its stream and lingers."""

import asyncio
import os
import time

import grpc

from arena.botkit import token_from_env
from arena.protocol import arena_pb2 as pb
from arena.protocol.convert import PROTOCOL_VERSION


async def main():
    async with grpc.aio.insecure_channel(os.environ["NIMMT_ENGINE"]) as channel:
        call = channel.stream_stream(
            "/nimmt.v1.Arena/Play",
            request_serializer=pb.BotMessage.SerializeToString,
            response_deserializer=pb.EngineMessage.FromString,
        )()
        hello = pb.Hello(
            protocol_version=PROTOCOL_VERSION,
            bot_name="disconnect",
            token=token_from_env(),
        )
        await call.write(pb.BotMessage(hello=hello))
        answered = 0
        while True:
            message = await call.read()
            if message.WhichOneof("body") != "request":
                continue
            if answered == 4:
                print("disconnect: closing the stream now", flush=True)
                call.cancel()
                break
            request = message.request
            answer = pb.BotMessage(answer=pb.Answer(request_id=request.request_id))
            answer.answer.decision.CopyFrom(request.view.legal[0])
            await call.write(answer)
            answered += 1
    time.sleep(60)  # still running: the runner must end it


asyncio.run(main())
