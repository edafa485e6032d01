"""How long a rating update takes on a big league: one match rated at 500,000 matches.

Fills its own PostgreSQL database as :mod:`benchmarks.site_pages` does (5,000 bots, 500,000
matches with their seats, ratings and history, by the same :class:`~benchmarks.site_pages.Fill`),
then plays the rating task's part for ``--updates`` new duplicate matches on the busiest
ladder, one at a time as the workers finish them: each is stored finished (seats with points
per deal and ranks) and rated by :func:`ladders.services.rate_ladder`, the function the
``rate_match`` task runs, which rates Elo, OpenSkill and Margin and writes the history.
Prints p50/p95/max per update; the goal is under 30 ms. ``--recompute`` also times
``manage.py recompute_ratings`` for that ladder (all its matches rated again)::

    python -m benchmarks.rating_updates                       # from the project's root
    python -m benchmarks.rating_updates --matches 20000       # a quick look

Measured 2026-12-01 on this 2-core machine (other work running): fill 86 s; a duplicate
4-seat match rated in p50 11.6 ms, p95 25.5 ms, max 40 ms over 290 updates on the busiest
ladder (100,000 matches, 5,000 ratings; the ratings written in one statement); its recompute
182 s.

Settings: ``NIMMT_BENCH_RATINGS_DATABASE_URL`` (default
``postgres://postgres@127.0.0.1:5432/nimmt_bench_ratings``); dropped at the end unless
``--keep``.
"""

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
os.environ.setdefault(
    "NIMMT_BENCH_PAGES_DATABASE_URL",
    os.environ.get(
        "NIMMT_BENCH_RATINGS_DATABASE_URL",
        "postgres://postgres@127.0.0.1:5432/nimmt_bench_ratings",
    ),
)

from benchmarks.site_pages import (  # noqa: E402  (reads the database URL above)
    DATABASE_URL,
    PLATFORM,
    Fill,
    create_database,
    drop_database,
    migrate,
    percentile,
    site_env,
)


def main() -> None:
    parser = argparse.ArgumentParser(description="Time of one rating update on a big league.")
    parser.add_argument("--bots", type=int, default=5_000)
    parser.add_argument("--matches", type=int, default=500_000)
    parser.add_argument("--updates", type=int, default=300, help="matches rated one by one")
    parser.add_argument("--recompute", action="store_true", help="time a ladder's recompute")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument("--reuse", action="store_true", help="measure a database kept before")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="nimmt-bench-ratings-") as folder:
        env = site_env(Path(folder), DATABASE_URL)
        if not args.reuse:
            started = time.perf_counter()
            create_database(DATABASE_URL)
            migrate(env)
            fill = Fill(DATABASE_URL, args.bots, args.matches)
            fill.run()
            print(
                f"filled {args.bots} bots, {args.matches} matches, {fill.seats} seats, "
                f"{fill.changes} rating changes in {time.perf_counter() - started:.0f} s",
                flush=True,
            )
        try:
            os.environ.update(env)
            sys.path.insert(0, str(PLATFORM))
            import django

            django.setup()
            measure(args.updates, args.recompute)
        finally:
            from django.db import connections

            connections.close_all()
            if not args.keep:
                drop_database(DATABASE_URL)


def measure(updates: int, recompute: bool) -> None:
    from django.core.management import call_command
    from django.db.models import Count
    from django.utils import timezone
    from ladders.models import Ladder, Rating
    from ladders.services import rate_ladder
    from matches.models import Match, Seat
    from matches.scheduler import create_match
    from submissions.models import Bot

    from arena.engine.variants import variant as get_variant

    ladder = Ladder.objects.annotate(n=Count("matches")).order_by("-n", "pk").first()  # the busiest
    assert ladder is not None
    matches = Match.objects.filter(ladder=ladder).count()
    ratings = Rating.objects.filter(ladder=ladder).count()
    print(f"ladder {ladder.slug}: {matches} matches, {ratings} ratings", flush=True)
    rng = random.Random(5)
    bots = list(Bot.objects.order_by("pk")[:1000])
    higher = get_variant(ladder.variant).higher_is_better
    times: list[float] = []
    for _ in range(updates):
        lineup = rng.sample(bots, ladder.players)
        match = create_match(ladder, lineup, rng=rng)
        deals = match.games // ladder.players if match.duplicate else match.games
        points = [[rng.randrange(-40, 60) for _ in range(deals)] for _ in lineup]
        totals = [sum(p) for p in points]
        order = sorted(totals, reverse=higher)
        seats = list(match.seats.order_by("seat"))
        for seat, p, total in zip(seats, points, totals, strict=True):
            seat.score, seat.rank, seat.deal_scores = total, 1 + order.index(total), p
        Seat.objects.bulk_update(seats, ["score", "rank", "deal_scores"])
        Match.objects.filter(pk=match.pk).update(status=Match.FINISHED, finished_at=timezone.now())
        started = time.perf_counter()
        rated = rate_ladder(ladder.pk)
        times.append(1000 * (time.perf_counter() - started))
        assert rated == 1
    warm = times[10:] or times
    print(
        f"rating update ({ladder.players} seats, duplicate={match.duplicate}): "
        f"p50 {statistics.median(warm):.1f} ms, p95 {percentile(warm, 0.95):.1f} ms, "
        f"max {max(warm):.1f} ms over {len(warm)} updates (goal: under 30 ms)",
        flush=True,
    )
    if recompute:
        started = time.perf_counter()
        call_command("recompute_ratings", "--ladder", ladder.slug)
        print(f"recompute of {ladder.slug}: {time.perf_counter() - started:.0f} s", flush=True)


if __name__ == "__main__":
    main()
