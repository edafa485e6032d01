"""Hostile bots that attack the table rather than the machine, each in a real sandboxed match:
a bot that stops reading its stream, a bot whose silence must not wait for a slow neighbour's
bank, a bot that floods its socket with connections, a bot that writes terminal escapes.

Every test ends with the match finished (bounded in time), the fault recorded, and nothing of
the bot left running (``play`` checks its uid).
"""

import json
import os
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from arena.cli import main as nimmt
from arena.engine.replay import verify
from arena.protocol.server import MAX_CONNECTIONS
from arena.runner.manifest import load
from arena.runner.match import Entrant

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

#: What a whole hostile match may take at most: it must never hang on the bot.
MATCH_SECONDS = 40


@contextmanager
def open_files_sampled() -> Iterator[list[int]]:
    """This process's open file count, sampled every 20 ms while the block runs."""
    samples: list[int] = []
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            samples.append(len(os.listdir("/proc/self/fd")))
            time.sleep(0.02)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        yield samples
    finally:
        done.set()
        thread.join()


@pytest.mark.parametrize("transport", ["grpc", "framed"])
def test_a_bot_that_stops_reading_its_stream_is_dropped_and_the_match_finishes(transport, tmp_path):
    started = time.monotonic()
    stalled = Entrant(
        "stops-reading", program=load(BOTS / "stops-reading"), env={"NIMMT_BOT_OPTIONS": transport}
    )
    lineup = [stalled, fixture_bot("plain-random"), in_process_random("r")]
    # Games enough for the pile-up to reach the arena's bound (how many it takes depends on
    # how the arena's writes are cut) with a game left after the drop.
    result = play(lineup, tmp_path, games=5, max_faults=10**6)
    assert time.monotonic() - started < MATCH_SECONDS
    bot = result.bot("stops-reading")
    assert bot.program is not None and bot.program.transport == transport
    assert bot.dropped is not None and bot.dropped.kind == "timeout"
    assert "stopped reading its stream" in bot.dropped.detail
    faults = faults_of(result, "stops-reading")
    assert any("stopped reading its stream" in f["detail"] for f in faults)
    assert faults[-1]["game"] == 4 and "dropped from the match" in faults[-1]["detail"]
    others_clean(result, "stops-reading")
    assert all(verify(r) == [] for r in result.replays)
    log = (tmp_path / "logs" / "stops-reading.log").read_text()
    assert "stops-reading: not reading any more" in log


@pytest.mark.parametrize("transport", ["grpc", "framed"])
def test_a_bot_that_floods_its_stream_with_empty_messages_is_no_longer_read_and_dropped(
    transport, tmp_path
):
    """Read to the end of its deadline, the flood would cost the runner that deadline's worth of
    CPU (5.5 s here); the arena stops reading at the 64th message that answers nothing."""
    flood = Entrant(
        "frame-flood", program=load(BOTS / "frame-flood"), env={"NIMMT_BOT_OPTIONS": transport}
    )
    lineup = [flood, fixture_bot("plain-random"), in_process_random("r")]
    started = time.monotonic()
    cpu = time.process_time()
    # Any number of faults allowed: the flood itself must drop it (with the default three, the
    # flood's first three messages would).
    result = play(lineup, tmp_path, games=2, decision_ms=500, bank_ms=5000, max_faults=10**6)
    spent = time.process_time() - cpu
    assert time.monotonic() - started < MATCH_SECONDS
    bot = result.bot("frame-flood")
    assert bot.program is not None and bot.program.transport == transport
    assert bot.dropped is not None and bot.dropped.kind == "protocol"
    assert "64 messages that answer no request" in bot.dropped.detail
    assert "the arena stopped reading the bot's stream" in bot.dropped.detail
    faults = faults_of(result, "frame-flood")
    assert faults[0]["kind"] == "timeout"  # its request, unanswered to its deadline
    assert "no body set" in faults[1]["detail"]  # then the flood's first messages
    # This process's CPU (the runner and the in-process bot) over the whole match: measured
    # 0.1 s (framed) and 0.4 s (gRPC); 5.9 s and 3.9 s when the flood was read to the deadline.
    assert spent < 2.0, spent
    others_clean(result, "frame-flood")
    assert all(verify(r) == [] for r in result.replays)


def test_a_silent_seat_is_judged_at_its_own_deadline_not_at_a_slow_neighbours(tmp_path):
    """The thinker spends 0.3 s (0.1 s of a 4 s bank) on every decision; the silent seat's bank is
    empty after its first timeout, so its later timeouts come one decision (about 0.3 s) apart,
    not one neighbour's bank (4 s) apart."""
    lineup = [fixture_bot("answers-once"), fixture_bot("thinker")]
    result = play(lineup, tmp_path, games=1, decision_ms=200, bank_ms=4000, max_faults=3)
    faults = faults_of(result, "answers-once")
    assert [f["kind"] for f in faults] == ["timeout"] * 3
    assert "no answer within 4200 ms" in faults[0]["detail"]
    assert "no answer within 200 ms (allowance 200 ms + bank 0 ms)" in faults[1]["detail"]
    log = (tmp_path / "logs" / "answers-once.log").read_text()
    times = [float(t) for t in re.findall(r"timeout notice at (\d+\.\d+)", log)]
    assert len(times) == 2, log  # the third fault dropped it: no more notices
    assert times[1] - times[0] < 2.0, times  # one decision apart (the thinker's 0.3 s)
    assert result.bot("thinker").faults == ()


def test_a_connection_flood_after_hello_is_refused_and_costs_the_runner_a_few_files(tmp_path):
    lineup = [fixture_bot("conn-flood"), fixture_bot("plain-random"), in_process_random("r")]
    with open_files_sampled() as samples:
        result = play(lineup, tmp_path, games=3, decision_ms=1000)
    log = (tmp_path / "logs" / "conn-flood.log").read_text()
    assert "conn-flood: 100 connections to NIMMT_ENGINE opened" in log
    assert "connections to NIMMT_FRAMES opened" in log
    # It played on (its own stream was open); the flood reached nobody else.
    assert faults_of(result, "conn-flood") == []
    others_clean(result, "conn-flood")
    # Two bots' two sockets, each holding at most MAX_CONNECTIONS connections, and the files
    # of the match (logs, replays, sandbox pipes): never hundreds.
    assert max(samples) - samples[0] < 8 * MAX_CONNECTIONS + 40, (samples[0], max(samples))


def test_a_bot_that_floods_before_its_hello_never_takes_its_seat(tmp_path):
    flooder = Entrant(
        "conn-flood", program=load(BOTS / "conn-flood"), env={"NIMMT_BOT_OPTIONS": "before"}
    )
    lineup = [flooder, fixture_bot("plain-random"), in_process_random("r")]
    with open_files_sampled() as samples:
        result = play(lineup, tmp_path, games=2, decision_ms=1000, start_ms=3000)
    dropped = result.bot("conn-flood").dropped
    assert dropped is not None and dropped.before_start and dropped.kind == "crash"
    # Its own connection found every place taken: the kit gave up at once, or never got in.
    assert re.search(
        "exited with status 1 before saying hello|never said hello within 3000 ms", dropped.detail
    ), dropped.detail
    log = (tmp_path / "logs" / "conn-flood.log").read_text()
    assert "conn-flood: 100 connections to NIMMT_ENGINE opened" in log
    assert "connections to NIMMT_FRAMES opened" in log
    assert [f["kind"] for f in faults_of(result, "conn-flood")] == ["crash", "crash"]
    others_clean(result, "conn-flood")
    assert max(samples) - samples[0] < 8 * MAX_CONNECTIONS + 40, (samples[0], max(samples))


def test_escape_sequences_of_a_bot_reach_no_report_raw(tmp_path, capsys):
    code = nimmt(
        [
            "match",
            str(BOTS / "escapes"),
            "random",
            "--games",
            "2",
            "--out",
            str(tmp_path),
            "--decision-ms",
            "2000",
        ]
    )
    assert code == 0
    printed = capsys.readouterr()
    unsafe = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]")
    for text in (printed.out, printed.err):
        assert not unsafe.search(text), text
    assert "\\x1b]0;pwned\\x07" in printed.out  # the crash's log lines, escaped
    summary = (tmp_path / "match.json").read_text()
    replays = [p.read_text() for p in tmp_path.glob("game-*.json")]
    for text in (summary, *replays):
        assert not unsafe.search(json.loads(json.dumps(text))), text[:200]
        data = json.loads(text)
        assert not unsafe.search(json.dumps(data, ensure_ascii=False))
    faults = json.loads(summary)["bots"][0]["fault_list"]
    assert [f["kind"] for f in faults][:2] == ["illegal", "crash"]
    assert "\\u202e" in faults[1]["detail"]
