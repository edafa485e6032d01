"""The page of one pair of bots: ``/bots/<a>/vs/<b>/``, from ``a``'s side."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from matches.models import Match
from submissions.models import Bot

from matchups import services


def matchup(request: HttpRequest, bot_uuid: str, other_uuid: str) -> HttpResponse:
    """Every kind of game ``a`` and ``b`` shared (edge per deal ± 95% interval, LOS, W–D–L,
    history chart) and their shared matches, newest first, a page at a time (``before``: the
    last match's id on the page before)."""
    pair = {
        b.uuid: b
        for b in Bot.objects.select_related("owner").filter(uuid__in=[bot_uuid, other_uuid])
    }
    a, b = pair.get(bot_uuid), pair.get(other_uuid)  # type: ignore[call-overload]
    if a is None or b is None:
        raise Http404("No such bot.")
    if a.pk == b.pk:
        raise Http404("A bot shares no games with itself.")
    before = None
    if wanted := request.GET.get("before"):
        key = (
            Match.objects.filter(uuid=wanted).values_list("created_at", "pk").first()
            if services.is_uuid(wanted)
            else None
        )
        if key is None:
            raise Http404("No such match to page from.")
        before = key
    found = services.kinds(a.pk, b.pk)
    games, more = services.shared_games(a.pk, b.pk, before)
    return render(
        request,
        "matchups/matchup.html",
        {
            "a": a,
            "b": b,
            "kinds": found,
            "totals": services.totals(found),
            "games": games,
            "next_before": games[-1].match.uuid if more and games else None,
            "paged": before is not None,
            "section": "ladders",
        },
    )
