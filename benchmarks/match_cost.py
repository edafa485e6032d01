"""CPU of a match with a cgroup around the whole process tree: sandboxed programs against the
same bots in process, per match and per decision, and a bot's start per language; several
source trees side by side (a change's before and after) in one run, printed as ratios.

    nice -n 10 .venv/bin/python benchmarks/match_cost.py [--repeats 3] [--games 4]
        [--long-games 40] [--bots random,random,heuristic,heuristic] [--variant basic]
        [--duplicate] [--tree NAME=PATH ...] [--languages python,javascript,go,cpp,java]
        [--series 6]

**How CPU is counted.** Each command (``nimmt match ...``, run as ``python -c`` with the tree
first on ``sys.path``) starts in a fresh cgroup of its own under the ``cpuacct`` hierarchy
(v1, ``/sys/fs/cgroup/cpuacct``): its pid is written to ``cgroup.procs`` before it execs, so
everything it starts is counted, the sandboxed bots too (their own cgroups are children of the
runner's, and v1 charges every ancestor). ``cpuacct.usage`` is read once the command has exited:
Python's start, the imports, the bots' launches, the games and the clean-up. Needs root.

**What is printed.** Per tree (``this`` is this checkout; ``--tree before=/tmp/old`` adds an
exported older commit, which builds its own bot runtime the first time), commands alternate
tree by tree and mode by mode within each repeat, so that the machine's load falls alike on all:

1. a ``--games`` match of ``--bots`` (house programs, sandboxed) and the same match
   ``--in-process``: CPU each (median over repeats) and their ratio;
2. per decision: the same two with ``--long-games``; the extra games' CPU over their extra
   decisions (decisions counted in the replays), sandboxed and in process, and the ratio;
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

**Measured** 2026-12-06 on this 2-core machine under a load of 15-17 (other engineers' tests and
builds), ``--repeats 3 --languages python --duplicate --long-games 20 --series 6 --tree
before=<commit 5351829 exported>``, medians; ``this`` = warm bots and main as of this run:

============================================================  ========  ========
figure                                                         this      before
============================================================  ========  ========
4-game match, one-shot CLI: sandboxed / in process (cold)      4.48x     3.62x
   sandboxed, CPU                                              1.383 s   1.354 s
   in process, CPU                                             0.308 s   0.374 s
per decision sandboxed / in process                            7.31x     4.75x
   (0.584 against 0.080 ms; before 0.544 against 0.114 ms)
4-game duplicate match, one-shot CLI, CPU                      3.85 s    3.59 s
start python (CPU; launch to hello 748 against 630 ms)         305 ms    228 ms
a worker's 4-game match, marginal CPU: sandboxed, warm         188 ms    -
a worker's 4-game match, marginal CPU: in process              28 ms     33 ms
============================================================  ========  ========

So a worker with warm bots spends 188 ms of CPU on a 4-game match of four sandboxed Python
bots, 0.14x what the same match costs cold (1.383 s) and 0.61x the one-shot in-process CLI
match (0.308 s, which is mostly Python's start and imports); against the same matches in
process in a long-lived process (28 ms) it is still 6.7x: about 112 ms of it are the match's
192 decisions through the protocol (0.584 ms each), the rest the line-up around a kept process
(a server per seat, the token, thawing, the hello, freezing, the clean-up). The start and
per-decision figures of ``this`` against ``before`` moved with the load of the machine
(before: 250 against 301 ms and 5.77x against 6.13x, measured on a quieter machine); they are
not what warm bots change. Where a sandboxed Python bot's start goes (CPU in its cgroup,
medians of 5, ``arena.sandbox.launch``): the gate and bubblewrap 10 ms, Python itself 10 ms,
``import grpc.aio`` 78 ms, the kit, the engine and a house bot 60 ms more: 157 ms before it
connects, imports ~140 ms of it; cheaper imports would cut a part of that, a kept process all
of it.

**Per decision** (2026-12-06, ``--repeats 9 --long-games 60 --languages none --tree
before=<commit 5351829 exported>``, load average 15-20 from other work on the 2 cores):
sandboxed 0.741 ms against 0.112 ms in process (6.62x); ``before`` 0.718 against 0.107 ms
(6.70x); this/before 1.01x sandboxed and in process, i.e. no change above the noise. The kit
now reads a request in 29 us of CPU instead of 36 us (a mid-game 4-player view, best of 5, side
by side), the referee's plumbing around four timed seats that answer at once costs 2.4-2.6 ms
per basic game instead of 2.7-2.8 ms: both are small beside what the transport costs.

Where a sandboxed decision's CPU goes (the same match in a cgroup, the runner's own CPU apart
from its bots'): the runner ~0.3 ms, the bots ~0.33-0.42 ms, against ~0.115 ms in process for
the whole decision (engine, views and the house bot's own thinking). The floor is gRPC's asyncio
transport itself: a bare aio stream client answering the arena's requests with a fixed
decision costs ~0.13-0.17 ms of CPU per request, and the arena's side ~0.12-0.13 ms with no
conversion at all (writing a prepared message, awaiting the answer's future); a bare aio echo
of 200-byte messages between two processes costs ~0.07 ms per message on each side back to
back, ~0.09 ms when the peer takes 0.2 ms to answer and ~0.12 ms at 1 ms (threads go to sleep
between messages and are woken again: gRPC's poller thread, then the event loop). That floor
on both ends plus the in-process cost already comes to 3.2-3.6x; the 3x per decision of issue
30 needs a cheaper transport path than grpc.aio's (neither gRPC's synchronous API, ~0.11 ms
per message, nor its channel options bdp_probe / retries changed it measurably), not cheaper
Python around it.
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
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
CPUACCT = Path("/sys/fs/cgroup/cpuacct")
LANGUAGES = ("python", "javascript", "go", "cpp", "java")


@dataclass(frozen=True)
class Run:
    cpu_s: float
    wall_s: float
    decisions: int
    start_ms: dict[str, float]  # per program bot: launch to hello (the slowest of its starts)


def in_cgroup(argv: Sequence[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """CPU seconds and wall seconds of ``argv`` and everything it starts."""
    group = CPUACCT / f"matchcost-{os.getpid()}-{secrets.token_hex(4)}"
    group.mkdir()
    procs = str(group / "cgroup.procs")

    def enter() -> None:
        with open(procs, "w") as f:
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
        return int((group / "cpuacct.usage").read_text()) / 1e9, wall
    finally:
        group.rmdir()


def nimmt(tree: Path, args: Sequence[str], cwd: Path) -> Run:
    """``nimmt args`` run from ``tree``; the match's output goes to ``cwd/out``."""
    out = cwd / "out"
    code = f"import sys; sys.path.insert(0, {str(tree)!r}); from arena.cli import main; main()"
    args = [a.replace("{tree}", str(tree)) for a in args]
    argv = [sys.executable, "-c", code, *args, "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cpu, wall = in_cgroup(argv, env, cwd)
    decisions = 0
    for path in out.glob("game-*.json"):
        replay = json.loads(path.read_text())
        decisions += sum(len(t["plays"]) + len(t.get("choices", [])) for t in replay["turns"])
    match = json.loads((out / "match.json").read_text())
    starts = {bot["name"]: bot["start_ms"] for bot in match["bots"] if bot.get("start_ms")}
    return Run(cpu, wall, decisions, starts)


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
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cpu, _ = in_cgroup([sys.executable, "-c", code], env, cwd)
    return cpu


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--long-games", type=int, default=40)
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
    with tempfile.TemporaryDirectory(prefix="match-cost-") as folder:
        warm = [plans["sandboxed"], *(plans[f"start {lang}"] for lang in languages)]
        for tree in trees.values():  # builds and runtimes: made once, not counted
            for plan in warm:
                nimmt(tree, plan, Path(tempfile.mkdtemp(dir=folder)))
        for repeat in range(args.repeats):
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
    report(args, trees, runs, languages)
    if args.series:
        report_series(args, trees, serial)


def report(
    args: argparse.Namespace,
    trees: dict[str, Path],
    runs: dict[tuple[str, str], list[Run]],
    languages: Sequence[str],
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
        print(
            f"  {args.games}-game match: sandboxed {sandboxed:.3f} s, in process {local:.3f} s, "
            f"ratio {sandboxed / local:.2f}x"
        )
        extra = {
            mode: (cpu(name, f"{mode} long") - cpu(name, mode))
            / max(1, runs[(name, f"{mode} long")][0].decisions - runs[(name, mode)][0].decisions)
            for mode in ("sandboxed", "in process")
        }
        print(
            f"  per decision: sandboxed {1000 * extra['sandboxed']:.3f} ms, in process "
            f"{1000 * extra['in process']:.3f} ms, ratio "
            f"{extra['sandboxed'] / extra['in process']:.2f}x"
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
