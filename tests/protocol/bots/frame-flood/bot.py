"""Hostile fixture: says hello, and at its first request, instead of an answer, writes messages
with nothing in them as fast as it can, without end (an empty frame on the framed socket is one
byte). On gRPC's socket, or on the framed one with ``NIMMT_BOT_OPTIONS=framed``."""

import asyncio
import os
import socket

import grpc

from arena.botkit import token_from_env
from arena.protocol import arena_pb2 as pb
from arena.protocol.convert import PROTOCOL_VERSION
from arena.protocol.frames import FrameBuffer, frame

HELLO = pb.BotMessage(
    hello=pb.Hello(protocol_version=PROTOCOL_VERSION, bot_name="flood", token=token_from_env())
).SerializeToString()


def framed() -> None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(os.environ["NIMMT_FRAMES"].removeprefix("unix://"))
    sock.sendall(frame(HELLO))
    buffer = FrameBuffer()
    while not any(
        pb.EngineMessage.FromString(payload).HasField("request")
        for payload in buffer.feed(sock.recv(65536))
    ):
        pass
    flood = b"\x00" * (1 << 20)
    sent = 0
    try:
        while True:
            sock.sendall(flood)
            sent += 1
    except OSError as exc:
        print(f"frame-flood: sent {sent} MiB of empty frames, then {exc!r}", flush=True)


async def grpc_flood() -> None:
    async with grpc.aio.insecure_channel(os.environ["NIMMT_ENGINE"]) as channel:
        call = channel.stream_stream(
            "/nimmt.v1.Arena/Play", request_serializer=bytes, response_deserializer=bytes
        )()
        await call.write(HELLO)
        while not pb.EngineMessage.FromString(await call.read()).HasField("request"):
            pass
        sent = 0
        try:
            while True:
                await call.write(b"")
                sent += 1
        except (grpc.aio.AioRpcError, asyncio.InvalidStateError) as exc:
            print(f"frame-flood: sent {sent} empty messages, then {exc!r}", flush=True)


if __name__ == "__main__":
    if os.environ.get("NIMMT_BOT_OPTIONS") == "framed":
        framed()
    else:
        asyncio.run(grpc_flood())
