"""Keeping every playing bot busy: which matches to create next on each ladder.

Each run tops a ladder up to ``SCHEDULE_IN_FLIGHT`` queued or running matches. For each new
match the bot with the fewest games in the last 24 hours goes first (ties broken at random); its
opponents are drawn from the ``RATING_NEIGHBOURS`` bots nearest to it in the rating the ladder
is ordered by (:data:`ladders.models.STANDINGS_RATING`), and no two bots meet more than
``PAIR_DAILY_CAP`` times a day. A remote bot plays only while online and not already in a
match (:func:`remote.services.schedulable`). Seats are shuffled. A match's games and whether it is
duplicate (each deal once per seat rotation) are the ladder's
(:meth:`ladders.models.Ladder.match_format`); a match with a remote bot is never duplicate (the
bot could remember a deal across seat rotations).

The scheduler only creates queued match rows; the beat task that runs it
(:func:`matches.tasks.schedule_matches`) sends them to the workers.
"""

import itertools
import random
import secrets
from collections import Counter
from collections.abc import Iterable
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from ladders.models import STANDINGS_COLUMNS, STANDINGS_RATING, Ladder, Rating
from remote import services as remote_services
from submissions.models import Bot, BotVersion

from matches.models import Match, Seat

DAY = timedelta(days=1)


def pair_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def pick_lineup(
    first: int,
    candidates: Iterable[int],
    elo: dict[int, float],
    pairs: Counter[tuple[int, int]],
    *,
    size: int,
    neighbours: int,
    pair_cap: int,
    rng: random.Random,
) -> list[int] | None:
    """``first`` and ``size - 1`` opponents near its rating (``elo``: any rating, by bot),
    every pair under the daily cap.

    >>> elo = {1: 1500.0, 2: 1510.0, 3: 1800.0, 4: 1490.0}
    >>> sorted(pick_lineup(1, [2, 3, 4], elo, Counter(), size=3, neighbours=2, pair_cap=5,
    ...                    rng=random.Random(1)))
    [1, 2, 4]
    >>> pick_lineup(1, [2, 3, 4], elo, Counter({(1, 2): 5, (1, 4): 5}), size=3, neighbours=2,
    ...             pair_cap=5, rng=random.Random(1)) is None
    True
    """
    others = [c for c in candidates if c != first and pairs[pair_key(first, c)] < pair_cap]
    others.sort(key=lambda c: abs(elo[c] - elo[first]))
    near = others[: max(neighbours, size - 1)]
    rng.shuffle(near)
    lineup = [first]
    # The nearest in random order, then the farther ones should the near ones have met too often.
    for candidate in near + others[len(near) :]:
        if all(pairs[pair_key(candidate, member)] < pair_cap for member in lineup):
            lineup.append(candidate)
            if len(lineup) == size:
                return lineup
    return None


def schedule_ladder(ladder_pk: int, rng: random.Random | None = None) -> list[Match]:
    """Create the queued matches ladder ``ladder_pk`` needs now (the caller sends them)."""
    rng = rng or random.Random(secrets.randbits(64))
    now = timezone.now()
    with transaction.atomic():
        # One scheduler per ladder at a time; it also orders us after any rating in progress.
        ladder = Ladder.objects.select_for_update().get(pk=ladder_pk)
        if not ladder.is_active:
            return []
        busy = Match.objects.filter(ladder=ladder, status__in=[Match.QUEUED, Match.RUNNING])
        wanted = settings.SCHEDULE_IN_FLIGHT - busy.count()
        if wanted <= 0:
            return []
        bots = {b.pk: b for b in Bot.objects.playing().select_related("active_version")}
        bots = remote_services.schedulable(bots)  # remote bots: online and free only
        if len(bots) < ladder.players:
            return []
        column = STANDINGS_COLUMNS[STANDINGS_RATING]
        start = getattr(Rating(), column)  # a bot without games
        elo = dict.fromkeys(bots, start)
        for bot_id, value in Rating.objects.filter(ladder=ladder, bot_id__in=bots).values_list(
            "bot_id", column
        ):
            elo[bot_id] = value
        recent: Counter[int] = Counter()
        pairs: Counter[tuple[int, int]] = Counter()
        lineups: dict[int, list[int]] = {}
        for match_id, bot_id in (
            Seat.objects.filter(match__ladder=ladder, match__created_at__gte=now - DAY)
            .exclude(match__status=Match.FAILED)
            .values_list("match_id", "bot_id")
        ):
            lineups.setdefault(match_id, []).append(bot_id)
        for members in lineups.values():
            recent.update(members)
            pairs.update(pair_key(a, b) for a, b in itertools.combinations(members, 2))

        created: list[Match] = []
        for _ in range(wanted):
            order = sorted(bots, key=lambda b: (recent[b], rng.random()))
            for first in order:
                lineup = pick_lineup(
                    first,
                    order,
                    elo,
                    pairs,
                    size=ladder.players,
                    neighbours=settings.RATING_NEIGHBOURS,
                    pair_cap=settings.PAIR_DAILY_CAP,
                    rng=rng,
                )
                if lineup is not None:
                    break
            else:
                break  # every pair that could meet has met often enough today
            rng.shuffle(lineup)
            created.append(create_match(ladder, [bots[b] for b in lineup], rng=rng))
            bots = remote_services.without_remote(bots, lineup)  # one match at a time
            recent.update(lineup)
            pairs.update(pair_key(a, b) for a, b in itertools.combinations(lineup, 2))
        return created


def create_match(
    ladder: Ladder, bots: list[Bot], *, seed: int | None = None, rng: random.Random | None = None
) -> Match:
    """A queued match of ``bots`` (in seat order, active versions), not yet sent to a worker
    (:func:`matches.tasks.queue_match` creates and sends one)."""
    if len(bots) != ladder.players:
        raise ValueError(f"{ladder} is played by {ladder.players} bots, not {len(bots)}")
    if seed is None:
        seed = (rng or random.Random(secrets.randbits(64))).randrange(2**31)
    # A remote bot could remember a deal from one seat rotation to the next: single games.
    remote = BotVersion.objects.filter(
        pk__in=[b.active_version_id for b in bots], code_root=BotVersion.REMOTE
    ).exists()
    games, duplicate = ladder.match_format(settings.GAMES_PER_MATCH, remote=remote)
    with transaction.atomic():
        match = Match.objects.create(
            ladder=ladder,
            variant=ladder.variant,
            players=ladder.players,
            games=games,
            duplicate=duplicate,
            seed=seed,
        )
        seats = []
        for number, bot in enumerate(bots):
            if bot.active_version_id is None:
                raise ValueError(f"{bot} has no active version")
            seats.append(
                Seat(
                    match=match,
                    match_created_at=match.created_at,
                    seat=number,
                    bot=bot,
                    version_id=bot.active_version_id,
                )
            )
        Seat.objects.bulk_create(seats)
    return match


def schedule_all() -> list[Match]:
    """Top up every active ladder; the matches created (queued, not yet sent)."""
    return [
        match
        for pk in Ladder.objects.filter(is_active=True).values_list("pk", flat=True)
        for match in schedule_ladder(pk)
    ]
