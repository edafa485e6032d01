"""Bot strength: a round robin of the house bots on duplicate deals, at equal time per decision.

    nice -n 10 python benchmarks/strength.py [--bots search,mcs,flat,heuristic,random]
        [--tables basic:4,classic:2,...] [--pairs search-mcs,search-flat] [--deals N]
        [--ms 30] [--clock cpu|wall] [--jobs J] [--seed S] [--every N] [--json PATH]
        [--first-deal K]
    python benchmarks/strength.py --combine PATH [PATH ...]

**Tables.** By default every variant at 4 players, and the card game also at 2 and 5.

**Pairs, duplicate deals.** Every pair of bots A, B plays the same ``--deals`` deals (the same
deals for every pair). A deal is played once per distinct rotation of the seating
``A B A B ...``: at 4 players ``A B A B`` and ``B A B A`` (two seats against two, each bot in
every seat once), at 2 players ``A B`` and ``B A``, at 5 players the five rotations of
``A B A B A``. The luck of the deal thus falls alike on both bots. A deal's *paired difference*
is A's mean score over its seats in those games less B's.

**Equal time.** The searching bots (``search``, ``mcs`` and the ``flat`` baseline of
:mod:`benchmarks.flat_mc`) get ``ms=--ms`` per decision on clock ``--clock``; the default,
``cpu``, counts this process's processor time, so a busy machine gives every bot the same
computing (:mod:`arena.bots.timing`). ``heuristic`` and ``random`` take no time worth counting.
Any other options go in the spec: ``--bots mcs:objective=score,flat``.

**A bot of your own.** ``--program NAME=PATH`` plays the Python bot program ``PATH`` (its file,
e.g. ``bots/starter-python/bot.py``, whose bot class runs in process) as bot ``NAME``:
``--program starter=bots/starter-python/bot.py --bots starter,heuristic,random``.

**Figures.** Deals are played deal by deal across all tables and pairs, so a run stopped
early (``--every N`` prints the tables so far every ``N`` deals) is a smaller run of the same
design. Per table: each bot's mean score per game over all its pairings with a 95%
interval (over deals; normal approximation, :mod:`arena.stats`); for every pair the mean paired
difference with its 95% interval and which bot it shows to be better (card game: fewer points
is better), or ``level`` when the interval contains zero; and each bot's time per decision
(p50, p95, max on the wall clock and on the processor clock, decisions with a choice only).

**Runs in parts.** ``--first-deal K --deals N`` plays deals ``K .. K+N-1`` of the same design,
and ``--json PATH`` keeps a part's results (every deal's scores, the decision times as a
histogram in 0.1 ms bins, the run's seed, budget, clock and the commit it ran on). ``--combine``
prints the tables of several parts together: it refuses parts of different seeds, budgets or
clocks and a deal played twice, and names the commits the parts ran on, so that a long round
robin can be played over several sittings and still be read as one run.

Deal ``d`` of a run with seed ``S`` is ``Game.new(variant, players, seed=S * 100003 + d)``; bot
seeds follow :func:`arena.local.bot_seed`, so a run is reproducible (on the ``cpu`` clock up to
the work a time budget buys) and ``--jobs`` changes nothing but the time it takes.

**The kept run.** ``benchmarks/results/strength-30ms-cpu/`` holds the parts of the round robin
of ``search,mcs,flat,heuristic,random`` (seed 1, 30 ms CPU; its ``README.md`` has the combined
tables): the search bot's pairs and ``mcs - flat`` at each 4-player table, 300 deals, one file
per table named after it, played with::

    nice -n 19 python benchmarks/strength.py --bots search,mcs,flat,heuristic \
        --pairs search-mcs,search-heuristic,search-flat,mcs-flat --tables pro+luck:4 \
        --deals 300 --first-deal 0 --jobs 2 --every 25 --json pro-luck-4.json

the other pairs of the 4-player tables, 150 deals (``others-4.json``: ``--pairs
search-random,mcs-heuristic,mcs-random,flat-heuristic,flat-random,heuristic-random --tables
basic:4,basic+luck:4,pro:4,pro+luck:4,classic:4``), and every pair in the card game at 2 and 5
players, 100 deals (``classic-2-5.json``: ``--tables classic:2,classic:5``); the last two were
each run with ``--jobs 1`` beside the other and stopped after a whole checkpoint. Then::

    python benchmarks/strength.py --combine benchmarks/results/strength-30ms-cpu/*.json

A part stopped early keeps the deals it finished (the file is replaced every ``--every``
deals); the next sitting plays on with ``--first-deal`` and keeps its own file beside it.
Wall-clock times: those of ``basic-4.json`` include 36 minutes when the run was paused
(stopped and continued, to keep the machine quiet for another benchmark), and the last two
parts ran beside test runs at the lowest priority (wall p95 up to 61 ms, max seconds); only the
CPU-clock times, the budget's clock, are the bots' own there. The per-table files were played
on a quiet machine (search's CPU p95 30.2 ms; wall p95 30.9 to 31.2 ms in the four that were
not paused).
"""

import argparse
import importlib.util
import inspect
import json
import math
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.bots.base import Bot, GameInfo
from arena.bots.registry import make_bot
from arena.engine.decisions import Decision
from arena.engine.game import Game
from arena.engine.observation import Observation, observe
from arena.engine.variants import VARIANT_NAMES
from arena.engine.variants import variant as get_variant
from arena.local import bot_seed
from arena.stats import confidence95, mean
from benchmarks.flat_mc import FlatMonteCarloBot

DEFAULT_BOTS = "search,mcs,flat,heuristic,random"
DEFAULT_TABLES = ",".join([*(f"{v}:4" for v in VARIANT_NAMES), "classic:2", "classic:5"])
#: Bots that take a time budget per decision (``ms=``, ``clock=``).
TIMED = ("search", "mcs", "flat")


#: The bot programs named with ``--program``: name -> the program's Python file (worker
#: processes, forked, inherit it).
PROGRAMS: dict[str, Path] = {}


def make(spec: str) -> Bot:
    """A house bot from its spec, the ``flat`` baseline, or a ``--program``."""
    name, _, options = spec.partition(":")
    if name in PROGRAMS:
        return program_bot(PROGRAMS[name])
    return FlatMonteCarloBot(options) if name == "flat" else make_bot(spec)


def program_bot(path: Path) -> Bot:
    """The bot a Python bot program's file defines (its one :class:`Bot` subclass of its own),
    run in process."""
    module_name = f"nimmt_program_{abs(hash(str(path.resolve())))}"
    module = sys.modules.get(module_name)
    if module is None:
        spec = importlib.util.spec_from_file_location(module_name, path)
        if spec is None or spec.loader is None:
            raise SystemExit(f"--program: cannot load {path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    classes = [
        c
        for c in vars(module).values()
        if inspect.isclass(c) and issubclass(c, Bot) and c.__module__ == module_name
    ]
    if len(classes) != 1:
        raise SystemExit(f"--program: {path} defines {len(classes)} bot classes, not one")
    bot: Bot = classes[0]()
    return bot


def timed_spec(spec: str, ms: float, clock: str) -> str:
    """``spec`` with the run's time budget, for the bots that take one."""
    name, _, options = spec.partition(":")
    if name not in TIMED:
        return spec
    budget = f"ms={ms:g},clock={clock}"
    return f"{name}:{options},{budget}" if options else f"{name}:{budget}"


class _Timed(Bot):
    """A bot whose decisions with a choice are timed on both clocks (milliseconds)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.times: list[tuple[float, float]] = []

    def start_game(self, info: GameInfo) -> None:
        self.bot.start_game(info)

    def decide(self, view: Observation) -> Decision:
        wall, cpu = time.perf_counter(), time.process_time()
        decision = self.bot.decide(view)
        if len(view.legal) > 1:
            self.times.append(
                ((time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000)
            )
        return decision


def seatings(players: int) -> list[tuple[int, ...]]:
    """The distinct rotations of ``A B A B ...`` (0 is A, 1 is B).

    >>> seatings(4), seatings(2), len(seatings(5))
    ([(0, 1, 0, 1), (1, 0, 1, 0)], [(0, 1), (1, 0)], 5)
    """
    pattern = tuple(k % 2 for k in range(players))
    found: list[tuple[int, ...]] = []
    for r in range(players):
        rotated = pattern[r:] + pattern[:r]
        if rotated not in found:
            found.append(rotated)
    return found


@dataclass(frozen=True)
class Job:
    variant: str
    players: int
    a: str
    b: str
    deal: int
    seed: int
    ms: float
    clock: str


@dataclass
class DealResult:
    """One deal of one pair: each bot's mean score over its seats, and its decision times."""

    variant: str
    players: int
    a: str
    b: str
    deal: int
    a_score: float
    b_score: float
    times: dict[str, list[tuple[float, float]]] = field(default_factory=dict)


def play_deal(job: Job) -> DealResult:
    """Every seating of one deal between ``job.a`` and ``job.b``."""
    specs = (timed_spec(job.a, job.ms, job.clock), timed_spec(job.b, job.ms, job.clock))
    scores: tuple[list[float], list[float]] = ([], [])
    times: dict[str, list[tuple[float, float]]] = {job.a: [], job.b: []}
    deal_seed = job.seed * 100003 + job.deal
    for r, seating in enumerate(seatings(job.players)):
        bots = [_Timed(make(specs[side])) for side in seating]
        game = Game.new(job.variant, players=job.players, seed=deal_seed)
        for seat, bot in enumerate(bots):
            info = GameInfo(job.variant, job.players, seat, bot_seed(deal_seed, r, seat))
            bot.start_game(info)
        while (pending := game.pending) is not None:
            views = [observe(game, seat) for seat in pending.seats]
            decisions = [bots[view.seat].decide(view) for view in views]
            for view, decision in zip(views, decisions, strict=True):
                game.apply(view.seat, decision)
        final = game.result().scores
        for seat, side in enumerate(seating):
            scores[side].append(final[seat])
            times[(job.a, job.b)[side]].extend(bots[seat].times)
    return DealResult(
        job.variant, job.players, job.a, job.b, job.deal, mean(scores[0]), mean(scores[1]), times
    )


@dataclass(frozen=True)
class PairLine:
    a: str
    b: str
    deals: int
    difference: float  # mean of A's score less B's, per deal
    ci95: float
    verdict: str  # the better bot's name, or "level"


@dataclass(frozen=True)
class BotLine:
    name: str
    deals: int
    mean_score: float
    ci95: float
    wall_p50: float
    wall_p95: float
    wall_max: float
    cpu_p50: float
    cpu_p95: float
    cpu_max: float


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0..1) by the nearest rank; NaN for no values.

    >>> percentile([5, 1, 3, 2, 4], 0.95), percentile([], 0.5)
    (5, nan)
    """
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def pair_line(results: Sequence["Score"], higher_is_better: bool) -> PairLine:
    diffs = [r.a_score - r.b_score for r in results]
    d, ci = mean(diffs), confidence95(diffs)
    a, b = results[0].a, results[0].b
    verdict = "level"
    if not math.isnan(ci) and abs(d) > ci:
        verdict = a if (d > 0) == higher_is_better else b
    return PairLine(a, b, len(diffs), d, ci, verdict)


TIME_BIN_MS = 0.1  # the resolution of the stored decision times


@dataclass
class Times:
    """Decision times on both clocks as histograms (milliseconds, in ``TIME_BIN_MS`` bins).

    >>> t = Times()
    >>> for ms in (30.04, 30.26, 31.0, 36.2):
    ...     t.add(ms, ms)
    >>> t.percentile("cpu", 0.5), t.percentile("wall", 0.95), t.maximum("cpu"), t.count
    (30.3, 36.2, 36.2, 4)
    >>> Times.from_json(t.to_json()) == t
    True
    """

    wall: Counter[int] = field(default_factory=Counter)
    cpu: Counter[int] = field(default_factory=Counter)

    def add(self, wall_ms: float, cpu_ms: float) -> None:
        self.wall[round(wall_ms / TIME_BIN_MS)] += 1
        self.cpu[round(cpu_ms / TIME_BIN_MS)] += 1

    def merge(self, other: "Times") -> None:
        self.wall.update(other.wall)
        self.cpu.update(other.cpu)

    @property
    def count(self) -> int:
        return sum(self.cpu.values())

    def percentile(self, clock: str, q: float) -> float:
        """The ``q``-quantile by the nearest rank, as :func:`percentile`; NaN for none."""
        bins = self.wall if clock == "wall" else self.cpu
        total = sum(bins.values())
        if not total:
            return math.nan
        rank = min(total, max(1, math.ceil(q * total)))
        seen = 0
        for value in sorted(bins):
            seen += bins[value]
            if seen >= rank:
                return round(value * TIME_BIN_MS, 1)
        raise AssertionError("unreachable: the ranks add up to the total")

    def maximum(self, clock: str) -> float:
        bins = self.wall if clock == "wall" else self.cpu
        return round(max(bins) * TIME_BIN_MS, 1) if bins else math.nan

    def to_json(self) -> dict[str, dict[str, int]]:
        return {
            "wall": {str(k): v for k, v in sorted(self.wall.items())},
            "cpu": {str(k): v for k, v in sorted(self.cpu.items())},
        }

    @classmethod
    def from_json(cls, data: dict[str, dict[str, int]]) -> "Times":
        return cls(
            Counter({int(k): int(v) for k, v in data["wall"].items()}),
            Counter({int(k): int(v) for k, v in data["cpu"].items()}),
        )


@dataclass(frozen=True)
class Score:
    """One deal of one pair: each bot's mean score over its seats."""

    variant: str
    players: int
    a: str
    b: str
    deal: int
    a_score: float
    b_score: float


TimesKey = tuple[str, int, str, str, str]  # variant, players, a, b, the timed bot


@dataclass
class Tally:
    """What a run (or several parts of one) has played: the design, every deal's scores and
    the decision times per table, pair and bot."""

    seed: int
    ms: float
    clock: str
    commits: list[str]
    scores: list[Score] = field(default_factory=list)
    times: dict[TimesKey, Times] = field(default_factory=dict)

    def add(self, result: DealResult) -> None:
        self.scores.append(
            Score(
                result.variant,
                result.players,
                result.a,
                result.b,
                result.deal,
                result.a_score,
                result.b_score,
            )
        )
        for bot, pairs in result.times.items():
            key = (result.variant, result.players, result.a, result.b, bot)
            times = self.times.setdefault(key, Times())
            for wall, cpu in pairs:
                times.add(wall, cpu)

    def merge(self, other: "Tally", source: str = "") -> None:
        """Add a part of the same design; a different design or a deal in both is an error."""
        mine = (self.seed, self.ms, self.clock)
        theirs = (other.seed, other.ms, other.clock)
        if mine != theirs:
            raise ValueError(
                f"{source or 'a part'}: seed, ms and clock {theirs} differ from {mine}; "
                "only parts of one design can be combined"
            )
        played = {(s.variant, s.players, s.a, s.b, s.deal) for s in self.scores}
        twice = [s for s in other.scores if (s.variant, s.players, s.a, s.b, s.deal) in played]
        if twice:
            s = twice[0]
            raise ValueError(
                f"{source or 'a part'}: deal {s.deal} of {s.a} - {s.b} at {s.variant}, "
                f"{s.players} players, is in two parts ({len(twice)} such deals)"
            )
        self.scores.extend(other.scores)
        for key, times in other.times.items():
            self.times.setdefault(key, Times()).merge(times)
        self.commits.extend(c for c in other.commits if c not in self.commits)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "nimmt-strength-1",
            "seed": self.seed,
            "ms": self.ms,
            "clock": self.clock,
            "commits": self.commits,
            "scores": [asdict(s) for s in self.scores],
            "times": [[*key, times.to_json()] for key, times in self.times.items()],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Tally":
        if data.get("format") != "nimmt-strength-1":
            raise ValueError("not a results file of benchmarks/strength.py (nimmt-strength-1)")
        tally = cls(int(data["seed"]), float(data["ms"]), str(data["clock"]), list(data["commits"]))
        tally.scores = [Score(**s) for s in data["scores"]]
        for variant, players, a, b, bot, times in data["times"]:
            tally.times[(variant, int(players), a, b, bot)] = Times.from_json(times)
        return tally

    def print_tables(self, names: Sequence[str]) -> None:
        tables = list(dict.fromkeys((s.variant, s.players) for s in self.scores))
        for variant, players in tables:
            table = [s for s in self.scores if (s.variant, s.players) == (variant, players)]
            pairs = list(dict.fromkeys((s.a, s.b) for s in table))
            better = get_variant(variant).higher_is_better
            lines = [pair_line([s for s in table if (s.a, s.b) == p], better) for p in pairs]
            timed = {k: t for k, t in self.times.items() if k[:2] == (variant, players)}
            title = f"{variant}, {players} players"
            print(report(title, bot_lines(names, table, timed), lines), flush=True)


def commit() -> str:
    """The commit this runs on, ``+`` if the tree has changes; ``unknown`` outside git."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parent,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parent,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+" if dirty else "")


def bot_lines(
    names: Iterable[str], scores: Sequence[Score], timed: dict[TimesKey, Times]
) -> list[BotLine]:
    lines = []
    for name in names:
        own = [s.a_score for s in scores if s.a == name]
        own += [s.b_score for s in scores if s.b == name]
        if not own:
            continue
        times = Times()
        for key, part in timed.items():
            if key[4] == name:
                times.merge(part)
        lines.append(
            BotLine(
                name,
                len(own),
                mean(own),
                confidence95(own),
                times.percentile("wall", 0.5),
                times.percentile("wall", 0.95),
                times.maximum("wall"),
                times.percentile("cpu", 0.5),
                times.percentile("cpu", 0.95),
                times.maximum("cpu"),
            )
        )
    return lines


def report(table: str, bots: Sequence[BotLine], pairs: Sequence[PairLine]) -> str:
    width = max(len(b.name) for b in bots)
    out = [f"\n{table}"]
    out.append(
        f"{'bot':<{width}}  deals  mean ± 95% CI    ms/decision wall p50/p95/max   cpu p50/p95/max"
    )
    for b in bots:
        out.append(
            f"{b.name:<{width}}  {b.deals:5d}  {b.mean_score:6.2f} ± {b.ci95:4.2f}"
            f"    {b.wall_p50:6.1f} {b.wall_p95:6.1f} {b.wall_max:7.1f}"
            f"    {b.cpu_p50:6.1f} {b.cpu_p95:6.1f} {b.cpu_max:7.1f}"
        )
    out.append("pair (A - B per deal)           deals  difference ± 95% CI  better")
    for p in pairs:
        label = f"{p.a} - {p.b}"
        out.append(
            f"{label:<31} {p.deals:5d}  {p.difference:+7.2f} ± {p.ci95:5.2f}      {p.verdict}"
        )
    return "\n".join(out)


def parse_tables(text: str) -> list[tuple[str, int]]:
    tables = []
    for item in filter(None, (t.strip() for t in text.split(","))):
        name, _, players = item.partition(":")
        v = get_variant(name)
        n = int(players or 4)
        v.check_players(n)
        tables.append((name, n))
    return tables


def parse_pairs(text: str, bots: Sequence[str]) -> list[tuple[str, str]]:
    if not text:
        return list(combinations(bots, 2))
    pairs = []
    for item in filter(None, (t.strip() for t in text.split(","))):
        a, sep, b = item.partition("-")
        if not sep or not a or not b or a == b:
            raise SystemExit(f"--pairs: {item!r} is not A-B with two different bots")
        pairs.append((a, b))
    return pairs


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--bots", default=DEFAULT_BOTS, help=f"round robin of ({DEFAULT_BOTS})")
    parser.add_argument("--pairs", default="", help="only these pairs: A-B,C-D (default: all)")
    parser.add_argument(
        "--program",
        action="append",
        default=[],
        metavar="NAME=PATH",
        help="a Python bot program's file, played in process as bot NAME",
    )
    parser.add_argument("--tables", default=DEFAULT_TABLES, help="variant:players,...")
    parser.add_argument("--deals", type=int, default=300, help="paired deals per pair (300)")
    parser.add_argument("--first-deal", type=int, default=0, help="the first deal's number (0)")
    parser.add_argument("--ms", type=float, default=30.0, help="ms per decision (30)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    parser.add_argument("--seed", type=int, default=1, help="run seed (1)")
    parser.add_argument("--json", type=Path, help="also keep the results here (for --combine)")
    parser.add_argument(
        "--every", type=int, default=0, help="print the tables so far every N deals (0: at the end)"
    )
    parser.add_argument(
        "--combine", type=Path, nargs="+", metavar="PATH", help="print these parts' tables as one"
    )
    args = parser.parse_args(argv)
    if args.combine:
        combine(args.combine)
        return
    if args.first_deal < 0 or args.deals < 1:
        raise SystemExit("--first-deal must be 0 or more and --deals 1 or more")
    for item in args.program:
        name, sep, path = item.partition("=")
        if not sep or not name or "-" in name or ":" in name or not Path(path).is_file():
            raise SystemExit(f"--program: {item!r} is not NAME=PATH of a file (no - or : in NAME)")
        PROGRAMS[name] = Path(path)
    bots = [s.strip() for s in args.bots.split(",") if s.strip()]
    pairs = parse_pairs(args.pairs, bots)
    for spec in {s for p in pairs for s in p}:
        make(timed_spec(spec, args.ms, args.clock))  # a bad spec fails before any game
    names = list(dict.fromkeys([*bots, *(s for p in pairs for s in p)]))
    tables = parse_tables(args.tables)
    deals = range(args.first_deal, args.first_deal + args.deals)
    # Deal-major order: a run cut short has the same deals for every table and pair so far.
    jobs = [
        Job(variant, players, a, b, d, args.seed, args.ms, args.clock)
        for d in deals
        for variant, players in tables
        for a, b in pairs
    ]
    per_deal = len(tables) * len(pairs)
    every = args.every * per_deal if args.every else len(jobs)
    unit = f"{args.ms:g} ms per decision, {args.clock} clock, seed {args.seed}"
    start = time.perf_counter()
    tally = Tally(args.seed, args.ms, args.clock, [commit()])
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        results = pool.map(play_deal, jobs) if pool else map(play_deal, jobs)
        for done, result in enumerate(results, 1):
            tally.add(result)
            if done % every and done < len(jobs):
                continue
            elapsed = time.perf_counter() - start
            played = done // per_deal
            print(
                f"\n=== {played} of {args.deals} deals (from deal {args.first_deal}), "
                f"{elapsed:.0f} s, {unit}, commit {tally.commits[0]}"
            )
            tally.print_tables(names)
            if args.json:  # whole or not at all: a run stopped while writing keeps the last
                partial = args.json.with_name(args.json.name + ".partial")
                partial.write_text(json.dumps(tally.to_json()))
                partial.replace(args.json)
    finally:
        if pool:
            pool.shutdown(cancel_futures=True)


def combine(paths: Sequence[Path]) -> None:
    """Print the tables of several parts' results files as one run."""
    tally: Tally | None = None
    for path in paths:
        try:
            part = Tally.from_json(json.loads(path.read_text()))
            if tally is None:
                tally = part
            else:
                tally.merge(part, str(path))
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise SystemExit(f"--combine: {path}: {error}") from None
    assert tally is not None
    names = list(dict.fromkeys(n for s in tally.scores for n in (s.a, s.b)))
    deals = sorted({s.deal for s in tally.scores})
    print(
        f"=== {len(paths)} parts, deals {deals[0]}-{deals[-1]} ({len(deals)} deal numbers), "
        f"{tally.ms:g} ms per decision, {tally.clock} clock, seed {tally.seed}, "
        f"commits {', '.join(tally.commits)}"
    )
    tally.print_tables(names)


if __name__ == "__main__":
    main()
