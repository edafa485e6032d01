"""A sequential probability ratio test (SPRT) of a score edge: is version 2 better than version 1?

The data are *paired per-deal edges*: on each deal, the new version's points per game minus the
old version's, both having played the same cards in the same seats against the same opponents
(a duplicate deal, every seat rotation). The deal's own effect (a high-scoring deal) is the
same for both and cancels; what remains is the difference in skill plus noise. The edges are
continuous and close to normal (each is a mean over the seat rotations), so the test is the
**Gaussian SPRT** on their mean ``mu``:

- ``H0: mu = e0`` (not better, or by no more than ``e0``) against ``H1: mu = e1`` (better by
  ``e1``), ``e0 < e1``, in points per game (higher = better);
- the spread of the edges is not known beforehand (it depends on the bots and the variant), so
  it is a nuisance parameter, and the test is Wald's SPRT generalized to it (the GSPRT): each
  hypothesis's likelihood is maximized over the variance, which gives, after ``n`` edges
  ``x_1..x_n``, the log-likelihood ratio (M. Van den Bergh, *A practical introduction to the
  GSPRT*, 2016, as fishtest runs it for chess engines; for a normal model)::

      LLR = n/2 · log(s0² / s1²),    sk² = Σ (x - ek)² / n

  ``sk²`` being the variance's maximum likelihood estimate under ``Hk``. For a small
  separation it is close to the plug-in ratio of two normal densities,
  ``(e1 - e0)/s² · (S - n·(e0 + e1)/2)`` with ``s² = Σ(x - x̄)²/n`` (Wald 1947, *Sequential
  Analysis*, §5.2, with the variance estimated), but it does not trust a small early variance
  as much: simulated, the plug-in's error rates came out at 7.5% for a nominal 5%, the GSPRT's
  within bounds. Below :attr:`SprtSettings.min_deals` edges the test does not stop either;
- Wald's bounds: stop and accept H1 when ``LLR ≥ A = log((1 - beta)/alpha)``, accept H0 when
  ``LLR ≤ B = log(beta/(1 - alpha))``; ``alpha`` is the chance of accepting H1 when ``mu = e0``,
  ``beta`` that of accepting H0 when ``mu = e1``. Wald's bounds ignore the overshoot of the last
  step, so the real error rates are a little *smaller* (at most ``alpha/(1 - beta)`` and
  ``beta/(1 - alpha)``);
- a cap on the number of deals: reached without a decision, the test is inconclusive.

The price of not knowing the variance: each deal adds ``½·log((s² + (mu - e0)²)/(s² + (mu - e1)²))``
to the LLR, which for an edge far beyond ``e1`` is less than Wald's known-variance increment
(the variance under each hypothesis absorbs the misfit). A version much stronger than ``e1``
is still accepted, only later: ``heuristic`` against ``random`` (+17.5 points per game, spread
12.5) took 40 deals where Wald's known-variance figure is 14 (``benchmarks/version_test.py``).
Near the hypotheses, where a test's deals are spent, the two agree.

:func:`operating_characteristic` and :func:`expected_deals` are Wald's approximations of the
chance of accepting H0 and of the mean number of deals at a true edge ``mu`` (known ``sigma``),
which the tests compare with simulated runs.

>>> settings = SprtSettings(e0=0.0, e1=2.0, alpha=0.05, beta=0.05)
>>> round(settings.upper, 4), round(settings.lower, 4)
(2.9444, -2.9444)
>>> evidence = Evidence().add_all([1.0, 3.0, -1.0, 5.0])
>>> evidence.deals, evidence.mean, evidence.variance
(4, 2.0, 5.0)
>>> round(log_likelihood_ratio(evidence, settings), 4)  # 4/2 · log((36/4) / (20/4))
1.1756
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from arena.stats import Z95

__all__ = [
    "Evidence",
    "SprtSettings",
    "Verdict",
    "decide",
    "expected_deals",
    "log_likelihood_ratio",
    "operating_characteristic",
]


class Verdict(Enum):
    """Where a test stands."""

    CONTINUE = "continue"  # no decision yet, deals left
    H1 = "h1"  # the new version is better, by e1
    H0 = "h0"  # it is not better (by more than e0)
    INCONCLUSIVE = "inconclusive"  # the cap was reached first


@dataclass(frozen=True)
class SprtSettings:
    """A test's hypotheses, error rates and cap.

    Defaults for the card game's points per game (about 12 points of spread between two bots
    on a duplicate deal): a real improvement of 2 points per game is found in about a hundred
    deals, at 5% error each way.

    >>> SprtSettings(e0=1.0, e1=1.0)
    Traceback (most recent call last):
    ...
    ValueError: SprtSettings: e1 must be greater than e0 (e0 = 1.0, e1 = 1.0).
    >>> SprtSettings(alpha=0.6)
    Traceback (most recent call last):
    ...
    ValueError: SprtSettings: alpha and beta must lie strictly between 0 and 0.5, not 0.6 and 0.05.
    """

    e0: float = 0.0
    e1: float = 2.0
    alpha: float = 0.05
    beta: float = 0.05
    cap: int = 400  # deals
    min_deals: int = 10

    def __post_init__(self) -> None:
        if not (math.isfinite(self.e0) and math.isfinite(self.e1)):
            raise ValueError(f"SprtSettings: e0 and e1 must be finite ({self.e0}, {self.e1}).")
        if not self.e1 > self.e0:
            raise ValueError(
                f"SprtSettings: e1 must be greater than e0 (e0 = {self.e0}, e1 = {self.e1})."
            )
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError(
                "SprtSettings: alpha and beta must lie strictly between 0 and 0.5, "
                f"not {self.alpha} and {self.beta}."
            )
        if self.min_deals < 2:
            raise ValueError(f"SprtSettings: min_deals must be at least 2, not {self.min_deals}.")
        if self.cap < self.min_deals:
            raise ValueError(
                f"SprtSettings: the cap ({self.cap} deals) must be at least min_deals "
                f"({self.min_deals})."
            )

    @property
    def upper(self) -> float:
        """Wald's ``A = log((1 - beta)/alpha)``: at or above it, H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)

    @property
    def lower(self) -> float:
        """Wald's ``B = log(beta/(1 - alpha))``: at or below it, H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))


@dataclass(frozen=True)
class Evidence:
    """The edges seen so far, as sufficient statistics (count, sum, sum of squares about a
    shift): what a test stores between deals.

    ``shift`` is the first edge: sums are kept about it, so that the variance of edges far from
    zero loses no precision (the "shifted data" algorithm).

    >>> Evidence().add(3.0).add(5.0).variance
    1.0
    """

    deals: int = 0
    shift: float = 0.0
    total: float = 0.0  # Σ (x - shift)
    total_sq: float = 0.0  # Σ (x - shift)²

    def add(self, edge: float) -> Evidence:
        if not math.isfinite(edge):
            raise ValueError(f"An edge must be finite, not {edge}.")
        shift = edge if self.deals == 0 else self.shift
        d = edge - shift
        return Evidence(self.deals + 1, shift, self.total + d, self.total_sq + d * d)

    def add_all(self, edges: Iterable[float]) -> Evidence:
        evidence = self
        for edge in edges:
            evidence = evidence.add(edge)
        return evidence

    @property
    def mean(self) -> float:
        """The mean edge (NaN before the first)."""
        return self.shift + self.total / self.deals if self.deals else math.nan

    @property
    def variance(self) -> float:
        """The maximum likelihood variance ``Σ(x - x̄)²/n`` (NaN before the first edge)."""
        if not self.deals:
            return math.nan
        return max(0.0, self.total_sq / self.deals - (self.total / self.deals) ** 2)

    @property
    def ci95(self) -> float:
        """Half-width of the 95% interval of the mean edge (normal approximation, sample
        standard deviation; NaN below two edges), as :func:`arena.stats.confidence95`."""
        n = self.deals
        if n < 2:
            return math.nan
        return Z95 * math.sqrt(self.variance * n / (n - 1) / n)


def log_likelihood_ratio(evidence: Evidence, settings: SprtSettings) -> float:
    """``n/2 · log(s0²/s1²)``, ``sk² = Σ(x - ek)²/n``; 0 below two edges, ``±inf`` when the
    edges all sit exactly on one hypothesis.

    >>> s = SprtSettings(e0=0.0, e1=1.0)
    >>> round(log_likelihood_ratio(Evidence().add_all([0.5, 1.5]), s), 4)  # log(1.25/0.25)
    1.6094
    >>> log_likelihood_ratio(Evidence().add(9.0), s)
    0.0
    """
    n = evidence.deals
    if n < 2:
        return 0.0
    spread0 = _squares_about(evidence, settings.e0)
    spread1 = _squares_about(evidence, settings.e1)
    if spread0 == 0.0 or spread1 == 0.0:
        return 0.0 if spread0 == spread1 else math.copysign(math.inf, spread0 - spread1)
    return n / 2 * math.log(spread0 / spread1)


def _squares_about(evidence: Evidence, centre: float) -> float:
    """``Σ (x - centre)²`` from the shifted sums (never below 0)."""
    offset = evidence.shift - centre
    return max(
        0.0, evidence.total_sq + 2 * offset * evidence.total + evidence.deals * offset * offset
    )


def decide(evidence: Evidence, settings: SprtSettings) -> Verdict:
    """The verdict after ``evidence``: a bound crossed (from ``min_deals`` edges on), the cap
    reached, or go on.

    >>> s = SprtSettings(e0=0.0, e1=1.0, min_deals=2, cap=3)
    >>> decide(Evidence().add_all([0.9, 1.1]), s), decide(Evidence().add_all([0.0, 0.1]), s)
    (<Verdict.H1: 'h1'>, <Verdict.H0: 'h0'>)
    >>> decide(Evidence().add_all([0.0, 1.0]), s), decide(Evidence().add_all([0.0, 1.0, 0.5]), s)
    (<Verdict.CONTINUE: 'continue'>, <Verdict.INCONCLUSIVE: 'inconclusive'>)
    """
    if evidence.deals >= settings.min_deals:
        llr = log_likelihood_ratio(evidence, settings)
        if llr >= settings.upper:
            return Verdict.H1
        if llr <= settings.lower:
            return Verdict.H0
    if evidence.deals >= settings.cap:
        return Verdict.INCONCLUSIVE
    return Verdict.CONTINUE


def _drift(settings: SprtSettings, mu: float, sigma: float) -> tuple[float, float, float]:
    """The mean and variance of one edge's LLR increment at a true edge ``mu`` (known
    ``sigma``), and Wald's ``h(mu)``, the root of ``E[exp(h·z)] = 1`` (for the normal,
    ``h = -2·(mu - (e0 + e1)/2)/(e1 - e0)``: 1 at ``e0``, -1 at ``e1``)."""
    if not (math.isfinite(sigma) and sigma > 0):
        raise ValueError(f"sigma must be finite and > 0, not {sigma}.")
    width = settings.e1 - settings.e0
    middle = (settings.e0 + settings.e1) / 2
    mean = width * (mu - middle) / sigma**2
    variance = width**2 / sigma**2
    return mean, variance, -2 * (mu - middle) / width


def operating_characteristic(settings: SprtSettings, mu: float, sigma: float) -> float:
    """Wald's approximate chance of accepting H0 at a true edge ``mu`` (no cap, known
    ``sigma``): ``L = (e^(A·h) - 1)/(e^(A·h) - e^(B·h))``, ``A/(A - B)`` where ``h = 0``
    (Wald 1947, §3.2 and §5.2). ``1 - alpha`` at ``e0``, ``beta`` at ``e1``.

    >>> s = SprtSettings(e0=0.0, e1=1.0, alpha=0.05, beta=0.1)
    >>> [round(operating_characteristic(s, mu, 1.0), 4) for mu in (0.0, 0.5, 1.0)]
    [0.95, 0.5621, 0.1]
    """
    _, _, h = _drift(settings, mu, sigma)
    a, b = settings.upper, settings.lower
    if abs(h) < 1e-12:
        return a / (a - b)
    return (math.exp(a * h) - 1) / (math.exp(a * h) - math.exp(b * h))


def expected_deals(settings: SprtSettings, mu: float, sigma: float) -> float:
    """Wald's approximate mean number of deals to a decision at a true edge ``mu`` (no cap,
    known ``sigma``, overshoot neglected): ``(L·B + (1 - L)·A)/E[z]``, and ``-A·B/Var[z]`` where
    ``E[z] = 0`` (Wald 1947, §3.3 and §5.2).

    >>> s = SprtSettings(e0=0.0, e1=1.0, alpha=0.05, beta=0.05)
    >>> round(expected_deals(s, 1.0, 1.0), 2), round(expected_deals(s, 0.5, 1.0), 2)
    (5.3, 8.67)
    """
    mean, variance, _ = _drift(settings, mu, sigma)
    a, b = settings.upper, settings.lower
    if abs(mean) < 1e-12:
        return -a * b / variance
    accept_h0 = operating_characteristic(settings, mu, sigma)
    return (accept_h0 * b + (1 - accept_h0) * a) / mean
