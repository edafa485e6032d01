"""CPU of a match with a cgroup around the whole process tree: sandboxed programs against the
same bots in process, per match and per decision, and a bot's start per language; several
source trees side by side (a change's before and after) in one run, printed as ratios.

    nice -n 10 .venv/bin/python benchmarks/match_cost.py [--repeats 3] [--games 4]
        [--long-games 200] [--bots random,random,heuristic,heuristic] [--variant basic]
        [--duplicate] [--tree NAME=PATH ...] [--languages python,javascript,go,cpp,java]
        [--series 6]

**How CPU is counted.** Each command (``nimmt match ...``, run as ``python -c`` with the tree
first on ``sys.path``) starts in a fresh cgroup of its own under the ``cpuacct`` hierarchy
(v1, ``/sys/fs/cgroup/cpuacct``): its pid is written to ``cgroup.procs`` before it execs, so
everything it starts is counted, the sandboxed bots too (their own cgroups are children of the
runner's, and v1 charges every ancestor). ``cpuacct.usage`` is read once the command has exited:
Python's start, the imports, the bots' launches, the games and the clean-up. Needs root. The
commands write and read Python's bytecode cache, as an installed arena does (the warm-up run
before the measured ones writes it), whatever ``PYTHONDONTWRITEBYTECODE`` says.

**What is printed.** Per tree (``this`` is this checkout; ``--tree before=/tmp/old`` adds an
exported older commit, which builds its own bot runtime the first time), commands alternate
tree by tree and mode by mode within each repeat, so that the machine's load falls alike on all:

1. a ``--games`` match of ``--bots`` (house programs, sandboxed) and the same match
   ``--in-process``: CPU each (median over repeats) and their ratio; beside them a Python
   bot's bare start (:data:`BARE_START` in the tree's bot runtime, the least of three runs per
   repeat) and the in-process match plus one such start per bot, over the in-process match:
   the least that ratio can be while each bot is a process of its own, whatever the sandbox,
   the socket and the runner cost; and the CPU of a child forked from a process that has made
   those imports (:data:`FORKED_START`): what a bot's start would cost from a fork server;
2. per decision: the same two with ``--long-games``; the extra games' CPU over their extra
   decisions (decisions counted in the replays), sandboxed and in process, and the ratio;
   the page faults of the whole tree per extra decision (a memory cgroup beside the cpuacct
   one: a count, the same from run to run, where CPU is not). Every ratio is printed with the
   spread of the repeats' own (each repeat's sandboxed run over its in-process run);
3. with ``--duplicate``: the sandboxed match with duplicate deals (every seat rotation played by
   fresh bot processes) against the same games without (one process per bot), and the ratio;
4. per language (``--languages``; ``none`` skips): a 1-game match of ``bots/starter-<language>``
   and an in-process ``random``, less the same match of two in-process bots: what one start of
   that bot costs the arena (its launch, runtime, imports, hello, and the few decisions of one
   game), and its launch-to-hello time from ``match.json`` (wall clock).
5. a worker's matches (``--series N``): N + 1 ``--games`` matches of ``--bots`` played one after
   the other by one long-lived process (seeds 1000 apart: no deal in common), less one such
   match, per match: in process, and sandboxed with a warm pool (:mod:`arena.runner.pool`, as
   the site's workers keep one; a tree without a pool is measured in process only). This is
   what a match costs a worker that plays many, where items 1-4 are the one-shot CLI's cost.

The trees must share this checkout's ``.venv`` (the same Python packages); a compiled language's
starter is built once per content of its folder before it is measured.

**Measured** 2026-12-06 (the evening session) on this 2-core machine, ``this`` = the framed
socket holding what asks for no answer until the next request (a bot woken once at a game's
boundary, not three times) and the sandbox probe remembered until the machine restarts,
``start`` = commit d2396b9 exported (the session before); one run of ``--repeats 11
--languages python,javascript --series 6``, medians:

=====================================================  ==============  ==============
figure                                                 this            start
=====================================================  ==============  ==============
4-game match, one-shot CLI: sandboxed, CPU              0.634 s         0.654 s
4-game match, one-shot CLI: in process, CPU             0.239 s         0.219 s
   ratio sandboxed / in process                         2.65x           2.98x
   (the repeats' own ratios, middle half)               2.54x-2.95x     2.69x-3.02x
   floor: in process + 4 bare Python bot starts          1.85x           1.89x
per decision: sandboxed, CPU                            0.293 ms        0.296 ms
per decision: in process, CPU                           0.100 ms        0.102 ms
   ratio                                                2.94x           2.89x
   (the repeats' own ratios, middle half)               2.75x-3.01x     2.79x-3.05x
page faults per decision, sandboxed (whole tree)        0.13            0.14
a Python starter's start (item 4), CPU                 102.0 ms        154.2 ms
a JavaScript starter's start (item 4), CPU             171.9 ms        199.6 ms
a worker's 4-game match (7 less 1), sandboxed warm      74 ms           76 ms
a worker's 4-game match (7 less 1), in process          22 ms           23 ms
=====================================================  ==============  ==============

this / start: a sandboxed 4-game match 0.97x, a Python starter's one-game match 0.66x (the
probe's 40 ms or so of CPU, which a one-program match feels most), a JavaScript starter's
0.86x; the in-process runs, the same code in both trees, differed by 9% between the trees in
this run, so the one-shot ratio's gain (2.98x to 2.65x) is partly the machine's. The CPU per
decision moved by less than the repeats' spread; the wake-ups, a count, did not: 703 to 602
``poll`` calls a bot in 50 games of four bots (``strace``), and the whole tree's context
switches in 200 games 24,697 and 25,424 to 20,775 and 20,242 (``perf stat -e
context-switches``, a software counter that follows every fork, two runs of each tree;
``task-clock`` 0.95x-0.98x). Earlier runs that day: 2.75x-3.07x per one-shot match,
2.95x-3.20x per decision, on both trees.

Where a one-shot match's CPU goes: the runner's own Python start and imports, as in process;
each Python bot 80-100 ms in its cgroup (``BotProcess.cpu_seconds``) on the later session's
machine: the launch (a shell gate, ``setpriv``, bubblewrap and its namespaces: ``/bin/true``
launched so costs 12 ms), Python's start (10 ms more) and the kit's imports (55-60 ms: the
same inside the sandbox as outside; protobuf's Python layer is a third of them, the engine's
dataclasses and the stdlib modules they pull in most of the rest), then the match's messages.
The bare start alone, four times over, already takes the in-process match to 1.8x-2x (the
floor line): a match of fresh Python processes cannot come near 2x whatever the sandbox
costs. What a start from a fork server would cost instead (the evening session, CPU in a
cgroup, medians of 5 x 20): the forked child 1.4-1.6 ms (the ``forked`` line); the namespaces
themselves little: ``setpriv`` and ``unshare`` running ``/bin/true`` cost 2.7 ms in a new user
namespace, 3.2 ms in new user, mount, pid, ipc, uts, cgroup and network namespaces, against
0.75 ms for ``/bin/true`` alone, and bubblewrap with no mount but ``/proc`` and ``/dev`` 5.3 ms;
the rest of a bot's 12 ms launch is bubblewrap's two dozen mounts and the gate's three execs.
``benchmarks/fork_server.py`` measures whole matches launched so (a prototype: the namespaces,
a read-only root, no capabilities and the seccomp filter, in a child of a zygote).
Before its first bot each process also probed the sandbox (an empty one: about 40 ms of CPU);
a probe that found every protection is now remembered until the machine restarts
(:mod:`arena.sandbox.probe`), which leaves about 5 ms (the key's checks and libseccomp's
loading, which the bots' filter needs anyway).

Where a decision's goes: the runner's reading and writing (a request's message, a send, the
event loop's turn for each answer), the kit's work (about 26 µs a decision back to back in
the bot runtime's Python, 20 µs of it the view) and both sides' system calls and wake-ups: in a
600-game match a ``random`` bot's process ran 115 µs a decision (its ``schedstat``) for work
that takes 26 µs back to back, ``heuristic``'s 250 µs for 62 µs (a process woken once a
decision starts with cold caches; ``benchmarks/bot_wake.py`` measures the wake-up alone), and
a bare round trip between two Python processes on a Unix socket costs 50-65 µs of CPU on this
machine, half the whole in-process decision.
``benchmarks/protocol.py`` prints the decision round trip on both sockets side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from arena.sandbox.cgroups import find_hierarchy  # noqa: E402

CPUACCT = Path("/sys/fs/cgroup/cpuacct")
LANGUAGES = ("python", "javascript", "go", "cpp", "java")


@dataclass(frozen=True)
class Run:
    cpu_s: float
    wall_s: float
    page_faults: int | None
    decisions: int
    start_ms: dict[str, float]  # per program bot: launch to hello (the slowest of its starts)


@dataclass(frozen=True)
class Measured:
    cpu_s: float
    wall_s: float
    page_faults: int | None  # the whole tree's (a memory cgroup's), where one can be made


def _memory_group(name: str) -> Path | None:
    """A new memory cgroup (v1) under this process's own, or None where there is none."""
    hierarchy = find_hierarchy("memory")
    if hierarchy is None or hierarchy.version != 1:  # v2's memory.stat has no total_pgfault
        return None
    group = hierarchy.parent / name
    try:
        group.mkdir()
    except OSError:
        return None
    return group


def in_cgroup(argv: Sequence[str], env: dict[str, str], cwd: Path) -> Measured:
    """CPU seconds, wall seconds and page faults of ``argv`` and everything it starts."""
    name = f"matchcost-{os.getpid()}-{secrets.token_hex(4)}"
    group = CPUACCT / name
    group.mkdir()
    memory = _memory_group(name)
    groups = [g for g in (group, memory) if g is not None]

    def enter() -> None:
        for g in groups:
            with open(g / "cgroup.procs", "w") as f:
                f.write(str(os.getpid()))

    try:
        started = time.perf_counter()
        done = subprocess.run(
            argv, env=env, cwd=cwd, preexec_fn=enter, capture_output=True, text=True, check=False
        )
        wall = time.perf_counter() - started
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
        # Stragglers (a bot's last process) are counted until they are gone.
        until = time.monotonic() + 5
        while (group / "cgroup.procs").read_text().strip() and time.monotonic() < until:
            time.sleep(0.05)
        faults = None
        if memory is not None:  # the bots' own memory cgroups are children: counted in total_
            stat = dict(line.split() for line in (memory / "memory.stat").read_text().splitlines())
            faults = int(stat["total_pgfault"])
        return Measured(int((group / "cpuacct.usage").read_text()) / 1e9, wall, faults)
    finally:
        for g in groups:
            g.rmdir()


def command_env(tree: Path) -> dict[str, str]:
    """The environment of a measured command: ``tree`` first, and Python's bytecode cache
    written and read as an installed arena's is (an inherited ``PYTHONDONTWRITEBYTECODE``
    would make every run compile the modules it imports again, about 0.1 s of CPU that a
    deployed worker never spends)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def nimmt(tree: Path, args: Sequence[str], cwd: Path) -> Run:
    """``nimmt args`` run from ``tree``; the match's output goes to ``cwd/out``."""
    out = cwd / "out"
    code = f"import sys; sys.path.insert(0, {str(tree)!r}); from arena.cli import main; main()"
    args = [a.replace("{tree}", str(tree)) for a in args]
    argv = [sys.executable, "-c", code, *args, "--out", str(out)]
    measured = in_cgroup(argv, command_env(tree), cwd)
    decisions = 0
    for path in out.glob("game-*.json"):
        replay = json.loads(path.read_text())
        decisions += sum(len(t["plays"]) + len(t.get("choices", [])) for t in replay["turns"])
    match = json.loads((out / "match.json").read_text())
    starts = {bot["name"]: bot["start_ms"] for bot in match["bots"] if bot.get("start_ms")}
    return Run(measured.cpu_s, measured.wall_s, measured.page_faults, decisions, starts)


#: A worker's matches: ``N`` matches of the same line-up one after the other in one process
#: (sandboxed with a warm pool where the tree has one, or in process), each with its own seed
#: far from the others' (no deal in common, as a site's random seeds).
SERIES = """
import sys
sys.path.insert(0, {tree!r})
from pathlib import Path
from arena.cli.match import entrants_for
from arena.runner.match import run_match
from arena.runner.rules import MatchConfig
bots, games, variant, seed, matches, mode, out = {args!r}
pool = None
if mode == "warm":
    from arena.runner.pool import WarmPool
    pool = WarmPool(size=len(bots))
for m in range(matches):
    config = MatchConfig(variant, games, seed + 1000 * m, out=Path(out) / str(m))
    more = {{"pool": pool}} if pool is not None else {{}}  # an older tree has no pool
    run_match(config, entrants_for(bots, in_process=mode == "in process"), **more)
if pool is not None:
    pool.close()
"""


def series_cpu(
    tree: Path,
    bots: Sequence[str],
    games: int,
    variant: str,
    seed: int,
    matches: int,
    mode: str,
    cwd: Path,
) -> float:
    """CPU seconds of ``matches`` matches played one after the other by one process."""
    args = (list(bots), games, variant, seed, matches, mode, str(cwd / "out"))
    code = SERIES.format(tree=str(tree), args=args)
    return in_cgroup([sys.executable, "-c", code], command_env(tree), cwd).cpu_s


#: A Python bot's bare start: the bot runtime's Python importing what a house program imports
#: before its first message, and exiting at once, without the interpreter's teardown (no
#: sandbox, no socket, no decision).
BARE_START = "import os, arena.botkit, arena.bots.registry; os._exit(0)"


#: What a fork server would pay per bot instead: the same imports and a house bot made once,
#: then ``{forks}`` children forked from that process, each making its bot and exiting (the
#: parent's fork and the child's copy-on-write faults are both counted).
FORKED_START = """
import os, arena.botkit
from arena.bots.registry import make_bot
make_bot("heuristic:")
import gc; gc.freeze()
for _ in range({forks}):
    pid = os.fork()
    if pid == 0:
        make_bot("heuristic:")
        os._exit(0)
    os.waitpid(pid, 0)
os._exit(0)
"""
#: Children per :data:`FORKED_START` measurement (its CPU less that of none, over this).
FORKS = 20


def runtime_of(tree: Path) -> Path:
    """The bot runtime the tree's sandbox runs Python bots with (built if need be)."""
    code = (
        f"import sys; sys.path.insert(0, {str(tree)!r}); "
        "from arena.sandbox.runtime import ensure_runtime; print(ensure_runtime())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=command_env(tree), capture_output=True, text=True,
        check=True,
    )  # fmt: skip
    return Path(done.stdout.strip().splitlines()[-1])


def runtime_cpu(runtime: Path, code: str, cwd: Path) -> float:
    """CPU seconds of ``code`` run by ``runtime``'s Python, as a bot's process runs it (no
    sandbox)."""
    env = {"PATH": f"{runtime / 'bin'}:/usr/bin:/bin", "LANG": "C.UTF-8"}
    return in_cgroup([str(runtime / "bin" / "python3"), "-c", code], env, cwd).cpu_s


def bare_start_cpu(runtime: Path, cwd: Path) -> float:
    """CPU seconds of :data:`BARE_START` in ``runtime``."""
    return runtime_cpu(runtime, BARE_START, cwd)


def forked_start_cpu(runtime: Path, cwd: Path) -> float:
    """CPU seconds of one child of :data:`FORKED_START` in ``runtime``."""
    forked = runtime_cpu(runtime, FORKED_START.format(forks=FORKS), cwd)
    alone = runtime_cpu(runtime, FORKED_START.format(forks=0), cwd)
    return max(0.0, forked - alone) / FORKS


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", type=int, default=4)
    # Fewer long games make the per-decision figure mostly noise (±0.5x with 40).
    parser.add_argument("--long-games", type=int, default=200)
    parser.add_argument("--bots", default="random,random,heuristic,heuristic")
    parser.add_argument("--variant", default="basic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--duplicate", action="store_true", help="also measure duplicate deals")
    parser.add_argument("--tree", action="append", default=[], metavar="NAME=PATH")
    parser.add_argument("--languages", default=",".join(LANGUAGES))
    parser.add_argument(
        "--series",
        type=int,
        default=6,
        metavar="N",
        help="a worker's matches: the marginal CPU of a match among N in one process (0: skip)",
    )
    args = parser.parse_args(argv)
    if not CPUACCT.is_dir() or not os.access(CPUACCT, os.W_OK):
        raise SystemExit(f"needs a writable cgroup v1 cpuacct hierarchy at {CPUACCT} (root)")
    trees = {"this": HERE}
    for item in args.tree:
        name, _, path = item.partition("=")
        trees[name] = Path(path).resolve()
    bots = args.bots.split(",")
    languages = [] if args.languages == "none" else args.languages.split(",")
    base = ["match", *bots, "--variant", args.variant, "--seed", str(args.seed)]
    players = len(bots)
    plans: dict[str, list[str]] = {
        "sandboxed": [*base, "--games", str(args.games)],
        "in process": [*base, "--games", str(args.games), "--in-process"],
        "sandboxed long": [*base, "--games", str(args.long_games)],
        "in process long": [*base, "--games", str(args.long_games), "--in-process"],
    }
    if args.duplicate:
        games = players * max(1, args.games // players)
        plans["duplicate"] = [*base, "--games", str(games), "--duplicate"]
        plans["single deals"] = [*base, "--games", str(games)]
    pair = ["match", "random", "random", "--games", "1", "--seed", str(args.seed)]
    plans["two in process"] = [*pair, "--in-process"]
    for language in languages:
        starter = f"{{tree}}/bots/starter-{language}"  # the tree's own kit
        # The starter against an in-process random bot: only the starter is a program.
        plans[f"start {language}"] = ["match", starter, "random", "--games", "1", "--in-process"]
    runs: dict[tuple[str, str], list[Run]] = defaultdict(list)
    serial: dict[tuple[str, str, int], list[float]] = defaultdict(list)
    bare: dict[str, list[float]] = defaultdict(list)
    forked: dict[str, list[float]] = defaultdict(list)
    with tempfile.TemporaryDirectory(prefix="match-cost-") as folder:
        warm = [plans["sandboxed"], *(plans[f"start {lang}"] for lang in languages)]
        for tree in trees.values():  # builds and runtimes: made once, not counted
            for plan in warm:
                nimmt(tree, plan, Path(tempfile.mkdtemp(dir=folder)))
        runtimes = {name: runtime_of(tree) for name, tree in trees.items()}
        for repeat in range(args.repeats):
            for name, runtime in runtimes.items():
                for _ in range(3):  # the best of three: what a start costs at the least
                    bare[name].append(bare_start_cpu(runtime, Path(folder)))
                forked[name].append(forked_start_cpu(runtime, Path(folder)))
            for label, plan in plans.items():
                for name, tree in trees.items():
                    cwd = Path(tempfile.mkdtemp(dir=folder))
                    runs[(name, label)].append(nimmt(tree, plan, cwd))
            if args.series:
                for name, tree in trees.items():
                    modes = ["in process"]
                    if (tree / "arena" / "runner" / "pool.py").exists():
                        modes.append("warm")
                    for mode in modes:
                        for count in (1, 1 + args.series):
                            cwd = Path(tempfile.mkdtemp(dir=folder))
                            cpu = series_cpu(
                                tree, bots, args.games, args.variant, args.seed, count, mode, cwd
                            )
                            serial[(name, mode, count)].append(cpu)
            print(f"repeat {repeat + 1}/{args.repeats} done", file=sys.stderr)
    report(args, trees, runs, languages, bare, forked)
    if args.series:
        report_series(args, trees, serial)


def decision_cpu(runs: dict[tuple[str, str], list[Run]], name: str, mode: str, i: int) -> float:
    """Repeat ``i``'s CPU per extra decision of the long match over the short one."""
    short, long = runs[(name, mode)][i], runs[(name, f"{mode} long")][i]
    return (long.cpu_s - short.cpu_s) / max(1, long.decisions - short.decisions)


def spread(values: Sequence[float]) -> str:
    """The middle half of ``values`` (quartiles) and their extremes, as ratios."""
    if len(values) < 4:
        return ", ".join(f"{v:.2f}x" for v in sorted(values))
    q1, _, q3 = statistics.quantiles(values, n=4)
    return f"quartiles {q1:.2f}x-{q3:.2f}x, all {min(values):.2f}x-{max(values):.2f}x"


def per_extra_decision(
    runs: dict[tuple[str, str], list[Run]], name: str, mode: str, figure: Callable[[Run], float]
) -> float:
    """The median of ``figure`` over the long matches less over the short ones, per extra
    decision."""
    short, long = runs[(name, mode)], runs[(name, f"{mode} long")]
    extra = long[0].decisions - short[0].decisions
    return (median([figure(r) for r in long]) - median([figure(r) for r in short])) / max(1, extra)


def page_faults(run: Run) -> float:
    assert run.page_faults is not None  # counted where a memory cgroup could be made
    return run.page_faults


def report(
    args: argparse.Namespace,
    trees: dict[str, Path],
    runs: dict[tuple[str, str], list[Run]],
    languages: Sequence[str],
    bare: dict[str, list[float]],
    forked: dict[str, list[float]],
) -> None:
    def cpu(name: str, label: str) -> float:
        return median([r.cpu_s for r in runs[(name, label)]])

    print(
        f"{args.variant}, bots {args.bots}, {args.repeats} repeats, medians; CPU of the whole "
        "process tree (cpuacct)"
    )
    for name in trees:
        sandboxed, local = cpu(name, "sandboxed"), cpu(name, "in process")
        print(f"\n[{name}] {trees[name]}")
        shot = [
            a.cpu_s / b.cpu_s
            for a, b in zip(runs[(name, "sandboxed")], runs[(name, "in process")], strict=True)
        ]
        print(
            f"  {args.games}-game match: sandboxed {sandboxed:.3f} s, in process {local:.3f} s, "
            f"ratio {sandboxed / local:.2f}x (each repeat's own: {spread(shot)})"
        )
        least = min(bare[name])
        print(
            f"  a Python bot's bare start (its runtime's Python and the kit's imports, no "
            f"sandbox, no decision): {1000 * least:.1f} ms; the in-process match plus "
            f"{len(args.bots.split(','))} of them: "
            f"{(local + len(args.bots.split(',')) * least) / local:.2f}x the in-process match"
        )
        print(
            f"  a child forked from a process that has made those imports, making its bot "
            f"(what a fork server would pay a bot instead): {1000 * median(forked[name]):.1f} ms"
        )
        modes = ("sandboxed", "in process")
        extra = {mode: per_extra_decision(runs, name, mode, lambda r: r.cpu_s) for mode in modes}
        per_repeat = [
            decision_cpu(runs, name, "sandboxed", i) / decision_cpu(runs, name, "in process", i)
            for i in range(len(runs[(name, "sandboxed")]))
        ]
        print(
            f"  per decision: sandboxed {1000 * extra['sandboxed']:.3f} ms, in process "
            f"{1000 * extra['in process']:.3f} ms, ratio "
            f"{extra['sandboxed'] / extra['in process']:.2f}x (each repeat's own: "
            f"{spread(per_repeat)})"
        )
        measured = [*modes, *(f"{mode} long" for mode in modes)]
        if all(r.page_faults is not None for label in measured for r in runs[(name, label)]):
            faults = {mode: per_extra_decision(runs, name, mode, page_faults) for mode in modes}
            print(
                f"  page faults per decision (the whole tree; a count, not a time: the same "
                f"from run to run): sandboxed {faults['sandboxed']:.2f}, in process "
                f"{faults['in process']:.2f}"
            )
        if args.duplicate:
            duplicate, single = cpu(name, "duplicate"), cpu(name, "single deals")
            print(
                f"  duplicate deals (fresh processes per rotation) {duplicate:.3f} s against "
                f"single deals {single:.3f} s: {duplicate / single:.2f}x"
            )
        floor = cpu(name, "two in process")
        for language in languages:
            label = f"start {language}"
            start = cpu(name, label) - floor
            hello = median([max(r.start_ms.values(), default=0.0) for r in runs[(name, label)]])
            print(
                f"  start {language:<10}: {1000 * start:7.1f} ms CPU, launch to hello "
                f"{hello:6.1f} ms"
            )
    names = list(trees)
    if len(names) > 1:
        first = names[0]
        print(f"\nratios [{first}] / [other] (below 1: [{first}] takes less CPU):")
        labels = ["sandboxed", "in process"]
        if args.duplicate:
            labels.append("duplicate")
        labels += [f"start {language}" for language in languages]
        for other in names[1:]:
            for label in labels:
                ours, theirs = cpu(first, label), cpu(other, label)
                if label.startswith("start"):
                    ours -= cpu(first, "two in process")
                    theirs -= cpu(other, "two in process")
                print(f"  {label:<18} [{first}] / [{other}]: {ours / theirs:.2f}x")


def report_series(
    args: argparse.Namespace,
    trees: dict[str, Path],
    serial: dict[tuple[str, str, int], list[float]],
) -> None:
    """A worker's figure: the marginal CPU of a match in a process that plays many."""
    print(
        f"\na worker's matches: {args.games}-game matches, the CPU of {1 + args.series} in one "
        f"process less that of 1, per match (medians)"
    )
    for name in trees:
        marginal = {}
        for mode in ("in process", "warm"):
            one, many = serial.get((name, mode, 1)), serial.get((name, mode, 1 + args.series))
            if one and many:
                marginal[mode] = (median(many) - median(one)) / args.series
        if "in process" not in marginal:
            continue
        local = marginal["in process"]
        line = f"  [{name}] in process {1000 * local:.0f} ms"
        if "warm" in marginal:
            warm = marginal["warm"]
            line += f", sandboxed warm {1000 * warm:.0f} ms: ratio {warm / local:.2f}x"
        print(line)


if __name__ == "__main__":
    main()
