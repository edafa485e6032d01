"""Bots in other languages run in the sandbox with the default limits: the seccomp filter, the
address-space backstop and the process limit leave the JVM and V8 room (they reserve gigabytes
of address space and start a dozen threads)."""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest

from .conftest import BOTS, MakeBot
from .support import run_to_end


@pytest.mark.parametrize(
    ("program", "command", "expected"),
    [
        ("threads.js", ["node", "threads.js"], ["node up", "node worker up", "worker exit 0"]),
        ("Threads.java", ["java", "Threads.java"], ["java thread up", "java up"]),
    ],
    ids=["node", "java"],
)
def test_a_program_of_another_runtime_runs_with_the_default_limits(
    make_bot: MakeBot, program: str, command: list[str], expected: list[str]
) -> None:
    if shutil.which(command[0]) is None:
        pytest.skip(f"{command[0]} is not installed")
    spec = make_bot("sleeper")
    shutil.copyfile(BOTS / program, spec.bot_dir / program)
    (spec.bot_dir / program).chmod(0o644)

    done = run_to_end(replace(spec, command=command), timeout=60)

    assert done.status == 0, done.log
    for line in expected:
        assert line in done.log
    assert done.left_behind == []
