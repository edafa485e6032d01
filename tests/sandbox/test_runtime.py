"""The bot runtime: built from the system Python, readable by every uid, rebuilt when stale,
and old ones removed unless a bot still holds them."""

from __future__ import annotations

import fcntl
import json
import os
import stat
import subprocess
import time
from importlib import metadata
from pathlib import Path

import pytest

from arena.sandbox import runtime as runtime_module
from arena.sandbox.runtime import STAMP_NAME, ensure_runtime, runtime_key, use_runtime


def test_it_builds_a_runtime_every_uid_can_read() -> None:
    path = ensure_runtime()

    assert path.is_relative_to("/opt/nimmt") or "NIMMT_RUNTIME_DIR" in os.environ
    assert "home = /usr/bin" in (path / "pyvenv.cfg").read_text()
    for folder, _dirs, files in os.walk(path):
        assert os.stat(folder).st_mode & 0o005 == 0o005, folder
        for name in files:
            mode = os.lstat(os.path.join(folder, name)).st_mode
            assert stat.S_ISLNK(mode) or mode & 0o004, os.path.join(folder, name)


def test_it_pins_grpc_and_protobuf_to_the_runners_versions() -> None:
    stamp = json.loads((ensure_runtime() / STAMP_NAME).read_text())

    assert f"grpcio=={metadata.version('grpcio')}" in stamp["requirements"]
    assert f"protobuf=={metadata.version('protobuf')}" in stamp["requirements"]


def test_it_installs_arena_as_a_copy_not_a_link() -> None:
    python = ensure_runtime() / "bin" / "python"
    code = "import arena, grpc, google.protobuf; print(arena.__file__)"

    where = subprocess.run(
        [python, "-c", code], capture_output=True, text=True, check=True, cwd="/"
    )

    assert where.stdout.startswith(str(ensure_runtime()))


def _project(root: Path, body: str) -> Path:
    (root / "arena").mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (root / "arena" / "__init__.py").write_text(body)
    return root


def test_it_sees_a_runtime_is_stale_when_the_source_changes(tmp_path: Path) -> None:
    project = _project(tmp_path, "A = 1\n")
    before = runtime_key(project)
    (project / "arena" / "__pycache__").mkdir()
    (project / "arena" / "__pycache__" / "x.pyc").write_bytes(b"ignored")
    assert runtime_key(project) == before

    _project(tmp_path, "A = 2\n")

    assert runtime_key(project) != before


def _fake_runtime(root: Path, name: str, age_seconds: float) -> Path:
    path = root / name
    (path / "bin").mkdir(parents=True)
    (path / STAMP_NAME).write_text("{}")
    then = time.time() - age_seconds
    os.utime(path / STAMP_NAME, (then, then))
    return path


def test_it_prunes_old_runtimes_but_not_one_a_bot_holds(tmp_path: Path) -> None:
    current = _fake_runtime(tmp_path, "runtime-current", 0)
    old = _fake_runtime(tmp_path, "runtime-old", 3600)
    held = _fake_runtime(tmp_path, "runtime-held", 3600)
    recent = _fake_runtime(tmp_path, "runtime-recent", 10)
    fd = os.open(tmp_path / ".runtime-held.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_SH)
    try:
        runtime_module._prune(current)
    finally:
        os.close(fd)

    assert not old.exists()
    assert current.exists() and held.exists() and recent.exists()


def test_it_holds_the_runtime_while_in_use() -> None:
    in_use = use_runtime()
    try:
        lock = os.open(in_use.path.with_name(f".{in_use.path.name}.lock"), os.O_RDWR)
        with pytest.raises(BlockingIOError):
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.close(lock)
    finally:
        in_use.release()
        in_use.release()
