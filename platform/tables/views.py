"""A person's tables: the Play page (choose the variant, the bots, the clock), the table
itself (the live board and the person's own hand and decisions), the JSON the table's script
polls and posts, the guest's one-click game and the people ladders.

A table's page, state and answers are its person's only: anybody else gets a 404, as if it did
not exist (spectators watch the match's live page, which shows no hand).
"""

import json
import secrets
from typing import Any

from accounts.throttle import client_ip
from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_ratelimit.core import get_usage
from redis.exceptions import RedisError
from submissions.models import Bot

from arena.engine.variants import VARIANT_NAMES
from arena.engine.variants import variant as get_variant
from tables import services
from tables.ladder import standings
from tables.models import Guest, Table
from tables.tasks import start_table

#: The guest's game (the demo's one-click play): basic against two house bots, these first.
GUEST_VARIANT = "basic"
GUEST_BOTS = 2
GUEST_OPPONENTS = ("heuristic", "random")
GUEST_TIME = "relaxed"
#: Guest accounts one address may make (each is a user row).
GUEST_RATE = "30/h"
#: The longest answer body taken: ``{"request": N, "decision": "..."}`` is a few dozen bytes.
MAX_ANSWER_BYTES = 1024
PEOPLE_LADDER_PAGE_SIZE = 50


class PlayForm(forms.Form):
    variant = forms.ChoiceField(choices=[(v, v) for v in VARIANT_NAMES])
    bots = forms.ModelMultipleChoiceField(
        queryset=Bot.objects.none(), widget=forms.CheckboxSelectMultiple
    )
    clock = forms.ChoiceField(
        choices=[(t.key, t.label) for t in services.TIME_CONTROLS], initial="normal"
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["bots"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = Bot.objects.filter(pk__in=[b.pk for b in services.playable_bots()])


def _clock(key: str) -> services.TimeControl:
    return next(t for t in services.TIME_CONTROLS if t.key == key)


def _counts(variant: str) -> str:
    players = get_variant(variant).players
    return f"{players.start}–{players.stop - 1}"


def _own_table(request: HttpRequest, table_uuid: str) -> Table:
    """The table, if it is the requesting user's; a 404 for anybody else."""
    if not request.user.is_authenticated:
        raise Http404("No such table.")
    return get_object_or_404(
        Table.objects.select_related("match"), uuid=table_uuid, person=request.user
    )


def play(request: HttpRequest) -> HttpResponse:
    """Set up a table: a variant, the bots to play, the clock. A visitor who is not logged in
    is offered the guest's game (no account needed) and told that choosing a table takes one;
    a person at a table already gets the way back to it, or to resign it."""
    if not request.user.is_authenticated:
        return render(request, "tables/play.html", {"counts": _all_counts(), "section": "play"})
    form = PlayForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        clock = _clock(form.cleaned_data["clock"])
        try:
            table = services.create_table(
                request.user,
                form.cleaned_data["variant"],
                list(form.cleaned_data["bots"]),
                decision_ms=clock.decision_ms,
                bank_ms=clock.bank_ms,
                guest=hasattr(request.user, "guest"),
                address=client_ip(request),
            )
        except services.TableRefused as refused:
            form.add_error(None, str(refused))
        else:
            start_table(table)
            return redirect(table)
    recent = Table.objects.filter(person_id=request.user.pk).select_related("match")[:10]
    return render(
        request,
        "tables/play.html",
        {
            "form": form,
            "counts": _all_counts(),
            "recent": recent,
            "playing": services.open_table_of(request.user),
            "section": "play",
        },
    )


def _all_counts() -> dict[str, str]:
    return {v: _counts(v) for v in VARIANT_NAMES}


def _no_table(request: HttpRequest, refused: services.TableRefused) -> HttpResponse:
    return render(
        request,
        "error.html",
        {"title": "No table free", "message": f"Sorry: {refused}."},
        status=503,
    )


def _guest_order(bot: Bot) -> int:
    names = GUEST_OPPONENTS
    return names.index(bot.name) if bot.name in names else len(names)


@require_POST
def play_as_guest(request: HttpRequest) -> HttpResponse:
    """One click from the home page: a game of basic against two house bots, as a guest of
    this browser session (a logged-in user keeps their account)."""
    user = request.user
    if not user.is_authenticated:
        try:
            with transaction.atomic():  # before a guest is made for nothing
                services.check_room(client_ip(request))
        except services.TableRefused as refused:
            return _no_table(request, refused)
        try:
            usage = get_usage(request, group="guests", key="ip", rate=GUEST_RATE, increment=True)
        except RedisError:  # the counters cannot be read: refuse rather than count nothing
            return render(
                request,
                "error.html",
                {
                    "title": "Try again in a minute",
                    "message": "Guest games are unavailable for a moment; try again in a minute.",
                },
                status=503,
            )
        if usage is not None and usage["should_limit"]:
            return render(
                request,
                "error.html",
                {
                    "title": "Too many guests",
                    "message": "Too many guest games from your "
                    "address for now; sign up, or try again in an hour.",
                },
                status=429,
            )
        name = f"guest-{secrets.token_hex(4)}"
        user = get_user_model().objects.create_user(name)  # no password: the session only
        Guest.objects.create(user=user)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    if (playing := services.open_table_of(user)) is not None:
        return redirect(playing)  # back to the game under way
    house = [bot for bot in services.playable_bots() if bot.is_house]
    # The quick, sensible house bots first: a guest should not wait on a searching bot.
    house.sort(key=_guest_order)
    house = house[:GUEST_BOTS]
    if len(house) < GUEST_BOTS:
        raise Http404("There are no house bots to play yet.")
    clock = _clock(GUEST_TIME)
    try:
        table = services.create_table(
            user,
            GUEST_VARIANT,
            house,
            decision_ms=clock.decision_ms,
            bank_ms=clock.bank_ms,
            guest=hasattr(user, "guest"),
            address=client_ip(request),
        )
    except services.TableRefused as refused:
        if (playing := services.open_table_of(user)) is not None:
            return redirect(playing)  # a second click set its table up first
        return _no_table(request, refused)
    start_table(table)
    return redirect(table)


def table(request: HttpRequest, table_uuid: str) -> HttpResponse:
    """The person's table: the live board, their hand and the decision asked."""
    table = _own_table(request, table_uuid)
    match = table.match
    return render(
        request,
        "tables/table.html",
        {
            "table": table,
            "match": match,
            "live_url": reverse("match-live-events", args=[match.uuid]),
            "state_url": reverse("table-state", args=[table.uuid]),
            "answer_url": reverse("table-answer", args=[table.uuid]),
            "section": "play",
        },
    )


@require_GET
def table_state(request: HttpRequest, table_uuid: str) -> JsonResponse:
    """The table as its person sees it (JSON), polled by the table's script."""
    table = _own_table(request, table_uuid)
    response = JsonResponse(services.state(table))
    response["Cache-Control"] = "no-store"
    return response


@require_POST
def table_answer(request: HttpRequest, table_uuid: str) -> JsonResponse:
    """The person's decision: ``{"request": N, "decision": "tile 42"}``."""
    table = _own_table(request, table_uuid)
    if len(request.body) > MAX_ANSWER_BYTES:
        return JsonResponse({"error": f"an answer is at most {MAX_ANSWER_BYTES} bytes"}, status=413)
    try:
        body = json.loads(request.body)
    except (ValueError, RecursionError):  # RecursionError: nested too deep
        return JsonResponse({"error": "the body must be JSON"}, status=400)
    if not isinstance(body, dict):
        return JsonResponse({"error": "the body must be a JSON object"}, status=400)
    try:
        taken = services.answer(table, body.get("request"), body.get("decision"))
    except services.AnswerRefused as refused:
        return JsonResponse({"error": str(refused)}, status=refused.status)
    return JsonResponse({"taken": taken})


@require_POST
def table_resign(request: HttpRequest, table_uuid: str) -> HttpResponse:
    """The person gives the table's game up (:func:`tables.services.resign`): the bots finish
    it at once, and the person may sit down at another table."""
    table = _own_table(request, table_uuid)
    if services.resign(table):
        messages.info(request, "You resigned: the bots finish the game without you.")
    return redirect(table)


def people_ladder(request: HttpRequest, variant: str) -> HttpResponse:
    """The people-versus-bots ladder of ``variant``."""
    if variant not in VARIANT_NAMES:
        raise Http404("No such variant.")
    paginator = Paginator(standings(variant), PEOPLE_LADDER_PAGE_SIZE, allow_empty_first_page=True)
    page = paginator.get_page(request.GET.get("page"))
    return render(
        request,
        "tables/ladder.html",
        {
            "variant": variant,
            "variants": VARIANT_NAMES,
            "ratings": page.object_list,
            "page": page,
            "section": "play",
        },
    )


@login_required
@require_POST
def bot_plays_people(request: HttpRequest, bot_uuid: str) -> HttpResponse:
    """The bot's owner lets people choose it as an opponent, or stops it (``allow`` 1 or 0)."""
    bot = get_object_or_404(Bot, uuid=bot_uuid, owner=request.user)
    allow = request.POST.get("allow")
    if allow not in ("0", "1"):
        return render(
            request,
            "error.html",
            {"title": "Bad request", "message": "'allow' must be 0 or 1."},
            status=400,
        )
    Bot.objects.filter(pk=bot.pk).update(plays_people=allow == "1")
    return redirect(reverse("bot", args=[bot.uuid]) + "#against-people")
