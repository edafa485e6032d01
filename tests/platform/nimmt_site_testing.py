"""Helpers of the site's tests: Celery processes, waiting, bot uploads, named personas."""

import contextlib
import io
import os
import signal
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import uuid
import zipfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

import redis
from accounts.models import ApiToken, User
from core import storage
from core.celery import QUEUES
from django.conf import settings
from django.contrib.auth.models import Group, Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.utils import timezone
from ladders.models import Ladder
from ladders.services import rate_ladder
from matches.models import Match, Seat, entrant_names
from submissions.models import Bot, BotVersion

from arena.bots.base import Bot as EngineBot
from arena.bots.random import RandomBot
from arena.engine.record import GameRecord
from arena.engine.replay import write
from arena.local import play_game
from arena.runner.match import Entrant, MatchConfig, run_match

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
        queues: str = ",".join(QUEUES),
        concurrency: int = 2,
    ) -> "CeleryProcess":
        argv = [
            "worker",
            "-Q",
            queues,
            "-c",
            str(concurrency),
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


# ---------------------------------------------------------------------------- played games


def store_game(
    match: Match,
    record: GameRecord,
    *,
    logs: dict[int, str] | None = None,
    faults: dict[int, list[dict[str, Any]]] | None = None,
    finished_at: datetime | None = None,
) -> Match:
    """Keep ``record`` as the match's only game, as the pipeline would: files in the data
    folder, scores and ranks on the seats, the match finished (and rated, on a ladder)."""
    relative = f"matches/{match.uuid.hex[:2]}/{match.uuid}"
    folder = Path(settings.DATA_DIR) / relative
    (folder / "logs").mkdir(parents=True, exist_ok=True)
    write(folder / "game-00001.json", record)
    for seat in match.seats.select_related("bot").order_by("seat"):
        seat.score = record.result.scores[seat.seat]
        seat.rank = record.result.ranks[seat.seat]
        seat.faults = (faults or {}).get(seat.seat, [])
        text = (logs or {}).get(seat.seat, f"{seat.bot.name} played seat {seat.seat}\n")
        seat.log_file = f"logs/{seat.bot.name}.log"
        (folder / seat.log_file).write_text(text, "utf-8")
        seat.save()
    match.status = Match.FINISHED
    match.started_at = match.finished_at = finished_at or timezone.now()
    match.result_dir = relative
    match.replays = ["game-00001.json"]
    match.save()
    if match.ladder_id is not None:
        rate_ladder(match.ladder_id)
        match.refresh_from_db()
    return match


def engine_match(
    bots: list[Bot],
    *,
    ladder: Ladder | None = None,
    variant: str | None = None,
    seed: int = 1,
    players: Sequence[EngineBot] | None = None,
    created_at: datetime | None = None,
    **store: Any,
) -> Match:
    """A finished match of ``bots`` played in this process by the engine (``players``: the
    engine bots per seat, random by default), stored as the pipeline stores one."""
    variant = variant or (ladder.variant if ladder else "basic")
    match = Match.objects.create(
        ladder=ladder,
        variant=variant,
        players=len(bots),
        seed=seed,
        created_at=created_at or timezone.now(),
    )
    for number, bot in enumerate(bots):
        assert bot.active_version_id is not None
        Seat.objects.create(match=match, seat=number, bot=bot, version_id=bot.active_version_id)
    record = play_game(
        variant,
        players or [RandomBot() for _ in bots],
        seed=seed,
        bot_seeds=[seed * 10 + k for k in range(len(bots))],
        names=[b.name for b in bots],
    )
    return store_game(match, record, finished_at=created_at, **store)


def organiser(username: str = "olga", password: str = "a-long-test-password") -> User:
    """A user in the group ``organisers``, not staff.

    A migration makes the group; a transactional test's flush empties the table, so it is
    made again here if needed (with the permission Django re-creates after a flush).
    """
    group, _ = Group.objects.get_or_create(name="organisers")
    group.permissions.add(
        Permission.objects.get(
            codename="organise_tournaments", content_type__app_label="tournaments"
        )
    )
    user = make_user(username, password)
    user.groups.add(group)
    return User.objects.get(pk=user.pk)  # fresh permission cache


def play_in_process(match: Match, players: Sequence[EngineBot] | None = None) -> Match:
    """Play a queued match here with engine bots (random by default) and store it; no worker."""
    seats = list(match.seats.select_related("bot", "version").order_by("seat"))
    record = play_game(
        match.variant,
        players or [RandomBot() for _ in seats],
        seed=match.seed,
        bot_seeds=[match.seed + k for k in range(len(seats))],
        names=entrant_names(seats),
    )
    return store_game(match, record)


# ---------------------------------------------------------------------------- a broker to restart


def free_port() -> int:
    with contextlib.closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PrivateRedis:
    """A ``redis-server`` of this test's own, on a free port, without persistence (as the
    compose file runs it): a restart loses every queued message. Tests restart this one, never
    the shared server."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        with (self.folder / "redis.log").open("ab") as out:
            self.process = subprocess.Popen(
                ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
                 "--appendonly", "no", "--dir", str(self.folder)],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        wait_for("Redis to answer", self.answers, timeout=10, every=0.05)

    def answers(self) -> bool:
        try:
            return bool(redis.Redis(port=self.port, socket_timeout=1).ping())
        except redis.RedisError:
            return False

    def stop(self) -> None:
        """SIGKILL: gone at once, every message with it."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()
        self.process.wait(timeout=10)
        self.process = None

    def restart(self, down_seconds: float = 1.0) -> None:
        self.stop()
        time.sleep(down_seconds)
        self.start()


@contextlib.contextmanager
def broker_of_this_process(
    url: str, transport: str | None = None, options: dict[str, Any] | None = None
) -> Iterator[None]:
    """Send this process's tasks (``enqueue`` in the test itself) to ``url`` for a while
    (through ``transport`` with ``options``, as the workers' settings give them)."""
    from config.celery_app import app as celery_app

    app: Any = celery_app  # its pools are private attributes, reset here

    def reset() -> None:
        # kombu keeps one pool per broker URL: this process finds each broker's again, open.
        app._pool = None
        app.amqp._producer_pool = None

    names = ("broker_url", "broker_read_url", "broker_write_url")
    # the settings' own names (CELERY_...) come before Celery's where both are set
    kept = (*names, "CELERY_BROKER_TRANSPORT", "CELERY_BROKER_TRANSPORT_OPTIONS")
    before = {name: app.conf.get(name) for name in kept}
    reset()
    app.conf.update({name: url for name in names})
    if transport is not None:
        app.conf.update(
            CELERY_BROKER_TRANSPORT=transport, CELERY_BROKER_TRANSPORT_OPTIONS=options or {}
        )
    try:
        yield
    finally:
        reset()
        app.conf.update(before)


def runner_match(
    bots: list[Bot],
    players: Sequence[Callable[[], EngineBot]],
    *,
    variant: str = "basic",
    seed: int = 1,
    games: int = 1,
    duplicate: bool = False,
) -> Match:
    """A finished match of ``bots`` (one game unless ``games``; ``duplicate``: each deal in
    every seat rotation) played by the match runner with the engine bots ``players`` makes (in
    process, one per seat), its folder kept in the arena's storage as the pipeline keeps it: the
    replays, and beside them the notes the bots made on their decisions."""
    match = Match.objects.create(
        variant=variant, players=len(bots), seed=seed, games=games, duplicate=duplicate
    )
    for number, bot in enumerate(bots):
        assert bot.active_version_id is not None
        Seat.objects.create(match=match, seat=number, bot=bot, version_id=bot.active_version_id)
    seats = list(match.seats.select_related("bot", "version").order_by("seat"))
    with tempfile.TemporaryDirectory() as out:
        config = MatchConfig(
            variant=variant, games=games, seed=seed, out=Path(out), duplicate=duplicate
        )
        entrants = [
            Entrant(name, in_process=make)
            for name, make in zip(entrant_names(seats), players, strict=True)
        ]
        # In a thread of its own: a browser test's thread already runs an event loop.
        with ThreadPoolExecutor(1) as thread:
            result = thread.submit(run_match, config, entrants).result()
        relative = f"matches/{match.uuid.hex[:2]}/{match.uuid}"
        storage.save_folder(Path(out), relative)
    for seat, report in zip(seats, result.bots, strict=True):
        seat.score, seat.rank = report.score, report.rank
        seat.save(update_fields=["score", "rank"])
    match.status = Match.FINISHED
    match.started_at = match.finished_at = timezone.now()
    match.result_dir = relative
    match.replays = result.replay_files
    match.save()
    return match
