"""Recording the pairs of a finished match, and reading a pair's page.

:func:`record` runs once per finished match (a task sent when it ends, and a sweeper's): under
a lock of the match row it writes a :class:`~matchups.models.PairGame` per pair of its bots and
adds it to the pair's :class:`~matchups.models.Matchup` of that kind; the pairs' advisory locks
(:func:`core.locks.hold_count`, taken in one order) keep two matches of the same pair that end
together from numbering their games alike. A version test's matches are its owner's alone and
are left out.

The reads (:func:`kinds`, :func:`history`, :func:`shared_games`) are bounded: a pair's kinds
(a few rows), ≤ 49 chart points per kind, and one page of shared games by key.
"""

import itertools
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from core.charts import Chart, line_chart
from core.locks import hold_count
from core.stats import Comparison, compare_sums
from django.db import transaction
from django.db.models import Q
from ladders.rating import match_deals
from ladders.services import chart_games
from matches.models import Match, Seat

from arena.engine.variants import variant as get_variant
from matchups.models import Matchup, PairGame, RecordedMatch


def seat_deals(match: Match, seats: Sequence[Seat]) -> list[list[float]]:
    """Each seat's points per game on each deal (higher = better): a duplicate deal's total
    over its rotations divided by them; a match stored without points per deal counts as one
    deal of its summed score."""
    higher = get_variant(match.variant).higher_is_better
    if all(s.deal_scores for s in seats) and len({len(s.deal_scores) for s in seats}) == 1:
        rotations = match.players if match.duplicate else 1
        deals = match_deals(
            [list(s.deal_scores) for s in seats], rotations=rotations, higher_is_better=higher
        )
        return [[deal.scores[k] / deal.games for deal in deals] for k in range(len(seats))]
    sign = 1.0 if higher else -1.0
    return [[sign * (s.score or 0) / max(1, match.games)] for s in seats]


def record(match_pk: int) -> int:
    """Record the pairs of finished match ``match_pk`` (once); the number of pairs written."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_pk, status=Match.FINISHED).first()
        if match is None or RecordedMatch.objects.filter(match_id=match_pk).exists():
            return 0
        RecordedMatch.objects.create(match=match)
        if not Match.objects.filter(pk=match_pk).listed().exists():
            return 0  # a version test's: its owner's alone
        seats = [
            s for s in match.seats.order_by("seat") if s.score is not None and s.rank is not None
        ]
        if len(seats) < 2:
            return 0
        points = seat_deals(match, seats)
        rated = match.ladder_id is not None
        when = match.finished_at or match.created_at
        pairs = sorted(
            (
                (a, b) if a.bot_id < b.bot_id else (b, a)
                for a, b in itertools.combinations(seats, 2)
                if a.bot_id != b.bot_id
            ),
            key=lambda pair: (pair[0].bot_id, pair[1].bot_id),
        )
        seen: set[tuple[int, int]] = set()
        unique = []
        for low, high in pairs:  # a tournament may seat two versions of a bot: one pair each
            if (low.bot_id, high.bot_id) not in seen:
                seen.add((low.bot_id, high.bot_id))
                unique.append((low, high))
        pairs = unique
        by_seat = {s.seat: k for k, s in enumerate(seats)}
        for low, high in pairs:
            hold_count(f"matchup {low.bot_id} {high.bot_id}")
        written = 0
        for low, high in pairs:
            edges = [
                a - b
                for a, b in zip(points[by_seat[low.seat]], points[by_seat[high.seat]], strict=True)
            ]
            _add(match, low, high, edges, rated, when)
            written += 1
        return written


def _add(
    match: Match, low: Seat, high: Seat, edges: list[float], rated: bool, when: datetime
) -> None:
    kind: dict[str, Any] = {
        "bot_id": low.bot_id,
        "opponent_id": high.bot_id,
        "variant": match.variant,
        "players": match.players,
        "rated": rated,
    }
    totals, _ = Matchup.objects.select_for_update().get_or_create(**kind)
    assert low.rank is not None and high.rank is not None
    totals.games += 1
    totals.deals += len(edges)
    totals.total += sum(edges)
    totals.squares += sum(e * e for e in edges)
    totals.wins += low.rank < high.rank
    totals.draws += low.rank == high.rank
    totals.losses += low.rank > high.rank
    totals.last_played_at = when
    totals.save()
    PairGame.objects.create(
        **kind,
        match=match,
        match_created_at=match.created_at,
        bot_score=low.score or 0,
        opponent_score=high.score or 0,
        bot_rank=low.rank,
        opponent_rank=high.rank,
        deals=len(edges),
        edge=sum(edges),
        seq=totals.games,
        sum_deals=totals.deals,
        sum_total=totals.total,
        sum_squares=totals.squares,
    )


# ---------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class Kind:
    """A pair's totals over one kind of game, from the page's bot's side."""

    variant: str
    players: int
    rated: bool
    games: int
    wins: int
    draws: int
    losses: int
    comparison: Comparison  # the edge per deal
    chart: Chart | None


def ordered(a_pk: int, b_pk: int) -> tuple[int, int, float]:
    """The pair as it is stored (lower id first) and the sign that turns it to ``a``'s side."""
    return (a_pk, b_pk, 1.0) if a_pk < b_pk else (b_pk, a_pk, -1.0)


def kinds(a_pk: int, b_pk: int) -> list[Kind]:
    """Every kind of game ``a`` and ``b`` shared, most games first, from ``a``'s side, each
    with its history chart (the edge per deal so far, ± its 95% interval, after each game)."""
    low, high, sign = ordered(a_pk, b_pk)
    rows = list(
        Matchup.objects.filter(bot_id=low, opponent_id=high).order_by(
            "-games", "variant", "players", "-rated"
        )
    )
    found = []
    for row in rows:
        wins, losses = (row.wins, row.losses) if sign > 0 else (row.losses, row.wins)
        found.append(
            Kind(
                row.variant,
                row.players,
                row.rated,
                row.games,
                wins,
                row.draws,
                losses,
                compare_sums(row.deals, sign * row.total, row.squares),
                history(row, sign),
            )
        )
    return found


def history(row: Matchup, sign: float) -> Chart | None:
    """The edge per deal after each shared game of ``row``'s kind, ± its 95% interval: the
    games :func:`~ladders.services.chart_games` picks (≤ 49), read by index."""
    picked = [n for n in chart_games(row.games) if n > 0]
    points = list(
        PairGame.objects.filter(
            bot_id=row.bot_id,
            opponent_id=row.opponent_id,
            variant=row.variant,
            players=row.players,
            rated=row.rated,
            seq__in=picked,
        )
        .order_by("seq")
        .values_list("seq", "sum_deals", "sum_total", "sum_squares")
    )
    values, errors, labels = [], [], []
    for seq, deals, total, squares in points:
        comparison = compare_sums(deals, sign * total, squares)
        values.append(comparison.mean_diff)
        errors.append(comparison.half_width if comparison.has_interval else 0.0)
        labels.append(str(seq))
    return line_chart(values, errors, x_labels=labels, width=380, height=170,
                      margin=(8, 10, 20, 40))  # fmt: skip


@dataclass(frozen=True)
class SharedGame:
    """One shared match from the page's bot's side."""

    match: Match
    rated: bool
    score: int
    opponent_score: int
    rank: int
    opponent_rank: int
    deals: int
    edge: float  # per deal, this match


PAGE_SIZE = 50


def shared_games(
    a_pk: int, b_pk: int, before: tuple[datetime, int] | None = None
) -> tuple[list[SharedGame], bool]:
    """A page of the matches ``a`` and ``b`` shared, newest first, from ``a``'s side, those
    before the key ``before`` (a match's creation time and id); and whether more follow."""
    low, high, sign = ordered(a_pk, b_pk)
    rows = PairGame.objects.filter(bot_id=low, opponent_id=high)
    if before is not None:
        created, match_id = before
        rows = rows.filter(
            Q(match_created_at__lt=created) | Q(match_created_at=created, match_id__lt=match_id)
        )
    page = list(
        rows.select_related("match__ladder", "match__tournament").order_by(
            "-match_created_at", "-match_id"
        )[: PAGE_SIZE + 1]
    )
    found = []
    for row in page[:PAGE_SIZE]:
        mine = sign > 0
        found.append(
            SharedGame(
                row.match,
                row.rated,
                row.bot_score if mine else row.opponent_score,
                row.opponent_score if mine else row.bot_score,
                row.bot_rank if mine else row.opponent_rank,
                row.opponent_rank if mine else row.bot_rank,
                row.deals,
                sign * row.edge / max(1, row.deals),
            )
        )
    return found, len(page) > PAGE_SIZE


def is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True


def totals(found: list[Kind]) -> dict[str, Any]:
    """Games, wins, draws and losses over every kind."""
    return {
        "games": sum(k.games for k in found),
        "wins": sum(k.wins for k in found),
        "draws": sum(k.draws for k in found),
        "losses": sum(k.losses for k in found),
    }
