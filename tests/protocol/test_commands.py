"""`nimmt match` and `nimmt bot check`, through their argparse entry points."""

import argparse
import io
import json
from pathlib import Path

import pytest

from arena.runner.commands import add_commands, check_bot

from .conftest import BOTS, needs_bwrap

ROOT = Path(__file__).resolve().parents[2]
STARTER = ROOT / "bots" / "starter-python"


def nimmt(*argv):
    parser = argparse.ArgumentParser(prog="nimmt")
    add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args([str(a) for a in argv])
    assert args.handler is args.func
    return args.func(args)


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
    assert [b["name"] for b in summary["bots"]] == ["plain-random", "starter", "random"]
    assert summary["bots"][2]["trusted"] is True  # a house bot, as its bots/random program
    for bot in summary["bots"]:
        assert (tmp_path / bot["log"]).is_file()
        assert bot["peak_memory_mb"] is None or bot["peak_memory_mb"] > 0


def test_it_refuses_an_unknown_bot_with_a_usage_error(tmp_path, capsys):
    assert nimmt("match", "no-such-bot", "random", "--out", tmp_path) == 2
    assert "neither a bot folder nor a house bot" in capsys.readouterr().err


@needs_bwrap
def test_it_passes_the_starter_bot():
    out = io.StringIO()
    assert check_bot(STARTER, stream=out, matches=(("basic", 3, 1), ("classic", 3, 1)))
    text = out.getvalue()
    assert "ok   manifest: 'starter'" in text
    assert "PASS starter is ready" in text


@needs_bwrap
@pytest.mark.parametrize(
    ("bot", "words"),
    [
        ("crash-at-start", ["crashed at start", "status 7", "model.bin is missing"]),
        ("illegal", ["illegal move(s); the first in game 1, turn 2", "not in seat"]),
        ("endless-loop", ["answer(s) too late", "dropped from the match in game 1"]),
    ],
)
def test_it_explains_why_a_bot_fails_the_check(bot, words):
    out = io.StringIO()
    ok = check_bot(BOTS / bot, stream=out, matches=(("basic", 3, 2),), decision_ms=200, bank_ms=300)
    text = out.getvalue()
    assert not ok
    assert "FAIL basic" in text
    for word in words:
        assert word in text
    assert "the bot's log:" in text


@needs_bwrap
def test_it_explains_that_a_bot_never_said_hello():
    out = io.StringIO()
    assert not check_bot(BOTS / "mute", stream=out, matches=(("basic", 2, 1),), start_ms=1500)
    text = out.getvalue()
    assert "never said hello within 1500 ms" in text
    assert "$NIMMT_ENGINE" in text and "mute: thinking about it" in text


def test_it_fails_the_check_of_a_folder_without_manifest(tmp_path):
    out = io.StringIO()
    assert not check_bot(tmp_path, stream=out)
    assert "FAIL manifest" in out.getvalue() and "no manifest" in out.getvalue()


def test_it_plays_with_a_bot_started_by_hand(tmp_path):
    import threading

    from arena.botkit import play
    from arena.bots.random import RandomBot
    from arena.runner.match import Entrant, MatchConfig, run_match

    from .conftest import in_process_random

    threads = []

    def start_it_by_hand(name, address, token):
        thread = threading.Thread(target=play, args=(RandomBot(), address, token), daemon=True)
        thread.start()
        threads.append(thread)

    config = MatchConfig("basic", 2, 3, out=tmp_path, decision_ms=2000)
    result = run_match(
        config,
        [Entrant("mine", external=True), in_process_random("random")],
        announce=start_it_by_hand,
    )
    threads[0].join(5)
    assert not threads[0].is_alive()  # the kit returned at the end of the match
    bot = result.summary["bots"][0]
    assert bot["kind"] == "external" and bot["answers"] == 48 and bot["dropped"] is None


def test_it_names_the_lineup_as_nimmt_play_does():
    from arena.runner.commands import entrants_for

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
