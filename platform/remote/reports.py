"""Keeping a played match's remote seats' network figures (round trip, allowance, reconnects)
from the runner's result, for the match page (:class:`remote.models.RemoteSeatNetwork`)."""

from typing import Any

from matches.models import Match

from arena.runner.results import MatchResult
from remote.models import RemoteSeatNetwork


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def keep(match: Match, result: MatchResult) -> None:
    """Record the network of every remote seat of ``match`` (stored, seats in lineup order)."""
    seats = {seat.seat: seat for seat in match.seats.all()}
    for number, bot in enumerate(result.bots):
        if bot.network is None or number not in seats:
            continue
        figures = bot.network
        RemoteSeatNetwork.objects.update_or_create(
            seat=seats[number],
            defaults={
                "rtt_ms": _number(figures.get("rtt_ms")),
                "answer_ms_median": _number(figures.get("answer_ms_median")),
                "network_allowance_ms": _number(figures.get("network_allowance_ms")) or 0.0,
                "reconnects": int(_number(figures.get("reconnects")) or 0),
            },
        )


def for_match(match: Match) -> dict[int, RemoteSeatNetwork]:
    """The remote seats' network of ``match``, by seat number."""
    return {
        row.seat.seat: row
        for row in RemoteSeatNetwork.objects.filter(seat__match=match).select_related("seat")
    }
