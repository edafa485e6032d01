"""Building a bot whose manifest has a ``build`` command: once per content, in the sandbox.

:func:`build` copies the bot's folder, runs the manifest's ``build`` in the copy inside the
sandbox (the copy writable, everything else as for a bot: no network, a read-only root with the
toolchains in ``/usr``, a private ``/tmp``; the limits of :class:`BuildLimits`) and keeps the
result under the build folder (:func:`build_root`): the built folder, whose manifest is the
bot's without ``build`` (so it runs like any bot folder, its ``command`` checked against the
built files), and the build's log, its stdout and stderr (head and tail kept). A build is
cached by a hash of the folder's content, the build command and its toolchain: the same bot is
built once. A failed build is not cached; its :class:`Build` carries the log (the compiler's
output) and a sentence saying what went wrong: the exit status, the limit it ran into, or that
it reached for the network, which a build never has (vendor the dependencies).

Compilers' caches live in the copy (``.nimmt-cache/``, removed before the result is kept), so no
build ever sees another's. The build of a Go bot of the protocol (it names Go's gRPC) starts from
a prebuilt cache (:func:`go_cache`): Go's build cache after building the Go starter against
Debian's gRPC, made once per toolchain on this machine (:func:`toolchain_root`) and copied into
each such build, which then compiles only the bot's own packages (seconds, not minutes).

:func:`ready` is what the runner calls before it starts a bot: the program as it is if it has
no build, else the built one, or :class:`BuildFailed`.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import re
import secrets
import shutil
import stat
import struct
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import arena
from arena import sandbox
from arena.sandbox import trees

from .manifest import MANIFEST, BotProgram, ManifestError, check_command, load

#: Bump when the way a build is run changes: every cached build is then made again.
#: 2: the key frames each entry (name, type, mode, size, content hash) and counts empty folders.
RECIPE_VERSION = 2
#: Lines of a failed build's log quoted in :meth:`Build.summary`.
LOG_LINES = 40
#: The folder of a build's copy that holds the compilers' caches during the build.
CACHES = ".nimmt-cache"
#: Where Go keeps its build cache during a build (GOCACHE), inside the copy.
GO_CACHE = f"{CACHES}/go-build"
MIB = 1024 * 1024
#: What each file or folder of a build's copy counts at least against ``BuildLimits.output_mb``.
ENTRY_BYTES = 4096

#: What a build that reached for the network prints: DNS lookups and connections that fail in
#: a network namespace with nothing but loopback (Go, curl, pip, npm, Maven, Gradle, git).
_NETWORK_ERRORS = re.compile(
    r"dial tcp|dial udp|lookup \S+ on \S+|no such host|Temporary failure in name resolution"
    r"|Name or service not known|Could not resolve host|getaddrinfo|EAI_AGAIN|ENOTFOUND"
    r"|Network is unreachable|network is unreachable|UnknownHostException"
    r"|Failed to establish a new connection|module lookup disabled by GOPROXY=off"
    r"|connect: connection refused",
)


@dataclass(frozen=True)
class BuildLimits:
    """What one build may use: ``seconds`` of wall-clock time (and of CPU time per process),
    ``memory_mb`` for all its processes together (its ``/tmp``, where compilers keep their
    caches, counts), ``cpus`` cores' worth of CPU time, ``processes`` (threads count) and
    ``output_mb`` for the built folder, each file at its apparent size (a file with holes
    counts at its length: packing or unpacking it writes every byte) and each entry at least
    ``ENTRY_BYTES``. The folder is checked every half second (a build going over is stopped),
    and so are its depth and entries (:data:`~arena.sandbox.trees.MAX_DEPTH` levels,
    :data:`~arena.sandbox.trees.MAX_ENTRIES` entries) and the free space of the build disk:
    a build never leaves less than ``reserve_mb`` free there (it stops as a full disk, which
    is not the bot's fault: :attr:`Build.disk_full`).

    >>> BuildLimits().seconds, BuildLimits().memory_mb, BuildLimits().cpus
    (300, 2048, 1.0)
    >>> BuildLimits(seconds=0)
    Traceback (most recent call last):
    ...
    ValueError: BuildLimits.seconds must be a positive int, got 0
    """

    seconds: int = 300
    memory_mb: int = 2048
    cpus: float = 1.0
    output_mb: int = 1024
    processes: int = 128
    reserve_mb: int = 256

    def __post_init__(self) -> None:
        for name in ("seconds", "memory_mb", "output_mb", "processes", "reserve_mb"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"BuildLimits.{name} must be a positive int, got {value!r}")
        sandbox.Limits(cpus=self.cpus)  # the same check

    def sandbox_limits(self) -> sandbox.Limits:
        """The sandbox's limits of the build's processes: a compiler runs many (each thread
        counts), opens many files and writes large ones."""
        return sandbox.Limits(
            memory_mb=self.memory_mb,
            cpu_seconds=self.seconds,
            processes=self.processes,
            open_files=4096,
            file_size_mb=self.output_mb,
            tmpfs_mb=self.memory_mb,
            cpus=self.cpus,
        )


@dataclass(frozen=True)
class Build:
    """One build's outcome. ``program`` is the built bot (``None`` if the build failed);
    ``problem`` says what went wrong (empty if nothing); ``log`` is the build's output.

    ``disk_full``: the build failed because the build disk had too little free space (before
    it, while it ran, or a write of the runner's own failed with ``ENOSPC``), not through the
    bot's fault: the same build may well pass once there is space again."""

    source: BotProgram
    program: BotProgram | None
    log: str
    problem: str = ""
    seconds: float = 0.0
    cached: bool = False
    disk_full: bool = False

    @property
    def ok(self) -> bool:
        return self.program is not None

    def summary(self) -> str:
        """One line: how the build went."""
        command = " ".join(self.source.build)
        if self.ok:
            how = "reused the earlier build" if self.cached else f"built in {self.seconds:.1f} s"
            return f"build: `{command}` {how}"
        return f"build: `{command}` failed: {self.problem}"

    def log_tail(self, lines: int = LOG_LINES) -> list[str]:
        """The last ``lines`` lines of the build's log."""
        return self.log.rstrip("\n").splitlines()[-lines:] if self.log.strip() else []


class BuildFailed(Exception):
    """A bot's build failed; ``build`` says why and holds the log."""

    def __init__(self, build: Build) -> None:
        super().__init__(f"{build.source.name}: {build.summary()}")
        self.build = build


class BuildDiskFull(BuildFailed):
    """A build failed for want of free space on the build disk (:attr:`Build.disk_full`):
    not the bot's fault."""


def build_root() -> Path:
    """Where builds are kept: ``$NIMMT_BUILD_DIR``, else ``/var/cache/nimmt/builds`` for root
    (the bots' uids must reach it, and root's home is closed to them), else
    ``$XDG_CACHE_HOME/nimmt/builds`` (``~/.cache/nimmt/builds``)."""
    override = os.environ.get("NIMMT_BUILD_DIR")
    if override:
        return Path(override)
    if os.geteuid() == 0:
        return Path("/var/cache/nimmt/builds")
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "nimmt" / "builds"


def build_key(program: BotProgram, limits: BuildLimits) -> str:
    """A hash of what the build makes its result from: the build command, the toolchain it
    names, the limits, and the folder: one framed record per entry in name order (empty
    folders too), each its length-prefixed path, its type, mode, size and the SHA-256 of its
    content (a link's target), so that no two different folders give the same bytes.
    The folder is at most :data:`~arena.sandbox.trees.MAX_DEPTH` deep (:func:`build` checks)."""
    digest = hashlib.sha256()
    tool = shutil.which(program.build[0]) if "/" not in program.build[0] else None
    toolchain: list[object] = [tool]
    if tool is not None:
        info = Path(tool).resolve().stat()
        toolchain += [str(Path(tool).resolve()), info.st_size, info.st_mtime_ns]
    digest.update(_framed(json.dumps([RECIPE_VERSION, program.build, toolchain, repr(limits)])))
    for entry in trees.walk(program.directory):
        mode = entry.info.st_mode
        if stat.S_ISLNK(mode):
            kind, content = b"L", os.readlink(entry.name, dir_fd=entry.parent_fd).encode()
            size = len(content)
            hashed = hashlib.sha256(content).digest()
        elif stat.S_ISDIR(mode):
            kind, size, hashed = b"D", 0, b""
        elif stat.S_ISREG(mode):
            kind, size, hashed = b"F", entry.info.st_size, _file_hash(entry)
        else:
            continue  # refused before a build (_check_source)
        digest.update(_framed(entry.path))
        digest.update(kind + struct.pack(">IQ", stat.S_IMODE(mode) & 0o111, size))
        digest.update(_framed(hashed))
    return digest.hexdigest()


def _framed(data: str | bytes) -> bytes:
    raw = data.encode() if isinstance(data, str) else data
    return struct.pack(">Q", len(raw)) + raw


def _file_hash(entry: trees.Entry) -> bytes:
    file_hash = hashlib.sha256()
    fd = os.open(entry.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=entry.parent_fd)
    with os.fdopen(fd, "rb") as file:
        for chunk in iter(lambda: file.read(MIB), b""):
            file_hash.update(chunk)
    return file_hash.digest()


def _check_source(program: BotProgram) -> str:
    """What makes the bot's folder unfit to build from, or ``""``."""
    found = trees.survey(program.directory)
    found.set_id.clear()  # the folder's own: made plain in the build's copy
    limits = {"max_depth": trees.MAX_DEPTH, "max_entries": trees.MAX_ENTRIES}
    problem = found.problem(**limits, most_bytes=1 << 62)
    return f"the bot's folder cannot be built: {problem}" if problem else ""


def ready(
    program: BotProgram,
    *,
    root: Path | None = None,
    limits: BuildLimits | None = None,
    sandboxed: bool = True,
) -> BotProgram:
    """``program`` ready to run: as it is without a build, else built (:func:`build`);
    :class:`BuildFailed` if the build fails."""
    if not program.build:
        return program
    done = build(program, root=root, limits=limits, sandboxed=sandboxed)
    if done.program is None:
        raise BuildDiskFull(done) if done.disk_full else BuildFailed(done)
    return done.program


def build(
    program: BotProgram,
    *,
    root: Path | None = None,
    limits: BuildLimits | None = None,
    sandboxed: bool = True,
) -> Build:
    """Build ``program`` (its manifest has a ``build``), or find its earlier build.

    The build runs in the sandbox unless ``sandboxed`` is off (``--unsafe-no-sandbox``, for
    code one trusts); :class:`arena.sandbox.SandboxUnavailable` if the machine cannot isolate
    it. Builds go under ``root`` (default :func:`build_root`), one folder per :func:`build_key`
    holding ``bot/`` (the built folder) and ``build.log``.
    """
    if not program.build:
        raise ValueError(f"{program.name}: the manifest has no build")
    limits = limits or BuildLimits()
    root = root or build_root()
    problem = _check_source(program)
    if problem:
        return Build(program, None, "", problem=problem)
    try:
        _public_dirs(root)
        key = build_key(program, limits)[:32]
    except OSError as error:
        if error.errno == errno.ENOSPC:
            return _disk_full(program, root, limits, "")
        raise
    final = root / key
    with _locked(root / f".{key}.lock"):
        cached = _cached(program, final)
        if cached is not None:
            return cached
        for stale in root.glob(f".{key}.building*"):  # left by a process that was killed
            trees.remove(stale)
        # A name nobody can guess: the build root is not listable (0711), so no other local
        # user reaches what a build is making while it is the bot's uid's.
        work = root / f".{key}.building-{secrets.token_hex(8)}"
        try:
            work.mkdir()
            work.chmod(0o711)
            seed = go_cache(sandboxed=sandboxed) if _uses_go_grpc(program.directory) else None
            done = _run(program, work, limits, sandboxed, seed=seed)
            if done.program is None:
                return done
            trees.remove(final)
            work.rename(final)
            return replace(done, program=replace(done.program, directory=final / "bot"))
        except OSError as error:
            if error.errno == errno.ENOSPC:
                return _disk_full(program, root, limits, "")
            raise
        finally:
            trees.remove(work)


def free_bytes(folder: Path) -> int:
    """Bytes free for an unprivileged writer on the file system of ``folder``."""
    info = os.statvfs(folder)
    return info.f_bavail * info.f_frsize


def _disk_full(program: BotProgram, root: Path, limits: BuildLimits, log: str) -> Build:
    try:
        free = f"{free_bytes(root) // MIB} MB free"
    except OSError:
        free = "its free space unknown"
    problem = (
        f"the build disk is full: not enough free space ({free} on {root}, "
        f"{limits.reserve_mb} MB kept in reserve); it will be tried again when there is space"
    )
    return Build(program, None, log, problem=problem, disk_full=True)


def _cached(program: BotProgram, folder: Path) -> Build | None:
    try:
        record = json.loads((folder / "build.json").read_text(encoding="utf-8"))
        log = (folder / "build.log").read_text(encoding="utf-8", errors="replace")
    except (OSError, ValueError):
        return None
    built = replace(program, directory=folder / "bot", build=())
    return Build(program, built, log, seconds=float(record.get("seconds", 0.0)), cached=True)


def toolchain_root() -> Path:
    """Where the prebuilt caches of the toolchains are kept: ``$NIMMT_TOOLCHAIN_DIR``, else
    ``toolchains`` beside the default build folder. One place per machine, whatever folder a
    build goes to: they hold only what the arena built from its own starter."""
    return Path(os.environ.get("NIMMT_TOOLCHAIN_DIR") or build_root().parent / "toolchains")


def _uses_go_grpc(folder: Path, most: int = 500) -> bool:
    """Whether the folder is a Go program of the protocol (its go.mod or a .go file names
    Go's gRPC): such a build starts from :func:`go_cache`."""
    seen = 0
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d not in ("vendor", CACHES, ".git")]
        for name in files:
            if name == "go.mod" or name.endswith(".go"):
                seen += 1
                with contextlib.suppress(OSError):
                    if b"google.golang.org/grpc" in Path(root, name).read_bytes()[:65536]:
                        return True
            if seen >= most:
                return False
    return False


def go_cache(root: Path | None = None, sandboxed: bool = True) -> Path | None:
    """Go's build cache of Debian's Go packages that the Go starter uses (gRPC, protobuf),
    made once per toolchain under ``root`` (default :func:`toolchain_root`) by building
    ``bots/starter-go`` in the sandbox; ``None`` if Go or the starter is missing, or that
    build failed."""
    root = root or toolchain_root()
    starter = Path(arena.__file__).resolve().parent.parent / "bots" / "starter-go"
    go = shutil.which("go")
    if go is None or not (starter / MANIFEST).is_file():
        return None
    try:
        program = load(starter)
    except ManifestError:
        return None
    digest = hashlib.sha256(build_key(program, BuildLimits()).encode())
    for path in (Path(go).resolve(), Path("/usr/share/gocode/src")):
        with contextlib.suppress(OSError):
            info = path.stat()
            digest.update(f"{path}\0{info.st_size}\0{info.st_mtime_ns}\0".encode())
    target = root / f"go-{digest.hexdigest()[:16]}"
    if (target / "go-build").is_dir():
        return target / "go-build"
    _public_dirs(target.parent)
    with _locked(target.parent / f".{target.name}.lock"):
        if (target / "go-build").is_dir():
            return target / "go-build"
        for stale in target.parent.glob(f".{target.name}.building*"):
            trees.remove(stale)
        work = target.parent / f".{target.name}.building-{secrets.token_hex(8)}"
        try:
            work.mkdir()
            work.chmod(0o711)
            limits = BuildLimits(seconds=600, cpus=2.0, processes=512)  # the arena's own code
            done = _run(program, work, limits, sandboxed, harvest=True)
            if done.program is None:
                return None
            target.mkdir(exist_ok=True)
            (work / "go-build").rename(target / "go-build")
        except OSError:
            return None
        finally:
            trees.remove(work)
    return target / "go-build"


def _run(
    program: BotProgram,
    work: Path,
    limits: BuildLimits,
    sandboxed: bool,
    *,
    seed: Path | None = None,
    harvest: bool = False,
) -> Build:
    """Copy the folder into ``work/bot``, build it there, and judge the outcome. ``seed`` is a
    Go build cache to start from (a copy of it); ``harvest`` keeps the build's own Go cache as
    ``work/go-build``."""
    folder = work / "bot"
    try:
        free = free_bytes(work)
    except OSError:
        free = None
    reserve = limits.reserve_mb * MIB
    if free is not None and free < reserve:
        return _disk_full(program, work.parent, limits, "")
    shutil.copytree(program.directory, folder, symlinks=True)
    trees.remove(folder / CACHES)  # the bot's own is not ours
    _writable(folder)
    if seed is not None:
        shutil.copytree(seed, folder / GO_CACHE, symlinks=True)
    log_path = work / "build.log"
    inside = Path(sandbox.SANDBOX_BOT_DIR) if sandboxed else folder
    spec = sandbox.LaunchSpec(
        command=list(program.build),
        bot_dir=folder,
        socket_path=None,
        log_path=log_path,
        env={"GOCACHE": str(inside / GO_CACHE)},
        limits=limits.sandbox_limits(),
        sandbox=sandboxed,
        writable=True,
    )
    most = limits.output_mb * MIB
    started = time.monotonic()
    process = sandbox.launch(spec)
    stopped = ""
    disk_full = False
    try:
        while (status := process.wait(0.5)) is None:
            if time.monotonic() - started > limits.seconds:
                stopped = f"it ran out of time: stopped after {limits.seconds} s"
                break
            found = _survey(folder, most)
            if found.stopped:
                stopped = f"its folder {_problem(found, most)}: stopped"
                break
            if _low_on_space(work, reserve):
                disk_full = True
                break
    finally:
        disk_full = disk_full or _low_on_space(work, reserve)  # its files are still there
        process.kill()
    seconds = time.monotonic() - started
    log = process.log_text()
    failed = Build(program, None, log, seconds=seconds)
    if disk_full:
        return replace(_disk_full(program, work.parent, limits, log), seconds=seconds)
    if stopped:
        return replace(failed, problem=stopped)
    taken = process.taken_back
    if spec.sandbox and process.uid is not None and taken is None:
        return replace(failed, problem="its processes could not all be ended")
    if taken is not None and taken.cut:
        return replace(failed, problem=f"its folder is deeper than {trees.MAX_DEPTH} levels")
    if taken is not None and taken.special:
        return replace(
            failed, problem=f"its folder {_problem(trees.Survey(special=taken.special), most)}"
        )
    if taken is not None and taken.set_id:
        return replace(
            failed, problem=f"its folder {_problem(trees.Survey(set_id=taken.set_id), most)}"
        )
    limit = process.limit_exceeded
    if limit == "memory_mb":
        return replace(failed, problem=f"it ran out of memory (the limit is {limits.memory_mb} MB)")
    if limit == "cpu_seconds":
        return replace(
            failed, problem=f"it ran out of CPU time (the limit is {limits.seconds} s per process)"
        )
    if limit == "file_size_mb":
        return replace(failed, problem=f"it wrote a file larger than {limits.output_mb} MB")
    found = _survey(folder, most)
    problem = _problem(found, most)
    if problem:
        return replace(failed, problem=f"its folder {problem}")
    if status != 0:
        problem = f"it exited with status {status}"
        if _NETWORK_ERRORS.search(log):
            problem += (
                "; it tried to reach the network, and the build has no network: vendor your "
                "dependencies (put them in the bot's folder)"
            )
        return replace(failed, problem=problem)
    if harvest and (folder / GO_CACHE).is_dir():
        (folder / GO_CACHE).rename(work / "go-build")
    trees.remove(folder / CACHES)
    built = replace(program, directory=folder, build=())
    try:
        _write_manifest(built)
        check_command(built)
    except ManifestError as error:
        return replace(failed, problem=f"after the build, {error.problem}")
    except OSError as error:
        if error.errno == errno.ENOSPC:
            raise
        return replace(failed, problem=f"the built folder cannot be used: {error.strerror}")
    record = {"name": program.name, "build": list(program.build), "seconds": round(seconds, 3)}
    (work / "build.json").write_text(json.dumps(record) + "\n", encoding="utf-8")
    return Build(program, built, log, seconds=seconds)


def _survey(folder: Path, most: int) -> trees.Survey:
    """The build's folder measured (one the build made unreadable says so)."""
    try:
        return trees.survey(folder, most_bytes=most, entry_bytes=ENTRY_BYTES)
    except OSError:
        return trees.Survey(unreadable=True, stopped=True)


def _problem(found: trees.Survey, most: int) -> str:
    limits = {"max_depth": trees.MAX_DEPTH, "max_entries": trees.MAX_ENTRIES}
    problem = found.problem(**limits, most_bytes=most)
    if problem.startswith("it is larger"):  # the sentence the build's authors know
        return f"grew beyond {most // MIB} MB"
    return problem.removeprefix("it ")  # "its folder" goes before it


def _low_on_space(folder: Path, reserve: int) -> bool:
    try:
        return free_bytes(folder) < reserve
    except OSError:
        return False


def _writable(folder: Path) -> None:
    """Let the build write to its copy (a kept upload's files may be read-only)."""
    os.chmod(folder, stat.S_IMODE(os.lstat(folder).st_mode) | 0o700)
    for entry in trees.walk(folder):
        if entry.is_dir:
            os.chmod(entry.name, stat.S_IMODE(entry.info.st_mode) | 0o700, dir_fd=entry.parent_fd)
        elif stat.S_ISREG(entry.info.st_mode):
            os.chmod(entry.name, stat.S_IMODE(entry.info.st_mode) | 0o600, dir_fd=entry.parent_fd)


def _write_manifest(built: BotProgram) -> None:
    """The built folder's manifest: the bot's own, without its build (JSON strings are TOML's
    basic strings). Whatever the build left under that name is replaced."""
    lines = [f"name = {json.dumps(built.name)}", f"command = {json.dumps(list(built.command))}"]
    if built.language:
        lines.append(f"language = {json.dumps(built.language)}")
    if built.description:
        lines.append(f"description = {json.dumps(built.description)}")
    path = built.directory / MANIFEST
    if path.is_dir() and not path.is_symlink():
        trees.remove(path)
    else:
        path.unlink(missing_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    path.chmod(0o644)


def _public_dirs(path: Path) -> None:
    """``path`` and its missing parents, searchable by the bots' uids (0711: not listable)."""
    missing = [p for p in (path, *path.parents) if not p.exists()]
    for folder in reversed(missing):
        folder.mkdir(exist_ok=True)
        folder.chmod(0o711)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock: one build of one bot at a time, across processes."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


__all__ = [
    "Build",
    "BuildDiskFull",
    "BuildFailed",
    "BuildLimits",
    "build",
    "build_key",
    "build_root",
    "ready",
]
