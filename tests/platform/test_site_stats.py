"""The statistics behind "is this difference significant?": pinned (golden) numbers, a
cross-check against Python's own ``statistics``, invariants of standings and crosstables, and
the docstring examples of the pure modules (no database needed)."""

import doctest
import math
import random
import statistics
from types import ModuleType

import pytest
from core import charts, stats
from core.templatetags import nimmt
from hypothesis import given
from hypothesis import strategies as st
from tournaments import pairing, services, standings
from tournaments.standings import GameRecord, crosstable

from arena.engine.game import competition_ranks


@pytest.mark.parametrize(
    "module",
    [stats, charts, pairing, standings, services, nimmt],
    ids=lambda m: m.__name__,
)
def test_it_passes_the_docstring_examples(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


# ---------------------------------------------------------------------------- golden numbers

GOLDEN_PAIRED = [
    # diffs, mean, half-width of the 95% interval, LOS
    ([3, -1, 4, 1, 5, -2, 6, 2], 2.25, 1.951230, 0.988093),
    ([1, -1], 0.0, 1.96, 0.5),
    ([-4, -6, -5, -7, -3], -5.0, 1.385929, 0.0),  # LOS below 1e-6
    ([10, 0, 30], 13.333333, 17.285575, 0.934715),
]


@pytest.mark.parametrize(("diffs", "mean", "half", "los"), GOLDEN_PAIRED)
def test_paired_comparisons_match_the_pinned_numbers(
    diffs: list[float], mean: float, half: float, los: float
) -> None:
    c = stats.compare_paired(diffs)
    assert c.games == len(diffs)
    assert c.mean_diff == pytest.approx(mean, abs=1e-6)
    assert c.half_width == pytest.approx(half, abs=1e-6)
    assert c.los == pytest.approx(los, abs=1e-6)


@pytest.mark.parametrize(
    ("wins", "losses", "los"),
    [(60, 40, 0.977250), (10, 0, 0.999217), (0, 10, 0.000783), (7, 7, 0.5), (0, 0, 0.5)],
)
def test_los_from_results_matches_engine_testing(wins: int, losses: int, los: float) -> None:
    assert stats.los_from_results(wins, losses) == pytest.approx(los, abs=1e-6)


def test_an_estimate_uses_the_arenas_own_interval() -> None:
    from arena.stats import confidence95

    values = [12, 15, 9, 20, 11, 14]
    e = stats.estimate(values)
    assert e.mean == pytest.approx(13.5)
    assert e.half_width == confidence95(values)
    assert math.isnan(stats.estimate([4]).half_width)


# ---------------------------------------------------------------------------- cross-checks


@given(st.lists(st.integers(-60, 60), min_size=2, max_size=60))
def test_comparisons_agree_with_the_standard_library(diffs: list[int]) -> None:
    c = stats.compare_paired(diffs)
    mean = statistics.fmean(diffs)
    se = statistics.stdev(diffs) / math.sqrt(len(diffs))
    assert c.mean_diff == pytest.approx(mean)
    assert c.half_width == pytest.approx(1.96 * se, abs=1e-9)
    if se > 0:
        assert c.los == pytest.approx(statistics.NormalDist().cdf(mean / se), abs=1e-9)
        # Significant at 95% (two-sided) exactly when LOS is beyond 97.5% or below 2.5%.
        if abs(abs(mean / se) - 1.96) > 1e-9:
            assert c.significant == (c.los > 0.975 or c.los < 0.025)
    assert stats.compare_sums(len(diffs), sum(diffs), sum(d * d for d in diffs)).los == (
        pytest.approx(c.los, abs=1e-9) if not math.isnan(c.los) else c.los
    )


def test_compare_sums_refuses_impossible_input() -> None:
    with pytest.raises(ValueError, match="0 games"):
        stats.compare_sums(0, 3.0, 9.0)
    with pytest.raises(ValueError, match="wins and losses"):
        stats.los_from_results(-1, 2)


# ---------------------------------------------------------------------------- standings


games_strategy = st.lists(
    st.tuples(
        st.permutations([0, 1, 2, 3]).map(lambda p: p[:3]),
        st.lists(st.integers(-20, 40), min_size=3, max_size=3),
    ),
    min_size=1,
    max_size=20,
)


@given(games_strategy, st.booleans())
def test_points_and_the_crosstable_are_consistent(
    raw: list[tuple[list[int], list[int]]], higher_is_better: bool
) -> None:
    games = []
    for seats, scores in raw:
        ranks = competition_ranks(scores, higher_is_better)
        games.append(GameRecord(tuple(zip(seats, scores, ranks, strict=True))))
    table = standings.standings([0, 1, 2, 3], games, higher_is_better=higher_is_better)
    assert sum(s.points for s in table) == 3 * len(games)  # three pairs per game
    assert all(s.points <= s.possible for s in table)
    assert [s.place for s in table] == sorted(s.place for s in table)
    cells = crosstable(games, higher_is_better=higher_is_better)
    for (a, b), cell in cells.items():
        other = cells[b, a]
        assert (cell.wins, cell.draws, cell.losses) == (other.losses, other.draws, other.wins)
        assert cell.diffs == [-d for d in other.diffs]
        assert cell.los == pytest.approx(1 - other.los)


def test_a_better_bot_becomes_significant_with_enough_shared_games() -> None:
    rng = random.Random(5)
    games = []
    for n in range(400):
        luck = rng.gauss(0, 10)  # the deal: shared by both
        strong = 30 + luck + rng.gauss(0, 3)
        weak = 28 + luck + rng.gauss(0, 3)
        scores = [round(strong), round(weak)]
        ranks = competition_ranks(scores, True)
        games.append(GameRecord(((0, scores[0], ranks[0]), (1, scores[1], ranks[1])), n))
    few = crosstable(games[:10], higher_is_better=True)[0, 1].comparison
    many = crosstable(games, higher_is_better=True)[0, 1].comparison
    assert not few.significant
    assert many.significant and many.mean_diff > 0 and many.los > 0.999
    assert many.half_width < few.half_width
