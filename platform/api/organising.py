"""The API of challenges (and the other organisers' features): plain views like
:mod:`api.views`, public ids only, ``{"error": ...}`` on refusal.

* ``GET /challenges/`` (``challenger``: a username; ``limit``), ``POST /challenges/`` with a
  token: ``bot`` (your bot's id), ``variant``, ``players``, ``opponents`` (their ids), ``deals``
  as JSON or a form; refused with the reason (a limit, an opponent that does not accept).
* ``GET /challenges/<id>/``: its match and, once played, the edge over each opponent.
* ``POST /bots/<id>/challenges/`` (``accept``: true or false): the owner's switch.
* ``GET /bots/<id>/vs/<other id>/``: the matchup of two bots (:mod:`matchups.services`).
* ``GET``/``POST /notifications/``, ``POST /notifications/test/``,
  ``GET /notifications/deliveries/``: your notifications (token required).
* ``GET /seasons/``, ``/seasons/<id>/``: ladders' seasons, with their kept standings.
"""

import json
import math
import uuid
from typing import Any

from challenges import services as challenge_services
from challenges.models import Challenge
from challenges.tasks import make_challenge
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from matches.models import Match
from matchups import services as matchup_services
from notifications import services as notification_services
from notifications import webhooks
from notifications.models import EVENT_KINDS, Channel, Delivery
from notifications.tasks import send_test as send_notification_test
from seasons.models import Season
from submissions.models import Bot

from api.decorators import api, error
from api.views import BadParameter, _int_param, _iso, _owned, _user, match_dict

MAX_LIMIT = 100


def _number(value: float) -> float | None:
    """A float for JSON: NaN (no interval below two deals) as null."""
    return None if math.isnan(value) else round(value, 4)


def challenge_dict(challenge: Challenge, detail: bool = False) -> dict[str, Any]:
    match = challenge.match
    bot = challenge.version.bot
    data: dict[str, Any] = {
        "id": str(challenge.uuid),
        "challenger": challenge.challenger.username,
        "bot": {"id": str(bot.uuid), "name": bot.name},
        "version": challenge.version.number,
        "variant": match.variant,
        "players": match.players,
        "deals": challenge.deals,
        "games": match.games,
        "status": match.status,
        "rated": False,
        "created_at": _iso(challenge.created_at),
        "finished_at": _iso(match.finished_at),
        "url": reverse("api-challenge", args=[challenge.uuid]),
        "page": challenge.get_absolute_url(),
        "match": reverse("api-match", args=[match.uuid]),
    }
    if detail:
        data["edges"] = [
            {
                "opponent": {"id": str(e.opponent.uuid), "name": e.opponent.name},
                "seat": e.seat,
                "deals": e.comparison.games,
                "edge": round(e.comparison.mean_diff, 4),
                "half_width": _number(e.comparison.half_width),
                "los": _number(e.comparison.los),
                "significant": e.comparison.significant,
                "per_deal": [round(x, 4) for x in e.per_deal],
            }
            for e in challenge_services.edges(challenge)
        ]
        data["error"] = match.error
    return data


def _body(request: HttpRequest) -> dict[str, Any]:
    """The request's fields: a JSON object, or a form (``opponents`` repeated or comma
    separated)."""
    if request.content_type == "application/json":
        try:
            body = json.loads(request.body or b"{}")
        except ValueError:
            raise BadParameter("The body is not JSON.") from None
        if not isinstance(body, dict):
            raise BadParameter("The body must be a JSON object.")
        return body
    fields: dict[str, Any] = {key: request.POST.get(key) for key in request.POST}
    opponents = [part for v in request.POST.getlist("opponents") for part in v.split(",") if part]
    fields["opponents"] = opponents
    return fields


def _whole(body: dict[str, Any], name: str, default: int | None = None) -> int:
    value = body.get(name, default)
    if isinstance(value, bool) or value is None:
        raise BadParameter(f"Give '{name}' as a whole number.")
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 6:
        value = int(value)
    if not isinstance(value, int):
        raise BadParameter(f"'{name}' must be a whole number, not {value!r}.")
    return value


def _bot_id(value: Any, name: str) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise BadParameter(f"'{name}' must be a bot's id (a UUID), not {value!r}.") from None


@api(methods=("GET", "POST"))
def challenges(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        return _create(request)
    try:
        limit = _int_param(request, "limit", 20, MAX_LIMIT)
    except BadParameter as problem:
        return error(400, str(problem))
    found = Challenge.objects.select_related("challenger", "match", "version__bot")
    if challenger := request.GET.get("challenger"):
        found = found.filter(challenger__username=challenger)
    return JsonResponse({"challenges": [challenge_dict(c) for c in found[:limit]]})


def _create(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    if user is None:
        return error(401, "A challenge needs an API token: send 'Authorization: Bearer <token>'.")
    try:
        body = _body(request)
        bot_id = _bot_id(body.get("bot"), "bot")
        raw = body.get("opponents")
        if not isinstance(raw, list) or not raw:
            raise BadParameter("Give 'opponents': a list of bot ids.")
        opponent_ids = [_bot_id(o, "opponents") for o in raw]
        deals = _whole(body, "deals")
        players = _whole(body, "players", len(opponent_ids) + 1)
        variant = body.get("variant", "basic")
        if not isinstance(variant, str):
            raise BadParameter("'variant' must be a string.")
    except BadParameter as problem:
        return error(400, str(problem))
    mine = Bot.objects.filter(uuid=bot_id).first()
    if mine is None:
        return error(400, f"No bot has the id {bot_id}.")
    by_id = {b.uuid: b for b in Bot.objects.filter(uuid__in=opponent_ids)}
    missing = [str(o) for o in opponent_ids if o not in by_id]
    if missing:
        return error(400, f"No bot has the id {missing[0]}.")
    try:
        challenge = make_challenge(
            user, mine, variant, players, [by_id[o] for o in opponent_ids], deals
        )
    except challenge_services.ChallengeLimit as limited:
        return error(429, str(limited))
    except challenge_services.ChallengeRefused as refused:
        return error(400, str(refused))
    return JsonResponse({"challenge": challenge_dict(challenge, detail=True)}, status=201)


@api()
def challenge(request: HttpRequest, challenge_uuid: uuid.UUID) -> HttpResponse:
    found = get_object_or_404(
        Challenge.objects.select_related("challenger", "match", "version__bot"),
        uuid=challenge_uuid,
    )
    match = (
        type(found.match)
        .objects.select_related("ladder")
        .prefetch_related("seats__bot", "seats__version")
        .get(pk=found.match_id)
    )
    data = challenge_dict(found, detail=True)
    data["seats"] = match_dict(match)["seats"]
    return JsonResponse({"challenge": data})


@api(methods=("POST",), auth="required")
def bot_challenges(request: HttpRequest, bot_uuid: uuid.UUID) -> HttpResponse:
    """The owner's switch: ``accept`` true lets others challenge the bot, false stops it."""
    owned = _owned(request, bot_uuid)
    if isinstance(owned, HttpResponse):
        return owned
    try:
        body = _body(request)
    except BadParameter as problem:
        return error(400, str(problem))
    accept = body.get("accept")
    if isinstance(accept, str) and accept.lower() in ("true", "false", "1", "0"):
        accept = accept.lower() in ("true", "1")
    if not isinstance(accept, bool):
        return error(400, "Give 'accept': true or false.")
    challenge_services.set_accepts_challenges(owned, accept)
    return JsonResponse(
        {
            "bot": {"id": str(owned.uuid), "name": owned.name},
            "accepts_challenges": challenge_services.accepts_challenges(owned),
        }
    )


# ---------------------------------------------------------------------------- matchups


@api()
def matchup(request: HttpRequest, bot_uuid: uuid.UUID, other_uuid: uuid.UUID) -> HttpResponse:
    """Every kind of game two bots shared, from the first's side, and a page of their shared
    matches, newest first (``before``: the last match's id of the page before)."""
    a = get_object_or_404(Bot, uuid=bot_uuid)
    b = get_object_or_404(Bot, uuid=other_uuid)
    if a.pk == b.pk:
        return error(400, "A bot shares no games with itself: give two bots.")
    before = None
    if wanted := request.GET.get("before"):
        key = (
            Match.objects.filter(uuid=wanted).values_list("created_at", "pk").first()
            if matchup_services.is_uuid(wanted)
            else None
        )
        if key is None:
            return error(400, "'before' must be the id of a match on the page before.")
        before = key
    kinds = matchup_services.kinds(a.pk, b.pk)
    games, more = matchup_services.shared_games(a.pk, b.pk, before)
    next_page = None
    if more and games:
        next_page = (
            reverse("api-matchup", args=[a.uuid, b.uuid]) + f"?before={games[-1].match.uuid}"
        )
    return JsonResponse(
        {
            "bot": {"id": str(a.uuid), "name": a.name},
            "opponent": {"id": str(b.uuid), "name": b.name},
            "page": reverse("matchup", args=[a.uuid, b.uuid]),
            "kinds": [
                {
                    "variant": k.variant,
                    "players": k.players,
                    "rated": k.rated,
                    "games": k.games,
                    "wins": k.wins,
                    "draws": k.draws,
                    "losses": k.losses,
                    "deals": k.comparison.games,
                    "edge": round(k.comparison.mean_diff, 4),
                    "half_width": _number(k.comparison.half_width),
                    "los": _number(k.comparison.los),
                    "significant": k.comparison.significant,
                }
                for k in kinds
            ],
            "games": [
                {
                    "match": reverse("api-match", args=[g.match.uuid]),
                    "id": str(g.match.uuid),
                    "created_at": _iso(g.match.created_at),
                    "variant": g.match.variant,
                    "players": g.match.players,
                    "rated": g.rated,
                    "score": g.score,
                    "opponent_score": g.opponent_score,
                    "rank": g.rank,
                    "opponent_rank": g.opponent_rank,
                    "deals": g.deals,
                    "edge": round(g.edge, 4),
                }
                for g in games
            ],
            "next": next_page,
        }
    )


# ---------------------------------------------------------------------------- notifications


CHOOSABLE = tuple(kind for kind in EVENT_KINDS if kind != "test")


def _channel_dict(channel: Channel) -> dict[str, Any]:
    return {
        "webhook_url": channel.webhook_url,
        "webhook_secret": channel.webhook_secret,
        "events": {
            kind: {"email": channel.wants(kind, "email"), "webhook": channel.wants(kind, "webhook")}
            for kind in CHOOSABLE
        },
    }


@api(methods=("GET", "POST"), auth="required")
def notifications(request: HttpRequest) -> HttpResponse:
    """GET: your choices; POST (JSON): ``webhook_url`` and/or ``events`` ({kind: {"email":
    bool, "webhook": bool}}) to change them."""
    user = _user(request)
    assert user is not None
    channel, _ = Channel.objects.get_or_create(user=user)
    if request.method == "POST":
        try:
            body = _body(request)
        except BadParameter as problem:
            return error(400, str(problem))
        if "webhook_url" in body:
            url = body["webhook_url"]
            if not isinstance(url, str) or len(url) > 500:
                return error(400, "'webhook_url' must be a string of at most 500 characters.")
            if url:
                try:
                    webhooks.check_url(url)
                except webhooks.WebhookRefused as refused:
                    return error(400, str(refused))
            channel.webhook_url = url
            channel.save(update_fields=["webhook_url"])
        if "events" in body:
            events = body["events"]
            unknown = [k for k in events if k not in CHOOSABLE] if isinstance(events, dict) else []
            if not isinstance(events, dict) or not all(
                isinstance(v, dict) and all(isinstance(x, bool) for x in v.values())
                for v in events.values()
            ):
                return error(
                    400, '\'events\' must map event kinds to {"email": bool, "webhook": bool}.'
                )
            if unknown:
                return error(
                    400,
                    f"Unknown event {unknown[0]!r}; events: {', '.join(CHOOSABLE)}.",
                )
            notification_services.set_choices(channel, events)
    return JsonResponse({"notifications": _channel_dict(channel)})


@api(methods=("POST",), auth="required")
def notifications_test(request: HttpRequest) -> HttpResponse:
    """Send a test event to your e-mail address and webhook."""
    user = _user(request)
    assert user is not None
    sent = send_notification_test(user.pk)
    if not sent:
        return error(400, "Nowhere to send it: give your account an e-mail address or a webhook.")
    return JsonResponse({"deliveries": sent}, status=202)


@api(auth="required")
def notification_deliveries(request: HttpRequest) -> HttpResponse:
    """Your latest deliveries, newest first, with their attempts."""
    user = _user(request)
    try:
        limit = _int_param(request, "limit", 20, MAX_LIMIT)
    except BadParameter as problem:
        return error(400, str(problem))
    found = (
        Delivery.objects.filter(event__user=user)
        .select_related("event")
        .prefetch_related("log")[:limit]
    )
    return JsonResponse(
        {
            "deliveries": [
                {
                    "event": str(d.event.uuid),
                    "kind": d.event.kind,
                    "subject": d.event.subject,
                    "way": d.way,
                    "target": d.target,
                    "status": d.status,
                    "attempts": d.attempts,
                    "created_at": _iso(d.created_at),
                    "sent_at": _iso(d.sent_at),
                    "log": [
                        {"at": _iso(a.at), "ok": a.ok, "status": a.status_code, "detail": a.detail}
                        for a in d.log.all()
                    ],
                }
                for d in found
            ]
        }
    )


# ---------------------------------------------------------------------------- seasons


def season_dict(season: Season, detail: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(season.uuid),
        "ladder": str(season.ladder.uuid),
        "number": season.number,
        "name": season.name,
        "status": season.status,
        "starts_at": _iso(season.starts_at),
        "freezes_at": _iso(season.freezes_at),
        "ends_at": _iso(season.ends_at),
        "finalists": season.finalists,
        "carry_over": season.carry_over,
        "final": reverse("tournament", args=[season.tournament.uuid])
        if season.tournament is not None
        else None,
        "url": reverse("api-season", args=[season.uuid]),
        "page": season.get_absolute_url(),
    }
    if detail:
        data["standings"] = season.standings
        data["final_standings"] = season.final_standings
        data["note"] = season.note
    return data


@api()
def seasons(request: HttpRequest) -> HttpResponse:
    """Seasons, the latest first (``ladder``: a ladder's id)."""
    found = Season.objects.select_related("ladder", "tournament")
    if wanted := request.GET.get("ladder"):
        if not matchup_services.is_uuid(wanted):
            return error(400, "'ladder' must be a ladder's id (a UUID).")
        found = found.filter(ladder__uuid=wanted)
    return JsonResponse({"seasons": [season_dict(s) for s in found[:MAX_LIMIT]]})


@api()
def season(request: HttpRequest, season_uuid: uuid.UUID) -> HttpResponse:
    found = get_object_or_404(
        Season.objects.select_related("ladder", "tournament"), uuid=season_uuid
    )
    return JsonResponse({"season": season_dict(found, detail=True)})
