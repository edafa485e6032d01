"""The seccomp filter: inside the real sandbox, the system calls no bot needs fail with EPERM,
other architectures' calls kill the bot, and everything a bot does keeps working."""

from __future__ import annotations

import json
import platform
import signal
from pathlib import Path

import pytest

from arena.sandbox import layers, seccomp

from .conftest import MakeBot, bot_spec
from .support import Engine, Finished, run_to_end

pytestmark = pytest.mark.skipif(not seccomp.available(), reason="libseccomp is not installed")

CLONE_CALLS = [f"clone_{flag}" for flag in seccomp.CLONE_NAMESPACE_FLAGS]
#: Calls that do something real without the filter (see bots/syscalls.py for the arguments).
WORK_UNFILTERED = ["io_uring_setup", "add_key", "keyctl", "process_vm_readv", "personality"]


def _denied_here() -> list[str]:
    return [name for name in seccomp.DENIED if seccomp.syscall_number(name) is not None]


def _words(names: list[str]) -> list[str]:
    words = []
    for name in names:
        real = "clone" if name.startswith("clone_") else name.removesuffix("_query")
        number = seccomp.syscall_number(real)
        assert number is not None, real
        words.append(f"{name}={number}")
    return words


def _report(done: Finished) -> dict[str, str]:
    assert done.status == 0, done.log
    report: dict[str, str] = json.loads(done.log.splitlines()[-1])
    return report


@pytest.fixture(scope="module")
def tried(scratch: Path, engine: Engine) -> dict[str, str]:
    """What every denied call (and a few allowed ones) gave inside one real sandbox."""
    names = [*_denied_here(), *CLONE_CALLS, "clone3", "personality", "personality_query"]
    spec = bot_spec(scratch, engine, "seccomp", "syscalls", *_words(names), "threads")
    return _report(run_to_end(spec))


def test_the_sandbox_reports_the_seccomp_layer() -> None:
    assert layers()["seccomp"] is True


@pytest.mark.parametrize("name", _denied_here())
def test_a_bot_calling_a_denied_system_call_gets_eperm(tried: dict[str, str], name: str) -> None:
    assert tried[name] == "EPERM"


@pytest.mark.parametrize("name", CLONE_CALLS)
def test_a_bot_cloning_into_a_new_namespace_gets_eperm(tried: dict[str, str], name: str) -> None:
    assert tried[name] == "EPERM"


def test_clone3_is_unavailable_so_threads_fall_back_to_clone(tried: dict[str, str]) -> None:
    assert tried["clone3"] == "ENOSYS"
    assert tried["threads"] == "ok"


def test_a_bot_may_query_its_personality_but_not_change_it(tried: dict[str, str]) -> None:
    assert tried["personality_query"] == "ok"
    assert tried["personality"] == "EPERM"


def test_without_the_filter_the_denied_calls_would_work(
    make_bot: MakeBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: the same calls in the same sandbox minus the filter do real work, so the
    EPERMs above are the filter's doing."""
    monkeypatch.setattr(seccomp, "bot_filter", lambda: None)

    unfiltered = _report(run_to_end(make_bot("syscalls", *_words(WORK_UNFILTERED))))

    assert unfiltered == dict.fromkeys(WORK_UNFILTERED, "ok")


@pytest.mark.skipif(platform.machine() != "x86_64", reason="x86_64's compat entry points")
@pytest.mark.parametrize("abi", ["ia32", "x32"])
def test_a_bot_making_a_system_call_of_another_abi_is_killed(make_bot: MakeBot, abi: str) -> None:
    done = run_to_end(make_bot("syscalls", abi))

    assert done.status == 128 + signal.SIGSYS, done.log
    assert done.left_behind == []
