"""Remote bots: a bot on another host (a network namespace behind a veth pair, made here) plays
the site's ladder matches through the gateway over TCP with TLS, the match played by a real
worker that reaches the gateway only through Redis.

One gateway, one worker and one host serve every test of the module (they take seconds to
start); each test makes its own bots and tokens. Latency and cut links come from a small
delaying TCP proxy in this process (this kernel has no netem). Traffic stays on this machine:
loopback, and the test's own namespace and link.
"""

import asyncio
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
from django.conf import settings
from django.template.defaultfilters import floatformat
from django.test import Client
from ladders.models import Ladder
from matches.models import Match
from matches.tasks import queue_match
from nimmt_site_testing import (
    PLATFORM,
    REPO,
    TEST_BOTS,
    CeleryProcess,
    basic_ladder,
    flush_broker,
    make_user,
    process_env,
    program_bot,
    wait_for,
)
from remote import handover, services
from remote.gateway import CLOSED, GONE
from remote.models import RemoteConnection
from remote.tls import self_signed
from submissions.models import Bot
from test_site_hosts import Host

from arena.protocol import arena_pb2 as pb
from arena.protocol.convert import PROTOCOL_VERSION
from arena.runner.build import ready
from arena.runner.manifest import load

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        os.geteuid() != 0 or not shutil.which("ip"),
        reason="needs root and iproute2 (a network namespace for the bot's host)",
    ),
]

GRACE_SECONDS = 4  # how long a match waits for a dropped bot here (the site's default: 30)
#: The strict gateway's limits (the site's defaults: 10 s + 5 s keepalive, 600 s idle, 60).
STRICT = {
    "NIMMT_GATEWAY_KEEPALIVE_SECONDS": "1",
    "NIMMT_GATEWAY_KEEPALIVE_TIMEOUT_SECONDS": "1",
    "NIMMT_GATEWAY_IDLE_SECONDS": "5",
    "NIMMT_GATEWAY_CONNECTS_PER_MINUTE": "8",
}


class DelayingProxy:
    """A TCP proxy on ``listen`` to ``target`` that holds every chunk ``delay`` seconds in each
    direction; :meth:`cut` drops every connection and refuses new ones until :meth:`mend`."""

    def __init__(self, listen: tuple[str, int], target: tuple[str, int], delay: float) -> None:
        self.listen, self.target, self.delay = listen, target, delay
        self.loop = asyncio.new_event_loop()
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._open = True
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def start(self) -> None:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(10)

    async def _start(self) -> None:
        self._server = await asyncio.start_server(self._serve, *self.listen)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self._open:
            writer.close()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self._writers |= {writer, up_writer}
        await asyncio.gather(
            self._pipe(reader, up_writer), self._pipe(up_reader, writer), return_exceptions=True
        )

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def send() -> None:
            while True:
                due, data = await queue.get()
                if not data:
                    break
                await asyncio.sleep(max(0.0, due - self.loop.time()))
                writer.write(data)
                await writer.drain()
            writer.close()

        sender = asyncio.ensure_future(send())
        try:
            while data := await reader.read(65536):
                queue.put_nowait((self.loop.time() + self.delay, data))
        finally:
            queue.put_nowait((0.0, b""))
            with contextlib.suppress(Exception):
                await sender

    def cut(self) -> None:
        """Every connection through the proxy ends; new ones are refused."""

        def close() -> None:
            self._open = False
            for writer in self._writers:
                writer.transport.abort()
            self._writers.clear()

        self.loop.call_soon_threadsafe(close)

    def mend(self) -> None:
        self.loop.call_soon_threadsafe(setattr, self, "_open", True)

    def stop(self) -> None:
        self.cut()
        if self._server is not None:
            self.loop.call_soon_threadsafe(self._server.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=5)


@dataclass
class Arena:
    """The module's gateway, worker and bot host."""

    host: Host
    cert: Path
    gateway_port: int
    direct: DelayingProxy  # no delay: cut and mend the link without touching the namespace
    slow: DelayingProxy  # 50 ms each way
    worker: CeleryProcess
    gateway_log: Path
    logs: Path
    data: Path  # the worker's data folder
    env: dict[str, str]  # the site's processes' environment

    def url(self, proxy: DelayingProxy | None = None) -> str:
        """The gateway's URL, through ``proxy`` if given."""
        port = self.gateway_port if proxy is None else proxy.listen[1]
        return f"grpcs://{self.host.site_address}:{port}"


def _free_port(address: str) -> int:
    with socket.socket() as sock:
        sock.bind((address, 0))
        port: int = sock.getsockname()[1]
        return port


def _start_gateway(
    env: dict[str, str], address: str, name: str, log: Path
) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        gateway = subprocess.Popen(
            [sys.executable, "manage.py", "run_gateway", "--address", address, "--name", name],
            cwd=PLATFORM, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    wait_for(
        f"the gateway {name} to listen",
        lambda: "gateway listening" in log.read_text(errors="replace"),
        timeout=60,
    )
    return gateway


def _stop(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, 9)
    process.wait(timeout=30)


@pytest.fixture(scope="module")
def arena(
    django_db_setup: None,
    django_db_blocker: Any,
    sandbox_runtime: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Arena]:
    logs = tmp_path_factory.mktemp("remote")
    host = Host("rb", "10.233.1.1", "10.233.1.2")
    proxies: list[DelayingProxy] = []
    gateway: subprocess.Popen[bytes] | None = None
    worker: CeleryProcess | None = None
    try:
        host.create(uuid.uuid4().hex[:6])
        cert, key = self_signed(logs / "tls", [host.site_address])
        data = Path(tempfile.mkdtemp(prefix="remote-", dir=Path(settings.DATA_DIR).parent))
        data.chmod(0o755)  # the bots' own uids must reach their unpacked code
        with django_db_blocker.unblock():
            flush_broker()
            env = process_env()
        env |= {
            "NIMMT_DATA_DIR": str(data),
            "NIMMT_REMOTE_GRACE_SECONDS": str(GRACE_SECONDS),
            "NIMMT_GATEWAY_TLS_CERT": str(cert),
            "NIMMT_GATEWAY_TLS_KEY": str(key),
        }
        port = _free_port(host.site_address)
        gateway_log = logs / "gateway.log"
        gateway = _start_gateway(env, f"{host.site_address}:{port}", "test-gateway", gateway_log)
        for delay in (0.0, 0.05):
            proxy = DelayingProxy(
                (host.site_address, _free_port(host.site_address)),
                (host.site_address, port),
                delay,
            )
            proxy.start()
            proxies.append(proxy)
        worker = CeleryProcess.worker(env, logs / "worker.log", queues="matches", concurrency=2)
        worker.start()
        yield Arena(host, cert, port, proxies[0], proxies[1], worker, gateway_log, logs, data, env)
    finally:
        if worker is not None:
            worker.kill()
        if gateway is not None:
            _stop(gateway)
        for proxy in proxies:
            proxy.stop()
        host.remove()
        with django_db_blocker.unblock():
            flush_broker()


class RemoteBot:
    """A bot program started on the test host with ``--remote``: a test bot of
    ``tests/platform/bots`` (Python), or ``program``, another kit's command."""

    def __init__(
        self,
        arena: Arena,
        folder: str,
        token: str,
        url: str,
        *args: str,
        program: list[str] | None = None,
        cwd: Path | None = None,
        on_host: bool = True,
        nap: float | None = None,
    ) -> None:
        self.log = arena.logs / f"bot-{uuid.uuid4().hex[:6]}.log"
        env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "PYTHONPATH": str(REPO),
            "NIMMT_REMOTE_TOKEN": token,
        }
        if nap is not None:  # the sleepy bot's pause per decision
            env["SLEEPY_NAP_SECONDS"] = str(nap)
        command = program or [sys.executable, str(TEST_BOTS / folder / "bot.py")]
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [*(arena.host.prefix if on_host else []), *command, "--remote", url, "--ca",
                 str(arena.cert), *args],
                env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, cwd=cwd,
            )  # fmt: skip

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, 9)
        self.process.wait(timeout=10)


@pytest.fixture(autouse=True)
def settled(transactional_db: None) -> Iterator[None]:
    """Each test ends once the worker and the gateways are done with its rows.

    The database is emptied after every test; a match or a connection still writing then (a
    stalled bot's match waiting out its grace, a cancelled stream being recorded) deadlocks the
    emptying, which CI saw once.
    """
    yield
    wait_for(
        "the test's matches to end",
        lambda: not Match.objects.filter(status__in=(Match.QUEUED, Match.RUNNING)).exists(),
        timeout=120,
    )
    wait_for(
        "the test's connections to be recorded as ended",
        lambda: not RemoteConnection.objects.filter(ended_at__isnull=True).exists(),
        timeout=60,
    )


@pytest.fixture
def started(arena: Arena) -> Iterator[list[RemoteBot]]:
    bots: list[RemoteBot] = []
    yield bots
    for bot in bots:
        bot.stop()


def _remote_bot(name: str) -> tuple[Bot, str]:
    owner = make_user(f"owner-{name}")
    bot = Bot.objects.create(owner=owner, name=name)
    token = services.issue(bot)
    bot.refresh_from_db()
    return bot, token


def _online(bot: Bot) -> bool:
    return bot.pk in services.online([bot.pk])


def _finished(match: Match, timeout: float = 90) -> Match:
    return wait_for(
        f"match {match.pk} to finish",
        lambda: Match.objects.filter(pk=match.pk, status=Match.FINISHED).first(),
        timeout=timeout,
    )


def _report(arena: Arena, match: Match) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((arena.data / match.result_dir / "match.json").read_text())
    return data


def _ladder() -> Ladder:
    return Ladder.objects.filter(slug="basic-3").first() or basic_ladder(players=3)


def _match_of(remote: Bot) -> Match:
    """A ladder match of ``remote`` and two hosted test bots, sent to the worker."""
    opponents = [program_bot(f"quick-{uuid.uuid4().hex[:6]}") for _ in range(2)]
    return queue_match(_ladder(), [remote, *opponents])


def _play(
    arena: Arena, started: list[RemoteBot], name: str, proxy: DelayingProxy | None = None
) -> tuple[Bot, Match]:
    remote, token = _remote_bot(name)
    started.append(RemoteBot(arena, "quick", token, arena.url(proxy), "--matches", "1"))
    wait_for(f"{name} to be online", lambda: _online(remote), timeout=30)
    return remote, _finished(_match_of(remote))


def _bot_report(report: dict[str, Any], name: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [bot for bot in report["bots"] if bot["name"] == name]
    assert len(found) == 1, report["bots"]
    return found[0]


def test_a_bot_on_another_host_plays_a_ladder_match_through_the_gateway_over_tls(
    arena: Arena, started: list[RemoteBot]
) -> None:
    remote, match = _play(arena, started, "far-away")
    report = _report(arena, match)
    mine = _bot_report(report, "far-away")
    assert mine["kind"] == "joined"
    assert mine["faults"] == dict.fromkeys(("timeout", "crash", "illegal", "protocol"), 0)
    assert mine["answers"] > 0
    assert mine["network"]["address"] == arena.host.address
    assert mine["network"]["kit"].startswith("nimmt-botkit-python/")
    assert 0 < mine["network"]["rtt_ms"] < 1000
    assert all(seat.faults == [] for seat in match.seats.all())
    started[0].process.wait(timeout=20)
    assert started[0].process.returncode == 0, started[0].output()
    page = Client().get(match.get_absolute_url()).content.decode()
    # As the page's template writes it (floatformat rounds half up; Python's round() to even)
    shown = floatformat(mine["network"]["rtt_ms"], 0)
    assert f"remote, round trip {shown} ms" in page
    connection = RemoteConnection.objects.get(bot=remote)
    assert connection.address == arena.host.address
    assert connection.matches == 1 and connection.ended == "the match is over"
    assert connection.rtt_ms is not None


def _kit_command(language: str, folder: Path) -> tuple[list[str], Path | None]:
    """How the starter of ``language`` runs on the test host (built in ``folder`` if need be),
    and the folder it runs in."""
    starter = REPO / "bots" / f"starter-{language}"
    if language == "javascript":
        return [str(shutil.which("node")), str(starter / "bot.js")], None
    if language == "java":  # built as the arena builds it, cached by content across runs
        program = ready(load(starter))
        return list(program.command), program.directory
    shutil.copytree(starter, folder / starter.name)
    subprocess.run(["sh", "build.sh"], cwd=folder / starter.name, check=True, timeout=300)
    return [str(folder / starter.name / "bot")], None


@pytest.mark.parametrize(
    # The C++ kit plays the same way (its build alone takes half a minute here).
    ("language", "tool"),
    [("javascript", "node"), ("go", "go"), ("java", "javac")],
    ids=["javascript", "go", "java"],
)
def test_the_other_kits_play_through_the_gateway_too(
    arena: Arena, started: list[RemoteBot], language: str, tool: str, tmp_path: Path
) -> None:
    if not shutil.which(tool):
        pytest.skip(f"needs {tool}")
    remote, token = _remote_bot(f"from-{language}")
    kit, cwd = _kit_command(language, tmp_path)
    started.append(RemoteBot(arena, "", token, arena.url(), "--matches", "1", program=kit, cwd=cwd))
    wait_for(f"the {language} bot to be online", lambda: _online(remote), timeout=30)
    match = _finished(_match_of(remote))
    mine = _bot_report(_report(arena, match), f"from-{language}")
    assert sum(mine["faults"].values()) == 0 and mine["answers"] > 0
    assert mine["network"]["kit"].startswith(f"nimmt-botkit-{language}/")
    started[0].process.wait(timeout=20)
    assert started[0].process.returncode == 0, started[0].output()


def test_the_java_kit_stops_at_a_gateway_certificate_it_does_not_trust(arena: Arena) -> None:
    if not shutil.which("javac"):
        pytest.skip("needs javac")
    kit, cwd = _kit_command("java", arena.logs)
    untrusted = subprocess.run(
        [*arena.host.prefix, *kit, "--remote", arena.url()],  # no --ca: the JDK's trust store
        cwd=cwd, env={"PATH": "/usr/bin:/bin", "NIMMT_REMOTE_TOKEN": "nrb_x"},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert untrusted.returncode == 1, untrusted.stderr
    assert "the arena's certificate is not trusted (pass --ca FILE)" in untrusted.stderr
    assert "connecting again" not in untrusted.stderr


def test_with_50_ms_each_way_the_match_finishes_without_a_timeout(
    arena: Arena, started: list[RemoteBot]
) -> None:
    _, match = _play(arena, started, "slow-link", arena.slow)
    mine = _bot_report(_report(arena, match), "slow-link")
    assert mine["faults"]["timeout"] == 0 and sum(mine["faults"].values()) == 0
    assert mine["network"]["rtt_ms"] >= 90  # two 50 ms hops (timers are a little early)
    assert mine["network"]["network_allowance_ms"] == min(mine["network"]["rtt_ms"], 250)


def test_a_cut_link_is_a_fault_and_the_match_finishes_without_the_bot(
    arena: Arena, started: list[RemoteBot]
) -> None:
    remote, token = _remote_bot("cut-off")
    started.append(RemoteBot(arena, "sleepy", token, arena.url(arena.direct)))
    wait_for("cut-off to be online", lambda: _online(remote), timeout=30)
    match = _match_of(remote)
    wait_for("the match to run", lambda: Match.objects.filter(
        pk=match.pk, status=Match.RUNNING).exists(), timeout=60)  # fmt: skip
    time.sleep(2)
    arena.direct.cut()
    try:
        done = _finished(match)
    finally:
        arena.direct.mend()
    seats = {seat.bot_id: seat for seat in done.seats.all()}
    faults = seats[remote.pk].faults
    assert faults and faults[-1]["kind"] == "crash"
    dropped = _bot_report(_report(arena, done), "cut-off")["dropped"]
    assert "did not reconnect" in dropped["detail"]
    assert all(seat.faults == [] for pk, seat in seats.items() if pk != remote.pk)


def test_a_bot_that_reconnects_within_the_grace_period_plays_on(
    arena: Arena, started: list[RemoteBot]
) -> None:
    remote, token = _remote_bot("comes-back")
    # a short nap: the match still runs for seconds after the link comes back
    started.append(
        RemoteBot(arena, "sleepy", token, arena.url(arena.direct), "--matches", "1", nap=0.1)
    )
    wait_for("comes-back to be online", lambda: _online(remote), timeout=30)
    match = _match_of(remote)
    wait_for("the match to run", lambda: Match.objects.filter(
        pk=match.pk, status=Match.RUNNING).exists(), timeout=60)  # fmt: skip
    time.sleep(2)
    arena.direct.cut()
    time.sleep(0.5)
    arena.direct.mend()  # the kit connects again within a second or two
    done = _finished(match)
    mine = _bot_report(_report(arena, done), "comes-back")
    assert mine["dropped"] is None
    assert mine["network"]["reconnects"] == 1
    assert sum(mine["faults"].values()) <= 1  # the request open when the link went
    assert RemoteConnection.objects.filter(bot=remote).count() == 2


def _hello(
    arena: Arena, token: str, port: int = 0
) -> tuple[grpc.aio.StreamStreamCall, grpc.aio.Channel]:
    credentials = grpc.ssl_channel_credentials(arena.cert.read_bytes())
    channel = grpc.aio.secure_channel(
        f"{arena.host.site_address}:{port or arena.gateway_port}", credentials
    )
    play = channel.stream_stream(
        "/nimmt.v1.Arena/Play",
        request_serializer=pb.BotMessage.SerializeToString,
        response_deserializer=pb.EngineMessage.FromString,
    )
    call = play()
    return call, channel


def test_a_second_connection_with_the_same_token_is_refused_and_a_revoked_token_is_cut_off(
    arena: Arena, started: list[RemoteBot]
) -> None:
    remote, token = _remote_bot("only-once")
    started.append(RemoteBot(arena, "quick", token, arena.url(arena.direct)))
    wait_for("only-once to be online", lambda: _online(remote), timeout=30)

    async def second() -> grpc.StatusCode:
        call, channel = _hello(arena, token)
        hello = pb.BotMessage(hello=pb.Hello(protocol_version=PROTOCOL_VERSION, token=token))
        await call.write(hello)
        with contextlib.suppress(grpc.aio.AioRpcError):
            await call.read()
        code: grpc.StatusCode = await call.code()
        await channel.close()
        return code

    assert asyncio.run(second()) == grpc.StatusCode.ALREADY_EXISTS
    assert started[0].process.poll() is None  # the first one is untouched

    services.revoke(remote)
    revoked = time.monotonic()
    started[0].process.wait(timeout=10)
    assert time.monotonic() - revoked < 4
    assert started[0].process.returncode == 1
    assert "UNAUTHENTICATED" in started[0].output() and "revoked" in started[0].output()
    wait_for("only-once to be offline", lambda: not _online(remote), timeout=GRACE_SECONDS + 2)
    assert "revoked" in RemoteConnection.objects.get(bot=remote).ended


def test_a_client_that_stops_reading_or_floods_does_not_stall_the_others(
    arena: Arena, started: list[RemoteBot]
) -> None:
    stalled, stalled_token = _remote_bot("never-reads")
    _, flood_token = _remote_bot("floods")

    async def misbehave() -> tuple[grpc.StatusCode, grpc.aio.StreamStreamCall]:
        quiet, _ = _hello(arena, stalled_token)  # says hello, then never reads
        await quiet.write(
            pb.BotMessage(hello=pb.Hello(protocol_version=PROTOCOL_VERSION, token=stalled_token))
        )
        loud, channel = _hello(arena, flood_token)
        await loud.write(
            pb.BotMessage(hello=pb.Hello(protocol_version=PROTOCOL_VERSION, token=flood_token))
        )
        with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
            for _ in range(2000):
                await loud.write(pb.BotMessage(answer=pb.Answer(request_id=1)))
        code: grpc.StatusCode = await loud.code()
        await channel.close()
        return code, quiet

    loop = asyncio.new_event_loop()
    try:
        code, quiet = loop.run_until_complete(misbehave())
        assert code != grpc.StatusCode.OK  # the client may see the cut as RST_STREAM
        ended = RemoteConnection.objects.get(bot__name="floods").ended
        assert ended.startswith("RESOURCE_EXHAUSTED: more than 50 messages per second")
        wait_for("never-reads to be online", lambda: _online(stalled), timeout=10)
        stuck = _match_of(stalled)
        _, match = _play(arena, started, "meanwhile")
        assert all(seat.faults == [] for seat in match.seats.all())
        assert Match.objects.get(pk=stuck.pk).status in (Match.RUNNING, Match.FINISHED)
        quiet.cancel()
        loop.run_until_complete(asyncio.sleep(0.1))  # let the cancelled call wind down
    finally:
        loop.close()


@pytest.fixture(scope="module")
def strict(arena: Arena) -> Iterator[int]:
    """A second gateway of the module's site, with short limits (:data:`STRICT`); its port."""
    port = _free_port(arena.host.site_address)
    env = arena.env | STRICT
    address = f"{arena.host.site_address}:{port}"
    gateway = _start_gateway(env, address, "strict-gateway", arena.logs / "strict.log")
    yield port
    _stop(gateway)


def _live(bot: Bot) -> bool:
    """Whether a gateway holds the bot's one live connection."""
    return bool(redis.Redis.from_url(settings.REMOTE_REDIS_URL).exists(handover.live_key(bot.pk)))


async def _say_hello(arena: Arena, token: str, port: int) -> tuple[grpc.StatusCode, str]:
    """Connect, say Hello with ``token``, wait for the end: its status and details."""
    call, channel = _hello(arena, token, port)
    with contextlib.suppress(grpc.aio.AioRpcError):  # refused before Hello: the write fails
        await call.write(
            pb.BotMessage(hello=pb.Hello(protocol_version=PROTOCOL_VERSION, token=token))
        )
        await call.read()
    code: grpc.StatusCode = await call.code()
    details: str = await call.details()
    await channel.close()
    return code, details


def test_a_connection_that_waits_past_the_idle_time_is_ended_and_lets_go_of_its_bot(
    arena: Arena, strict: int
) -> None:
    remote, token = _remote_bot("waits-long")
    began = time.monotonic()
    code, details = asyncio.run(_say_hello(arena, token, strict))
    waited = time.monotonic() - began
    assert code == grpc.StatusCode.UNAVAILABLE and "no match for 5 s" in details
    assert 5 <= waited < 8
    assert not _live(remote)
    assert RemoteConnection.objects.get(bot=remote).ended.startswith("UNAVAILABLE: no match")


def test_keepalive_ends_a_half_open_connection_while_another_bot_plays(
    arena: Arena, strict: int, started: list[RemoteBot]
) -> None:
    url = f"grpcs://{arena.host.site_address}:{strict}"
    gone, token = _remote_bot("half-open")
    started.append(RemoteBot(arena, "quick", token, url))
    wait_for("half-open to be live", lambda: _live(gone), timeout=30)
    link = ["ip", "-n", arena.host.namespace, "link", "set", "eth0"]
    subprocess.run([*link, "down"], check=True, timeout=10)  # no FIN, no RST: packets vanish
    try:
        cut = time.monotonic()
        other, other_token = _remote_bot("plays-on")
        started.append(RemoteBot(arena, "quick", other_token, url, "--matches", "1", on_host=False))
        wait_for("plays-on to be live", lambda: _live(other), timeout=30)
        match = _match_of(other)
        wait_for("half-open to be let go", lambda: not _live(gone), timeout=10)
        freed = time.monotonic() - cut
        done = _finished(match)
    finally:
        subprocess.run([*link, "up"], check=True, timeout=10)
    assert freed < 5  # a ping a second, a second to answer it; the idle time (5 s) is not it
    ended = RemoteConnection.objects.get(bot=gone).ended
    # the stream's end as gRPC reports a transport that went, not the idle time's "no match"
    assert ended == GONE, ended
    assert all(seat.faults == [] for seat in done.seats.all())
    assert _bot_report(_report(arena, done), "plays-on")["network"]["address"] == (
        arena.host.site_address
    )


def test_a_connection_records_whether_the_bot_closed_its_stream_or_the_connection_went(
    arena: Arena,
) -> None:
    closes, closes_token = _remote_bot("closes")
    goes, goes_token = _remote_bot("goes")

    async def connect_then(token: str, bot: Bot, close: bool) -> None:
        call, channel = _hello(arena, token)
        await call.write(
            pb.BotMessage(hello=pb.Hello(protocol_version=PROTOCOL_VERSION, token=token))
        )
        await asyncio.to_thread(wait_for, "the bot to be live", lambda: _live(bot), 10)
        if close:
            await call.done_writing()  # the bot's end of the stream, and nothing else
            await call.code()
        else:
            call.cancel()  # as a killed process's or a cut network's end reads to the gateway
            await asyncio.sleep(0.1)
        await channel.close()

    asyncio.run(connect_then(closes_token, closes, close=True))
    asyncio.run(connect_then(goes_token, goes, close=False))

    def ended(bot: Bot) -> str | None:
        return RemoteConnection.objects.get(bot=bot).ended or None

    assert wait_for("the first end", lambda: ended(closes), 10) == CLOSED
    assert wait_for("the second end", lambda: ended(goes), 10) == GONE


def test_an_address_that_opens_too_many_streams_a_minute_is_refused_and_others_are_not(
    arena: Arena, strict: int
) -> None:
    async def attempts() -> list[tuple[grpc.StatusCode, str]]:
        seen: list[tuple[grpc.StatusCode, str]] = []
        for _ in range(int(STRICT["NIMMT_GATEWAY_CONNECTS_PER_MINUTE"]) + 1):
            seen.append(await _say_hello(arena, "nrb_unknown", strict))
            if seen[-1][0] != grpc.StatusCode.UNAUTHENTICATED:
                break
        return seen

    seen = asyncio.run(attempts())  # from the site's end of the link (other tests' too)
    code, details = seen[-1]
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED, seen
    assert "more than 8 connections a minute" in details and arena.host.site_address in details
    assert seen[0][0] == grpc.StatusCode.UNAUTHENTICATED  # admitted, then its token refused
    elsewhere = subprocess.run(  # the test host's address is counted on its own
        [*arena.host.prefix, sys.executable, str(TEST_BOTS / "quick" / "bot.py"), "--remote",
         f"grpcs://{arena.host.site_address}:{strict}", "--ca", str(arena.cert)],
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "NIMMT_REMOTE_TOKEN": "nrb_x"},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert elsewhere.returncode == 1 and "UNAUTHENTICATED" in elsewhere.stderr, elsewhere.stderr
