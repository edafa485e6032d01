"""The gateway on this machine's loopback, as ``./dev demo`` runs it: a connection ends when
its match ends (whatever the bot does after), its self-signed certificate outlives a restart,
and every kit tells an untrusted certificate apart from an arena it cannot reach (and the
gateway's log says whose handshake it refused)."""

import asyncio
import contextlib
import html
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections
from django.test import Client
from nimmt_site_testing import (
    PLATFORM,
    REPO,
    TEST_BOTS,
    flush_broker,
    make_user,
    process_env,
    wait_for,
)
from remote import gateway as gateway_module
from remote import handover, services
from remote.gateway import Gateway, GatewayConfig
from remote.models import RemoteConnection
from submissions.models import Bot, BotVersion

from arena.protocol import arena_pb2 as pb
from arena.protocol.convert import PROTOCOL_VERSION
from arena.runner.build import ready
from arena.runner.manifest import load

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def empty_broker() -> None:
    flush_broker()


def _remote_bot(name: str) -> tuple[Bot, str]:
    bot = Bot.objects.create(owner=make_user(f"owner-{name}"), name=name)
    token = services.issue(bot)
    bot.refresh_from_db()
    return bot, token


async def _gateway() -> Gateway:
    gateway = Gateway(
        GatewayConfig(address="127.0.0.1:0", redis_url=settings.REMOTE_REDIS_URL, name="t")
    )
    await gateway.start()
    return gateway


async def _stream(port: int) -> tuple[grpc.aio.Channel, grpc.aio.StreamStreamCall]:
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
    play = channel.stream_stream(
        "/nimmt.v1.Arena/Play",
        request_serializer=pb.BotMessage.SerializeToString,
        response_deserializer=pb.EngineMessage.FromString,
    )
    return channel, play()


async def _until(what: str, check: object, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not await asyncio.to_thread(check):  # type: ignore[arg-type]
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.1)


def _slow_heartbeat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every heartbeat takes a while, and one cancelled in its wait swallows the cancellation
    (as a client library caught mid-command may): the connection's end must not wait on it."""
    original = gateway_module._Connection._heartbeat_once

    async def stubborn(self: Any) -> bool:
        try:
            await asyncio.sleep(0.3)
        except asyncio.CancelledError:
            await asyncio.sleep(30)
        result: bool = await original(self)
        return result

    monkeypatch.setattr(gateway_module._Connection, "_heartbeat_once", stubborn)
    monkeypatch.setattr(handover, "HEARTBEAT", 0.01)


@pytest.mark.parametrize("heartbeat", ["prompt", "stubborn"])
def test_a_connection_ends_when_its_match_ends_though_the_bot_keeps_its_stream_open(
    heartbeat: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The attack: a bot that never closes its side after MatchEnd held its connection (and
    stayed offline to the scheduler) for minutes."""
    if heartbeat == "stubborn":
        _slow_heartbeat(monkeypatch)
    bot, token = _remote_bot(f"lingers-{heartbeat}")
    broker = redis.Redis.from_url(settings.REMOTE_REDIS_URL)

    async def scenario() -> float:
        gateway = await _gateway()
        channel, call = await _stream(gateway.port)
        try:
            await call.write(
                pb.BotMessage(hello=pb.Hello(protocol_version=PROTOCOL_VERSION, token=token))
            )
            await _until("the bot to be live", lambda: broker.exists(handover.live_key(bot.pk)))
            seat = uuid.uuid4().hex
            welcome = pb.EngineMessage(welcome=pb.Welcome(match_id="m1"))
            assignment = handover.Assignment(seat, welcome.SerializeToString(), time.time() + 30)
            broker.rpush(handover.inbox_key(bot.pk), assignment.dumps())
            assert (await asyncio.wait_for(call.read(), 10)).WhichOneof("body") == "welcome"
            end = pb.EngineMessage(match_end=pb.MatchEnd(games=1))
            broker.rpush(handover.down_key(seat), handover.Down(end.SerializeToString()).dumps())
            broker.rpush(handover.down_key(seat), handover.Down(close="OK").dumps())
            assert (await asyncio.wait_for(call.read(), 10)).WhichOneof("body") == "match_end"
            began = time.monotonic()
            # the bot writes nothing more and never half-closes: the gateway ends the call
            assert await asyncio.wait_for(call.read(), 15) is grpc.aio.EOF
            assert await call.code() == grpc.StatusCode.OK
            return time.monotonic() - began
        finally:
            await channel.close()
            await gateway.stop()
            await sync_to_async(connections.close_all)()

    took = asyncio.run(scenario())
    assert took < gateway_module.TEARDOWN_TIMEOUT + 2, f"ended {took:.1f} s after the match"
    row = RemoteConnection.objects.get(bot=bot)
    assert row.ended == "the match is over" and row.ended_at is not None and row.matches == 1
    assert not broker.exists(handover.live_key(bot.pk))  # it may connect again at once


# ---------------------------------------------------------------------------- the demo's gateway


def _unused_port() -> int:
    """A loopback port nothing listens on (the kernel's pick, released at once)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class DemoGateway:
    """The gateway as ``./dev demo`` runs it: ``manage.py run_gateway --self-signed FOLDER`` on
    loopback, the folder broker, and a private Redis on a socket for the hand-over. Its first
    start listens on a port the kernel picks (none that a test running beside it could take
    meanwhile), read from its log; a restart listens on the same port again."""

    def __init__(self, folder: Path, port: int = 0, env: dict[str, str] | None = None) -> None:
        self.folder, self.port = folder, port
        self.env = env or {}
        self.log = folder / "gateway.log"
        self.redis_url = f"unix://{folder}/redis.sock"
        self.process: subprocess.Popen[bytes] | None = None
        self.redis: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"grpcs://127.0.0.1:{self.port}"

    @property
    def cert(self) -> Path:
        return self.folder / "tls" / "gateway.crt"

    def start(self) -> None:
        if self.redis is None:
            self.redis = subprocess.Popen(
                ["redis-server", "--port", "0", "--unixsocket", f"{self.folder}/redis.sock",
                 "--unixsocketperm", "700", "--save", "", "--appendonly", "no"],
                stdout=subprocess.DEVNULL, start_new_session=True,
            )  # fmt: skip
            wait_for("the private Redis", lambda: (self.folder / "redis.sock").exists(), 30)
        env = (
            process_env()
            | {
                "NIMMT_DEBUG": "true",  # as ./dev demo runs it
                "NIMMT_BROKER_URL": "filesystem://localhost//",
                "NIMMT_VAR_DIR": str(self.folder / "var"),
                "NIMMT_REMOTE_REDIS_URL": self.redis_url,
            }
            | self.env
        )
        self.log.write_text("")
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "manage.py", "run_gateway", "--address",
                 f"127.0.0.1:{self.port}", "--self-signed", str(self.folder / "tls")],
                cwd=PLATFORM, env=env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        listening = wait_for("the gateway to listen", self._listening, 60)
        self.port = int(listening.group(1))

    def _listening(self) -> re.Match[str] | None:
        assert self.process is not None
        text = self.log.read_text()
        if self.process.poll() is not None:
            raise AssertionError(f"the gateway exited ({self.process.returncode}):\n{text}")
        return re.search(r"gateway listening on \S+ \(port (\d+)\)", text)

    def stop(self, *, redis_too: bool = False) -> None:
        for process in (self.process, self.redis if redis_too else None):
            if process is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=30)
        self.process = None
        if redis_too:
            self.redis = None


@pytest.fixture
def demo_gateway(tmp_path: Path, settings: Any) -> Iterator[DemoGateway]:
    gateway = DemoGateway(tmp_path)
    gateway.start()
    # the site's side of the demo: the same Redis, and the certificate the bot page names
    settings.REMOTE_REDIS_URL = gateway.redis_url
    settings.GATEWAY_ADDRESS = f"127.0.0.1:{gateway.port}"
    settings.GATEWAY_TLS_CERT = gateway.cert
    yield gateway
    gateway.stop(redis_too=True)


class Kit:
    """A bot program started with ``--remote`` (and its output)."""

    def __init__(self, command: list[str], token: str, log: Path, cwd: Path | None = None) -> None:
        self.log = log
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "PYTHONPATH": str(REPO),
               "NIMMT_REMOTE_TOKEN": token, "HOME": str(log.parent)}  # fmt: skip
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                command, env=env, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)


def _online(bot: Bot) -> bool:
    return bot.pk in services.online([bot.pk])


def _python_kit(gateway: DemoGateway, *args: str) -> list[str]:
    return [sys.executable, str(TEST_BOTS / "quick" / "bot.py"), "--remote", gateway.url, *args]


def test_a_restarted_gateway_keeps_its_certificate_and_a_kit_with_the_old_ca_reconnects(
    demo_gateway: DemoGateway, tmp_path: Path
) -> None:
    first = demo_gateway.cert.read_bytes()
    bot, token = _remote_bot("steadfast")
    kit = Kit(_python_kit(demo_gateway, "--ca", str(demo_gateway.cert)), token, tmp_path / "k.log")
    try:
        wait_for("the bot to be online", lambda: _online(bot), 30)
        demo_gateway.stop()
        wait_for("the bot to be offline", lambda: not _online(bot), 60)
        demo_gateway.start()
        assert demo_gateway.cert.read_bytes() == first
        wait_for("the bot to be online again", lambda: _online(bot), 60)
        assert RemoteConnection.objects.filter(bot=bot).count() == 2
        assert kit.process.poll() is None, kit.output()
    finally:
        kit.stop()


def _kit_folder(language: str, folder: Path) -> Path:
    """The starter of ``language`` as its zip unpacks (``starter-<language>/``), built as its
    README says."""
    starter = REPO / "bots" / f"starter-{language}"
    if language == "java":  # built as the arena builds it, cached by content across runs
        return ready(load(starter)).directory
    if language in ("python", "javascript"):
        return starter
    shutil.copytree(starter, folder / starter.name)
    subprocess.run(["sh", "build.sh"], cwd=folder / starter.name, check=True, timeout=600)
    return folder / starter.name


def _page_commands(bot: Bot) -> dict[str, str]:
    """The bot page's command per kit, as its owner sees it."""
    client = Client()
    client.force_login(bot.owner)
    page = client.get(bot.get_absolute_url()).content.decode()
    rows = re.findall(
        r'<tr data-kit="(\w+)">.*?<pre class="copyable remote-command">(.*?)</pre>', page, re.S
    )
    return {kit: html.unescape(line) for kit, line in rows}


def _argv(line: str) -> list[str]:
    """A command line of the page as a program's arguments (``python3``: the one here, which
    has the kit's packages, as the owner's would)."""
    words = shlex.split(line)
    return [sys.executable if words[0] == "python3" else words[0], *words[1:]]


KITS = [("python", "python3"), ("javascript", "node"), ("go", "go"), ("cpp", "g++"),
        ("java", "javac")]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize(("language", "tool"), KITS, ids=[k for k, _ in KITS])
def test_each_kit_connects_to_the_demos_gateway_with_the_command_its_bot_page_shows(
    demo_gateway: DemoGateway, tmp_path: Path, language: str, tool: str
) -> None:
    """And tells an untrusted certificate (the command without --ca) apart from an arena it
    cannot reach."""
    if not shutil.which(tool):
        pytest.skip(f"needs {tool}")
    bot, token = _remote_bot(f"kit-{language}")
    BotVersion.objects.create(
        bot=bot, number=99, status=BotVersion.FAILED, manifest={"language": language}
    )  # code uploaded once: the page leads with its language
    commands = _page_commands(bot)
    assert next(iter(commands)) == language and set(commands) == {k for k, _ in KITS}
    line = commands[language]
    assert f"--remote {demo_gateway.url} --ca {demo_gateway.cert}" in line
    folder = _kit_folder(language, tmp_path)
    trusted = Kit(_argv(line), token, tmp_path / "t.log", folder)
    untrusted = Kit(
        [*_argv(line.replace(f" --ca {demo_gateway.cert}", "")), "--connect-timeout", "3"],
        token,
        tmp_path / "untrusted.log",
        folder,
    )
    nowhere = _argv(line.replace(demo_gateway.url, f"grpcs://127.0.0.1:{_unused_port()}"))
    unreachable = Kit([*nowhere, "--connect-timeout", "1"], token, tmp_path / "u.log", folder)
    try:
        wait_for(f"the {language} bot to be online", lambda: _online(bot), 90)
        untrusted.process.wait(timeout=90)
        assert untrusted.process.returncode == 1, untrusted.output()
        assert "the arena's certificate is not trusted (pass --ca FILE)" in untrusted.output()
        assert "cannot reach" not in untrusted.output()
        # and the gateway's log says whose handshake it refused, and why
        refused = [
            line
            for line in demo_gateway.log.read_text(errors="replace").splitlines()
            if "refused a TLS connection from 127.0.0.1: " in line
        ]
        assert refused and all("--ca" in line for line in refused), refused
        wait_for(
            "the unreachable kit to say so twice",
            lambda: unreachable.output().count("cannot reach") >= 2,
            90,
        )
        assert unreachable.process.poll() is None and "not trusted" not in unreachable.output()
        for output in (untrusted.output(), trusted.output()):
            assert "DEP0123" not in output and "DeprecationWarning" not in output
    finally:
        for started in (untrusted, unreachable, trusted):
            started.stop()


def test_the_bot_page_offers_the_self_signed_certificate_and_no_ca_for_a_real_one(
    demo_gateway: DemoGateway, settings: Any
) -> None:
    bot, _ = _remote_bot("pages")
    commands = _page_commands(bot)
    assert all(f"--ca {demo_gateway.cert}" in line for line in commands.values())
    download = Client().get("/remote/gateway.crt")
    assert download.status_code == 200 and download.content == demo_gateway.cert.read_bytes()
    settings.GATEWAY_TLS_CERT = None  # a certificate from a CA, on the gateway's machine only
    assert not any("--ca" in line for line in _page_commands(bot).values())
    assert Client().get("/remote/gateway.crt").status_code == 404
