"""A match's teardown waits on nothing for ever: ending the bots' processes, stopping their
servers and writing the replays each have a time limit, so a clean-up that hangs (a process
that will not die, a server that will not stop, a disk that stops answering) cannot wedge the
worker that runs the match."""

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from arena import sandbox
from arena.protocol.server import SeatServer
from arena.runner import lineup as lineup_module
from arena.runner import match as match_module
from arena.runner.match import MatchConfig, run_match

from .conftest import FAST, assert_gone, house, in_process_random, needs_bwrap


@needs_bwrap
def test_a_sitting_whose_processes_will_not_end_lets_the_match_finish_after_its_wait(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    release, ended = threading.Event(), threading.Event()
    real_end_all = sandbox.end_all

    def hanging_end_all(processes: Any) -> None:
        release.wait(60)  # a kill that hangs, until the test lets it go
        try:
            real_end_all(processes)
        finally:
            ended.set()

    monkeypatch.setattr(sandbox, "end_all", hanging_end_all)
    monkeypatch.setattr(lineup_module, "END_WAIT", 0.5)
    config = MatchConfig(variant="basic", games=1, seed=3, out=tmp_path, **FAST)
    started = time.monotonic()
    result = run_match(config, [house("random"), house("random", copy=2)])
    took = time.monotonic() - started
    release.set()

    assert len(result.replays) == 1
    assert took < 30, f"the match waited {took:.1f} s on processes that would not end"
    assert ended.wait(30), "the ending thread finishes once let go"
    for bot in result.bots:
        assert_gone(bot)


@needs_bwrap
def test_a_bots_server_that_will_not_stop_does_not_hold_the_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_stop = SeatServer.stop
    stops: list[float] = []

    async def hanging_stop(self: SeatServer, grace: float = 0.5) -> None:
        try:
            await asyncio.sleep(3600)
        finally:  # cancelled by the wait: the server is stopped for real, at once
            stops.append(time.monotonic())
            await real_stop(self, 0)

    monkeypatch.setattr(SeatServer, "stop", hanging_stop)
    monkeypatch.setattr(lineup_module, "SERVER_STOP_WAIT", 0.5)
    config = MatchConfig(variant="basic", games=1, seed=4, out=tmp_path, **FAST)
    started = time.monotonic()
    result = run_match(config, [house("random"), house("random", copy=2)])

    assert len(result.replays) == 1
    assert len(stops) == 2, "each server's stop was given up on after its wait"
    assert time.monotonic() - started < 60
    for bot in result.bots:
        assert_gone(bot)


def test_replays_that_cannot_be_written_fail_the_match_after_its_wait(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()

    def hanging_write(path: Path, content: Any) -> None:
        release.wait(30)  # a disk that stops answering

    monkeypatch.setattr(match_module, "write", hanging_write)
    monkeypatch.setattr(match_module, "WRITES_WAIT", 0.5)
    config = MatchConfig(variant="basic", games=2, seed=5, out=tmp_path, **FAST)
    started = time.monotonic()
    try:
        with pytest.raises(TimeoutError):
            run_match(config, [in_process_random("a"), in_process_random("b")])
        assert time.monotonic() - started < 20
    finally:
        release.set()
