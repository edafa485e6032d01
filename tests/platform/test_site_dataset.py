"""The dataset of every public game: ``export_games`` writes the finished public games as
Parquet and JSON lines to the arena's storage, incrementally, with nothing owner-only in them;
the site lists and serves the files; ``nimmt dataset`` downloads them; ``arena.dataset`` reads
them back into the very replays the site's public download gives.
"""

import datetime as dt
import gzip
import io
import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from core import storage
from core.celery import ROUTES
from django.conf import settings
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from ladders.models import Ladder, RatingChange
from matches import dataset
from matches.models import PRIVATE_DETAIL, GameExport, Match, Seat
from nimmt_site_testing import engine_match, make_user, program_bot, runner_match
from submissions.models import BotVersion
from versiontests.models import PairedMatch, VersionTest

from arena.bots.mcs import MonteCarloBot
from arena.bots.random import RandomBot
from arena.cli import dataset as dataset_cli
from arena.cli.common import Failure
from arena.dataset import decisions, games, read_manifest
from arena.engine import competition_ranks
from arena.engine.record import GameRecord

pytestmark = pytest.mark.django_db

SECRETS = {
    "fault": "BOB-SECRET-FAULT-DETAIL",
    "log": "ALICE-SECRET-LOG-LINE",
    "validation": "ALICE-SECRET-VALIDATION",
    "email": "alice@example.org",
}


def public_replay(match: Match, game: int) -> GameRecord:
    """The game as the site's public download gives it (nobody signed in)."""
    answer = Client().get(reverse("match-replay", args=[match.uuid, game]))
    assert answer.status_code == 200
    return GameRecord.from_text(answer.getvalue())


@pytest.fixture
def site() -> dict[str, Any]:
    alice, bob = make_user("alice"), make_user("bob")
    bots = {
        "alice-bot": program_bot("alice-bot", owner=alice),
        "bob-bot": program_bot("bob-bot", owner=bob),
        "heuristic": program_bot("heuristic"),
        "random-1": program_bot("random-1"),
    }
    BotVersion.objects.filter(bot=bots["alice-bot"]).update(
        validation_log=f"PASSED {SECRETS['validation']}"
    )
    ladder = Ladder.objects.create(slug="basic-3", name="Basic 3", variant="basic", players=3)
    start = timezone.now() - dt.timedelta(hours=3)
    public = []
    for n in range(4):
        lineup = [bots["alice-bot"], bots["bob-bot"], bots["random-1"]]
        public.append(
            engine_match(
                lineup,
                ladder=ladder,
                seed=50 + n,
                created_at=start + dt.timedelta(minutes=n),
                logs={0: f"{SECRETS['log']}\n"},
                faults={
                    1: [
                        {
                            "seat": 1,
                            "kind": "crash",
                            "turn": 0,
                            "game": 1,
                            "detail": SECRETS["fault"],
                        }
                    ]
                }
                if n == 2
                else None,
            )
        )
    public.append(
        engine_match(
            [bots["heuristic"], bots["random-1"]],
            variant="classic",
            seed=9,
            created_at=start + dt.timedelta(minutes=10),
        )
    )
    # The fault's detail is in the stored replay too, as the runner writes it.
    faulted = public[2]
    path = Path(settings.DATA_DIR) / faulted.result_dir / "game-00001.json"
    data = json.loads(path.read_text())
    data["result"]["faults"] = [{"seat": 1, "kind": "crash", "turn": 0, "detail": SECRETS["fault"]}]
    data["result"]["ranks"] = list(
        competition_ranks(data["result"]["scores"], True, frozenset({1}))
    )
    path.write_text(json.dumps(data))
    # An owner's version test: its matches are the owner's alone.
    version_match = engine_match(
        [bots["alice-bot"], bots["heuristic"], bots["random-1"]],
        variant="basic",
        seed=77,
        created_at=start + dt.timedelta(minutes=20),
    )
    version = bots["alice-bot"].active_version
    assert version is not None
    test = VersionTest.objects.create(
        candidate=version,
        baseline=version,
        ladder=ladder,
        requested_by=alice,
        e0=0,
        e1=1,
        alpha=0.05,
        beta=0.05,
        cap=10,
        seed=1,
    )
    PairedMatch.objects.create(test=test, number=1, side="candidate", match=version_match)
    # Not finished: never in the dataset.
    queued = Match.objects.create(variant="basic", players=2, seed=3)
    assert bots["heuristic"].active_version_id is not None
    Seat.objects.create(
        match=queued, seat=0, bot=bots["heuristic"], version_id=bots["heuristic"].active_version_id
    )
    Match.objects.create(variant="basic", players=2, seed=4, status=Match.FAILED)
    return {"bots": bots, "public": public, "private": version_match, "alice": alice}


def stored(path: str) -> bytes:
    return storage.read_bytes(f"{dataset.ROOT}/{path}")


def exported_records(export: GameExport, kind: str = "games") -> list[tuple[str, int, GameRecord]]:
    found = []
    for item in export.files:
        if item["kind"] != kind:
            continue
        if kind == "games":
            table = pq.read_table(io.BytesIO(stored(item["path"])))
            for row in table.to_pylist():
                found.append((row["match"], row["game"], GameRecord.from_text(row["replay"])))
        else:
            lines = gzip.decompress(stored(item["path"])).decode().splitlines()
            found.extend(("", 0, GameRecord.from_text(line)) for line in lines)
    return found


def test_it_exports_every_public_game_as_the_public_download_gives_it(site: dict[str, Any]) -> None:
    export = dataset.export_games(timezone.now())
    assert export is not None and export.number == 1
    rows = exported_records(export)
    expected = {(str(m.uuid), 1) for m in site["public"]}
    assert {(m, g) for m, g, _ in rows} == expected
    assert export.games == len(rows) == 5 and export.matches == 5
    by_uuid = {str(m.uuid): m for m in site["public"]}
    for match_id, game, record in rows:
        assert record == public_replay(by_uuid[match_id], game)
    # the JSON lines hold the same replays
    assert sorted(r.to_text() for _, _, r in exported_records(export, "replays")) == sorted(
        r.to_text() for _, _, r in rows
    )
    # partitioned by variant
    assert {f["variant"] for f in export.files} == {"basic", "classic"}
    assert all(f"variant={f['variant']}/" in f["path"] for f in export.files)


def test_each_row_carries_the_match_context(site: dict[str, Any]) -> None:
    export = dataset.export_games(timezone.now())
    assert export is not None
    rows = []
    for item in export.files:
        if item["kind"] == "games":
            rows += pq.read_table(io.BytesIO(stored(item["path"]))).to_pylist()
    faulted = next(r for r in rows if r["match"] == str(site["public"][2].uuid))
    assert faulted["ladder"] == "basic-3" and faulted["variant"] == "basic"
    assert faulted["faults"] == [{"seat": 1, "kind": "crash", "turn": 0}]
    seats = {s["bot_name"]: s for s in faulted["seats"]}
    alice = seats["alice-bot"]
    change = RatingChange.objects.get(
        match=site["public"][2], rating__bot=site["bots"]["alice-bot"]
    )
    assert alice["elo_before"] == change.elo_before and alice["mu_before"] == change.mu_before
    assert alice["bot"] == str(site["bots"]["alice-bot"].uuid) and alice["version"] == 1
    assert alice["house"] is False and seats["random-1"]["house"] is True
    classic = next(r for r in rows if r["variant"] == "classic")
    assert classic["ladder"] is None and all(s["elo_before"] is None for s in classic["seats"])
    assert [s["score"] for s in classic["seats"]] == classic["scores"]


def test_a_seat_without_a_bot_is_exported_by_its_replay_name(site: dict[str, Any]) -> None:
    """A person at a table has a place in the lineup but no seat row (and no bot)."""
    match = site["public"][4]
    Seat.objects.filter(match=match, seat=1).delete()
    export = dataset.export_games(timezone.now())
    assert export is not None
    rows = []
    for item in export.files:
        if item["kind"] == "games":
            rows += pq.read_table(io.BytesIO(stored(item["path"]))).to_pylist()
    row = next(r for r in rows if r["match"] == str(match.uuid))
    person = row["seats"][1]
    assert person["name"] == "random-1" and person["bot"] is None and person["version"] is None
    assert row["seats"][0]["bot_name"] == "heuristic"


def test_it_leaves_out_everything_owner_only(site: dict[str, Any]) -> None:
    noted = runner_match(
        [site["bots"]["alice-bot"], site["bots"]["random-1"]],
        [lambda: MonteCarloBot("playouts=10"), RandomBot],
        seed=5,
    )
    notes = storage.files_in(f"{noted.result_dir}/notes")
    assert notes, "the runner kept the bots' notes beside the replay"
    note_text = json.loads(storage.read_bytes(f"{noted.result_dir}/notes/{notes[0][0]}"))
    some_note = next(n["text"] for n in note_text["notes"] if n["text"])
    export = dataset.export_games(timezone.now())
    assert export is not None
    everything = ""
    for item in export.files:
        body = stored(item["path"])
        if item["kind"] == "games":
            everything += json.dumps(pq.read_table(io.BytesIO(body)).to_pylist(), default=str)
        else:
            everything += gzip.decompress(body).decode()
    for secret in (*SECRETS.values(), some_note, "nimmt-notes/1", "logs/"):
        assert secret not in everything
    assert PRIVATE_DETAIL in everything  # the fault is there, its detail replaced
    assert str(site["private"].uuid) not in everything  # a version test's match
    assert str(noted.uuid) in everything


def test_it_is_incremental(site: dict[str, Any]) -> None:
    first = dataset.export_games(timezone.now())
    assert first is not None
    assert dataset.export_games(timezone.now()) is None  # nothing new: nothing written
    later = engine_match(
        [site["bots"]["heuristic"], site["bots"]["bob-bot"]], variant="pro", seed=31
    )
    Match.objects.filter(pk=later.pk).update(finished_at=timezone.now() + dt.timedelta(seconds=1))
    second = dataset.export_games(timezone.now() + dt.timedelta(seconds=2))
    assert second is not None and second.number == 2 and second.since == first.until
    assert [(m, g) for m, g, _ in exported_records(second)] == [(str(later.uuid), 1)]
    assert not {f["path"] for f in first.files} & {f["path"] for f in second.files}
    assert dataset.manifest()["games"] == 6


def test_a_match_still_finishing_is_left_for_the_next_export(site: dict[str, Any]) -> None:
    export = dataset.export_games()  # by default: the games finished a few minutes ago
    assert export is not None and export.games == 5
    recent = engine_match([site["bots"]["heuristic"], site["bots"]["bob-bot"]], seed=8)
    assert dataset.export_games() is None  # finished just now: not yet
    later = dataset.export_games(timezone.now() + dt.timedelta(seconds=1))
    assert later is not None
    assert [m for m, _, _ in exported_records(later)] == [str(recent.uuid)]


def test_an_unreadable_replay_is_left_out_and_named(site: dict[str, Any]) -> None:
    broken = site["public"][0]
    path = Path(settings.DATA_DIR) / broken.result_dir / "game-00001.json"
    path.write_text("{not json")
    export = dataset.export_games(timezone.now())
    assert export is not None and export.games == 4
    assert export.skipped and str(broken.uuid) in export.skipped[0]


def test_the_site_lists_and_serves_the_files_and_nothing_else(site: dict[str, Any]) -> None:
    export = dataset.export_games(timezone.now())
    assert export is not None
    client = Client()
    page = client.get(reverse("dataset"))
    assert page.status_code == 200
    html = page.content.decode()
    assert "5 games in 1 export" in html
    for item in export.files:
        assert reverse("dataset-file", args=[item["path"]]) in html
    assert reverse("dataset") in client.get(reverse("match-list")).content.decode()
    listing = client.get(reverse("api-dataset")).json()
    assert listing["format"] == "nimmt-dataset/1" and listing["games"] == 5
    item = listing["files"][0]
    answer = client.get(item["url"])
    assert answer.status_code == 200 and answer.getvalue() == stored(item["path"])
    log_name = f"{site['public'][0].result_dir}/logs/alice-bot.log"
    for path in ("../" + log_name, log_name, "games/variant=basic/other.parquet", "x/../y"):
        assert client.get(f"/dataset/files/{path}").status_code == 404


def test_nimmt_dataset_downloads_only_what_is_new_and_the_loader_reads_it(
    site: dict[str, Any], tmp_path: Path
) -> None:
    dataset.export_games(timezone.now())
    client = Client()
    asked: list[str] = []

    def fetch(url: str) -> bytes:
        asked.append(url)
        answer = client.get(url.removeprefix("http://testserver"))
        assert answer.status_code == 200, url
        return answer.getvalue()

    assert dataset_cli.download("http://testserver", tmp_path, fetch) == (4, 0)
    records = list(games(tmp_path))
    assert sorted(r.to_text() for r in records) == sorted(
        public_replay(m, 1).to_text() for m in site["public"]
    )
    assert read_manifest(tmp_path)["games"] == 5
    # per-decision rows: every decision, each from the seat's own view
    record = next(r for r in records if r.variant == "classic")
    rows = list(decisions(record))
    assert len([r for r in rows if r.kind == "tile"]) == 2 * len(record.turns)
    assert all(r.action in r.legal and r.view.seat == r.seat for r in rows)
    assert {r.final_score for r in rows if r.seat == 0} == {record.result.scores[0]}
    later = engine_match([site["bots"]["heuristic"], site["bots"]["bob-bot"]], seed=12)
    Match.objects.filter(pk=later.pk).update(finished_at=timezone.now() + dt.timedelta(seconds=1))
    dataset.export_games(timezone.now() + dt.timedelta(seconds=2))
    asked.clear()
    assert dataset_cli.download("http://testserver", tmp_path, fetch) == (2, 4)
    assert len(asked) == 3  # the list and the two new files
    assert len(list(games(tmp_path))) == 6
    assert len(list(games(tmp_path, variant="classic"))) == 1


def test_nimmt_dataset_refuses_a_file_outside_its_folder_or_with_a_wrong_hash(
    tmp_path: Path,
) -> None:
    def listing(files: list[dict[str, Any]]) -> Any:
        body = json.dumps({"format": "nimmt-dataset/1", "files": files}).encode()
        return lambda url: body if url.endswith("/api/v1/dataset/") else b"data"

    with pytest.raises(Failure, match="outside the dataset's folder"):
        dataset_cli.download(
            "http://x", tmp_path, listing([{"path": "../evil", "url": "/f", "sha256": ""}])
        )
    with pytest.raises(Failure, match="does not match its SHA-256"):
        dataset_cli.download(
            "http://x", tmp_path, listing([{"path": "a/b", "url": "/f", "sha256": "0" * 64}])
        )
    assert not (tmp_path / "a" / "b").exists()


def test_the_command_exports_and_checks_its_argument(
    site: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    call_command("export_games", "--until", timezone.now().isoformat())
    assert "export 1: 5 games of 5 matches in 4 files" in capsys.readouterr().out
    call_command("export_games")
    assert "no new public games" in capsys.readouterr().out
    for bad, message in (
        ("yesterday", "not an ISO 8601 time"),
        ("2026-12-06T03:00:00", "needs a time zone"),
        ((timezone.now() + dt.timedelta(days=1)).isoformat(), "in the future"),
    ):
        with pytest.raises(CommandError, match=message):
            call_command("export_games", "--until", bad)


def test_the_beat_exports_nightly_on_the_maintenance_queue() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["export-games"]
    assert entry["task"] == "matches.tasks.export_games"
    assert ROUTES[entry["task"]] == "maintenance"
    schedule: Any = entry["schedule"]
    assert schedule.hour == {settings.EXPORT_HOUR_UTC} and schedule.minute == {0}
