"""Every language's starter plays exactly as the Python starter, and every kit survives what an
arena may do to it.

Conformance: the same seeded matches (a board game with luck and action cards, and the card
game), each language's starter in the sandbox against the same in-process opponents, must give
the Python starter's replays, game for game (bot names aside): the same strategy, the same
decisions, no fault.

Hostile input: each kit is run as its program against a scripted arena (a real gRPC server on
a Unix socket, written here message by message) that sends notices, asks again before a late
answer arrived, drops the stream, vanishes, or refuses the bot; the kit must answer each open
request once with its own id, log what it was told, and exit with the code its README promises.
A kit of :data:`FRAMED` is run against the same scripts a second time on the framed socket
(``NIMMT_FRAMES``, :mod:`arena.protocol.frames`), beside the gRPC one, and must take it.
"""

import contextlib
import dataclasses
import importlib.util
import json
import os
import queue
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent import futures
from dataclasses import dataclass, field
from pathlib import Path
from shutil import ignore_patterns as ignore
from typing import Any

import grpc
import pytest

from arena.bots.heuristic import HeuristicBot
from arena.bots.random import RandomBot
from arena.engine import Game
from arena.engine.observation import observe
from arena.engine.record import GameRecord
from arena.protocol import arena_pb2 as pb
from arena.protocol import arena_pb2_grpc
from arena.protocol.convert import (
    PROTOCOL_VERSION,
    decision_from_proto,
    observation_from_proto,
    observation_to_proto,
)
from arena.protocol.frames import FrameBuffer, frame, status_frames
from arena.runner.check import CheckGame, check_bot
from arena.runner.manifest import BotProgram
from arena.runner.match import Entrant, MatchConfig, run_match
from arena.runner.pool import WarmPool
from arena.table.notes import NOTE_BYTES, cut_utf8

from .conftest import FRAMED, LANGUAGES, REFERENCE, ROOT, needs_bwrap, starter

pytestmark = pytest.mark.slow

#: The matches every starter plays: each decision kind comes up (tile, luck, action, take row).
MATCHES = {
    "pro+luck": {"variant": "pro+luck", "games": 3, "seed": 11},
    "classic": {"variant": "classic", "games": 3, "seed": 12},
}
#: The recorded choices the starter makes in each match (declined action cards leave none).
COVERS = {"pro+luck": {"luck"}, "classic": {"take_row"}}
#: Generous clocks: a timeout would be a difference from the Python starter, not a test.
CLOCKS = {"decision_ms": 3000, "bank_ms": 20000}

_replays: dict[tuple[str, str], list[dict[str, Any]]] = {}
_notes: dict[tuple[str, str], list[list[dict[str, Any]]]] = {}  # the starter's, per game


def replays_of(name: str, match: str, out: Path) -> list[dict[str, Any]]:
    """The replays of language ``name``'s starter in ``match`` (played once per session), with
    the starter's name taken out."""
    if (name, match) not in _replays:
        program = starter(name)
        entrants = [
            Entrant(f"starter-{name}", program=program),
            Entrant("heuristic", in_process=HeuristicBot),
            Entrant("random", in_process=RandomBot),
        ]
        config = MatchConfig(**MATCHES[match], **CLOCKS, out=out)
        result = run_match(config, entrants)
        _replays[name, match] = [_anonymous(replay) for replay in result.replays]
        _notes[name, match] = [[n.to_dict() for n in game] for game in result.notes]
    return _replays[name, match]


def starter_choices(replays: list[dict[str, Any]]) -> set[str]:
    """The kinds of the choices the starter's seat made in ``replays``."""
    kinds = set()
    for replay in replays:
        seat = [p["name"] for p in replay["players"]].index("starter")
        kinds |= {c["kind"] for t in replay["turns"] for c in t["choices"] if c["seat"] == seat}
    return kinds


def _anonymous(replay: GameRecord) -> dict[str, Any]:
    text = replay.to_text()
    for name in LANGUAGES:
        text = text.replace(f'"starter-{name}"', '"starter"')
    return json.loads(text)


@needs_bwrap
@pytest.mark.parametrize("match", list(MATCHES))
@pytest.mark.parametrize("name", [n for n in LANGUAGES if n != REFERENCE])
def test_each_starter_plays_the_python_starters_games(name, match, tmp_path):
    expected = replays_of(REFERENCE, match, tmp_path / REFERENCE)
    assert expected and all(not r["result"]["faults"] for r in expected)
    assert COVERS[match] <= starter_choices(expected), "the matches miss a decision kind"
    played = replays_of(name, match, tmp_path / name)
    assert len(played) == len(expected)
    for game, (mine, python) in enumerate(zip(played, expected, strict=True), start=1):
        assert mine["result"]["faults"] == [], f"{name}, game {game}: faults"
        for turn, (a, b) in enumerate(zip(mine["turns"], python["turns"], strict=True), start=1):
            assert a == b, f"{name}, game {game}, turn {turn}: not the Python starter's decisions"
        assert mine == python, f"{name}, game {game}: the replay differs"
    # And the same notes on its decisions, kept apart from the replays.
    notes = _notes[name, match]
    assert notes == _notes[REFERENCE, match] and all(notes), f"{name}: not the Python notes"


@needs_bwrap
@pytest.mark.parametrize("name", LANGUAGES)
def test_each_starter_passes_the_bot_check(name, tmp_path):
    report = check_bot(ROOT / "bots" / f"starter-{name}", out=tmp_path)
    assert report.passed, "\n".join(report.lines())
    assert report.sandbox.enabled


@needs_bwrap
@pytest.mark.parametrize("name", LANGUAGES)
def test_each_starter_stays_for_another_match_when_the_arena_keeps_it(name, tmp_path):
    """Hello.stays, MatchEnd.stay: the kit waits for the rewritten token, connects again and
    plays the next match in the same process, as well as the first."""
    pool = WarmPool(size=2)
    try:
        results = []
        for number, seed in enumerate((21, 1021)):
            entrants = [
                Entrant(f"starter-{name}", program=starter(name)),
                Entrant("random", in_process=RandomBot),
            ]
            config = MatchConfig("basic", 2, seed, **CLOCKS, out=tmp_path / str(number))
            results.append(run_match(config, entrants, pool=pool))
            assert len(pool) == 1, f"{name}: the process was not kept"
        for result in results:
            for bot in result.bots:
                assert bot.faults == () and bot.dropped is None, (name, bot)
        first, second = (r.bots[0].program for r in results)
        assert first is not None and second is not None
        assert first.pid == second.pid, f"{name}: a new process played the second match"
        # Offered both sockets, a kit of FRAMED takes the framed one, in both matches.
        transport = "framed" if name in FRAMED else "grpc"
        assert first.transport == second.transport == transport, (name, first, second)
        log = (tmp_path / "1" / "logs" / f"starter-{name}.log").read_text()
        assert "match over" in log, log  # the second match's output in its own log
    finally:
        pool.close()


@needs_bwrap
@pytest.mark.skipif("javascript" not in LANGUAGES, reason="no JavaScript starter")
def test_the_javascript_starter_runs_without_node_modules_of_its_own(tmp_path):
    """An upload has no node_modules: the kit finds its packages in the bot runtime."""
    with tempfile.TemporaryDirectory(prefix="nimmt-upload-") as scratch:  # bot uids reach /tmp
        folder = Path(scratch) / "uploaded"
        shutil.copytree(ROOT / "bots" / "starter-javascript", folder, ignore=ignore("node_modules"))
        for path in (Path(scratch), folder, *folder.rglob("*")):
            path.chmod(0o755 if path.is_dir() else 0o644)
        report = check_bot(folder, out=tmp_path, plan=(CheckGame("pro+luck", 3),))
    assert report.passed, "\n".join(report.lines())


# ---------------------------------------------------------------------------- a scripted arena

TOKEN = "kit-conformance-token"


@dataclass
class Stream:
    """The scripted side of one connection: what the kit sent, and how to answer it."""

    hello: pb.Hello | None = None
    answers: list[pb.Answer] = field(default_factory=list)
    inbox: "queue.Queue[pb.BotMessage | None]" = field(default_factory=queue.Queue)
    #: The socket the kit said hello on: ``grpc`` or ``framed``.
    transport: str | None = None
    #: A check of the script that failed (raised again by :func:`run_kit`, after the kit ran).
    failed: BaseException | None = None

    def answer(self, timeout: float = 20.0) -> pb.Answer:
        """The kit's next answer (fails the test if it sends something else or nothing)."""
        message = self.inbox.get(timeout=timeout)
        assert message is not None, "the kit closed its side of the stream"
        assert message.WhichOneof("body") == "answer", message
        self.answers.append(message.answer)
        return message.answer


Script = Callable[[Stream, Any], Iterator[pb.EngineMessage]]


class ScriptedArena(arena_pb2_grpc.ArenaServicer):
    """Plays ``script`` on the first stream; reads the kit's messages on a thread of its own."""

    def __init__(self, script: Script, stream: Stream) -> None:
        self.script = script
        self.stream = stream

    def Play(
        self, request_iterator: Iterator[pb.BotMessage], context: grpc.ServicerContext
    ) -> Iterator[pb.EngineMessage]:
        first = next(request_iterator)
        assert first.WhichOneof("body") == "hello", first
        self.stream.hello, self.stream.transport = first.hello, "grpc"
        if first.hello.token != TOKEN:
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "missing or unknown token")

        def read() -> None:
            try:
                for message in request_iterator:
                    self.stream.inbox.put(message)
            except grpc.RpcError:
                pass
            self.stream.inbox.put(None)

        threading.Thread(target=read, daemon=True).start()
        try:
            yield from self.script(self.stream, context)
        except (AssertionError, queue.Empty) as failed:  # the kit sees an error status
            self.stream.failed = failed
            raise


class _Ended(Exception):
    """A script ended its framed conversation (``abort``)."""


class FramedContext:
    """What a script does to a framed connection, in the words of gRPC's servicer context:
    ``abort`` sends the status and closes; ``cancel`` closes with no status (the arena's
    process died)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.closed = False

    def send(self, data: bytes) -> None:
        if not self.closed:
            with contextlib.suppress(OSError):
                self.sock.sendall(data)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(OSError):
                self.sock.shutdown(socket.SHUT_RDWR)
            self.sock.close()

    def abort(self, code: grpc.StatusCode, details: str) -> None:
        self.send(status_frames(code.name, details))
        self.close()
        raise _Ended

    def cancel(self) -> None:
        self.close()


class FramedScriptedArena:
    """:class:`ScriptedArena` on a framed socket: serves the first connection on a thread."""

    def __init__(self, script: Script, stream: Stream, path: Path) -> None:
        self.script = script
        self.stream = stream
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(str(path))
        self.listener.listen(4)
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()

    def _serve(self) -> None:
        try:
            sock, _ = self.listener.accept()
        except OSError:
            return
        context = FramedContext(sock)
        buffer = FrameBuffer()
        frames: list[bytes] = []
        while not frames:
            data = sock.recv(65536)
            if not data:
                context.close()
                return
            frames = buffer.feed(data)
        first = pb.BotMessage.FromString(frames.pop(0))
        assert first.WhichOneof("body") == "hello", first
        self.stream.hello, self.stream.transport = first.hello, "framed"
        try:
            if first.hello.token != TOKEN:
                context.abort(grpc.StatusCode.UNAUTHENTICATED, "missing or unknown token")

            def read() -> None:
                for payload in frames:
                    self.stream.inbox.put(pb.BotMessage.FromString(payload))
                with contextlib.suppress(OSError):
                    while data := sock.recv(65536):
                        for payload in buffer.feed(data):
                            self.stream.inbox.put(pb.BotMessage.FromString(payload))
                self.stream.inbox.put(None)

            threading.Thread(target=read, daemon=True).start()
            for message in self.script(self.stream, context):
                context.send(frame(message.SerializeToString()))
            context.send(status_frames("OK", ""))
            context.close()
        except _Ended:
            pass
        except (AssertionError, queue.Empty) as failed:  # as gRPC does: an error status
            self.stream.failed = failed
            context.send(status_frames("UNKNOWN", f"the scripted arena failed: {failed!r}"))
            context.close()


@dataclass(frozen=True)
class Kit:
    """A starter under test, and the socket the scripted arena offers it: ``grpc`` alone, or
    ``framed`` (the framed socket beside the gRPC one, as the arena offers both)."""

    program: BotProgram
    transport: str

    @property
    def command(self) -> tuple[str, ...]:
        return tuple(self.program.command)

    @property
    def directory(self) -> Path:
        return self.program.directory

    @property
    def address_variable(self) -> str:
        return "NIMMT_FRAMES" if self.transport == "framed" else "NIMMT_ENGINE"


@dataclass(frozen=True)
class Run:
    code: int
    log: str
    stream: Stream


def run_kit(kit: Kit, script: Script, token: str = TOKEN, timeout: float = 60) -> Run:
    """Run the kit's program (outside the sandbox: the kit is under test, not the sandbox)
    against ``script``, the token handed over in a file as the arena does; a kit offered the
    framed socket must say hello there."""
    with tempfile.TemporaryDirectory(prefix="nimmt-kit-") as folder:
        engine = Path(folder) / "engine.sock"
        (Path(folder) / "token").write_text(token + "\n")
        stream = Stream()
        arena = ScriptedArena(script, stream)
        server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
        arena_pb2_grpc.add_ArenaServicer_to_server(arena, server)
        server.add_insecure_port(f"unix://{engine}")
        server.start()
        framed = None
        env = {
            "PATH": os.pathsep.join([os.path.dirname(sys.executable), "/usr/bin", "/bin"]),
            "HOME": folder,
            "LANG": "C.UTF-8",
            "NIMMT_ENGINE": f"unix://{engine}",
            "NIMMT_TOKEN_FILE": str(Path(folder) / "token"),
        }
        if kit.transport == "framed":
            framed = FramedScriptedArena(script, stream, Path(folder) / "frames.sock")
            env["NIMMT_FRAMES"] = f"unix://{folder}/frames.sock"
        try:
            done = subprocess.run(
                list(kit.command),
                cwd=kit.directory,
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            )
        finally:
            server.stop(0)
            if framed is not None:
                framed.stop()
        log = done.stdout + done.stderr
        assert stream.transport == kit.transport, f"it said hello on {stream.transport}: {log}"
        if stream.failed is not None:
            raise AssertionError(f"the script's check failed; the kit's log:\n{log}") from (
                stream.failed
            )
        return Run(done.returncode, log, stream)


def request(request_id: int, view: pb.Observation, deadline_ms: int = 5000) -> pb.EngineMessage:
    return pb.EngineMessage(
        request=pb.DecisionRequest(
            request_id=request_id,
            game_id="g-1",
            seat=view.seat,
            kind=view.pending.kind,
            view=view,
            deadline_ms=deadline_ms,
            bank_ms=10000,
            allowance_ms=1000,
        )
    )


def opening(variant: str = "basic", players: int = 3) -> Iterator[pb.EngineMessage]:
    yield pb.EngineMessage(
        welcome=pb.Welcome(
            protocol_version=PROTOCOL_VERSION,
            match_id="m-kit",
            bot_name="starter",
            games=1,
            decision_ms=1000,
            bank_ms=10000,
            max_faults=3,
        )
    )
    yield pb.EngineMessage(
        game_start=pb.GameStart(
            game_id="g-1",
            game_index=0,
            variant=variant,
            players=players,
            seat=0,
            seed=2**64 - 1,  # the largest seed: a kit must not overflow on it
            player_names=["starter", "a", "b"][:players],
            bank_ms=10000,
        )
    )


def views(variant: str = "basic", players: int = 3) -> list[pb.Observation]:
    """Real views of seat 0, one per turn of a game played with the lowest tile."""
    game = Game.new(variant, players=players, seed=3)
    found = []
    while not game.is_over() and len(found) < 5:
        view = observe(game, seat=0)
        if view.legal:
            found.append(observation_to_proto(view))
        seat = next(s for s in range(players) if game.legal(s))
        game.apply(seat, game.legal(seat)[0])
    return found


def ending(faults: int = 0) -> Iterator[pb.EngineMessage]:
    yield pb.EngineMessage(match_end=pb.MatchEnd(games=1, faults=faults))


def legal_answer(answer: pb.Answer, view: pb.Observation) -> bool:
    legal = [decision_from_proto(d) for d in view.legal]
    return decision_from_proto(answer.decision) in legal


KITS = [(name, "grpc") for name in LANGUAGES] + [(name, "framed") for name in FRAMED]


@pytest.fixture(params=KITS, ids=["-".join(k) for k in KITS], scope="module")
def kit(request: pytest.FixtureRequest) -> Kit:
    name, transport = request.param
    return Kit(starter(name), transport)


def test_it_answers_each_request_and_logs_the_notices_it_is_sent(kit):
    shown = views()

    def script(stream, context):
        yield from opening()
        yield request(1, shown[0])
        stream.answer()
        yield pb.EngineMessage(
            notice=pb.Notice(
                kind=pb.NOTICE_KIND_ILLEGAL,
                request_id=1,
                game_id="g-1",
                message="tile 200 is not in seat 0's hand",
                played=pb.Decision(tile=pb.PlayTile(tile=7)),
                fault=True,
            )
        )
        yield pb.EngineMessage(notice=pb.Notice(kind=pb.NOTICE_KIND_PROTOCOL, message="garbled"))
        yield request(2, shown[1])
        stream.answer()
        yield from ending(faults=1)

    run = run_kit(kit, script)
    assert run.code == 0, run.log
    assert run.stream.hello is not None and run.stream.hello.token == TOKEN
    assert run.stream.hello.protocol_version == PROTOCOL_VERSION
    assert [a.request_id for a in run.stream.answers] == [1, 2]
    assert all(legal_answer(a, v) for a, v in zip(run.stream.answers, shown, strict=False))
    assert "tile 200 is not in seat 0's hand" in run.log
    assert "the arena played 'tile 7'" in run.log
    assert "garbled" in run.log


def _python_starter() -> Any:
    """The Python starter's bot, in this process."""
    path = ROOT / "bots" / "starter-python" / "bot.py"
    spec = importlib.util.spec_from_file_location("nimmt_python_starter", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.StarterBot()


def stopped(view: pb.Observation, rows: Iterable[int]) -> pb.Observation:
    """``view`` with Stop cards on ``rows`` (and on no other row)."""
    copy = pb.Observation()
    copy.CopyFrom(view)
    del copy.stops[:]
    copy.stops.extend(rows)
    return copy


def test_it_plays_the_python_starters_tile_whatever_stop_cards_closed(kit):
    """Views of the professional side with every row closed by a Stop card (no tile knows its
    row), every row but one, and none: the kit answers each with the Python starter's tile."""
    shown = []
    for view in views("pro", 3)[:3]:
        rows = range(len(view.spaces))
        held = [r for r in rows if any(t > 0 for t in view.spaces[r].tiles)]
        shown += [stopped(view, rows), stopped(view, held[:-1]), stopped(view, [])]
    python = _python_starter()
    expected = [python.decide(observation_from_proto(view)) for view in shown]
    # the views ask different things of a starter: not the same tile every time
    assert len({str(d) for d in expected}) > 1

    def script(stream, context):
        yield from opening("pro")
        for number, view in enumerate(shown, start=1):
            yield request(number, view)
            stream.answer()
        yield from ending()

    run = run_kit(kit, script)
    assert run.code == 0, run.log
    assert [decision_from_proto(a.decision) for a in run.stream.answers] == expected


def test_it_answers_a_request_asked_again_before_its_late_answer_arrived(kit):
    shown = views()

    def script(stream, context):
        yield from opening()
        # The first request's deadline is over before the kit reads it; the arena asks the
        # next one at once and tells the kit that its answer to the first came too late.
        yield request(7, shown[0], deadline_ms=0)
        yield request(8, shown[1])
        yield pb.EngineMessage(
            notice=pb.Notice(
                kind=pb.NOTICE_KIND_LATE,
                request_id=7,
                game_id="g-1",
                message="the answer to request 7 came too late; ignored",
            )
        )
        stream.answer()
        stream.answer()
        yield request(9, shown[2])
        stream.answer()
        yield from ending()

    run = run_kit(kit, script)
    assert run.code == 0, run.log
    assert [a.request_id for a in run.stream.answers] == [7, 8, 9]
    assert all(legal_answer(a, v) for a, v in zip(run.stream.answers, shown, strict=False))
    assert "came too late" in run.log
    assert "the deadline was 0 ms" in run.log


def test_it_exits_1_saying_why_when_the_arena_drops_the_stream(kit):
    shown = views()

    def script(stream, context):
        yield from opening()
        yield request(1, shown[0])
        stream.answer()
        context.abort(grpc.StatusCode.ABORTED, "dropped from the match after 3 faults")

    run = run_kit(kit, script)
    assert run.code == 1, run.log
    assert "ABORTED" in run.log and "dropped from the match after 3 faults" in run.log


def test_it_exits_1_when_the_arena_vanishes_mid_game(kit):
    shown = views()

    def script(stream, context):
        yield from opening()
        yield request(1, shown[0])
        stream.answer()
        yield request(2, shown[1])
        stream.answer()
        # the arena's process dies: the stream ends with no status from it
        context.cancel()
        time.sleep(0.2)

    start = time.monotonic()
    run = run_kit(kit, script)
    assert run.code == 1, run.log
    assert "the arena ended the connection" in run.log
    assert time.monotonic() - start < 30


def test_it_exits_1_on_a_view_it_cannot_read_and_answers_nothing(kit):
    shown = views("pro")[0]
    shown.action_cards.append(99)  # no such action card in protocol version 1

    def script(stream, context):
        yield from opening("pro")
        yield request(1, shown)
        assert stream.inbox.get(timeout=30) is None, "the kit answered an unreadable view"

    start = time.monotonic()
    run = run_kit(kit, script)
    assert run.code == 1, run.log
    assert run.stream.answers == []
    assert time.monotonic() - start < 30


def test_it_exits_1_saying_why_when_the_arena_refuses_its_token(kit):
    def script(stream, context):
        yield from ending()

    run = run_kit(kit, script, token="wrong")
    assert run.code == 1, run.log
    assert "UNAUTHENTICATED" in run.log and "missing or unknown token" in run.log


def test_it_exits_1_when_no_arena_listens(kit, tmp_path):
    env = {
        "PATH": os.pathsep.join([os.path.dirname(sys.executable), "/usr/bin", "/bin"]),
        "HOME": str(tmp_path),
        kit.address_variable: f"unix://{tmp_path}/nothing.sock",
        "NIMMT_TOKEN": TOKEN,
    }
    done = subprocess.run(
        [*kit.command, "--connect-timeout", "0.5"],
        cwd=kit.directory,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "cannot reach the arena" in done.stderr


def test_it_exits_2_without_an_address(kit, tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run(
        list(kit.command),
        cwd=kit.directory,
        env={**env, "PATH": os.pathsep.join([os.path.dirname(sys.executable), env["PATH"]])},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "NIMMT_ENGINE" in done.stderr


def python_starters_note(view: pb.Observation) -> tuple[str, list[float]]:
    """The whole note the Python starter makes on ``view`` (before any cut): the reference."""
    sys.path.insert(0, str(ROOT / "bots" / "starter-python"))
    try:
        import bot as starter_module  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    seen = observation_from_proto(view)
    chosen = starter_module.StarterBot().decide(seen).tile
    text = starter_module.tile_note(seen, chosen)
    return text, [starter_module.tile_value(seen, t) for t in seen.hand]


def test_it_sends_the_starters_note_with_its_answer_cut_between_characters(kit):
    ordinary = views()[0]
    # A hand of every tile not on the board: the starter's note on it is far over the limit.
    crowded = pb.Observation()
    crowded.CopyFrom(ordinary)
    on_board = {t for row in crowded.spaces for t in row.tiles}
    del crowded.hand[:], crowded.legal[:]
    for tile in range(1, 101):
        if tile not in on_board:
            crowded.hand.append(tile)
            crowded.legal.add(tile=pb.PlayTile(tile=tile))

    def script(stream, context):
        yield from opening()
        yield request(1, ordinary)
        stream.answer()
        yield request(2, crowded)
        stream.answer()
        yield from ending()

    run = run_kit(kit, script)
    assert run.code == 0, run.log
    first, second = run.stream.answers
    text, values = python_starters_note(ordinary)
    assert first.note == text and list(first.option_values) == values
    text, values = python_starters_note(crowded)
    assert len(text.encode()) > NOTE_BYTES
    assert second.note == cut_utf8(text) and len(second.note.encode()) <= NOTE_BYTES
    assert list(second.option_values) == values and len(values) == len(crowded.legal)


#: Loaded before a JavaScript bot: on its way out, it logs the files of every module loaded.
_REPORT_MODULES = """
process.on("exit", () => {
  process.stderr.write("modules: " + JSON.stringify(Object.keys(require.cache)) + "\\n");
});
"""


@pytest.mark.skipif("javascript" not in LANGUAGES, reason="no JavaScript starter")
@pytest.mark.parametrize("transport", ["framed", "grpc"])
def test_a_javascript_bot_loads_the_grpc_packages_only_for_the_grpc_socket(transport, tmp_path):
    """Loading @grpc/grpc-js and @grpc/proto-loader is most of a JavaScript bot's start; on the
    framed socket (every sandboxed bot's) the kit reads its messages with protobufjs's light
    build from arena.json instead. The gRPC socket still loads both."""
    report = tmp_path / "report-modules.js"
    report.write_text(_REPORT_MODULES)
    program = starter("javascript")
    command = (program.command[0], "--require", str(report), *program.command[1:])
    kit = Kit(dataclasses.replace(program, command=command), transport)

    def script(stream, context):
        yield from opening()
        yield request(1, views()[0])
        stream.answer()
        yield from ending()

    run = run_kit(kit, script)
    assert run.code == 0, run.log
    line = next(line for line in run.log.splitlines() if line.startswith("modules: "))
    packages = {
        name
        for file in json.loads(line.removeprefix("modules: "))
        for name in ("@grpc/grpc-js", "@grpc/proto-loader", "protobufjs/light.js")
        if f"/node_modules/{name}" in file
    }
    if transport == "framed":
        assert packages == {"protobufjs/light.js"}, line
    else:
        assert {"@grpc/grpc-js", "@grpc/proto-loader"} <= packages, line
