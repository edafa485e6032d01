"""The gateway on this machine's loopback, as ``./dev demo`` runs it: a connection ends when
its match ends (whatever the bot does after), its self-signed certificate outlives a restart,
and every kit tells an untrusted certificate apart from an arena it cannot reach."""

import asyncio
import time
import uuid
from typing import Any

import grpc
import pytest
import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections
from nimmt_site_testing import flush_broker, make_user
from remote import gateway as gateway_module
from remote import handover, services
from remote.gateway import Gateway, GatewayConfig
from remote.models import RemoteConnection
from submissions.models import Bot

from arena.protocol import arena_pb2 as pb
from arena.protocol.convert import PROTOCOL_VERSION

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
