"""Running seasons: the freeze on uploads, and each season's steps as time passes.

:func:`advance` moves one season on as far as the clock allows (under a lock of its row, so
the beat's runs and a delivery twice do each step once); :func:`advance_all` is the beat's.
Nothing here sends a task: the final is an ordinary duplicate tournament
(:mod:`tournaments.services`), whose matches it queues itself, and the season is over when
the tournament is.

The freeze: from ``freezes_at`` until the season is over, the ladder takes no new version and
no change of an active one (:data:`submissions.signals.version_change`, refused here), so that
the final is played by the versions the ladder ranked. Every playing bot plays every active
ladder (:mod:`matches.scheduler`), so on an active ladder that holds for every bot, a bot not
rated there yet and a new bot's first version included; an inactive ladder plays no match,
and holds the bots rated on it (its final's candidates).
"""

import logging
from datetime import datetime
from typing import Any

from accounts.models import User
from django.db import transaction
from django.db.models import Q
from django.dispatch import receiver
from django.utils import timezone
from ladders.models import Ladder, Rating, Rival
from ladders.services import standings as ladder_standings
from submissions.models import Bot, BotVersion
from submissions.signals import ChangeRefused, version_change
from tournaments import services as tournament_services
from tournaments.models import Tournament

from seasons.models import Season

log = logging.getLogger(__name__)

#: Rows of the ladder's table a season keeps.
KEPT_PLACES = 100


class SeasonError(ValueError):
    """A season that cannot be made as asked, with the reason."""


def create(
    organiser: User,
    ladder_id: int,
    *,
    name: str,
    starts_at: datetime,
    freezes_at: datetime,
    ends_at: datetime,
    finalists: int = 4,
    final_deals: int = 2,
    carry_over: bool = False,
    repeat: bool = True,
) -> Season:
    if not tournament_services.can_organise(organiser):
        raise SeasonError("Only organisers run seasons.")
    if not starts_at <= freezes_at <= ends_at or starts_at == ends_at:
        raise SeasonError("A season starts, then freezes, then ends (start < end).")
    if finalists < 2 or final_deals < 1:
        raise SeasonError("A final needs at least 2 finalists and 1 deal.")
    with transaction.atomic():
        if Season.objects.filter(ladder_id=ladder_id, status__in=Season.OPEN).exists():
            raise SeasonError("This ladder has a season under way; one at a time.")
        number = Season.objects.filter(ladder_id=ladder_id).count() + 1
        return Season.objects.create(
            ladder_id=ladder_id,
            number=number,
            name=name.strip() or f"Season {number}",
            organiser=organiser,
            starts_at=starts_at,
            freezes_at=freezes_at,
            ends_at=ends_at,
            finalists=finalists,
            final_deals=final_deals,
            carry_over=carry_over,
            repeat=repeat,
        )


def freezing(bot: Bot | None) -> Season | None:
    """The frozen season that holds ``bot`` (``None``: a bot about to be made), if there is
    one: a frozen season of an active ladder (every bot plays it), or of a ladder ``bot`` is
    rated on."""
    held = Q(ladder__is_active=True)
    if bot is not None:
        held |= Q(ladder_id__in=Rating.objects.filter(bot=bot).values("ladder_id"))
    return (
        Season.objects.filter(held, status__in=Season.FREEZING)
        .select_related("ladder")
        .order_by("freezes_at", "pk")
        .first()
    )


@receiver(version_change, dispatch_uid="seasons.refuse_changes_when_frozen")
def refuse_changes_when_frozen(
    sender: object, *, bot: Bot | None, what: str, **kwargs: Any
) -> None:
    season = freezing(bot)
    if season is None:
        return
    if bot is None:
        who = "a new bot takes its first version"
    elif what == "upload":
        who = f"{bot.name} takes no new version"
    else:
        who = f"{bot.name} keeps its active version"
    raise ChangeRefused(
        f"{season.ladder} is frozen for the end of {season.name} (until its final is over): "
        f"{who} {'after' if bot is None else 'until'} then."
    )


def advance(season_pk: int, now: datetime | None = None) -> str:
    """Move the season on; what it is now (its status)."""
    now = now or timezone.now()
    with transaction.atomic():
        season = Season.objects.select_for_update().select_related("ladder").get(pk=season_pk)
        if season.status == Season.SCHEDULED and now >= season.starts_at:
            season.status = Season.RUNNING
        if season.status == Season.RUNNING and now >= season.freezes_at:
            season.status = Season.FROZEN
        if season.status in (Season.RUNNING, Season.FROZEN) and now >= season.ends_at:
            _start_final(season)
        if season.status == Season.FINAL:
            tournament = season.tournament
            if tournament is None or tournament.status in (
                Tournament.FINISHED,
                Tournament.CANCELLED,
            ):
                _finish(season, now)
        season.save()
        return season.status


def _start_final(season: Season) -> None:
    """Keep the ladder's table and start the final among its top ``finalists`` that play."""
    table = ladder_standings(season.ladder)
    season.standings = [
        {
            "place": place,
            "bot": {"id": str(r.bot.uuid), "name": r.bot.name},
            "owner": r.bot.owner.username,
            "margin": round(r.margin_mu, 3),
            "margin_uncertainty": round(r.margin_sigma, 3),
            "elo": round(r.elo, 1),
            "games": r.games,
        }
        for place, r in enumerate(table[:KEPT_PLACES], start=1)
    ]
    playing = set(Bot.objects.playing().values_list("pk", flat=True))
    finalists: list[BotVersion] = [
        r.bot.active_version
        for r in table
        # A duplicate final takes no remote bot (it could remember a deal across rotations).
        if r.bot_id in playing
        and r.bot.active_version is not None
        and not r.bot.active_version.is_remote
    ][: season.finalists]
    season.status = Season.FINAL
    if len(finalists) < season.ladder.players:
        season.note = (
            f"No final: {len(finalists)} bots could play it, a table of "
            f"{season.ladder.players} needs more."
        )
        return
    try:
        tournament = tournament_services.create(
            season.organiser,
            name=f"{season.name} final · {season.ladder}",
            variant=season.ladder.variant,
            players=season.ladder.players,
            format=Tournament.DUPLICATE,
            games_per_pairing=season.final_deals,
            rounds=1,
            versions=finalists,
        )
        tournament_services.start(tournament, season.organiser)
    except tournament_services.TournamentError as error:
        season.note = f"No final: {error}"
        return
    season.tournament = tournament


def _finish(season: Season, now: datetime) -> None:
    """Keep the final's standings, reset the ratings (unless carried over), start the next."""
    if season.tournament is not None:
        report = tournament_services.build_report(season.tournament)
        by_pk = {e.pk: e for e in report.entrants}
        season.final_standings = [
            {
                "place": s.place,
                "bot": {"id": str(by_pk[s.entrant].bot.uuid), "name": by_pk[s.entrant].bot.name},
                "version": by_pk[s.entrant].version.number,
                "points": s.points,
                "possible": s.possible,
                "games": s.games,
                "mean_score": round(s.score.mean, 3) if s.score is not None else None,
            }
            for s in report.standings
        ]
    season.status = Season.FINISHED
    season.finished_at = now
    if not season.carry_over:
        # From now on the ladder's ratings count the matches finished since (a match that
        # finished before and is rated late is the old season's; a recompute starts here).
        # The update waits for a rating in progress (it holds the ladder's row).
        Ladder.objects.filter(pk=season.ladder_id).update(ratings_since=now)
        Rival.objects.filter(ladder=season.ladder).delete()
        Rating.objects.filter(ladder=season.ladder).delete()
    if season.repeat:
        length = season.ends_at - season.starts_at
        freeze = season.freezes_at - season.starts_at
        season.save()  # no longer open: the next may be made
        number = season.number + 1
        Season.objects.create(
            ladder=season.ladder,
            number=number,
            name=f"Season {number}",
            organiser=season.organiser,
            starts_at=now,
            freezes_at=now + freeze,
            ends_at=now + length,
            finalists=season.finalists,
            final_deals=season.final_deals,
            carry_over=season.carry_over,
            repeat=True,
            status=Season.RUNNING,
        )
    log.info("%s is over", season)


def open_seasons() -> list[int]:
    return list(Season.objects.filter(status__in=Season.OPEN).values_list("pk", flat=True))


def current(ladder_id: int) -> Season | None:
    return Season.objects.filter(ladder_id=ladder_id, status__in=Season.OPEN).first()
