"""Shared fixtures of the sandbox tests: a gRPC engine on a host Unix socket, bot folders holding
one hostile program each (from ``bots/``), and a helper that runs a bot to its end.

These tests start real bubblewrap sandboxes and real processes; they need bubblewrap installed.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from concurrent import futures
from pathlib import Path

import grpc
import pytest

from arena.sandbox import LaunchSpec, Limits, require_isolation

from .support import Engine

#: The hostile programs; ``--doctest-modules`` must not import (that is: run) them.
collect_ignore_glob = ["bots/*.py"]

BOTS = Path(__file__).parent / "bots"


@pytest.fixture(scope="session", autouse=True)
def isolation() -> None:
    """Fail loudly, naming what to install, if this machine cannot sandbox."""
    if os.geteuid() != 0:
        pytest.skip("the sandbox tests run as root: they give each bot a uid of its own")
    require_isolation()


@pytest.fixture(scope="session")
def scratch() -> Iterator[Path]:
    """A folder bot uids can traverse (pytest's tmp_path is private to root)."""
    path = Path(tempfile.mkdtemp(prefix="nimmt-sandbox-test-"))
    path.chmod(0o711)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def engine(scratch: Path) -> Iterator[Engine]:
    folder = scratch / "engine"
    folder.mkdir(mode=0o711)
    engine = Engine(folder / "engine.sock")

    def echo(request: bytes, context: grpc.ServicerContext) -> bytes:
        engine.calls.append(request)
        return b"echo " + request

    handler = grpc.method_handlers_generic_handler(
        "nimmt.test.Echo", {"Echo": grpc.unary_unary_rpc_method_handler(echo)}
    )
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    server.add_generic_rpc_handlers((handler,))
    server.add_insecure_port(f"unix://{engine.socket_path}")
    server.start()
    yield engine
    server.stop(grace=None)


MakeBot = Callable[..., LaunchSpec]


def bot_spec(
    scratch: Path,
    engine: Engine,
    label: str,
    program: str,
    *args: str,
    limits: Limits | None = None,
    **kw: object,
) -> LaunchSpec:
    """A spec running ``bots/<program>.py`` with ``args`` from a fresh folder under ``scratch``."""
    home = Path(tempfile.mkdtemp(prefix=f"{label[:40]}-", dir=scratch))
    home.chmod(0o755)
    bot_dir = home / "bot"
    bot_dir.mkdir(mode=0o755)
    shutil.copyfile(BOTS / f"{program}.py", bot_dir / "bot.py")
    (bot_dir / "bot.py").chmod(0o644)
    return LaunchSpec(
        command=["python3", "bot.py", *args],
        bot_dir=bot_dir,
        socket_path=engine.socket_path,
        log_path=home / "bot.log",
        limits=limits or Limits(),
        **kw,  # type: ignore[arg-type]
    )


@pytest.fixture
def make_bot(scratch: Path, engine: Engine, request: pytest.FixtureRequest) -> MakeBot:
    """``make_bot("cpu_loop", *args, limits=..., sandbox=...)``: a spec running bots/cpu_loop.py."""

    def make(program: str, *args: str, limits: Limits | None = None, **kw: object) -> LaunchSpec:
        return bot_spec(scratch, engine, request.node.name, program, *args, limits=limits, **kw)

    return make
