"""The dataset of every public game (docs/DATASET.md): read it as game records and training rows.

The site exports its finished public games (``manage.py export_games``) as Parquet files
partitioned by variant (``games/variant=<v>/part-*.parquet``, one row per game: the match's
context and the replay) and the same replays as JSON lines (``replays/variant=<v>/part-*.jsonl.gz``,
``nimmt-replay/1``, one replay a line); ``nimmt dataset`` downloads them into a folder. This module
reads such a folder without Django:

* :func:`games` yields every game's :class:`~arena.engine.record.GameRecord` (from the Parquet
  files; from the JSON lines where pyarrow is not installed);
* :func:`decisions` re-plays a record with the engine and yields one :class:`DecisionRow` per
  decision: the view the seat decided in, its legal options, what it chose, and how the game
  ended for it, the rows a policy or value network is trained on.

>>> from arena.engine import Game
>>> from arena.engine.replay import to_record
>>> game = Game.new("classic", players=2, seed=5)
>>> while not game.is_over():
...     for seat in game.pending.seats:
...         game.apply(seat, game.legal(seat)[-1])
>>> record = to_record(game, ["a", "b"])
>>> rows = list(decisions(record))
>>> len(rows), rows[0].kind, rows[0].action in rows[0].legal, rows[0].final_score
(26, 'tile', True, 6)
"""

import gzip
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.engine.decisions import Decision
from arena.engine.errors import ReplayError
from arena.engine.game import Game
from arena.engine.observation import Observation, observe
from arena.engine.record import GameRecord
from arena.engine.replay import replay_turn, start

#: The dataset's manifest format (``manifest.json``, and the site's ``/api/v1/dataset/``).
MANIFEST_FORMAT = "nimmt-dataset/1"
GAMES_DIR = "games"
REPLAYS_DIR = "replays"


@dataclass(frozen=True)
class DecisionRow:
    """One decision of one seat in one game, as a training example.

    ``view`` is exactly what the seat saw when it decided (its :class:`Observation`, with
    ``view.legal`` the options); ``legal`` their text forms (``"tile 37"``, ``"take 2"``...),
    ``action`` the text form of what it chose (one of ``legal``); ``final_score`` and
    ``final_rank`` the seat's at the end of the game (in ``classic`` a lower score is better).
    ``turn`` is the 0-based index of the turn in the replay.
    """

    seat: int
    turn: int
    kind: str
    view: Observation
    legal: tuple[str, ...]
    action: str
    final_score: int
    final_rank: int


def decisions(record: GameRecord) -> Iterator[DecisionRow]:
    """Every decision of ``record``'s game in the order taken, re-played with the engine.

    Raises :class:`~arena.engine.errors.ReplayError` (or another
    :class:`~arena.engine.errors.NimmtError`) where the record does not re-play.
    """
    game = start(record)
    scores, ranks = record.result.scores, record.result.ranks
    if len(scores) != game.players or len(ranks) != game.players:
        raise ReplayError(f"the result lists {len(scores)} scores for {game.players} seats")
    taken: list[tuple[int, Observation, Decision]] = []

    def before(game: Game, seat: int, decision: Decision) -> None:
        taken.append((seat, observe(game, seat), decision))

    for number, recorded in enumerate(record.turns):
        replay_turn(game, recorded, before)
        for seat, view, decision in taken:
            kind = view.pending.kind.value if view.pending is not None else "tile"
            legal = tuple(str(d) for d in view.legal)
            yield DecisionRow(
                seat, number, kind, view, legal, str(decision), scores[seat], ranks[seat]
            )
        taken.clear()


def games(folder: str | Path, variant: str | None = None) -> Iterator[GameRecord]:
    """Every game of the dataset in ``folder`` (what ``nimmt dataset`` downloaded), part by
    part in the order exported; only ``variant``'s if given. From the Parquet files where
    there are any and pyarrow is installed, else from the JSON lines (the same replays)."""
    root = Path(folder)
    if not (root / GAMES_DIR).is_dir() and not (root / REPLAYS_DIR).is_dir():
        raise FileNotFoundError(f"{root}: no dataset here (no {GAMES_DIR}/ or {REPLAYS_DIR}/)")
    tables = _parts(root / GAMES_DIR, variant, ".parquet")
    try:
        import pyarrow.parquet as pq
    except ImportError:  # an optional extra
        tables = []
    if not tables:
        for path in _parts(root / REPLAYS_DIR, variant, ".jsonl.gz"):
            yield from replays_in(path)
        return
    for path in tables:
        table = pq.read_table(path, columns=["replay"])
        for text in table.column("replay").to_pylist():
            yield GameRecord.from_text(text)


def replays_in(path: str | Path) -> Iterator[GameRecord]:
    """The records of one JSON-lines file (gzip-compressed if its name ends in ``.gz``)."""
    path = Path(path)
    opener: Any = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if line.strip():
                try:
                    yield GameRecord.from_text(line)
                except ReplayError as exc:
                    raise ReplayError(f"{path}:{number}: {exc}") from None


def write_jsonl(records: Iterable[GameRecord]) -> bytes:
    """The records as gzip-compressed JSON lines, one replay a line (the dataset's form)."""
    text = "".join(record.to_text() + "\n" for record in records)
    return gzip.compress(text.encode("utf-8"), mtime=0)


def _parts(folder: Path, variant: str | None, suffix: str) -> list[Path]:
    if not folder.is_dir():
        return []
    found = [
        p
        for p in folder.glob(f"variant=*/*{suffix}")
        if variant is None or p.parent.name == f"variant={variant}"
    ]
    return sorted(found, key=lambda p: (p.name, p.parent.name))


def read_manifest(folder: str | Path) -> dict[str, Any]:
    """The dataset's ``manifest.json`` (what ``nimmt dataset`` wrote)."""
    path = Path(folder) / "manifest.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT:
        raise ValueError(f"{path}: not a {MANIFEST_FORMAT} manifest")
    return data
