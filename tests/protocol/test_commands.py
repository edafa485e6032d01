"""`nimmt match` and `nimmt bot check` as a user types them (``arena.cli.main``)."""

import json
from pathlib import Path

from arena.cli import main
from arena.cli.match import entrants_for

from .conftest import BOTS, needs_bwrap

ROOT = Path(__file__).resolve().parents[2]
STARTER = ROOT / "bots" / "starter-python"


def nimmt(*argv: object) -> int:
    return main([str(a) for a in argv])


@needs_bwrap
def test_it_plays_a_sandboxed_match_and_writes_replays_logs_and_summary(tmp_path, capsys):
    code = nimmt(
        "match", BOTS / "plain-random", STARTER, "random", "--games", "3", "--seed", "2",
        "--out", tmp_path, "--decision-ms", "2000",
    )  # fmt: skip
    assert code == 0
    out = capsys.readouterr().out
    assert "mean score" in out and "starter" in out and "plain-random" in out
    assert "sandbox on: bubblewrap, network_cutoff" in out
    assert sorted(p.name for p in tmp_path.glob("game-*.json")) == [
        "game-00001.json",
        "game-00002.json",
        "game-00003.json",
    ]
    summary = json.loads((tmp_path / "match.json").read_text())
    assert summary["format"] == "nimmt-match/2"
    assert [b["name"] for b in summary["bots"]] == ["plain-random", "starter", "random"]
    assert summary["bots"][2]["trusted"] is True  # a house bot, as its bots/random program
    for bot in summary["bots"]:
        assert (tmp_path / bot["log"]).is_file()
        assert bot["peak_memory_mb"] is None or bot["peak_memory_mb"] > 0
    assert sum(b["score"] for b in summary["bots"]) == sum(
        sum(json.loads((tmp_path / f).read_text())["result"]["scores"]) for f in summary["replays"]
    )


@needs_bwrap
def test_replay_verify_accepts_a_match_folder_and_skips_its_match_json(tmp_path, capsys):
    assert nimmt("match", "random", "random", "--games", "2", "--out", tmp_path) == 0
    capsys.readouterr()
    assert nimmt("replay", "verify", tmp_path) == 0
    out = capsys.readouterr().out
    assert "2 replays: 2 ok, 0 mismatched, 0 unreadable (1 other files skipped)" in out


def test_it_refuses_an_unknown_bot_with_a_usage_error(tmp_path, capsys):
    assert nimmt("match", "no-such-bot", "random", "--out", tmp_path) == 2
    assert "neither a bot folder nor a house bot" in capsys.readouterr().err


@needs_bwrap
def test_bot_check_passes_the_starter_bot_in_every_variant_and_table_size(tmp_path, capsys):
    assert nimmt("bot", "check", STARTER, "--out", tmp_path) == 0
    out = capsys.readouterr().out
    assert "ok   manifest: 'starter'" in out
    for variant in ("basic", "basic+luck", "pro", "pro+luck", "classic"):
        assert f"ok   {variant}, 4 players" in out
    assert "ok   classic, 10 players" in out
    assert "PASS starter is ready" in out


@needs_bwrap
def test_bot_check_fails_a_bot_that_breaks_only_at_a_table_of_four(tmp_path, capsys):
    assert nimmt("bot", "check", BOTS / "four-players-break-it", "--out", tmp_path) == 1
    out = capsys.readouterr().out
    assert "ok   basic, 2 players" in out
    assert "FAIL basic, 4 players" in out
    assert "IndexError: seat table sized for 2, 3, 5 or 6 players" in out
    assert "PASS" not in out


def test_bot_check_fails_a_folder_without_manifest(tmp_path, capsys):
    assert nimmt("bot", "check", tmp_path) == 1
    out = capsys.readouterr().out
    assert "FAIL manifest" in out and "no manifest" in out


def test_it_names_the_lineup_as_nimmt_play_does():
    lineup = entrants_for(["random", str(STARTER), "mcs:playouts=20", "random", "connect:mine"])
    assert [e.name for e in lineup] == [
        "random",
        "starter",
        "mcs:playouts=20",
        "random#2",
        "mine",
    ]
    assert lineup[0].program is not None and lineup[0].trusted
    assert lineup[1].program is not None and not lineup[1].trusted
    assert dict(lineup[2].env) == {"NIMMT_BOT_OPTIONS": "playouts=20"}
    assert lineup[4].external
    in_process = entrants_for(["random", "heuristic"], in_process=True)
    assert all(e.in_process is not None for e in in_process)


def test_a_duplicate_match_plays_each_deal_in_every_seat_rotation(tmp_path, capsys):
    code = nimmt(
        "match", "random", "heuristic", "random", "--in-process", "--games", "6", "--seed", "5",
        "--duplicate", "--out", tmp_path,
    )  # fmt: skip
    assert code == 0
    assert (
        "duplicate: deal seeds 5..6, each deal in all 3 seat rotations" in capsys.readouterr().out
    )
    replays = [json.loads(p.read_text()) for p in sorted(tmp_path.glob("game-*.json"))]
    assert [r["seed"] for r in replays] == [5, 5, 5, 6, 6, 6]
    assert [r["series"]["deal"] for r in replays] == [1, 1, 1, 2, 2, 2]
    for deal in (replays[:3], replays[3:]):
        assert all(r["setup"] == deal[0]["setup"] for r in deal)
        # every line-up entry holds every seat of the deal once
        for seat in range(3):
            assert sorted(r["players"][seat]["entry"] for r in deal) == [0, 1, 2]
    assert json.loads((tmp_path / "match.json").read_text())["duplicate"] is True


def test_a_duplicate_match_needs_whole_rotations(tmp_path, capsys):
    code = nimmt("match", "random", "random", "random", "--in-process", "--games", "4",
                 "--duplicate", "--out", tmp_path)  # fmt: skip
    assert code == 2
    assert "--games must be a multiple of the 3 bots, got 4" in capsys.readouterr().err
