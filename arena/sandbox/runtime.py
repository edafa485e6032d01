"""The bot runtime: a venv of the system Python with grpcio, protobuf and this project installed
(non-editable), readable by every uid and mounted read-only at ``/opt/nimmt/runtime`` in each
sandbox, its ``bin`` first on PATH so that ``python3 bot.py`` uses it.

The runner's own Python may live where bots cannot read it (pyenv under /root), so the runtime
is built from ``/usr/bin/python3`` (``NIMMT_RUNTIME_PYTHON``) in ``/opt/nimmt/runtime-<key>``
(or ``NIMMT_RUNTIME_DIR``) by the runner's own pip. The key hashes the project's source files
and the versions of Python, grpcio and protobuf (pinned to the runner's, so both ends speak the
same protocol); a runtime whose stamp holds another key is stale and rebuilt beside the old one,
under a lock, then swapped in.

The runtime also carries the JavaScript bot kit's npm packages (``@grpc/grpc-js``,
``@grpc/proto-loader``, ``protobufjs``) as ``node_modules``, copied from
``bots/starter-javascript/node_modules`` where ``./dev`` installs them with ``npm ci`` (no
network is needed to build a runtime); the kit finds them at ``/opt/nimmt/runtime/node_modules``.
Without them the runtime is built all the same and a JavaScript bot says what is missing.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import arena

from .spec import SandboxUnavailable

#: Default parent of the runtimes.
RUNTIME_ROOT = Path("/opt/nimmt")
#: The file in a runtime that names the key it was built for.
STAMP_NAME = "nimmt-runtime.json"
#: Bump to force a rebuild when the recipe below changes.
RECIPE_VERSION = 2
#: After a build, other runtimes that no bot holds and nobody asked for this long are removed.
PRUNE_AFTER_SECONDS = 600
#: Distributions pinned to the runner's versions.
PINNED = ("grpcio", "protobuf")
#: The folder whose ``package-lock.json`` and ``node_modules`` give the JavaScript kit's packages.
NODE_KIT = Path("bots") / "starter-javascript"

_ready: dict[str | None, Path] = {}
_ready_lock = threading.Lock()


def system_python() -> Path:
    """The interpreter the runtime is built from."""
    return Path(os.environ.get("NIMMT_RUNTIME_PYTHON", "/usr/bin/python3"))


def project_dir() -> Path | None:
    """The source tree of this project (holding ``pyproject.toml``), if it is on disk."""
    root = Path(arena.__file__).resolve().parent.parent
    return root if (root / "pyproject.toml").is_file() else None


def _requirements() -> list[str]:
    pins = []
    for name in PINNED:
        try:
            pins.append(f"{name}=={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            pins.append(name)
    return pins


def _source_files(project: Path) -> Iterator[Path]:
    """The files that make up the installed project."""
    for name in ("pyproject.toml", "README.md", "setup.cfg", "setup.py"):
        if (project / name).is_file():
            yield project / name
    for folder, dirs, files in os.walk(project / "arena"):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            # compiled modules in the tree are build output (the runtime compiles its own)
            if not name.endswith((".pyc", ".pyo", ".so")):
                yield Path(folder, name)


def node_modules(project: Path) -> Path | None:
    """The JavaScript kit's installed npm packages, if ``./dev`` installed them."""
    folder = project / NODE_KIT / "node_modules"
    return folder if (folder / "@grpc" / "grpc-js" / "package.json").is_file() else None


def runtime_key(project: Path) -> str:
    """A hash of everything the runtime is built from."""
    digest = hashlib.sha256()
    python = system_python()
    stat = python.resolve().stat()
    recipe = [RECIPE_VERSION, str(python.resolve()), stat.st_size, stat.st_mtime_ns]
    digest.update(json.dumps([*recipe, _requirements()]).encode())
    for path in _source_files(project):
        digest.update(str(path.relative_to(project)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    lock = project / NODE_KIT / "package-lock.json"
    if node_modules(project) is not None and lock.is_file():
        digest.update(b"node_modules\0" + lock.read_bytes())
    return digest.hexdigest()


def _stamp(runtime: Path) -> dict[str, object] | None:
    try:
        stamp = json.loads((runtime / STAMP_NAME).read_text())
    except (OSError, ValueError):
        return None
    return stamp if isinstance(stamp, dict) else None


def ensure_runtime() -> Path:
    """The path of an up-to-date bot runtime, built first if missing or stale.

    The first call in a process may take ~10 s (a build); later calls return the same path.
    Raises :class:`SandboxUnavailable` if the runtime cannot be built.
    """
    override = os.environ.get("NIMMT_RUNTIME_DIR") or None
    with _ready_lock:
        if override not in _ready or _stamp(_ready[override]) is None:  # None: pruned
            _ready[override] = _ensure(Path(override) if override else None)
        runtime = _ready[override]
    with contextlib.suppress(OSError):
        os.utime(runtime / STAMP_NAME)  # asked for: see _prune
    return runtime


class RuntimeInUse:
    """A runtime held for a running bot (a shared lock): pruning leaves it alone."""

    def __init__(self, path: Path, lock_fd: int) -> None:
        self.path = path
        self._lock_fd: int | None = lock_fd

    def release(self) -> None:
        """Let go of the runtime (idempotent)."""
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None


def use_runtime() -> RuntimeInUse:
    """:func:`ensure_runtime`, held until :meth:`RuntimeInUse.release`."""
    for _ in range(3):
        path = ensure_runtime()
        fd = os.open(_use_lock(path), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        fcntl.flock(fd, fcntl.LOCK_SH)
        if _stamp(path) is not None:
            return RuntimeInUse(path, fd)
        os.close(fd)  # pruned between the two steps: build it again
    raise SandboxUnavailable(f"the bot runtime {path} keeps disappearing")


def _use_lock(runtime: Path) -> Path:
    """Shared by the runners using ``runtime``, exclusive while it is pruned."""
    return runtime.with_name(f".{runtime.name}.lock")


def _build_lock(runtime: Path) -> Path:
    return runtime.with_name(f".{runtime.name}.build")


def _ensure(override: Path | None) -> Path:
    project = project_dir()
    if project is None:
        if override is not None and _stamp(override) is not None:
            return override  # a prebuilt runtime for an installed (not source) arena
        raise SandboxUnavailable(
            "cannot build the bot runtime: the project source is not on disk next to the "
            "arena package; set NIMMT_RUNTIME_DIR to a prebuilt runtime"
        )
    key = runtime_key(project)
    target = override or RUNTIME_ROOT / f"runtime-{key[:16]}"
    if not _is_current(target, key):
        _make_public_dirs(target.parent)
        with _locked(_build_lock(target)):
            if not _is_current(target, key):
                _build(project, key, target)
                if override is None:
                    _prune(target)
    return target


def _is_current(runtime: Path, key: str) -> bool:
    stamp = _stamp(runtime)
    return stamp is not None and stamp.get("key") == key


def _make_public_dirs(path: Path) -> None:
    missing = [p for p in (path, *path.parents) if not p.exists()]
    for folder in reversed(missing):
        folder.mkdir(exist_ok=True)
        folder.chmod(0o755)


@contextlib.contextmanager
def _locked(path: Path, *, wait: bool = True) -> Iterator[bool]:
    """An exclusive lock on ``path``; yields False if ``wait`` is off and it is taken."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
        else:
            yield True
    finally:
        os.close(fd)


def _run(args: list[str], what: str, *, as_nobody: bool = False) -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")
    }
    nobody = as_nobody and os.geteuid() == 0
    done = subprocess.run(
        args,
        capture_output=True,
        text=True,
        env=env,
        check=False,
        cwd="/",
        user=65534 if nobody else None,
        group=65534 if nobody else None,
        extra_groups=[] if nobody else None,
    )
    if done.returncode != 0:
        output = (done.stdout + done.stderr).strip()[-3000:]
        raise SandboxUnavailable(f"building the bot runtime failed while {what}:\n{output}")


def _build(project: Path, key: str, target: Path) -> None:
    """Build the runtime beside ``target``, check it as an unprivileged user, swap it in."""
    building = target.with_name(f".{target.name}.building")
    shutil.rmtree(building, ignore_errors=True)
    python = system_python()
    if not python.exists():
        raise SandboxUnavailable(f"{python} is missing: install python3 and python3-venv")
    _run([str(python), "-m", "venv", "--without-pip", str(building)], "creating the venv")
    with tempfile.TemporaryDirectory(prefix="nimmt-runtime-src-") as scratch:
        source = Path(scratch, "project")  # a copy, so no build/ or egg-info in the tree
        for path in _source_files(project):
            copy = source / path.relative_to(project)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, copy)
        # The runner's pip installs into the runtime (pip >= 22.3): no pip inside it.
        pip = [sys.executable, "-m", "pip", "--python", str(building / "bin" / "python")]
        pip += ["install", "--quiet", "--disable-pip-version-check", "--no-warn-script-location"]
        _run([*pip, *_requirements(), str(source)], "installing grpcio, protobuf and arena")
    packages = node_modules(project)
    if packages is not None:
        shutil.copytree(packages, building / "node_modules", symlinks=True)
    for folder, _dirs, files in os.walk(building):
        os.chmod(folder, 0o755)
        for name in files:
            file = os.path.join(folder, name)
            if not os.path.islink(file):
                mode = os.stat(file).st_mode
                os.chmod(file, mode | 0o444 | (0o111 if mode & 0o100 else 0))
    check = "import grpc, google.protobuf, arena"
    _run([str(building / "bin" / "python"), "-c", check], "checking it as nobody", as_nobody=True)
    stamp = {"key": key, "python": str(python), "requirements": _requirements()}
    (building / STAMP_NAME).write_text(json.dumps(stamp, indent=1) + "\n")
    (building / STAMP_NAME).chmod(0o644)
    old = target.with_name(f".{target.name}.old-{os.getpid()}")
    if target.exists():
        target.rename(old)
    building.rename(target)
    shutil.rmtree(old, ignore_errors=True)


def _prune(current: Path) -> None:
    """Remove the other runtimes that no bot holds and nobody asked for lately."""
    cutoff = time.time() - PRUNE_AFTER_SECONDS
    for other in current.parent.glob("runtime-*"):
        try:
            recent = other == current or (other / STAMP_NAME).stat().st_mtime > cutoff
        except OSError:
            recent = False
        if recent:
            continue
        with _locked(_use_lock(other), wait=False) as unused:
            if unused:
                shutil.rmtree(other, ignore_errors=True)
                _use_lock(other).unlink(missing_ok=True)
                _build_lock(other).unlink(missing_ok=True)
