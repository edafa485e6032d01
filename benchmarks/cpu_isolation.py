"""How much a seat that spins the CPU slows the other seats (printed, never asserted).

    .venv/bin/python benchmarks/cpu_isolation.py [--games 5]

Plays basic matches of a sandboxed ``plain-random`` bot and an in-process random bot: alone,
then beside a sandboxed bot that runs four processes spinning on the CPU all match
long (``tests/protocol/bots/spinners``), once with the bots' CPU quota (``Limits.cpus``, the
cpu cgroup) and once without it (the fallback: every bot at nice 10, which keeps the runner
ahead of the bots but one bot no more than another). It prints the well-behaved
bot's answer times (mean, max), the match's wall time, and the cores the spinner used.

Where the kernel's autogroup scheduling is on (``kernel.sched_autogroup_enabled``) and bots
sit in the root cpu cgroup, each bot's session already gets a fair share without the quota;
the quota bounds the spinner to ``Limits.cpus`` cores whatever the scheduler's setup.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from arena import sandbox
from arena.bots.random import RandomBot
from arena.runner.manifest import load
from arena.runner.match import Entrant, MatchConfig, MatchResult, run_match
from arena.sandbox import cgroups, process

BOTS = Path(__file__).resolve().parent.parent / "tests" / "protocol" / "bots"


LAUNCHED: dict[str, sandbox.BotProcess] = {}
_launch = sandbox.launch


def _recording_launch(spec: sandbox.LaunchSpec) -> sandbox.BotProcess:
    bot = _launch(spec)
    LAUNCHED[spec.log_path.stem] = bot
    return bot


sandbox.launch = _recording_launch  # the runner launches through the facade


def _match(with_spinner: bool, games: int, out: Path) -> MatchResult:
    lineup = [Entrant("plain-random", program=load(BOTS / "plain-random"))]
    if with_spinner:
        lineup.append(Entrant("spinners", program=load(BOTS / "spinners")))
    lineup.append(Entrant("random", in_process=RandomBot))
    config = MatchConfig(variant="basic", games=games, seed=7, decision_ms=2000, bank_ms=0, out=out)
    return run_match(config, lineup)


def _line(title: str, result: MatchResult) -> str:
    calm = next(bot for bot in result.bots if bot.name == "plain-random")
    mean = calm.think_mean_ms or 0.0
    line = (
        f"  {title:<32} answers mean {mean:5.1f} ms, max {calm.think_max_ms:5.1f} ms "
        f"({calm.answers} answers, match {result.duration_s:4.1f} s)"
    )
    spinner = LAUNCHED.pop("spinners", None)
    if spinner is not None and spinner.cpu_seconds is not None:
        line += f"; the spinner used {spinner.cpu_seconds / result.duration_s:.2f} cores"
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    print("layers:", ", ".join(name for name, on in sandbox.layers().items() if on))
    with tempfile.TemporaryDirectory(prefix="nimmt-bench-cpu-") as tmp:
        root = Path(tmp)
        print("plain-random's answers (sandboxed, basic):")
        print(_line("alone", _match(False, args.games, root / "alone")))
        if sandbox.layers()["cpu"]:
            result = _match(True, args.games, root / "quota")
            print(_line("beside 4 spinners, CPU quota", result))
        rest = tuple(name for name in cgroups.CONTROLLERS if name != "cpu")
        # As on a machine without the cpu controller (cpuacct still counts the CPU time).
        cgroups.CONTROLLERS = rest
        process.CONTROLLERS = rest  # type: ignore[attr-defined]
        result = _match(True, args.games, root / "nice")
        print(_line("beside 4 spinners, nice 10 only", result))


if __name__ == "__main__":
    main()
