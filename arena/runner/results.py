"""What a match produces, as typed values: per-bot reports and the match result.

These values cross every boundary out of the runner: :class:`MatchResult` writes ``match.json``
(``nimmt-match/2``) and is what ``nimmt match``, ``nimmt bot check`` and the site read (never
``match.json``'s keys). A bot's faults and drop are the table's values
(:class:`arena.table.faults.Fault`, :class:`~arena.table.faults.Drop`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from arena.engine.record import GameRecord
from arena.stats import BotSummary
from arena.table.faults import Drop, Fault, FaultKind
from arena.table.notes import DecisionNote, notes_name

#: ``format`` of ``match.json``.
MATCH_FORMAT = "nimmt-match/2"


@dataclass(frozen=True)
class ProgramInfo:
    """What ran for a bot program: its folder and command, and how its process fared."""

    directory: str
    command: tuple[str, ...]
    language: str
    trusted: bool
    start_ms: float | None = None  # from launch to its Hello
    peak_memory_mb: float | None = None
    exit_code: int | None = None
    pid: int | None = None
    uid: int | None = None
    log: str | None = None  # its log file, relative to the match's folder
    #: The socket it played on: ``framed`` (the cheaper one) or ``grpc`` (a kit without it).
    transport: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "directory": self.directory,
            "command": list(self.command),
            "language": self.language,
            "trusted": self.trusted,
            "start_ms": _rounded(self.start_ms, 1),
            "peak_memory_mb": _rounded(self.peak_memory_mb, 1),
            "exit_code": self.exit_code,
            "pid": self.pid,
            "uid": self.uid,
            "log": self.log,
            "transport": self.transport,
        }


@dataclass(frozen=True)
class BotReport:
    """One entrant's match: its faults, its answers and their times, its total score and rank.

    ``kind`` is how it sat at the table (``program``, ``external``, ``in-process``, ``joined``:
    a seat its entrant brought, such as a remote bot's); ``network`` the remote seat's network
    figures;
    ``program`` is set for a bot program. ``rank`` is the entrant's place in the match, 1 best,
    as the match's :class:`Ranking` says: its game's rank for a one-game match, by total score
    (mean rank breaking ties) for a duplicate match, else by mean rank (a fault ranks a seat last
    in its game, so faults weigh in through the games' ranks).
    """

    name: str
    kind: str
    faults: tuple[Fault, ...]
    dropped: Drop | None
    answers: int
    think_mean_ms: float | None
    think_max_ms: float
    score: int
    rank: int
    program: ProgramInfo | None = None
    # A remote seat's network figures (round trip, allowance given; see Seat.network).
    network: Mapping[str, float | int | str] | None = None

    @property
    def fault_counts(self) -> dict[FaultKind, int]:
        """Faults by kind, every kind present."""
        counts = dict.fromkeys(FaultKind, 0)
        for fault in self.faults:
            counts[fault.kind] += 1
        return counts

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "score": self.score,
            "rank": self.rank,
            "faults": {kind.value: n for kind, n in self.fault_counts.items()},
            "fault_list": [f.to_dict() for f in self.faults],
            "dropped": None if self.dropped is None else self.dropped.to_dict(),
            "answers": self.answers,
            "think_ms": {
                "mean": _rounded(self.think_mean_ms, 3),
                "max": round(self.think_max_ms, 3),
            },
        }
        if self.program is not None:
            data |= self.program.to_dict()
        if self.network is not None:
            data["network"] = dict(self.network)
        return data


@dataclass(frozen=True)
class SandboxReport:
    """Whether bot programs ran sandboxed, which layers this machine gave, and why not."""

    enabled: bool = False
    layers: Mapping[str, bool] = field(default_factory=dict)
    note: str = ""

    @property
    def active(self) -> list[str]:
        return [name for name, on in self.layers.items() if on]

    @property
    def missing(self) -> list[str]:
        return [name for name, on in self.layers.items() if not on]

    def describe(self) -> str:
        """One line for a report ("" when no program played)."""
        if not self.layers:
            return ""
        text = f"sandbox {'on' if self.enabled else 'OFF'}: {', '.join(self.active) or 'no layers'}"
        if self.missing:
            text += f" (missing: {', '.join(self.missing)})"
        return text

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"enabled": self.enabled, "layers": dict(self.layers)}
        if self.note:
            data["note"] = self.note
        return data


@dataclass(frozen=True)
class MatchSettings:
    """The rules a match was played under (see :mod:`arena.runner.rules`)."""

    variant: str
    games: int
    seed: int
    decision_ms: int
    bank_ms: int
    max_faults: int
    duplicate: bool = False  # each deal played once per seat rotation

    @property
    def ranking(self) -> Ranking:
        """How the match places its entrants."""
        return Ranking.of(self.games, self.duplicate)

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "games": self.games,
            "seed": self.seed,
            "duplicate": self.duplicate,
            "ranked_by": self.ranking.value,
            "decision_ms": self.decision_ms,
            "bank_ms": self.bank_ms,
            "max_faults": self.max_faults,
        }


@dataclass(frozen=True)
class MatchResult:
    """A played match: its replays (:class:`~arena.engine.record.GameRecord`, ``nimmt-replay/1``),
    one :class:`BotReport` per entrant in lineup order, the results table (as ``nimmt play``
    prints it) and what ``match.json`` says besides."""

    match_id: str
    protocol: str
    started: str  # ISO 8601, UTC
    duration_s: float
    settings: MatchSettings
    sandbox: SandboxReport
    bots: tuple[BotReport, ...]
    table: tuple[BotSummary, ...]
    replays: tuple[GameRecord, ...]
    # Per game, the seats' notes on their decisions (kept apart from the public replays).
    notes: tuple[tuple[DecisionNote, ...], ...] = ()

    @property
    def notes_files(self) -> list[str | None]:
        """Per game, the name of its notes file in the match's folder (``None``: no notes)."""
        return [
            notes_name(replay_file(i)) if i < len(self.notes) and self.notes[i] else None
            for i in range(len(self.replays))
        ]

    @property
    def replay_files(self) -> list[str]:
        """The replays' file names in the match's folder, one per game."""
        return [replay_file(i) for i in range(len(self.replays))]

    def bot(self, name: str) -> BotReport:
        """The report of the entrant called ``name`` (KeyError if none)."""
        for bot in self.bots:
            if bot.name == name:
                return bot
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        """``match.json``'s content."""
        return {
            "format": MATCH_FORMAT,
            "protocol": self.protocol,
            "match_id": self.match_id,
            "started": self.started,
            "duration_s": round(self.duration_s, 3),
            **self.settings.to_dict(),
            "games": len(self.replays),
            "sandbox": self.sandbox.to_dict(),
            "bots": [bot.to_dict() for bot in self.bots],
            "results": [row.to_dict() for row in self.table],
            "replays": self.replay_files,
            "notes": self.notes_files,
        }

    def write(self, out: Path) -> Path:
        """Write ``match.json`` into ``out``; its path."""
        path = out / "match.json"
        path.write_text(json.dumps(self.to_json(), indent=2) + "\n", "utf-8")
        return path


def replay_file(index: int) -> str:
    """The file name of game ``index`` (0-based) of a match or series."""
    return f"game-{index + 1:05d}.json"


class Ranking(StrEnum):
    """How a match places its entrants (``match.json``'s ``ranked_by``)."""

    GAME = "game"  # a one-game match: the game's ranks
    MEAN_RANK = "mean_rank"  # several deals, each played once: the mean of the games' ranks
    # A duplicate match, where every entrant held every hand: the total score decides, the
    # mean of the games' ranks breaks ties.
    TOTAL_SCORE = "total_score"

    @classmethod
    def of(cls, games: int, duplicate: bool) -> Ranking:
        """The ranking of a match of ``games`` games (``duplicate``: each deal in every seat
        rotation).

        >>> [Ranking.of(1, False).value, Ranking.of(10, False).value, Ranking.of(8, True).value]
        ['game', 'mean_rank', 'total_score']
        """
        if duplicate:
            return cls.TOTAL_SCORE
        return cls.GAME if games == 1 else cls.MEAN_RANK

    @property
    def words(self) -> str:
        """What a rank means, for a person reading the results."""
        return _RANKING_WORDS[self]


_RANKING_WORDS = {
    Ranking.GAME: "the place in the game (a seat with a fault ranks below every seat without one)",
    Ranking.MEAN_RANK: "by the mean of the places in the games, each game a deal of its own "
    "(a seat with a fault ranks below every seat without one in that game)",
    Ranking.TOTAL_SCORE: "by the total score: every bot held every hand, each deal being played "
    "once per seat rotation; equal totals are told apart by the mean of the places in the games",
}


def match_ranks(
    game_ranks: Sequence[Sequence[int]],
    ranking: Ranking,
    totals: Sequence[int] = (),
    higher_is_better: bool = True,
) -> list[int]:
    """Each entrant's place in a match (1 best, equal keys share a place) from its rank in every
    game it played and, for :attr:`Ranking.TOTAL_SCORE`, its total score (``higher_is_better``
    false: a penalty, the card game's).

    >>> match_ranks([[1], [3], [2]], Ranking.GAME)
    [1, 3, 2]
    >>> match_ranks([[1, 2], [2, 1], [3, 3]], Ranking.MEAN_RANK)
    [1, 1, 3]
    >>> match_ranks([[1, 2, 1], [2, 1, 2], [3, 3, 3]], Ranking.TOTAL_SCORE, [19, 24, -72])
    [2, 1, 3]
    >>> match_ranks([[1, 2], [2, 1], [3, 3]], Ranking.TOTAL_SCORE, [30, 30, 31], False)
    [1, 1, 3]
    >>> match_ranks([[1, 1], [2, 2]], Ranking.TOTAL_SCORE, [10, 10])
    [1, 2]
    """
    if ranking is Ranking.GAME:
        if not all(len(ranks) == 1 for ranks in game_ranks):
            raise ValueError("a one-game match's entrants each have one game's rank")
        return [ranks[0] for ranks in game_ranks]
    means = [sum(r) / len(r) if r else math.inf for r in game_ranks]
    keys: list[tuple[float, ...]] = [(mean,) for mean in means]
    if ranking is Ranking.TOTAL_SCORE:
        if len(totals) != len(game_ranks):
            raise ValueError(f"{len(totals)} totals for {len(game_ranks)} entrants")
        sign = -1 if higher_is_better else 1
        keys = [(sign * total, mean) for total, mean in zip(totals, means, strict=True)]
    return [1 + sum(other < mine for other in keys) for mine in keys]


def _rounded(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)
