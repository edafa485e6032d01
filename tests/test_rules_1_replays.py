"""Replays played under the reading ``nimmt-rules/1`` (``tests/data/rules-1/``, written by the
engine before reading 2) keep their verdict: they verify, show and give the viewer's frames."""

import hashlib
import json
from pathlib import Path

import pytest

from arena.cli import main as nimmt
from arena.engine import replay as replays
from arena.engine.frames import frames

DATA = Path(__file__).parent / "data" / "rules-1"
FILES = sorted(DATA.glob("*.json"))
#: The keys the frames had when the set was made; the digests cover exactly these.
FRAME_KEYS = (
    "bullheads",
    "format",
    "frames",
    "higher_is_better",
    "layout",
    "players",
    "result",
    "row_lengths",
    "turn_ends",
    "turns",
    "variant",
)


def digests(name: str) -> dict[str, str]:
    """File name -> SHA-256, from a ``sha256sum``-style manifest of the set."""
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return {file: digest for digest, file in (line.split("  ") for line in lines)}


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_the_set_covers_every_variant_and_player_count() -> None:
    seen = {(r.variant, len(r.players)) for r in map(replays.read, FILES)}
    board = {(v, n) for v in ("basic", "basic+luck", "pro", "pro+luck") for n in range(2, 7)}
    assert seen == board | {("classic", n) for n in range(2, 11)}


def test_none_of_them_names_a_reading() -> None:
    assert all(replays.read(path).rules is None for path in FILES)
    assert all(b'"rules"' not in path.read_bytes() for path in FILES)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_an_old_replay_still_verifies_shows_and_has_frames(path: Path) -> None:
    replay = replays.read(path)
    assert replays.verify(replay) == []
    assert not [line for line in replays.render(replay) if line.startswith("MISMATCH")]
    film = frames(replay)
    assert len(film.turn_ends) == len(replay.turns) + 1
    assert film.frames[-1].scores == replay.turns[-1].scores
    assert replay.to_text() == path.read_text(encoding="utf-8").strip()  # the very bytes


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_an_old_replay_gives_the_very_frames_and_text_it_gave_when_it_was_written(
    path: Path,
) -> None:
    replay = replays.read(path)
    data = frames(replay).to_json()
    pinned = {key: data[key] for key in FRAME_KEYS}
    text = json.dumps(pinned, sort_keys=True, separators=(",", ":"))
    assert sha256(text) == digests("frames.sha256")[path.name]
    shown = "\n".join(list(replays.render(replay))[1:])
    assert sha256(shown) == digests("show.sha256")[path.name]


def test_nimmt_replay_verify_accepts_the_whole_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert nimmt(["replay", "verify", str(DATA)]) == 0
    assert f"{len(FILES)} replays: {len(FILES)} ok, 0 mismatched" in capsys.readouterr().out
