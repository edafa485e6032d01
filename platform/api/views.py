"""The JSON API's views: plain functions, public ids (UUIDs) only, ``{"error": ...}`` on refusal.

Reads are public; a bot's owner (by token) also sees its versions that did not pass, their
validation logs and its pause reason. Writes (upload, activate, retire, resume) need the owner's
token.
"""

import json
import uuid
from typing import Any

from accounts.models import User
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404
from django.urls import reverse
from ladders.models import STANDINGS_RATING, Ladder, Rating
from ladders.services import standings
from matches import dataset as game_dataset
from matches.listing import Listing
from matches.models import Match, public_faults
from matches.views import frames as frames_file
from matches.views import open_match
from matches.views import replay as replay_file
from remote import services as remote_services
from submissions import services
from submissions.models import Bot, BotVersion

from api import openapi
from api.decorators import api, error

MAX_LIMIT = 100


def _user(request: HttpRequest) -> User | None:
    user: User | None = getattr(request, "api_user", None)
    return user


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def ladder_dict(ladder: Ladder) -> dict[str, Any]:
    return {
        "id": str(ladder.uuid),
        "slug": ladder.slug,
        "name": ladder.name,
        "variant": ladder.variant,
        "players": ladder.players,
        "active": ladder.is_active,
        "standings_url": reverse("api-standings", args=[ladder.uuid]),
        "standings_order": STANDINGS_RATING,
    }


def rating_dict(rating: Rating, place: int | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"place": place} if place is not None else {}
    data.update(
        bot={"id": str(rating.bot.uuid), "name": rating.bot.name, "state": rating.bot.state},
        margin=round(rating.margin_mu, 3),
        margin_uncertainty=round(rating.margin_sigma, 3),
        margin_order=round(rating.margin, 3),
        elo=round(rating.elo, 2),
        elo_uncertainty=round(rating.uncertainty, 1),
        provisional=rating.provisional,
        games=rating.games,
        mu=round(rating.mu, 4),
        sigma=round(rating.sigma, 4),
        ordinal=round(rating.ordinal, 4),
    )
    return data


def version_dict(version: BotVersion, owner_view: bool) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(version.uuid),
        "bot": str(version.bot.uuid),
        "number": version.number,
        "status": version.status,
        "created_at": _iso(version.created_at),
        "validated_at": _iso(version.validated_at),
        "url": reverse("api-version", args=[version.uuid]),
    }
    if owner_view:
        data["validation_log"] = version.validation_log
        data["manifest"] = version.manifest
        data["upload"] = {
            "name": version.upload_name,
            "size": version.upload_size,
            "sha256": version.upload_sha256,
        }
    return data


def bot_dict(bot: Bot, owner_view: bool) -> dict[str, Any]:
    active = bot.active_version
    data: dict[str, Any] = {
        "id": str(bot.uuid),
        "name": bot.name,
        "owner": bot.owner.username,
        "house": bot.is_house,
        "state": bot.state,
        "active_version": active.number if active else None,
        "retired_at": _iso(bot.retired_at),
        "paused_at": _iso(bot.paused_at),
        "created_at": _iso(bot.created_at),
        "url": reverse("api-bot", args=[bot.uuid]),
        "versions_url": reverse("api-bot-versions", args=[bot.uuid]),
    }
    if owner_view:
        data["pause_reason"] = bot.pause_reason
    return data


def match_dict(match: Match, detail: bool = False, viewer: User | None = None) -> dict[str, Any]:
    """A match; with ``detail``, fault details only for the seats ``viewer`` owns."""
    data: dict[str, Any] = {
        "id": str(match.uuid),
        "ladder": str(match.ladder.uuid) if match.ladder else None,
        "variant": match.variant,
        "players": match.players,
        "games": match.games,
        "seed": match.seed,
        "duplicate": match.duplicate,
        "ranked_by": match.ranking.value,
        "status": match.status,
        "created_at": _iso(match.created_at),
        "finished_at": _iso(match.finished_at),
        "rated": match.rated,
        "url": reverse("api-match", args=[match.uuid]),
        "seats": [
            {
                "seat": seat.seat,
                "bot": {"id": str(seat.bot.uuid), "name": seat.bot.name},
                "version": seat.version.number,
                "score": seat.score,
                "rank": seat.rank,
                "faults": (
                    public_faults(
                        seat.faults, viewer is not None and seat.bot.owner_id == viewer.pk
                    )
                    if detail
                    else len(seat.faults)
                ),
            }
            for seat in match.seats.all()
        ],
    }
    if detail:
        data["error"] = match.error
        data["replays"] = [
            reverse("api-match-replay", args=[match.uuid, n])
            for n in range(1, len(match.replays) + 1)
        ]
        data["frames"] = [
            reverse("api-match-frames", args=[match.uuid, n])
            for n in range(1, len(match.replays) + 1)
        ]
        changes = match.rating_changes.select_related("rating__bot")
        data["rating_changes"] = [
            {
                "bot": str(change.rating.bot.uuid),
                "rank": change.rank,
                "elo_before": round(change.elo_before, 2),
                "elo_after": round(change.elo_after, 2),
                "mu_before": round(change.mu_before, 4),
                "mu_after": round(change.mu_after, 4),
                "sigma_before": round(change.sigma_before, 4),
                "sigma_after": round(change.sigma_after, 4),
            }
            for change in changes
        ]
    return data


def _uuid_param(request: HttpRequest, name: str) -> uuid.UUID | None:
    value = request.GET.get(name)
    if value is None:
        return None
    try:
        return uuid.UUID(value)
    except ValueError:
        raise BadParameter(f"'{name}' must be a UUID, not {value!r}.") from None


def _int_param(request: HttpRequest, name: str, default: int, maximum: int) -> int:
    value = request.GET.get(name)
    if value is None:
        return default
    # isascii: "²" is a digit to isdigit, not to int; the length keeps int() cheap
    if not (value.isascii() and value.isdigit() and len(value) <= 18) or int(value) > maximum:
        raise BadParameter(f"'{name}' must be a whole number from 0 to {maximum}.")
    return int(value)


class BadParameter(ValueError):
    pass


# ---------------------------------------------------------------------------- the index


@api()
def index(request: HttpRequest) -> HttpResponse:
    """What the API offers: each path with its methods and summary, and the description."""
    doc = openapi.document()
    base = reverse("api-index").rstrip("/")
    return JsonResponse(
        {
            "api": f"nimmt-arena/v{openapi.VERSION}",
            "openapi": reverse("api-openapi"),
            "guide": reverse("guide"),
            "paths": [
                {
                    "path": base + path,
                    "methods": sorted(method.upper() for method in operations),
                    "summary": " / ".join(op["summary"] for op in operations.values()),
                }
                for path, operations in doc["paths"].items()
            ],
        }
    )


@api()
def openapi_document(request: HttpRequest) -> HttpResponse:
    """The API's OpenAPI 3.1 description."""
    return JsonResponse(openapi.document())


# ---------------------------------------------------------------------------- ladders


@api()
def ladders(request: HttpRequest) -> HttpResponse:
    return JsonResponse({"ladders": [ladder_dict(ladder) for ladder in Ladder.objects.all()]})


@api()
def ladder(request: HttpRequest, ladder_uuid: uuid.UUID) -> HttpResponse:
    found = get_object_or_404(Ladder, uuid=ladder_uuid)
    return JsonResponse({"ladder": ladder_dict(found)})


@api()
def ladder_standings(request: HttpRequest, ladder_uuid: uuid.UUID) -> HttpResponse:
    found = get_object_or_404(Ladder, uuid=ladder_uuid)
    rows = [rating_dict(r, place) for place, r in enumerate(standings(found), start=1)]
    return JsonResponse({"ladder": ladder_dict(found), "standings": rows})


# ---------------------------------------------------------------------------- bots


@api(methods=("GET", "POST"))
def bots(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        return _create_bot(request)
    found: QuerySet[Bot] = Bot.objects.select_related("owner", "active_version")
    if owner := request.GET.get("owner"):
        found = found.filter(owner__username=owner)
    state = request.GET.get("state")
    if state == "playing":
        found = found.filter(pk__in=Bot.objects.playing().values("pk"))
    elif state == "retired":
        found = found.filter(retired_at__isnull=False)
    elif state == "paused":
        found = found.filter(paused_at__isnull=False, retired_at__isnull=True)
    elif state is not None:
        return error(400, "'state' must be playing, retired or paused.")
    user = _user(request)
    return JsonResponse(
        {
            "bots": [
                bot_dict(b, owner_view=user is not None and b.owner_id == user.pk) for b in found
            ]
        }
    )


def _upload(request: HttpRequest) -> Any:
    upload = request.FILES.get("file")
    if upload is None:
        return None
    return upload


def _create_bot(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    if user is None:
        return error(401, "Uploading needs an API token: send 'Authorization: Bearer <token>'.")
    upload = _upload(request)
    if upload is None:
        return error(400, "Send the bot as a multipart form field named 'file'.")
    try:
        version = services.create_bot(user, request.POST.get("name", ""), upload)
    except services.SubmissionError as refusal:
        return error(400, str(refusal))
    return JsonResponse(
        {"bot": bot_dict(version.bot, owner_view=True), "version": version_dict(version, True)},
        status=201,
    )


@api()
def bot(request: HttpRequest, bot_uuid: uuid.UUID) -> HttpResponse:
    found = get_object_or_404(Bot.objects.select_related("owner", "active_version"), uuid=bot_uuid)
    user = _user(request)
    owner_view = user is not None and found.owner_id == user.pk
    ratings = Rating.objects.filter(bot=found).select_related("ladder", "bot")
    return JsonResponse(
        {
            "bot": bot_dict(found, owner_view),
            "ratings": [{"ladder": str(r.ladder.uuid), **rating_dict(r)} for r in ratings],
        }
    )


def _owned(request: HttpRequest, bot_uuid: uuid.UUID) -> Bot | HttpResponse:
    user = _user(request)
    if user is None:
        return error(401, "This needs the owner's API token: 'Authorization: Bearer <token>'.")
    found = get_object_or_404(Bot, uuid=bot_uuid)
    if found.owner_id != user.pk:
        return error(403, "Only the bot's owner can change it.")
    return found


@api(methods=("GET", "POST"))
def bot_versions(request: HttpRequest, bot_uuid: uuid.UUID) -> HttpResponse:
    if request.method == "POST":
        owned = _owned(request, bot_uuid)
        if isinstance(owned, HttpResponse):
            return owned
        upload = _upload(request)
        if upload is None:
            return error(400, "Send the bot as a multipart form field named 'file'.")
        activate = request.POST.get("activate", "true").lower() not in ("0", "false", "no")
        try:
            version = services.add_version(owned, upload, activate=activate)
        except services.SubmissionError as refusal:
            return error(400, str(refusal))
        return JsonResponse({"version": version_dict(version, True)}, status=201)
    found = get_object_or_404(Bot, uuid=bot_uuid)
    user = _user(request)
    owner_view = user is not None and found.owner_id == user.pk
    versions = found.versions.select_related("bot")
    if not owner_view:
        versions = versions.filter(status=BotVersion.PASSED)
    return JsonResponse({"versions": [version_dict(v, owner_view) for v in versions]})


@api(methods=("POST",), auth="required")
def bot_activate(request: HttpRequest, bot_uuid: uuid.UUID) -> HttpResponse:
    owned = _owned(request, bot_uuid)
    if isinstance(owned, HttpResponse):
        return owned
    wanted = request.POST.get("version")
    if wanted is None and request.content_type == "application/json":
        try:
            wanted = json.loads(request.body or b"{}").get("version")
        except (ValueError, AttributeError):
            return error(400, "The body is not a JSON object.")
    try:
        version = owned.versions.get(uuid=uuid.UUID(str(wanted)))
    except (ValueError, BotVersion.DoesNotExist):
        return error(400, "Give 'version': the id of one of this bot's versions.")
    try:
        services.set_active_version(owned, version)
    except services.SubmissionError as refusal:
        return error(400, str(refusal))
    owned.refresh_from_db()
    return JsonResponse({"bot": bot_dict(owned, owner_view=True)})


@api(methods=("POST",), auth="required")
def bot_retire(request: HttpRequest, bot_uuid: uuid.UUID) -> HttpResponse:
    owned = _owned(request, bot_uuid)
    if isinstance(owned, HttpResponse):
        return owned
    services.retire(owned)
    owned.refresh_from_db()
    return JsonResponse({"bot": bot_dict(owned, owner_view=True)})


@api(methods=("POST",), auth="required")
def bot_resume(request: HttpRequest, bot_uuid: uuid.UUID) -> HttpResponse:
    owned = _owned(request, bot_uuid)
    if isinstance(owned, HttpResponse):
        return owned
    services.resume(owned)
    owned.refresh_from_db()
    return JsonResponse({"bot": bot_dict(owned, owner_view=True)})


@api(methods=("POST", "DELETE"), auth="required")
def bot_remote_token(request: HttpRequest, bot_uuid: uuid.UUID) -> HttpResponse:
    """POST: a new remote token (shown once; the old one is revoked and its connection cut);
    DELETE: revoke the token and cut the connection."""
    owned = _owned(request, bot_uuid)
    if isinstance(owned, HttpResponse):
        return owned
    if request.method == "DELETE":
        return JsonResponse({"revoked": remote_services.revoke(owned)})
    if owned.is_retired:
        return error(400, "A retired bot does not play: resume it first.")
    token = remote_services.issue(owned)
    url = remote_services.gateway_url()
    return JsonResponse({"token": token, "url": url}, status=201)


@api()
def version(request: HttpRequest, version_uuid: uuid.UUID) -> HttpResponse:
    found = get_object_or_404(BotVersion.objects.select_related("bot"), uuid=version_uuid)
    user = _user(request)
    owner_view = user is not None and found.bot.owner_id == user.pk
    if not owner_view and not found.passed:
        return error(404, "No such version.")
    return JsonResponse({"version": version_dict(found, owner_view)})


# ---------------------------------------------------------------------------- matches


@api()
def matches(request: HttpRequest) -> HttpResponse:
    """Matches, newest first; filters ``ladder``, ``bot`` (ids), ``status``; paged by
    ``limit`` and ``offset``."""
    try:
        ladder_id = _uuid_param(request, "ladder")
        bot_id = _uuid_param(request, "bot")
        limit = _int_param(request, "limit", 20, MAX_LIMIT)
        offset = _int_param(request, "offset", 0, 10**9)
    except BadParameter as problem:
        return error(400, str(problem))
    found = (
        Match.objects.listed()
        .select_related("ladder")
        .prefetch_related("seats__bot", "seats__version")
    )
    if ladder_id is not None:
        found = found.filter(ladder__uuid=ladder_id)
    status = request.GET.get("status")
    if status is not None:
        if status not in dict(Match.STATUSES):
            return error(400, f"'status' must be one of {', '.join(dict(Match.STATUSES))}.")
        found = found.filter(status=status)
    bot_pk = None
    if bot_id is not None:
        bot_pk = Bot.objects.filter(uuid=bot_id).values_list("pk", flat=True).first()
        if bot_pk is None:  # no such bot: no matches
            found = found.none()
    page = list(Listing(found, bot_id=bot_pk).newest_first()[offset : offset + limit + 1])
    more = len(page) > limit
    params = request.GET.copy()
    params["offset"] = str(offset + limit)
    return JsonResponse(
        {
            "matches": [match_dict(m) for m in page[:limit]],
            "next": f"{request.path}?{params.urlencode()}" if more else None,
        }
    )


@api()
def match(request: HttpRequest, match_uuid: uuid.UUID) -> HttpResponse:
    found = open_match(
        request,
        Match.objects.select_related("ladder").prefetch_related("seats__bot", "seats__version"),
        uuid=match_uuid,
    )
    return JsonResponse({"match": match_dict(found, detail=True, viewer=_user(request))})


@api()
def dataset(request: HttpRequest) -> HttpResponse:
    """The dataset of every public game: its exports and files (``nimmt dataset`` reads it)."""
    data = game_dataset.manifest()
    for item in data["files"]:
        item["url"] = reverse("dataset-file", args=[item["path"]])
    return JsonResponse(data)


@api()
def match_replay(request: HttpRequest, match_uuid: uuid.UUID, game: int) -> HttpResponseBase:
    return replay_file(request, str(match_uuid), game)


@api()
def match_frames(request: HttpRequest, match_uuid: uuid.UUID, game: int) -> HttpResponseBase:
    """The viewer's frames of a game (``nimmt-frames/1``): the board after every step."""
    return frames_file(request, str(match_uuid), game)
