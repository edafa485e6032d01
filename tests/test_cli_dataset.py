"""``nimmt dataset`` over real HTTP: a site's list and files served from a folder on 127.0.0.1,
downloaded, checked and read back with ``arena.dataset``; bad addresses and unreachable sites
are one clear line and an exit status, never a traceback."""

import functools
import hashlib
import http.server
import json
import random
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.cli import main as nimmt
from arena.dataset import games, write_jsonl
from arena.engine import Game
from arena.engine.record import GameRecord
from arena.engine.replay import to_replay


def played(seed: int) -> GameRecord:
    game = Game.new("classic", 3, seed)
    rng = random.Random(seed)
    while game.pending is not None:
        seat = rng.choice(game.pending.seats)
        game.apply(seat, rng.choice(game.legal(seat)))
    return GameRecord.from_json(to_replay(game, ["a", "b", "c"]))


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, list[GameRecord]]]:
    """A folder served as a site: ``/api/v1/dataset/`` and one JSON-lines file."""
    root = tmp_path / "site"
    records = [played(seed) for seed in range(3)]
    body = write_jsonl(records)
    path = "replays/variant=classic/part-000001-abcd-001.jsonl.gz"
    (root / "files" / path).parent.mkdir(parents=True)
    (root / "files" / path).write_bytes(body)
    listing = {
        "format": "nimmt-dataset/1",
        "games": 3,
        "newest": None,
        "exports": [],
        "files": [
            {
                "path": path,
                "kind": "replays",
                "variant": "classic",
                "games": 3,
                "size": len(body),
                "sha256": hashlib.sha256(body).hexdigest(),
                "url": f"/files/{path}",
            }
        ],
    }
    (root / "api" / "v1" / "dataset").mkdir(parents=True)
    (root / "api" / "v1" / "dataset" / "index.html").write_text(json.dumps(listing))
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", records
    finally:
        server.shutdown()
        server.server_close()


def test_it_downloads_the_dataset_and_a_second_run_keeps_what_it_has(site, tmp_path, capsys):
    url, records = site
    out = tmp_path / "out"
    assert nimmt(["dataset", "--site", url, "--out", str(out)]) == 0
    assert "1 files downloaded, 0 already there" in capsys.readouterr().out
    assert [r.to_text() for r in games(out)] == [r.to_text() for r in records]
    assert nimmt(["dataset", "--site", url + "/", "--out", str(out)]) == 0
    assert "0 files downloaded, 1 already there" in capsys.readouterr().out


def test_bad_addresses_and_unreachable_sites_are_one_clear_line(tmp_path, capsys):
    assert nimmt(["dataset", "--site", "ftp://x", "--out", str(tmp_path)]) == 2
    assert "is not an http(s) address" in capsys.readouterr().err
    assert nimmt(["dataset", "--site", "http://127.0.0.1:9", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "could not download http://127.0.0.1:9/api/v1/dataset/" in err
    assert "Traceback" not in err


def test_reading_a_folder_without_a_dataset_says_so(tmp_path):
    with pytest.raises(FileNotFoundError, match="no dataset here"):
        next(games(tmp_path))
