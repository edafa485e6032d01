"""How fast each rating finds a ladder's true order: Elo, OpenSkill and Margin, single and
duplicate matches, on real games between bots of known strength.

    python -m benchmarks.ratings                           # from the project's root
    python -m benchmarks.ratings --runs 4 --games 1200     # a quick look

**The bots.** ``--bots`` house heuristic bots (:mod:`arena.bots.heuristic`), each of which plays
a uniformly random legal move instead of its own with a fixed probability (0 for the best, up
to 0.9): the noise level sets the strength. Real games, in process, with the real engine: a
4-player basic game takes about 10 ms here, so the simulation plays real games rather than
drawing scores from a model (a model of our own would flatter the rating built on it).

**The true order.** A long round robin on duplicate deals: every table of four bots plays
``--truth-deals`` deals, each in all four seat rotations; a bot's true strength is its mean
points per game above its table. The standard errors are printed: the order is only as true as
its gaps are wide, and the run says so if two bots are closer than three standard errors.

**The ladder.** Each run is one ladder: matches are made by the real scheduler's pairing
(:func:`matches.scheduler.pick_lineup`: the bot with the fewest games first, opponents among the
``RATING_NEIGHBOURS`` nearest in the ladder's rating, seats shuffled) and rated by the real
calculators (:mod:`ladders.rating`), matches taken whole as the site takes them
(:func:`ladders.rating.match_deals`, :func:`arena.runner.results.match_ranks`). A *single* match
is one game (``GAMES_PER_MATCH = 1``); a *duplicate* match is one deal played in every seat
rotation (four games), seated exactly as the site's duplicate matches are
(:func:`arena.local.series_game`). The three ratings learn from the same games of a run,
so they are compared on equal luck; the x axis counts games played, never matches.

**The figure.** Kendall's tau between each rating's order and the true order, averaged over
``--runs`` independent ladders, every ``--step`` games; and for each of the six combinations the
number of games after which the mean tau reaches 0.9 and stays there.

**Figures** (2026-12-01, this 2-core machine, ``--runs 24 --games 1600 --step 20``, 8 bots,
basic, 4 seats, pairing by Margin; 12 minutes). Games until the mean tau reaches 0.9 and
stays there:

=========================  ================  ===================
rating                     single matches    duplicate matches
=========================  ================  ===================
Elo                        not in 1600       220
OpenSkill                  1160              600
Margin                     160               140
=========================  ================  ===================

Elo on single games never settles above 0.9 (its K keeps it wandering: tau 0.85–0.90 from
300 games on); Margin gets there in under a tenth of those games, duplicate or not, and
duplicate matches help every rating. The true order's closest pair (noise 0.8 and 0.9) is
0.27 points per game apart, within 3 standard errors: tau 0.9 with 8 bots allows one wrong
pair of the 28, which that pair usually is. Pairing by Elo instead (``--pair-by elo``,
8 runs) changes little: Margin 160 and 180, Elo on single games not within 1600, Elo duplicate
260, OpenSkill 1240 and 440.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import combinations, pairwise
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
for folder in (REPO, REPO / "platform"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))


def _django() -> None:
    """The scheduler and the bridge are Django modules: load the site's settings (no database
    or broker is touched)."""
    defaults = {
        "NIMMT_DATABASE_URL": "postgres://postgres@127.0.0.1:5432/nimmt_unused",
        "NIMMT_BROKER_URL": "redis://127.0.0.1:6379/15",
        "NIMMT_SECRET_KEY": "benchmark-only-secret-key-0123456789-abcdefghijklmnop",
        "NIMMT_DEBUG": "false",
        "NIMMT_LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    for key, value in defaults.items():
        os.environ.setdefault(key, value)
    import django

    django.setup()


_django()

from django.conf import settings  # noqa: E402
from ladders.rating import (  # noqa: E402
    EloCalculator,
    EloRating,
    MarginCalculator,
    MarginRating,
    SkillCalculator,
    SkillRating,
    match_deals,
)
from matches.scheduler import pick_lineup  # noqa: E402

from arena.bots.base import Bot, GameInfo  # noqa: E402
from arena.bots.heuristic import HeuristicBot  # noqa: E402
from arena.engine.decisions import Decision  # noqa: E402
from arena.engine.observation import Observation  # noqa: E402
from arena.engine.variants import variant as get_variant  # noqa: E402
from arena.local import play_game, series_game  # noqa: E402
from arena.runner.results import Ranking, match_ranks  # noqa: E402

VARIANT = "basic"
PLAYERS = 4
NOISE = (0.0, 0.2, 0.35, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0)
SYSTEMS = ("elo", "openskill", "margin")
TARGET = 0.9


class NoisyHeuristic(Bot):
    """The heuristic bot, but with probability ``noise`` a uniformly random legal decision."""

    def __init__(self, noise: float) -> None:
        self.noise = noise
        self.inner = HeuristicBot()
        self.rng = random.Random(0)

    def start_game(self, info: GameInfo) -> None:
        self.rng = random.Random(info.seed)
        self.inner.start_game(info)

    def decide(self, view: Observation) -> Decision:
        if self.rng.random() < self.noise:
            return self.rng.choice(view.legal)
        return self.inner.decide(view)


@dataclass(frozen=True)
class Played:
    """A match as the site stores it: per entrant (lineup order) its points per deal and its
    rank in every game."""

    deal_scores: tuple[tuple[int, ...], ...]
    game_ranks: tuple[tuple[int, ...], ...]

    @property
    def games(self) -> int:
        return len(self.game_ranks[0])


def play(noise: Sequence[float], lineup: Sequence[int], seed: int, duplicate: bool) -> Played:
    """Play one ladder match of the bots ``lineup`` (indexes into ``noise``), seated as the site
    seats a match: a single game, or one deal in every rotation."""
    n = len(lineup)
    plan = [series_game(0, i, n, duplicate=True) for i in range(n if duplicate else 1)]
    points = [[0] for _ in range(n)]  # one deal
    ranks: list[list[int]] = [[] for _ in range(n)]
    for number, (seats, deal) in enumerate((game.seats, game.deal) for game in plan):
        bots = [NoisyHeuristic(noise[lineup[entry]]) for entry in seats]
        bot_seeds = [random.Random(f"{seed}:{number}:{seat}").getrandbits(63) for seat in range(n)]
        result = play_game(
            VARIANT, bots, seed=seed + deal, bot_seeds=bot_seeds, names=[str(e) for e in seats]
        ).result
        for seat, entry in enumerate(seats):
            points[entry][deal] += result.scores[seat]
            ranks[entry].append(result.ranks[seat])
    return Played(tuple(map(tuple, points)), tuple(map(tuple, ranks)))


# ---------------------------------------------------------------------------- the true order


def _truth_table(job: tuple[tuple[float, ...], tuple[int, ...], int]) -> list[tuple[int, float]]:
    noise, table, seed = job
    played = play(noise, table, seed, duplicate=True)
    totals = [sum(p) / played.games for p in played.deal_scores]
    mean = sum(totals) / len(totals)
    return [(bot, total - mean) for bot, total in zip(table, totals, strict=True)]


def true_strengths(
    noise: tuple[float, ...], deals: int, pool: ProcessPoolExecutor
) -> tuple[list[float], list[float], float]:
    """Each bot's mean points per game above its table over the duplicate round robin, the
    standard errors, and the residual spread per game of a duplicate deal (beta_duplicate)."""
    sign = 1 if get_variant(VARIANT).higher_is_better else -1
    jobs = [
        (noise, table, 1_000_003 * deal + 7)
        for table in combinations(range(len(noise)), PLAYERS)
        for deal in range(deals)
    ]
    samples: list[list[float]] = [[] for _ in noise]
    for out in pool.map(_truth_table, jobs, chunksize=8):
        for bot, edge in out:
            samples[bot].append(sign * edge)
    means = [statistics.fmean(s) for s in samples]
    errors = [statistics.stdev(s) / math.sqrt(len(s)) for s in samples]
    # The spread of a bot's edge around its mean, per game (a deal's edge averages PLAYERS games).
    residual = statistics.fmean(statistics.pvariance(s) for s in samples)
    return means, errors, math.sqrt(residual * PLAYERS)


# ---------------------------------------------------------------------------- the ladder


def kendall_tau(truth: Sequence[float], values: Sequence[float]) -> float:
    """Kendall's tau-b between two orders of the same bots (ties in ``values`` count as half
    right and half wrong, so a ladder that has learnt nothing scores 0)."""
    concordant = discordant = ties = 0
    for i, j in combinations(range(len(truth)), 2):
        product = (truth[i] - truth[j]) * (values[i] - values[j])
        if product > 0:
            concordant += 1
        elif product < 0:
            discordant += 1
        elif values[i] == values[j]:
            ties += 1
    pairs = concordant + discordant + ties
    denominator = math.sqrt(pairs * (pairs - ties)) if pairs > ties else 0.0
    return (concordant - discordant) / denominator if denominator else 0.0


@dataclass(frozen=True)
class Run:
    noise: tuple[float, ...]
    truth: tuple[float, ...]
    duplicate: bool
    seed: int
    games: int
    step: int
    pair_by: str


def ladder_run(run: Run) -> dict[str, list[float]]:
    """One simulated ladder: tau of each rating after every ``step`` games."""
    rng = random.Random(run.seed)
    higher = get_variant(VARIANT).higher_is_better
    elo_calc, skill_calc, margin_calc = EloCalculator(), SkillCalculator(), MarginCalculator()
    n = len(run.noise)
    names = [f"bot{i}" for i in range(n)]
    elo = {b: elo_calc.rating(b) for b in names}
    skill = {b: skill_calc.rating(b) for b in names}
    margin = {b: margin_calc.rating(b) for b in names}
    played = [0] * n
    taus: dict[str, list[float]] = {system: [] for system in SYSTEMS}
    games = 0
    next_check = run.step
    while games < run.games:
        value = {
            "elo": [elo[b].value for b in names],
            "openskill": [skill[b].value for b in names],
            "margin": [margin[b].value for b in names],
        }[run.pair_by]
        order = sorted(range(n), key=lambda b: (played[b], rng.random()))
        lineup = pick_lineup(
            order[0],
            order,
            dict(enumerate(value)),
            Counter(),  # no daily cap: nobody has met anybody "today"
            size=PLAYERS,
            neighbours=settings.RATING_NEIGHBOURS,
            pair_cap=1,
            rng=rng,
        )
        assert lineup is not None
        rng.shuffle(lineup)
        match = play(run.noise, lineup, rng.randrange(2**31), run.duplicate)
        ranks = match_ranks(
            match.game_ranks,
            Ranking.of(len(match.game_ranks[0]), run.duplicate),
            [sum(points) for points in match.deal_scores],
            higher,
        )
        seated = [names[b] for b in lineup]
        for r in elo_calc.rate([elo[b] for b in seated], ranks):
            elo[r.bot_id] = r
        for s in skill_calc.rate([skill[b] for b in seated], ranks):
            skill[s.bot_id] = s
        deals = match_deals(
            match.deal_scores, rotations=PLAYERS if run.duplicate else 1, higher_is_better=higher
        )
        for m in margin_calc.rate([margin[b] for b in seated], deals):
            margin[m.bot_id] = m
        for b in lineup:
            played[b] += 1
        games += match.games
        while games >= next_check and next_check <= run.games:
            records: dict[str, Sequence[EloRating | SkillRating | MarginRating]] = {
                "elo": [elo[b] for b in names],
                "openskill": [skill[b] for b in names],
                "margin": [margin[b] for b in names],
            }
            for system, rows in records.items():
                taus[system].append(kendall_tau(run.truth, [r.value for r in rows]))
            next_check += run.step
    return taus


# ---------------------------------------------------------------------------- report


def games_to_target(curve: Sequence[float], step: int) -> int | None:
    """Games after which the curve reaches TARGET and stays there (None: never within the run)."""
    for index in range(len(curve)):
        if all(tau >= TARGET for tau in curve[index:]):
            return (index + 1) * step
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, default=8, help="bots on the ladder (at most 10)")
    parser.add_argument("--runs", type=int, default=8, help="independent ladders per setting")
    parser.add_argument("--games", type=int, default=2400, help="games per ladder")
    parser.add_argument("--step", type=int, default=40, help="games between two looks")
    parser.add_argument("--truth-deals", type=int, default=20, help="deals per table, truth")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--pair-by", choices=SYSTEMS, default="margin")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not PLAYERS <= args.bots <= len(NOISE):
        parser.error(f"--bots must be {PLAYERS}..{len(NOISE)}")
    if args.step <= 0 or args.step % PLAYERS:
        parser.error(f"--step must be a positive multiple of {PLAYERS}")
    noise = NOISE[: args.bots]
    started = time.time()
    with ProcessPoolExecutor(args.jobs) as pool:
        truth, errors, beta_duplicate = true_strengths(noise, args.truth_deals, pool)
        truth_s = time.time() - started
        print(f"True order: {args.truth_deals} duplicate deals per table of {PLAYERS}, "
              f"{VARIANT} ({truth_s:.0f} s)")  # fmt: skip
        print("  noise   points/game above the table   (± standard error)")
        for level, strength, error in sorted(zip(noise, truth, errors, strict=True)):
            print(f"  {level:5.2f}   {strength:+7.2f}  ± {error:.2f}")
        ranked = sorted(range(len(noise)), key=lambda b: -truth[b])
        for a, b in pairwise(ranked):
            gap = truth[a] - truth[b]
            if gap < 3 * math.hypot(errors[a], errors[b]):
                print(f"  warning: noise {noise[a]} and {noise[b]} differ by less than 3 SE")
        print(f"  residual spread of a duplicate deal: {beta_duplicate:.1f} points per game")
        runs = [
            Run(
                noise,
                tuple(truth),
                duplicate,
                args.seed * 1000 + r,
                args.games,
                args.step,
                args.pair_by,
            )
            for duplicate in (False, True)
            for r in range(args.runs)
        ]
        results = list(pool.map(ladder_run, runs))
    curves: dict[tuple[str, bool], list[float]] = {}
    for duplicate in (False, True):
        mine = [res for run, res in zip(runs, results, strict=True) if run.duplicate == duplicate]
        for system in SYSTEMS:
            per_run = [res[system] for res in mine]
            curves[system, duplicate] = [statistics.fmean(c) for c in zip(*per_run, strict=True)]
    print(f"\nLadder: {args.bots} bots, {PLAYERS} seats, {args.runs} runs per setting, pairing by "
          f"{args.pair_by}; mean Kendall tau vs the true order")  # fmt: skip
    header = "games  " + "  ".join(f"{s[:6]:>6}/{'dup' if d else 'one'}" for d in (False, True)
                                   for s in SYSTEMS)  # fmt: skip
    print(header)
    checkpoints = len(next(iter(curves.values())))
    for index in range(checkpoints):
        games = (index + 1) * args.step
        if index < 10 or (index + 1) % 5 == 0 or index == checkpoints - 1:
            cells = "  ".join(f"{curves[s, d][index]:10.3f}" for d in (False, True)
                              for s in SYSTEMS)  # fmt: skip
            print(f"{games:5d}  {cells}")
    print(f"\nGames until the mean tau reaches {TARGET} and stays (of {args.games} played):")
    baseline = games_to_target(curves["elo", False], args.step)
    for duplicate in (False, True):
        for system in SYSTEMS:
            needed = games_to_target(curves[system, duplicate], args.step)
            share = (
                f"  ({needed / baseline:.2f} of Elo on single games)"
                if needed is not None and baseline is not None
                else ""
            )
            label = f"{system}, {'duplicate' if duplicate else 'single'} matches"
            print(f"  {label:30s} {needed if needed is not None else 'not reached':>12}{share}")
    print(f"\n{time.time() - started:.0f} s in all")


if __name__ == "__main__":
    main()
