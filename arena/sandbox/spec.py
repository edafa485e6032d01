"""What to run and within which limits: :class:`Limits`, :class:`LaunchSpec` and the fixed
paths a bot sees inside the sandbox."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

#: Where the bot's folder appears inside the sandbox (read-only; the working directory).
SANDBOX_BOT_DIR = "/bot"
#: Where the engine's Unix socket appears inside the sandbox.
SANDBOX_SOCKET = "/run/nimmt/engine.sock"
#: Where the seat's framed socket (:mod:`arena.protocol.frames`) appears inside the sandbox.
SANDBOX_FRAMES = "/run/nimmt/frames.sock"
#: Where the bot runtime (a venv with grpcio, protobuf and ``arena``) appears inside.
SANDBOX_RUNTIME = "/opt/nimmt/runtime"
#: Where the bot's token appears inside the sandbox (a read-only file only the bot can read).
SANDBOX_TOKEN = "/run/nimmt/token"
#: The environment variable naming the token file (the only way a bot is given its token).
TOKEN_FILE_ENV = "NIMMT_TOKEN_FILE"
#: The environment variable naming the seat's framed socket (:mod:`arena.protocol.frames`).
FRAMES_ENV = "NIMMT_FRAMES"
#: The environment variable that used to carry the token; never passed on to a bot.
LEGACY_TOKEN_ENV = "NIMMT_TOKEN"

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class SandboxUnavailable(RuntimeError):
    """This machine cannot give the isolation asked for; the message says what is missing."""


@dataclass(frozen=True)
class Limits:
    """Resource limits of one bot for a whole match.

    ``memory_mb`` is the memory (resident, plus swap) of all the bot's processes together,
    enforced by the memory cgroup where the machine has one: a bot going over it is killed by
    the kernel's OOM killer (a crash; :attr:`BotProcess.limit_exceeded` says ``memory_mb``).
    Address space is not memory: runtimes reserve far more than they use (a Python gRPC client
    about 560 MB, the JVM and V8 gigabytes), so RLIMIT_AS is then only a backstop of
    ``AS_BACKSTOP_FACTOR`` times ``memory_mb``, which still refuses one absurd allocation at
    once (a 4 GB ``bytes`` raises MemoryError). Measured with the default 1024 MB, a Python bot
    with gRPC loaded allocates and touches about 990 MB before the OOM killer ends it. Without a
    memory cgroup, RLIMIT_AS = ``memory_mb`` of each process is all there is, and the same bot
    gets only about 540 MB (gRPC's reservations count). A JVM is told its share
    (``JAVA_TOOL_OPTIONS=-XX:MaxRAM=<memory_mb>m``): it cannot see the cgroup from inside.
    ``cpus`` is how many cores' worth of CPU time the bot's processes together get (the cpu
    cgroup's CFS quota, per 100 ms period), so a bot spinning many processes slows no other
    seat; without a cpu cgroup the bot runs at a lower priority (nice ``FALLBACK_NICE``).
    Every bot runs under the batch scheduling policy (``SCHED_BATCH``): woken by a request, it
    does not preempt the runner that is still handing out the other seats' requests.
    ``cpu_seconds`` is RLIMIT_CPU (per process; the match deadline bounds the rest).
    ``processes`` bounds the pids cgroup and RLIMIT_NPROC of the bot's own uid; threads count
    (a gRPC client has about 7), the sandbox's two bubblewrap processes come on top.
    ``tmpfs_mb`` is the size of each private writable tmpfs (/tmp and /dev/shm).

    >>> Limits(memory_mb=512).cpu_seconds
    300
    >>> Limits(processes=0)
    Traceback (most recent call last):
    ...
    ValueError: Limits.processes must be a positive int, got 0
    >>> Limits(cpus=0)
    Traceback (most recent call last):
    ...
    ValueError: Limits.cpus must be a positive number of cores, got 0
    """

    memory_mb: int = 1024
    cpu_seconds: int = 300
    processes: int = 64  # a JVM alone starts about 15 threads; a fork bomb is still cut short
    open_files: int = 256
    file_size_mb: int = 16
    tmpfs_mb: int = 64
    cpus: float = 1.0

    def __post_init__(self) -> None:
        for name in self.__dataclass_fields__:
            if name != "cpus":
                _check_positive(name, getattr(self, name))
        cpus = self.cpus
        if isinstance(cpus, bool) or not isinstance(cpus, int | float) or not 0 < cpus < 1e6:
            raise ValueError(f"Limits.cpus must be a positive number of cores, got {cpus!r}")


#: RLIMIT_AS is this many times ``Limits.memory_mb`` when the memory cgroup bounds the bot
#: (a JVM with the default 1024 MB needs about 3 GB of address space, V8 about 2 GB).
AS_BACKSTOP_FACTOR = 4
#: The nice value of a bot where no cpu cgroup can bound its share.
FALLBACK_NICE = 10


def _check_positive(name: str, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"Limits.{name} must be a positive int, got {value!r}")


@dataclass(frozen=True)
class LaunchSpec:
    """One bot process to start.

    ``command`` runs in ``bot_dir`` (inside the sandbox: read-only at ``/bot``), e.g.
    ``["python3", "bot.py"]``; ``python3`` is the bot runtime's. ``socket_path`` is the engine's
    Unix socket on the host; the bot reaches it at ``NIMMT_ENGINE``, which :func:`launch` sets
    (``unix:///run/nimmt/engine.sock`` in the sandbox, ``unix://<socket_path>`` without);
    ``frames_path``, the seat's framed socket beside it, at ``NIMMT_FRAMES`` the same way
    (``unix:///run/nimmt/frames.sock``). Everything the bot writes to stdout and stderr goes
    to ``log_path``, capped.
    ``sandbox=False`` is ``--unsafe-no-sandbox``: a plain process for trusted local runs.

    A build (:mod:`arena.runner.build`) is launched the same way, with ``writable=True`` and
    no ``socket_path``: ``bot_dir`` (a copy of the bot's folder) is then mounted read-write,
    handed to the bot's uid for the build and taken back when it ends (:meth:`BotProcess.kill`),
    and the environment names no engine and no token.

    ``token`` is the bot's secret for this match. It never appears in a command line or an
    environment (both are readable by every local user in ``/proc``): the bot reads it from the
    file named by ``NIMMT_TOKEN_FILE`` (``/run/nimmt/token`` in the sandbox, a private 0600 file
    without). A ``NIMMT_TOKEN`` in ``env`` (where the token used to travel) never reaches the
    bot's environment; it is handed over as the token unless ``token`` is given:

    >>> spec = LaunchSpec(["bot"], Path("."), Path("s"), Path("l"), env={"NIMMT_TOKEN": "x"})
    >>> spec.token, dict(spec.env)
    ('x', {})
    >>> spec = LaunchSpec(["bot"], Path("."), Path("s"), Path("l"), env={"NIMMT_TOKEN": "x"},
    ...                   token="y")
    >>> spec.token, dict(spec.env)
    ('y', {})
    """

    command: list[str]
    bot_dir: Path
    socket_path: Path | None
    log_path: Path
    env: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    limits: Limits = field(default_factory=Limits)
    sandbox: bool = True
    token: str = field(default="", repr=False)
    writable: bool = False
    #: The seat's framed socket (:mod:`arena.protocol.frames`), if it offers one.
    frames_path: Path | None = None
    #: A process that may be kept for another match (:mod:`arena.runner.pool`): the folder of
    #: ``socket_path`` (``engine.sock`` in a folder of its own, 0711, beside ``frames.sock``
    #: if there is a ``frames_path``) is bound at
    #: ``/run/nimmt`` and the token is a file in it (``token``), so that the arena can give the
    #: process a new socket and token later. Sandboxed only.
    reusable: bool = False

    def __post_init__(self) -> None:
        if not self.command or not all(isinstance(part, str) and part for part in self.command):
            raise ValueError(f"LaunchSpec.command must be non-empty strings, got {self.command!r}")
        legacy = self.env.get(LEGACY_TOKEN_ENV)
        if legacy is not None:
            rest = {name: value for name, value in self.env.items() if name != LEGACY_TOKEN_ENV}
            object.__setattr__(self, "env", MappingProxyType(rest))  # frozen: our own fields
            if not self.token:
                object.__setattr__(self, "token", legacy)
        if not isinstance(self.token, str) or "\0" in self.token:
            raise ValueError("LaunchSpec.token must be a str without NUL")
        for name, value in self.env.items():
            if not _ENV_NAME.match(name) or "\0" in value:
                raise ValueError(f"LaunchSpec.env has an invalid entry {name!r}={value!r}")
        if self.reusable and (not self.sandbox or self.socket_path is None):
            raise ValueError("LaunchSpec.reusable needs the sandbox and a socket_path")
        if self.frames_path is not None and self.socket_path is None:
            raise ValueError("LaunchSpec.frames_path needs a socket_path beside it")
