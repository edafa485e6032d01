"""The decision analysis of a game's seat as the viewer's panel reads and requests it (JSON).

Who may read and who may ask, and the limits: :mod:`matches.analyses`.
"""

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET, require_POST

from matches import analyses, tasks
from matches.models import Match
from matches.views import open_match


@require_GET
def analysis(request: HttpRequest, match_uuid: str, game: int, seat: int) -> JsonResponse:
    """The analysis of ``seat`` of ``game``: its status and, once done, the result (public)."""
    match = open_match(request, Match.objects.all(), uuid=match_uuid, status=Match.FINISHED)
    try:
        analyses.check_target(match, game, seat)
    except analyses.RequestRefused as refused:
        return JsonResponse({"error": str(refused)}, status=404)
    response = JsonResponse(analyses.to_json(analyses.find(match, game, seat)))
    response["Cache-Control"] = "no-cache"  # it goes from queued to done
    return response


@require_POST
def request_analysis(request: HttpRequest, match_uuid: str, game: int) -> JsonResponse:
    """Ask for the analysis of the posted ``seat``: 202 when this request started it, 200 when
    it existed, 400/403/429 with the reason otherwise."""
    match = open_match(request, Match.objects.all(), uuid=match_uuid, status=Match.FINISHED)
    if not request.user.is_authenticated:
        return JsonResponse({"error": "Sign in to ask for an analysis."}, status=403)
    text = request.POST.get("seat", "")
    # isascii: "²" is a digit to isdigit, not to int.
    if not (text.isascii() and text.isdigit()) or len(text) > 3:
        return JsonResponse({"error": "Choose a seat (a number) to analyse."}, status=400)
    try:
        requested = tasks.request_analysis(match, game, int(text), request.user)
    except analyses.RateLimited as limited:
        return JsonResponse({"error": str(limited)}, status=429)
    except analyses.RequestRefused as refused:
        return JsonResponse({"error": str(refused)}, status=400)
    return JsonResponse(
        analyses.to_json(requested.analysis), status=202 if requested.created else 200
    )
