"""The arena's server and the bot kit, face to face over a real Unix socket (one event loop):
the handshake's errors as gRPC status codes, a request/answer round trip, and the caps on what
one bot may open."""

import asyncio
import os
import sys
import tempfile
from pathlib import Path

import grpc
import pytest

from arena.botkit import ArenaError, KitBot, _play
from arena.engine import Game, PlayTile
from arena.engine.observation import observe
from arena.protocol import arena_pb2 as pb
from arena.protocol.convert import PROTOCOL_VERSION, decision_from_proto, put_private, put_public
from arena.protocol.server import MAX_CONNECTIONS, MAX_WAITING, SeatServer

TOKEN = "secret-token"


def welcome(name):
    return pb.Welcome(protocol_version=PROTOCOL_VERSION, match_id="m", bot_name=name, games=1)


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def with_server(scenario, hello_timeout=5.0, frames=False):
    """Run ``scenario(server)`` with a started server expecting TOKEN, on a short socket path
    (``frames``: and its framed socket beside it)."""

    async def main():
        with tempfile.TemporaryDirectory(prefix="nimmt-test-") as folder:
            server = SeatServer(
                Path(folder) / "s.sock",
                "tester",
                TOKEN,
                welcome("tester"),
                hello_timeout,
                frames_path=Path(folder) / "f.sock" if frames else None,
            )
            server.expected = server.connected
            await server.start()
            try:
                return await scenario(server)
            finally:
                await server.stop(0)

    return asyncio.run(main())


async def first_reply(server, *messages):
    """Send raw messages on a new stream; the first reply or the status it ended with."""
    async with grpc.aio.insecure_channel(server.address) as channel:
        call = channel.stream_stream(
            "/nimmt.v1.Arena/Play",
            request_serializer=lambda b: b,
            response_deserializer=pb.EngineMessage.FromString,
        )()
        try:
            for message in messages:
                await call.write(message)
            return await call.read()
        except grpc.aio.AioRpcError as exc:
            return exc.code(), exc.details()
        except asyncio.InvalidStateError:  # refused before the write
            return await call.code(), await call.details()


def hello(version=PROTOCOL_VERSION, token=TOKEN):
    message = pb.BotMessage(hello=pb.Hello(protocol_version=version, bot_name="t", token=token))
    return message.SerializeToString()


def test_it_welcomes_a_bot_with_the_right_version_and_token():
    reply = with_server(lambda server: first_reply(server, hello()))
    assert reply.WhichOneof("body") == "welcome"
    assert reply.welcome.bot_name == "tester"


@pytest.mark.parametrize(
    ("message", "code", "words"),
    [
        (
            hello(version=2),
            grpc.StatusCode.FAILED_PRECONDITION,
            "protocol version 1, the bot said 2",
        ),
        (hello(token="guess"), grpc.StatusCode.UNAUTHENTICATED, "NIMMT_TOKEN_FILE"),
        (hello(token=""), grpc.StatusCode.UNAUTHENTICATED, "it was empty"),
        (b"\x08\x01garbage", grpc.StatusCode.INVALID_ARGUMENT, "first message must be"),
        (
            pb.BotMessage(answer=pb.Answer(request_id=1)).SerializeToString(),
            grpc.StatusCode.INVALID_ARGUMENT,
            "first message must be",
        ),
    ],
)
def test_it_refuses_a_bad_hello_with_a_status_code_that_says_what_to_fix(message, code, words):
    got_code, details = with_server(lambda server: first_reply(server, message))
    assert got_code == code
    assert words in details


def test_it_refuses_a_second_connection_with_the_same_token():
    async def scenario(server):
        first = await first_reply(server, hello())
        assert first.WhichOneof("body") == "welcome"
        return await first_reply(server, hello())

    code, details = with_server(scenario)
    assert code == grpc.StatusCode.ALREADY_EXISTS
    assert "one stream" in details


def test_it_gives_up_on_a_bot_that_never_says_hello():
    code, details = with_server(lambda server: first_reply(server), hello_timeout=0.2)
    assert code == grpc.StatusCode.DEADLINE_EXCEEDED
    assert "no Hello within" in details


class Recorder(KitBot):
    name = "recorder"

    def __init__(self):
        super().__init__()
        self.views = []
        self.ends = []

    def decide(self, view):
        self.views.append(view)
        return PlayTile(max(view.hand))

    def end_game(self, view, scores, ranks):
        self.ends.append((scores, ranks))


def test_it_carries_a_whole_view_to_the_bot_and_its_answer_back():
    game = Game.new("pro+luck", players=3, seed=9)
    view = observe(game, 1)
    bot = Recorder()

    async def scenario(server):
        client = asyncio.create_task(_play(bot, server.address, TOKEN, 5.0))
        conn = await server.expected
        start = pb.EngineMessage(
            game_start=pb.GameStart(game_id="g1", variant="pro+luck", players=3, seat=1, seed=42)
        )
        await conn.send(start)
        request = pb.EngineMessage()
        request.request.request_id = 7
        request.request.game_id = "g1"
        request.request.seat = 1
        request.request.deadline_ms = 1000
        put_public(request.request.view, view)
        put_private(request.request.view, view)
        reply = await (await conn.ask(request, 7))
        end = pb.EngineMessage(game_end=pb.GameEnd(game_id="g1", scores=[1, 2, 3], ranks=[3, 2, 1]))
        put_public(end.game_end.view, view)
        put_private(end.game_end.view, view)
        await conn.send(end)
        await conn.send(pb.EngineMessage(match_end=pb.MatchEnd(games=1)))
        conn.close()
        summary = await client
        return reply, summary

    reply, summary = with_server(scenario)
    assert bot.views == [view]  # exactly the engine's Observation
    assert bot.info.seed == 42 and bot.info.seat == 1 and bot.info.game_id == "g1"
    assert reply.answer.request_id == 7
    assert decision_from_proto(reply.answer.decision) == PlayTile(max(view.hand))
    assert bot.ends == [((1, 2, 3), (3, 2, 1))]
    assert summary.games == 1 and summary.answers == 1


def test_it_tells_the_bot_kit_why_the_arena_refused_it():
    bot = Recorder()
    with pytest.raises(ArenaError, match="UNAUTHENTICATED: missing or unknown token"):
        with_server(lambda server: _play(bot, server.address, "wrong", 5.0))


def test_it_says_when_the_arena_cannot_be_reached(tmp_path):
    with pytest.raises(ArenaError, match="cannot reach the arena"):
        asyncio.run(_play(Recorder(), f"unix://{tmp_path}/nothing.sock", "", 0.3))


SILENT_STREAMS = """
import sys, time, grpc

def silence():
    time.sleep(30)
    yield b""

calls = []
for _ in range(2):
    channel = grpc.insecure_channel(sys.argv[1], options=[("grpc.use_local_subchannel_pool", 1)])
    play = channel.stream_stream("/nimmt.v1.Arena/Play")
    calls.extend(play(silence()) for _ in range(3))
print("opened", flush=True)
time.sleep(30)
"""


async def run_client(script: str, address: str, settle: float) -> None:
    """Run ``script`` in another process against ``address`` until it has opened its streams,
    then ``settle`` seconds more; then end it."""
    client = await asyncio.create_subprocess_exec(
        sys.executable, "-c", script, address, stdout=asyncio.subprocess.PIPE
    )
    try:
        assert client.stdout is not None
        assert await asyncio.wait_for(client.stdout.readline(), 30) == b"opened\n"
        await asyncio.sleep(settle)
    finally:
        client.kill()
        await client.wait()


def test_it_refuses_streams_beyond_the_few_that_may_wait_for_hello_at_once():
    async def scenario(server):
        await run_client(SILENT_STREAMS, server.address, 1.0)
        return list(server.rejections)

    refused = with_server(scenario, hello_timeout=30.0)
    assert len(refused) == 6 - MAX_WAITING
    for reason in refused:
        assert reason.startswith("RESOURCE_EXHAUSTED")
        assert f"{MAX_WAITING} streams of this seat are already waiting" in reason


def test_it_refuses_any_stream_once_its_bot_said_hello():
    async def scenario(server):
        first = await first_reply(server, hello())
        assert first.WhichOneof("body") == "welcome"
        return await first_reply(server)  # not even a hello: refused at once

    code, details = with_server(scenario, hello_timeout=30.0)
    assert code == grpc.StatusCode.ALREADY_EXISTS
    assert "already said hello" in details


FLOOD = """
import sys, time, grpc
channels = []
for i in range(200):
    channel = grpc.insecure_channel(sys.argv[1], options=[("grpc.use_local_subchannel_pool", 1)])
    channels.append(channel)
    call = channel.stream_stream("/nimmt.v1.Arena/Play")(iter(()))
print("opened", flush=True)
time.sleep(30)
"""


def test_a_flood_of_connections_costs_the_server_a_bounded_number_of_files():
    """Another process opening 200 channels to one seat's socket: the server accepts at most
    MAX_CONNECTIONS of them, so its open files grow by a handful, not by hundreds."""
    counts = []

    async def scenario(server):
        counts.append(open_fds())
        task = asyncio.create_task(run_client(FLOOD, server.address, 1.5))
        await asyncio.sleep(0)
        while not task.done():
            counts.append(open_fds())
            await asyncio.sleep(0.05)
        await task

    with_server(scenario, hello_timeout=30.0)
    assert max(counts) - counts[0] <= 2 * MAX_CONNECTIONS + 4  # the client's pipe, a few more
