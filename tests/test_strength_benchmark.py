"""The strength benchmark's runs in parts: a round robin played over several sittings and
combined must read as the one run it stands for, and parts of different designs must not mix."""

import json
import sys
from pathlib import Path

import pytest

sys.path.append(str(Path(__file__).resolve().parents[1]))  # the benchmarks are not installed
from benchmarks import strength

QUICK = ["--bots", "heuristic,random", "--tables", "basic:4,classic:2", "--seed", "3"]


def run_part(tmp_path, name, *extra):
    path = tmp_path / f"{name}.json"
    strength.main([*QUICK, *extra, "--json", str(path)])
    return path


def scores_of(printed):
    """The printed tables without the decision times: each bot's deals, mean and interval."""
    return [line.split()[:5] for line in printed.splitlines()[1:]]


def test_two_parts_combine_into_the_tables_of_the_whole_run(tmp_path, capsys):
    whole = run_part(tmp_path, "whole", "--deals", "4")
    first = run_part(tmp_path, "first", "--deals", "2")
    second = run_part(tmp_path, "second", "--deals", "2", "--first-deal", "2")
    capsys.readouterr()

    strength.main(["--combine", str(whole)])
    alone = capsys.readouterr().out
    strength.main(["--combine", str(first), str(second)])
    combined = capsys.readouterr().out

    assert "2 parts, deals 0-3 (4 deal numbers)" in combined
    # Every score, interval and verdict is the whole run's (decision times vary run to run).
    assert scores_of(alone) == scores_of(combined)
    assert "basic, 4 players" in combined and "classic, 2 players" in combined
    assert "heuristic - random" in combined


def test_a_part_keeps_its_design_its_commit_and_every_deal(tmp_path):
    data = json.loads(run_part(tmp_path, "part", "--deals", "2", "--first-deal", "5").read_text())
    assert (data["seed"], data["ms"], data["clock"]) == (3, 30.0, "cpu")
    assert len(data["commits"]) == 1 and data["commits"][0]
    assert sorted({s["deal"] for s in data["scores"]}) == [5, 6]
    assert len(data["scores"]) == 2 * 2  # two deals at two tables, one pair


def test_combining_refuses_a_deal_played_in_two_parts(tmp_path):
    one = run_part(tmp_path, "one", "--deals", "2")
    overlapping = run_part(tmp_path, "two", "--deals", "2", "--first-deal", "1")
    with pytest.raises(SystemExit, match=r"deal 1 of heuristic - random .* is in two parts"):
        strength.main(["--combine", str(one), str(overlapping)])


def test_combining_refuses_parts_of_different_seeds(tmp_path):
    one = run_part(tmp_path, "one", "--deals", "1")
    other = tmp_path / "other.json"
    strength.main(
        [*QUICK, "--seed", "4", "--deals", "1", "--first-deal", "1", "--json", str(other)]
    )
    with pytest.raises(SystemExit, match="only parts of one design can be combined"):
        strength.main(["--combine", str(one), str(other)])


def test_combining_names_a_file_that_is_not_a_results_file(tmp_path):
    stray = tmp_path / "stray.json"
    stray.write_text('{"hello": 1}')
    with pytest.raises(SystemExit, match=r"stray\.json: not a results file"):
        strength.main(["--combine", str(stray)])


def test_decision_times_keep_their_percentiles_in_the_histogram():
    times = strength.Times()
    for ms in (30.04, 30.26, 31.0, 36.2):
        times.add(ms, ms / 2)
    assert times.percentile("cpu", 0.5) == 15.1 and times.percentile("wall", 0.95) == 36.2
    assert times.maximum("wall") == 36.2 and times.count == 4
    assert strength.Times.from_json(json.loads(json.dumps(times.to_json()))) == times


def test_each_seating_of_a_deal_is_played_by_new_bots(monkeypatch):
    """No bot object is dealt a deal twice: every seating of a deal makes its bots afresh, so
    a bot that remembered deals would learn nothing of its opponents' hands."""
    made = []
    make = strength.make

    def recording_make(spec):
        bot = make(spec)
        made.append(bot)
        return bot

    monkeypatch.setattr(strength, "make", recording_make)
    job = strength.Job("basic", 4, "heuristic", "random", deal=0, seed=3, ms=1.0, clock="cpu")
    result = strength.play_deal(job)
    seatings = strength.seatings(4)
    assert len(made) == 4 * len(seatings)  # one bot per seat per seating
    assert len({id(bot) for bot in made}) == len(made)
    assert result.deal == 0
