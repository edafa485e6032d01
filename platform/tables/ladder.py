"""The people-versus-bots ladder: one per variant, people and the bots they play rated by the
ladders' Elo (:data:`ladders.models.ELO`, the calculator of the bot ladders).

A finished table is rated once (:func:`rate_table`, in the transaction that stores its
result): each of its games is one Elo game of the person and the bots at their ranks. The
bots' places here are their own, apart from the bot ladders, so that games against people
leave a bot's ladder rating alone. Guests' tables are not rated.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from ladders.models import ELO
from ladders.rating import EloRating
from matches.models import Seat
from submissions.models import Bot

from arena.engine.errors import ReplayError
from arena.engine.record import GameRecord, Player
from tables.models import PeopleRating, Table


def _rating(variant: str, *, person_id: int | None = None, bot_id: int | None = None) -> Any:
    who = {"person_id": person_id} if person_id is not None else {"bot_id": bot_id}
    rating, _ = PeopleRating.objects.select_for_update().get_or_create(
        variant=variant, **who, defaults={"elo": ELO.initial}
    )
    return rating


def _entry(player: Player) -> int:
    if player.entry is None:  # the runner names every seat's entry
        raise ReplayError(f"a table's replay names no lineup entry for {player.name!r}")
    return player.entry


def rate_table(table: Table, replays: list[GameRecord]) -> None:
    """Rate ``table``'s games (their replays, in order) on its variant's people ladder, once.
    Call inside the transaction that stores the table's result."""
    if table.guest or table.rated:
        return
    match = table.match
    bots = {s.seat: s.bot_id for s in Seat.objects.filter(match=match)}
    with transaction.atomic():
        by_entry: dict[int, PeopleRating] = {
            table.entry: _rating(match.variant, person_id=table.person_id)
        }
        for entry, bot_id in sorted(bots.items()):
            by_entry[entry] = _rating(match.variant, bot_id=bot_id)
        for replay in replays:
            entries = [_entry(player) for player in replay.players]
            ranks = list(replay.result.ranks)
            rated = [by_entry[e] for e in entries]
            records = [EloRating(r.key, r.elo, r.games, ELO.is_provisional(r.games)) for r in rated]
            person_rank = ranks[entries.index(table.entry)]
            for rating, new, rank in zip(rated, ELO.rate(records, ranks), ranks, strict=True):
                rating.elo, rating.games = new.elo, new.games
                if rating.person_id is not None:
                    bot_ranks = [r for e, r in zip(entries, ranks, strict=True) if e != table.entry]
                    rating.wins += rank < min(bot_ranks)
                    rating.losses += rank > min(bot_ranks)
                else:
                    rating.wins += rank < person_rank
                    rating.losses += rank > person_rank
        now = timezone.now()
        for rating in by_entry.values():
            rating.updated_at = now
            rating.save()
        Table.objects.filter(pk=table.pk).update(rated=True)


def standings(variant: str) -> QuerySet[PeopleRating]:
    """The people ladder of ``variant``, best first (read a page at a time: the index
    ``people_standings`` gives the order, so a page costs the same however many played)."""
    return (
        PeopleRating.objects.filter(variant=variant)
        .select_related("person", "bot")
        .only("elo", "games", "wins", "losses", "person__username", "bot__name", "bot__uuid")
        .order_by("-elo", "pk")
    )


def bot_record(bot: Bot) -> list[PeopleRating]:
    """``bot``'s places on the people ladders (its record against people), by variant."""
    return list(PeopleRating.objects.filter(bot=bot).order_by("variant"))
