"""How fast the site's busiest pages answer on a big league, and whether that depends on how
many matches it has played: 5,000 bots and 50,000, 500,000 and 2,000,000 matches.

Makes a PostgreSQL database per league size (dropped at the end unless ``--keep``; it refuses
to start if one of that name exists, another run's perhaps, and drops only the databases it
made), migrates it, fills it with COPY (users, bots, versions, five ladders, matches with their
seats, ratings with their trend lines, one rating change per seat, the head-to-head totals and
the pairs' shared games, as the rating and matchup tasks leave them), then serves each with its
own gunicorn on 127.0.0.1, all at once, and sends each page a bounded number of requests from a
pool of client threads. The sizes take turns block by block: a block is ``--batch`` requests to
each size, one size right after the other (the order reversed every other block),
``--requests // --batch`` blocks per page and round, so that whatever else slows the machine
for a moment slows every size alike. Prints p50/p95/max per page and size, and each size's p95
over the smallest size's with a 95% interval from a paired bootstrap over the blocks::

    python -m benchmarks.site_pages                    # from the project's root
    python -m benchmarks.site_pages --bots 500 --matches 20000 --requests 100   # a quick look
    python -m benchmarks.site_pages --matches 50000,500000 --rounds 3
    python -m benchmarks.site_pages --matches 50000,2000000 --pages matchup --reuse   # kept

Measured 2026-12-03 on this 2-core machine with nothing else running, 3 rounds of 200
requests per page and size in blocks of 20 (600 per page and size): p95 at 500,000 and at
2,000,000 matches over 50,000's, with its 95% interval, in two runs one after the other:

                     500,000: run 1    run 2             2,000,000: run 1  run 2
    home             1.03 [0.97-1.07]  1.06 [1.00-1.20]  0.97 [0.91-1.03]  1.05 [1.00-1.10]
    ladder, page 1   1.03 [0.92-1.19]  1.04 [0.93-1.11]  1.11 [0.97-1.26]  1.04 [0.93-1.15]
    pages 2-40       1.02 [0.95-1.09]  1.02 [0.97-1.08]  1.07 [0.97-1.16]  1.09 [0.99-1.19]
    bot              1.07 [1.01-1.14]  1.06 [1.01-1.13]  1.05 [1.00-1.17]  1.07 [1.00-1.11]
    match list       0.94 [0.88-1.03]  0.99 [0.90-1.06]  1.02 [0.95-1.08]  1.00 [0.92-1.06]
    ..., ladder      0.98 [0.92-1.07]  0.99 [0.95-1.05]  1.00 [0.92-1.10]  0.97 [0.92-1.09]
    ..., bot         1.01 [0.95-1.06]  1.06 [0.98-1.15]  0.99 [0.93-1.05]  1.01 [0.94-1.06]
    ..., day         1.00 [0.93-1.07]  1.02 [0.94-1.08]  0.98 [0.92-1.03]  1.00 [0.90-1.08]
    ..., deep page   0.99 [0.93-1.04]  1.06 [0.98-1.15]  1.02 [0.94-1.06]  0.99 [0.93-1.07]
    match            0.95 [0.89-1.02]  1.00 [0.93-1.07]  0.91 [0.85-0.97]  0.98 [0.89-1.07]

The p95s are 33-75 ms at every size; the medians 22-54 ms. The bot page's median is 4-5 ms
higher at the big sizes (48-49 ms against 52-54): its ten charts draw up to 48 points each,
and at 50,000 matches a bot has played only a few games on each ladder, so there is less to
draw; the ladder's trend lines (20 games) fill up alike. Both stop growing once a bot has
played that many games.

Before these runs, two findings:

- A bot's match list grew 1.07-1.18x from 50,000 matches in runs like these, and with the
  busy bots below, a busy bot's list at 2,000,000 had a p95 1.67x its 50,000 one. Its cost
  was the lists' filter that leaves out version-test matches: written as Django's
  ``version_test__isnull=True``, PostgreSQL could not plan it as an anti-join, expected
  hardly any match to pass, and so read all of a bot's matches and sorted them (48 ms for a
  bot of 3,351) instead of reading the newest by index (0.7 ms). For the same reason the lists
  by ladder and the deep page were *slower* at 50,000 (p50 41 and 60 ms against 25). They now
  use ``Match.objects.listed()`` (NOT EXISTS).
- At 50,000 matches an average bot had 38 matches, fewer than a page (50), so its list showed
  fewer rows than at the bigger sizes. The fill now makes a tenth of the bots busy (a seat in
  half the matches: 57 to 122 matches each at 50,000), and a bot's list is measured on the
  bots that have more than a page.

Sending the sizes one after the other, a whole size at a time, gave ratios that differed by
up to 1.4x from one run to the next: a page's p95 followed whatever else the machine was doing
in those minutes. The sizes share one PostgreSQL server and its buffers, so the small league
does not have them to itself here. A match's page does lookups by key, each a few tenths of a
millisecond slower in the 9 GB database than in the 0.3 GB one (PostgreSQL's default 128 MB of
shared buffers hold all of the small one). Four clients and four workers share two cores, so a
request waits for others.

The matchup page (``/bots/<a>/vs/<b>/``) was added on 2026-12-06 and measured once, 100
requests per size, on a machine loaded by test runs (every page's p95 was 0.4-1.5 s there, not
the figures above): its p95 at 500,000 over 50,000 was 1.23 [0.89-1.46], the other pages'
0.80-1.29. It was measured then on the 200 pairs that shared the most games, which at 50,000
matches were a few games each (a random pair of 5,000 bots meets about once in 40 leagues of
that size) and at the bigger sizes a full list and longer charts: the sizes did not show the
same page. The fill now seats two of ten rivals (``RIVALS``) at one table in a tenth of the
matches, so that 45 pairs share more than a page (50) of matches at every size (about 110 at
50,000, 4,400 at 2,000,000); "matchup" is measured on the pairs with more than a page, both
orders, and "matchup, heaviest pair" on the pair with the most. Its reads are bounded by
construction (``matchups.services``: the kinds' totals, ≤ 49 chart points a kind read by
their numbers, one page of shared games by key, each by an index).

Measured so on 2026-12-06 (``--matches 50000,2000000 --pages matchup --requests 100 --batch 10
--rounds 2``: 200 requests per page and size), on this machine loaded by other runs (load
average 13-20 on 2 cores, so the absolute times say nothing of the 100 ms goal): p95 at
2,000,000 over 50,000, with its 95% interval::

    matchup                  0.95 [0.79-1.08]   (p95 288 ms at 50,000, 275 ms at 2,000,000)
    matchup, heaviest pair   1.02 [0.97-1.12]   (308 ms, 315 ms; 144 and 4,627 shared games)

Within 1.15x, the interval too. ``EXPLAIN ANALYZE`` of the heaviest pair's page of shared
games reads 51 rows of ``pair_game_list`` and no sort (5.3 ms at 50,000 on a cold cache, 0.4 ms
at 2,000,000), its chart points ``pair_game_seq`` (0.1 and 2.7 ms for 10 and 27 points).
Filling the 2,000,000 league took 82 minutes there (57 of them making the rows in Python at
nice 10); its database is 14 GB.

(``python benchmarks/site_pages.py`` works too.) Settings: ``NIMMT_BENCH_PAGES_DATABASE_URL``
(default ``postgres://postgres@127.0.0.1:5432/nimmt_bench_pages``; each size adds ``_<size>``
to its name). The sites listen on free ports of 127.0.0.1 unless ``--ports 8301,8302,8303``
names one per size (smallest first). The goals: p95 < 100 ms, and p95 within 1.15x of the
smallest size's.
"""

import argparse
import contextlib
import datetime as dt
import http.client
import json
import math
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

REPO = Path(__file__).resolve().parent.parent
PLATFORM = REPO / "platform"
DATABASE_URL = os.environ.get(
    "NIMMT_BENCH_PAGES_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/nimmt_bench_pages"
)
LADDERS = [  # slug, name, variant, players
    ("basic-4", "Basic · 4", "basic", 4),
    ("basic-luck-4", "Basic + luck · 4", "basic+luck", 4),
    ("pro-3", "Pro · 3", "pro", 3),
    ("pro-luck-3", "Pro + luck · 3", "pro+luck", 3),
    ("classic-5", "Card game · 5", "classic", 5),
]
NULL = "\\N"  # COPY's text format
REPLAYS = '["game-00001.json"]'
BIG_TABLES = (
    "matches_match",
    "matches_seat",
    "ladders_ratingchange",
    "ladders_rating",
    "ladders_rival",
    "matchups_pairgame",
    "matchups_matchup",
    "matchups_recordedmatch",
)
TREND_GAMES = 20  # as ladders.models.TREND_GAMES
# A league's bots are not all alike busy: the first tenth (the house bots and the keen ones)
# take a seat in half the matches, so that each of them has more than a page of matches
# (``LIST_PAGE_SIZE``, 50) already at the smallest size, while the others have about 33
# matches at 50,000 matches.
BUSY_SHARE = 0.5
# Some pairs meet far more often than chance would seat them (the house bots, which the
# ladders pair with each other too; rivals of one team): two of the first ``RIVALS`` bots sit
# at the same table in ``RIVAL_SHARE`` of the matches, so that each of their 45 pairs shares
# more than a page of matches (``matchups.services.PAGE_SIZE``, 50) at every size (about 110
# at 50,000, 4,400 at 2,000,000) and the matchup page is measured on full pages and long
# histories, not on the few games a pair of the others shares.
RIVALS = 10
RIVAL_SHARE = 0.1
LIST_PAGE = 50  # as matches.views.LIST_PAGE_SIZE
MATCHUP_PAGE = 50  # as matchups.services.PAGE_SIZE
CHART_POINTS = 24  # as ladders.services.CHART_POINTS


# ---------------------------------------------------------------------------- database


def database_for(matches: int) -> str:
    """The URL of the database of the league with ``matches`` matches."""
    parts = urlsplit(DATABASE_URL)
    return urlunsplit(parts._replace(path=f"{parts.path}_{matches}"))


def _admin_url(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    return urlunsplit(parts._replace(scheme="postgresql", path="/postgres")), name


def _libpq_url(url: str) -> str:
    return urlunsplit(urlsplit(url)._replace(scheme="postgresql"))


class DatabaseExists(SystemExit):
    """The benchmark's database is there already: someone else's, or one a run kept."""


def create_database(url: str) -> None:
    """Make the database of ``url``; refuse one that exists (it may be another run's, which
    this one must not empty or drop): measure it with ``--reuse``, or drop it yourself."""
    import psycopg

    admin, name = _admin_url(url)
    with psycopg.connect(admin, autocommit=True) as connection:
        try:
            connection.execute(f'CREATE DATABASE "{name}"')
        except psycopg.errors.DuplicateDatabase:
            raise DatabaseExists(
                f"database {name} exists already (another run's, or one kept with --keep): "
                "measure it with --reuse, name another with NIMMT_BENCH_PAGES_DATABASE_URL, "
                "or drop it yourself"
            ) from None


def database_exists(url: str) -> bool:
    import psycopg

    admin, name = _admin_url(url)
    with psycopg.connect(admin, autocommit=True) as connection:
        found = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        return found.fetchone() is not None


def drop_database(url: str) -> None:
    import psycopg

    admin, name = _admin_url(url)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def site_env(data_dir: Path, url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "NIMMT_DATABASE_URL": url,
            "NIMMT_DATABASE_CONN_MAX_AGE": "600",  # workers keep their connection
            "NIMMT_DEBUG": "false",
            "NIMMT_SECRET_KEY": "benchmark-only-secret-key-0123456789-abcdefghijklmnop",
            "NIMMT_ALLOWED_HOSTS": "127.0.0.1",
            "NIMMT_SSL_REDIRECT": "false",
            "NIMMT_SECURE_COOKIES": "false",
            "NIMMT_HSTS_SECONDS": "0",
            "NIMMT_DATA_DIR": str(data_dir / "data"),
            "NIMMT_VAR_DIR": str(data_dir / "var"),
            "NIMMT_STATIC_ROOT": str(data_dir / "static"),
            "NIMMT_LOG_LEVEL": "WARNING",
            "NIMMT_BROKER_URL": "redis://127.0.0.1:6379/15",  # never used: nothing is queued
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "PYTHONPATH": os.pathsep.join([str(REPO), str(PLATFORM)]),
        }
    )
    (data_dir / "static").mkdir(parents=True, exist_ok=True)
    return env


def migrate(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=PLATFORM,
        env=env,
        check=True,
    )


def vacuum(url: str) -> None:
    """``VACUUM (ANALYZE)`` the big tables: a migration that rewrote them (a new column filled
    on every seat) leaves every row dead once and the planner without the column's statistics,
    which a served database's autovacuum soon mends; measured before it, a page's plan and
    time are the migration's, not the page's."""
    import psycopg

    with psycopg.connect(_libpq_url(url), autocommit=True) as connection:
        for table in BIG_TABLES:
            connection.execute(f"VACUUM (ANALYZE) {table}")


# ---------------------------------------------------------------------------- the fill


def _ts(moment: dt.datetime) -> str:
    return moment.isoformat(sep=" ")


@dataclass
class Fill:
    """Rows of the league, written to PostgreSQL with COPY, table by table."""

    url: str
    bots: int
    matches: int
    seed: int = 1
    timings: dict[str, float] = field(default_factory=dict)

    def run(self) -> None:
        import psycopg

        rng = random.Random(self.seed)
        began = time.perf_counter()
        with psycopg.connect(_libpq_url(self.url)) as connection:
            with connection.cursor() as cursor:
                # A bulk load: the rows are consistent by construction, so the foreign-key
                # triggers are skipped, and the big tables' indexes are built once, after.
                cursor.execute("SET session_replication_role = replica")
                cursor.execute("SET maintenance_work_mem = '1GB'")  # the index builds
                indexes = self._drop_indexes(cursor, BIG_TABLES)
                self._people_and_bots(cursor, rng)
                ladder_ids = self._ladders(cursor)
                self._matches(cursor, rng, ladder_ids)
                self._rivals(cursor)
                self._matchups(cursor)
                started = time.perf_counter()
                for statement in indexes:
                    cursor.execute(statement)
                self.timings["indexes"] = time.perf_counter() - started
            connection.commit()
            started = time.perf_counter()
            with connection.cursor() as cursor:
                for table in (
                    "accounts_user",
                    "submissions_bot",
                    "submissions_botversion",
                    "ladders_rating",
                    "ladders_ratingchange",
                    "ladders_rival",
                    "matchups_pairgame",
                    "matchups_matchup",
                    "matches_match",
                    "matches_seat",
                ):
                    cursor.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                        f"(SELECT MAX(id) FROM {table}))"
                    )
            connection.commit()
            connection.autocommit = True
            connection.execute("VACUUM ANALYZE")
            self.timings["analyze"] = time.perf_counter() - started
        # What is not COPY, indexes or analyze: making the rows in Python.
        self.timings = {
            "generate": time.perf_counter() - began - sum(self.timings.values()),
            **self.timings,
        }

    def _drop_indexes(self, cursor: Any, tables: tuple[str, ...]) -> list[str]:
        """Drop the indexes of ``tables`` but their primary keys (unique constraints too: a
        unique index built once is far faster than one grown row by row); the statements
        that make them again."""
        cursor.execute(
            "SELECT i.indexname, i.indexdef FROM pg_indexes i WHERE i.tablename = ANY(%s) "
            "AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)",
            [list(tables)],
        )
        found = cursor.fetchall()
        for name, _definition in found:
            cursor.execute(f'DROP INDEX "{name}"')
        cursor.execute(
            "SELECT c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid) "
            "FROM pg_constraint c WHERE c.contype = 'u' AND c.conrelid::regclass::text = ANY(%s)",
            [list(tables)],
        )
        unique = cursor.fetchall()
        for table, name, _definition in unique:
            cursor.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
        return [definition for _name, definition in found] + [
            f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}'
            for table, name, definition in unique
        ]

    @contextlib.contextmanager
    def _copy(self, cursor: Any, table: str, columns: str) -> Iterator[Callable[[str], object]]:
        """A writer of TSV lines into ``table``, sent with COPY when the block ends.

        Lines go to a scratch file first: one connection runs one COPY at a time, and the
        matches, seats and rating changes are made together, in time order.
        """
        with tempfile.TemporaryFile("w+", encoding="utf-8") as scratch:
            yield scratch.write
            started = time.perf_counter()
            scratch.seek(0)
            with cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                while chunk := scratch.read(1 << 22):
                    copy.write(chunk)
        self.timings[table] = self.timings.get(table, 0.0) + time.perf_counter() - started

    def _people_and_bots(self, cursor: Any, rng: random.Random) -> None:
        now = _ts(dt.datetime.now(dt.UTC))
        owners = max(1, self.bots // 5)
        with self._copy(
            cursor,
            "accounts_user",
            "id, password, is_superuser, username, first_name, last_name, email, is_staff, "
            "is_active, date_joined, uuid",
        ) as write:
            for n in range(1, owners + 1):
                write(f"{n}\t!\tf\tuser{n}\t\t\t\tf\tt\t{now}\t{uuid.uuid4()}\n")
        self.owner_of = [1 + rng.randrange(owners) for _ in range(self.bots)]
        with self._copy(
            cursor,
            "submissions_bot",
            "id, uuid, name, is_house, created_at, pause_reason, owner_id, plays_people",
        ) as write:
            for n in range(1, self.bots + 1):
                owner = self.owner_of[n - 1]
                write(f"{n}\t{uuid.uuid4()}\tbot-{n:05d}\tf\t{now}\t\t{owner}\tf\n")
        with self._copy(
            cursor,
            "submissions_botversion",
            "id, attempts, queued_at, uuid, number, status, validation_log, upload_name, "
            "upload_size, upload_sha256, code_root, code_dir, code_sha256, manifest, "
            "activate_when_passed, created_at, validated_at, bot_id, build_dir, build_sha256",
        ) as write:
            for n in range(1, self.bots + 1):
                write(
                    f"{n}\t1\t{now}\t{uuid.uuid4()}\t1\tpassed\tPASSED\tbot.zip\t1000\t\t"
                    f"data\tbots/{n}\t{n:064x}\t{{}}\tt\t{now}\t{now}\t{n}\t\t\n"
                )
        cursor.execute("UPDATE submissions_bot SET active_version_id = id")

    def _ladders(self, cursor: Any) -> list[tuple[int, str, int]]:
        now = dt.datetime.now(dt.UTC)
        found = []
        for slug, name, variant, players in LADDERS:
            cursor.execute(
                "INSERT INTO ladders_ladder (uuid, slug, name, variant, players, is_active, "
                "duplicate, created_at) VALUES (%s, %s, %s, %s, %s, true, true, %s) RETURNING id",
                [uuid.uuid4(), slug, name, variant, players, now],
            )
            found.append((cursor.fetchone()[0], variant, players))
        return found

    def _matches(
        self, cursor: Any, rng: random.Random, ladders: list[tuple[int, str, int]]
    ) -> None:
        """Matches in time order over 180 days, each with its seats and rating changes."""
        start = dt.datetime.now(dt.UTC) - dt.timedelta(days=180)
        step = dt.timedelta(days=180) / max(1, self.matches)
        # (ladder, bot) -> [id, elo, games, Margin trend, Elo trend, Margin chart, Elo chart]
        ratings: dict[tuple[int, int], list[Any]] = {}
        next_rating = 1
        seat_id = change_id = 1
        bot_ids = range(1, self.bots + 1)
        busy = bot_ids[: max(1, self.bots // 10)]
        rivals = bot_ids[: max(2, min(RIVALS, self.bots))]
        with (
            self._copy(
                cursor,
                "matches_match",
                "id, attempts, queued_at, uuid, variant, players, games, seed, status, "
                "created_at, started_at, finished_at, error, result_dir, replays, rated, "
                "rated_at, ladder_id, round, duplicate",
            ) as match_row,
            self._copy(
                cursor,
                "matches_seat",
                "id, seat, score, rank, faults, log_file, bot_id, match_id, version_id, "
                "deal_scores, match_created_at",
            ) as seat_row,
            self._copy(
                cursor,
                "ladders_ratingchange",
                "id, rank, elo_before, elo_after, mu_before, mu_after, sigma_before, "
                "sigma_after, games_after, created_at, match_id, rating_id, margin_mu_before, "
                "margin_mu_after, margin_sigma_before, margin_sigma_after",
            ) as change_row,
        ):
            for match_id in range(1, self.matches + 1):
                ladder_id, variant, players = ladders[match_id % len(ladders)]
                created = start + step * match_id
                finished = created + dt.timedelta(seconds=40)
                c, f = _ts(created), _ts(finished)
                live = match_id > self.matches - 40  # the newest few are still being played
                status = "running" if live else "finished"
                done, replays, rated = (NULL, "[]", "f") if live else (f, REPLAYS, "t")
                match_row(
                    f"{match_id}\t1\t{c}\t{uuid.uuid4()}\t{variant}\t{players}\t1\t"
                    f"{rng.randrange(2**31)}\t{status}\t{c}\t{c}\t{done}\t\t"
                    f"matches/{match_id}\t{replays}\t{rated}\t{done}\t{ladder_id}\t0\tf\n"
                )
                lineup = rng.sample(bot_ids, players)
                if rng.random() < BUSY_SHARE:  # a seat for one of the busy bots
                    keen = rng.choice(busy)
                    if keen not in lineup:
                        lineup[rng.randrange(players)] = keen
                if rng.random() < RIVAL_SHARE:  # two rivals at one table
                    pair = rng.sample(rivals, 2)
                    lineup = [b for b in lineup if b not in pair][: players - 2] + pair
                    rng.shuffle(lineup)
                if variant == "classic":  # a penalty: lower is better
                    scores = [rng.randrange(0, 40) for _ in lineup]
                    order = sorted(scores)
                else:
                    scores = [rng.randrange(-30, 45) for _ in lineup]
                    order = sorted(scores, reverse=True)
                ranks = [1 + order.index(s) for s in scores]
                for seat, (bot, score, rank) in enumerate(zip(lineup, scores, ranks, strict=True)):
                    if live:
                        seat_row(
                            f"{seat_id}\t{seat}\t{NULL}\t{NULL}\t[]\t\t{bot}\t{match_id}\t{bot}"
                            f"\t[]\t{c}\n"
                        )
                        seat_id += 1
                        continue
                    seat_row(
                        f"{seat_id}\t{seat}\t{score}\t{rank}\t[]\tlogs/bot-{bot}.log\t"
                        f"{bot}\t{match_id}\t{bot}\t[{score}]\t{c}\n"
                    )
                    seat_id += 1
                    rating = ratings.get((ladder_id, bot))
                    if rating is None:
                        rating = ratings[ladder_id, bot] = [next_rating, 1500.0, 0, [], [], [], []]
                        next_rating += 1
                    before = rating[1]
                    after = round(before + (players + 1 - 2 * rank) * 4.0 + rng.uniform(-2, 2), 3)
                    games = rating[2] + 1
                    rating[1], rating[2] = after, games
                    # Margin (points per game) of Elo's order, its ± narrowing with the games.
                    m_before, m_after = _margin(before), _margin(after)
                    s_before, s_after = _margin_sigma(games - 1), _margin_sigma(games)
                    for trend, old, new in (
                        (rating[3], m_before, m_after),
                        (rating[4], before, after),
                    ):
                        if not trend:
                            trend.append(old)
                        trend.append(new)
                        if len(trend) > TREND_GAMES + 1:
                            del trend[0]
                    rating[5] = _extend_chart(
                        rating[5], [games - 1, m_before, s_before], [games, m_after, s_after]
                    )
                    rating[6] = _extend_chart(
                        rating[6],
                        [games - 1, before, _elo_band(games - 1)],
                        [games, after, _elo_band(games)],
                    )
                    change_row(
                        f"{change_id}\t{rank}\t{before}\t{after}\t25\t25\t8.3\t8.3\t"
                        f"{games}\t{f}\t{match_id}\t{rating[0]}\t{m_before}\t{m_after}\t"
                        f"{s_before}\t{s_after}\n"
                    )
                    change_id += 1
            # The ratings must exist before the changes that point at them are checked, at
            # commit (Django's foreign keys are deferred).
            now = _ts(dt.datetime.now(dt.UTC))
            with self._copy(
                cursor,
                "ladders_rating",
                "id, elo, mu, sigma, games, updated_at, bot_id, ladder_id, margin_mu, "
                "margin_sigma, margin, margin_trend, elo_trend, margin_chart, elo_chart",
            ) as rating_row:
                for (ladder_id, bot), row in ratings.items():
                    rating_id, elo, games, margins, elos, margin_chart, elo_chart = row
                    margin, sigma = _margin(elo), _margin_sigma(games)
                    rating_row(
                        f"{rating_id}\t{elo}\t25\t8.3\t{games}\t{now}\t{bot}\t{ladder_id}"
                        f"\t{margin}\t{sigma}\t{round(margin - 2 * sigma, 3)}\t"
                        f"{json.dumps(margins)}\t{json.dumps(elos)}\t"
                        f"{json.dumps(margin_chart)}\t{json.dumps(elo_chart)}\n"
                    )
        self.seats = seat_id - 1
        self.changes = change_id - 1

    def _rivals(self, cursor: Any) -> None:
        """The head-to-head totals, from the seats (as ``ladders.services.rebuild_rivals``)."""
        started = time.perf_counter()
        cursor.execute("SET LOCAL work_mem = '256MB'")
        cursor.execute(
            """
            INSERT INTO ladders_rival (bot_id, ladder_id, opponent_id, games, wins, draws,
                                       losses, total, squares)
            SELECT a.bot_id, m.ladder_id, b.bot_id, COUNT(*),
                   SUM(CASE WHEN a.rank < b.rank THEN 1 ELSE 0 END),
                   SUM(CASE WHEN a.rank = b.rank THEN 1 ELSE 0 END),
                   SUM(CASE WHEN a.rank > b.rank THEN 1 ELSE 0 END),
                   SUM(a.score - b.score), SUM((a.score - b.score) * (a.score - b.score))
            FROM matches_seat a
            JOIN matches_seat b ON b.match_id = a.match_id AND b.seat <> a.seat
            JOIN matches_match m ON m.id = a.match_id
            WHERE m.ladder_id IS NOT NULL AND m.status = 'finished' AND m.rated
              AND a.rank IS NOT NULL AND b.rank IS NOT NULL
            GROUP BY a.bot_id, m.ladder_id, b.bot_id
            """
        )
        self.timings["ladders_rival"] = time.perf_counter() - started

    def _matchups(self, cursor: Any) -> None:
        """The pairs' shared games and totals, as ``matchups.services.record`` leaves them after
        recording every finished match in finishing order (one deal a match here, the card
        game's penalty points negated)."""
        started = time.perf_counter()
        cursor.execute("SET LOCAL work_mem = '256MB'")
        cursor.execute(
            """
            INSERT INTO matchups_pairgame (bot_id, opponent_id, match_id, match_created_at,
                variant, players, rated, bot_score, opponent_score, bot_rank, opponent_rank,
                deals, edge, seq, sum_deals, sum_total, sum_squares)
            SELECT p.bot_id, p.opponent_id, p.match_id, p.created_at, p.variant, p.players,
                   p.rated, p.bot_score, p.opponent_score, p.bot_rank, p.opponent_rank, 1, p.edge,
                   ROW_NUMBER() OVER w, ROW_NUMBER() OVER w, SUM(p.edge) OVER w,
                   SUM(p.edge * p.edge) OVER w
            FROM (
                SELECT a.bot_id, b.bot_id AS opponent_id, m.id AS match_id, m.created_at,
                       m.finished_at, m.variant, m.players, m.ladder_id IS NOT NULL AS rated,
                       a.score AS bot_score, b.score AS opponent_score, a.rank AS bot_rank,
                       b.rank AS opponent_rank,
                       (CASE WHEN m.variant = 'classic' THEN -1 ELSE 1 END)
                           * (a.score - b.score)::float AS edge
                FROM matches_seat a
                JOIN matches_seat b ON b.match_id = a.match_id AND b.bot_id > a.bot_id
                JOIN matches_match m ON m.id = a.match_id
                WHERE m.status = 'finished'
            ) p
            WINDOW w AS (PARTITION BY p.bot_id, p.opponent_id, p.variant, p.players, p.rated
                         ORDER BY p.finished_at, p.match_id)
            """
        )
        cursor.execute(
            """
            INSERT INTO matchups_matchup (bot_id, opponent_id, variant, players, rated, games,
                deals, total, squares, wins, draws, losses, last_played_at)
            SELECT bot_id, opponent_id, variant, players, rated, COUNT(*), COUNT(*), SUM(edge),
                   SUM(edge * edge), SUM(CASE WHEN bot_rank < opponent_rank THEN 1 ELSE 0 END),
                   SUM(CASE WHEN bot_rank = opponent_rank THEN 1 ELSE 0 END),
                   SUM(CASE WHEN bot_rank > opponent_rank THEN 1 ELSE 0 END),
                   MAX(match_created_at)
            FROM matchups_pairgame GROUP BY bot_id, opponent_id, variant, players, rated
            """
        )
        cursor.execute(
            "INSERT INTO matchups_recordedmatch (match_id) "
            "SELECT id FROM matches_match WHERE status = 'finished'"
        )
        self.timings["matchups"] = time.perf_counter() - started


def _margin(elo: float) -> float:
    return round((elo - 1500.0) / 40.0, 3)  # points per game, of Elo's order


def _extend_chart(chart: list[Any], before: list[Any], after: list[Any]) -> list[Any]:
    """A chart's points after one more game, as ``ladders.services.extend_chart``."""
    points = chart or [before]
    stride = int(points[1][0] - points[0][0]) if len(points) > 1 else 1
    if int(points[-1][0]) % stride:
        points.pop()
    points.append(after)
    if len(points) > 2 * CHART_POINTS and not int(after[0]) % stride:
        points = points[::2]
    return points


def _elo_band(games: int) -> float:
    """About Elo's ± after ``games`` games (the site's estimate from the games count)."""
    return round(347 / math.sqrt(max(1, games)), 3)


def _margin_sigma(games: int) -> float:
    return round(max(1.0, 8.0 / math.sqrt(1.0 + games)), 3)


# ---------------------------------------------------------------------------- the load


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def gunicorn(
    env: dict[str, str], workers: int, log: Path, port: int | None = None
) -> Iterator[int]:
    """The site served by gunicorn (sync workers) on 127.0.0.1 (``port``, or a free one): its
    port."""
    with gunicorn_process(env, workers, log, port=port) as (port, _process):
        yield port


@contextlib.contextmanager
def gunicorn_process(
    env: dict[str, str],
    workers: int,
    log: Path,
    options: tuple[str, ...] = (),
    port: int | None = None,
) -> Iterator[tuple[int, "subprocess.Popen[bytes]"]]:
    """gunicorn serving the site on 127.0.0.1 (``port``, or a free one) with more ``options``:
    its port and process."""
    port = port or free_port()
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "config.wsgi",
                *options,
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                str(workers),
                "--access-logfile",
                "-",
                "--log-level",
                "warning",
            ],
            cwd=PLATFORM,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        limit = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            if process.poll() is not None or time.monotonic() > limit:
                raise RuntimeError(f"gunicorn did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.2)
        yield port, process
    finally:
        process.terminate()
        process.wait(timeout=30)


@dataclass
class Page:
    name: str
    paths: Callable[[random.Random], str]


def pages(url: str) -> list[Page]:
    """The pages to measure, each a generator of paths (a random bot, ladder page...)."""
    import psycopg

    with psycopg.connect(_libpq_url(url)) as connection:
        ladders = [str(row[0]) for row in connection.execute("SELECT uuid FROM ladders_ladder")]
        bots = connection.execute("SELECT uuid, name FROM submissions_bot").fetchall()
        # A bot's match list is measured on full pages: a bot with fewer matches than a page
        # lists fewer rows, which is cheaper however big the league is.
        full = [
            row[0]
            for row in connection.execute(
                "SELECT b.name FROM submissions_bot b WHERE (SELECT COUNT(*) FROM "
                "(SELECT 1 FROM matches_seat s WHERE s.bot_id = b.id LIMIT %s) f) > %s",
                [LIST_PAGE + 1, LIST_PAGE],
            )
        ]
        # The matchup page on pairs with more than a page of shared games (the rivals'),
        # most games first: a full list, every kind, long charts, however big the league. A
        # pair with fewer lists fewer rows, which is cheaper however big the league is.
        pairs = connection.execute(
            "SELECT a.uuid, b.uuid, t.games FROM (SELECT bot_id, opponent_id, "
            "SUM(games) AS games FROM matchups_matchup GROUP BY bot_id, opponent_id "
            "HAVING SUM(games) > %s ORDER BY games DESC LIMIT 200) t "
            "JOIN submissions_bot a ON a.id = t.bot_id "
            "JOIN submissions_bot b ON b.id = t.opponent_id ORDER BY t.games DESC",
            [MATCHUP_PAGE],
        ).fetchall()
        middle = connection.execute(
            "SELECT uuid, created_at FROM matches_match ORDER BY id OFFSET "
            "(SELECT COUNT(*) / 2 FROM matches_match) LIMIT 1"
        ).fetchone()
        matches = [
            str(row[0])
            for row in connection.execute(
                "SELECT uuid FROM matches_match WHERE status = 'finished' "
                "ORDER BY random() LIMIT 500"
            )
        ]
    assert middle is not None
    if not full:
        raise SystemExit(f"no bot has more than {LIST_PAGE} matches: fill a bigger league")
    if not pairs:
        raise SystemExit(f"no pair shares more than {MATCHUP_PAGE} matches: fill a bigger league")
    heaviest = pairs[0]
    day = middle[1].date().isoformat()
    return [
        Page("home", lambda rng: "/"),
        Page("ladder, page 1", lambda rng: f"/ladders/{rng.choice(ladders)}/"),
        Page(
            "ladder, page 2-40",
            lambda rng: f"/ladders/{rng.choice(ladders)}/?page={rng.randrange(2, 41)}",
        ),
        Page("bot", lambda rng: f"/bots/{rng.choice(bots)[0]}/"),
        Page("match list", lambda rng: "/matches/"),
        Page("match list, ladder", lambda rng: f"/matches/?ladder={rng.choice(ladders)}"),
        Page("match list, bot", lambda rng: f"/matches/?bot={rng.choice(full)}"),
        Page("match list, day", lambda rng: f"/matches/?day={day}"),
        Page("match list, deep page", lambda rng: f"/matches/?before={middle[0]}"),
        Page("match", lambda rng: f"/matches/{rng.choice(matches)}/"),
        Page(
            "matchup",
            lambda rng: "/bots/{}/vs/{}/".format(*rng.choice(pairs)[:2][:: rng.choice((1, -1))]),
        ),
        Page(
            "matchup, heaviest pair",
            lambda rng: "/bots/{}/vs/{}/".format(*heaviest[:2][:: rng.choice((1, -1))]),
        ),
    ]


def measure(
    port: int, page: Page, requests: int, clients: int, seed: int
) -> tuple[list[float], int]:
    """Milliseconds per request of ``requests`` sent by ``clients`` threads (keep-alive)."""
    local = threading.local()
    rng_lock = threading.Lock()
    rng = random.Random(seed)
    errors = 0

    def one(_: int) -> float:
        nonlocal errors
        with rng_lock:
            path = page.paths(rng)
        if not hasattr(local, "connection"):
            local.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        started = time.perf_counter()
        try:
            local.connection.request("GET", path, headers={"Host": "127.0.0.1"})
            response = local.connection.getresponse()
            response.read()
            if response.status != 200:
                errors += 1
        except (OSError, http.client.HTTPException):
            errors += 1
            local.connection.close()
            del local.connection
        return (time.perf_counter() - started) * 1000

    with ThreadPoolExecutor(max_workers=clients) as pool:
        times = list(pool.map(one, range(requests)))
    return times, errors


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(part.replace("_", "")) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of match counts: {text!r}") from None
    if not sizes or min(sizes) < 100:
        raise argparse.ArgumentTypeError("each league needs at least 100 matches")
    return sorted(set(sizes))


def _ports(text: str) -> list[int]:
    """``8301,8302``: ports of 127.0.0.1, in the order of the league sizes (smallest first).

    >>> _ports("8301,8302")
    [8301, 8302]
    """
    try:
        ports = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of ports: {text!r}") from None
    if not all(1024 <= port <= 65535 for port in ports) or len(set(ports)) != len(ports):
        raise argparse.ArgumentTypeError(f"ports must differ and lie in 1024-65535: {text!r}")
    return ports


def _figures(times: list[float], errors: int) -> dict[str, float]:
    return {
        "p50_ms": round(statistics.median(times), 1),
        "p95_ms": round(percentile(times, 0.95), 1),
        "max_ms": round(max(times), 1),
        "errors": errors,
    }


@dataclass
class Blocks:
    """One page's requests at every size, in blocks: block ``i`` holds one batch per size,
    sent one right after the other, so that whatever else slows the machine during block ``i``
    slows every size alike."""

    sizes: list[int]
    times: list[dict[int, list[float]]] = field(default_factory=list)
    errors: dict[int, int] = field(default_factory=dict)

    def pooled(self, size: int, blocks: list[int] | None = None) -> list[float]:
        chosen = range(len(self.times)) if blocks is None else blocks
        return [t for i in chosen for t in self.times[i][size]]

    def ratio(self, size: int, base: int, resamples: int = 2000) -> tuple[float, float, float]:
        """p95 at ``size`` over p95 at ``base``, with a 95% interval from a paired block
        bootstrap (the blocks drawn with replacement, the same blocks for both sizes)."""
        point = percentile(self.pooled(size), 0.95) / percentile(self.pooled(base), 0.95)
        rng = random.Random(0)
        n = len(self.times)
        ratios = []
        for _ in range(resamples):
            drawn = [rng.randrange(n) for _ in range(n)]
            ratios.append(
                percentile(self.pooled(size, drawn), 0.95)
                / percentile(self.pooled(base, drawn), 0.95)
            )
        return point, percentile(ratios, 0.025), percentile(ratios, 0.975)


def measure_interleaved(
    ports: dict[int, int],
    paths: dict[int, Page],
    blocks: Blocks,
    count: int,
    batch: int,
    clients: int,
    seed: int,
) -> None:
    """``count`` blocks of ``batch`` requests per size for one page, the sizes' order reversed
    every other block."""
    sizes = blocks.sizes
    for number in range(count):
        block: dict[int, list[float]] = {}
        for size in sizes if number % 2 == 0 else sizes[::-1]:
            took, failed = measure(
                ports[size], paths[size], batch, clients, seed=seed * 100_003 + number
            )
            block[size] = took
            blocks.errors[size] = blocks.errors.get(size, 0) + failed
        blocks.times.append(block)


def main() -> None:
    parser = argparse.ArgumentParser(description="Latency of the site's pages on a big league.")
    parser.add_argument("--bots", type=int, default=5_000)
    parser.add_argument(
        "--matches",
        type=_sizes,
        default=[50_000, 500_000, 2_000_000],
        help="league sizes, comma-separated (default 50000,500000,2000000)",
    )
    parser.add_argument("--requests", type=int, default=200, help="per page, size and round")
    parser.add_argument("--batch", type=int, default=20, help="requests per size in a block")
    parser.add_argument("--rounds", type=int, default=2, help="passes over every page")
    parser.add_argument("--clients", type=int, default=4, help="concurrent client threads")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers per size")
    parser.add_argument("--keep", action="store_true", help="keep the databases afterwards")
    parser.add_argument(
        "--reuse", action="store_true", help="measure the databases kept before (migrated)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--pages",
        type=lambda text: [part.strip() for part in text.split(",") if part.strip()],
        default=[],
        help="measure only the pages whose names start with these, comma-separated "
        "(e.g. 'matchup'; default: every page)",
    )
    parser.add_argument(
        "--ports",
        type=_ports,
        default=None,
        help="the 127.0.0.1 ports of the sites, one per league size, comma-separated "
        "(default: free ones)",
    )
    args = parser.parse_args()
    sizes: list[int] = args.matches
    if args.ports is not None and len(args.ports) != len(sizes):
        parser.error(f"--ports needs {len(sizes)} ports, one per league size")
    chosen: dict[int, int | None] = dict(zip(sizes, args.ports or [None] * len(sizes), strict=True))
    batch = max(1, min(args.batch, args.requests))
    count = max(1, args.requests // batch)

    with tempfile.TemporaryDirectory(prefix="nimmt-bench-pages-") as folder:
        envs = {size: site_env(Path(folder) / str(size), database_for(size)) for size in sizes}
        measured: dict[str, Blocks] = {}
        made: list[str] = []  # the databases this run made: the only ones it drops
        try:
            for size in sizes:
                if args.reuse and database_exists(database_for(size)):
                    migrate(envs[size])  # what was added since
                    vacuum(database_for(size))  # as autovacuum leaves a served database
                    continue
                fill = Fill(database_for(size), args.bots, size)
                started = time.perf_counter()
                create_database(fill.url)
                made.append(fill.url)
                migrate(envs[size])
                fill.run()
                print(
                    f"filled {args.bots} bots, {size} matches, {fill.seats} seats, "
                    f"{fill.changes} rating changes in {time.perf_counter() - started:.0f} s "
                    f"({', '.join(f'{k} {v:.0f} s' for k, v in fill.timings.items())})",
                    flush=True,
                )
            page_sets = {size: pages(database_for(size)) for size in sizes}
            names = [
                page.name
                for page in page_sets[sizes[0]]
                if not args.pages or any(page.name.startswith(p) for p in args.pages)
            ]
            if not names:
                parser.error(f"no page's name starts with {', '.join(args.pages)}")
            with contextlib.ExitStack() as servers:
                ports = {
                    size: servers.enter_context(
                        gunicorn(
                            envs[size],
                            args.workers,
                            Path(folder) / f"gunicorn-{size}.log",
                            chosen[size],
                        )
                    )
                    for size in sizes
                }
                for turn in range(args.rounds):
                    for index, name in enumerate(names):
                        paths = {
                            size: next(p for p in page_sets[size] if p.name == name)
                            for size in sizes
                        }
                        for size in sizes:  # every worker's first requests of the page
                            measure(ports[size], paths[size], max(10, batch), args.clients, 0)
                        blocks = measured.setdefault(name, Blocks(sizes))
                        seed = 1 + turn * len(names) + index
                        measure_interleaved(ports, paths, blocks, count, batch, args.clients, seed)
                    print(f"round {turn + 1} of {args.rounds} measured", flush=True)
        finally:
            if not args.keep:
                for url in made:
                    drop_database(url)
    first = sizes[0]
    results: dict[str, dict[str, dict[str, Any]]] = {}
    for size in sizes:
        results[str(size)] = {}
        for name, blocks in measured.items():
            row: dict[str, Any] = _figures(blocks.pooled(size), blocks.errors.get(size, 0))
            if size != first:
                ratio, low, high = blocks.ratio(size, first)
                row["p95_ratio"] = [round(ratio, 3), round(low, 3), round(high, 3)]
            results[str(size)][name] = row
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(
        f"\n{count * args.rounds * batch} requests per page and size in blocks of {batch} per "
        f"size, the sizes taking turns block by block; {args.clients} concurrent clients, "
        f"gunicorn with {args.workers} workers per size, 127.0.0.1"
    )
    for size in sizes:
        print(f"\n{size} matches")
        print(
            f"{'page':<24} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'errors':>7}"
            + ("" if size == first else f"  p95 / {first}'s [95% interval]")
        )
        for name, row in results[str(size)].items():
            flag = "" if row["p95_ms"] < 100 else "  (p95 over 100 ms)"
            shown = ""
            if "p95_ratio" in row:
                point, low, high = row["p95_ratio"]
                shown = f"  {point:.2f} [{low:.2f}-{high:.2f}]"
            print(
                f"{name:<24} {row['p50_ms']:>8.1f} {row['p95_ms']:>8.1f} {row['max_ms']:>8.1f} "
                f"{int(row['errors']):>7}{shown}{flag}"
            )


if __name__ == "__main__":
    main()
