"""What a match's clean-up costs: four sandboxed bots started, then all ended as the line-up ends
them; looks at /proc (whole scans and per-process status reads) while starting and while
ending, the CPU time of the ending (a cpuacct cgroup around the whole process tree: the runner
and every bot) and its wall time.

    nice -n 10 .venv/bin/python benchmarks/sandbox_cleanup.py [--runs 5] [--bots 4] [--compare REV]

``--compare REV`` measures the sandbox of the git revision REV as well (its ``arena/`` taken
with ``git archive``), alternating with this tree's in one run, and prints the ratios. Each
measurement is a fresh process in a cgroup of its own; a first round of each is not counted
(the runtime, the page cache, the uid lock files). Run as root: the bots get uids of their own.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

from arena.sandbox import ensure_runtime

ROOT = Path(__file__).resolve().parent.parent
CPUACCT = Path("/sys/fs/cgroup/cpuacct")

#: One measurement, run in its own process with ``arena`` from the tree under test.
CHILD = r"""
import json, os, sys, tempfile, time
from pathlib import Path
# The tree under test, not the one an editable install points at.
sys.meta_path[:] = [f for f in sys.meta_path if "__editable__" not in str(f.__module__)]
sys.path.insert(0, sys.argv[2])
from arena import sandbox
from arena.sandbox import LaunchSpec, launch, uids

counts = {"scans": 0, "reads": 0}
real_pids, real_uid = uids._pids, uids._real_uid
def pids():
    counts["scans"] += 1
    return real_pids()
def real(pid):
    counts["reads"] += 1
    return real_uid(pid)
uids._pids, uids._real_uid = pids, real

def usage():
    for line in open("/proc/self/cgroup"):
        _, controllers, path = line.rstrip("\n").split(":", 2)
        if "cpuacct" in controllers.split(","):
            where = Path("/sys/fs/cgroup/cpuacct", path.lstrip("/"), "cpuacct.usage")
            return int(where.read_text())
    raise SystemExit("no cpuacct cgroup")

folder = Path(tempfile.mkdtemp(prefix="nimmt-cleanup-"))
folder.chmod(0o711)
bot_dir = folder / "bot"
bot_dir.mkdir(mode=0o755)
(bot_dir / "bot.py").write_text("import time\nprint('up', flush=True)\ntime.sleep(120)\n")
(bot_dir / "bot.py").chmod(0o644)
count = int(sys.argv[1])
specs = [
    LaunchSpec(["python3", "bot.py"], bot_dir, None, folder / f"bot{n}.log") for n in range(count)
]
bots = [launch(spec) for spec in specs]
started = dict(counts)
for bot in bots:
    while "up" not in bot.log_text():
        time.sleep(0.005)
counts.update(scans=0, reads=0)
cpu, wall = usage(), time.perf_counter()
if hasattr(sandbox, "end_all"):
    sandbox.end_all(bots)
else:  # as the line-up ended them before: one after the other
    for bot in bots:
        bot.kill()
cpu, wall = usage() - cpu, time.perf_counter() - wall
assert sandbox.__file__.startswith(sys.argv[2]), sandbox.__file__
print(json.dumps({
    "start scans": started["scans"], "start status reads": started["reads"],
    "end scans": counts["scans"], "end status reads": counts["reads"],
    "end CPU ms": cpu / 1e6, "end wall ms": wall * 1000,
}))
"""


def measure(tree: Path, bots: int, name: str) -> dict[str, float]:
    """One measurement in a fresh process inside a new cpuacct cgroup."""
    cgroup = CPUACCT / name
    cgroup.mkdir()
    try:

        def enter() -> None:  # before exec: every process of the tree is counted
            (cgroup / "cgroup.procs").write_text(str(os.getpid()))

        env = {**os.environ, "PYTHONPATH": str(tree), "NIMMT_RUNTIME_DIR": str(ensure_runtime())}
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(bots), str(tree)],
            env=env,
            capture_output=True,
            text=True,
            preexec_fn=enter,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(f"{tree}: the measurement failed:\n{done.stderr}")
        figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
        return figures
    finally:
        cgroup.rmdir()


def tree_of(revision: str, into: Path) -> Path:
    """``arena/`` of ``revision`` unpacked under ``into`` (the repository is not touched)."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", revision, "arena"],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    for built in (ROOT / "arena").rglob("*.so"):  # compiled helpers, as this tree has them
        target = into / built.relative_to(ROOT)
        if target.parent.is_dir() and not target.exists():
            shutil.copy2(built, target)
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bots", type=int, default=4)
    parser.add_argument("--compare", metavar="REV", help="a git revision to measure beside")
    args = parser.parse_args()
    if os.geteuid() != 0 or not CPUACCT.is_dir():
        raise SystemExit("run as root on a machine with a cgroup v1 cpuacct hierarchy")

    scratch = Path(tempfile.mkdtemp(prefix="nimmt-cleanup-bench-"))
    try:
        trees = {"this tree": ROOT}
        if args.compare:
            trees = {args.compare: tree_of(args.compare, scratch / "base"), **trees}
        results: dict[str, list[dict[str, float]]] = {label: [] for label in trees}
        for run in range(args.runs + 1):
            for label, tree in trees.items():
                figures = measure(tree, args.bots, f"nimmt-bench-{os.getpid()}-{run}-{len(label)}")
                if run:  # the first round warms up
                    results[label].append(figures)
        print(f"{args.bots} sandboxed bots ended at once, {args.runs} runs each (medians)")
        keys = list(next(iter(results.values()))[0])
        print(f"  {'':<22}" + "".join(f"{label:>14}" for label in trees))
        for key in keys:
            medians = [statistics.median(r[key] for r in results[label]) for label in trees]
            print(f"  {key:<22}" + "".join(f"{value:>14.1f}" for value in medians))
        if args.compare:
            before, after = (results[label] for label in trees)
            for key in ("end CPU ms", "end wall ms"):
                ratio = statistics.median(r[key] for r in before) / max(
                    statistics.median(r[key] for r in after), 1e-9
                )
                print(f"  {key}: {args.compare} / this tree = {ratio:.2f}x")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
