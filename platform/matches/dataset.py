"""The dataset of every public game: exported in increments to the arena's storage.

:func:`export_games` (``manage.py export_games``, and nightly the beat's ``export_games`` task)
writes every public game that finished since the last export: one Parquet file per variant
(``games/variant=<v>/part-<export>-<n>.parquet``, a row per game with its match's context and
its replay) and the same replays as JSON lines (``replays/variant=<v>/part-....jsonl.gz``),
under ``dataset/`` in :mod:`core.storage` (the data folder or the object store), and records
the run as a :class:`~matches.models.GameExport`. The dataset is every export's files
together; the site lists them (``/dataset/``, ``/api/v1/dataset/``) and ``nimmt dataset``
downloads them (docs/DATASET.md has the columns).

*Public* is what anyone may open on the site: finished matches the public lists show
(:meth:`~matches.models.MatchQuerySet.listed`: not an owner's version test), each game's replay
as its public download gives it (a fault's detail replaced, no owner's notes, no key the
replay format does not name). Logs, notes, validation logs, owners and code never leave.

A match is exported when it finished before ``until`` (by default a few minutes ago, so that
a match whose result is being stored now is not passed over by a later window), once: the
next export starts where this one ended. Files are written before the run's row, under names
that carry the run's token, so a run that fails leaves nothing any export lists.
"""

import datetime as dt
import functools
import hashlib
import io
import logging
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from core import storage
from core.locks import hold_count
from django.db import transaction
from django.utils import timezone
from ladders.models import RatingChange

from arena.dataset import GAMES_DIR, MANIFEST_FORMAT, REPLAYS_DIR, write_jsonl
from arena.engine.errors import ReplayError
from arena.engine.record import GameRecord
from arena.engine.replay import parse
from matches.models import PRIVATE_DETAIL, GameExport, Match

log = logging.getLogger(__name__)

#: The dataset's folder in the arena's storage.
ROOT = "dataset"
#: Games per Parquet file (and JSON-lines file): bounds the memory one file takes to write.
PART_GAMES = 20_000
#: By default an export takes the matches that finished before this long ago.
LAG = dt.timedelta(minutes=5)
BATCH = 200  # matches read from the database at a time


class DatasetUnavailable(RuntimeError):
    """pyarrow, which writes the Parquet files, is not installed (the ``dataset`` extra)."""


def _arrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:  # an optional extra: the site runs without it, the export says so
        raise DatasetUnavailable(
            "the dataset export needs pyarrow: pip install 'nimmt-arena[dataset]'"
        ) from None
    return pyarrow


@functools.cache
def schema() -> Any:
    """The Parquet files' columns, one row per game (docs/DATASET.md)."""
    pa = _arrow()
    seat = pa.struct(
        [
            ("seat", pa.int8()),
            ("entry", pa.int8()),
            ("name", pa.string()),
            ("bot", pa.string()),  # the bot's public id; null for a person at a table
            ("bot_name", pa.string()),
            ("house", pa.bool_()),
            ("version", pa.int32()),
            ("version_id", pa.string()),
            ("elo_before", pa.float64()),  # the ladder rating before the match; null off ladders
            ("mu_before", pa.float64()),
            ("sigma_before", pa.float64()),
            ("margin_before", pa.float64()),
            ("score", pa.int32()),
            ("rank", pa.int8()),
        ]
    )
    fault = pa.struct([("seat", pa.int8()), ("kind", pa.string()), ("turn", pa.int16())])
    return pa.schema(
        [
            ("match", pa.string()),
            ("game", pa.int16()),
            ("variant", pa.string()),
            ("players", pa.int8()),
            ("rules", pa.string()),
            ("seed", pa.uint64()),
            ("finished_at", pa.timestamp("us", tz="UTC")),
            ("ladder", pa.string()),
            ("tournament", pa.string()),
            ("table", pa.bool_()),
            ("duplicate", pa.bool_()),
            ("deal", pa.int16()),
            ("turns", pa.int16()),
            ("scores", pa.list_(pa.int32())),
            ("ranks", pa.list_(pa.int8())),
            ("seats", pa.list_(seat)),
            ("faults", pa.list_(fault)),
            ("replay", pa.string()),
        ]
    )


def public_record(record: GameRecord) -> GameRecord:
    """The game as anyone may download it: only the keys the replay format names (an owner's
    copy's notes and anything a producer added stay out) and every fault's detail replaced,
    as the site's public download replaces it (:data:`matches.models.PRIVATE_DETAIL`)."""
    plain = record.plain()
    faults = tuple(replace(f, detail=PRIVATE_DETAIL) for f in plain.result.faults)
    return replace(plain, result=replace(plain.result, faults=faults))


@dataclass
class _Part:
    """The games of one variant being gathered for one file of an export."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    records: list[GameRecord] = field(default_factory=list)


def _matches(since: dt.datetime | None, until: dt.datetime) -> Iterator[Match]:
    found = Match.objects.listed().filter(status=Match.FINISHED, finished_at__lt=until)
    if since is not None:
        found = found.filter(finished_at__gte=since)
    found = (
        found.select_related("ladder", "tournament", "table")
        .prefetch_related("seats__bot", "seats__version")
        .order_by("finished_at", "id")
    )
    yield from found.iterator(chunk_size=BATCH)


def _game_rows(match: Match, skipped: list[str]) -> Iterator[tuple[dict[str, Any], GameRecord]]:
    """Each readable game of ``match``: its row and its public record."""
    seats = {seat.seat: seat for seat in match.seats.all()}
    changes = {
        change.rating.bot_id: change
        for change in RatingChange.objects.filter(match=match).select_related("rating")
    }
    table = getattr(match, "table", None)
    for number, name in enumerate(match.replays, 1):
        where = f"{match.uuid} game {number}"
        try:
            raw = storage.read_bytes(f"{match.result_dir}/{name}")
            record = public_record(parse(raw, where))
        except (FileNotFoundError, ReplayError) as exc:
            log.warning("dataset: %s left out: %s", where, exc)
            skipped.append(f"{where}: {exc}")
            continue
        rows = []
        for index, player in enumerate(record.players):
            seat = seats.get(player.entry if player.entry is not None else index)
            change = changes.get(seat.bot_id) if seat is not None else None
            rows.append(
                {
                    "seat": index,
                    "entry": player.entry,
                    "name": player.name,
                    "bot": str(seat.bot.uuid) if seat else None,
                    "bot_name": seat.bot.name if seat else None,
                    "house": seat.bot.is_house if seat else None,
                    "version": seat.version.number if seat else None,
                    "version_id": str(seat.version.uuid) if seat else None,
                    "elo_before": change.elo_before if change else None,
                    "mu_before": change.mu_before if change else None,
                    "sigma_before": change.sigma_before if change else None,
                    "margin_before": change.margin_mu_before if change else None,
                    "score": record.result.scores[index],
                    "rank": record.result.ranks[index],
                }
            )
        row = {
            "match": str(match.uuid),
            "game": number,
            "variant": record.variant,
            "players": len(record.players),
            "rules": record.reading.name,
            "seed": record.seed,
            "finished_at": match.finished_at,
            "ladder": match.ladder.slug if match.ladder else None,
            "tournament": str(match.tournament.uuid) if match.tournament else None,
            "table": table is not None,
            "duplicate": match.duplicate,
            "deal": record.series.deal if record.series else None,
            "turns": len(record.turns),
            "scores": list(record.result.scores),
            "ranks": list(record.result.ranks),
            "seats": rows,
            "faults": [
                {"seat": f.seat, "kind": f.kind, "turn": f.turn} for f in record.result.faults
            ],
            "replay": record.to_text(),
        }
        yield row, record


def _parquet(rows: list[dict[str, Any]]) -> bytes:
    pa = _arrow()
    buffer = io.BytesIO()
    pa.parquet.write_table(pa.Table.from_pylist(rows, schema=schema()), buffer, compression="zstd")
    return buffer.getvalue()


def export_games(until: dt.datetime | None = None) -> GameExport | None:
    """Export the public games that finished since the last export and before ``until``
    (default: :data:`LAG` ago); the new :class:`GameExport`, or ``None`` when no game is new.

    One export runs at a time (a second one waits, then finds the games already exported).
    """
    until = until if until is not None else timezone.now() - LAG
    schema()  # pyarrow is there, or say so before anything is read
    with transaction.atomic():
        hold_count("game export")
        last = GameExport.objects.order_by("-number").first()
        since = last.until if last is not None else None
        if since is not None and until <= since:
            return None
        number = (last.number + 1) if last is not None else 1
        token = secrets.token_hex(4)
        parts: dict[str, _Part] = {}
        files: list[dict[str, Any]] = []
        written: list[str] = []
        skipped: list[str] = []
        matches = games = 0
        try:
            for match in _matches(since, until):
                matches += 1
                for row, record in _game_rows(match, skipped):
                    games += 1
                    part = parts.setdefault(record.variant, _Part())
                    part.rows.append(row)
                    part.records.append(record)
                    if len(part.rows) >= PART_GAMES:
                        _write(number, token, record.variant, part, files, written)
            for variant, part in sorted(parts.items()):
                if part.rows:
                    _write(number, token, variant, part, files, written)
            if not games and not skipped:
                return None
            return GameExport.objects.create(
                number=number,
                since=since,
                until=until,
                matches=matches,
                games=games,
                files=files,
                skipped=skipped,
            )
        except BaseException:
            storage.delete_all(written)
            raise


def _write(
    number: int,
    token: str,
    variant: str,
    part: _Part,
    files: list[dict[str, Any]],
    written: list[str],
) -> None:
    index = 1 + sum(1 for f in files if f["variant"] == variant and f["kind"] == "games")
    stem = f"part-{number:06d}-{token}-{index:03d}"
    for kind, folder, suffix, content in (
        ("games", GAMES_DIR, ".parquet", _parquet(part.rows)),
        ("replays", REPLAYS_DIR, ".jsonl.gz", write_jsonl(part.records)),
    ):
        path = f"{folder}/variant={variant}/{stem}{suffix}"
        storage.save_new(f"{ROOT}/{path}", content)
        written.append(f"{ROOT}/{path}")
        files.append(
            {
                "path": path,
                "kind": kind,
                "variant": variant,
                "games": len(part.rows),
                "size": len(content),
                "sha256": hashlib.sha256(content).hexdigest(),
            }
        )
    part.rows.clear()
    part.records.clear()


def manifest() -> dict[str, Any]:
    """The dataset as ``nimmt dataset`` reads it (``nimmt-dataset/1``): every export and every
    file, oldest first; file paths relative to the dataset's folder."""
    exports = list(GameExport.objects.order_by("number"))
    return {
        "format": MANIFEST_FORMAT,
        "games": sum(e.games for e in exports),
        "newest": exports[-1].created_at.isoformat() if exports else None,
        "exports": [
            {
                "number": e.number,
                "created_at": e.created_at.isoformat(),
                "since": e.since.isoformat() if e.since else None,
                "until": e.until.isoformat(),
                "matches": e.matches,
                "games": e.games,
            }
            for e in exports
        ],
        "files": [f for e in exports for f in e.files],
    }


def listed_file(path: str) -> str | None:
    """The storage name of ``path`` if some export wrote it (the only files served)."""
    if not storage.safe_name(path):
        return None
    for files in GameExport.objects.values_list("files", flat=True):
        if any(isinstance(f, dict) and f.get("path") == path for f in files):
            return f"{ROOT}/{path}"
    return None
