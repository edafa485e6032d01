"""A match's public page, its replay downloads, and each bot's log (for that bot's owner)."""

from pathlib import Path

from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from matches.models import Match


def match(request: HttpRequest, match_uuid: str) -> HttpResponse:
    match = get_object_or_404(Match.objects.select_related("ladder"), uuid=match_uuid)
    seats = match.seats.select_related("bot", "bot__owner", "version").order_by("seat")
    rows = [
        (seat, seat.bot.owner_id == request.user.pk or bool(getattr(request.user, "is_staff", 0)))
        for seat in seats
    ]
    return render(request, "matches/match.html", {"match": match, "rows": rows})


def match_file(match: Match, name: str) -> Path:
    """A file of a finished match's folder; 404 unless it is really inside that folder."""
    folder = match.result_path
    if folder is None or not name:
        raise Http404("This match has no files.")
    path = (folder / name).resolve()
    if not path.is_relative_to(folder.resolve()) or not path.is_file():
        raise Http404("No such file.")
    return path


def replay(request: HttpRequest, match_uuid: str, game: int) -> FileResponse:
    match = get_object_or_404(Match, uuid=match_uuid, status=Match.FINISHED)
    if not 1 <= game <= len(match.replays):
        raise Http404("No such game in this match.")
    path = match_file(match, match.replays[game - 1])
    return FileResponse(
        path.open("rb"),
        as_attachment=True,
        filename=f"nimmt-{match.uuid}-game-{game}.json",
        content_type="application/json",
    )


def bot_log(request: HttpRequest, match_uuid: str, seat: int) -> FileResponse:
    match = get_object_or_404(Match, uuid=match_uuid, status=Match.FINISHED)
    row = get_object_or_404(match.seats.select_related("bot"), seat=seat)
    if row.bot.owner_id != request.user.pk and not getattr(request.user, "is_staff", False):
        raise PermissionDenied("A bot's log is for its owner.")
    path = match_file(match, row.log_file)
    return FileResponse(path.open("rb"), content_type="text/plain; charset=utf-8")
