"""Tests of ``ladders.rating``: golden cases worked by hand (see ``golden/*.json``), argument
checks, and properties of the Elo, OpenSkill and Margin calculators."""

from __future__ import annotations

import itertools
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ladders.rating import (
    DealScores,
    EloCalculator,
    EloRating,
    GameResult,
    MarginCalculator,
    MarginRating,
    SkillCalculator,
    SkillRating,
    apply_games,
    expected_score,
)

GOLDEN = Path(__file__).parent / "golden"
ELO = EloCalculator()
SKILL = SkillCalculator()
MARGIN = MarginCalculator()


def load(name: str) -> dict[str, Any]:
    with (GOLDEN / name).open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def golden_cases(prefix: str) -> list[str]:
    return sorted(p.name for p in GOLDEN.glob(f"{prefix}*.json") if p.name != "elo_history.json")


# --- golden cases ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", golden_cases("elo_"))
def test_it_rates_elo_golden_cases(name: str) -> None:
    case = load(name)
    seats = [EloRating(s["bot_id"], s["elo"], s["games"], ELO.is_provisional(s["games"]))
             for s in case["seats"]]  # fmt: skip
    new = ELO.rate(seats, case["ranks"])
    for got, want in zip(new, case["expected"], strict=True):
        assert got.bot_id == want["bot_id"]
        assert got.elo == pytest.approx(want["elo"], abs=1e-4)
        assert (got.games, got.provisional) == (want["games"], want["provisional"])


@pytest.mark.parametrize("name", golden_cases("openskill_"))
def test_it_rates_openskill_golden_cases(name: str) -> None:
    case = load(name)
    seats = [SkillRating(s["bot_id"], s["mu"], s["sigma"], s["games"]) for s in case["seats"]]
    new = SKILL.rate(seats, case["ranks"])
    for got, want in zip(new, case["expected"], strict=True):
        assert got.bot_id == want["bot_id"]
        assert got.mu == pytest.approx(want["mu"], rel=1e-9)
        assert got.sigma == pytest.approx(want["sigma"], rel=1e-9)
        assert got.games == want["games"]


@pytest.mark.parametrize("name", golden_cases("margin_"))
def test_it_rates_margin_golden_cases(name: str) -> None:
    case = load(name)
    calculator = MarginCalculator(**case["parameters"])
    seats = [MarginRating(s["bot_id"], s["mu"], s["sigma"], s["games"]) for s in case["seats"]]
    deals = [DealScores(tuple(float(x) for x in d["scores"]), d["games"]) for d in case["deals"]]
    new = calculator.rate(seats, deals)
    for got, want in zip(new, case["expected"], strict=True):
        assert got.bot_id == want["bot_id"]
        assert got.mu == pytest.approx(want["mu"], rel=1e-9, abs=1e-12)
        assert got.sigma == pytest.approx(want["sigma"], rel=1e-9)
        assert got.games == want["games"]


def test_it_matches_the_hand_worked_margin_cases_to_six_places() -> None:
    new = [MARGIN.rating("alice"), MARGIN.rating("bob")]
    alice, bob = MARGIN.rate(new, [DealScores((40.0, 8.0))])
    assert (round(alice.mu, 6), round(bob.mu, 6)) == (4.494463, -4.494463)
    assert round(alice.sigma, 6) == round(bob.sigma, 6) == 9.271297
    calculator = MarginCalculator(**load("margin_two_new_duplicate.json")["parameters"])
    alice, bob = calculator.rate(new, [DealScores((70.0, 30.0), games=2)])
    assert (round(alice.mu, 6), round(alice.sigma, 6)) == (8.474609, 7.591337)


def test_it_matches_the_hand_worked_openskill_case_to_six_places() -> None:
    # openskill_two_new.json's hand computation: alice 27.635389, bob 22.364611, sigma 8.065901.
    alice, bob = SKILL.rate([SKILL.rating("alice"), SKILL.rating("bob")], [1, 2])
    assert (round(alice.mu, 6), round(bob.mu, 6)) == (27.635389, 22.364611)
    assert round(alice.sigma, 6) == round(bob.sigma, 6) == 8.065901
    assert (round(alice.ordinal, 6), round(bob.ordinal, 6)) == (3.437685, -1.833094)


def test_it_replays_the_golden_history() -> None:
    case = load("elo_history.json")
    start = {
        s["bot_id"]: EloRating(s["bot_id"], s["elo"], s["games"], False) for s in case["start"]
    }
    games = [
        GameResult(g["game_id"], tuple(g["bot_ids"]), tuple(g["ranks"])) for g in case["games"]
    ]
    final, history = apply_games(ELO, games, start)
    assert len(history) == len(case["history"])
    for got, want in zip(history, case["history"], strict=True):
        assert (got.game_id, got.bot_id, got.rank) == (
            want["game_id"],
            want["bot_id"],
            want["rank"],
        )
        assert got.before.elo == pytest.approx(want["before"], abs=1e-4)
        assert got.after.elo == pytest.approx(want["after"], abs=1e-4)
        assert got.delta == pytest.approx(want["delta"], abs=1e-4)
    assert set(final) == set(case["final"])
    for bot, want in case["final"].items():
        assert final[bot].elo == pytest.approx(want["elo"], abs=1e-4)
        assert final[bot].games == want["games"]
    assert final["carol"] is start["carol"]


# --- Elo details ----------------------------------------------------------------------------


def test_it_gives_a_new_bot_the_initial_provisional_rating() -> None:
    assert ELO.rating("alice") == EloRating("alice", 1500.0, 0, True)
    assert EloCalculator(initial=1200.0).rating("bob").elo == 1200.0


def test_it_uses_the_larger_k_while_provisional() -> None:
    assert ELO.k_factor(EloRating("a", games=19)) == 40.0
    assert ELO.k_factor(EloRating("a", games=20)) == 20.0
    assert [ELO.is_provisional(g) for g in (0, 19, 20, 21)] == [True, True, False, False]


def test_it_flips_provisional_after_the_twentieth_game() -> None:
    a, b = ELO.rate([EloRating("a", games=19), EloRating("b", games=18)], [1, 2])
    assert (a.games, a.provisional) == (20, False)
    assert (b.games, b.provisional) == (19, True)


def test_it_rates_only_the_order_of_ranks() -> None:
    seats = [EloRating(bot, 1400 + 50 * i, 30) for i, bot in enumerate("abcd")]
    assert ELO.rate(seats, [1, 2, 2, 4]) == ELO.rate(seats, [1, 2, 2, 3])
    assert ELO.rate(seats, [1, 2, 2, 4]) == ELO.rate(seats, [3, 7, 7, 9])


def test_it_leaves_a_draw_between_equals_unchanged() -> None:
    a, b = ELO.rate([EloRating("a", 1600.0, 40), EloRating("b", 1600.0, 40)], [1, 1])
    assert (a.elo, b.elo) == (1600.0, 1600.0)


def test_it_computes_the_expected_score_on_the_400_scale() -> None:
    assert expected_score(1500, 1500) == 0.5
    assert expected_score(1900, 1500) == pytest.approx(10 / 11)
    assert expected_score(1500, 1900) == pytest.approx(1 / 11)


def test_it_estimates_elo_uncertainty_from_games_and_k() -> None:
    # 0 games: capped at 350. Few games: 2 * 400 / ln 10 / sqrt(N). Many: K's noise floor.
    assert ELO.uncertainty(EloRating("a", games=0)) == 350.0
    assert ELO.uncertainty(EloRating("a", games=4)) == pytest.approx(400 / math.log(10))
    floor_20 = math.sqrt(200 * 20 / math.log(10))
    assert floor_20 == pytest.approx(41.68, abs=0.01)
    assert ELO.uncertainty(EloRating("a", games=10_000)) == pytest.approx(floor_20)
    # It never grows with more games.
    values = [ELO.uncertainty(EloRating("a", games=g)) for g in range(200)]
    assert all(x >= y for x, y in itertools.pairwise(values))


# --- argument checks ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("calculator", "kind"), [(ELO, EloRating), (SKILL, SkillRating)], ids=["elo", "openskill"]
)
class TestArgumentChecks:
    def test_it_rejects_a_single_seat(self, calculator: Any, kind: Any) -> None:
        with pytest.raises(ValueError, match=r"^A game needs at least 2 seats, not 1\.$"):
            calculator.rate([kind("a")], [1])

    def test_it_rejects_a_length_mismatch(self, calculator: Any, kind: Any) -> None:
        with pytest.raises(
            ValueError,
            match=r"^Argument 'ranks' must have the same number of elements as 'ratings' "
            r"\(3\), not 2\.$",
        ):
            calculator.rate([kind("a"), kind("b"), kind("c")], [1, 2])

    def test_it_rejects_a_rank_below_one(self, calculator: Any, kind: Any) -> None:
        with pytest.raises(
            ValueError,
            match=r"^Argument 'ranks' must hold integers >= 1 \(1 = best\), not 0 "
            r"\(seat 1\)\.$",
        ):
            calculator.rate([kind("a"), kind("b")], [1, 0])

    def test_it_rejects_a_rank_that_is_not_an_int(self, calculator: Any, kind: Any) -> None:
        with pytest.raises(TypeError, match=r"^Argument 'ranks' must hold 'int' values, not "
                           r"'float' \(seat 0\)\.$"):  # fmt: skip
            calculator.rate([kind("a"), kind("b")], [1.0, 2])
        with pytest.raises(TypeError, match="not 'bool'"):
            calculator.rate([kind("a"), kind("b")], [True, 2])

    def test_it_rejects_a_bot_in_two_seats(self, calculator: Any, kind: Any) -> None:
        with pytest.raises(
            ValueError,
            match=r"^Bot 'a' sits in seats 0 and 2; a bot can play only one seat per game\.$",
        ):
            calculator.rate([kind("a"), kind("b"), kind("a")], [1, 2, 3])

    def test_it_rejects_the_other_kind_of_rating(self, calculator: Any, kind: Any) -> None:
        other = SkillRating if kind is EloRating else EloRating
        with pytest.raises(TypeError, match=rf"must hold '{kind.__name__}' objects, not "
                           rf"'{other.__name__}' \(seat 1\)"):  # fmt: skip
            calculator.rate([kind("a"), other("b")], [1, 2])

    def test_it_rejects_ratings_that_are_not_a_list(self, calculator: Any, kind: Any) -> None:
        with pytest.raises(TypeError, match=r"^Argument 'ratings' must be a list"):
            calculator.rate({kind("a"), kind("b")}, [1, 2])


class TestMarginArgumentChecks:
    def test_it_rejects_a_deal_with_the_wrong_number_of_scores(self) -> None:
        seats = [MARGIN.rating(b) for b in "abc"]
        with pytest.raises(ValueError, match=r"^Deal 1 has 2 scores for 3 seats\.$"):
            MARGIN.rate(seats, [DealScores((1.0, 2.0, 3.0)), DealScores((1.0, 2.0))])

    def test_it_rejects_a_deal_played_neither_once_nor_in_every_rotation(self) -> None:
        seats = [MARGIN.rating(b) for b in "abc"]
        with pytest.raises(ValueError, match=r"^Deal 0 was played 2 times; a deal is played "
                           r"once, or once per seat rotation \(3\)\.$"):  # fmt: skip
            MARGIN.rate(seats, [DealScores((1.0, 2.0, 3.0), games=2)])

    def test_it_rejects_a_match_without_deals(self) -> None:
        with pytest.raises(ValueError, match=r"^A match needs at least one deal\.$"):
            MARGIN.rate([MARGIN.rating("a"), MARGIN.rating("b")], [])

    def test_it_rejects_a_score_that_is_not_finite(self) -> None:
        with pytest.raises(ValueError, match=r"^Deal 0 has a score that is not finite"):
            MARGIN.rate([MARGIN.rating("a"), MARGIN.rating("b")], [DealScores((math.inf, 0.0))])

    def test_it_rejects_something_that_is_not_a_deal(self) -> None:
        with pytest.raises(TypeError, match=r"must hold 'DealScores', not 'tuple' \(deal 0\)"):
            MARGIN.rate([MARGIN.rating("a"), MARGIN.rating("b")], [(1.0, 2.0)])  # type: ignore[list-item]

    def test_it_shares_the_seat_checks_of_the_other_calculators(self) -> None:
        with pytest.raises(ValueError, match=r"^Bot 'a' sits in seats 0 and 1"):
            MARGIN.rate([MARGIN.rating("a"), MARGIN.rating("a")], [DealScores((1.0, 2.0))])
        with pytest.raises(ValueError, match=r"^A game needs at least 2 seats, not 1\.$"):
            MARGIN.rate([MARGIN.rating("a")], [DealScores((1.0,))])
        with pytest.raises(TypeError, match=r"must hold 'MarginRating' objects, not 'EloRating'"):
            MARGIN.rate([MARGIN.rating("a"), EloRating("b")], [DealScores((1.0, 2.0))])  # type: ignore[list-item]

    @pytest.mark.parametrize("field", ["beta", "beta_duplicate", "sigma", "clip"])
    def test_it_rejects_a_parameter_that_is_not_positive(self, field: str) -> None:
        with pytest.raises(ValueError, match=rf"^MarginCalculator: {field} must be finite and > 0"):
            MarginCalculator(**{field: 0.0})


def test_it_rejects_bad_records() -> None:
    with pytest.raises(ValueError, match=r"^EloRating 'a': games must be >= 0, not -1\.$"):
        EloRating("a", games=-1)
    with pytest.raises(ValueError, match=r"elo must be finite, not nan"):
        EloRating("a", elo=math.nan)
    with pytest.raises(ValueError, match=r"^EloRating: bot_id must be a non-empty string"):
        EloRating("")
    with pytest.raises(ValueError, match=r"^SkillRating 'a': sigma must be finite and > 0, not 0"):
        SkillRating("a", sigma=0.0)
    with pytest.raises(ValueError, match=r"^MarginRating 'a': mu must be finite, not nan"):
        MarginRating("a", mu=math.nan)


def test_it_names_the_game_when_a_replayed_game_is_bad() -> None:
    games = [GameResult("g1", ("a", "b"), (1, 2)), GameResult("g2", ("a", "a"), (1, 2))]
    with pytest.raises(ValueError, match=r"^Game 'g2': Bot 'a' sits in seats 0 and 1"):
        apply_games(ELO, games)


def test_it_replays_openskill_games_too() -> None:
    games = [GameResult(i, ("a", "b", "c"), (1, 2, 3)) for i in range(5)]
    final, history = apply_games(SKILL, games)
    assert [c.game_id for c in history] == [i for i in range(5) for _ in range(3)]
    assert final["a"].ordinal > final["b"].ordinal > final["c"].ordinal
    assert final["a"].games == 5
    assert history[0].delta == pytest.approx(history[0].after.ordinal - 0.0)


# --- properties -----------------------------------------------------------------------------


@st.composite
def elo_games(draw: st.DrawFn, min_games: int = 0) -> tuple[list[EloRating], list[int]]:
    n = draw(st.integers(2, 10))
    elos = draw(st.lists(st.floats(600, 2800), min_size=n, max_size=n))
    games = draw(st.lists(st.integers(min_games, 200), min_size=n, max_size=n))
    ranks = draw(st.lists(st.integers(1, n), min_size=n, max_size=n))
    seats = [EloRating(f"bot{i}", e, g) for i, (e, g) in enumerate(zip(elos, games, strict=True))]
    return seats, ranks


@st.composite
def skill_games(draw: st.DrawFn) -> tuple[list[SkillRating], list[int]]:
    n = draw(st.integers(2, 8))
    mus = draw(st.lists(st.floats(0, 50), min_size=n, max_size=n))
    sigmas = draw(st.lists(st.floats(0.5, 25 / 3), min_size=n, max_size=n))
    ranks = draw(st.lists(st.integers(1, n), min_size=n, max_size=n))
    seats = [SkillRating(f"bot{i}", m, s) for i, (m, s) in enumerate(zip(mus, sigmas, strict=True))]
    return seats, ranks


@given(elo_games(min_games=20))
def test_elo_is_zero_sum_among_established_bots(game: tuple[list[EloRating], list[int]]) -> None:
    seats, ranks = game
    new = ELO.rate(seats, ranks)
    assert sum(n.elo - o.elo for n, o in zip(new, seats, strict=True)) == pytest.approx(0, abs=1e-6)


@given(elo_games(), st.randoms(use_true_random=False))
def test_elo_does_not_depend_on_seat_order(
    game: tuple[list[EloRating], list[int]], rnd: random.Random
) -> None:
    seats, ranks = game
    order = list(range(len(seats)))
    rnd.shuffle(order)
    by_bot = {r.bot_id: r for r in ELO.rate(seats, ranks)}
    shuffled = ELO.rate([seats[i] for i in order], [ranks[i] for i in order])
    for r in shuffled:
        assert r.elo == pytest.approx(by_bot[r.bot_id].elo, abs=1e-9)
        assert r.games == by_bot[r.bot_id].games


@settings(max_examples=50)
@given(skill_games(), st.randoms(use_true_random=False))
def test_openskill_does_not_depend_on_seat_order(
    game: tuple[list[SkillRating], list[int]], rnd: random.Random
) -> None:
    seats, ranks = game
    order = list(range(len(seats)))
    rnd.shuffle(order)
    by_bot = {r.bot_id: r for r in SKILL.rate(seats, ranks)}
    shuffled = SKILL.rate([seats[i] for i in order], [ranks[i] for i in order])
    for r in shuffled:
        assert r.mu == pytest.approx(by_bot[r.bot_id].mu, rel=1e-9, abs=1e-9)
        assert r.sigma == pytest.approx(by_bot[r.bot_id].sigma, rel=1e-9, abs=1e-9)


@given(elo_games(), st.integers(0, 9), st.integers(0, 9))
def test_elo_ties_are_symmetric(game: tuple[list[EloRating], list[int]], i: int, j: int) -> None:
    # Two seats with the same rating and games that tie get the same new rating.
    seats, ranks = game
    i, j = i % len(seats), j % len(seats)
    if i == j:
        return
    seats[j] = EloRating(seats[j].bot_id, seats[i].elo, seats[i].games)
    ranks[j] = ranks[i]
    new = ELO.rate(seats, ranks)
    assert new[i].elo == pytest.approx(new[j].elo, abs=1e-9)


@settings(max_examples=50)
@given(skill_games(), st.integers(0, 7), st.integers(0, 7))
def test_openskill_ties_are_symmetric(
    game: tuple[list[SkillRating], list[int]], i: int, j: int
) -> None:
    seats, ranks = game
    i, j = i % len(seats), j % len(seats)
    if i == j:
        return
    seats[j] = SkillRating(seats[j].bot_id, seats[i].mu, seats[i].sigma)
    ranks[j] = ranks[i]
    new = SKILL.rate(seats, ranks)
    assert new[i].mu == pytest.approx(new[j].mu, rel=1e-9, abs=1e-9)
    assert new[i].sigma == pytest.approx(new[j].sigma, rel=1e-9, abs=1e-9)


@given(st.floats(600, 2800), st.integers(0, 100), st.integers(2, 10))
def test_elo_rewards_a_better_rank_among_equals(elo: float, games: int, n: int) -> None:
    seats = [EloRating(f"bot{i}", elo, games) for i in range(n)]
    new = ELO.rate(seats, list(range(1, n + 1)))
    deltas = [r.elo - elo for r in new]
    assert deltas == sorted(deltas, reverse=True)
    assert deltas[0] > 0 > deltas[-1]
    # A whole game moves a rating at most K.
    assert all(abs(d) <= ELO.k_factor(seats[0]) + 1e-9 for d in deltas)


@settings(max_examples=25)
@given(st.lists(st.permutations(["a", "b", "c", "d"]), min_size=1, max_size=8))
def test_replaying_games_equals_rating_them_one_by_one(orders: list[list[str]]) -> None:
    games = [GameResult(i, tuple(o), (1, 2, 2, 4)) for i, o in enumerate(orders)]
    final, history = apply_games(ELO, games)
    current = {b: ELO.rating(b) for b in "abcd"}
    for g in games:
        for r in ELO.rate([current[b] for b in g.bot_ids], list(g.ranks)):
            current[r.bot_id] = r
    assert final == current
    assert len(history) == 4 * len(games)
    for change in history:
        assert change.delta == change.after.elo - change.before.elo


# --- Margin properties ----------------------------------------------------------------------


def dense_margin_update(
    calculator: MarginCalculator, seats: list[MarginRating], deals: list[DealScores]
) -> list[tuple[float, float]]:
    """The margin update written as the textbook Gaussian update, without the calculator's
    shortcuts: P = D + w·C as a full matrix, m' = P⁻¹(D·m + z) by Gauss–Jordan elimination."""
    n = len(seats)
    d = [1.0 / (r.sigma**2 + calculator.tau**2) for r in seats]
    w = 0.0
    z = [0.0] * n
    for deal in deals:
        v = calculator.deal_variance(deal, n)
        y = [score / deal.games for score in deal.scores]
        mean = sum(y) / n
        limit = calculator.clip * calculator.beta
        clipped = [max(-limit, min(limit, y[i] - mean)) for i in range(n)]
        w += 1 / v
        for i in range(n):
            z[i] += (clipped[i] - sum(clipped) / n) / v
    p = [[(d[i] if i == j else 0.0) + w * ((1.0 if i == j else 0.0) - 1.0 / n)
          for j in range(n)] for i in range(n)]  # fmt: skip
    rhs = [d[i] * seats[i].mu + z[i] for i in range(n)]
    # Gauss–Jordan on [P | I | rhs].
    rows = [p[i] + [1.0 if i == j else 0.0 for j in range(n)] + [rhs[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col][col]
        rows[col] = [x / head for x in rows[col]]
        for r in range(n):
            if r != col:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [(rows[i][2 * n], math.sqrt(rows[i][n + i])) for i in range(n)]


def test_the_four_seat_golden_case_is_the_dense_update() -> None:
    case = load("margin_four_unequal.json")
    seats = [MarginRating(s["bot_id"], s["mu"], s["sigma"], s["games"]) for s in case["seats"]]
    deals = [DealScores(tuple(float(x) for x in d["scores"]), d["games"]) for d in case["deals"]]
    dense = dense_margin_update(MarginCalculator(**case["parameters"]), seats, deals)
    for (mu, sigma), want in zip(dense, case["expected"], strict=True):
        assert mu == pytest.approx(want["mu"], rel=1e-9)
        assert sigma == pytest.approx(want["sigma"], rel=1e-9)


@st.composite
def margin_matches(draw: st.DrawFn) -> tuple[list[MarginRating], list[DealScores]]:
    n = draw(st.integers(2, 10))
    seats = [
        MarginRating(f"bot{i}", draw(st.floats(-30, 30)), draw(st.floats(0.3, 15)), 0)
        for i in range(n)
    ]
    deals = [
        DealScores(
            tuple(draw(st.lists(st.floats(-200, 200), min_size=n, max_size=n))),
            draw(st.sampled_from([1, n])),
        )
        for _ in range(draw(st.integers(1, 5)))
    ]
    return seats, deals


@settings(max_examples=60)
@given(margin_matches())
def test_margin_is_the_exact_gaussian_update(
    match: tuple[list[MarginRating], list[DealScores]],
) -> None:
    seats, deals = match
    new = MARGIN.rate(seats, deals)
    for got, (mu, sigma) in zip(new, dense_margin_update(MARGIN, seats, deals), strict=True):
        assert got.mu == pytest.approx(mu, rel=1e-7, abs=1e-7)
        assert got.sigma == pytest.approx(sigma, rel=1e-7)


@settings(max_examples=60)
@given(margin_matches(), st.randoms(use_true_random=False))
def test_margin_does_not_depend_on_seat_order(
    match: tuple[list[MarginRating], list[DealScores]], rnd: random.Random
) -> None:
    seats, deals = match
    order = list(range(len(seats)))
    rnd.shuffle(order)
    by_bot = {r.bot_id: r for r in MARGIN.rate(seats, deals)}
    shuffled = MARGIN.rate(
        [seats[i] for i in order],
        [DealScores(tuple(d.scores[i] for i in order), d.games) for d in deals],
    )
    for r in shuffled:
        assert r.mu == pytest.approx(by_bot[r.bot_id].mu, rel=1e-9, abs=1e-9)
        assert r.sigma == pytest.approx(by_bot[r.bot_id].sigma, rel=1e-9)


@settings(max_examples=60)
@given(margin_matches(), st.floats(-500, 500))
def test_margin_ignores_what_every_seat_scores_alike(
    match: tuple[list[MarginRating], list[DealScores]], shift: float
) -> None:
    # A generous deal lifts every seat: it says nothing about who is better.
    seats, deals = match
    moved = [DealScores(tuple(x + shift * d.games for x in d.scores), d.games) for d in deals]
    for a, b in zip(MARGIN.rate(seats, deals), MARGIN.rate(seats, moved), strict=True):
        assert a.mu == pytest.approx(b.mu, rel=1e-6, abs=1e-6)


@settings(max_examples=60)
@given(margin_matches())
def test_margin_never_grows_less_certain_from_a_match(
    match: tuple[list[MarginRating], list[DealScores]],
) -> None:
    seats, deals = match
    for old, new in zip(seats, MARGIN.rate(seats, deals), strict=True):
        assert new.sigma <= math.sqrt(old.sigma**2 + MARGIN.tau**2) + 1e-12
        assert new.games == old.games + 1


@given(st.floats(0.5, 60), st.integers(2, 10))
def test_margin_rewards_a_wider_margin_more(margin: float, n: int) -> None:
    seats = [MARGIN.rating(f"bot{i}") for i in range(n)]
    narrow = MARGIN.rate(seats, [DealScores((margin,) + (0.0,) * (n - 1))])
    wide = MARGIN.rate(seats, [DealScores((2 * margin,) + (0.0,) * (n - 1))])
    assert wide[0].mu > narrow[0].mu > 0
    assert narrow[0].mu > narrow[1].mu == pytest.approx(narrow[-1].mu)


def test_margin_trusts_a_duplicate_deal_more_than_a_single_game() -> None:
    seats = [MARGIN.rating("a"), MARGIN.rating("b")]
    single = MARGIN.rate(seats, [DealScores((20.0, 0.0))])
    duplicate = MARGIN.rate(seats, [DealScores((40.0, 0.0), games=2)])  # the same 20 per game
    assert duplicate[0].mu > single[0].mu
    assert duplicate[0].sigma < single[0].sigma
