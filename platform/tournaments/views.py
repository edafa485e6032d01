"""The tournament pages: the list, a new one (organisers), one tournament with its standings,
crosstable and significance, and the live fragment its page polls while it runs."""

import random

from accounts.models import User
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST
from matches.models import Match
from matches.views import with_lineups

from tournaments import services
from tournaments.forms import TournamentForm
from tournaments.models import Tournament


def _visible(request: HttpRequest, tournament_uuid: str) -> Tournament:
    """The tournament; a draft only for organisers."""
    found = get_object_or_404(Tournament.objects.select_related("organiser"), uuid=tournament_uuid)
    if found.status == Tournament.DRAFT and not services.can_organise(request.user):
        raise Http404("No such tournament.")
    return found


def _organiser(request: HttpRequest) -> User:
    if not services.can_organise(request.user):
        raise PermissionDenied("Only organisers run tournaments.")
    assert isinstance(request.user, User)
    return request.user


def tournament_list(request: HttpRequest) -> HttpResponse:
    organiser = services.can_organise(request.user)
    running = Tournament.objects.filter(status=Tournament.RUNNING).order_by("-started_at")
    done = Tournament.objects.filter(
        status__in=[Tournament.FINISHED, Tournament.CANCELLED]
    ).order_by("-created_at")
    page = Paginator(done, 20).get_page(request.GET.get("page"))
    drafts = (
        Tournament.objects.filter(status=Tournament.DRAFT).order_by("-created_at")
        if organiser
        else Tournament.objects.none()
    )
    return render(
        request,
        "tournaments/list.html",
        {"running": running, "page": page, "drafts": drafts, "organiser": organiser},
    )


@login_required
def new_tournament(request: HttpRequest) -> HttpResponse:
    user = _organiser(request)
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        versions = list(data["entrants"])
        seed = random.SystemRandom().randrange(2**31)
        random.Random(seed).shuffle(versions)  # seeding at random: nobody starts ahead
        try:
            tournament = services.create(
                user,
                name=data["name"],
                variant=data["variant"],
                players=data["players"],
                format=data["format"],
                games_per_pairing=data["games_per_pairing"],
                rounds=data["rounds"] or 1,
                versions=versions,
                seed=seed,
            )
        except services.TournamentError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, "Tournament created. Check the entrants, then start it.")
            return redirect(tournament)
    status = 400 if form.is_bound and form.errors else 200
    return render(request, "tournaments/new.html", {"form": form}, status=status)


def _context(request: HttpRequest, tournament: Tournament) -> dict[str, object]:
    report = services.build_report(tournament)
    labels = report.labels
    rows = [
        {"standing": s, "entrant": next(e for e in report.entrants if e.pk == s.entrant)}
        for s in report.standings
    ]
    order = [row["standing"].entrant for row in rows]  # type: ignore[attr-defined]
    cross = [
        {
            "label": labels[a],
            "place": i + 1,
            "cells": [
                {"self": a == b, "cell": report.cells.get((a, b)), "against": labels[b]}
                for b in order
            ],
        }
        for i, a in enumerate(order)
    ]
    return {
        "tournament": tournament,
        "report": report,
        "labels": labels,
        "rows": rows,
        "cross": cross,
        "heads": [labels[e] for e in order],
        "organiser": services.can_organise(request.user),
    }


def tournament(request: HttpRequest, tournament_uuid: str) -> HttpResponse:
    found = _visible(request, tournament_uuid)
    context = _context(request, found)
    context["recent"] = with_lineups(
        Match.objects.filter(tournament=found)
        .exclude(status=Match.QUEUED)
        .order_by("-finished_at", "-id")[:12]
    )
    return render(request, "tournaments/tournament.html", context)


def live(request: HttpRequest, tournament_uuid: str) -> HttpResponse:
    """The standings part of the page, for the page's script to swap in while it runs."""
    found = _visible(request, tournament_uuid)
    response = render(request, "tournaments/_live.html", _context(request, found))
    response["X-Tournament-Status"] = found.status
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def start(request: HttpRequest, tournament_uuid: str) -> HttpResponse:
    user = _organiser(request)
    found = get_object_or_404(Tournament, uuid=tournament_uuid)
    try:
        services.start(found, user)
    except services.TournamentError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, "Started: the workers are playing its games.")
    return redirect(found)


@login_required
def cancel(request: HttpRequest, tournament_uuid: str) -> HttpResponse:
    """Cancel, once the organiser said yes on the confirmation page (a GET shows it)."""
    user = _organiser(request)
    found = get_object_or_404(Tournament, uuid=tournament_uuid)
    if found.status not in (Tournament.DRAFT, Tournament.RUNNING):
        return redirect(found)
    if request.method != "POST" or request.POST.get("confirm") != "yes":
        context = {
            "title": f"Cancel {found.name}?",
            "question": f"Cancel the tournament {found.name}?",
            "consequence": "Games under way finish; the rest are dropped, and it gets no "
            "final standings.",
            "button": "Yes, cancel the tournament",
            "action": request.path,
            "back": found.get_absolute_url(),
        }
        return render(request, "confirm.html", context)
    try:
        services.cancel(found, user)
    except services.TournamentError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, "Cancelled: games under way finish, the rest are dropped.")
    return redirect(found)
