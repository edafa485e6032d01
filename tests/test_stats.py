"""Series statistics: mean with a 95% interval, win rate, mean rank, and the table."""

import math

import pytest

from arena.stats import (
    BotSummary,
    SeatedGame,
    confidence95,
    entry_names,
    format_table,
    mean,
    summarize,
    summarize_series,
)


def test_it_computes_the_normal_approximation_interval() -> None:
    scores = [2, 4, 4, 4, 5, 5, 7, 9]  # sample sd = 2.138
    assert mean(scores) == 5.0
    assert confidence95(scores) == pytest.approx(1.96 * 2.13809 / math.sqrt(8), rel=1e-4)


def test_it_gives_no_interval_for_one_game() -> None:
    assert math.isnan(confidence95([3]))
    assert summarize("a", [3], [1]).to_dict()["ci95"] is None
    assert "n/a" in format_table([summarize("a", [3], [1])])


def test_it_counts_a_shared_first_place_as_a_win_for_each() -> None:
    row = summarize("a", [10, 10, 3, 8], [1, 1, 4, 2])
    assert (row.wins, row.win_rate, row.mean_rank) == (2, 0.5, 2.0)


def test_it_follows_each_lineup_entry_through_the_seats() -> None:
    games = [
        SeatedGame(seats=(0, 1, 2), scores=(5, 1, 0), ranks=(1, 2, 3)),
        SeatedGame(seats=(2, 0, 1), scores=(7, 3, 3), ranks=(1, 2, 2)),
    ]
    a, b, c = summarize_series(["a", "b", "c"], games)
    assert (a.mean_score, a.mean_rank, a.wins) == (4.0, 1.5, 1)
    assert (b.mean_score, b.mean_rank, b.wins) == (2.0, 2.0, 0)
    assert (c.mean_score, c.mean_rank, c.wins) == (3.5, 2.0, 1)


def test_it_tells_repeated_bots_apart() -> None:
    assert entry_names(["random", "mcs", "random", "random"]) == [
        "random",
        "mcs",
        "random#2",
        "random#3",
    ]


def test_it_prints_one_aligned_line_per_bot() -> None:
    rows = [summarize("heuristic", [1, 3], [1, 2]), summarize("random#2", [-4, -6], [2, 1])]
    lines = format_table(rows).splitlines()
    assert lines[0].split()[:2] == ["bot", "games"]
    assert lines[1].startswith("heuristic ") and lines[2].startswith("random#2 ")
    assert len({len(line) for line in lines}) == 1
    assert "-5.00" in lines[2] and "50.0%" in lines[2]


def test_it_says_the_card_game_score_is_a_penalty() -> None:
    rows = [summarize("a", [4, 6], [1, 2])]
    assert "penalty" in format_table(rows, higher_is_better=False)
    assert "penalty" not in format_table(rows)


def test_it_refuses_empty_or_mismatched_series() -> None:
    with pytest.raises(ValueError, match="no games"):
        summarize("a", [], [])
    with pytest.raises(ValueError, match="2 scores but 1 ranks"):
        summarize("a", [1, 2], [1])
    with pytest.raises(ValueError):
        mean([])


def test_it_serializes_a_summary() -> None:
    data = summarize("a", [1, 3], [1, 2]).to_dict()
    assert BotSummary(**data) == summarize("a", [1, 3], [1, 2])
