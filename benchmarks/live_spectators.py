"""How many spectators the live view holds: 50 watching one running match, for a bounded time.

Makes its own PostgreSQL database (dropped at the end), migrates it, serves the site with
gunicorn as deployed (``config/gunicorn.py``: threaded workers) on 127.0.0.1, and plays a
match in this process at a bot's pace (``--pace`` seconds a decision), its frames written by
the worker's own :class:`~matches.live.LiveFeed`. ``--clients`` spectators (threads of a process
of their own, so that they do not slow the writer) read the match's server-sent events
(``match-live-events``) at once, each reconnecting with ``Last-Event-ID`` when a stream ends,
as a browser does, until the match's ``end``. Checks that every spectator got
every chunk, in order, with the frames written, and prints the delay from a chunk's write to
its receipt (p50/p95/max over every chunk and spectator), and the web workers' CPU and
memory::

    python -m benchmarks.live_spectators                       # from the project's root
    python -m benchmarks.live_spectators --clients 100 --seconds 60

Measured 2026-12-01 on this 2-core machine (other work running), 3 workers x 100 threads, a
decision every 50 ms: 50 of 50 spectators had every chunk in order (19 games, 169 chunks, 1,553
frames in 46 s, each spectator reconnecting once); write to receipt p50 135-153 ms, p95
255-260 ms, max 304-326 ms over 8,450 receipts (two runs); the web workers used 0.08-0.09 of
a core and 372 MB resident.

Settings: ``NIMMT_BENCH_LIVE_DATABASE_URL`` (default
``postgres://postgres@127.0.0.1:5432/nimmt_bench_live``).
"""

import argparse
import contextlib
import hashlib
import http.client
import json
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
PLATFORM = REPO / "platform"
sys.path[:0] = [str(REPO), str(PLATFORM)]

from benchmarks.site_pages import (  # noqa: E402  (after the path is set)
    create_database,
    drop_database,
    gunicorn_process,
    migrate,
    percentile,
    site_env,
)

DATABASE_URL = os.environ.get(
    "NIMMT_BENCH_LIVE_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/nimmt_bench_live"
)


# ---------------------------------------------------------------------------- the spectators


@dataclass
class Spectator:
    """One browser's view of the stream: every chunk event as received (its id, game, first
    frame and a digest of its frames), with the time."""

    port: int
    path: str
    received: list[tuple[str, int, int, str, float]] = field(default_factory=list)
    ended: bool = False
    connected: threading.Event = field(default_factory=threading.Event)
    connections: int = 0
    error: str = ""

    def watch(self, deadline: float) -> None:
        last_id = ""
        while not self.ended and time.monotonic() < deadline:
            try:
                last_id = self._stream(last_id, deadline)
            except (OSError, http.client.HTTPException) as failure:
                self.error = repr(failure)
                time.sleep(0.5)

    def _stream(self, last_id: str, deadline: float) -> str:
        """One connection, read to its end (or ``deadline``); the last event's id."""
        self.connections += 1
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=40)
        headers = {"Host": "127.0.0.1", "Accept": "text/event-stream"}
        if last_id:
            headers["Last-Event-ID"] = last_id
        try:
            connection.request("GET", self.path, headers=headers)
            response = connection.getresponse()
            if response.status != 200:
                raise http.client.HTTPException(f"status {response.status}")
            self.connected.set()
            fields: dict[str, str] = {}
            while time.monotonic() < deadline:
                line = response.readline()
                if not line:
                    break  # the stream's time is up: the browser reconnects
                text = line.decode().rstrip("\n")
                if text:
                    name, _, value = text.partition(":")
                    fields[name] = value.removeprefix(" ")
                    continue
                kind = fields.get("event")
                if kind == "chunk":
                    last_id = fields["id"]
                    at = time.time()
                    data = json.loads(fields["data"])
                    digest = _digest(data["frames"])
                    self.received.append((last_id, data["game"], data["first"], digest, at))
                elif kind == "reset":
                    self.received.clear()
                elif kind == "end":
                    self.ended = True
                    break
                fields = {}
        finally:
            connection.close()
        return last_id


def _digest(frames: list[Any]) -> str:
    return hashlib.sha256(json.dumps(frames, sort_keys=True).encode()).hexdigest()


def watch_all(port: int, path: str, clients: int, seconds: float, ready: Any, results: Any) -> None:
    """``clients`` spectators at once (the child process): ``ready`` is set once every stream
    is open; what each received goes to ``results`` at the end."""
    spectators = [Spectator(port, path) for _ in range(clients)]
    deadline = time.monotonic() + seconds
    threads = [threading.Thread(target=s.watch, args=(deadline,)) for s in spectators]
    for thread in threads:
        thread.start()
    for spectator in spectators:
        spectator.connected.wait(timeout=max(0.0, deadline - time.monotonic()))
    ready.set()
    for thread in threads:
        thread.join()
    results.put(
        [
            {
                "received": s.received,
                "ended": s.ended,
                "connections": s.connections,
                "error": s.error,
            }
            for s in spectators
        ]
    )


# ---------------------------------------------------------------------------- the match


def _setup_match(players: int) -> int:
    """A running match of ``players`` house-folder bots; its id."""
    from accounts.models import User
    from matches.models import Match
    from submissions.models import Bot, BotVersion

    owner = User.objects.create_user("house", "house@example.org", "a-long-bench-password")
    match = Match.objects.create(variant="basic", players=players, seed=5, status=Match.RUNNING)
    for seat in range(players):
        bot = Bot.objects.create(owner=owner, name=f"bot-{seat}", is_house=True)
        version = BotVersion.objects.create(
            bot=bot, number=1, status=BotVersion.PASSED, code_root=BotVersion.HOUSE
        )
        Bot.objects.filter(pk=bot.pk).update(active_version=version)
        match.seats.create(seat=seat, bot=bot, version=version)
    return match.pk


def _play(match_pk: int, players: int, seconds: float, pace: float) -> dict[int, float]:
    """Games of the match, a decision every ``pace`` seconds, until ``seconds`` are over (the
    game under way is played to its end), written by the worker's LiveFeed; then the match is
    finished. When each chunk was written (by seq)."""
    from django.db import connection
    from django.utils import timezone
    from matches.live import LiveFeed
    from matches.models import Match

    from arena.engine.game import Game

    written: dict[int, float] = {}

    class TimedFeed(LiveFeed):
        def flush(self) -> None:
            first = self._seq
            super().flush()
            now = time.time()
            for seq in range(first + 1, self._seq + 1):
                written[seq] = now

    rng = random.Random(1)
    stop = time.monotonic() + seconds
    with TimedFeed(match_pk) as feed:
        number = 0
        while time.monotonic() < stop:
            number += 1
            game = Game.new("basic", players=players, seed=number)
            feed(number, game, tuple(f"bot-{seat}" for seat in range(players)))
            while (pending := game.pending) is not None:
                for seat in pending.seats:
                    time.sleep(pace)
                    game.apply(seat, rng.choice(game.legal(seat)))
    Match.objects.filter(pk=match_pk).update(status=Match.FINISHED, finished_at=timezone.now())
    connection.close()
    return written


# ---------------------------------------------------------------------------- the web workers


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    found.append(int(entry.name))
    return found


def _cpu_seconds(pids: list[int]) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def _rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description="Spectators of one live match.")
    parser.add_argument("--clients", type=int, default=50, help="spectators at once")
    parser.add_argument("--seconds", type=float, default=45.0, help="how long the match plays")
    parser.add_argument("--pace", type=float, default=0.05, help="seconds a decision")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=100, help="threads per worker")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.clients > args.workers * args.threads:
        parser.error("more spectators than the site has threads")

    with tempfile.TemporaryDirectory(prefix="nimmt-bench-live-") as folder:
        env = site_env(Path(folder), DATABASE_URL)
        create_database(DATABASE_URL)
        try:
            migrate(env)
            os.environ.update(env)
            import django

            django.setup()
            match_pk = _setup_match(args.players)
            from django.urls import reverse
            from matches.models import LiveChunk, Match

            match = Match.objects.get(pk=match_pk)
            path = reverse("match-live-events", args=[match.uuid])
            options = ("--config", "python:config.gunicorn", "--threads", str(args.threads))
            log = Path(folder) / "gunicorn.log"
            with gunicorn_process(env, args.workers, log, options) as (port, process):
                context = multiprocessing.get_context("spawn")
                ready, results = context.Event(), context.Queue()
                watchers = context.Process(
                    target=watch_all,
                    args=(port, path, args.clients, args.seconds + 60, ready, results),
                )
                watchers.start()
                if not ready.wait(timeout=60):  # every worker booted, every stream open
                    raise RuntimeError("the spectators could not connect")
                web = _children(process.pid)
                cpu_before, began = _cpu_seconds(web), time.monotonic()
                rss = [_rss_mb(web)]
                sampler_stop = threading.Event()

                def sample() -> None:
                    while not sampler_stop.wait(1.0):
                        rss.append(_rss_mb(web))

                sampler = threading.Thread(target=sample, daemon=True)
                sampler.start()
                written = _play(match_pk, args.players, args.seconds, args.pace)
                spectators: list[dict[str, Any]] = results.get(timeout=args.seconds + 120)
                watchers.join()
                wall = time.monotonic() - began
                cpu = _cpu_seconds(web) - cpu_before
                sampler_stop.set()
            chunks = list(
                LiveChunk.objects.filter(match_id=match_pk)
                .order_by("seq")
                .values("attempt", "seq", "game", "first", "frames")
            )
        finally:
            from django.db import connections

            connections.close_all()
            drop_database(DATABASE_URL)

    expected = [
        (f"{c['attempt']}:{c['seq']}", c["game"], c["first"], _digest(c["frames"])) for c in chunks
    ]
    complete = 0
    delays: list[float] = []
    for spectator in spectators:
        got = [tuple(row[:4]) for row in spectator["received"]]
        if spectator["ended"] and got == expected:
            complete += 1
        for ident, _, _, _, at in spectator["received"]:
            seq = int(ident.split(":")[1])
            if seq in written:
                delays.append((at - written[seq]) * 1000)
    frames = sum(len(c["frames"]) for c in chunks)
    figures = {
        "spectators": args.clients,
        "complete_and_in_order": complete,
        "chunks": len(chunks),
        "frames": frames,
        "games": len({c["game"] for c in chunks}),
        "connections": sum(s["connections"] for s in spectators),
        "errors": [s["error"] for s in spectators if s["error"]][:5],
        "delay_p50_ms": round(statistics.median(delays), 1) if delays else None,
        "delay_p95_ms": round(percentile(delays, 0.95), 1) if delays else None,
        "delay_max_ms": round(max(delays), 1) if delays else None,
        "web_cpu_share": round(cpu / wall, 3),
        "web_rss_mb_max": round(max(rss), 1),
        "seconds": round(wall, 1),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(
        f"{args.clients} spectators of one match on 127.0.0.1, gunicorn {args.workers} workers "
        f"x {args.threads} threads; {figures['games']} games, {len(chunks)} chunks, {frames} "
        f"frames in {wall:.0f} s ({figures['connections']} connections, as browsers reconnect)"
    )
    print(f"every chunk, in order, with its frames: {complete} of {args.clients} spectators")
    print(
        f"write to receipt: p50 {figures['delay_p50_ms']} ms, p95 {figures['delay_p95_ms']} ms, "
        f"max {figures['delay_max_ms']} ms over {len(delays)} receipts"
    )
    print(
        f"web workers: {figures['web_cpu_share']:.2f} of a core, "
        f"{figures['web_rss_mb_max']:.0f} MB resident at most"
    )
    if figures["errors"]:
        print(f"errors: {figures['errors']}")


if __name__ == "__main__":
    main()
