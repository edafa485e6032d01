"""CPU per decision of the remote-bot gateway: a bot through this tree's gateway (TLS by its
front, ``remote.front``) against the same bot through an older tree's (TLS by gRPC), side by
side in one run, printed as ratios.

    nice -n 10 .venv/bin/python benchmarks/gateway_front.py [--decisions 2000] [--repeats 3]
        [--before REV]

Each gateway is ``manage.py run_gateway --self-signed`` of its tree, on loopback, in a cgroup of
its own under the ``cpuacct`` hierarchy (v1, ``/sys/fs/cgroup/cpuacct``; needs root), with a
SQLite database made here (migrated once, one bot and token per tree) and a private Redis on a
socket for the hand-over (the bot's message rate cap lifted: decisions come back to back). The
bot is a gRPC client over TLS in this process; the benchmark plays the worker's part through
Redis: a decision is a request pushed to the seat's ``down`` list and the bot's answer read
back from its ``up`` list (gateway, TLS, bot, TLS, gateway). The figures are the gateway
process's CPU (``cpuacct.usage``) over ``--decisions`` decisions after a warm-up, and the median
round trip (wall clock); runs alternate the trees within each repeat, and the medians over
repeats are printed. ``--before`` is the older tree's commit (default: the commit before the
front came), exported with ``git archive``.

**Measured** 2026-12-06 on this 2-core machine with other work running (load about 15;
``--decisions 3000 --repeats 5``, medians; ``before`` = the commit before the front):

=====================================  ========  ========  ============
figure                                  front     before    front/before
=====================================  ========  ========  ============
gateway CPU per decision                776 us    656 us    1.18x
round trip per decision (wall)          1228 us   1026 us   1.20x
=====================================  ========  ========  ============

The front costs about 0.1 ms of CPU per decision (both directions through Python's ``ssl`` and
one more loopback hop), against a decision's default time of 1000 ms.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
CPUACCT = Path("/sys/fs/cgroup/cpuacct")
sys.path[:0] = [str(HERE), str(HERE / "platform")]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Tree:
    name: str
    path: Path
    token: str = ""
    bot: int = 0


class Gateway:
    """``run_gateway`` of ``tree`` in a cpuacct cgroup of its own."""

    def __init__(self, tree: Tree, env: dict[str, str], folder: Path) -> None:
        self.tree = tree
        self.port = _free_port()
        self.group = CPUACCT / f"gatewaybench-{os.getpid()}-{secrets.token_hex(4)}"
        self.group.mkdir()
        procs = str(self.group / "cgroup.procs")

        def enter() -> None:
            with open(procs, "w") as f:
                f.write(str(os.getpid()))

        self.log = folder / f"gateway-{tree.name}.log"
        platform = tree.path / "platform"
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "manage.py", "run_gateway", "--address",
                 f"127.0.0.1:{self.port}", "--self-signed", str(folder / f"tls-{tree.name}")],
                cwd=platform, stdout=out, stderr=subprocess.STDOUT, preexec_fn=enter,
                env=env | {"PYTHONPATH": f"{tree.path}{os.pathsep}{platform}"},
            )  # fmt: skip
        until = time.monotonic() + 60
        while "gateway listening" not in self.log.read_text(errors="replace"):
            if time.monotonic() > until or self.process.poll() is not None:
                raise RuntimeError(f"the {tree.name} gateway did not start: {self.log}")
            time.sleep(0.1)
        self.cert = folder / f"tls-{tree.name}" / "gateway.crt"

    def cpu(self) -> float:
        return int((self.group / "cpuacct.usage").read_text()) / 1e9

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        with contextlib.suppress(OSError):
            self.group.rmdir()


def play(gateway: Gateway, redis_url: str, decisions: int, warmup: int) -> tuple[float, float]:
    """The gateway's CPU per decision (s) and the median round trip (s) over ``decisions``."""
    import queue
    import threading

    import grpc
    import redis
    from remote import handover

    from arena.protocol import arena_pb2 as pb
    from arena.protocol.convert import PROTOCOL_VERSION

    broker = redis.Redis.from_url(redis_url)
    credentials = grpc.ssl_channel_credentials(gateway.cert.read_bytes())
    channel = grpc.secure_channel(f"127.0.0.1:{gateway.port}", credentials)
    stream = channel.stream_stream(
        "/nimmt.v1.Arena/Play",
        request_serializer=pb.BotMessage.SerializeToString,
        response_deserializer=pb.EngineMessage.FromString,
    )
    outbox: queue.Queue[pb.BotMessage | None] = queue.Queue()
    hello = pb.Hello(protocol_version=PROTOCOL_VERSION, token=gateway.tree.token)
    outbox.put(pb.BotMessage(hello=hello))
    call = stream(iter(outbox.get, None))

    def answer() -> None:
        with contextlib.suppress(grpc.RpcError):
            for message in call:
                if message.WhichOneof("body") == "request":
                    reply = pb.Answer(request_id=message.request.request_id)
                    outbox.put(pb.BotMessage(answer=reply))

    threading.Thread(target=answer, daemon=True).start()
    live = handover.live_key(gateway.tree.bot)
    until = time.monotonic() + 30
    while not broker.exists(live):
        assert time.monotonic() < until, "the bot did not get in"
        time.sleep(0.05)
    seat = uuid.uuid4().hex
    welcome = pb.EngineMessage(welcome=pb.Welcome(match_id="bench")).SerializeToString()
    broker.rpush(handover.inbox_key(gateway.tree.bot), handover.Assignment(
        seat, welcome, time.time() + 60).dumps())  # fmt: skip
    up = handover.up_key(seat)
    assert handover.Up.loads(broker.blpop([up], timeout=10)[1]).kind == "joined"  # type: ignore[index]

    def decide(request: int) -> float:
        message = pb.EngineMessage(request=pb.DecisionRequest(request_id=request))
        began = time.perf_counter()
        broker.rpush(handover.down_key(seat), handover.Down(
            message.SerializeToString(), request_id=request).dumps())  # fmt: skip
        got = broker.blpop([up], timeout=10)
        assert got is not None and handover.Up.loads(got[1]).kind == "message"
        return time.perf_counter() - began

    for n in range(1, warmup + 1):
        decide(n)
    before = gateway.cpu()
    trips = [decide(warmup + n) for n in range(1, decisions + 1)]
    cpu = (gateway.cpu() - before) / decisions
    broker.rpush(handover.down_key(seat), handover.Down(close="OK").dumps())
    outbox.put(None)
    channel.close()
    until = time.monotonic() + 30
    while broker.exists(live) and time.monotonic() < until:
        time.sleep(0.05)
    return cpu, statistics.median(trips)


def _export(rev: str, folder: Path) -> Path:
    target = folder / "before"
    target.mkdir()
    archive = subprocess.run(
        ["git", "archive", rev], cwd=HERE, check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def _before_front() -> str:
    added = subprocess.run(
        ["git", "log", "--diff-filter=A", "--format=%H", "--", "platform/remote/front.py"],
        cwd=HERE, check=True, capture_output=True, text=True,
    ).stdout.split()  # fmt: skip
    return f"{added[-1]}^" if added else "HEAD"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--before", default="", help="the older tree's commit")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="gatewaybench-"))
    redis_server: subprocess.Popen[bytes] | None = None
    gateways: list[Gateway] = []
    try:
        redis_url = f"unix://{folder}/redis.sock"
        redis_server = subprocess.Popen(
            ["redis-server", "--port", "0", "--unixsocket", f"{folder}/redis.sock",
             "--unixsocketperm", "700", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        env = dict(os.environ) | {
            "NIMMT_DEBUG": "true",
            "NIMMT_DATABASE_URL": f"sqlite:///{folder}/db.sqlite3",
            "NIMMT_VAR_DIR": str(folder / "var"),
            "NIMMT_BROKER_URL": "filesystem://localhost//",
            "NIMMT_REMOTE_REDIS_URL": redis_url,
            "NIMMT_LOG_LEVEL": "WARNING",
            "NIMMT_GATEWAY_MESSAGES_PER_SECOND": "1000000",  # decisions back to back
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
        os.environ.update(env)
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.core.management import call_command
        from remote import services
        from submissions.models import Bot

        call_command("migrate", verbosity=0)
        owner = get_user_model().objects.create_user("bench", "bench@example.org", "bench-pass")
        before = _export(args.before or _before_front(), folder)
        trees = [Tree("front", HERE), Tree("before", before)]
        for tree in trees:
            bot = Bot.objects.create(owner=owner, name=f"bench-{tree.name}")
            tree.token, tree.bot = services.issue(bot), bot.pk
        gateways = [Gateway(tree, env, folder) for tree in trees]
        results: dict[str, list[tuple[float, float]]] = {tree.name: [] for tree in trees}
        for repeat in range(args.repeats):
            for gateway in gateways if repeat % 2 == 0 else gateways[::-1]:
                results[gateway.tree.name].append(
                    play(gateway, redis_url, args.decisions, args.warmup)
                )
        cpu = {name: statistics.median(r[0] for r in runs) for name, runs in results.items()}
        trip = {name: statistics.median(r[1] for r in runs) for name, runs in results.items()}
        print(f"{args.decisions} decisions x {args.repeats} repeats, medians")
        print(f"{'figure':<38}{'front':>10}{'before':>10}{'front/before':>14}")
        print(
            f"{'gateway CPU per decision (us)':<38}{cpu['front'] * 1e6:>10.0f}"
            f"{cpu['before'] * 1e6:>10.0f}{cpu['front'] / cpu['before']:>13.2f}x"
        )
        print(
            f"{'round trip per decision (us)':<38}{trip['front'] * 1e6:>10.0f}"
            f"{trip['before'] * 1e6:>10.0f}{trip['front'] / trip['before']:>13.2f}x"
        )
    finally:
        for gateway in gateways:
            gateway.stop()
        if redis_server is not None:
            redis_server.terminate()
            redis_server.wait()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
