"""The public pages of the ladders: the home page (every ladder's top) and one ladder's table."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from matches.models import Match

from ladders.models import Ladder
from ladders.services import standings


def home(request: HttpRequest) -> HttpResponse:
    ladders = [(ladder, standings(ladder)[:5]) for ladder in Ladder.objects.filter(is_active=True)]
    recent = Match.objects.filter(status=Match.FINISHED).select_related("ladder")[:10]
    return render(request, "ladders/home.html", {"ladders": ladders, "recent": recent})


def ladder(request: HttpRequest, ladder_uuid: str) -> HttpResponse:
    ladder = get_object_or_404(Ladder, uuid=ladder_uuid)
    recent = (
        Match.objects.filter(ladder=ladder)
        .exclude(status=Match.QUEUED)
        .prefetch_related("seats__bot")[:20]
    )
    return render(
        request,
        "ladders/ladder.html",
        {"ladder": ladder, "rows": standings(ladder), "recent": recent},
    )
