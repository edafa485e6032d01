"""A full disk is a pause, not a loss: a match whose files cannot be written for want of space
waits, its attempt not counted and its page saying "disk full", and is played once space
returns. The test gives the site a data folder on a small tmpfs of its own and fills it. And a
validation is never tried more than ``MAX_ATTEMPTS`` times."""

import contextlib
import errno
import subprocess
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from core import disks
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from ladders.models import Ladder, RatingChange
from matches.models import Match
from matches.tasks import queue_match
from nimmt_site_testing import (
    TEST_BOTS,
    CeleryProcess,
    basic_ladder,
    bot_files,
    make_user,
    program_bot,
    wait_for,
    zip_upload,
)
from submissions.models import BotVersion
from submissions.tasks import MAX_ATTEMPTS, validate_version

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def small_disk(data_dir: Path) -> Iterator[Path]:
    """A tmpfs of 8 MiB of this test's own, in its data folder (searchable by the bots' uids)."""
    mount = data_dir / "small-disk"
    mount.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=8m,mode=0755", "tmpfs", str(mount)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(folder: Path) -> Path:
    """Write a file until the disk is full; the file."""
    filler = folder / "filler"
    chunk = b"\0" * (256 * 1024)
    with filler.open("wb", buffering=0) as out, contextlib.suppress(OSError):
        while True:
            out.write(chunk)
    with pytest.raises(OSError) as full:
        (folder / "probe").write_bytes(chunk)
    assert full.value.errno == errno.ENOSPC
    (folder / "probe").unlink(missing_ok=True)
    return filler


def test_a_match_on_a_full_disk_waits_and_is_played_once_space_returns(
    small_disk: Path, worker_env: dict[str, str], tmp_path: Path, settings: Any
) -> None:
    settings.DATA_DIR = small_disk  # pytest-django's: put back after the test
    env = {**worker_env, "NIMMT_DATA_DIR": str(small_disk)}
    ladder = basic_ladder(players=4)
    Ladder.objects.filter(pk=ladder.pk).update(duplicate=False, is_active=False)
    ladder.refresh_from_db()
    bots = [program_bot(f"quick-{n}") for n in range(4)]
    (small_disk / "tmp").mkdir(mode=0o755)
    filler = _fill(small_disk)
    match = queue_match(ladder, bots)
    worker = CeleryProcess.worker(env, tmp_path / "worker.log")
    worker.start()
    try:
        waiting = wait_for(
            "the match to wait for space twice",
            lambda: _waited_twice(worker, match.pk),
            timeout=120,
        )
        assert waiting.error == disks.REASON
        assert waiting.attempts == 0  # a full disk is not an attempt
        page = Client().get(waiting.get_absolute_url())
        assert page.status_code == 200
        assert "disk full" in page.content.decode()
        filler.unlink()  # space returns
        done = wait_for(
            "the match to be played",
            lambda: Match.objects.filter(pk=match.pk, status=Match.FINISHED, rated=True).first(),
            timeout=120,
        )
    finally:
        worker.kill()
    assert (done.attempts, done.error) == (1, "")
    assert RatingChange.objects.filter(match=done).count() == 4
    assert (small_disk / done.result_dir).is_dir()
    assert "gave up" not in worker.output()


def _waited_twice(worker: CeleryProcess, pk: int) -> Match | None:
    if worker.output().count("waits for disk space") < 2:
        return None
    return Match.objects.filter(pk=pk, status=Match.QUEUED).first()


def test_a_validation_is_checked_at_most_max_attempts_times() -> None:
    # A check that killed its worker, or raised what the task does not expect, left its version
    # to the sweeper, which sent it again after each lease: four checks with MAX_ATTEMPTS 3.
    bot = program_bot("retried", "quick")
    version = BotVersion.objects.create(
        bot=bot,
        number=2,
        code_root=BotVersion.HOUSE,
        code_dir="quick",
        status=BotVersion.VALIDATING,
        attempts=MAX_ATTEMPTS,
        lease_expires_at=timezone.now() - timedelta(seconds=1),  # its worker died
    )
    validate_version(version_pk=version.pk)  # the sweeper's next sending
    version.refresh_from_db()
    assert version.status == BotVersion.FAILED
    assert f"gave up checking this version after {MAX_ATTEMPTS} attempts" in version.validation_log


def test_an_upload_whose_build_finds_the_build_disk_full_waits_and_passes_once_space_returns(
    small_disk: Path, worker_env: dict[str, str], tmp_path: Path
) -> None:
    # The build disk (the cache folder) is the 8 MiB tmpfs; a build must leave 16 MB free.
    env = {**worker_env, "NIMMT_CACHE_DIR": str(small_disk), "NIMMT_BUILD_RESERVE_MB": "16"}
    alice = make_user("alice")
    files = bot_files(TEST_BOTS / "quick")
    files["nimmt-bot.toml"] = (
        b'name = "built"\ncommand = ["python3", "bot.py"]\nlanguage = "python"\n'
        b"build = [\"python3\", \"-c\", \"open('built.txt', 'w').write('ok')\"]\n"
    )
    client = Client()
    client.force_login(alice)
    response = client.post(reverse("new-bot"), {"name": "built", "file": zip_upload(files)})
    assert response.status_code == 302
    worker = CeleryProcess.worker(env, tmp_path / "worker.log")
    worker.start()
    try:
        waiting = wait_for(
            "the upload to wait for build disk space twice",
            lambda: _version_waited_twice(worker),
            timeout=180,
        )
        assert waiting.validation_log == disks.REASON
        assert waiting.attempts == 0  # a full disk is not an attempt
        subprocess.run(["mount", "-o", "remount,size=64m", str(small_disk)], check=True)
        done = wait_for(
            "the verdict",
            lambda: BotVersion.objects.filter(
                bot__name="built", status__in=["passed", "failed"]
            ).first(),
            timeout=120,
        )
    finally:
        worker.kill()
    assert done.status == BotVersion.PASSED, done.validation_log
    assert done.attempts == 1


def _version_waited_twice(worker: CeleryProcess) -> BotVersion | None:
    if worker.output().count("waits for build disk space") < 2:
        return None
    return BotVersion.objects.filter(bot__name="built", status=BotVersion.PENDING).first()
