"""A bot's capped log knows when it has everything the bot wrote (its pipe's end), and a lost
bot's fault quotes its last lines only once they are in, however late the reader gets them."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from pathlib import Path
from typing import cast

from arena.runner.connected import exited_log_tail
from arena.sandbox import BotProcess
from arena.sandbox.capped_log import CappedLog


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
    from arena.sandbox.capped_log import settle

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
