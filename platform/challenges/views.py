"""Challenge pages: the list and the form, one challenge's result, and the owner's switch."""

import uuid

from accounts.models import User
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from submissions.models import Bot

from challenges import services
from challenges.forms import ChallengeForm
from challenges.models import Challenge
from challenges.tasks import make_challenge

#: Challenges on the list page (yours, and everyone's latest).
LIST_SIZE = 30


def challenge_list(request: HttpRequest) -> HttpResponse:
    """Everyone's latest challenges; a signed-in user's own, and the form to make one."""
    latest = Challenge.objects.select_related("challenger", "match", "version__bot")
    context: dict[str, object] = {
        "latest": latest[:LIST_SIZE],
        "section": "challenges",
    }
    if request.user.is_authenticated:
        assert isinstance(request.user, User)
        context["mine"] = latest.filter(challenger=request.user)[:LIST_SIZE]
    return render(request, "challenges/list.html", context)


@login_required
def new_challenge(request: HttpRequest) -> HttpResponse:
    """The form (GET, ``?opponent=<bot id>`` preselects one) and its sending (POST)."""
    assert isinstance(request.user, User)
    user = request.user
    if request.method == "POST":
        form = ChallengeForm(user, request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                challenge = make_challenge(
                    user,
                    data["bot"],
                    data["variant"],
                    data["players"],
                    list(data["opponents"]),
                    data["deals"],
                )
            except services.ChallengeRefused as refused:
                form.add_error(None, str(refused))
            else:
                messages.success(request, "Challenge sent: its match waits for a worker.")
                return redirect(challenge)
        status = 400
    else:
        initial = {}
        wanted = request.GET.get("opponent")
        if wanted:
            found = Bot.objects.filter(uuid=wanted).first() if _is_uuid(wanted) else None
            if found is not None:
                initial["opponents"] = [found.pk]
        form = ChallengeForm(user, initial=initial)
        status = 200
    return render(
        request,
        "challenges/new.html",
        {
            "form": form,
            "section": "challenges",
            "limits": services.limits(),
        },
        status=status,
    )


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True


def challenge(request: HttpRequest, challenge_uuid: str) -> HttpResponse:
    """One challenge: its match's state, then the challenger's edge over each opponent."""
    found = get_object_or_404(
        Challenge.objects.select_related("challenger", "match", "version__bot"),
        uuid=challenge_uuid,
    )
    seats = list(found.match.seats.select_related("bot", "version").order_by("seat"))
    return render(
        request,
        "challenges/challenge.html",
        {
            "challenge": found,
            "match": found.match,
            "seats": seats,
            "edges": services.edges(found),
            "section": "challenges",
        },
    )


@login_required
@require_POST
def accept_challenges(request: HttpRequest, bot_uuid: str) -> HttpResponse:
    """The bot's owner lets others challenge it, or stops it (``accept`` 1 or 0)."""
    bot = get_object_or_404(Bot, uuid=bot_uuid, owner=request.user)
    accept = request.POST.get("accept")
    if accept not in ("0", "1"):
        return render(
            request,
            "error.html",
            {"title": "Bad request", "message": "'accept' must be 0 or 1."},
            status=400,
        )
    services.set_accepts_challenges(bot, accept == "1")
    return redirect(reverse("bot", args=[bot.uuid]) + "#challenges")
