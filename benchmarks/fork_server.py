"""What a match would cost if each Python bot were forked from a process that has already made
the kit's imports (a fork server, or zygote), beside the arena's sandbox as it is and the same
match in process: the figures behind the choice the match-cost work leaves open. A measurement,
not a sandbox: the arena never launches bots this way.

    nice -n 5 .venv/bin/python benchmarks/fork_server.py [--repeats 9] [--games 4] [--check]

Needs root, cgroup v1's ``cpuacct`` and ``memory`` hierarchies and unprivileged user namespaces
(as ``match_cost.py`` and the sandbox do). Four commands, alternated in each repeat, each in
a cpuacct and a memory cgroup of its own (``match_cost.in_cgroup``), all a ``--games`` match
of ``random, random, heuristic, heuristic`` (basic, seed 1) by ``nimmt match``:

1. **sandboxed**: as the arena plays it (each bot a fresh ``python3 bot.py`` in bubblewrap);
2. **in process**: ``--in-process``;
3. **fork server per match**: the four seats as ``connect:`` seats (the CLI waits for bots
   started by hand), and beside the CLI, started with it in the measured cgroup, a zygote: the bot
   runtime's Python with the kit and the house bots imported, the seccomp filter compiled and
   ``gc.freeze()`` called, which forks a child for each seat the CLI announces;
4. **zygote kept**: the same, the zygote started before the measured command and not counted
   (its children are: each joins cgroups under the measured ones before anything else): what
   the match costs where a zygote is already running (a worker's, kept from match to match).

What a forked child does before it plays, in this order (what bubblewrap's recipe does, near
enough): cgroups of its own under the measured ones (memory and pids limits, as a seat's); a
uid leased from the sandbox's range (:func:`arena.sandbox.uids.acquire_uid`, by the zygote)
taken with ``setresuid``; new user, mount, pid, network, IPC, UTS and cgroup namespaces, its
uid mapped; killed with its parent (``PR_SET_PDEATHSIG``); a second fork, the pid namespace's
init (a session of its own, the hostname, the root below; it reaps, and ends with the bot,
taking whatever the bot left behind with it); the root: a tmpfs with ``/usr`` and the runtime
(whose ``arena`` the zygote imported, as a bot's kit does) bound read-only, the bot's folder
read-only at ``/bot``, an empty ``/usr/local``, ``/etc`` files of its own, a ``/proc`` of its
own, a ``/dev`` of the usual devices with a small ``/dev/shm``, ``pivot_root`` into it, the old
root let go, everything read-only but ``/tmp`` and ``/dev/shm``; a third fork, the bot: a
seat's rlimits, no new privileges, no capabilities (the bounding set emptied too), the bots'
seccomp filter (:func:`arena.sandbox.seccomp.bot_filter`); then the match on the framed socket
it connected to before (:mod:`arena.botkit`). The house program's ``bot.py`` is the three lines
that make the bot and call the kit; the child makes the same bot itself. ``--check`` first
launches one bot so that checks what it finds and prints it: its uid, no capabilities, the
filter on, no process but its init in its ``/proc``, none of the checkout's files but those
bound, writes refused but in ``/tmp``, no network, no namespace of its own, a fork bomb stopped
at its rlimit, and nothing of its uid left once its init has ended (with the lock-down left
out, the four checks of it fail: tried); ``--check --repeats 0`` checks alone.

Not counted, so a real fork server would cost a little more: the runner's own work per seat
(the launch's bookkeeping, the log pipes and their threads, the clean-up through the cgroups:
about 20 ms of the runner's CPU for four seats, measured with ``thread_time`` around them),
what the CLI's ``connect:`` seats do not do (no probe of the sandbox) and, with a kept zygote,
what its children still spend once the runner has exited (their exit: a millisecond or two).

**Measured** 2026-12-07 on this 2-core machine, one run of ``--repeats 11``, medians (the
ratio of the medians; each repeat's own ratios, the middle half, beside it):

==========================  =========  ===============  ==============
command                     CPU        over in process  repeats' own
==========================  =========  ===============  ==============
sandboxed (today)           569 ms     2.69x            2.67x-2.79x
in process                  212 ms     1.00x
fork server per match       414 ms     1.95x            1.92x-1.98x
zygote kept                 298 ms     1.41x            1.38x-1.47x
==========================  =========  ===============  ==============

Another run of the same code: 2.74x, 1.99x (1.87x-2.06x), 1.43x; three runs with ``arena``
bound from the checkout rather than taken from the runtime: 1.92x-1.97x per match, 1.40x-1.45x
kept. The runner's bookkeeping that is not counted here (~20 ms) adds about 0.1x: a fork
server per match would come to about 2x, at the 2x the match-cost work aims for rather than
under it; a kept zygote (a worker's, or one per machine) to about 1.5x.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import gc
import os
import re
import resource
import shlex
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from arena.sandbox.process import BWRAP_PROCESSES, MIB, _rlimits
from arena.sandbox.spec import SANDBOX_BOT_DIR, Limits

if TYPE_CHECKING:
    from arena.sandbox.uids import UidLease

HERE = Path(__file__).resolve().parent.parent

BOTS = ("random", "random", "heuristic", "heuristic")

#: The measured command's runner: ``nimmt match`` with ``connect:`` seats that also offer the
#: framed socket (the CLI offers gRPC alone to a bot started by hand; a sandboxed program is
#: offered both and the kit takes the framed one), printing its cgroups first for the zygote.
RUNNER = """
import sys
sys.path.insert(0, {here!r})
from arena.sandbox.cgroups import find_hierarchy
for name in ("cpuacct", "memory", "pids"):
    hierarchy = find_hierarchy(name)
    if hierarchy is not None:
        print("CGROUP", name, hierarchy.parent, file=sys.stderr, flush=True)
import arena.runner.lineup as lineup
plain = lineup.SeatServer.__init__
def with_frames(self, socket_path, *args, **kwargs):
    kwargs["frames_path"] = kwargs.get("frames_path") or socket_path.with_suffix(".frames")
    plain(self, socket_path, *args, **kwargs)
lineup.SeatServer.__init__ = with_frames
from arena.cli import main
main()
"""

ANNOUNCED = re.compile(r"--connect unix://(\S+)\.sock --token (\S+)")

CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
NAMESPACES = (
    CLONE_NEWNS
    | CLONE_NEWCGROUP
    | CLONE_NEWUTS
    | CLONE_NEWIPC
    | CLONE_NEWUSER
    | CLONE_NEWPID
    | CLONE_NEWNET
)
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_REMOUNT = 1, 2, 4, 32
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
MNT_DETACH = 2
SYS_PIVOT_ROOT, SYS_CAPSET = 155, 126  # x86-64
PR_SET_DUMPABLE, PR_SET_SECCOMP, PR_SET_NO_NEW_PRIVS = 4, 22, 38
SECCOMP_MODE_FILTER = 2
CAPABILITY_VERSION_3 = 0x20080522
PR_SET_PDEATHSIG, PR_CAPBSET_DROP = 1, 24
HOSTNAME = "nimmt-bot"
ETC = {"passwd": "bot:x:1000:1000::/tmp:/usr/sbin/nologin\n", "group": "bot:x:1000:\n"}
DEVICES = ("null", "zero", "full", "random", "urandom", "tty")
#: A seat's limits as the sandbox sets them by default: its cgroups' and its rlimits.
LIMITS = Limits()
SEAT_PIDS = LIMITS.processes + BWRAP_PROCESSES
RLIMITS = _rlimits(LIMITS, nproc=SEAT_PIDS, memory_cgroup=True)
INSIDE_UID = 1000


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


class Zygote:
    """The fork server: imports made once, a child forked per announced seat."""

    def __init__(self) -> None:
        from arena.sandbox.seccomp import bot_filter

        compiled = bot_filter()
        if compiled is None:
            raise SystemExit("libseccomp is not installed")
        self.program = compiled.program
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.runtime = Path(sys.prefix).resolve()
        self.root = Path(tempfile.mkdtemp(prefix="fork-server-root-"))
        self.groups: dict[str, Path] = {}

    def _check(self, result: int, what: str) -> None:
        if result != 0:
            code = ctypes.get_errno()
            raise OSError(code, f"{what}: {os.strerror(code)}")

    def _mount(
        self, source: str | None, target: str, fs: str | None, flags: int, data: str = ""
    ) -> None:
        self._check(
            self.libc.mount(
                source.encode() if source else None,
                target.encode(),
                fs.encode() if fs else None,
                ctypes.c_ulong(flags),
                data.encode() if data else None,
            ),
            f"mount {target}",
        )

    def seat_groups(self, name: str) -> list[Path]:
        """Cgroups of one seat under the measured command's, with a seat's limits."""
        made = []
        for controller, parent in self.groups.items():
            path = parent / name
            path.mkdir()
            made.append(path)
            if controller == "memory":
                (path / "memory.limit_in_bytes").write_text(str(LIMITS.memory_mb * MIB))
            elif controller == "pids":
                (path / "pids.max").write_text(str(SEAT_PIDS))
        return made

    def _isolate(self, uid: int) -> None:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
        self._check(self.libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), "dumpable")  # for uid_map
        self._check(self.libc.unshare(NAMESPACES), "unshare")
        Path("/proc/self/setgroups").write_text("deny")
        Path("/proc/self/uid_map").write_text(f"{INSIDE_UID} {uid} 1")
        Path("/proc/self/gid_map").write_text(f"{INSIDE_UID} {uid} 1")

    def _filesystem(self, bot_dir: Path) -> None:
        """The root bubblewrap's recipe makes, near enough: system folders and the bot's
        read-only, ``/etc`` files of its own, ``/proc``, a ``/dev`` with the usual devices and a
        small ``/dev/shm``, a ``/tmp``; everything read-only but ``/tmp`` and ``/dev/shm``."""
        root = str(self.root)
        ro = MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV
        self._mount(None, "/", None, MS_REC | MS_PRIVATE)
        self._mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755")
        # The runtime where the zygote's modules came from; the bot's folder where bots find it.
        for source, inside in (
            ("/usr", "/usr"),
            (str(self.runtime), str(self.runtime)),
            (str(bot_dir), SANDBOX_BOT_DIR),
        ):
            target = root + inside
            os.makedirs(target, exist_ok=True)
            self._mount(source, target, None, MS_BIND | MS_REC)
            self._mount(None, target, None, ro)
        self._mount("tmpfs", f"{root}/usr/local", "tmpfs", MS_NOSUID | MS_NODEV, "size=4k")
        self._mount(None, f"{root}/usr/local", None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
        for link, to in (("bin", "usr/bin"), ("lib", "usr/lib"), ("lib64", "usr/lib64")):
            os.symlink(to, f"{root}/{link}")
        for folder in ("proc", "tmp", "old", "etc", "dev"):
            os.mkdir(f"{root}/{folder}")
        for name, text in ETC.items():
            Path(f"{root}/etc/{name}").write_text(text)
        self._mount("proc", f"{root}/proc", "proc", MS_NOSUID | MS_NODEV)
        dev = f"{root}/dev"
        self._mount("tmpfs", dev, "tmpfs", MS_NOSUID, "size=64k,mode=0755")
        for name in DEVICES:
            Path(f"{dev}/{name}").touch()
            self._mount(f"/dev/{name}", f"{dev}/{name}", None, MS_BIND)
        for number, name in enumerate(("stdin", "stdout", "stderr")):
            os.symlink(f"/proc/self/fd/{number}", f"{dev}/{name}")
        os.symlink("/proc/self/fd", f"{dev}/fd")
        os.mkdir(f"{dev}/shm")
        self._mount("tmpfs", f"{dev}/shm", "tmpfs", MS_NOSUID | MS_NODEV, "size=16m")
        self._mount(None, dev, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID)
        os.chdir(root)
        self._check(self.libc.syscall(SYS_PIVOT_ROOT, b".", b"old"), "pivot_root")
        os.chroot(".")
        os.chdir("/")
        self._check(self.libc.umount2(b"/old", MNT_DETACH), "umount the old root")
        os.rmdir("/old")
        self._mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=16m")
        self._mount(None, "/", None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
        os.chdir(SANDBOX_BOT_DIR)

    def _lock_down(self) -> None:
        self._check(self.libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
        last = int(Path("/proc/sys/kernel/cap_last_cap").read_text())
        for cap in range(last + 1):
            self._check(self.libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0), "the bounding set")
        header = ctypes.create_string_buffer(struct.pack("II", CAPABILITY_VERSION_3, 0))
        nothing = ctypes.create_string_buffer(24)  # two __user_cap_data_struct, all zero
        self._check(self.libc.syscall(SYS_CAPSET, header, nothing), "capset")
        program = ctypes.create_string_buffer(self.program, len(self.program))
        fprog = _SockFprog(len(self.program) // 8, ctypes.addressof(program))
        self._check(
            self.libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0),
            "seccomp",
        )

    def play(self, seat: int, path: str, token: str, uid: int, groups: list[Path]) -> int:
        """Fork the seat's process, which plays its match; its pid."""
        import arena.botkit as kit
        from arena.bots.registry import make_bot

        def match(sock: socket.socket | None) -> int:
            assert sock is not None
            kit._framed_match(sock, make_bot(BOTS[seat] + ":"), token, stays=False)
            return 0

        return self.launch(seat, uid, groups, match, path)

    def launch(
        self,
        seat: int,
        uid: int,
        groups: list[Path],
        body: Callable[[socket.socket | None], int],
        path: str | None = None,
    ) -> int:
        """Fork a seat's process (see the module's docstring), connected to the framed socket
        at ``path`` if there is one, which runs ``body`` as the bot; its pid."""
        import arena.botkit as kit

        pid = os.fork()
        if pid:
            return pid
        code = 2
        try:
            for group in groups:
                (group / "cgroup.procs").write_text(str(os.getpid()))
            sock = kit._connect_unix(path, 5.0) if path else None
            self._isolate(uid)
            self._check(self.libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "pdeathsig")
            inner = os.fork()
            if inner == 0:  # the pid namespace's init: reaps, ends with the bot
                code = 3
                self._check(self.libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "pdeathsig")
                os.setsid()
                socket.sethostname(HOSTNAME)
                self._filesystem(HERE / "bots" / BOTS[seat])
                bot = os.fork()
                if bot == 0:
                    code = 4
                    for which, limit in RLIMITS.items():
                        resource.setrlimit(which, limit)
                    self._lock_down()
                    os._exit(body(sock))
                if sock is not None:
                    sock.close()
                while True:
                    pid, status = os.wait()
                    if pid == bot:
                        os._exit(os.waitstatus_to_exitcode(status))
            if sock is not None:
                sock.close()
            code = os.waitstatus_to_exitcode(os.waitpid(inner, 0)[1])
        except BaseException as exc:  # a measurement: say why and stop
            print(f"seat {seat}: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        finally:
            os._exit(code)

    def serve(self, source: str | None) -> int:
        """Fork a child for each of the four announced seats; 0 if every one played."""

        stream = open(source) if source else sys.stdin  # noqa: SIM115 (closed on exit)
        children: list[tuple[int, list[Path], UidLease]] = []
        ended: set[int] = set()
        try:
            return self._serve(stream, children, ended)
        finally:
            for pid, groups, lease in children:
                for group in groups:
                    with contextlib.suppress(OSError):  # a child still in it: left to be seen
                        group.rmdir()
                lease.release(clean=pid in ended)
            shutil.rmtree(self.root, ignore_errors=True)

    def _serve(
        self, stream: TextIO, children: list[tuple[int, list[Path], UidLease]], ended: set[int]
    ) -> int:
        from arena.sandbox.uids import acquire_uid

        for line in stream:
            if line.startswith("CGROUP "):
                _, controller, path = line.split()
                self.groups[controller] = Path(path)
                continue
            found = ANNOUNCED.search(line)
            if found is None:
                continue
            seat = len(children)
            lease = acquire_uid()
            groups = self.seat_groups(f"fork-server-{os.getpid()}-{seat}")
            pid = self.play(seat, found.group(1) + ".frames", found.group(2), lease.uid, groups)
            children.append((pid, groups, lease))
            if len(children) == len(BOTS):
                break
        failed = []
        for seat, (pid, _, _) in enumerate(children):
            status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
            ended.add(pid)  # and its pid namespace with it: nothing of the uid is left
            if status != 0:
                failed.append(f"seat {seat}: exit status {status}")
        if len(children) < len(BOTS):
            failed.append(f"{len(children)} of {len(BOTS)} seats announced")
        for why in failed:
            print(f"zygote: {why}", file=sys.stderr, flush=True)
        return 1 if failed else 0


def _inside() -> int:
    """What a bot launched so finds (run as the bot): the number of checks that failed."""
    status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    checks: list[tuple[str, bool]] = [
        (f"uid {os.getuid()}", os.getuid() == INSIDE_UID),
        ("no capabilities", int(status["CapEff"], 16) == 0 == int(status["CapBnd"], 16)),
        ("seccomp filter on", status["Seccomp"].strip() == "2"),
        ("no new privileges", status["NoNewPrivs"].strip() == "1"),
        (f"hostname {socket.gethostname()}", socket.gethostname() == HOSTNAME),
        (
            "its init and itself alone in /proc",
            sorted(p for p in os.listdir("/proc") if p.isdigit()) == ["1", "2"],
        ),
        ("its own /etc/passwd", Path("/etc/passwd").read_text() == ETC["passwd"]),
        ("the checkout's other files hidden", not (HERE / "README.md").exists()),
    ]
    for target in (Path(SANDBOX_BOT_DIR, "x"), Path("/x"), Path("/dev/x"), Path("/usr/local/x")):
        try:
            target.write_text("x")
            checks.append((f"{target} refused", False))
        except OSError as exc:
            checks.append((f"{target}: {exc.strerror}", True))
    Path("/tmp/x").write_text("x")
    checks.append(("/tmp writable", True))
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
        checks.append(("no network", False))
    except OSError as exc:
        checks.append((f"127.0.0.1: {exc.strerror}", True))
    libc = ctypes.CDLL(None, use_errno=True)
    checks.append(("no user namespace of its own", libc.unshare(CLONE_NEWUSER) != 0))
    forked = 0
    while forked <= 2 * RLIMITS[resource.RLIMIT_NPROC][0]:
        try:
            child = os.fork()
        except OSError:
            break
        if child == 0:  # left behind, in a session of its own: the init's end takes it
            os.setsid()
            time.sleep(30)
            os._exit(0)
        forked += 1
    checks.append(
        (f"a fork bomb stopped after {forked}", forked < RLIMITS[resource.RLIMIT_NPROC][0])
    )
    for what, ok in checks:
        print(f"  {'ok' if ok else 'FAILED'}  {what}", flush=True)
    return sum(not ok for _, ok in checks)


def check_main() -> int:
    """Launch one bot as the fork server would, which checks what it finds; then check that
    nothing of its uid outlives it. The number of checks that failed."""
    from arena.sandbox.uids import acquire_uid, processes_of

    zygote = Zygote()
    lease = acquire_uid()
    left: list[int] = []
    try:
        pid = zygote.launch(0, lease.uid, [], lambda _: _inside())
        failed = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
        left = processes_of(lease.uid)
        print(f"  {'FAILED' if left else 'ok'}  {len(left)} processes of its uid once it ended")
    finally:
        lease.release(clean=not left)
        shutil.rmtree(zygote.root, ignore_errors=True)
    return failed + bool(left)


def zygote_main(source: str | None) -> int:
    """The zygote's process (run by the bot runtime's Python)."""
    import arena.botkit  # noqa: F401  (what every child would import)
    from arena.bots.registry import make_bot

    for name in set(BOTS):
        make_bot(name + ":")
    zygote = Zygote()
    gc.freeze()
    if source:
        print("READY", flush=True)
    code = zygote.serve(source)
    if source:
        print("DONE" if code == 0 else "FAILED", flush=True)
    return code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument(
        "--check", action="store_true", help="launch one bot so and show what it finds, first"
    )
    parser.add_argument("--zygote", metavar="FIFO", nargs="?", const="", help=argparse.SUPPRESS)
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.zygote is not None:
        raise SystemExit(zygote_main(args.zygote or None))
    if args.inside:
        raise SystemExit(check_main())
    sys.path.insert(0, str(HERE))
    from benchmarks.match_cost import command_env, in_cgroup, runtime_of

    python = runtime_of(HERE) / "bin" / "python3"
    env = command_env(HERE)
    # The zygote imports the arena its runtime holds (built from this tree), as a bot does.
    bare = {name: value for name, value in env.items() if name != "PYTHONPATH"}
    me = str(Path(__file__).resolve())
    if args.check:
        print("a bot launched as the fork server launches it:")
        if subprocess.run([str(python), me, "--inside"], env=bare, check=False).returncode:
            raise SystemExit("some checks failed")
    if args.repeats < 1:
        return
    with tempfile.TemporaryDirectory(prefix="fork-server-") as folder:
        out = Path(folder) / "out"
        options = ["--games", str(args.games), "--out", str(out)]
        cli = [sys.executable, "-c", "from arena.cli import main; main()", "match", *BOTS, *options]
        seats = [f"connect:{name}#{i}" for i, name in enumerate(BOTS)]
        runner = [sys.executable, "-c", RUNNER.format(here=str(HERE)), "match", *seats, *options]
        quoted = shlex.join(runner)
        fifo = Path(folder) / "announced"
        os.mkfifo(fifo)
        plans = {
            "sandboxed (today)": cli,
            "in process": [*cli, "--in-process"],
            "fork server per match": [
                "sh",
                "-c",
                f"{quoted} 2>&1 >/dev/null | env -u PYTHONPATH {python} {me} --zygote",
            ],
            "zygote kept": ["sh", "-c", f"{quoted} 2>{fifo} >/dev/null"],
        }
        cpu: dict[str, list[float]] = {name: [] for name in plans}
        for repeat in range(args.repeats + 1):  # the first: bytecode caches and the runtime
            for name, argv in plans.items():
                shutil.rmtree(out, ignore_errors=True)
                kept = None
                if name == "zygote kept":
                    kept = subprocess.Popen(
                        [str(python), me, "--zygote", str(fifo)], stdout=subprocess.PIPE,
                        text=True, env=bare, cwd=folder,
                    )  # fmt: skip
                    assert kept.stdout is not None
                    if kept.stdout.readline().strip() != "READY":
                        raise SystemExit("the kept zygote did not start")
                measured = in_cgroup(argv, env, Path(folder))
                if kept is not None:
                    assert kept.stdout is not None
                    if kept.stdout.readline().strip() != "DONE" or kept.wait() != 0:
                        raise SystemExit("the kept zygote's children did not all play")
                if repeat:
                    cpu[name].append(measured.cpu_s)
            if repeat:
                print(f"repeat {repeat}/{args.repeats} done", file=sys.stderr)
    base = statistics.median(cpu["in process"])
    print(f"{args.games}-game match of {', '.join(BOTS)}: CPU of the whole tree, medians of "
          f"{args.repeats}")  # fmt: skip
    for name, values in cpu.items():
        middle = statistics.median(values)
        ratios = sorted(v / b for v, b in zip(values, cpu["in process"], strict=True))
        quarter = len(ratios) // 4
        spread = f"{ratios[quarter]:.2f}x-{ratios[-1 - quarter]:.2f}x"
        print(
            f"  {name:24s} {middle * 1000:6.0f} ms  {middle / base:.2f}x  (repeats' own: {spread})"
        )


if __name__ == "__main__":
    main()
