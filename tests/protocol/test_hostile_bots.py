"""Hostile bot programs, as the match runner sees them: each run in the real sandbox against
house bots, over real gRPC on a real Unix socket.

Every test checks the same promises: the match completes, the other bots' games go on without a
fault, the fault is recorded with the right kind, and no process of the bot is left.
"""

import pytest

from arena import sandbox
from arena.engine.replay import verify
from arena.runner.manifest import load
from arena.runner.match import Entrant, MatchConfig, MatchError, run_match

from .conftest import (
    BOTS,
    faults_of,
    fixture_bot,
    in_process_random,
    needs_bwrap,
    others_clean,
    play,
)

pytestmark = needs_bwrap


def lineup(hostile: str) -> list:
    return [fixture_bot(hostile), fixture_bot("plain-random"), in_process_random("random")]


def test_it_records_a_timeout_and_plays_on_when_a_bot_sleeps_past_its_deadline(tmp_path):
    # A roomy allowance: on a loaded machine the bot's quick answers must not fault too, or
    # three faults would drop it and the test would pin the load rather than the one sleep.
    result = play(lineup("sleeper"), tmp_path, decision_ms=1000, bank_ms=1000)
    faults = faults_of(result, "sleeper")
    assert faults, "the sleep past the deadline must be a fault"
    assert {f["kind"] for f in faults} == {"timeout"}
    first = faults[0]
    assert (first["game"], first["turn"]) == (0, 2)  # game 1, turn 3
    assert "no answer within 2000 ms" in first["detail"]
    assert result.bots[0].dropped is None  # one slow answer is not the end
    others_clean(result, "sleeper")
    assert all(verify(r) == [] for r in result.replays)
    log = (tmp_path / "logs" / "sleeper.log").read_text()
    assert "came too late" in log  # the LATE notice reached the bot's log


@pytest.mark.parametrize("transport", ["grpc", "framed"])
def test_it_records_protocol_faults_for_garbage_and_malformed_answers(transport, tmp_path):
    garbage = Entrant(
        "garbage", program=load(BOTS / "garbage"), env={"NIMMT_BOT_OPTIONS": transport}
    )
    result = play([garbage, *lineup("garbage")[1:]], tmp_path, max_faults=10)
    faults = faults_of(result, "garbage")
    assert [f["kind"] for f in faults] == ["protocol"] * 3
    details = " / ".join(f["detail"] for f in faults)
    assert "not a nimmt.v1.BotMessage" in details
    assert "holds no decision" in details
    assert "not open" in details
    assert all(f["game"] == 0 for f in faults)
    others_clean(result, "garbage")
    assert all(verify(r) == [] for r in result.replays)


def test_it_records_an_illegal_tile_and_drops_a_bot_at_the_fault_limit(tmp_path):
    result = play(lineup("illegal"), tmp_path, games=4)
    faults = faults_of(result, "illegal")
    assert [(f["game"], f["kind"], f["turn"]) for f in faults[:3]] == [
        (0, "illegal", 1),
        (1, "illegal", 1),
        (2, "illegal", 1),
    ]
    assert "not in seat" in faults[0]["detail"]
    # Dropped at the third fault: game 4 plays defaults for it and records why.
    assert faults[3]["game"] == 3 and faults[3]["turn"] == 0
    assert "dropped from the match in game 3" in faults[3]["detail"]
    bot = result.bots[0]
    assert bot.dropped is not None and bot.dropped.game == 3
    others_clean(result, "illegal")
    # The faulted seat ranks last in its games.
    for game in range(4):
        replay = result.replays[game]
        seat = replay.names.index("illegal")
        assert replay.result.ranks[seat] == 3


def test_it_records_a_crash_and_drops_a_bot_that_disconnects_mid_game(tmp_path):
    result = play(lineup("disconnect"), tmp_path)
    faults = faults_of(result, "disconnect")
    assert faults[0]["kind"] == "crash"
    assert faults[0]["game"] == 0 and faults[0]["turn"] == 4
    assert [f["game"] for f in faults] == [0, 1]  # game 2: dropped, recorded once
    dropped = result.bots[0].dropped
    assert dropped is not None and dropped.kind == "crash"
    others_clean(result, "disconnect")


def test_it_records_a_crash_with_the_last_log_lines_when_a_bot_dies_at_start(tmp_path):
    result = play(lineup("crash-at-start"), tmp_path)
    faults = faults_of(result, "crash-at-start")
    assert [(f["game"], f["kind"]) for f in faults] == [(0, "crash"), (1, "crash")]
    dropped = result.bots[0].dropped
    assert dropped is not None and dropped.before_start
    assert "exited with status 7 before saying hello" in dropped.detail
    assert "model.bin is missing" in dropped.detail
    assert "dropped from the match before the first game" in faults[0]["detail"]
    others_clean(result, "crash-at-start")


def test_it_times_out_then_drops_and_kills_a_bot_in_an_endless_loop(tmp_path):
    result = play(lineup("endless-loop"), tmp_path)
    faults = faults_of(result, "endless-loop")
    assert [f["kind"] for f in faults] == ["timeout"] * 4  # 3 in game 1, then dropped
    assert faults[0]["turn"] == 1
    dropped = result.bots[0].dropped
    assert dropped is not None and dropped.game == 1
    assert "3 faults" in dropped.detail
    others_clean(result, "endless-loop")


def test_it_refuses_an_untrusted_bot_without_isolation_unless_told_it_is_unsafe(
    tmp_path, monkeypatch
):
    def unavailable():
        raise sandbox.SandboxUnavailable("no network namespace (test)")

    monkeypatch.setattr(sandbox, "require_isolation", unavailable)
    config = MatchConfig("basic", 1, 1, out=tmp_path, decision_ms=2000)
    with pytest.raises(MatchError, match="--unsafe-no-sandbox"):
        run_match(config, lineup("sleeper"))
    unsafe = MatchConfig("basic", 1, 1, out=tmp_path, decision_ms=2000, unsafe_no_sandbox=True)
    result = run_match(unsafe, [fixture_bot("plain-random"), in_process_random("random")])
    assert result.sandbox.enabled is False
    assert "unsafe" in result.sandbox.note
    assert set(result.sandbox.layers) >= {"bubblewrap", "network_cutoff"}


def test_it_records_a_crash_with_the_traceback_when_the_bots_code_raises(tmp_path):
    result = play(lineup("raises"), tmp_path)
    faults = faults_of(result, "raises")
    assert (faults[0]["game"], faults[0]["turn"], faults[0]["kind"]) == (0, 2, "crash")
    assert "ZeroDivisionError" in faults[0]["detail"]
    log = (tmp_path / "logs" / "raises.log").read_text()
    assert "Traceback" in log and "the bot's choose_tile() raised" not in log  # decide() wraps
    assert "the bot's decide() raised ZeroDivisionError" in log
    others_clean(result, "raises")


def test_a_note_far_over_the_limit_is_cut_and_never_a_fault(tmp_path):
    result = play(lineup("loud-notes"), tmp_path)
    assert faults_of(result, "loud-notes") == []
    others_clean(result, "loud-notes")
    assert all(name is not None for name in result.notes_files)
    for game in result.notes:
        assert game, "every answer came with a note"
        for note in game:
            assert note.note.text == "→" * 333  # 1000 bytes, cut between characters
            # One value per option; not finite is none (and none at the end is left out).
            sent = (None, None, None, 1.5, *[2.0] * 496)[: len(note.options)]
            assert note.note.values == (sent if len(sent) > 3 else ())
