"""The public pages of the ladders: the home page (every ladder's top, latest and running
matches) and one ladder's table, a page at a time."""

from dataclasses import dataclass

from core.charts import sparkline
from core.templatetags.nimmt import spark
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import SafeString
from matches.models import Match
from matches.views import with_lineups
from tournaments.models import Tournament

from ladders.models import ELO, TREND_GAMES, Ladder, Rating, ladder_map
from ladders.services import Standings, leaders, trends

TOP_PER_LADDER = 5
LADDER_PAGE_SIZE = 50


@dataclass(frozen=True, slots=True)
class TableRow:
    """A row of a ladder table, formatted here: a table of 50 rows renders twice as fast
    from plain strings as from model attributes run through template filters."""

    place: int
    url: str
    name: str
    state: str  # "retired", "paused", "provisional" or ""
    owner: str
    elo: str
    uncertainty: str
    games: int
    trend: SafeString
    mu: str
    sigma: str
    margin: str  # Margin's mu: points per game above an average bot
    margin_sigma: str
    inactive: bool


def _rows(ratings: list[Rating], offset: int = 0) -> list[TableRow]:
    """Table rows: place, rating, uncertainty and the trend (Margin, the order) over the last
    games."""
    lines = trends(ratings)
    rows = []
    for place, rating in enumerate(ratings, start=offset + 1):
        series = lines.get(rating.pk, [])
        bot = rating.bot
        state = (
            "retired"
            if bot.is_retired
            else "paused"
            if bot.is_paused
            else "provisional"
            if rating.provisional
            else ""
        )
        rows.append(
            TableRow(
                place=place,
                url=bot.get_absolute_url(),
                name=bot.name,
                state=state,
                owner=bot.owner.username,
                elo=f"{rating.elo:.0f}",
                uncertainty=f"{ELO.uncertainty(rating.elo_record()):.0f}",
                games=rating.games,
                trend=spark(sparkline(series, width=72, height=22), max(0, len(series) - 1)),
                mu=f"{rating.mu:.2f}",
                sigma=f"{rating.sigma:.2f}",
                margin=f"{rating.margin_mu:+.1f}",
                margin_sigma=f"{rating.margin_sigma:.1f}",
                inactive=bool(getattr(rating, "inactive", False)),
            )
        )
    return rows


def _ladder_order(ladder: Ladder) -> tuple[str, int]:
    return (ladder.variant, ladder.players)  # as Ladder.Meta.ordering


def home(request: HttpRequest) -> HttpResponse:
    every = ladder_map()
    active = [ladder for ladder in sorted(every.values(), key=_ladder_order) if ladder.is_active]
    tops = leaders(active, TOP_PER_LADDER)
    ladders = [(ladder, _rows(tops[ladder.pk])) for ladder in active]
    listed = Match.objects.listed()
    latest = list(listed.filter(status=Match.FINISHED).order_by("-finished_at")[:8])
    running = list(listed.filter(status=Match.RUNNING).order_by("-started_at")[:8])
    with_lineups(latest + running, every)  # one query for both lists
    queued = Match.objects.filter(status=Match.QUEUED).count()
    tournaments = list(
        Tournament.objects.filter(status=Tournament.RUNNING).order_by("-started_at")[:5]
    )
    return render(
        request,
        "ladders/home.html",
        {
            "ladders": ladders,
            "latest": latest,
            "running": running,
            "queued": queued,
            "tournaments": tournaments,
            "trend_games": TREND_GAMES,
        },
    )


def ladder(request: HttpRequest, ladder_uuid: str) -> HttpResponse:
    ladder = get_object_or_404(Ladder, uuid=ladder_uuid)
    paginator: Paginator[Rating] = Paginator(
        Standings(ladder),  # type: ignore[arg-type]  # sliceable and countable, not a list
        LADDER_PAGE_SIZE,
        allow_empty_first_page=True,
    )
    page = paginator.get_page(request.GET.get("page"))
    ratings = list(page.object_list)
    finished = Match.objects.filter(ladder=ladder, status=Match.FINISHED)
    recent = with_lineups(finished.order_by("-created_at", "-id")[:10], {ladder.pk: ladder})
    return render(
        request,
        "ladders/ladder.html",
        {
            "ladder": ladder,
            "rows": _rows(ratings, page.start_index() - 1 if ratings else 0),
            "page": page,
            "recent": recent,
            "trend_games": TREND_GAMES,
        },
    )
