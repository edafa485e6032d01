"""The arena's server and the bot kit, face to face over a real Unix socket (one event loop):
the handshake's errors as gRPC status codes, and a request/answer round trip."""

import asyncio
import tempfile
from pathlib import Path

import grpc
import pytest

from arena.botkit import ArenaError, KitBot, _play
from arena.engine import Game, PlayTile
from arena.engine.observation import observe
from arena.protocol import arena_pb2 as pb
from arena.protocol.convert import PROTOCOL_VERSION, decision_from_proto, put_private, put_public
from arena.protocol.server import ArenaServer

TOKEN = "secret-token"


def welcome(name):
    return pb.Welcome(protocol_version=PROTOCOL_VERSION, match_id="m", bot_name=name, games=1)


def with_server(scenario, hello_timeout=5.0):
    """Run ``scenario(server)`` with a started server expecting TOKEN, on a short socket path."""

    async def main():
        with tempfile.TemporaryDirectory(prefix="nimmt-test-") as folder:
            server = ArenaServer(Path(folder) / "s.sock", welcome, hello_timeout=hello_timeout)
            server.expected = server.expect(TOKEN, "tester")
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
        for message in messages:
            await call.write(message)
        try:
            return await call.read()
        except grpc.aio.AioRpcError as exc:
            return exc.code(), exc.details()


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
        (hello(token="guess"), grpc.StatusCode.UNAUTHENTICATED, "NIMMT_TOKEN"),
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
