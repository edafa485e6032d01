"""How fast the site plays and rates matches: matches per minute with one and with two Celery
workers (four house ``random`` bots, basic variant, one game per match, in the sandbox), with
the matches' files kept in the data folder and in an S3-compatible object store (moto's server
on 127.0.0.1, started here), the time each match's files took to write (the site's own
``nimmt_storage_write_seconds``), and the time to apply one match to a ladder's ratings.

Needs PostgreSQL and ``redis-server``. It empties nothing it did not make: by default it
creates a database of its own (``nimmt_bench_<random>``, dropped at the end) and starts a Redis
server of its own on a free port of 127.0.0.1 (stopped at the end); ``--database`` and
``--broker`` give it ones to use instead, which it empties first. It prints figures, asserting
nothing::

    python -m benchmarks.match_pipeline                 # from the project's root
    python -m benchmarks.match_pipeline --matches 40 --rated 500 --store folder
    python -m benchmarks.match_pipeline --broker redis://127.0.0.1:6379/9   # a db of yours

(``python benchmarks/match_pipeline.py`` works too.) ``NIMMT_BENCH_DATABASE_URL`` names the
PostgreSQL server it makes its database on (default ``postgres://postgres@127.0.0.1:5432/``).

``--warm 0,16`` (the default is ``0,8``) plays the same matches with each ``NIMMT_WARM_BOTS``
setting of the workers, one after the other in one run: 0 starts every bot process afresh, as
the site did before warm bots; ``--workers 1`` times one worker process only.

**Measured** 2026-12-06 on this 2-core machine under a load of about 17 (other engineers' tests
and builds), ``--store folder --workers 1 --warm 0,16 --matches 30 --rated 10``, one run: the
ladder's matches are 4-game duplicate matches of four house ``random`` bots (16 processes a
match: one per bot and seat rotation)

=============================================  ==================  ===========
one worker process, data folder                 matches per minute  ratio
=============================================  ==================  ===========
a new process per bot and rotation (warm 0)     9.3                 1.00x
warm bots (``NIMMT_WARM_BOTS=16``)              46.4                4.99x
=============================================  ==================  ===========

(30 matches each, all finished, no fault.) Earlier runs the same day: 49.0 against 9.8 (5.0x)
before a kept process's log was finished when it was kept, and 28.3 against 8.2 (3.45x) while
the kept processes' servers still stopped one after the other (each may wait 0.1 s). The
issue's figure for the site before, 17-18.7 matches a minute, was taken on a quieter machine.
"""

import argparse
import contextlib
import json
import os
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

REPO = Path(__file__).resolve().parent.parent
PLATFORM = REPO / "platform"
SERVER_URL = os.environ.get("NIMMT_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/")


def _configure(data_dir: Path, database_url: str, broker_url: str) -> dict[str, str]:
    """Set the site's environment for this process and return it for the workers."""
    env = {
        "NIMMT_DATABASE_URL": database_url,
        "NIMMT_BROKER_URL": broker_url,
        "NIMMT_DEBUG": "true",
        "NIMMT_DATA_DIR": str(data_dir / "data"),
        "NIMMT_VAR_DIR": str(data_dir / "var"),
        "NIMMT_LOG_LEVEL": "WARNING",
        "NIMMT_SCHEDULE_IN_FLIGHT": "0",  # no beat runs; nothing but these matches
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONPATH": os.pathsep.join([str(REPO), str(PLATFORM)]),
    }
    os.environ.update(env)
    for path in (str(REPO), str(PLATFORM)):
        if path not in sys.path:
            sys.path.insert(0, path)
    return dict(os.environ)


def _admin_url(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(scheme="postgresql", path="/postgres")), parts.path.lstrip("/")


@contextlib.contextmanager
def own_database(given: str | None) -> Iterator[str]:
    """``given``, or a database made here (a fresh name on ``SERVER_URL``'s server) and
    dropped at the end."""
    if given:
        yield given
        return
    import psycopg

    admin, _ = _admin_url(SERVER_URL)
    name = f"nimmt_bench_{secrets.token_hex(4)}"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(urlsplit(SERVER_URL)._replace(path=f"/{name}"))
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def own_broker(given: str | None, folder: Path) -> Iterator[str]:
    """``given``, or a ``redis-server`` started here on a free port (no persistence), stopped
    at the end."""
    if given:
        yield given
        return
    import socket

    import redis

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with (folder / "redis.log").open("ab") as out:
        server = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "",
             "--appendonly", "no", "--dir", str(folder)],
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        limit = time.monotonic() + 10
        while True:
            try:
                redis.Redis(port=port, socket_timeout=1).ping()
                break
            except redis.RedisError:
                if time.monotonic() > limit:
                    raise SystemExit("the benchmark's redis-server did not start") from None
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.kill()
        server.wait(timeout=10)


def _prepare() -> tuple[Any, list[Any]]:
    """A clean database with one (inactive) basic ladder and four house ``random`` bots."""
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("flush", interactive=False, verbosity=0)  # made here, or given to empty
    import redis
    from accounts.models import User
    from ladders.models import Ladder
    from submissions.models import Bot, BotVersion

    redis.Redis.from_url(os.environ["NIMMT_BROKER_URL"]).flushdb()  # made here, or given
    house = User.objects.create(username="house")
    bots = []
    for n in range(4):
        bot = Bot.objects.create(owner=house, name=f"random-{n}", is_house=True)
        bot.active_version = BotVersion.objects.create(
            bot=bot, number=1, status="passed", code_root="house", code_dir="random"
        )
        bot.save()
        bots.append(bot)
    ladder = Ladder.objects.create(
        slug="bench", name="Bench", variant="basic", players=4, is_active=False
    )
    return ladder, bots


def _worker(env: dict[str, str], log: Path, name: str) -> subprocess.Popen[bytes]:
    from core.celery import WORKERS

    queues = ",".join(WORKERS["matches"])
    argv = [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queues]
    argv += ["-c", "1", "-n", f"{name}@%h", "--without-gossip", "--without-mingle", "-l", "INFO"]
    with log.open("ab") as out:
        process = subprocess.Popen(
            argv,
            cwd=PLATFORM,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    limit = time.monotonic() + 120
    while "ready." not in log.read_text(errors="replace"):
        if process.poll() is not None or time.monotonic() > limit:
            raise SystemExit(f"the worker did not start:\n{log.read_text(errors='replace')}")
        time.sleep(0.2)
    return process


def _stop(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)


@contextlib.contextmanager
def object_store(logs: Path) -> Iterator[dict[str, str]]:
    """moto's S3 server on a free port of 127.0.0.1 with a bucket; the variables for it."""
    import socket
    import urllib.request

    import boto3

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with (logs / "moto.log").open("ab") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        url = f"http://127.0.0.1:{port}"
        limit = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(url, timeout=1).close()
                break
            except OSError:
                if time.monotonic() > limit or server.poll() is not None:
                    raise SystemExit("the object store did not start") from None
                time.sleep(0.2)
        env = {
            "NIMMT_S3_BUCKET": "bench",
            "NIMMT_S3_ENDPOINT_URL": url,
            "NIMMT_S3_ACCESS_KEY_ID": "bench",
            "NIMMT_S3_SECRET_ACCESS_KEY": "bench-secret",
        }
        boto3.client(
            "s3",
            endpoint_url=url,
            aws_access_key_id="bench",
            aws_secret_access_key="bench-secret",
            region_name="us-east-1",
        ).create_bucket(Bucket="bench")
        yield env
    finally:
        server.kill()
        server.wait(timeout=10)


def matches_per_minute(
    ladder: Any, bots: list[Any], env: dict[str, str], workers: int, count: int, logs: Path
) -> dict[str, Any]:
    """Start ``workers`` workers, then time ``count`` matches from creation to all finished."""
    from core.models import Tally
    from matches.models import Match
    from matches.tasks import queue_match

    Match.objects.all().delete()
    Tally.objects.all().delete()
    processes = [_worker(env, logs / f"worker-{workers}-{n}.log", f"w{n}") for n in range(workers)]
    try:
        started = time.monotonic()
        made = [queue_match(ladder, bots, seed=n) for n in range(count)]
        ids = [m.pk for m in made]
        while Match.objects.filter(pk__in=ids, status__in=["queued", "running"]).exists():
            if time.monotonic() - started > 30 * 60:
                raise SystemExit("gave up after 30 minutes")
            time.sleep(0.1)
        elapsed = time.monotonic() - started
    finally:
        for process in processes:
            _stop(process)
    finished = Match.objects.filter(pk__in=ids, status="finished")
    faults = sum(len(s.faults) for m in finished for s in m.seats.all())
    tallies = dict(
        Tally.objects.filter(name__startswith="nimmt_storage_write_seconds_")
        .exclude(name__endswith="_bucket")
        .values_list("name", "value")
    )
    written = tallies.get("nimmt_storage_write_seconds_count", 0)
    return {
        "store": "object store" if "NIMMT_S3_BUCKET" in env else "data folder",
        "storage_ms_per_match": round(
            1000 * tallies.get("nimmt_storage_write_seconds_sum", 0) / max(written, 1), 1
        ),
        "workers": workers,
        "matches": count,
        "finished": finished.count(),
        "seconds": round(elapsed, 2),
        "matches_per_minute": round(60 * count / elapsed, 1),
        "faults": faults,
    }


def rating_time(ladder: Any, bots: list[Any], count: int) -> dict[str, Any]:
    """Time to rate ``count`` finished matches one at a time (as ``rate_match`` does)."""
    import random

    from django.utils import timezone
    from ladders.models import Rating
    from ladders.services import rate_ladder
    from matches.models import Match, Seat
    from matches.scheduler import create_match

    Match.objects.all().delete()
    Rating.objects.all().delete()
    rng = random.Random(1)
    made = [create_match(ladder, bots, seed=n) for n in range(count)]
    times = []
    for match in made:
        ranks = list(range(1, 5))
        rng.shuffle(ranks)
        for seat in Seat.objects.filter(match=match):
            seat.rank = ranks[seat.seat]
            seat.save(update_fields=["rank"])
        Match.objects.filter(pk=match.pk).update(status="finished", finished_at=timezone.now())
        begin = time.perf_counter()
        rate_ladder(ladder.pk)
        times.append(time.perf_counter() - begin)
    return {
        "matches": count,
        "median_ms": round(1000 * statistics.median(times), 2),
        "p95_ms": round(1000 * sorted(times)[int(0.95 * (len(times) - 1))], 2),
        "mean_ms": round(1000 * statistics.fmean(times), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="Matches per minute and rating time of the site.")
    parser.add_argument("--matches", type=int, default=20, help="matches per worker setting")
    parser.add_argument("--rated", type=int, default=200, help="matches to rate")
    parser.add_argument("--skip-workers", action="store_true", help="only the rating figure")
    parser.add_argument(
        "--store",
        choices=("folder", "object", "both"),
        default="both",
        help="where the matches' files are kept: the data folder, an object store, or each",
    )
    parser.add_argument(
        "--warm",
        default="0,8",
        metavar="N,...",
        help="the workers' NIMMT_WARM_BOTS settings to compare (0: a new process per match)",
    )
    parser.add_argument("--workers", default="1,2", metavar="N,...", help="worker counts")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--database", metavar="URL", help="a PostgreSQL database to use and empty (default: "
        "one made for the run on NIMMT_BENCH_DATABASE_URL's server, dropped after it)"
    )  # fmt: skip
    parser.add_argument(
        "--broker", metavar="URL", help="a Redis database to use and empty (default: a "
        "redis-server started for the run)"
    )  # fmt: skip
    args = parser.parse_args()

    with (
        contextlib.ExitStack() as own,
        tempfile.TemporaryDirectory(prefix="nimmt-bench-") as scratch,
    ):
        folder = Path(scratch)
        folder.chmod(0o755)  # bots run as uids of their own and must reach their folders
        database = own.enter_context(own_database(args.database))
        broker = own.enter_context(own_broker(args.broker, folder))
        env = _configure(folder, database, broker)
        ladder, bots = _prepare()
        results: dict[str, Any] = {"throughput": [], "rating": None}
        if not args.skip_workers:
            from arena.sandbox import ensure_runtime

            ensure_runtime()  # build the bot runtime before the clock starts
            stores = {"folder": ["folder"], "object": ["object"]}.get(args.store)
            for store in stores or ["folder", "object"]:
                with contextlib.ExitStack() as stack:
                    run_env = dict(env)
                    if store == "object":
                        run_env |= stack.enter_context(object_store(folder))
                    for warm in [int(n) for n in args.warm.split(",")]:
                        for workers in [int(n) for n in args.workers.split(",")]:
                            warm_env = run_env | {"NIMMT_WARM_BOTS": str(warm)}
                            row = matches_per_minute(
                                ladder, bots, warm_env, workers, args.matches, folder
                            )
                            results["throughput"].append(row | {"warm": warm})
        results["rating"] = rating_time(ladder, bots, args.rated)

    if args.json:
        print(json.dumps(results, indent=2))
        return
    for row in results["throughput"]:
        print(
            f"{row['store']}, {row['workers']} worker(s), warm {row['warm']}: "
            f"{row['matches']} matches in "
            f"{row['seconds']} s = {row['matches_per_minute']} matches/min ({row['finished']} "
            f"finished, {row['faults']} faults); storage {row['storage_ms_per_match']} ms/match"
        )
    rating = results["rating"]
    print(
        f"rating: {rating['matches']} matches, {rating['median_ms']} ms median per match "
        f"(p95 {rating['p95_ms']} ms, mean {rating['mean_ms']} ms)"
    )


if __name__ == "__main__":
    main()
