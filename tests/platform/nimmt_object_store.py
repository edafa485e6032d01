"""An S3-compatible object store for the site's tests: moto's standalone server, started as a
subprocess on a free port of 127.0.0.1, and a bucket of each test's own."""

import contextlib
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boto3
from config.object_store import object_store

ACCESS_KEY, SECRET_KEY = "nimmt-tests", "nimmt-tests-secret"


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


class MotoServer:
    """``python -m moto.server`` on ``host``: started by :meth:`start`, killed by :meth:`stop`."""

    def __init__(self, log: Path, host: str = "127.0.0.1", port: int | None = None) -> None:
        self.host = host
        self.port = port or free_port(host)
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self, timeout: float = 30, prefix: list[str] | None = None) -> None:
        """Start it (``prefix``: a command to run it under, e.g. ``ip netns exec``)."""
        argv = [sys.executable, "-m", "moto.server", "-H", self.host, "-p", str(self.port)]
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [*(prefix or []), *argv], stdout=out, stderr=subprocess.STDOUT
            )
        limit = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise AssertionError(f"moto server exited:\n{self.log.read_text()}")
            with contextlib.suppress(OSError):
                urllib.request.urlopen(self.url, timeout=1).close()
                return
            if time.monotonic() > limit:
                raise AssertionError(f"moto server did not answer within {timeout} s")
            time.sleep(0.2)

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


@dataclass(frozen=True)
class Bucket:
    """A bucket of one test: the variables that point the site at it, and a client to look."""

    url: str
    name: str

    @property
    def env(self) -> dict[str, str]:
        return {
            "NIMMT_S3_BUCKET": self.name,
            "NIMMT_S3_ENDPOINT_URL": self.url,
            "NIMMT_S3_ACCESS_KEY_ID": ACCESS_KEY,
            "NIMMT_S3_SECRET_ACCESS_KEY": SECRET_KEY,
        }

    @property
    def storage_settings(self) -> dict[str, Any]:
        entry = object_store(self.env)
        assert entry is not None
        return entry

    def client(self) -> Any:
        return boto3.client(
            "s3",
            endpoint_url=self.url,
            aws_access_key_id=ACCESS_KEY,
            aws_secret_access_key=SECRET_KEY,
            region_name="us-east-1",
        )

    def stored(self) -> list[str]:
        pages = self.client().get_paginator("list_objects_v2").paginate(Bucket=self.name)
        return sorted(item["Key"] for page in pages for item in page.get("Contents", []))


def new_bucket(url: str) -> Bucket:
    bucket = Bucket(url, f"arena-{uuid.uuid4().hex[:12]}")
    bucket.client().create_bucket(Bucket=bucket.name)
    return bucket


@contextlib.contextmanager
def moto_server(log: Path) -> Iterator[MotoServer]:
    server = MotoServer(log)
    server.start()
    try:
        yield server
    finally:
        server.stop()
