"""A tournament's table and crosstable from its games (pure: numbers in, numbers out).

**Points** are pairwise, so that they mean the same at any table size: in each game an entrant
gets 1 point for every opponent it finished above, ½ for every opponent it tied with, and 0
otherwise (a two-player game: 1, ½ or 0, as in chess). A Swiss bye is worth half of what the
games it stands for could give. The table is sorted by points, then by mean score (lower is
better in the card game, whose score is a penalty), then by seeding.

The crosstable pairs every two entrants over the games they played *together*: their pairwise
results (wins, draws, losses; LOS from them) and the per-game score difference with its 95%
interval (:func:`core.stats.compare_paired`), which the shared deal makes a fair comparison.

>>> games = [GameRecord(((0, 30, 1), (1, 20, 2))), GameRecord(((1, 25, 1), (0, 25, 1))),
...          GameRecord(((0, 40, 1), (1, 10, 2)))]
>>> [(s.entrant, s.place, s.points, s.games) for s in standings([0, 1], games,
...                                                             higher_is_better=True)]
[(0, 1, 2.5, 3), (1, 2, 0.5, 3)]
>>> cell = crosstable(games, higher_is_better=True)[0, 1]
>>> cell.wins, cell.draws, cell.losses, cell.comparison.text()
(2, 1, 0, '+13.33 ± 17.29 (LOS 93.5%, 3 games)')
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from core.stats import Comparison, Estimate, compare_paired, estimate, los_from_results

__all__ = ["Cell", "GameRecord", "Standing", "crosstable", "standings"]


@dataclass(frozen=True)
class GameRecord:
    """One played game: ``(entrant, score, rank)`` per seat."""

    seats: tuple[tuple[int, int, int], ...]
    round: int = 0


@dataclass(frozen=True)
class Standing:
    entrant: int
    place: int
    games: int
    points: float
    possible: float  # the points the games (and byes) could have given
    score: Estimate | None  # mean score per game with its 95% interval; None without games
    mean_rank: float | None
    wins: int  # games finished first (shared first places count)
    byes: int

    @property
    def share(self) -> float:
        """Points as a share of the possible (NaN before any game)."""
        return self.points / self.possible if self.possible else math.nan


@dataclass
class Cell:
    """Entrant A against entrant B (A's point of view) over their shared games."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    diffs: list[float] = field(default_factory=list)  # A's score minus B's, better > 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws

    @property
    def los(self) -> float:
        """Likelihood that A is the stronger, from wins and losses."""
        return los_from_results(self.wins, self.losses)

    @property
    def comparison(self) -> Comparison:
        return compare_paired(self.diffs)


def _pairs(game: GameRecord, higher_is_better: bool) -> Iterable[tuple[int, int, int, float]]:
    """Every ordered pair of seats: (a, b, outcome for a: 1 / 0 / -1, a's score edge)."""
    sign = 1 if higher_is_better else -1
    for a, score_a, rank_a in game.seats:
        for b, score_b, rank_b in game.seats:
            if a != b:
                outcome = 1 if rank_a < rank_b else -1 if rank_a > rank_b else 0
                yield a, b, outcome, float(sign * (score_a - score_b))


def standings(
    entrants: Sequence[int],
    games: Iterable[GameRecord],
    *,
    higher_is_better: bool,
    byes: Mapping[int, int] | None = None,
    bye_value: float = 0.0,
) -> list[Standing]:
    """The table, best first. ``byes[e]`` byes, each worth ``bye_value`` points (half of the
    points the games it stands for could give).

    >>> rows = standings([0, 1, 2], [GameRecord(((0, 5, 1), (1, 9, 2)))],
    ...                  higher_is_better=False, byes={2: 1}, bye_value=0.5)
    >>> [(r.entrant, r.place, r.points, r.possible) for r in rows]
    [(0, 1, 1.0, 1.0), (2, 2, 0.5, 1.0), (1, 3, 0.0, 1.0)]
    """
    byes = byes or {}
    scores: dict[int, list[float]] = {e: [] for e in entrants}
    ranks: dict[int, list[int]] = {e: [] for e in entrants}
    points = {e: byes.get(e, 0) * bye_value for e in entrants}
    possible = {e: byes.get(e, 0) * 2 * bye_value for e in entrants}  # a bye is half of it
    for game in games:
        for entrant, score, rank in game.seats:
            scores[entrant].append(score)
            ranks[entrant].append(rank)
            possible[entrant] += len(game.seats) - 1
        for a, _b, outcome, _edge in _pairs(game, higher_is_better):
            points[a] += 1.0 if outcome > 0 else 0.5 if outcome == 0 else 0.0
    sign = 1 if higher_is_better else -1
    order = {e: i for i, e in enumerate(entrants)}

    def strength(e: int) -> tuple[float, float]:
        mean = sum(scores[e]) / len(scores[e]) if scores[e] else -math.inf * sign
        return (points[e], sign * mean)

    ranked = sorted(entrants, key=lambda e: (tuple(-x for x in strength(e)), order[e]))
    keys = [strength(e) for e in ranked]
    rows = []
    for i, e in enumerate(ranked):
        place = 1 + sum(1 for k in keys if k > keys[i])
        rows.append(
            Standing(
                entrant=e,
                place=place,
                games=len(scores[e]),
                points=points[e],
                possible=possible[e],
                score=estimate(scores[e]) if scores[e] else None,
                mean_rank=sum(ranks[e]) / len(ranks[e]) if ranks[e] else None,
                wins=sum(1 for r in ranks[e] if r == 1),
                byes=byes.get(e, 0),
            )
        )
    return rows


def crosstable(
    games: Iterable[GameRecord], *, higher_is_better: bool
) -> dict[tuple[int, int], Cell]:
    """``cells[a, b]``: A against B over their shared games (missing: they never met)."""
    cells: dict[tuple[int, int], Cell] = {}
    for game in games:
        for a, b, outcome, edge in _pairs(game, higher_is_better):
            cell = cells.setdefault((a, b), Cell())
            if outcome > 0:
                cell.wins += 1
            elif outcome < 0:
                cell.losses += 1
            else:
                cell.draws += 1
            cell.diffs.append(edge)
    return cells
