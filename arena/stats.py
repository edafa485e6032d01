"""Statistics of a series of games per bot, and the table that shows them.

Used by ``nimmt play`` and meant for the match runner and the site, so that every place shows
the same numbers:

- **mean score** with a 95% confidence interval from the normal approximation,
  ``mean ± 1.96 · sd / √n`` (``sd`` the sample standard deviation; no interval below 2 games);
- **win rate**: the share of games the bot finished at rank 1. Ranks are competition ranks, so
  a first place shared by two bots counts as a win for each of them, and win rates of a series
  can add up to more than 100%;
- **mean rank** (1 = best).

>>> rows = summarize_series(
...     ["heuristic", "random"],
...     [SeatedGame((0, 1), (10, 4), (1, 2)), SeatedGame((1, 0), (2, 8), (2, 1))],
... )
>>> print(format_table(rows))
bot        games  mean score ± 95% CI  win rate  mean rank
heuristic      2         9.00 ±  1.96    100.0%       1.00
random         2         3.00 ±  1.96      0.0%       2.00
"""

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

Z95 = 1.96  # two-sided 95% quantile of the normal distribution


def mean(values: Sequence[float]) -> float:
    """The arithmetic mean.

    >>> mean([1, 2, 6])
    3.0
    """
    if not values:
        raise ValueError("the mean of no values is undefined")
    return sum(values) / len(values)


def confidence95(values: Sequence[float]) -> float:
    """Half-width of the 95% confidence interval of the mean (normal approximation).

    NaN for fewer than two values: one game says nothing about the spread.

    >>> round(confidence95([1, 2, 3, 4]), 4)
    1.2652
    >>> confidence95([5])
    nan
    """
    n = len(values)
    if n < 2:
        return math.nan
    m = mean(values)
    variance = sum((v - m) ** 2 for v in values) / (n - 1)
    return Z95 * math.sqrt(variance / n)


@dataclass(frozen=True)
class BotSummary:
    """One bot's line of the table."""

    name: str
    games: int
    mean_score: float
    ci95: float  # half-width; NaN below two games
    wins: int  # games at rank 1, shared first places included
    win_rate: float
    mean_rank: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (a NaN interval becomes ``None``)."""
        data = asdict(self)
        if math.isnan(self.ci95):
            data["ci95"] = None
        return data


def summarize(name: str, scores: Sequence[float], ranks: Sequence[int]) -> BotSummary:
    """The summary of one bot from its score and rank in each game.

    >>> summarize("a", [3, 5], [1, 1])
    BotSummary(name='a', games=2, mean_score=4.0, ci95=1.96, wins=2, win_rate=1.0, mean_rank=1.0)
    """
    if len(scores) != len(ranks):
        raise ValueError(f"{len(scores)} scores but {len(ranks)} ranks")
    if not scores:
        raise ValueError(f"bot {name!r} played no games")
    wins = sum(1 for r in ranks if r == 1)
    return BotSummary(
        name=name,
        games=len(scores),
        mean_score=mean(scores),
        ci95=confidence95(scores),
        wins=wins,
        win_rate=wins / len(ranks),
        mean_rank=mean(ranks),
    )


@dataclass(frozen=True)
class SeatedGame:
    """One game's outcome: per seat, the lineup entry sitting there, its score and its rank."""

    seats: tuple[int, ...]
    scores: tuple[int, ...]
    ranks: tuple[int, ...]


def summarize_series(names: Sequence[str], games: Iterable[SeatedGame]) -> list[BotSummary]:
    """One summary per lineup entry (``names[k]`` is entry ``k``), in lineup order."""
    scores: list[list[float]] = [[] for _ in names]
    ranks: list[list[int]] = [[] for _ in names]
    for game in games:
        for seat, entry in enumerate(game.seats):
            scores[entry].append(game.scores[seat])
            ranks[entry].append(game.ranks[seat])
    return [summarize(n, s, r) for n, s, r in zip(names, scores, ranks, strict=True)]


def entry_names(specs: Sequence[str]) -> list[str]:
    """Names for a lineup: a spec that appears again gets ``#2``, ``#3``...

    >>> entry_names(["heuristic", "random", "random"])
    ['heuristic', 'random', 'random#2']
    """
    names = []
    for i, spec in enumerate(specs):
        count = specs[:i].count(spec)
        names.append(spec if count == 0 else f"{spec}#{count + 1}")
    return names


def format_table(rows: Sequence[BotSummary], higher_is_better: bool = True) -> str:
    """A plain-text table, one line per bot. The card game's score is a penalty (lower wins),
    which the header says."""
    score = "mean score ± 95% CI" if higher_is_better else "penalty ± 95% CI"
    width = max([3, *(len(r.name) for r in rows)])
    lines = [f"{'bot':<{width}}  games  {score:>19}  win rate  mean rank"]
    for r in rows:
        ci = "  n/a" if math.isnan(r.ci95) else f"{r.ci95:5.2f}"
        lines.append(
            f"{r.name:<{width}}  {r.games:5d}  {r.mean_score:>11.2f} ± {ci}  "
            f"{100 * r.win_rate:7.1f}%  {r.mean_rank:9.2f}"
        )
    return "\n".join(lines)
