"""The sandbox that runs one untrusted bot process.

A bot is any program speaking the gRPC protocol over the Unix socket the runner creates.
:func:`launch` starts it as a :class:`LaunchSpec` says and returns a :class:`BotProcess`;
:meth:`BotProcess.kill` ends it with every process it started, through its cgroups
(:func:`end_all` ends many at once and then checks their uids with one look at ``/proc``).
Sandboxed (the default), the bot runs under bubblewrap as a uid of its own, with no network but
loopback, a read-only root holding the system ``/usr``, the bot runtime and its own folder, a
small private ``/tmp``, a seccomp filter refusing the system calls no bot needs
(:mod:`.seccomp`), and rlimits and cgroups bounding memory, CPU share and time, processes, files
and file sizes (see :class:`Limits`). The memory cgroup is the real memory bound (a Python gRPC
bot can use about 990 of its default 1024 MB; over it, the OOM killer ends the bot); RLIMIT_AS
is then only a backstop. :func:`layers` tells which of these protections this machine gives;
:func:`require_isolation` refuses to go on without the essential ones.

``sandbox=False`` (``--unsafe-no-sandbox``) runs a plain process for trusted local runs: own
process group, rlimits and cgroups, the same environment names.

The bot's token (:attr:`LaunchSpec.token`) never appears on a command line or in an environment,
which every local user can read in ``/proc``: the bot reads it from the file named by
``$NIMMT_TOKEN_FILE``.
"""

from .probe import layers, require_isolation
from .process import BotProcess, end_all, launch, park_logs
from .runtime import ensure_runtime
from .spec import (
    FRAMES_ENV,
    SANDBOX_BOT_DIR,
    SANDBOX_FRAMES,
    SANDBOX_RUNTIME,
    SANDBOX_SOCKET,
    SANDBOX_TOKEN,
    TOKEN_FILE_ENV,
    LaunchSpec,
    Limits,
    SandboxUnavailable,
)

__all__ = [
    "FRAMES_ENV",
    "SANDBOX_BOT_DIR",
    "SANDBOX_FRAMES",
    "SANDBOX_RUNTIME",
    "SANDBOX_SOCKET",
    "SANDBOX_TOKEN",
    "TOKEN_FILE_ENV",
    "BotProcess",
    "LaunchSpec",
    "Limits",
    "SandboxUnavailable",
    "end_all",
    "ensure_runtime",
    "launch",
    "layers",
    "park_logs",
    "require_isolation",
]
