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
import fcntl
import hashlib
import json
import os
import re
import shutil
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import arena
from arena import sandbox

from .manifest import MANIFEST, BotProgram, ManifestError, check_command, load

#: Bump when the way a build is run changes: every cached build is then made again.
RECIPE_VERSION = 1
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
    caches, counts), ``cpus`` cores' worth of CPU time, and ``output_mb`` for the built folder
    on disk (checked every half second; a build going over it is stopped).

    >>> BuildLimits().seconds, BuildLimits().memory_mb
    (300, 2048)
    >>> BuildLimits(seconds=0)
    Traceback (most recent call last):
    ...
    ValueError: BuildLimits.seconds must be a positive int, got 0
    """

    seconds: int = 300
    memory_mb: int = 2048
    cpus: float = 2.0
    output_mb: int = 1024

    def __post_init__(self) -> None:
        for name in ("seconds", "memory_mb", "output_mb"):
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
            processes=512,
            open_files=4096,
            file_size_mb=self.output_mb,
            tmpfs_mb=self.memory_mb,
            cpus=self.cpus,
        )


@dataclass(frozen=True)
class Build:
    """One build's outcome. ``program`` is the built bot (``None`` if the build failed);
    ``problem`` says what went wrong (empty if nothing); ``log`` is the build's output."""

    source: BotProgram
    program: BotProgram | None
    log: str
    problem: str = ""
    seconds: float = 0.0
    cached: bool = False

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
    """A hash of what the build makes its result from: the folder's files (names, contents,
    executable bits, link targets), the build command and the toolchain it names."""
    digest = hashlib.sha256()
    tool = shutil.which(program.build[0]) if "/" not in program.build[0] else None
    toolchain: list[object] = [tool]
    if tool is not None:
        info = Path(tool).resolve().stat()
        toolchain += [str(Path(tool).resolve()), info.st_size, info.st_mtime_ns]
    digest.update(json.dumps([RECIPE_VERSION, program.build, toolchain, repr(limits)]).encode())
    root = program.directory
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files) + [d for d in dirs if os.path.islink(os.path.join(folder, d))]:
            path = Path(folder, name)
            relative = path.relative_to(root).as_posix()
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                digest.update(f"L{relative}\0{os.readlink(path)}\0".encode())
            elif stat.S_ISREG(info.st_mode):
                digest.update(f"F{relative}\0{info.st_mode & 0o111:o}\0".encode())
                with path.open("rb") as file:
                    for chunk in iter(lambda: file.read(MIB), b""):
                        digest.update(chunk)
                digest.update(b"\0")
    return digest.hexdigest()


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
        raise BuildFailed(done)
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
    _public_dirs(root)
    key = build_key(program, limits)[:32]
    final = root / key
    with _locked(root / f".{key}.lock"):
        cached = _cached(program, final)
        if cached is not None:
            return cached
        work = root / f".{key}.building"
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir()
        work.chmod(0o711)
        try:
            seed = go_cache(sandboxed=sandboxed) if _uses_go_grpc(program.directory) else None
            done = _run(program, work, limits, sandboxed, seed=seed)
            if done.program is None:
                return done
            shutil.rmtree(final, ignore_errors=True)
            work.rename(final)
            return replace(done, program=replace(done.program, directory=final / "bot"))
        finally:
            shutil.rmtree(work, ignore_errors=True)


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
        work = target.parent / f".{target.name}.building"
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir()
        work.chmod(0o711)
        try:
            done = _run(program, work, BuildLimits(seconds=600), sandboxed, harvest=True)
            if done.program is None:
                return None
            target.mkdir(exist_ok=True)
            (work / "go-build").rename(target / "go-build")
        finally:
            shutil.rmtree(work, ignore_errors=True)
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
    shutil.copytree(program.directory, folder, symlinks=True)
    shutil.rmtree(folder / CACHES, ignore_errors=True)  # the bot's own is not ours
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
    started = time.monotonic()
    process = sandbox.launch(spec)
    stopped = ""
    try:
        while (status := process.wait(0.5)) is None:
            if time.monotonic() - started > limits.seconds:
                stopped = f"it ran out of time: stopped after {limits.seconds} s"
                break
            if _size(folder, limits.output_mb * MIB) > limits.output_mb * MIB:
                stopped = f"its folder grew beyond {limits.output_mb} MB: stopped"
                break
    finally:
        process.kill()
    seconds = time.monotonic() - started
    log = process.log_text()
    limit = process.limit_exceeded
    if not stopped and limit == "memory_mb":
        stopped = f"it ran out of memory (the limit is {limits.memory_mb} MB)"
    elif not stopped and limit == "cpu_seconds":
        stopped = f"it ran out of CPU time (the limit is {limits.seconds} s per process)"
    elif not stopped and limit == "file_size_mb":
        stopped = f"it wrote a file larger than {limits.output_mb} MB"
    failed = Build(program, None, log, seconds=seconds)
    if stopped:
        return replace(failed, problem=stopped)
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
    shutil.rmtree(folder / CACHES, ignore_errors=True)
    built = replace(program, directory=folder, build=())
    try:
        _write_manifest(built)
        check_command(built)
    except ManifestError as error:
        return replace(failed, problem=f"after the build, {error.problem}")
    except OSError as error:
        return replace(failed, problem=f"the built folder cannot be used: {error.strerror}")
    record = {"name": program.name, "build": list(program.build), "seconds": round(seconds, 3)}
    (work / "build.json").write_text(json.dumps(record) + "\n", encoding="utf-8")
    return Build(program, built, log, seconds=seconds)


def _writable(folder: Path) -> None:
    """Let the build write to its copy (a kept upload's files may be read-only)."""
    for root, _dirs, files in os.walk(folder):
        os.chmod(root, stat.S_IMODE(os.lstat(root).st_mode) | 0o700)
        for name in files:
            path = os.path.join(root, name)
            info = os.lstat(path)
            if stat.S_ISREG(info.st_mode):
                os.chmod(path, stat.S_IMODE(info.st_mode) | 0o600)


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
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    path.chmod(0o644)


def _size(folder: Path, most: int) -> int:
    """Bytes in ``folder`` (counted up to a little over ``most``); each entry counts at least
    a block, so that a million empty files are too much too."""
    total = 0
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            with contextlib.suppress(OSError):
                total += max(os.lstat(os.path.join(root, name)).st_blocks * 512, ENTRY_BYTES)
        if total > most:
            break
    return total


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
    "BuildFailed",
    "BuildLimits",
    "build",
    "build_key",
    "build_root",
    "ready",
]
