"""Helpers of the site's tests: Celery processes, waiting, bot uploads, named personas."""

import contextlib
import io
import os
import signal
import subprocess
import sys
import tarfile
import time
import uuid
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar
from urllib.parse import quote

import redis
from accounts.models import ApiToken, User
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from ladders.models import Ladder
from submissions.models import Bot, BotVersion

REPO = Path(__file__).resolve().parents[2]
PLATFORM = REPO / "platform"
TEST_BOTS = Path(__file__).resolve().parent / "bots"

T = TypeVar("T")


def wait_for(what: str, check: Callable[[], T | None], timeout: float, every: float = 0.2) -> T:
    """Poll ``check`` until it returns something true; fail the test after ``timeout`` s."""
    limit = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > limit:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(every)


def flush_broker() -> None:
    """Empty the test broker's Redis database (only that one)."""
    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()


def database_url() -> str:
    """The URL of the database this test uses (pytest-django's ``test_...`` copy)."""
    db = connection.settings_dict
    auth = quote(db["USER"] or "")
    if db["PASSWORD"]:
        auth += ":" + quote(db["PASSWORD"])
    host = db["HOST"] or "127.0.0.1"
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgres://{auth}@{host}{port}/{db['NAME']}"


def process_env() -> dict[str, str]:
    """Environment for a subprocess of the site (worker, beat, manage.py) in this test."""
    env = dict(os.environ)
    env["NIMMT_DATABASE_URL"] = database_url()
    env["NIMMT_DATA_DIR"] = str(settings.DATA_DIR)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), str(PLATFORM)])
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return env


class CeleryProcess:
    """A Celery worker or beat as a subprocess in its own process group."""

    def __init__(self, argv: list[str], env: dict[str, str], log: Path, ready: str) -> None:
        self.argv = argv
        self.env = env
        self.log = log
        self.ready = ready
        self.process: subprocess.Popen[bytes] | None = None

    @classmethod
    def worker(
        cls,
        env: dict[str, str],
        log: Path,
        queues: str = "matches,validation,maintenance",
        concurrency: int = 2,
    ) -> "CeleryProcess":
        argv = [
            "worker",
            "-Q",
            queues,
            "-c",
            str(concurrency),
            "--pool",
            "prefork",
            "-n",
            f"test-{uuid.uuid4().hex[:8]}@%h",
            "--without-gossip",
            "--without-mingle",
            "-l",
            "INFO",
        ]
        return cls(argv, env, log, ready="ready.")

    @classmethod
    def beat(cls, env: dict[str, str], log: Path, schedule: Path) -> "CeleryProcess":
        argv = ["beat", "-s", str(schedule), "--pidfile=", "-l", "INFO"]
        return cls(argv, env, log, ready="beat: Starting")

    def start(self, timeout: float = 60) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config", *self.argv],
                cwd=PLATFORM,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait_for(f"celery {self.argv[0]} to start", self._started, timeout)

    def _started(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            raise AssertionError(f"celery {self.argv[0]} exited:\n{self.output()}")
        return self.ready in self.output()

    def output(self) -> str:
        return self.log.read_text("utf-8", errors="replace") if self.log.exists() else ""

    def kill(self) -> None:
        """SIGKILL the whole process group (main process and pool children) and reap it."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        self.process = None


# ---------------------------------------------------------------------------- personas


def make_user(username: str, password: str = "a-long-test-password") -> User:
    return User.objects.create_user(username, f"{username}@example.org", password)


def make_token(user: User) -> str:
    return ApiToken.issue(user, "tests")[1]


def program_bot(name: str, folder: str = "quick", owner: User | None = None) -> Bot:
    """A bot whose passed version 1 is the test program ``tests/platform/bots/<folder>``
    (the tests' house bots folder)."""
    if owner is None:
        owner, _ = User.objects.get_or_create(username="house")
    bot = Bot.objects.create(owner=owner, name=name, is_house=owner.username == "house")
    version = BotVersion.objects.create(
        bot=bot,
        number=1,
        status=BotVersion.PASSED,
        code_root=BotVersion.HOUSE,
        code_dir=folder,
    )
    bot.active_version = version
    bot.save()
    return bot


def basic_ladder(players: int = 4) -> Ladder:
    return Ladder.objects.create(
        slug=f"basic-{players}", name=f"Basic {players}", variant="basic", players=players
    )


# ---------------------------------------------------------------------------- uploads


def bot_files(folder: Path, name: str | None = None) -> dict[str, bytes]:
    """The files of a bot folder, the manifest's name replaced by ``name``."""
    files = {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}
    if name is not None:
        files["nimmt-bot.toml"] = (
            f'name = "{name}"\ncommand = ["python3", "bot.py"]\nlanguage = "python"\n'
        ).encode()
    return files


def zip_upload(files: dict[str, bytes], filename: str = "bot.zip") -> SimpleUploadedFile:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return SimpleUploadedFile(filename, buffer.getvalue(), "application/zip")


def tar_upload(files: dict[str, bytes], filename: str = "bot.tar.gz") -> SimpleUploadedFile:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = 0o644
            archive.addfile(info, io.BytesIO(data))
    return SimpleUploadedFile(filename, buffer.getvalue(), "application/gzip")


def random_bot_upload(name: str, filename: str = "bot.zip") -> SimpleUploadedFile:
    """A zip of the test bot ``quick`` (random moves) under another name: it passes validation."""
    return zip_upload(bot_files(TEST_BOTS / "quick", name), filename)


def stored_files() -> list[Path]:
    """Every file kept under the data folder's ``bots/`` (uploads that were accepted)."""
    root = Path(settings.DATA_DIR) / "bots"
    return sorted(p for p in root.rglob("*") if p.is_file()) if root.exists() else []


def staging_leftovers() -> list[Path]:
    root = Path(settings.DATA_DIR) / "tmp"
    return sorted(root.iterdir()) if root.exists() else []
