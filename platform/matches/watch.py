"""A running match watched live: its page (the replay viewer, fed as the game goes) and the
stream of server-sent events behind it (:mod:`matches.live`)."""

from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from matches.live import Position, events
from matches.models import Match
from matches.views import open_match


def live(request: HttpRequest, match_uuid: str) -> HttpResponse:
    """The live viewer of a queued or running match; a finished one's page has its replays."""
    match = open_match(
        request, Match.objects.select_related("ladder", "tournament"), uuid=match_uuid
    )
    if match.status not in (Match.QUEUED, Match.RUNNING):
        return redirect(match)
    return render(
        request,
        "matches/live.html",
        {"match": match, "live_url": reverse("match-live-events", args=[match.uuid])},
    )


def live_events(request: HttpRequest, match_uuid: str) -> StreamingHttpResponse:
    """The match's frames as server-sent events, from the position in ``Last-Event-ID``."""
    match = open_match(request, Match.objects.all(), uuid=match_uuid)
    position = Position.parse(request.headers.get("Last-Event-ID"))
    response = StreamingHttpResponse(events(match, position), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass each event on at once
    return response
