"""The framed transport: the format, and the arena's framed socket face to face with the bot kit
and with raw sockets (a real Unix socket, one event loop): the same handshake, statuses and caps
as the gRPC socket beside it, and one seat taken by the first valid Hello on either."""

import asyncio
import random
import subprocess
import sys
import tracemalloc

import grpc
import pytest

from arena import botkit
from arena.botkit import ArenaError
from arena.engine import Game, PlayTile
from arena.engine.observation import observe
from arena.protocol import arena_pb2 as pb
from arena.protocol.convert import decision_from_proto, put_private, put_public
from arena.protocol.frames import (
    MAX_FRAME,
    FrameBuffer,
    FrameError,
    frame,
    parse_status,
    status_frames,
)
from arena.protocol.server import HOLD_SECONDS, MAX_BOT_MESSAGE, MAX_CONNECTIONS, READ_SIZE

from . import test_server as server_tests
from .test_server import TOKEN, Recorder, hello

# -- the format


def test_frames_come_out_whole_however_the_bytes_are_cut():
    rng = random.Random(5)
    payloads = [
        bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 127, 128, 300, 20000])))
        for _ in range(60)
    ]
    stream = b"".join(frame(p) for p in payloads)
    for _ in range(20):
        buffer = FrameBuffer()
        got: list[bytes] = []
        at = 0
        while at < len(stream):
            step = rng.choice([1, 2, 3, 7, 64, 5000])
            got += buffer.feed(stream[at : at + step])
            at += step
        assert got == payloads and buffer.pending == 0


def test_a_frame_over_the_limit_or_a_runaway_length_is_an_error():
    with pytest.raises(FrameError, match="over the limit of 10"):
        FrameBuffer(limit=10).feed(frame(b"x" * 11))
    with pytest.raises(FrameError, match="more than 5 bytes"):
        FrameBuffer().feed(b"\xff" * 6)
    with pytest.raises(FrameError, match="over the limit"):
        FrameBuffer().feed(frame(b"")[:0] + b"\xff\xff\xff\xff\x0f")  # 2**32 - 1 bytes
    assert FrameBuffer().feed(frame(b"y" * MAX_FRAME)) == [b"y" * MAX_FRAME]


def test_the_status_follows_an_empty_frame():
    buffer = FrameBuffer()
    end, status = buffer.feed(status_frames("UNAUTHENTICATED", "missing or unknown token"))
    assert end == b""
    assert parse_status(status) == ("UNAUTHENTICATED", "missing or unknown token")


# -- the framed socket


def with_server(scenario, hello_timeout=5.0):
    """Run ``scenario(server)`` with a started server (gRPC socket and framed socket)."""
    return server_tests.with_server(scenario, hello_timeout, frames=True)


async def converse(server, *payloads, raw=b"", close=False):
    """Send ``payloads`` as frames (then ``raw`` bytes) on a new framed connection; what came
    back: the messages, and the status (or None if the socket closed without one)."""
    reader, writer = await asyncio.open_unix_connection(str(server.frames_path))
    try:
        writer.write(b"".join(frame(p) for p in payloads) + raw)
        if close:
            writer.write_eof()
        await writer.drain()
        buffer = FrameBuffer()
        messages: list[pb.EngineMessage] = []
        ended = False
        while True:
            data = await asyncio.wait_for(reader.read(65536), 10)
            if not data:
                return messages, None
            for payload in buffer.feed(data):
                if ended:
                    return messages, parse_status(payload)
                if not payload:
                    ended = True
                else:
                    messages.append(pb.EngineMessage.FromString(payload))
                    if messages[-1].WhichOneof("body") == "welcome" and not close:
                        return messages, None
    finally:
        writer.close()


def test_it_welcomes_a_bot_on_the_framed_socket():
    messages, status = with_server(lambda server: converse(server, hello()))
    assert [m.WhichOneof("body") for m in messages] == ["welcome"] and status is None
    assert messages[0].welcome.bot_name == "tester"


@pytest.mark.parametrize(
    ("payload", "code", "words"),
    [
        (hello(version=2), "FAILED_PRECONDITION", "protocol version 1, the bot said 2"),
        (hello(token="guess"), "UNAUTHENTICATED", "NIMMT_TOKEN_FILE"),
        (hello(token=""), "UNAUTHENTICATED", "it was empty"),
        (b"\x08\x01garbage", "INVALID_ARGUMENT", "first message must be"),
        (
            pb.BotMessage(answer=pb.Answer(request_id=1)).SerializeToString(),
            "INVALID_ARGUMENT",
            "first message must be",
        ),
    ],
)
def test_it_refuses_a_bad_hello_with_the_status_the_grpc_socket_would_give(payload, code, words):
    messages, status = with_server(lambda server: converse(server, payload))
    assert messages == [] and status is not None
    assert status[0] == code and words in status[1]


def test_it_gives_up_on_a_framed_connection_that_never_says_hello():
    messages, status = with_server(lambda server: converse(server), hello_timeout=0.2)
    assert messages == [] and status is not None
    assert status[0] == "DEADLINE_EXCEEDED" and "no Hello within" in status[1]


def test_a_broken_frame_before_the_hello_ends_the_connection_with_a_reason():
    messages, status = with_server(
        lambda server: converse(server, raw=b"\xff\xff\xff\xff\xff\xff"), hello_timeout=2
    )
    assert messages == [] and status is not None
    assert status[0] == "INVALID_ARGUMENT" and "more than 5 bytes" in status[1]


def test_one_seat_is_taken_once_whichever_socket_the_hello_came_on():
    async def scenario(server):
        messages, _ = await converse(server, hello())
        assert messages[0].WhichOneof("body") == "welcome"
        framed_again = await converse(server, hello())
        async with grpc.aio.insecure_channel(server.address) as channel:
            call = channel.stream_stream(
                "/nimmt.v1.Arena/Play",
                request_serializer=lambda b: b,
                response_deserializer=pb.EngineMessage.FromString,
            )()
            with pytest.raises(grpc.aio.AioRpcError) as refused:  # at the write or the read
                await call.write(hello())
                await call.read()
        return framed_again, refused.value.code()

    (messages, status), grpc_code = with_server(scenario, hello_timeout=30)
    assert messages == [] and status is not None and status[0] == "ALREADY_EXISTS"
    assert grpc_code == grpc.StatusCode.ALREADY_EXISTS


def test_connections_beyond_the_cap_are_closed_as_they_come():
    async def scenario(server):
        held = []
        for _ in range(MAX_CONNECTIONS + 6):
            held.append(await asyncio.open_unix_connection(str(server.frames_path)))
        await asyncio.sleep(0.3)
        closed = 0
        for reader, _ in held:
            try:
                if await asyncio.wait_for(reader.read(1), 0.2) == b"":
                    closed += 1
            except TimeoutError:
                pass
            except ConnectionError:
                closed += 1
        for _, writer in held:
            writer.close()
        return closed, server.refused, list(server.rejections)

    closed, refused, reasons = with_server(scenario, hello_timeout=30)
    assert closed == 6 and refused == 6
    assert all("framed connections" in reason for reason in reasons)


def test_the_kit_plays_a_whole_conversation_on_the_framed_socket():
    game = Game.new("pro+luck", players=3, seed=9)
    view = observe(game, 1)
    bot = Recorder()

    async def scenario(server):
        playing = asyncio.create_task(
            asyncio.to_thread(botkit.play, bot, f"frames+unix://{server.frames_path}", TOKEN)
        )
        connection = await asyncio.wait_for(server.connected, 10)
        assert connection.hello.kit.startswith("nimmt-botkit-python/")
        message = pb.EngineMessage()
        message.request.request_id = 7
        message.request.deadline_ms = 1000
        put_public(message.request.view, view)
        put_private(message.request.view, view)
        reply = await (await connection.ask(message, 7))
        end = pb.EngineMessage()
        end.game_end.game_id = "g"
        put_public(end.game_end.view, view)
        end.game_end.scores.extend([1, 2, 3])
        end.game_end.ranks.extend([3, 2, 1])
        await connection.send(end)
        await connection.send(pb.EngineMessage(match_end=pb.MatchEnd(games=1)))
        connection.close()
        summary = await asyncio.wait_for(playing, 10)
        return reply, summary

    reply, summary = with_server(scenario)
    assert bot.views == [view]
    assert decision_from_proto(reply.answer.decision) == PlayTile(max(view.hand))
    assert bot.ends == [((1, 2, 3), (3, 2, 1))]
    assert summary.games == 1 and summary.answers == 1


def test_the_kit_says_why_the_framed_socket_refused_it():
    def refused(server):
        address = f"frames+unix://{server.frames_path}"
        return asyncio.to_thread(botkit.play, Recorder(), address, "wrong", connect_timeout=5)

    with pytest.raises(ArenaError, match="UNAUTHENTICATED: missing or unknown token"):
        with_server(refused)


def test_the_kit_says_when_the_framed_socket_cannot_be_reached(tmp_path):
    with pytest.raises(ArenaError, match="cannot reach the arena"):
        botkit.play(Recorder(), f"frames+unix://{tmp_path}/none.sock", "", connect_timeout=0.3)


def test_an_answer_too_long_for_a_frame_ends_that_bot_s_stream(tmp_path):
    async def scenario(server):
        _, writer = await asyncio.open_unix_connection(str(server.frames_path))
        writer.write(frame(hello()))
        connection = await asyncio.wait_for(server.connected, 10)
        writer.write(frame(b"a" * (MAX_BOT_MESSAGE + 1)))
        await writer.drain()
        for _ in range(100):
            if connection.lost is not None:
                break
            await asyncio.sleep(0.02)
        writer.close()
        return connection.lost

    lost = with_server(scenario)
    assert lost is not None and "over the limit" in lost


def test_garbage_after_the_hello_is_a_protocol_problem_not_the_end():
    async def scenario(server):
        _, writer = await asyncio.open_unix_connection(str(server.frames_path))
        writer.write(frame(hello()))
        connection = await asyncio.wait_for(server.connected, 10)
        future = connection.expect(3)
        writer.write(frame(b"\x08\x01garbage"))
        answer = pb.BotMessage()
        answer.answer.request_id = 3
        answer.answer.decision.tile.tile = 5
        writer.write(frame(answer.SerializeToString()))
        await writer.drain()
        reply = await asyncio.wait_for(future, 10)
        writer.close()
        return reply, connection.problems, connection.lost

    reply, problems, lost = with_server(scenario)
    assert reply.answer.decision.tile.tile == 5 and lost is None
    assert [p.kind for p in problems] == ["protocol"]


def test_the_kit_prefers_the_framed_socket_the_arena_offers(monkeypatch):
    monkeypatch.setenv("NIMMT_ENGINE", "unix:///run/nimmt/engine.sock")
    monkeypatch.setenv("NIMMT_FRAMES", "unix:///run/nimmt/frames.sock")
    assert botkit.default_address() == "frames+unix:///run/nimmt/frames.sock"
    monkeypatch.delenv("NIMMT_FRAMES")
    assert botkit.default_address() == "unix:///run/nimmt/engine.sock"


def test_a_sandboxed_bot_does_not_import_grpc_to_play():
    """gRPC's import is most of a Python bot's start; on the framed socket it is not needed."""
    code = "import sys, arena.botkit, arena.bots.random; print('grpc' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def answer_frame(request_id: int) -> bytes:
    message = pb.BotMessage(answer=pb.Answer(request_id=request_id))
    message.answer.decision.tile.tile = 7
    return frame(message.SerializeToString())


def test_answers_reach_their_requests_as_they_are_read_and_a_flood_waits_its_turn():
    """Frames go to the connection as they arrive, with the time they were read; more than
    the read-ahead at once queue behind, in order, and each is still judged."""

    async def scenario(server):
        reader, writer = await asyncio.open_unix_connection(str(server.frames_path))
        writer.write(frame(hello()))
        connection = await asyncio.wait_for(server.connected, 5)
        await reader.readexactly(2)  # the Welcome's frame has begun
        loop = asyncio.get_running_loop()
        answers = {i: connection.expect(i) for i in range(1, 41)}
        before = loop.time()
        writer.write(b"".join(answer_frame(i) for i in range(1, 41)))  # 40 frames at once
        replies = [await asyncio.wait_for(answers[i], 5) for i in range(1, 41)]
        writer.write(answer_frame(99))  # asked never: a problem, after the 40 in order
        await asyncio.sleep(0.1)
        writer.close()
        return before, replies, connection.problems

    before, replies, problems = with_server(scenario)
    assert [r.answer.request_id for r in replies] == list(range(1, 41))
    assert all(r.received >= before and r.answer.decision.tile.tile == 7 for r in replies)
    assert [(p.kind, p.request_id) for p in problems] == [("protocol", 99)]


def test_frames_longer_than_one_read_arrive_whole_from_the_reused_read_buffer():
    """The arena reads a connection into one buffer that every read overwrites: frames cut
    across reads, one longer than the buffer, come out whole and each as it was sent."""

    async def scenario(server):
        reader, writer = await asyncio.open_unix_connection(str(server.frames_path))
        writer.write(frame(hello()))
        connection = await asyncio.wait_for(server.connected, 5)
        await reader.readexactly(2)
        notes = {i: chr(ord("a") + i) * (READ_SIZE // 3 + 1000 * i) for i in range(1, 7)}
        notes[7] = "z" * (MAX_BOT_MESSAGE - 64)  # one frame is most of a whole read
        answers = {i: connection.expect(i) for i in notes}
        data = b""
        for i, note in notes.items():
            message = pb.BotMessage(answer=pb.Answer(request_id=i, note=note))
            message.answer.decision.tile.tile = i
            data += frame(message.SerializeToString())
        assert len(data) > 3 * READ_SIZE
        for at in range(0, len(data), 50_000):  # writes that end inside frames
            writer.write(data[at : at + 50_000])
            await writer.drain()
        replies = [await asyncio.wait_for(answers[i], 5) for i in notes]
        writer.close()
        return notes, replies, connection.problems

    notes, replies, problems = with_server(scenario)
    assert [(r.answer.request_id, r.answer.note) for r in replies] == list(notes.items())
    assert [r.answer.decision.tile.tile for r in replies] == list(notes) and problems == []


def test_reading_answers_allocates_no_buffer_per_read():
    """Each read of a plain asyncio protocol makes a new 256 KiB object (a mapping glibc makes,
    shrinks and unmaps again: system calls for every answer); the framed socket reuses one."""

    async def scenario(server):
        reader, writer = await asyncio.open_unix_connection(str(server.frames_path))
        writer.write(frame(hello()))
        connection = await asyncio.wait_for(server.connected, 5)
        await reader.readexactly(2)
        tracemalloc.start()
        try:
            for i in range(1, 31):
                answer = connection.expect(i)
                writer.write(answer_frame(i))
                await asyncio.wait_for(answer, 5)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        writer.close()
        return peak

    assert with_server(scenario) < READ_SIZE


def test_an_answer_read_after_its_deadline_failed_its_request_is_late_not_an_error():
    """The referee fails a request's future at its deadline; the answer read a moment later
    (before the referee let go of the request) is a late answer, as one read after."""

    async def scenario(server):
        errors: list[dict] = []
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _loop, context: errors.append(context))
        _reader, writer = await asyncio.open_unix_connection(str(server.frames_path))
        writer.write(frame(hello()))
        connection = await asyncio.wait_for(server.connected, 5)
        answer = connection.expect(7)
        answer.set_exception(TimeoutError())  # the deadline's timer ran
        writer.write(answer_frame(7))
        await asyncio.sleep(0.2)
        with pytest.raises(TimeoutError):
            answer.result()
        writer.close()
        return errors, connection.problems, connection.lost

    errors, problems, lost = with_server(scenario)
    assert errors == []
    assert [(p.kind, p.request_id) for p in problems] == [("late", 7)]
    assert lost is None


def _unread(sock) -> list[pb.EngineMessage]:
    """The messages waiting on the bot's end of ``sock``, taken in one read (none: [])."""
    import socket

    try:
        data = sock.recv(1 << 20, socket.MSG_DONTWAIT)
    except BlockingIOError:
        return []
    return [pb.EngineMessage.FromString(p) for p in FrameBuffer().feed(data) if p]


def test_a_game_s_end_and_the_next_start_reach_the_bot_with_the_next_request_in_one_write():
    """What asks for no answer waits for the next request (at most HOLD_SECONDS), so that the
    bot wakes once at a game's boundary, not three times; the order is kept, the status comes
    after what was held, and a message with nothing after it still goes out."""
    import socket

    async def scenario(server):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(str(server.frames_path))
        sock.sendall(frame(hello()))
        connection = await asyncio.wait_for(server.connected, 5)
        await asyncio.sleep(HOLD_SECONDS * 3)
        seen = [[m.WhichOneof("body") for m in _unread(sock)]]  # the welcome, alone

        end = pb.EngineMessage(game_end=pb.GameEnd(game_id="g1"))
        start = pb.EngineMessage(game_start=pb.GameStart(game_id="g2"))
        await connection.send(end)
        await connection.send(start)
        await asyncio.sleep(0)
        seen.append([m.WhichOneof("body") for m in _unread(sock)])  # held: nothing yet
        request = pb.EngineMessage(request=pb.DecisionRequest(request_id=5, game_id="g2"))
        assert connection.can_post() and connection.post(request) is None
        together = _unread(sock)  # all three, in one read of what one write put there
        seen.append([m.WhichOneof("body") for m in together])

        await connection.send(pb.EngineMessage(notice=pb.Notice(request_id=5, message="n")))
        seen.append([m.WhichOneof("body") for m in _unread(sock)])  # held: nothing yet
        await asyncio.sleep(HOLD_SECONDS * 3)
        seen.append([m.WhichOneof("body") for m in _unread(sock)])  # alone, once held enough

        await connection.send(pb.EngineMessage(match_end=pb.MatchEnd(games=2)))
        connection.close()
        await asyncio.sleep(0.05)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
        sock.close()
        return seen, together, FrameBuffer().feed(data)

    seen, together, rest = with_server(scenario)
    assert seen == [
        ["welcome"],
        [],
        ["game_end", "game_start", "request"],
        [],
        ["notice"],
    ]
    ids = [m.request.request_id or m.game_end.game_id or m.game_start.game_id for m in together]
    assert ids == ["g1", "g2", 5]
    match_end, empty, status = rest  # the held match end before the status, not lost
    assert pb.EngineMessage.FromString(match_end).match_end.games == 2
    assert empty == b"" and parse_status(status)[0] == "OK"


def _voluntary_switches(thread_id: int) -> int:
    with open(f"/proc/self/task/{thread_id}/status") as status:
        return int(status.read().split("\nvoluntary_ctxt_switches:")[1].split()[0])


def test_the_kit_sleeps_once_a_request_not_again_when_the_arena_reads_its_answer():
    """Asleep in recv, the kit would also be woken when the arena reads its answer (the kernel
    wakes a stream socket's sleepers when the room the answer took is free again): two
    wake-ups a decision where one will do."""
    import socket
    import threading
    import time

    view = observe(Game.new("basic", players=4, seed=3), 0)
    arena, kit = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    thread_id: list[int] = []

    def play() -> None:
        thread_id.append(threading.get_native_id())
        botkit._framed_match(kit, Recorder(), TOKEN, stays=False)

    player = threading.Thread(target=play, daemon=True)
    player.start()
    buffer = FrameBuffer()

    def read_frame() -> bytes:
        while True:
            frames = buffer.feed(arena.recv(65536))
            if frames:
                (payload,) = frames
                return payload

    assert pb.BotMessage.FromString(read_frame()).WhichOneof("body") == "hello"
    requests = 20
    for request_id in range(1, requests + 1):
        if request_id == 2:  # the first request's wake-ups include the thread's start
            before = _voluntary_switches(thread_id[0])
        message = pb.EngineMessage()
        message.request.request_id = request_id
        message.request.deadline_ms = 1000
        put_public(message.request.view, view)
        put_private(message.request.view, view)
        arena.sendall(frame(message.SerializeToString()))
        time.sleep(0.03)  # the kit answers and waits for the next request
        assert pb.BotMessage.FromString(read_frame()).answer.request_id == request_id
        time.sleep(0.03)  # reading the answer must not have woken the kit meanwhile
    switches = _voluntary_switches(thread_id[0]) - before
    arena.sendall(status_frames("OK", ""))
    player.join(10)
    arena.close()
    assert not player.is_alive()
    assert switches <= (requests - 1) + 3, switches  # one a request (and a little slack)
