"""Running matches, live: the worker notes each game's frames as they happen, spectators'
browsers receive them as server-sent events.

The worker's side is :class:`LiveFeed`, the runner's ``watch`` (:func:`arena.runner.match.
run_match`): it listens to every game of the match with the engine's :class:`~arena.engine.
frames.Film` (the frames the replay viewer draws, computed by the engine as the decisions land)
and a thread of its own writes the new ones every :data:`FLUSH_S` seconds as a
:class:`~matches.models.LiveChunk` row, never holding up the match. The spectators' side is
:func:`events`, the stream of the view ``match-live-events``: each new chunk as one event,
then ``end`` when the match is over.

**Why the database and server-sent events.** The worker and the web processes share nothing
but the database and the broker, on one machine (the demo: SQLite and a folder broker) or many;
a chunk row is what every one of them can write and read, and a spectator who connects late or
reconnects reads what he missed from the rows instead of from a message he was not there for.
The transport is one-way (the match goes on whatever a spectator does), so server-sent events
fit: the browser's ``EventSource`` reconnects by itself with the last event's id, which names
the chunk to go on from. A stream is a plain streaming response that ends after
:data:`STREAM_S` (the browser then reconnects), so it needs no ASGI server or channel layer and
works alike under ``runserver``, gunicorn's threads and the test server.

**Many spectators.** A stream waits in a thread of its own, so the site runs gunicorn's
threaded workers (``config/gunicorn.py``: a sync worker would be pinned by one spectator for
the whole stream). The spectators of one match in one web process share one
:class:`_Feed`: whichever of their streams finds it older than :data:`POLL_S` reads the new
chunks (one index, ``live_chunk_seq``) while the others wait for it, so the database answers
two small queries per match, process and :data:`POLL_S` however many are watching, and a
waiting stream holds no database connection (``benchmarks/live_spectators.py``: 50 spectators
of one match).

**What a spectator sees.** Only what every player at the table sees: the frames hold the board,
revealed tiles, scores and the number of tiles in each hand, never a hand; the action cards a
seat holds are hidden until the game is over (their number is public), so a live frame names
none of them (:func:`public_frame`). Replays, which name them, are served once a match is over.
"""

from __future__ import annotations

import bisect
import contextlib
import json
import logging
import random
import secrets
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import DatabaseError, close_old_connections, connection
from django.db.models import Q
from django.utils import timezone

from arena.engine.frames import HIDDEN_CARD, Film, header
from arena.engine.game import Game
from matches.models import LiveChunk, Match

#: How often the worker writes a running game's new frames (s).
FLUSH_S = 0.3
#: How long the end of a match waits for the writer's last flush (s).
EXIT_WAIT_S = 10.0
#: How often a stream looks for new chunks (s).
POLL_S = 0.25
#: How long one stream lasts before the browser reconnects (s), at most: each lasts between
#: three quarters of it and all of it, so that spectators who came together do not all come
#: back at once.
STREAM_S = 30.0
#: How long a process keeps what it read of a match after its last spectator's stream ended.
FEED_LINGER_S = 10.0
#: A comment line this often keeps proxies from closing a quiet stream (s).
HEARTBEAT_S = 10.0
#: What a browser waits before it reconnects (ms), the ``retry`` field of the stream.
RETRY_MS = 1000
#: Chunks sent in one go to a spectator who is behind.
BATCH = 50
#: How long a match's chunks stay after it is over, for spectators still catching up.
KEEP_AFTER_END = timedelta(minutes=5)

log = logging.getLogger(__name__)


def public_frame(frame: dict[str, Any]) -> dict[str, Any]:
    """A frame (``nimmt-frames/1``) as a spectator of a running game may see it: the action
    cards each seat holds are counted, not named; and the decision the engine waits for is left
    out (the engine notes it on a frame only after the frame, which may be sent by then).

    >>> public_frame({"held": [["stop", "plus5"], []], "hands": [3, 4], "asks": None})
    {'held': [['hidden', 'hidden'], []], 'hands': [3, 4], 'asks': None}
    """
    return {
        **frame,
        "held": [[HIDDEN_CARD] * len(cards) for cards in frame["held"]],
        "asks": None,
    }


@dataclass
class _Watched:
    number: int
    film: Film
    names: tuple[str, ...]
    sent: int = 0  # frames written

    @property
    def done(self) -> bool:
        """Over, and every frame written."""
        notes = self.film.notes
        return self.sent == len(notes) and notes[-1].step.kind == "end" and notes[-1].step.over


class LiveFeed:
    """The live frames of one attempt at playing a match (the runner's ``watch``).

    Use as a context manager around the match: it starts the writer thread (removing an
    earlier attempt's chunks) and, at the end, writes what is left before the result is stored;
    the chunks stay for spectators still catching up, :func:`remove_ended` takes them later.
    """

    def __init__(self, match_pk: int) -> None:
        self.match_pk = match_pk
        self.attempt = secrets.token_hex(4)
        self._lock = threading.Lock()
        self._flushing = threading.Lock()
        self._games: list[_Watched] = []
        self._seq = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="live-feed", daemon=True)

    def __call__(self, number: int, game: Game, names: tuple[str, ...]) -> None:
        """The runner's ``watch``: game ``number`` is dealt; follow it."""
        film = Film(game)
        game.listen(film.step)
        with self._lock:
            self._games.append(_Watched(number, film, names))

    def __enter__(self) -> LiveFeed:
        LiveChunk.objects.filter(match_id=self.match_pk).delete()  # an earlier attempt's
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        # The writer's last flush is one small insert; a database that does not answer must
        # not hold the match (the frames then miss their end, the result does not).
        self._thread.join(timeout=EXIT_WAIT_S)
        if self._thread.is_alive():
            log.warning("match %s: the live frames' writer did not finish", self.match_pk)

    def _run(self) -> None:
        try:
            while not self._stop.wait(FLUSH_S):
                self._flush_or_log()
            self._flush_or_log()
        finally:
            connection.close()  # this thread's own connection

    def _flush_or_log(self) -> None:
        try:
            self.flush()
        except DatabaseError:  # the live view misses out; the match never does
            log.warning("match %s: live frames not written", self.match_pk, exc_info=True)

    def flush(self) -> None:
        """Write every game's frames noted since the last flush, one chunk per game (one
        flush at a time: the writer thread's and a caller's would number chunks alike)."""
        with self._flushing:
            self._flush()

    def _flush(self) -> None:
        with self._lock:
            games = list(self._games)
        rows: list[LiveChunk] = []
        counts: list[tuple[_Watched, int]] = []
        for watched in games:
            film = watched.film
            count = len(film.notes)  # the match's thread only appends
            if count == watched.sent:
                continue
            frames = [public_frame(f.to_json()) for f in film.notes[watched.sent : count]]
            step = frames[-1]["step"]
            rows.append(
                LiveChunk(
                    match_id=self.match_pk,
                    attempt=self.attempt,
                    seq=self._seq + len(rows) + 1,
                    game=watched.number,
                    first=watched.sent,
                    header=header(film.game, watched.names) if watched.sent == 0 else None,
                    frames=frames,
                    over=step["kind"] == "end" and bool(step.get("over")),
                )
            )
            counts.append((watched, count))
        if not rows:
            return
        close_old_connections()
        LiveChunk.objects.bulk_create(rows)
        self._seq += len(rows)
        for watched, count in counts:
            watched.sent = count
        with self._lock:  # finished games need no more looks
            self._games = [w for w in self._games if not w.done]


def remove_ended(keep: timedelta = KEEP_AFTER_END) -> int:
    """Remove the chunks of matches over for longer than ``keep`` (their replays have taken
    over; the sweeper calls this); how many were removed."""
    ended = Match.objects.exclude(status__in=(Match.QUEUED, Match.RUNNING)).filter(
        Q(finished_at__lt=timezone.now() - keep) | Q(finished_at__isnull=True)
    )
    removed, _ = LiveChunk.objects.filter(match__in=ended).delete()
    return removed


# ---------------------------------------------------------------------------- the stream


@dataclass(frozen=True)
class Position:
    """Where a spectator is: the attempt and the last chunk received (``""``, 0: nothing)."""

    attempt: str = ""
    seq: int = 0

    @classmethod
    def parse(cls, text: str | None) -> Position:
        """From an event id ``<attempt>:<seq>``; anything else is the start.

        >>> Position.parse("1a2b3c4d:17")
        Position(attempt='1a2b3c4d', seq=17)
        >>> Position.parse("junk") == Position.parse(None) == Position.parse("ab:²") == Position()
        True
        """
        attempt, _, seq = (text or "").partition(":")
        # isascii: "²" and "ａ" pass isdigit and isalnum, and int("²") fails
        if (
            len(attempt) <= 16
            and (attempt + seq).isascii()
            and attempt.isalnum()
            and seq.isdigit()
            and len(seq) <= 9
        ):
            return cls(attempt, int(seq))
        return cls()


def _event(kind: str, data: dict[str, Any], event_id: str | None = None) -> str:
    lines = [f"event: {kind}"]
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines.append("data: " + json.dumps(data, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


@dataclass
class _Snapshot:
    """What a stream reads of a :class:`_Feed`: the attempt being shown, its chunks after the
    stream's position (up to :data:`BATCH`), the match's status."""

    version: int
    attempt: str | None
    chunks: list[dict[str, Any]]
    status: str | None


class _Feed:
    """The chunks of one match's latest attempt as this process has read them, shared by the
    streams of its spectators: read from the database by one of them at a time, at most once
    per ``poll_s`` (:meth:`fresh`); the others wait for it (:meth:`wait`)."""

    def __init__(self, match_pk: int) -> None:
        self.match_pk = match_pk
        self.watchers = 0
        self.idle_since = 0.0  # when the last watcher left
        self._changed = threading.Condition()
        self._version = 0  # goes up whenever what was read changes
        self._polling = False
        self._polled_at = -1e9
        self._attempt: str | None = None
        self._chunks: list[dict[str, Any]] = []  # in seq order
        self._status: str | None = None

    def fresh(self, poll_s: float) -> int:
        """Read the database if the last read is older than ``poll_s`` and no other stream
        is reading it (else wait for that one); the version read."""
        with self._changed:
            while self._polling:
                self._changed.wait(timeout=5.0)
            if time.monotonic() - self._polled_at < poll_s:
                return self._version
            self._polling = True
            attempt, known = self._attempt, (self._chunks[-1]["seq"] if self._chunks else 0)
        try:
            status, latest, new = self._read(attempt, known)
        finally:
            with self._changed:
                self._polling = False
                self._polled_at = time.monotonic()
                self._changed.notify_all()
        with self._changed:
            if latest != attempt:  # the first read, or the match started over
                self._attempt, self._chunks = latest, new
                self._version += 1
            elif new:
                self._chunks.extend(new)  # snapshots copy their slice under the lock
                self._version += 1
            if status != self._status:
                self._status = status
                self._version += 1
            return self._version

    def _read(
        self, attempt: str | None, known: int
    ) -> tuple[str | None, str | None, list[dict[str, Any]]]:
        """The match's status, its latest attempt, and that attempt's chunks after ``known``
        (all of them if the attempt is not ``attempt``)."""
        status = Match.objects.filter(pk=self.match_pk).values_list("status", flat=True).first()
        latest = (
            LiveChunk.objects.filter(match_id=self.match_pk)
            .order_by("-id")
            .values_list("attempt", flat=True)
            .first()
        )
        after = known if latest == attempt else 0
        new: list[dict[str, Any]] = [
            dict(row)
            for row in LiveChunk.objects.filter(
                match_id=self.match_pk, attempt=latest, seq__gt=after
            )
            .order_by("seq")
            .values("seq", "game", "first", "header", "frames", "over")
        ]
        if not connection.in_atomic_block:  # a waiting stream holds no connection
            connection.close()
        return status, latest, new

    def snapshot(self, attempt: str, seq: int) -> _Snapshot:
        """The chunks after ``seq`` if ``attempt`` is the latest (else the latest's from the
        start), :data:`BATCH` at most."""
        with self._changed:
            chunks = self._chunks
            start = 0
            if attempt == self._attempt:
                start = bisect.bisect_right(chunks, seq, key=lambda chunk: int(chunk["seq"]))
            return _Snapshot(
                self._version, self._attempt, chunks[start : start + BATCH], self._status
            )

    def wait(self, version: int, timeout: float) -> None:
        """Until what was read is newer than ``version``, for ``timeout`` at most."""
        with self._changed:
            self._changed.wait_for(lambda: self._version != version, timeout=timeout)


_feeds: dict[int, _Feed] = {}
_feeds_lock = threading.Lock()


@contextlib.contextmanager
def _watching(match_pk: int) -> Iterator[_Feed]:
    """The process's feed of the match, while a stream watches it and :data:`FEED_LINGER_S`
    after (the browsers that reconnect find what was read)."""
    with _feeds_lock:
        now = time.monotonic()
        for idle in [f for f in _feeds.values() if not f.watchers]:
            if now - idle.idle_since > FEED_LINGER_S:
                del _feeds[idle.match_pk]
        feed = _feeds.get(match_pk)
        if feed is None:
            feed = _feeds[match_pk] = _Feed(match_pk)
        feed.watchers += 1
    try:
        yield feed
    finally:
        with _feeds_lock:
            feed.watchers -= 1
            feed.idle_since = time.monotonic()


def events(
    match: Match, position: Position, *, stream_s: float = STREAM_S, poll_s: float = POLL_S
) -> Iterator[str]:
    """The server-sent events of ``match`` for a spectator at ``position``: ``chunk`` events
    (``game``, ``first``, ``frames``, the game's ``header`` with its first chunk, ``over``),
    ``reset`` when the match started over (a retried attempt: drop what was shown), ``end``
    (``status``, ``url``) once the match is no longer running; for ``stream_s`` at most."""
    yield f"retry: {RETRY_MS}\n\n"
    if not connection.in_atomic_block:  # the view's; the feed reads on its own
        connection.close()
    started = last_sent = time.monotonic()
    stream_s *= random.uniform(0.75, 1.0)
    attempt, seq = position.attempt, position.seq
    with _watching(match.pk) as feed:
        while True:
            feed.fresh(poll_s)
            now = feed.snapshot(attempt, seq)
            if now.attempt is not None and now.attempt != attempt:
                if attempt:  # the match started over (a retried attempt): drop what was shown
                    yield _event("reset", {})
                attempt, seq = now.attempt, 0
                now = feed.snapshot(attempt, seq)
            for chunk in now.chunks:
                seq = chunk["seq"]
                body = {k: chunk[k] for k in ("game", "first", "frames", "over")}
                if chunk["header"] is not None:
                    body["header"] = chunk["header"]
                yield _event("chunk", body, f"{attempt}:{seq}")
                last_sent = time.monotonic()
            if len(now.chunks) == BATCH:
                continue  # more to catch up on
            if now.status not in (Match.QUEUED, Match.RUNNING):
                yield _event("end", {"status": now.status, "url": match.get_absolute_url()})
                return
            moment = time.monotonic()
            if moment - started >= stream_s:
                return
            if moment - last_sent >= HEARTBEAT_S:
                yield ": still running\n\n"
                last_sent = moment
            feed.wait(now.version, poll_s)
