"""Is one bot really better than another? Means, intervals and the likelihood of superiority.

Game scores are noisy: the deal decides much of a game. This module says how sure a difference
is. It is pure (no Django) and uses the arena's own conventions (:mod:`arena.stats`): a 95%
interval from the normal approximation, ``mean ± 1.96 · sd / √n``, and none below two games.
With few games that interval is optimistic; the pages show the number of games beside it.

- :func:`estimate`: a bot's mean score with its interval.
- :func:`compare_paired`: two bots over the games they played *together* (the same deal, so the
  luck of the deal cancels out of the difference): the mean score difference per game, its 95%
  interval, and the likelihood of superiority ``LOS = Φ(diff / σ)``, ``σ`` the standard error of
  the mean difference.
- :func:`compare_sums`: the same from sums (what a database ``GROUP BY`` returns).
- :func:`los_from_results`: chess engine testing's LOS from wins and losses (draws tell nothing
  about which is stronger): ``Φ((W - L) / √(W + L))``.

A difference is *significant* (at 95%, two-sided) when its interval excludes zero, which is the
same as LOS above 97.5% or below 2.5%.

>>> c = compare_paired([3, -1, 4, 1, 5, -2, 6, 2])
>>> c.text()
'+2.25 ± 1.95 (LOS 98.8%, 8 games)'
>>> c.significant
True
>>> round(los_from_results(wins=60, losses=40), 4)
0.9772
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from arena.stats import Z95, confidence95, mean

__all__ = [
    "Z95",
    "Comparison",
    "Estimate",
    "compare_paired",
    "compare_sums",
    "estimate",
    "los_from_results",
    "normal_cdf",
]


def normal_cdf(x: float) -> float:
    """Φ(x), the standard normal distribution function.

    >>> normal_cdf(0.0), round(normal_cdf(1.96), 4), round(normal_cdf(-1.0), 4)
    (0.5, 0.975, 0.1587)
    """
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


@dataclass(frozen=True)
class Estimate:
    """A mean with the half-width of its 95% interval (NaN below two values)."""

    mean: float
    half_width: float
    n: int

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    @property
    def has_interval(self) -> bool:
        return not math.isnan(self.half_width)

    def text(self, digits: int = 2) -> str:
        """``"12.50 ± 3.10"``; without an interval just the mean.

        >>> estimate([10, 14, 12]).text()
        '12.00 ± 2.26'
        >>> estimate([7]).text(1)
        '7.0'
        """
        if not self.has_interval:
            return f"{self.mean:.{digits}f}"
        return f"{self.mean:.{digits}f} ± {self.half_width:.{digits}f}"


def estimate(values: Sequence[float]) -> Estimate:
    """The mean of ``values`` and its 95% interval (the arena's normal approximation).

    >>> e = estimate([1, 2, 3, 4])
    >>> e.mean, round(e.half_width, 4), e.n
    (2.5, 1.2652, 4)
    >>> estimate([])
    Traceback (most recent call last):
    ...
    ValueError: the mean of no values is undefined
    """
    return Estimate(mean(values), confidence95(values), len(values))


@dataclass(frozen=True)
class Comparison:
    """Bot A against bot B over ``games`` shared games; positive ``mean_diff``: A did better.

    ``half_width`` is NaN below two games; ``los`` is the probability that A is the stronger
    (0.5: no idea), NaN without games.
    """

    games: int
    mean_diff: float
    half_width: float
    los: float

    @property
    def has_interval(self) -> bool:
        return not math.isnan(self.half_width)

    @property
    def significant(self) -> bool:
        """The 95% interval excludes zero: one of the two is better, not just luckier."""
        return self.has_interval and abs(self.mean_diff) > self.half_width

    @property
    def verdict(self) -> str:
        """``"A better"``, ``"B better"`` or ``"not significant"`` (short, for tables).

        >>> compare_paired([5, 6, 7, 5]).verdict, compare_paired([1, -1]).verdict
        ('A better', 'not significant')
        """
        if not self.significant:
            return "not significant"
        return "A better" if self.mean_diff > 0 else "B better"

    def text(self, digits: int = 2) -> str:
        if not self.games:
            return "no shared games"
        los = "" if math.isnan(self.los) else f"LOS {100 * self.los:.1f}%, "
        games = f"{self.games} game{'s' if self.games != 1 else ''}"
        if not self.has_interval:
            return f"{self.mean_diff:+.{digits}f} ({los}{games})"
        return f"{self.mean_diff:+.{digits}f} ± {self.half_width:.{digits}f} ({los}{games})"


def compare_sums(n: int, total: float, total_squares: float) -> Comparison:
    """A :class:`Comparison` from the count, sum and sum of squares of per-game differences.

    The sample variance is ``(Σd² - (Σd)²/n) / (n - 1)``; rounding can make it a hair below
    zero, which counts as zero.

    >>> compare_sums(4, 8.0, 24.0).text()
    '+2.00 ± 1.60 (LOS 99.3%, 4 games)'
    >>> compare_sums(0, 0.0, 0.0).text()
    'no shared games'
    >>> compare_sums(1, 3.0, 9.0).text()
    '+3.00 (1 game)'
    >>> compare_sums(3, 6.0, 12.0).los  # every game +2: no doubt left
    1.0
    """
    if n < 0 or (n == 0 and (total or total_squares)):
        raise ValueError(
            f"compare_sums: {n} games cannot have sum {total}, squares {total_squares}"
        )
    if n == 0:
        return Comparison(0, 0.0, math.nan, math.nan)
    diff = total / n
    if n < 2:
        return Comparison(n, diff, math.nan, math.nan)
    variance = max(0.0, (total_squares - total * total / n) / (n - 1))
    se = math.sqrt(variance / n)
    if se == 0.0:
        los = 0.5 if diff == 0 else (1.0 if diff > 0 else 0.0)
        return Comparison(n, diff, 0.0, los)
    return Comparison(n, diff, Z95 * se, normal_cdf(diff / se))


def compare_paired(diffs: Sequence[float]) -> Comparison:
    """Compare two bots from their score differences (A minus B) in the games both played.

    >>> c = compare_paired([2, 2, 0, 4])
    >>> round(c.mean_diff, 2), round(c.half_width, 3), round(c.los, 4)
    (2.0, 1.6, 0.9928)
    """
    return compare_sums(len(diffs), float(sum(diffs)), float(sum(d * d for d in diffs)))


def los_from_results(wins: int, losses: int) -> float:
    """Likelihood of superiority from decisive results, as engine testers compute it.

    ``LOS = Φ((W - L) / √(W + L))``; 0.5 without decisive games.

    >>> los_from_results(0, 0), los_from_results(5, 5)
    (0.5, 0.5)
    >>> round(los_from_results(12, 4), 4)
    0.9772
    """
    if wins < 0 or losses < 0:
        raise ValueError(f"wins and losses must be >= 0, not {wins} and {losses}")
    if wins + losses == 0:
        return 0.5
    return normal_cdf((wins - losses) / math.sqrt(wins + losses))
