"""Applying finished matches to a ladder's ratings: once per match, in the order they finished.

:func:`rate_ladder` locks the ladder row, so only one process rates a ladder at a time, then
rates every finished, not yet rated match of the ladder in finishing order, whichever task asked
for it. A match is marked ``rated`` in the same transaction that writes its rating changes, and
the database refuses a second change per bot and match, so a task delivered twice, or two
tasks for neighbouring matches, change nothing twice and never reorder.
"""

import json
from dataclasses import dataclass
from datetime import datetime

from core.charts import Chart, line_chart
from core.stats import Comparison, compare_sums, los_from_results
from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from matches.models import Match, Seat
from submissions.models import Bot

from arena.engine.variants import variant as get_variant
from ladders.models import (
    ELO,
    MARGIN,
    SKILL,
    STANDINGS_COLUMNS,
    STANDINGS_RATING,
    TREND_GAMES,
    Ladder,
    Rating,
    RatingChange,
    Rival,
)
from ladders.rating import EloRating, MarginRating, SkillRating, match_deals


def ensure_ratings(ladder: Ladder, bot_ids: list[int]) -> dict[int, Rating]:
    """The ratings of ``bot_ids`` on ``ladder``, created at the start values where missing."""
    existing = {r.bot_id: r for r in Rating.objects.filter(ladder=ladder, bot_id__in=bot_ids)}
    for bot_id in bot_ids:
        if bot_id not in existing:
            existing[bot_id], _ = Rating.objects.get_or_create(ladder=ladder, bot_id=bot_id)
    return existing


def rate_ladder(ladder_pk: int) -> int:
    """Rate the ladder's finished, unrated matches in finishing order; how many were rated.

    A match that finished before the ratings last started afresh (``Ladder.ratings_since``,
    a season's end) belongs to the season before: it is marked rated without changing the
    new season's ratings, as :func:`recompute_ladder` leaves it out."""
    with transaction.atomic():
        ladder = Ladder.objects.select_for_update().get(pk=ladder_pk)
        unrated = Match.objects.filter(ladder=ladder, status=Match.FINISHED, rated=False)
        if ladder.ratings_since is not None:
            unrated.filter(finished_at__lt=ladder.ratings_since).update(
                rated=True, rated_at=timezone.now()
            )
        pending = unrated.order_by("finished_at", "pk").prefetch_related("seats")
        count = 0
        for match in pending:
            _rate(ladder, match)
            count += 1
        return count


@dataclass(frozen=True)
class RatedMatch:
    """What the three calculators make of one match (seat order): the site's one definition of
    how a match is rated, shared by :func:`rate_ladder` and :func:`recompute_ladder`."""

    elo: list[EloRating]
    skill: list[SkillRating]
    margin: list[MarginRating]


def rate_match_records(
    ladder: Ladder,
    match: Match,
    seats: list[Seat],
    elo: list[EloRating],
    skill: list[SkillRating],
    margin: list[MarginRating],
) -> RatedMatch:
    """The seats' new ratings after ``match`` (seats in seat order, all ranked).

    Elo and OpenSkill take the match as a whole: its ranks (a duplicate match ranks by total
    score, the mean rank over its games breaking ties). Margin takes its deals: each seat's
    points per deal, a duplicate deal played in every rotation. A match stored before points
    per deal were kept (or whose points per deal do not add up) counts as one game of the
    seats' mean points per game.
    """
    ranks = [int(s.rank) for s in seats if s.rank is not None]
    higher = get_variant(ladder.variant).higher_is_better
    per_seat = [list(s.deal_scores) for s in seats]
    numbers = all(type(x) is int for points in per_seat for x in points)
    if all(per_seat) and numbers and len({len(p) for p in per_seat}) == 1:
        rotations = len(seats) if match.duplicate else 1
        deals = match_deals(per_seat, rotations=rotations, higher_is_better=higher)
    else:
        games = max(1, match.games)
        means = [[(s.score or 0) / games] for s in seats]
        deals = match_deals(means, rotations=1, higher_is_better=higher)
    return RatedMatch(ELO.rate(elo, ranks), SKILL.rate(skill, ranks), MARGIN.rate(margin, deals))


def _rate(ladder: Ladder, match: Match) -> None:
    seats = sorted(match.seats.all(), key=lambda s: s.seat)
    ranks = [s.rank for s in seats]
    if len(seats) < 2 or any(rank is None for rank in ranks):
        # Nothing to learn from (a match without ranks): mark it so the queue moves on.
        Match.objects.filter(pk=match.pk).update(rated=True, rated_at=timezone.now())
        return
    ratings = ensure_ratings(ladder, [s.bot_id for s in seats])
    before = [ratings[s.bot_id] for s in seats]
    rated = rate_match_records(
        ladder,
        match,
        seats,
        [r.elo_record() for r in before],
        [r.skill_record() for r in before],
        [r.margin_record() for r in before],
    )
    now = timezone.now()
    changes = []
    for rating, seat, elo, skill, margin in zip(
        before, seats, rated.elo, rated.skill, rated.margin, strict=True
    ):
        changes.append(_change(rating, match.pk, int(seat.rank or 0), elo, skill, margin, now))
        _set(rating, elo, skill, margin, now)
    RatingChange.objects.bulk_create(changes)
    _save_ratings(before)
    _add_rivals(ladder.pk, seats)
    Match.objects.filter(pk=match.pk).update(rated=True, rated_at=now)


def _add_rivals(ladder_pk: int, seats: list[Seat]) -> None:
    """Add a rated match to its bots' head-to-head totals (:class:`~ladders.models.Rival`):
    a row per ordered pair of seats with a score, in one ``INSERT ... ON CONFLICT`` that adds
    to the totals already there."""
    rows = []
    for a in seats:
        for b in seats:
            if a.seat == b.seat or a.score is None or b.score is None:
                continue
            assert a.rank is not None and b.rank is not None  # a rated match ranks every seat
            diff = a.score - b.score
            rows.append(
                (
                    a.bot_id,
                    ladder_pk,
                    b.bot_id,
                    1,
                    int(a.rank < b.rank),
                    int(a.rank == b.rank),
                    int(a.rank > b.rank),
                    diff,
                    diff * diff,
                )
            )
    if not rows:
        return
    table = Rival._meta.db_table
    sums = ", ".join(f"{name} = {table}.{name} + excluded.{name}" for name in _RIVAL_SUMS)
    sql = (
        f"INSERT INTO {table} (bot_id, ladder_id, opponent_id, {', '.join(_RIVAL_SUMS)}) "
        f"VALUES {', '.join(['(%s, %s, %s, %s, %s, %s, %s, %s, %s)'] * len(rows))} "
        f"ON CONFLICT (bot_id, ladder_id, opponent_id) DO UPDATE SET {sums}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [value for row in rows for value in row])


_RIVAL_SUMS = ("games", "wins", "draws", "losses", "total", "squares")


def rebuild_rivals(ladder_pk: int) -> None:
    """The ladder's head-to-head totals again from its rated matches' seats (one aggregate),
    those finished since the ratings last started afresh (``Ladder.ratings_since``)."""
    table, seat, match = Rival._meta.db_table, Seat._meta.db_table, Match._meta.db_table
    Rival.objects.filter(ladder_id=ladder_pk).delete()
    sql = f"""
        INSERT INTO {table} (bot_id, ladder_id, opponent_id, {", ".join(_RIVAL_SUMS)})
        SELECT a.bot_id, m.ladder_id, b.bot_id, COUNT(*),
               SUM(CASE WHEN a.rank < b.rank THEN 1 ELSE 0 END),
               SUM(CASE WHEN a.rank = b.rank THEN 1 ELSE 0 END),
               SUM(CASE WHEN a.rank > b.rank THEN 1 ELSE 0 END),
               SUM(a.score - b.score), SUM((a.score - b.score) * (a.score - b.score))
        FROM {seat} a
        JOIN {seat} b ON b.match_id = a.match_id AND b.seat <> a.seat
        JOIN {match} m ON m.id = a.match_id
        WHERE m.ladder_id = %s AND m.status = %s AND m.rated
          AND (%s::timestamptz IS NULL OR m.finished_at >= %s)
          AND a.rank IS NOT NULL AND a.score IS NOT NULL
          AND b.rank IS NOT NULL AND b.score IS NOT NULL
        GROUP BY a.bot_id, m.ladder_id, b.bot_id
    """
    since = Ladder.objects.filter(pk=ladder_pk).values_list("ratings_since", flat=True).first()
    with connection.cursor() as cursor:
        cursor.execute(sql, [ladder_pk, Match.FINISHED, since, since])


RATING_FIELDS = [
    "elo",
    "mu",
    "sigma",
    "margin_mu",
    "margin_sigma",
    "margin",
    "games",
    "updated_at",
    "margin_trend",
    "elo_trend",
    "margin_chart",
    "elo_chart",
]
_RATING_TYPES = [
    "float8",
    "float8",
    "float8",
    "float8",
    "float8",
    "float8",
    "int",
    "timestamptz",
    "jsonb",
    "jsonb",
    "jsonb",
    "jsonb",
]
_JSON_FIELDS = {"margin_trend", "elo_trend", "margin_chart", "elo_chart"}
#: The bot page's charts: only that page reads them (a list of ratings defers them).
CHART_FIELDS = ("margin_chart", "elo_chart")


def _column_value(rating: Rating, name: str) -> float | int | str | datetime:
    value = getattr(rating, name)
    return json.dumps(value) if name in _JSON_FIELDS else value


def _save_ratings(ratings: list[Rating]) -> None:
    """Write a match's few ratings in one statement (``UPDATE ... FROM (VALUES ...)``):
    Django's ``bulk_update`` builds a CASE per column, which cost more than the update itself."""
    if connection.vendor != "postgresql":  # the demo's SQLite: a plain UPDATE each
        for rating in ratings:
            rating.save(update_fields=RATING_FIELDS)
        return
    row = "(%s::bigint, " + ", ".join(f"%s::{kind}" for kind in _RATING_TYPES) + ")"
    sets = ", ".join(f"{name} = v.{name}" for name in RATING_FIELDS)
    sql = (
        f"UPDATE {Rating._meta.db_table} AS r SET {sets} "
        f"FROM (VALUES {', '.join([row] * len(ratings))}) AS v(id, {', '.join(RATING_FIELDS)}) "
        "WHERE r.id = v.id"
    )
    params = [
        value for r in ratings for value in [r.pk, *(_column_value(r, f) for f in RATING_FIELDS)]
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _change(
    rating: Rating,
    match_pk: int,
    rank: int,
    elo: EloRating,
    skill: SkillRating,
    margin: MarginRating,
    now: datetime,
) -> RatingChange:
    """The history row of ``rating`` (as it is before the match) becoming the given records."""
    return RatingChange(
        rating_id=rating.pk,
        match_id=match_pk,
        rank=rank,
        elo_before=rating.elo,
        elo_after=elo.elo,
        mu_before=rating.mu,
        mu_after=skill.mu,
        sigma_before=rating.sigma,
        sigma_after=skill.sigma,
        margin_mu_before=rating.margin_mu,
        margin_mu_after=margin.mu,
        margin_sigma_before=rating.margin_sigma,
        margin_sigma_after=margin.sigma,
        games_after=elo.games,
        created_at=now,
    )


def extend_trend(trend: list[float], before: float, after: float) -> list[float]:
    """A trend line (values oldest first) after one more game, from ``before`` to ``after``:
    the last :data:`~ladders.models.TREND_GAMES` games and the value before the first of them.

    >>> extend_trend([], 0.0, 1.5)
    [0.0, 1.5]
    >>> len(extend_trend([float(n) for n in range(21)], 20.0, 21.0))
    21
    """
    values = [*(trend or [before]), after]
    return values[-(TREND_GAMES + 1) :]


#: A chart is about 380 px wide: it keeps and draws between :data:`CHART_POINTS` and twice as
#: many points, and the newest (at most 49), however many games its rating has.
CHART_POINTS = 24


def chart_stride(games: int) -> int:
    """Every how many games a chart of a rating with ``games`` games keeps a point: the
    smallest power of two that leaves at most ``2 * CHART_POINTS`` of them after the first.

    >>> chart_stride(47), chart_stride(48), chart_stride(1000)
    (1, 2, 32)
    """
    stride = 1
    while games >= 2 * CHART_POINTS * stride:
        stride *= 2
    return stride


def chart_games(games: int) -> list[int]:
    """The games counts a chart of a rating with ``games`` games draws (0 being before the
    first game): every multiple of :func:`chart_stride`, and the last.

    >>> chart_games(3)
    [0, 1, 2, 3]
    >>> chart_games(1001)[:3], chart_games(1001)[-2:], len(chart_games(1001))
    ([0, 32, 64], [992, 1001], 33)
    """
    if not games:
        return []
    stride = chart_stride(games)
    return [*range(0, games + 1, stride), *([games] if games % stride else [])]


def extend_chart(
    chart: list[list[float]], before: list[float], after: list[float]
) -> list[list[float]]:
    """A chart's points (``[games, value, ±]``, oldest first) after one more game, ``before``
    being the point before it and ``after`` the one after it: the points at the games of
    :func:`chart_games`, in O(1) per game. Points are kept at multiples of a stride (the gap
    between the first two), the newest one always; when more than ``2 * CHART_POINTS``
    multiples are kept, every other one goes and the stride doubles.

    >>> chart = []
    >>> for games in range(1, 481):
    ...     chart = extend_chart(chart, [games - 1, 0.0, 0.0], [games, 0.0, 0.0])
    >>> [point[0] for point in chart] == chart_games(480), len(chart)
    (True, 31)
    """
    points = list(chart) or [before]
    stride = int(points[1][0] - points[0][0]) if len(points) > 1 else 1
    if int(points[-1][0]) % stride:  # the newest, between two multiples: replaced
        points.pop()
    points.append(after)
    if len(points) > 2 * CHART_POINTS and not int(after[0]) % stride:
        points = points[::2]
    return points


def _elo_band(rating: Rating, elo: float, games: int) -> float:
    """Elo's ± after ``games`` games (it follows from the games played)."""
    return ELO.uncertainty(EloRating(str(rating.bot_id), elo, games, ELO.is_provisional(games)))


def _set(
    rating: Rating, elo: EloRating, skill: SkillRating, margin: MarginRating, now: datetime
) -> None:
    games = rating.games
    rating.margin_chart = extend_chart(
        rating.margin_chart,
        [games, rating.margin_mu, rating.margin_sigma],
        [elo.games, margin.mu, margin.sigma],
    )
    rating.elo_chart = extend_chart(
        rating.elo_chart,
        [games, rating.elo, _elo_band(rating, rating.elo, games)],
        [elo.games, elo.elo, _elo_band(rating, elo.elo, elo.games)],
    )
    rating.margin_trend = extend_trend(rating.margin_trend, rating.margin_mu, margin.mu)
    rating.elo_trend = extend_trend(rating.elo_trend, rating.elo, elo.elo)
    rating.elo, rating.mu, rating.sigma = elo.elo, skill.mu, skill.sigma
    rating.margin_mu, rating.margin_sigma, rating.margin = margin.mu, margin.sigma, margin.value
    rating.games = elo.games
    rating.updated_at = now


RECOMPUTE_BATCH = 2000


def recompute_ladder(ladder_pk: int, batch: int = RECOMPUTE_BATCH) -> int:
    """Rate every finished match of the ladder again from the start, in finishing order, with
    the calculators as they are now (after a change of a model or its parameters); returns
    how many matches were rated. The start is the ratings' last fresh start
    (``Ladder.ratings_since``, a season's end that reset them): the seasons before are not
    mixed in, and their matches are left as they are.

    The ladder is locked for the whole recompute (the rating task and the scheduler wait),
    the old history is deleted, and the ratings and their history are rebuilt in memory and
    written in batches; it all commits at once, so a failed recompute leaves what was there.
    Matches are read in batches, so memory holds the ratings and the matches' ids only.
    """
    with transaction.atomic():
        ladder = Ladder.objects.select_for_update().get(pk=ladder_pk)
        RatingChange.objects.filter(rating__ladder=ladder).delete()
        ratings = {r.bot_id: r for r in Rating.objects.filter(ladder=ladder)}
        elo: dict[int, EloRating] = {}
        skill: dict[int, SkillRating] = {}
        margin: dict[int, MarginRating] = {}
        now = timezone.now()
        count = 0
        finished = Match.objects.filter(ladder=ladder, status=Match.FINISHED)
        if ladder.ratings_since is not None:
            finished = finished.filter(finished_at__gte=ladder.ratings_since)
        order = list(finished.order_by("finished_at", "pk").values_list("pk", flat=True))
        for start in range(0, len(order), batch):
            chunk = order[start : start + batch]
            found = Match.objects.filter(pk__in=chunk).prefetch_related("seats").in_bulk()
            matches = [found[pk] for pk in chunk]
            changes: list[RatingChange] = []
            for match in matches:
                seats = sorted(match.seats.all(), key=lambda s: s.seat)
                if len(seats) < 2 or any(s.rank is None for s in seats):
                    continue
                for s in seats:
                    if s.bot_id not in ratings:
                        ratings[s.bot_id] = Rating.objects.create(ladder=ladder, bot_id=s.bot_id)
                    if s.bot_id not in elo:
                        _reset(ratings[s.bot_id])
                        elo[s.bot_id] = ratings[s.bot_id].elo_record()
                        skill[s.bot_id] = ratings[s.bot_id].skill_record()
                        margin[s.bot_id] = ratings[s.bot_id].margin_record()
                rated = rate_match_records(
                    ladder,
                    match,
                    seats,
                    [elo[s.bot_id] for s in seats],
                    [skill[s.bot_id] for s in seats],
                    [margin[s.bot_id] for s in seats],
                )
                for s, e, k, m in zip(seats, rated.elo, rated.skill, rated.margin, strict=True):
                    rating = ratings[s.bot_id]
                    changes.append(_change(rating, match.pk, int(s.rank or 0), e, k, m, now))
                    _set(rating, e, k, m, now)
                    elo[s.bot_id], skill[s.bot_id], margin[s.bot_id] = e, k, m
                count += 1
            RatingChange.objects.bulk_create(changes, batch_size=5000)
        for bot_id, rating in ratings.items():
            if bot_id not in elo:  # no rated match left: back to the start
                _reset(rating)
        Rating.objects.bulk_update(list(ratings.values()), RATING_FIELDS, batch_size=2000)
        finished.update(rated=True, rated_at=now)
        rebuild_rivals(ladder.pk)
        return count


def _reset(rating: Rating) -> None:
    """A rating as a bot without games has it (no trend either)."""
    start = Rating()
    for name in RATING_FIELDS:
        setattr(rating, name, getattr(start, name))


class Standings:
    """A ladder's table: bots still playing first by the ladder's rating
    (:data:`~ladders.models.STANDINGS_RATING`, Margin; ``order="elo"`` for Elo), then retired
    or paused ones.

    Sliceable and countable, so that :class:`~django.core.paginator.Paginator` pages it and a
    page reads only its own rows. A page is found in two steps: the ids, in the order of the
    index ``rating_standings`` (``ladder, -elo``) without touching other tables (retired and
    paused bots are a short list, excluded by id), then the page's rows with their bots and
    owners. Nothing is ever sorted whole, and a deep page joins 50 rows, not 1,000.
    """

    def __init__(
        self,
        ladder: Ladder,
        related: tuple[str, ...] = ("bot", "bot__owner"),
        order: str = STANDINGS_RATING,
    ) -> None:
        if order not in STANDINGS_COLUMNS:
            raise ValueError(f"standings are ordered by {' or '.join(STANDINGS_COLUMNS)}")
        self.ladder = ladder
        self.column = STANDINGS_COLUMNS[order]
        self.related = related  # for select_related
        self._counts: tuple[int, int] | None = None
        self._inactive: list[int] | None = None

    # The columns a table row needs: loading whole user rows (passwords, e-mail...) for 50
    # owners cost more than the query.
    TABLE_FIELDS = (
        "elo",
        "mu",
        "sigma",
        "margin_mu",
        "margin_sigma",
        "margin",
        "games",
        "margin_trend",
        "ladder_id",
        "bot__name",
        "bot__uuid",
        "bot__retired_at",
        "bot__paused_at",
        "bot__owner__username",
    )

    def inactive_bots(self) -> list[int]:
        """Ids of the retired or paused bots (few; no index needed to find them)."""
        if self._inactive is None:
            self._inactive = list(
                Bot.objects.filter(Q(retired_at__isnull=False) | Q(paused_at__isnull=False))
                .values_list("pk", flat=True)
                .order_by()
            )
        return self._inactive

    def _ids(self, playing: bool) -> QuerySet[Rating]:
        rows = Rating.objects.filter(ladder=self.ladder, games__gt=0)
        inactive = self.inactive_bots()
        if playing:
            rows = rows.exclude(bot_id__in=inactive) if inactive else rows
        else:
            rows = rows.filter(bot_id__in=inactive)
        return rows.order_by(f"-{self.column}", "pk")

    def _count(self) -> tuple[int, int]:
        """Bots playing, and all bots (the second count only if some bot is not playing)."""
        if self._counts is None:
            rated = Rating.objects.filter(ladder=self.ladder, games__gt=0)
            total = rated.count()
            inactive = self.inactive_bots()
            playing = total - rated.filter(bot_id__in=inactive).count() if inactive else total
            self._counts = (playing, total)
        return self._counts

    def _read(self, playing: bool, start: int, stop: int) -> list[Rating]:
        ids = list(self._ids(playing).values_list("pk", flat=True)[start:stop])
        if not ids:
            return []
        rows = Rating.objects.filter(pk__in=ids).select_related(*self.related)
        if self.related == ("bot", "bot__owner"):
            rows = rows.only(*self.TABLE_FIELDS)
        else:  # a whole table never draws the charts: up to 241 points each, twice
            rows = rows.defer(*CHART_FIELDS)
        order = {pk: n for n, pk in enumerate(ids)}
        found = sorted(rows, key=lambda rating: order[rating.pk])
        for rating in found:
            rating.inactive = not playing  # type: ignore[attr-defined]
        return found

    def active_count(self) -> int:
        return self._count()[0]

    def count(self) -> int:
        return self._count()[1]

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, window: slice) -> list[Rating]:
        if not isinstance(window, slice) or window.step not in (None, 1):
            raise TypeError("standings are read a slice at a time")
        start, stop = window.start or 0, window.stop
        if stop is None:
            stop = self.count()
        found = self._read(True, start, stop)
        if len(found) < stop - start:  # the page reaches past the playing bots
            first = max(0, start - self.active_count())
            found += self._read(False, first, first + stop - start - len(found))
        return found


def leaders(ladders: list[Ladder], count: int) -> dict[int, list[Rating]]:
    """The ``count`` best bots still playing on each ladder, in two queries: the ids by an
    index scan of ``rating_standings_margin`` per ladder (a LATERAL join), then the rows."""
    if not ladders:
        return {}
    rating, bot = Rating._meta.db_table, Bot._meta.db_table
    column = STANDINGS_COLUMNS[STANDINGS_RATING]
    sql = f"""
        SELECT top.id FROM unnest(%s::bigint[]) AS l(id)
        CROSS JOIN LATERAL (
            SELECT r.id FROM {rating} r JOIN {bot} b ON b.id = r.bot_id
            WHERE r.ladder_id = l.id AND r.games > 0
              AND b.retired_at IS NULL AND b.paused_at IS NULL
            ORDER BY r.{column} DESC, r.id LIMIT %s
        ) AS top
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(sql, [[ladder.pk for ladder in ladders], count])
            ids = [row[0] for row in cursor.fetchall()]
        rows = (
            Rating.objects.filter(pk__in=ids)
            .select_related("bot", "bot__owner")
            .only(*Standings.TABLE_FIELDS)  # not the charts, which grow with the games
        )
        found: dict[int, list[Rating]] = {ladder.pk: [] for ladder in ladders}
        for row in sorted(rows, key=lambda r: (-getattr(r, column), r.pk)):
            row.inactive = False  # type: ignore[attr-defined]
            found[row.ladder_id].append(row)
        return found
    return {ladder.pk: Standings(ladder)[0:count] for ladder in ladders}  # the demo's SQLite


def standings(ladder: Ladder) -> list[Rating]:
    """The whole table (see :class:`Standings`), with each bot's active version."""
    return Standings(ladder, ("bot", "bot__owner", "bot__active_version"))[0:None]


@dataclass(frozen=True)
class Followed:
    """A rating that trend lines and charts follow: the :class:`~ladders.models.RatingChange`
    columns ``<value>_before``/``<value>_after`` hold it, ``<sigma>_...`` its ± (``None``: the
    ± follows from the games played, as Elo's does)."""

    label: str
    value: str
    sigma: str | None
    trend: str  # the Rating field holding its trend line
    chart: str  # the Rating field holding its chart's points


#: By the names of the standings' orders (:data:`~ladders.models.STANDINGS_COLUMNS`).
FOLLOWED = {
    "margin": Followed("Margin", "margin_mu", "margin_sigma", "margin_trend", "margin_chart"),
    "elo": Followed("Elo", "elo", None, "elo_trend", "elo_chart"),
}


def trends(ratings: list[Rating], rating: str = STANDINGS_RATING) -> dict[int, list[float]]:
    """Each rating's trend line of ``rating`` (a key of :data:`FOLLOWED`; Margin, the ladder's
    order, by default): its value over its last :data:`~ladders.models.TREND_GAMES` rated games,
    oldest first, its value before them first. Kept on the rating itself as it is rated
    (:func:`extend_trend`), so this reads nothing."""
    field = FOLLOWED[rating].trend
    return {r.pk: list(getattr(r, field)) for r in ratings if getattr(r, field)}


@dataclass(frozen=True)
class HeadToHead:
    """A bot against one opponent on one ladder, over the matches they played together."""

    ladder: Ladder
    opponent: Bot
    games: int
    wins: int  # finished above the opponent
    draws: int
    losses: int
    comparison: Comparison  # score difference per game, the bot's point of view

    @property
    def los(self) -> float:
        return los_from_results(self.wins, self.losses)


def head_to_head(
    bot_id: int, limit: int = 15, ladders: dict[int, Ladder] | None = None
) -> list[HeadToHead]:
    """The bot's most frequent opponents on the ladders, over all their rated matches
    together, with wins, losses and whether the difference in score is significant: the
    totals the rating task keeps (:class:`~ladders.models.Rival`), read through the index
    ``rival_most_games``, so a bot with 100,000 games costs what one with 20 does.
    """
    rows = list(
        Rival.objects.filter(bot_id=bot_id)
        .select_related("opponent")
        .only(*_RIVAL_SUMS, "ladder_id", "opponent__name", "opponent__uuid")
        .order_by("-games", "opponent_id")[:limit]
    )
    if ladders is None:
        ladders = Ladder.objects.in_bulk({row.ladder_id for row in rows})
    found = []
    for row in rows:
        ladder = ladders[row.ladder_id]
        sign = 1 if get_variant(ladder.variant).higher_is_better else -1
        found.append(
            HeadToHead(
                ladder,
                row.opponent,
                row.games,
                row.wins,
                row.draws,
                row.losses,
                compare_sums(row.games, float(sign * row.total), float(row.squares)),
            )
        )
    return found


def rating_histories(
    ratings: list[Rating], rating: str = STANDINGS_RATING
) -> dict[int, Chart | None]:
    """A chart per rating of its value of ``rating`` (a key of :data:`FOLLOWED`; Margin by
    default) over all its games, with the ± band.

    A long history is thinned by a doubling stride (:func:`chart_games`): the games at the
    multiples of a power of two, between :data:`CHART_POINTS` and twice as many, and always
    the first and the last. The points are kept on the rating as it is rated
    (:func:`extend_chart`), so this reads nothing, and there are never more than 49 of them
    to decode and draw, so a chart costs the same after 100 games as after 100,000 (keeping
    120 to 240 points, and drawing them all, made the bot page 1.2x as slow at 500,000
    matches as at 50,000).
    """
    field = FOLLOWED[rating].chart
    charts: dict[int, Chart | None] = {}
    for rating_ in ratings:
        points = getattr(rating_, field)
        charts[rating_.pk] = line_chart(
            [value for _, value, _ in points],
            [error for _, _, error in points],
            x_labels=[str(int(games)) for games, _, _ in points],
            width=380,
            height=170,
            margin=(8, 10, 20, 40),
        )
    return charts
