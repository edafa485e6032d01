"""Shared set-up of the site's tests: Django on the real PostgreSQL, real Celery workers.

``platform/`` is the Django project folder, not a package (``import platform`` must stay the
standard library's), so it goes on ``sys.path`` here and the apps import as ``config``,
``submissions``... The settings come from ``NIMMT_*`` variables set below, before Django starts:
PostgreSQL at ``NIMMT_TEST_DATABASE_URL`` (pytest-django makes and drops ``test_<name>``), and a
Redis broker on its own database number (``NIMMT_TEST_BROKER_URL``, default db 13), flushed
before each test that starts a worker. The suite runs in parallel processes (pytest-xdist's
``-n``, as ``./dev test`` does): pytest-django gives each its own database (``test_<name>_gw0``
...) and :func:`broker_url` its own Redis database number, so that one process's workers never
take another's tasks. Workers and beat are subprocesses started by fixtures
(:class:`nimmt_site_testing.CeleryProcess`) against the same test database.

Leases, sweeps and the broker's visibility timeout are shortened so that a killed worker's match
is played again within seconds.
"""

import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Bot programs the tests upload or run in the sandbox: not test modules, not doctests.
collect_ignore = ["bots"]

REPO = Path(__file__).resolve().parents[2]
PLATFORM = REPO / "platform"
for _path in (str(REPO), str(PLATFORM)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

# Searchable by others (0755): bots run in the sandbox as uids of their own, and the runner
# refuses a bot folder that such a uid could not reach.
DATA_DIR = Path(tempfile.mkdtemp(prefix="nimmt-site-tests-"))
DATA_DIR.chmod(0o755)
atexit.register(shutil.rmtree, DATA_DIR, ignore_errors=True)


def broker_url(base: str, worker: str) -> str:
    """The broker of the test process ``worker`` (pytest-xdist's ``gw<N>``, ``""`` without it):
    the Redis database ``N`` numbers above ``base``'s.

    >>> broker_url("redis://127.0.0.1:6379/13", "gw1")
    'redis://127.0.0.1:6379/14'
    >>> broker_url("redis://127.0.0.1:6379/3", "")
    'redis://127.0.0.1:6379/3'
    """
    if not worker.startswith("gw"):
        return base
    head, _, number = base.rstrip("/").rpartition("/")
    if not number.isdigit():
        head, number = base.rstrip("/"), "0"
    database = int(number) + int(worker[2:])
    if database > 15:  # Redis's default count of databases
        raise RuntimeError(f"{base} leaves no Redis database for test process {worker}")
    return f"{head}/{database}"


TEST_ENV = {
    "NIMMT_DATABASE_URL": os.environ.get(
        "NIMMT_TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/nimmt"
    ),
    "NIMMT_BROKER_URL": broker_url(
        os.environ.get("NIMMT_TEST_BROKER_URL", "redis://127.0.0.1:6379/13"),
        os.environ.get("PYTEST_XDIST_WORKER", ""),
    ),
    "NIMMT_SECRET_KEY": "tests-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "NIMMT_DEBUG": "false",
    "NIMMT_ALLOWED_HOSTS": "testserver,127.0.0.1,localhost",
    "NIMMT_SSL_REDIRECT": "false",
    "NIMMT_SECURE_COOKIES": "false",
    "NIMMT_HSTS_SECONDS": "0",
    "NIMMT_VAR_DIR": str(DATA_DIR / "var"),
    "NIMMT_DATA_DIR": str(DATA_DIR / "data"),
    "NIMMT_STATIC_ROOT": str(DATA_DIR / "static"),
    "NIMMT_LOG_LEVEL": "INFO",
    # The site's "house bots" in these tests are the small programs in tests/platform/bots.
    "NIMMT_HOUSE_BOTS_DIR": str(Path(__file__).resolve().parent / "bots"),
    "NIMMT_MATCH_LEASE_SECONDS": "4",
    "NIMMT_VALIDATION_LEASE_SECONDS": "20",
    "NIMMT_REQUEUE_AFTER_SECONDS": "3",
    "NIMMT_SWEEP_INTERVAL_SECONDS": "1",
    "NIMMT_DISK_FULL_RETRY_SECONDS": "2",
    "NIMMT_SCHEDULE_INTERVAL_SECONDS": "1",
    "NIMMT_SCHEDULE_IN_FLIGHT": "2",
    "NIMMT_BROKER_VISIBILITY_TIMEOUT": "8",
    "NIMMT_BROKER_RESTORE_INTERVAL": "1",
    "NIMMT_BROKER_RESTORE_THROTTLE": "1",
}
os.environ.update(TEST_ENV)
(DATA_DIR / "static").mkdir()  # whitenoise warns about a missing STATIC_ROOT
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"

import django  # noqa: E402

django.setup()

from nimmt_site_testing import (  # noqa: E402
    CeleryProcess,
    flush_broker,
    process_env,
)


def pytest_configure(config: pytest.Config) -> None:
    """A run of files of this folder in parallel processes (``pytest -n 2 tests/platform/x.py``)
    loads this module early in the controller, so the environment its processes inherit names
    the settings and the controller's broker: pytest-django would load the settings in each
    process from those before this module gives the process its own broker (two processes on
    one Redis database take each other's tasks), and before ``platform/`` is on the path. The
    processes start without them, as in a run of the whole suite, and this module sets them."""
    if getattr(config, "workerinput", None) is None and config.getoption("numprocesses", None):
        os.environ.pop("DJANGO_SETTINGS_MODULE", None)
        for name in TEST_ENV:
            os.environ.pop(name, None)


@pytest.fixture(autouse=True)
def data_dir(settings: Any) -> Iterator[Path]:
    """A data folder of this test's own (uploads, bot code, match files), removed after it."""
    folder = Path(tempfile.mkdtemp(prefix="data-", dir=DATA_DIR))
    folder.chmod(0o755)
    settings.DATA_DIR = folder
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def sandbox_runtime() -> Path:
    """The bot runtime the sandbox mounts, built once (it takes a minute the first time)."""
    from arena.sandbox import ensure_runtime

    return Path(ensure_runtime())


@pytest.fixture
def worker_env(transactional_db: None, sandbox_runtime: Path) -> dict[str, str]:
    """The environment of a worker or beat process: this test's database and broker."""
    flush_broker()
    return process_env()


@pytest.fixture
def celery_worker(worker_env: dict[str, str], tmp_path: Path) -> Iterator[CeleryProcess]:
    """A real worker on every queue (in ``core.celery.QUEUES``' order), two processes;
    stopped (killed) after the test."""
    worker = CeleryProcess.worker(worker_env, tmp_path / "worker.log")
    worker.start()
    yield worker
    worker.kill()


@pytest.fixture
def celery_beat(worker_env: dict[str, str], tmp_path: Path) -> Iterator[CeleryProcess]:
    """Celery beat with the site's schedule (scheduler and sweeper every second here)."""
    beat = CeleryProcess.beat(worker_env, tmp_path / "beat.log", tmp_path / "beat-schedule")
    beat.start()
    yield beat
    beat.kill()
