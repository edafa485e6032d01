"""The version test's SPRT: its log-likelihood ratio, Wald's bounds and approximations, and its
error rates over many synthetic streams of known edge."""

import math
import random
from statistics import NormalDist

import pytest

from arena.sprt import (
    Evidence,
    SprtSettings,
    Verdict,
    decide,
    expected_deals,
    log_likelihood_ratio,
    operating_characteristic,
)

RUNS = 2000


def run(settings: SprtSettings, mu: float, sigma: float, rng: random.Random) -> tuple[Verdict, int]:
    """One synthetic test: normal edges of mean ``mu`` until a verdict."""
    evidence = Evidence()
    while True:
        evidence = evidence.add(rng.gauss(mu, sigma))
        verdict = decide(evidence, settings)
        if verdict is not Verdict.CONTINUE:
            return verdict, evidence.deals


def binomial_tolerance(p: float, runs: int = RUNS) -> float:
    return 3 * math.sqrt(p * (1 - p) / runs)


def test_it_uses_walds_bounds() -> None:
    s = SprtSettings(alpha=0.05, beta=0.1)
    assert s.upper == pytest.approx(math.log(0.9 / 0.05))  # 2.8904
    assert s.lower == pytest.approx(math.log(0.1 / 0.95))  # -2.2513


def test_it_computes_the_llr_by_hand() -> None:
    # e0 = 0, e1 = 2; edges 1, 3, -1, 5: Σx² = 36, Σ(x - 2)² = 20.
    # LLR = 4/2 · log((36/4) / (20/4)) = 2 · log(1.8) = 1.17557
    s = SprtSettings(e0=0.0, e1=2.0)
    edges = [1.0, 3.0, -1.0, 5.0]
    assert log_likelihood_ratio(Evidence().add_all(edges), s) == pytest.approx(1.175573, abs=1e-6)
    # e0 = 1, e1 = 3 on the same edges: Σ(x - 1)² = Σ(x - 3)² = 24, they sit halfway.
    assert log_likelihood_ratio(Evidence().add_all(edges), SprtSettings(1, 3)) == 0.0
    # e0 = -1, e1 = 0.5; edges 2, 2.5, 0.5: Σ(x + 1)² = 9 + 12.25 + 2.25 = 23.5,
    # Σ(x - 0.5)² = 2.25 + 4 + 0 = 6.25; LLR = 1.5 · log(23.5/6.25) = 1.98663
    got = log_likelihood_ratio(Evidence().add_all([2, 2.5, 0.5]), SprtSettings(-1, 0.5))
    assert got == pytest.approx(1.986628, abs=1e-6)


def test_its_llr_is_the_ratio_of_the_maximized_normal_likelihoods() -> None:
    rng = random.Random(5)
    edges = [rng.gauss(0.7, 3.0) for _ in range(50)]
    s = SprtSettings(e0=-0.5, e1=1.5)
    evidence = Evidence().add_all(edges)

    def log_likelihood(centre: float) -> float:
        sd = math.sqrt(sum((x - centre) ** 2 for x in edges) / len(edges))  # its MLE
        return sum(math.log(NormalDist(centre, sd).pdf(x)) for x in edges)

    direct = log_likelihood(s.e1) - log_likelihood(s.e0)
    assert log_likelihood_ratio(evidence, s) == pytest.approx(direct, rel=1e-9)
    # Close to the plug-in ratio at the common variance for a small separation.
    plug_in = (s.e1 - s.e0) / evidence.variance * (sum(edges) - 50 * (s.e0 + s.e1) / 2)
    assert log_likelihood_ratio(evidence, s) == pytest.approx(plug_in, rel=0.15)


def test_it_keeps_the_mean_variance_and_interval_of_the_edges() -> None:
    edges = [100.5, 101.5, 99.0, 103.0]  # far from zero: the shifted sums keep precision
    evidence = Evidence().add_all(edges)
    mean = sum(edges) / 4
    assert evidence.mean == pytest.approx(mean)
    assert evidence.variance == pytest.approx(sum((x - mean) ** 2 for x in edges) / 4)
    sample_sd = math.sqrt(sum((x - mean) ** 2 for x in edges) / 3)
    assert evidence.ci95 == pytest.approx(1.96 * sample_sd / 2)
    assert math.isnan(Evidence().add(1.0).ci95)
    with pytest.raises(ValueError, match="finite"):
        Evidence().add(math.nan)


def test_it_does_not_stop_before_min_deals_even_on_edges_exactly_at_a_hypothesis() -> None:
    s = SprtSettings(e0=0.0, e1=1.0, min_deals=5)
    four = Evidence().add_all([1.0] * 4)
    assert log_likelihood_ratio(four, s) == math.inf
    assert decide(four, s) is Verdict.CONTINUE
    assert decide(four.add(1.0), s) is Verdict.H1
    assert decide(Evidence().add_all([0.0] * 5), s) is Verdict.H0


def test_walds_oc_and_asn_match_their_closed_forms() -> None:
    s = SprtSettings(e0=0.0, e1=1.0, alpha=0.05, beta=0.05)
    a, b = s.upper, s.lower
    assert operating_characteristic(s, 0.0, 2.0) == pytest.approx(0.95)
    assert operating_characteristic(s, 1.0, 2.0) == pytest.approx(0.05)
    assert operating_characteristic(s, 0.5, 2.0) == pytest.approx(0.5)
    # At e1 with sigma 2: E[z] = 1·0.5/4 = 0.125, L = beta.
    assert expected_deals(s, 1.0, 2.0) == pytest.approx((0.05 * b + 0.95 * a) / 0.125)
    # Halfway: -A·B/Var[z], Var[z] = 1/4.
    assert expected_deals(s, 0.5, 2.0) == pytest.approx(-a * b * 4)
    # Far beyond e1 the test decides faster; OC falls with the edge.
    assert expected_deals(s, 3.0, 2.0) < expected_deals(s, 1.0, 2.0)
    ocs = [operating_characteristic(s, mu / 4, 2.0) for mu in range(-4, 9)]
    assert ocs == sorted(ocs, reverse=True)


@pytest.mark.parametrize(("alpha", "beta"), [(0.05, 0.05), (0.1, 0.2)])
def test_its_error_rates_stay_within_bounds_over_many_runs(alpha: float, beta: float) -> None:
    s = SprtSettings(e0=0.0, e1=1.0, alpha=alpha, beta=beta, cap=100_000)
    sigma = 4.0  # Wald's mean numbers of deals ~60 to 85, well above min_deals
    rng = random.Random(20261201)
    at_e0 = [run(s, s.e0, sigma, rng) for _ in range(RUNS)]
    at_e1 = [run(s, s.e1, sigma, rng) for _ in range(RUNS)]
    false_h1 = sum(v is Verdict.H1 for v, _ in at_e0) / RUNS
    false_h0 = sum(v is Verdict.H0 for v, _ in at_e1) / RUNS
    assert false_h1 <= alpha + binomial_tolerance(alpha), false_h1
    assert false_h0 <= beta + binomial_tolerance(beta), false_h0
    # Wald's mean numbers of deals, within 20% (overshoot makes the real ones a little longer).
    for runs, mu in ((at_e0, s.e0), (at_e1, s.e1)):
        mean_deals = sum(n for _, n in runs) / RUNS
        assert mean_deals == pytest.approx(expected_deals(s, mu, sigma), rel=0.2)


def test_it_accepts_h0_about_half_the_time_halfway() -> None:
    s = SprtSettings(e0=0.0, e1=1.0, cap=100_000)
    rng = random.Random(7)
    runs = [run(s, 0.5, 2.0, rng) for _ in range(1000)]
    accepted_h0 = sum(v is Verdict.H0 for v, _ in runs) / 1000
    expected = operating_characteristic(s, 0.5, 2.0)
    assert accepted_h0 == pytest.approx(expected, abs=binomial_tolerance(expected, 1000))


def test_it_is_inconclusive_at_the_cap() -> None:
    s = SprtSettings(e0=0.0, e1=0.1, cap=30)
    rng = random.Random(3)
    verdicts = [run(s, 0.05, 5.0, rng) for _ in range(50)]
    assert {n for _, n in verdicts} <= set(range(10, 31))
    assert any(v is Verdict.INCONCLUSIVE for v, _ in verdicts)
    assert all(n == 30 for v, n in verdicts if v is Verdict.INCONCLUSIVE)


def test_it_refuses_unusable_settings() -> None:
    with pytest.raises(ValueError, match="e1 must be greater"):
        SprtSettings(e0=2.0, e1=1.0)
    with pytest.raises(ValueError, match="alpha and beta"):
        SprtSettings(beta=0.0)
    with pytest.raises(ValueError, match="cap"):
        SprtSettings(cap=5, min_deals=10)
    with pytest.raises(ValueError, match="finite"):
        SprtSettings(e0=math.nan)
