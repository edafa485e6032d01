"""A real version test on the site, start to verdict: the house program ``heuristic`` uploaded
as version 2 of a bot whose active version 1 is the house program ``random``, tested by the
site's own pipeline (Celery workers, duplicate matches in the sandbox, the SPRT of
:mod:`arena.sprt`). Prints the verdict, the log-likelihood ratio against its bounds, the deals
and games until the verdict, the score edge with its 95% interval, Wald's expected number of
deals at the measured edge and spread, and the wall time; asserts nothing.

Needs PostgreSQL, ``redis-server`` and the sandbox (as the tests do); like
:mod:`benchmarks.match_pipeline` it makes a database and starts a Redis server of its own
(``--database`` and ``--broker`` give it ones to use and empty instead)::

    python -m benchmarks.version_test                         # 2 players, e1 = 2, 5 deals a match
    python -m benchmarks.version_test --players 4 --e1 1 --alpha 0.01 --beta 0.01 --cap 400
"""

import argparse
import math
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.match_pipeline import _configure, _stop, _worker, own_broker, own_database


def _prepare(players: int) -> tuple[Any, Any, Any, Any]:
    """A clean database: an open ladder, ``players - 1`` house ``random`` opponents, and the
    owner's bot with v1 ``random`` (active) and v2 ``heuristic`` (passed)."""
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("flush", interactive=False, verbosity=0)
    import redis
    from accounts.models import User
    from django.conf import settings
    from ladders.models import Ladder
    from submissions.models import Bot, BotVersion

    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()
    house = User.objects.create(username="house")
    owner = User.objects.create(username="owner")

    def bot(name: str, user: Any, folders: list[str]) -> Any:
        made = Bot.objects.create(owner=user, name=name, is_house=user == house)
        versions = [
            BotVersion.objects.create(
                bot=made, number=n + 1, status="passed", code_root="house", code_dir=folder
            )
            for n, folder in enumerate(folders)
        ]
        made.active_version = versions[0]
        made.save()
        return versions[-1]

    for n in range(players - 1):
        bot(f"rival-{n}", house, ["random"])
    candidate = bot("mine", owner, ["random", "heuristic"])
    ladder = Ladder.objects.create(
        slug="bench", name="Bench", variant="basic", players=players, is_active=True
    )
    return ladder, owner, candidate, settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games-per-match", type=int, default=10)
    parser.add_argument("--e0", type=float, default=0.0)
    parser.add_argument("--e1", type=float, default=2.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--cap", type=int, default=400)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", metavar="URL", help="a database to use and empty")
    parser.add_argument("--broker", metavar="URL", help="a Redis database to use and empty")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="nimmt-bench-"))
    with own_database(args.database) as database, own_broker(args.broker, folder) as broker:
        run(args, folder, database, broker)


def run(args: argparse.Namespace, folder: Path, database: str, broker: str) -> None:
    env = _configure(folder, database, broker)
    env["NIMMT_GAMES_PER_MATCH"] = str(args.games_per_match)
    env["NIMMT_LOG_LEVEL"] = "INFO"
    ladder, owner, candidate, settings = _prepare(args.players)
    settings.GAMES_PER_MATCH = args.games_per_match
    from django.db import transaction
    from versiontests.models import VersionTest
    from versiontests.services import duplicate_format
    from versiontests.tasks import ask_for_test

    from arena.sprt import SprtSettings, expected_deals

    sprt = SprtSettings(e0=args.e0, e1=args.e1, alpha=args.alpha, beta=args.beta, cap=args.cap)
    workers = [_worker(env, folder / f"worker-{n}.log", f"v{n}") for n in range(args.workers)]
    try:
        started = time.monotonic()
        with transaction.atomic():
            test = ask_for_test(candidate, owner, ladder, sprt)
        while True:
            test.refresh_from_db()
            if test.is_over:
                break
            if time.monotonic() - started > 60 * 60:
                raise SystemExit("gave up after an hour")
            time.sleep(0.5)
        elapsed = time.monotonic() - started
    finally:
        for process in workers:
            _stop(process)
    games, deals = duplicate_format(ladder)
    evidence = test.evidence
    sd = math.sqrt(evidence.variance) if evidence.deals else math.nan
    print(f"heuristic (v2) against random (v1), basic, {args.players} players")
    print(f"  test matches: {games} games = {deals} duplicate deals each, in pairs")
    print(f"  H0: edge <= {sprt.e0}, H1: edge >= {sprt.e1} points per game, ", end="")
    print(f"alpha {sprt.alpha}, beta {sprt.beta}, cap {sprt.cap} deals")
    print(f"  status {test.status}, verdict {test.verdict or '-'} {test.error}")
    print(f"  LLR {test.llr:.3f} (bounds {sprt.lower:.3f} and {sprt.upper:.3f})")
    print(f"  deals {test.deals}, games {2 * test.deals * args.players} (both versions)")
    print(f"  edge {evidence.mean:+.2f} ± {evidence.ci95:.2f} points per game (95%), sd {sd:.2f}")
    if evidence.deals and sd > 0:
        wald = expected_deals(sprt, evidence.mean, sd)
        print(f"  Wald's expected deals at that edge and spread: {wald:.1f}")
    print(f"  LLR after each pair: {', '.join(f'{d}:{v:.2f}' for d, v in test.history)}")
    print(f"  wall time {elapsed:.1f} s with {args.workers} workers")
    VersionTest.objects.all().delete()


if __name__ == "__main__":
    main()
