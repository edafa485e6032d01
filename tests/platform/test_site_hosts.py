"""Workers on other machines: the site and two worker hosts, each worker in a network namespace
of its own behind a veth pair, sharing nothing but PostgreSQL, Redis and the object store over
TCP. Ladder matches are played on both hosts; a host whose link is cut mid-match loses that
match to the other, which plays it once.

PostgreSQL and Redis listen on 127.0.0.1 only, so the site's side of each veth pair gets a
forwarder (socat) to them and to the object store (moto); the namespaces, links and forwarders
are made by the test and removed after it, whatever happens.
"""

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from core import storage
from ladders.models import Rating, RatingChange
from matches.models import Match
from nimmt_object_store import Bucket, MotoServer, free_port, new_bucket
from nimmt_site_testing import (
    PLATFORM,
    TEST_BOTS,
    CeleryProcess,
    basic_ladder,
    database_url,
    flush_broker,
    process_env,
    wait_for,
)
from submissions.models import Bot, BotVersion

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        os.geteuid() != 0 or not shutil.which("ip") or not shutil.which("socat"),
        reason="needs root, iproute2 and socat (network namespaces and forwarders)",
    ),
]


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


@dataclass
class Host:
    """A worker machine: a network namespace linked to the site's by a veth pair."""

    name: str
    site_address: str  # the site's end of the link, where the forwarders listen
    address: str
    namespace: str = ""
    link: str = ""
    forwarders: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def create(self, tag: str) -> None:
        self.namespace = f"nimmt-{tag}-{self.name}"
        self.link = f"n{tag[:6]}{self.name}"  # the site's end (15 characters at most)
        _ip("netns", "add", self.namespace)
        _ip(
            "link",
            "add",
            self.link,
            "type",
            "veth",
            "peer",
            "name",
            "eth0",
            "netns",
            self.namespace,
        )
        _ip("addr", "add", f"{self.site_address}/30", "dev", self.link)
        _ip("link", "set", self.link, "up")
        inside = ["-n", self.namespace]
        _ip(*inside, "addr", "add", f"{self.address}/30", "dev", "eth0")
        _ip(*inside, "link", "set", "eth0", "up")
        _ip(*inside, "link", "set", "lo", "up")

    def forward(self, port: int, to_port: int) -> None:
        """Forward ``site_address:port`` to ``127.0.0.1:to_port`` (one socat per service)."""
        self.forwarders.append(
            subprocess.Popen(
                ["socat", f"TCP-LISTEN:{port},bind={self.site_address},fork,reuseaddr",
                 f"TCP:127.0.0.1:{to_port}"],
                start_new_session=True,
                stderr=subprocess.DEVNULL,
            )
        )  # fmt: skip

    def cut(self) -> None:
        """The link goes down, and with it every connection this host had to the services."""
        _ip("link", "set", self.link, "down")
        self.stop_forwarders()

    def stop_forwarders(self) -> None:
        for forwarder in self.forwarders:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(forwarder.pid, signal.SIGKILL)
            forwarder.wait(timeout=10)
        self.forwarders.clear()

    def remove(self) -> None:
        self.stop_forwarders()
        if self.namespace:
            subprocess.run(["ip", "netns", "del", self.namespace], capture_output=True, timeout=10)
        if self.link:
            subprocess.run(["ip", "link", "del", self.link], capture_output=True, timeout=10)

    @property
    def prefix(self) -> list[str]:
        return ["ip", "netns", "exec", self.namespace]


class HostWorker(CeleryProcess):
    """A Celery worker started inside a host's namespace."""

    def __init__(self, host: Host, env: dict[str, str], log: Path) -> None:
        worker = CeleryProcess.worker(
            env, log, queues="ratings,validation,matches,maintenance", concurrency=1
        )
        argv = [a.replace("test-", f"{host.name}-") for a in worker.argv]
        super().__init__(argv, env, log, ready=worker.ready)
        self.host = host

    def start(self, timeout: float = 60) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [*self.host.prefix, sys.executable, "-m", "celery", "-A", "config", *self.argv],
                cwd=PLATFORM,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait_for(f"the worker on {self.host.name} to start", self._started, timeout)

    def played(self) -> list[str]:
        """The uuids of the matches it began to play, in order."""
        return re.findall(r"playing match ([0-9a-f-]{36}), attempt", self.output())


@pytest.fixture
def hosts(tmp_path: Path) -> Iterator[tuple[Host, Host]]:
    tag = uuid.uuid4().hex[:6]
    # Private /30s, routed nowhere: they exist only on this test's links.
    made = (Host("w1", "10.231.1.1", "10.231.1.2"), Host("w2", "10.231.2.1", "10.231.2.2"))
    try:
        for host in made:
            host.create(tag)
        yield made
    finally:
        for host in made:
            host.remove()


@pytest.fixture
def moto_site(tmp_path: Path) -> Iterator[MotoServer]:
    server = MotoServer(tmp_path / "moto.log")
    server.start()
    yield server
    server.stop()


def _host_data(parent: Path, name: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix=f"{name}-data-", dir=parent))
    folder.chmod(0o755)  # the bots' own uids must reach their unpacked code
    return folder


def _stored_bot(name: str, folder: str) -> Bot:
    """A bot whose passed version is ``tests/platform/bots/<folder>`` kept in the object store
    (so each host has to fetch it)."""
    from accounts.models import User

    owner, _ = User.objects.get_or_create(username="owner")
    bot = Bot.objects.create(owner=owner, name=name)
    version = BotVersion(bot=bot, number=1, status=BotVersion.PASSED, code_root=BotVersion.DATA)
    version.code_dir = f"bots/{bot.uuid}/{version.uuid}{storage.ARCHIVE_SUFFIX}"
    version.code_sha256 = storage.keep_folder(TEST_BOTS / folder, version.code_dir)
    version.save()
    bot.active_version = version
    bot.save()
    return bot


def test_two_worker_hosts_play_the_ladder_and_a_cut_host_loses_its_match_to_the_other(
    hosts: tuple[Host, Host],
    moto_site: MotoServer,
    sandbox_runtime: Path,
    tmp_path: Path,
    settings: Any,
    data_dir: Path,
) -> None:
    bucket: Bucket = new_bucket(moto_site.url)
    settings.STORAGES = {**settings.STORAGES, "arena": bucket.storage_settings}
    flush_broker()
    ladder = basic_ladder(players=4)  # duplicate matches: four games of slow bots, ~15 s
    bots = [_stored_bot(f"sleepy-{n}", "sleepy") for n in range(4)]

    db = urlsplit(database_url())
    broker = urlsplit(settings.CELERY_BROKER_URL)
    ports = {"db": free_port(), "broker": free_port(), "store": free_port()}
    workers = []
    for host in hosts:
        host.forward(ports["db"], db.port or 5432)
        host.forward(ports["broker"], broker.port or 6379)
        host.forward(ports["store"], moto_site.port)
        env = process_env()
        env |= {
            f"NIMMT_S3_{k}": v
            for k, v in (
                ("BUCKET", bucket.name),
                ("ENDPOINT_URL", f"http://{host.site_address}:{ports['store']}"),
                ("ACCESS_KEY_ID", bucket.env["NIMMT_S3_ACCESS_KEY_ID"]),
                ("SECRET_ACCESS_KEY", bucket.env["NIMMT_S3_SECRET_ACCESS_KEY"]),
            )
        }
        env["NIMMT_DATABASE_URL"] = database_url().replace(
            db.netloc.split("@")[-1], f"{host.site_address}:{ports['db']}"
        )
        env["NIMMT_BROKER_URL"] = f"redis://{host.site_address}:{ports['broker']}{broker.path}"
        env["NIMMT_DATA_DIR"] = str(_host_data(data_dir.parent, host.name))
        workers.append(HostWorker(host, env, tmp_path / f"{host.name}.log"))
    site_env = {**process_env(), **bucket.env}
    beat = CeleryProcess.beat(site_env, tmp_path / "beat.log", tmp_path / "beat-schedule")
    deadline = time.monotonic() + 400  # the whole test, whatever happens
    try:
        for worker in workers:
            worker.start()
        beat.start()  # the site's scheduler and sweeper (their tasks run on the hosts)
        w1, w2 = workers

        # Both hosts play ladder matches.
        wait_for(
            "both hosts to play a match",
            lambda: w1.played() and w2.played()
            and Match.objects.filter(status=Match.FINISHED).count() >= 2,
            timeout=min(180, deadline - time.monotonic()),
        )  # fmt: skip
        for worker in workers:
            assert (Path(worker.env["NIMMT_DATA_DIR"]) / "cache" / "trees").is_dir()

        # Cut w1 in the middle of a match.
        def w1_mid_match() -> Match | None:
            for match_uuid in reversed(w1.played()):
                match = Match.objects.filter(
                    uuid=match_uuid, status=Match.RUNNING, started_at__isnull=False
                ).first()
                if match is not None:
                    return match
            return None

        cut = wait_for("w1 to be playing a match", w1_mid_match, timeout=120)
        time.sleep(3)
        cut.refresh_from_db()
        assert cut.status == Match.RUNNING
        w1.host.cut()
        done = wait_for(
            "the cut host's match to be played by the other",
            lambda: Match.objects.filter(pk=cut.pk, status=Match.FINISHED, rated=True).first(),
            timeout=min(120, deadline - time.monotonic()),
        )
        time.sleep(2)
        assert str(cut.uuid) in w2.played()
        assert done.attempts == 2
        kept = {key.split("/")[2] for key in bucket.stored() if f"/{cut.uuid}-" in key}
        assert kept == {done.result_dir.split("/")[2]}  # one attempt's files: w2's
        assert RatingChange.objects.filter(match=done).count() == 4
        assert Rating.objects.filter(bot__in=bots, ladder=ladder).count() == 4
        # The ladder goes on without w1.
        finished = Match.objects.filter(status=Match.FINISHED).count()
        wait_for(
            "w2 alone to finish another match",
            lambda: Match.objects.filter(status=Match.FINISHED).count() > finished,
            timeout=min(90, deadline - time.monotonic()),
        )
    finally:
        beat.kill()
        for worker in workers:
            worker.kill()
        flush_broker()
        for worker in workers:
            shutil.rmtree(worker.env["NIMMT_DATA_DIR"], ignore_errors=True)
    assert Match.objects.filter(status=Match.FAILED).count() == 0
    for match in Match.objects.filter(status=Match.FINISHED):
        assert match.seats.filter(rank__isnull=False).count() == 4
