"""Shared helpers of the protocol and match-runner tests.

Hostile bot programs live in ``bots/`` beside this file (not collected by pytest: some of them
crash or connect on import). Tests that start bots in the real sandbox need bubblewrap and are
skipped only when it is absent (``.ci/run`` installs it).
"""

import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from arena.runner.manifest import load
from arena.runner.match import Entrant, MatchConfig, MatchResult, run_match
from arena.runner.results import BotReport

collect_ignore_glob = ["bots/*"]

BOTS = Path(__file__).parent / "bots"
#: Short deadlines keep the hostile tests quick.
FAST = {"decision_ms": 200, "bank_ms": 300}

needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None, reason="bubblewrap (bwrap) is not installed"
)


@pytest.fixture(autouse=True)
def own_uid_range(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sandbox uids of a range of our own, so that a uid released by one of our bots and leased
    at once by another run on the same machine is not mistaken for a process left behind."""
    monkeypatch.setenv("NIMMT_SANDBOX_UID_BASE", "64000")
    monkeypatch.setenv("NIMMT_SANDBOX_UID_COUNT", "200")


def fixture_bot(name: str) -> Entrant:
    """The hostile fixture program ``tests/protocol/bots/<name>`` as an entrant."""
    return Entrant(name, program=load(BOTS / name))


def in_process_random(name: str) -> Entrant:
    """The random house bot, in process."""
    from arena.bots.random import RandomBot

    return Entrant(name, in_process=RandomBot)


def house(name: str, in_process: bool = False, copy: int = 1) -> Entrant:
    """A house bot: its ``bots/<name>`` program (trusted), or in process."""
    from arena.bots.registry import make_bot
    from arena.runner.manifest import house_program

    label = name if copy == 1 else f"{name}#{copy}"
    if in_process:
        return Entrant(label, in_process=lambda: make_bot(name))
    return Entrant(label, program=house_program(name), trusted=True)


KILLS: dict[int, float] = {}  # bot pid -> seconds since boot when the runner killed it


@pytest.fixture(autouse=True)
def record_kills(monkeypatch: pytest.MonkeyPatch) -> None:
    """Note when each bot is killed: a process of its uid that started later belongs to
    somebody else (the uid is leased again at once, maybe by another test run)."""
    from arena.sandbox.process import BotProcess

    claim = BotProcess._claim  # where kill() and end_all() start to end a bot

    def recording_claim(self: BotProcess) -> bool:
        KILLS.setdefault(self.pid, time.clock_gettime(time.CLOCK_BOOTTIME))
        return claim(self)

    monkeypatch.setattr(BotProcess, "_claim", recording_claim)


def play(entrants: list[Entrant], tmp_path: Path, **settings: Any) -> MatchResult:
    """Run a match in the sandbox and check what must hold after any match."""
    config = MatchConfig(
        **{"variant": "basic", "games": 2, "seed": 5, **FAST, **settings}, out=tmp_path
    )
    result = run_match(config, entrants)
    assert len(result.replays) == config.games
    for bot in result.bots:
        assert_gone(bot)
    return result


def assert_gone(bot: BotReport) -> None:
    """No process of the bot is left: its pid is gone, and its sandbox uid runs nothing that
    started before the bot was killed."""
    pid = bot.program.pid if bot.program is not None else None
    if pid is None:
        return
    assert _started(pid) is None, f"{bot.name}: process {pid} is still running"
    uid = bot.program.uid if bot.program is not None else None
    if uid is not None:
        from arena.sandbox.uids import processes_of

        killed = KILLS[pid] * os.sysconf("SC_CLK_TCK")
        left = [p for p in processes_of(uid) if (_started(p) or killed + 1) <= killed]
        assert left == [], f"{bot.name}: uid {uid} still runs processes {left}"


def _started(pid: int) -> int | None:
    """When a live process started (clock ticks since boot), or None if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()
    except (OSError, IndexError):
        return None
    return None if fields[0] == "Z" else int(fields[19])


def faults_of(result: MatchResult, name: str) -> list[dict[str, Any]]:
    """Every fault recorded for the bot called ``name``, with the game index added."""
    found = []
    for game, replay in enumerate(result.replays):
        for fault in replay.result.faults:
            if replay.players[fault.seat].name == name.partition("#")[0]:
                found.append({**fault.to_json(), "game": game})
    return found


def others_clean(result: MatchResult, name: str) -> None:
    """Every other bot played every game without a fault."""
    for bot in result.bots:
        if bot.name != name:
            assert bot.faults == (), bot
            assert bot.dropped is None, bot
