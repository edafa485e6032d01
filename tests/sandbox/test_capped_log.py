"""A bot's capped log knows when it has everything the bot wrote (its pipe's end), and a lost
bot's fault quotes its last lines only once they are in, however late the reader gets them."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from pathlib import Path
from typing import cast

import pytest

from arena.runner.connected import exited_log_tail
from arena.sandbox import BotProcess
from arena.sandbox.capped_log import CappedLog, settle


def _wait(check: object, timeout: float = 5.0) -> None:
    limit = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < limit, "timed out"
        time.sleep(0.005)


def test_the_log_is_at_its_end_only_once_every_writer_has_closed_the_pipe(tmp_path: Path) -> None:
    read, write = os.pipe()
    log = CappedLog(read, tmp_path / "bot.log")
    os.write(write, b"loading my model\n")
    _wait(lambda: "loading" in log.text())
    assert not log.at_end  # the bot may still write
    os.write(write, b"model.bin is missing\n")
    os.close(write)
    _wait(lambda: log.at_end)
    assert log.text() == "loading my model\nmodel.bin is missing\n"
    log.close()
    assert (tmp_path / "bot.log").read_text() == log.text()


class _Exited:
    """A bot process that has exited, whose last line reaches its log ``delay`` s later."""

    def __init__(self, log: CappedLog) -> None:
        self.log = log

    def poll(self) -> int | None:
        return 7

    def log_text(self) -> str:
        return self.log.text()

    @property
    def log_complete(self) -> bool:
        return self.log.at_end


def test_a_fault_quotes_the_last_lines_that_reach_the_log_after_the_exit(tmp_path: Path) -> None:
    read, write = os.pipe()
    log = CappedLog(read, tmp_path / "bot.log")

    def late_writer() -> None:
        time.sleep(0.1)
        os.write(write, b"crash-at-start: model.bin is missing\n")
        os.close(write)

    threading.Thread(target=late_writer).start()
    tail = asyncio.run(exited_log_tail(cast(BotProcess, _Exited(log))))
    assert tail == "; last log lines: crash-at-start: model.bin is missing"
    log.close()


def test_a_kept_process_s_log_of_a_match_is_finished_with_its_last_words_and_tail(
    tmp_path: Path,
) -> None:
    read, write = os.pipe()
    log = CappedLog(read, tmp_path / "match-1.log", head=16, tail=16)
    writer = threading.Thread(
        target=lambda: [os.write(write, b"x" * 40), time.sleep(0.01), os.write(write, b"bye\n")]
    )
    writer.start()
    writer.join()
    settle([log])  # the process goes on running: its pipe never ends
    log.switch(tmp_path / "match-2.log")
    os.write(write, b"next match\n")
    _wait(lambda: "next match" in log.text())
    first = (tmp_path / "match-1.log").read_bytes()
    assert first.startswith(b"x" * 16) and first.endswith(b"bye\n")  # the tail is written
    assert b"[... 12 bytes cut ...]" in first
    assert (tmp_path / "match-2.log").read_bytes() == b"next match\n"
    os.close(write)
    log.close()


def test_a_match_s_log_has_what_was_written_before_its_switch_however_late_the_reader_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As on a busy machine, where the log's thread may not run for longer than settle's quiet
    # time: a kept process's whole match went to the next match's log, or to nowhere (CI).
    drain = CappedLog._drain
    started = threading.Event()

    def late(self: CappedLog) -> None:
        started.wait(5)
        drain(self)

    monkeypatch.setattr(CappedLog, "_drain", late)
    read, write = os.pipe()
    log = CappedLog(read, tmp_path / "match-1.log")
    os.write(write, b"in the match\n")
    settle([log])
    os.write(write, b"the arena keeps this process\n")  # after the settling, before the switch
    log.switch(tmp_path / "match-2.log")
    os.write(write, b"in the next match\n")
    started.set()
    os.close(write)
    _wait(lambda: log.at_end)
    log.close()
    assert (tmp_path / "match-1.log").read_bytes() == (
        b"in the match\nthe arena keeps this process\n"
    )
    assert (tmp_path / "match-2.log").read_bytes() == b"in the next match\n"


def test_a_bot_that_never_stops_writing_does_not_hold_the_log_for_ever(tmp_path: Path) -> None:
    read, write = os.pipe()
    log = CappedLog(read, tmp_path / "bot.log", head=16, tail=16)
    stop = threading.Event()

    def chatty() -> None:
        while not stop.is_set():
            os.write(write, b"y" * 4096)

    writer = threading.Thread(target=chatty)
    writer.start()
    try:
        for _ in range(20):  # each takes what is there, a bounded amount, and returns
            log.read_waiting()
            log.switch(tmp_path / "bot.log")
        settle([log], limit=0.2)  # gives up after its limit: the pipe never goes quiet
        assert log.read_waiting() > 0
    finally:
        stop.set()
        writer.join()
    os.close(write)
    _wait(lambda: log.at_end)
    log.close()


def test_a_full_disk_loses_the_log_file_but_never_stops_the_pipe_or_the_match(
    tmp_path: Path,
) -> None:
    read, write = os.pipe()
    log = CappedLog(read, Path("/dev/full"), head=16, tail=16)  # every write: ENOSPC
    os.write(write, b"before the disk filled\n")
    settle([log])  # the match's end for a kept process: no error
    assert log.text() == "before the disk filled\n"  # kept in memory
    for _ in range(8):  # far more than a pipe holds: the bot is never blocked nor cut off
        os.write(write, b"z" * 65536)
    log.switch(tmp_path / "match-2.log")  # space again, for the next match
    os.write(write, b"next match\n")
    os.close(write)
    _wait(lambda: log.at_end)
    log.close()
    assert (tmp_path / "match-2.log").read_bytes() == b"next match\n"
