"""What a match would cost if each Python bot were forked from a process that has already made
the kit's imports (a fork server, or zygote), beside the arena's sandbox as it is and the same
match in process: the figures behind the choice the match-cost work leaves open. A measurement,
not a sandbox: the arena never launches bots this way.

    nice -n 5 .venv/bin/python benchmarks/fork_server.py [--repeats 9] [--games 4]

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

What a forked child does before it plays, in this order (a fork server's launch as bubblewrap's
recipe has it, less bubblewrap's ``/dev``, hostname, rlimits and its smaller mounts):
cgroups of its own under the measured ones (memory and pids limits, as a seat's); a uid leased
from the sandbox's range (:func:`arena.sandbox.uids.acquire_uid`, by the zygote) taken with
``setresuid``; new user, mount, pid, network, IPC, UTS and cgroup namespaces, its uid mapped;
a second fork (the pid namespace's first process), a root of its own on a tmpfs with ``/usr``,
the runtime, the ``arena`` package and the bot's folder bound read-only and a ``/proc`` of its
own, ``pivot_root`` into it and the old root let go; no new privileges, no capabilities, the
bots' seccomp filter (:func:`arena.sandbox.seccomp.bot_filter`); then the match on the framed
socket it connected to before (:mod:`arena.botkit`). The house program's ``bot.py`` is the
three lines that make the bot and call the kit; the child makes the same bot itself.

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
sandboxed (today)           518 ms     2.68x            2.63x-2.76x
in process                  193 ms     1.00x
fork server per match       348 ms     1.80x            1.76x-1.89x
zygote kept                 252 ms     1.31x            1.24x-1.40x
==========================  =========  ===============  ==============

Four runs the same night gave 1.80x-1.93x for the fork server per match and 1.31x-1.44x for
the kept zygote (2.68x-2.78x sandboxed). The runner's bookkeeping that is not counted here
(~20 ms) adds about 0.1x: a fork server per match would come to 1.9x-2.0x, at the 2x the
match-cost work aims for rather than safely under it; a kept zygote (a worker's, or one per
machine) to about 1.4x-1.5x.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import gc
import os
import re
import shlex
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from arena.sandbox.uids import UidLease

HERE = Path(__file__).resolve().parent.parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

BOTS = ("random", "random", "heuristic", "heuristic")

#: The measured command's runner: ``nimmt match`` with ``connect:`` seats that also offer the
#: framed socket (the CLI offers gRPC alone to a bot started by hand; a sandboxed program is
#: offered both and the kit takes the framed one), printing its cgroups first for the zygote.
RUNNER = """
import sys
sys.path.insert(0, {here!r})
for line in open("/proc/self/cgroup"):
    _, controllers, path = line.strip().split(":", 2)
    for name in controllers.split(","):
        if name in ("cpuacct", "memory", "pids"):
            print("CGROUP", name, "/sys/fs/cgroup/" + name + path, file=sys.stderr, flush=True)
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
SEAT_MEMORY = 512 * 1024 * 1024
SEAT_PIDS = 64
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
                (path / "memory.limit_in_bytes").write_text(str(SEAT_MEMORY))
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
        root = str(self.root)
        self._mount(None, "/", None, MS_REC | MS_PRIVATE)
        self._mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755")
        for source in ("/usr", str(self.runtime), str(HERE / "arena"), str(bot_dir)):
            target = root + source
            os.makedirs(target, exist_ok=True)
            self._mount(source, target, None, MS_BIND | MS_REC)
            self._mount(None, target, None, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
        for link, to in (("bin", "usr/bin"), ("lib", "usr/lib"), ("lib64", "usr/lib64")):
            os.symlink(to, f"{root}/{link}")
        for folder in ("proc", "tmp", "old"):
            os.mkdir(f"{root}/{folder}")
        self._mount("proc", f"{root}/proc", "proc", MS_NOSUID | MS_NODEV)
        os.chdir(root)
        self._check(self.libc.syscall(SYS_PIVOT_ROOT, b".", b"old"), "pivot_root")
        os.chroot(".")
        os.chdir("/")
        self._check(self.libc.umount2(b"/old", MNT_DETACH), "umount the old root")
        os.rmdir("/old")
        self._mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=16m")
        os.chdir(str(bot_dir))

    def _lock_down(self) -> None:
        self._check(self.libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
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
        """Fork the seat's process; its pid."""
        import arena.botkit as kit
        from arena.bots.registry import make_bot

        pid = os.fork()
        if pid:
            return pid
        code = 2
        try:
            for group in groups:
                (group / "cgroup.procs").write_text(str(os.getpid()))
            sock = kit._connect_unix(path, 5.0)
            self._isolate(uid)
            inner = os.fork()
            if inner == 0:
                code = 3
                os.setsid()
                self._filesystem(HERE / "bots" / BOTS[seat])
                self._lock_down()
                kit._framed_match(sock, make_bot(BOTS[seat] + ":"), token, stays=False)
                os._exit(0)
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
    parser.add_argument("--zygote", metavar="FIFO", nargs="?", const="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.zygote is not None:
        raise SystemExit(zygote_main(args.zygote or None))
    from benchmarks.match_cost import command_env, in_cgroup, runtime_of

    python = runtime_of(HERE) / "bin" / "python3"
    env = command_env(HERE)
    me = str(Path(__file__).resolve())
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
                f"{quoted} 2>&1 >/dev/null | {python} {me} --zygote",
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
                        text=True, env=env, cwd=folder,
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
