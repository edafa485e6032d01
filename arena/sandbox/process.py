"""Starting a bot (:func:`launch`) and ending it with all it started (:class:`BotProcess`).

A bot is started through a gate: ``/bin/sh`` waits on a pipe while the runner moves it into
the bot's cgroups and sets its rlimits (``prlimit``), then execs ``setpriv`` to drop root for
the bot's uid, which execs bubblewrap (unsandboxed: the command itself). So no Python code runs
between fork and exec (unsafe when the runner has threads), and nothing the bot runs ever
starts outside its cgroups or limits.
"""

from __future__ import annotations

import contextlib
import math
import os
import resource
import secrets
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import TracebackType

from arena import GRPC_EXPERIMENTS

from . import seccomp, trees, uids
from .bubblewrap import Mounts, bwrap_argv, etc_files, find_bwrap, proc_files
from .capped_log import CappedLog, settle
from .cgroups import CONTROLLERS, BotCgroup, find_hierarchy
from .probe import require_isolation
from .runtime import RuntimeInUse, use_runtime
from .spec import (
    AS_BACKSTOP_FACTOR,
    FALLBACK_NICE,
    FRAMES_ENV,
    SANDBOX_FRAMES,
    SANDBOX_RUNTIME,
    SANDBOX_SOCKET,
    SANDBOX_TOKEN,
    TOKEN_FILE_ENV,
    LaunchSpec,
    Limits,
)

#: Waits for one line on stdin, then execs its arguments with stdin from /dev/null.
GATE = 'read -r go && exec "$@" </dev/null'
#: The two bubblewrap processes (monitor and pid-1 reaper) that share the bot's process limit.
BWRAP_PROCESSES = 2
#: How long :meth:`BotProcess.kill` waits for the last process to be gone.
KILL_TIMEOUT = 5.0
MIB = 1024 * 1024

#: Keeps numeric libraries to one thread each (threads count against ``Limits.processes``).
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def _bot_env(
    spec: LaunchSpec,
    *,
    path: str,
    home: str,
    engine: str | None,
    token_file: str | None,
    frames: str | None = None,
) -> dict[str, str]:
    env = {
        "PATH": path,
        "HOME": home,
        "LANG": "C.UTF-8",
        "PYTHONUNBUFFERED": "1",  # a killed bot's last words still reach the log
        "PYTHONDONTWRITEBYTECODE": "1",
        **ONE_THREAD,
        # Go sizes its scheduler (and `go build` its parallel jobs) by the machine's cores,
        # which the cpu cgroup does not hide: each thread counts against Limits.processes.
        "GOMAXPROCS": str(max(1, math.ceil(spec.limits.cpus))),
        # gRPC's transport engine, as the runner's (see arena/__init__.py): bots in any
        # language built on gRPC's core library answer with half the CPU time per message.
        "GRPC_EXPERIMENTS": os.environ.get("GRPC_EXPERIMENTS", GRPC_EXPERIMENTS),
    }
    if spec.sandbox:
        env["TMPDIR"] = "/tmp"
    # The JVM sizes its heap from the machine's memory; it cannot see the bot's cgroup.
    env["JAVA_TOOL_OPTIONS"] = f"-XX:MaxRAM={spec.limits.memory_mb}m"
    env.update(spec.env)
    if engine is not None:
        env["NIMMT_ENGINE"] = engine
    if frames is not None:
        env[FRAMES_ENV] = frames
    if token_file is not None:
        env[TOKEN_FILE_ENV] = token_file
    return env


def _rlimits(
    limits: Limits, *, nproc: int | None, memory_cgroup: bool
) -> dict[int, tuple[int, int]]:
    """The rlimits of a bot, never above the runner's own hard limits (raising them would need
    CAP_SYS_RESOURCE). Address space is only a backstop where the memory cgroup bounds the bot
    (see :class:`Limits`)."""
    cpu = limits.cpu_seconds
    space = limits.memory_mb * MIB * (AS_BACKSTOP_FACTOR if memory_cgroup else 1)
    wanted = {
        resource.RLIMIT_AS: (space, space),
        resource.RLIMIT_CPU: (cpu, cpu + 1),  # SIGXCPU, then SIGKILL if it is ignored
        resource.RLIMIT_NOFILE: (limits.open_files, limits.open_files),
        resource.RLIMIT_FSIZE: (limits.file_size_mb * MIB, limits.file_size_mb * MIB),
        resource.RLIMIT_CORE: (0, 0),
        # No raising its own priority and no real-time scheduling (SCHED_FIFO would starve
        # every other seat), whatever the runner was given.
        resource.RLIMIT_NICE: (0, 0),
        resource.RLIMIT_RTPRIO: (0, 0),
    }
    if nproc is not None:
        wanted[resource.RLIMIT_NPROC] = (nproc, nproc)
    values = {}
    for which, (soft, hard) in wanted.items():
        ceiling = resource.getrlimit(which)[1]
        if ceiling != resource.RLIM_INFINITY:
            soft, hard = min(soft, ceiling), min(hard, ceiling)
        values[which] = (soft, hard)
    return values


def _exit_status(returncode: int | None) -> int | None:
    """Exit status as a shell reports it: 128 + N after death by signal N."""
    if returncode is not None and returncode < 0:
        return 128 - returncode
    return returncode


class BotProcess:
    """A running bot: its process tree, uid, cgroups and log. End it with :meth:`kill`."""

    def __init__(
        self,
        popen: subprocess.Popen[bytes],
        *,
        lease: uids.UidLease | None,
        cgroup: BotCgroup | None,
        runtime: RuntimeInUse | None,
        log: CappedLog,
        token_dir: Path | None = None,
        lent_dir: Path | None = None,
        seat_dir: Path | None = None,
    ) -> None:
        self.pid = popen.pid
        #: A reusable process's folder of its socket and token (:attr:`LaunchSpec.reusable`).
        self.seat_dir = seat_dir
        self._popen = popen
        self._lease = lease
        self._cgroup = cgroup
        self._runtime = runtime
        self._log = log
        self._token_dir = token_dir
        self._lent_dir = lent_dir
        self._lock = threading.Lock()
        self._ended = False
        self._peak_bytes: int | None = None
        self._oom_kills: int | None = None
        self._cpu_seconds: float | None = None
        self._cpu_throttled: int | None = None
        self._gone = False
        #: What taking the lent folder back found (a build's), once the bot was ended.
        self.taken_back: trees.TakenBack | None = None

    @property
    def uid(self) -> int | None:
        """The uid the bot runs as, if it got one of its own."""
        return self._lease.uid if self._lease else None

    def poll(self) -> int | None:
        """The exit status (128 + N for signal N) if the bot has exited, else None."""
        return _exit_status(self._popen.poll())

    def wait(self, timeout: float | None = None) -> int | None:
        """Wait for exit; the exit status, or None if ``timeout`` passed first."""
        try:
            return _exit_status(self._popen.wait(timeout))
        except subprocess.TimeoutExpired:
            return None

    @property
    def can_freeze(self) -> bool:
        """Whether :meth:`freeze` can stop all of the bot's processes (its freezer cgroup)."""
        return self._cgroup is not None and self._cgroup.can_freeze

    def freeze(self) -> bool:
        """Stop every process of the bot (no CPU time, no forks) until :meth:`thaw`; False if
        it cannot be done (see :meth:`.BotCgroup.freeze`)."""
        return self._cgroup is not None and not self._ended and self._cgroup.freeze()

    def thaw(self) -> None:
        """Let a frozen bot run again."""
        if self._cgroup is not None and not self._ended:
            self._cgroup.thaw()

    def give_token(self, token: str) -> None:
        """Write ``token`` as the reusable process's token file (replacing the last one at
        once: the bot never reads half a token), readable by the bot's uid alone."""
        if self.seat_dir is None:
            raise ValueError("only a reusable process is given a new token")
        _write_token(self.seat_dir, token, self.uid)

    def switch_log(self, path: Path) -> None:
        """From now on the bot's output goes to a new log file at ``path``."""
        path.parent.mkdir(parents=True, exist_ok=True)
        self._log.switch(path)

    def kill(self) -> None:
        """Kill every process the bot started, wait for them, release uid, cgroups, runtime, log.

        Idempotent; safe whether or not the bot has exited already. The uid is given back
        whatever goes wrong (see :func:`end_all`).
        """
        end_all([self])

    def _claim(self) -> bool:
        """Mark the bot as being ended; False if it already was."""
        with self._lock:
            if self._ended:
                return False
            self._ended = True
            return True

    def _end(self) -> None:
        """Kill every process through the bot's cgroups (a scan of /proc only where there are
        none), remove them, close the log; ``_gone`` says whether all went."""
        try:
            try:
                self._signal_all()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self._popen.wait(KILL_TIMEOUT)
            finally:
                if self._cgroup is None:
                    self._gone = self._wait_all_gone()
                else:
                    with contextlib.suppress(OSError, ValueError):
                        self._peak_bytes = self._cgroup.peak_memory_bytes()
                        self._oom_kills = self._cgroup.oom_kills()
                        self._cpu_seconds = self._cgroup.cpu_seconds()
                        self._cpu_throttled = self._cgroup.cpu_throttled()
                    self._gone = self._cgroup.remove(KILL_TIMEOUT)
        finally:
            try:
                self._log.close()
            finally:
                for folder in (self._token_dir, self.seat_dir):
                    if folder is not None:
                        shutil.rmtree(folder, ignore_errors=True)

    def _let_go(self, free: bool) -> None:
        """Take the lent folder back and release the uid and runtime. ``free``: no process of
        the bot is left. Else the folder is not touched (a process could still swap what is in
        it) and the runtime stays held; the uid goes back marked as unchecked."""
        try:
            if free and self._lent_dir is not None:
                self.taken_back = trees.take_back(self._lent_dir)
        finally:
            try:
                if self._lease is not None:
                    self._lease.release(clean=free)
            finally:
                if free and self._runtime is not None:
                    self._runtime.release()

    def _signal_all(self) -> None:
        if self._cgroup is not None:
            self._cgroup.kill_all()
        if self._popen.returncode is None:  # once reaped, its pid may name someone else
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            self._popen.kill()
        if self._lease is not None and self._cgroup is None:
            for pid in uids.processes_of(self._lease.uid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)

    def _wait_all_gone(self) -> bool:
        """Without cgroups: kill stragglers until none is left (the uid is the bot's alone)
        or time is up."""
        if self._lease is None:
            return True
        deadline = time.monotonic() + KILL_TIMEOUT
        while uids.processes_of(self._lease.uid):
            if time.monotonic() > deadline:
                return False
            self._signal_all()
            time.sleep(0.005)
        return True

    def log_text(self) -> str:
        """The bot's stdout and stderr so far, capped (head and tail kept)."""
        return self._log.text()

    @property
    def log_complete(self) -> bool:
        """Whether everything the bot wrote is in :meth:`log_text`: its output's pipe has
        reached its end (the bot and whatever it started have closed it, by exiting)."""
        return self._log.at_end

    @property
    def peak_memory_mb(self) -> float | None:
        """Peak memory of all the bot's processes, from its memory cgroup if there is one."""
        peak = self._peak_bytes
        if self._cgroup is not None and not self._ended:
            peak = self._cgroup.peak_memory_bytes()
        return None if peak is None else peak / MIB

    @property
    def cpu_seconds(self) -> float | None:
        """CPU time all the bot's processes used so far, from its cgroup if one counts it."""
        if self._cgroup is None or self._ended:
            return self._cpu_seconds
        return self._cgroup.cpu_seconds()

    @property
    def cpu_throttled(self) -> int | None:
        """How many 100 ms periods the bot was stopped in for using up its ``Limits.cpus``."""
        if self._cgroup is None or self._ended:
            return self._cpu_throttled
        return self._cgroup.cpu_throttled()

    @property
    def limit_exceeded(self) -> str | None:
        """The :class:`Limits` field the bot ran into, if its exit shows one."""
        status = self.poll()
        if status == 128 + signal.SIGXCPU:
            return "cpu_seconds"
        if status == 128 + signal.SIGXFSZ:
            return "file_size_mb"
        oom_kills = self._oom_kills
        if self._cgroup is not None and not self._ended:
            oom_kills = self._cgroup.oom_kills()
        return "memory_mb" if oom_kills else None

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.kill()

    def __repr__(self) -> str:
        return f"<BotProcess pid={self.pid} uid={self.uid} status={self.poll()}>"


def park_logs(processes: list[BotProcess]) -> None:
    """Finish the logs of the match the (kept) ``processes`` just played, with what they
    still write of it (:func:`.capped_log.settle`); until :meth:`BotProcess.switch_log`, their
    output is dropped."""
    settle([process._log for process in processes])
    for process in processes:
        with contextlib.suppress(OSError):
            process._log.switch(Path(os.devnull))


def _write_token(seat_dir: Path, token: str, uid: int | None) -> None:
    """``seat_dir/token`` holding ``token``, 0400 and owned by ``uid``: written beside it,
    then renamed over it."""
    part = seat_dir / f".token-{secrets.token_hex(4)}"
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o400)
    try:
        os.write(fd, token.encode())
        if uid is not None:
            os.fchown(fd, uid, uid)
    finally:
        os.close(fd)
    os.replace(part, seat_dir / "token")


def lend(folder: Path, uid: int) -> None:
    """Hand ``folder`` (a build's copy of a bot's folder, no deeper than
    :data:`~.trees.MAX_DEPTH`) and everything in it to ``uid``, writable by it."""

    def give(name: Path | str, dir_fd: int | None, info: os.stat_result) -> None:
        os.chown(name, uid, uid, dir_fd=dir_fd, follow_symlinks=False)
        if stat.S_ISDIR(info.st_mode):
            os.chmod(name, stat.S_IMODE(info.st_mode) | 0o700, dir_fd=dir_fd)
        elif stat.S_ISREG(info.st_mode):
            os.chmod(name, stat.S_IMODE(info.st_mode) | 0o600, dir_fd=dir_fd)

    give(folder, None, os.lstat(folder))
    for entry in trees.walk(folder):
        give(entry.name, entry.parent_fd, entry.info)


def end_all(processes: Iterable[BotProcess]) -> None:
    """End every bot of ``processes`` at once (:meth:`BotProcess.kill`), each in a thread of
    its own: each through its cgroups, then one look through ``/proc`` for what is left of
    all their uids together (killed, if anything is). Every uid is released in a ``finally``
    whatever a kill raised; one that still has processes goes back marked unchecked, so the
    next lease looks first (:func:`.uids.acquire_uid`). The first error is raised after."""
    mine = [process for process in processes if process._claim()]
    if not mine:
        return
    errors: list[BaseException] = []
    try:
        if len(mine) == 1:
            mine[0]._end()
        else:
            with ThreadPoolExecutor(len(mine), thread_name_prefix="nimmt-end") as pool:
                for done in [pool.submit(process._end) for process in mine]:
                    if (error := done.exception()) is not None:
                        errors.append(error)
    except BaseException as error:
        errors.append(error)
    finally:
        left: set[int] = set()
        try:
            left = _kill_left({p._lease.uid for p in mine if p._lease is not None})
        except BaseException as error:
            errors.append(error)
            left = {p._lease.uid for p in mine if p._lease is not None}
        finally:
            for process in mine:
                try:
                    free = process._gone and (process.uid is None or process.uid not in left)
                    process._let_go(free)
                except BaseException as error:
                    errors.append(error)
    if errors:
        raise errors[0]


def _kill_left(wanted: set[int]) -> set[int]:
    """Kill what is left of the uids ``wanted`` (nothing, where their cgroups held them all);
    the uids that still have processes after :data:`KILL_TIMEOUT`."""
    deadline = time.monotonic() + KILL_TIMEOUT
    left = uids.processes_of_any(wanted)
    while left and time.monotonic() < deadline:
        for pids in left.values():
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        time.sleep(0.005)
        left = uids.processes_of_any(set(left))
    return set(left)


class _Resources:
    """File descriptors and leases of a launch in progress, all released on failure."""

    def __init__(self) -> None:
        self.fds: list[int] = []
        self.lease: uids.UidLease | None = None
        self.cgroup: BotCgroup | None = None
        self.runtime: RuntimeInUse | None = None
        self.token_dir: Path | None = None
        self.lent_dir: Path | None = None
        self.seat_dir: Path | None = None

    def open(self, path: Path | str, flags: int) -> int:
        fd = os.open(path, flags | os.O_CLOEXEC)
        self.fds.append(fd)
        return fd

    def pipe(self) -> tuple[int, int]:
        read, write = os.pipe()
        self.fds += [read, write]
        return read, write

    def data(self, name: str, content: bytes) -> int:
        fd = os.memfd_create(name)
        self.fds.append(fd)
        os.write(fd, content)
        os.lseek(fd, 0, os.SEEK_SET)
        return fd

    def close(self, fd: int) -> None:
        self.fds.remove(fd)
        os.close(fd)

    def close_all(self) -> None:
        for fd in self.fds:
            os.close(fd)
        self.fds.clear()

    def private_file(self, name: str, content: str) -> Path:
        """A file only this uid can read, in a 0700 folder of its own (removed on release)."""
        self.token_dir = Path(tempfile.mkdtemp(prefix="nimmt-token-"))
        path = self.token_dir / name
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "w") as file:
            file.write(content)
        return path

    def release(self) -> None:
        """Let go of everything, each step whatever the one before raised (no bot process
        ran: the gate was never opened)."""
        with contextlib.ExitStack() as steps:
            if self.runtime is not None:
                steps.callback(self.runtime.release)
            if self.lease is not None:
                steps.callback(self.lease.release, clean=True)
            if self.cgroup is not None:
                steps.callback(self.cgroup.remove)
            if self.lent_dir is not None:
                steps.callback(trees.take_back, self.lent_dir)
            if self.token_dir is not None:
                steps.callback(shutil.rmtree, self.token_dir, ignore_errors=True)
            steps.callback(self.close_all)


@contextlib.contextmanager
def _resources() -> Iterator[_Resources]:
    held = _Resources()
    try:
        yield held
    except BaseException:
        held.release()
        raise
    held.close_all()


def launch(spec: LaunchSpec) -> BotProcess:
    """Start a bot as ``spec`` says; :meth:`BotProcess.kill` ends it (always call it).

    Sandboxed, it raises :class:`SandboxUnavailable` if this machine cannot isolate it (see
    :func:`require_isolation`); the first call may build the bot runtime (~10 s). The bot's
    uid resolves the bind mounts, so every folder above ``bot_dir`` and ``socket_path`` must
    be searchable by others (``o+x``; 0711 keeps them unlistable) and the bot's files readable
    (``o+r``), else PermissionError says which; the socket is made connectable (mode 0666).

    Call it from a thread that outlives the bot: bubblewrap's ``--die-with-parent`` fires when
    the launching *thread* exits.
    """
    bot_dir = Path(spec.bot_dir).resolve()
    if not bot_dir.is_dir():
        raise FileNotFoundError(f"bot folder {bot_dir} does not exist")
    limits = spec.limits
    with _resources() as held:
        if spec.sandbox:
            require_isolation()
            if os.geteuid() == 0:
                held.lease = uids.acquire_uid()
        if any(find_hierarchy(controller) for controller in CONTROLLERS):
            name = f"nimmt-bot-{os.getpid()}-{secrets.token_hex(4)}"
            extra = BWRAP_PROCESSES if spec.sandbox else 0
            held.cgroup = BotCgroup.create(
                name,
                memory_bytes=limits.memory_mb * MIB,
                max_pids=limits.processes + extra,
                cpus=limits.cpus,
            )
        controlled = set(held.cgroup.dirs) if held.cgroup is not None else set()
        uid = held.lease.uid if held.lease else None
        if spec.sandbox:
            argv, pass_fds = _sandboxed(spec, bot_dir, held, uid)
            cwd, env = "/", {"PATH": "/usr/bin:/bin"}
            if uid is not None:
                argv = [*uids.drop_root(uid), *argv]
        else:
            path = os.pathsep.join(
                [os.path.dirname(sys.executable), "/usr/local/bin:/usr/bin:/bin"]
            )
            home = os.environ.get("HOME", str(bot_dir))
            engine = token_file = frames = None
            if spec.socket_path is not None:
                engine = f"unix://{Path(spec.socket_path).absolute()}"
                token_file = str(held.private_file("token", spec.token))
            if spec.frames_path is not None:
                frames = f"unix://{Path(spec.frames_path).absolute()}"
            argv, pass_fds = spec.command, ()
            env = _bot_env(
                spec, path=path, home=home, engine=engine, token_file=token_file, frames=frames
            )
            cwd = str(bot_dir)
        gate_read, gate_write = held.pipe()
        log_read, log_write = held.pipe()
        spec.log_path.parent.mkdir(parents=True, exist_ok=True)
        popen = subprocess.Popen(
            ["/bin/sh", "-c", GATE, "nimmt-bot", *argv],
            stdin=gate_read,
            stdout=log_write,
            stderr=log_write,
            cwd=cwd,
            env=env,
            pass_fds=pass_fds,
            start_new_session=True,
        )
        try:
            for fd in (gate_read, log_write, *pass_fds):
                held.close(fd)
            log = CappedLog(log_read, spec.log_path)  # owns log_read from here
            held.fds.remove(log_read)
            if held.cgroup is not None:
                held.cgroup.add(popen.pid)
            nproc = limits.processes + BWRAP_PROCESSES if uid is not None else None
            rlimits = _rlimits(limits, nproc=nproc, memory_cgroup="memory" in controlled)
            for which, values in rlimits.items():
                resource.prlimit(popen.pid, which, values)
            if "cpu" not in controlled:  # no quota: at least the runner's threads come first
                os.setpriority(os.PRIO_PROCESS, popen.pid, FALLBACK_NICE)
            # Batch: a bot the referee wakes with a request waits for a free core or the tick
            # instead of preempting the referee, which hands out the other seats' requests
            # first (fewer context switches a decision; its processes inherit the policy).
            os.sched_setscheduler(popen.pid, os.SCHED_BATCH, os.sched_param(0))
            os.write(gate_write, b"go\n")
        except BaseException:
            popen.kill()
            popen.wait()
            raise
        return BotProcess(
            popen,
            lease=held.lease,
            cgroup=held.cgroup,
            runtime=held.runtime,
            log=log,
            token_dir=held.token_dir,
            lent_dir=held.lent_dir,
            seat_dir=held.seat_dir,
        )


def _check_reachable(path: Path, uid: int, need: int) -> None:
    """Raise PermissionError unless ``uid`` (gid ``uid``) can reach ``path`` and has ``need``
    (rwx bits as for "other") on it. bubblewrap resolves bind sources as the bot's uid."""

    def allowed(target: Path, bits: int) -> bool:
        info = target.stat()
        shift = 6 if info.st_uid == uid else 3 if info.st_gid == uid else 0
        return (info.st_mode >> shift) & bits == bits

    for folder in reversed(path.parents):
        if not allowed(folder, 0o1):
            raise PermissionError(
                f"bot uids cannot reach {path}: {folder} is not searchable by others "
                f"(chmod o+x {folder})"
            )
    if not allowed(path, need):
        raise PermissionError(f"bot uids lack access to {path} (chmod o+rX or o+rw)")


def _sandboxed(
    spec: LaunchSpec, bot_dir: Path, held: _Resources, uid: int | None
) -> tuple[list[str], tuple[int, ...]]:
    """The bubblewrap argv and the fds it needs."""
    bwrap = find_bwrap()
    assert bwrap is not None  # require_isolation() checked
    socket_path = None if spec.socket_path is None else Path(spec.socket_path)
    if socket_path is not None and not socket_path.exists():
        raise FileNotFoundError(f"engine socket {socket_path} does not exist; start it first")
    frames_path = None if spec.frames_path is None else Path(spec.frames_path)
    if frames_path is not None and not frames_path.exists():
        raise FileNotFoundError(f"framed socket {frames_path} does not exist; start it first")
    held.runtime = use_runtime()
    runtime = held.runtime.path
    if uid is not None:
        if spec.writable:
            held.lent_dir = bot_dir
            lend(bot_dir, uid)
        reachable = [(bot_dir, 0o7 if spec.writable else 0o5), (runtime, 0o5)]
        if socket_path is not None:
            socket_path.chmod(0o666)  # connect() needs write access; the token guards it
            reachable.append((socket_path, 0o6))
        if frames_path is not None:
            frames_path.chmod(0o666)
            reachable.append((frames_path, 0o6))
        for path, need in reachable:
            _check_reachable(path, uid, need)
    ids = (uid, uid) if uid is not None else (os.getuid(), os.getgid())
    program = seccomp.bot_filter() if "--seccomp" in bwrap.flags else None
    seat_dir = None
    if spec.reusable and socket_path is not None:
        if socket_path.name != os.path.basename(SANDBOX_SOCKET):
            raise ValueError(f"a reusable process's socket must be engine.sock: {socket_path}")
        wanted = socket_path.with_name(os.path.basename(SANDBOX_FRAMES))
        if frames_path is not None and frames_path != wanted:
            raise ValueError(f"a reusable process's framed socket must be {wanted}")
        held.seat_dir = socket_path.parent
        _write_token(held.seat_dir, spec.token, uid)
        if uid is not None:
            _check_reachable(held.seat_dir, uid, 0o1)
        seat_dir = held.open(held.seat_dir, os.O_PATH | os.O_DIRECTORY)
    simple = socket_path is not None and seat_dir is None
    mounts = Mounts(
        bot_dir=held.open(bot_dir, os.O_PATH | os.O_DIRECTORY),
        bot_dir_writable=spec.writable,
        runtime=held.open(runtime, os.O_PATH | os.O_DIRECTORY),
        socket=held.open(socket_path, os.O_PATH) if simple and socket_path else None,
        frames=held.open(frames_path, os.O_PATH) if simple and frames_path else None,
        etc_data={name: held.data(name, data) for name, data in etc_files(*ids).items()},
        proc_data={name: held.data(name, data) for name, data in proc_files().items()},
        token=held.data("token", spec.token.encode()) if simple else None,
        seccomp=held.data("seccomp", program.program) if program is not None else None,
        seat_dir=seat_dir,
    )
    env = _bot_env(
        spec,
        path=f"{SANDBOX_RUNTIME}/bin:/usr/bin:/bin",
        home="/tmp",
        engine=None if socket_path is None else f"unix://{SANDBOX_SOCKET}",
        token_file=None if socket_path is None else SANDBOX_TOKEN,
        frames=None if frames_path is None else f"unix://{SANDBOX_FRAMES}",
    )
    tmpfs_bytes = spec.limits.tmpfs_mb * MIB
    argv = bwrap_argv(bwrap, list(spec.command), mounts=mounts, env=env, tmpfs_bytes=tmpfs_bytes)
    return argv, mounts.fds()
