"""Season pages: the list, one season (kept after the ladder moves on), the organisers' form."""

from accounts.models import User
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from tournaments.services import can_organise

from seasons import services
from seasons.forms import SeasonForm
from seasons.models import Season


def season_list(request: HttpRequest) -> HttpResponse:
    seasons = Season.objects.select_related("ladder", "tournament")[:100]
    return render(
        request,
        "seasons/list.html",
        {"seasons": seasons, "can_organise": can_organise(request.user), "section": "ladders"},
    )


def season(request: HttpRequest, season_uuid: str) -> HttpResponse:
    found = get_object_or_404(
        Season.objects.select_related("ladder", "tournament"), uuid=season_uuid
    )
    return render(request, "seasons/season.html", {"season": found, "section": "ladders"})


@login_required
def new_season(request: HttpRequest) -> HttpResponse:
    assert isinstance(request.user, User)
    if not can_organise(request.user):
        raise PermissionDenied("Only organisers run seasons.")
    form = SeasonForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                made = services.create(
                    request.user,
                    data["ladder"].pk,
                    name=data["name"],
                    starts_at=data["starts_at"],
                    freezes_at=data["freezes_at"],
                    ends_at=data["ends_at"],
                    finalists=data["finalists"],
                    final_deals=data["final_deals"],
                    carry_over=data["carry_over"],
                    repeat=data["repeat"],
                )
            except services.SeasonError as refused:
                form.add_error(None, str(refused))
            else:
                return redirect(made)
        status = 400
    return render(request, "seasons/new.html", {"form": form, "section": "ladders"}, status=status)
