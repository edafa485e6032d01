"""A dead worker comes back by itself: the demo's supervisord (``deploy/supervisord.conf``, as
``./dev demo`` starts it) starts the worker and beat again within seconds of their death, and
the new worker plays. Prints the measured time from the kill to the new worker's "ready"."""

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from ladders.models import Ladder
from matches.models import Match
from matches.tasks import queue_match
from nimmt_site_testing import REPO, basic_ladder, program_bot, wait_for
from submissions.models import Bot

pytestmark = pytest.mark.django_db(transaction=True)

CONFIG = REPO / "deploy" / "supervisord.conf"


class Supervisor:
    """``supervisord -c deploy/supervisord.conf`` in the foreground, in a folder of its own."""

    def __init__(self, env: dict[str, str], run_dir: Path) -> None:
        self.run_dir = run_dir
        self.env = {
            **env,
            "NIMMT_BIN": str(Path(sys.executable).parent),
            "NIMMT_RUN_DIR": str(run_dir),
            # beat's schedule file (in the var folder) its own: the test process's shared one
            # vanished under it once, and beat stopped on the missing file
            "NIMMT_VAR_DIR": str(run_dir / "var"),
            "NIMMT_CELERY_LOG_LEVEL": "INFO",
        }
        (run_dir / "var").mkdir(parents=True)
        self.process = subprocess.Popen(
            [self.env["NIMMT_BIN"] + "/supervisord", "-c", str(CONFIG)],
            env=self.env,
            stdout=(run_dir / "stdout").open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def ctl(self, *args: str) -> str:
        done = subprocess.run(
            [self.env["NIMMT_BIN"] + "/supervisorctl", "-c", str(CONFIG), *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        return done.stdout.strip()

    def pid(self, program: str) -> int | None:
        """The program's main process while it runs, else ``None``."""
        if "RUNNING" not in self.ctl("status", program):
            return None
        answer = self.ctl("pid", program)
        return int(answer) if answer.isdigit() and answer != "0" else None

    def log(self, program: str) -> str:
        path = self.run_dir / f"{program}.log"
        return path.read_text("utf-8", errors="replace") if path.exists() else ""

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)  # stops its programs, process groups and all
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


@pytest.fixture
def supervisor(worker_env: dict[str, str], tmp_path: Path) -> Iterator[Supervisor]:
    supervisor = Supervisor(worker_env, tmp_path / "run")
    try:
        yield supervisor
    finally:
        supervisor.stop()


def _ready(supervisor: Supervisor, times: int) -> bool:
    return supervisor.log("worker").count(" ready.") >= times


def _play_one(ladder: Ladder, bots: list[Bot]) -> Match:
    match = queue_match(ladder, bots)
    return wait_for(
        "a match to be played",
        lambda: Match.objects.filter(pk=match.pk, status=Match.FINISHED).first(),
        timeout=90,
    )


@pytest.mark.slow
def test_a_killed_worker_and_beat_come_back_by_themselves_and_play(
    supervisor: Supervisor,
) -> None:
    ladder = basic_ladder(players=4)
    Ladder.objects.filter(pk=ladder.pk).update(duplicate=False, is_active=False)
    bots = [program_bot(f"quick-{n}", "quick") for n in range(4)]
    wait_for("the worker to start", lambda: _ready(supervisor, 1), timeout=90)
    first = wait_for("the worker's pid", lambda: supervisor.pid("worker"), timeout=30)
    _play_one(ladder, bots)

    os.kill(first, signal.SIGKILL)  # the main process only; its pool children are orphaned
    killed = time.monotonic()
    second = wait_for(
        "a new worker process",
        lambda: (pid := supervisor.pid("worker")) != first and pid,
        timeout=30,
        every=0.05,
    )
    respawned = time.monotonic() - killed
    wait_for("the new worker to be ready", lambda: _ready(supervisor, 2), timeout=60)
    back = time.monotonic() - killed
    print(
        f"\nworker SIGKILLed: started again (pid {second}) {respawned:.1f} s later, ready to "
        f"play {back:.1f} s later (a cold start of the worker takes as long here)"
    )
    # supervisord starts it again at once; the bound leaves room for a loaded machine (each
    # poll of the pid is a supervisorctl process of its own: 5.3 s was seen under load)
    assert respawned < 15
    assert back < 45
    played = _play_one(ladder, bots)
    assert played.attempts == 1

    beat = wait_for("beat's pid", lambda: supervisor.pid("beat"), timeout=30)
    os.kill(beat, signal.SIGKILL)
    wait_for("a new beat", lambda: (pid := supervisor.pid("beat")) != beat and pid, timeout=30)
    wait_for(
        "beat to start again",
        lambda: supervisor.log("beat").count("beat: Starting") >= 2,
        timeout=60,
    )
