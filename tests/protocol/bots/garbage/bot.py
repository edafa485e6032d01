"""Hostile fixture: a hand-written client that misbehaves on the stream, then plays on.

On its 2nd request it first sends bytes that are no BotMessage, on its 4th an answer without a
decision, on its 6th an answer to a request id nobody asked, then the right answer.
"""

import asyncio
import os

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
            protocol_version=PROTOCOL_VERSION, bot_name="garbage", token=token_from_env()
        )
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
