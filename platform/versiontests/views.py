"""Asking for a version test (the bot's owner only; everyone else gets 403)."""

from accounts.models import User
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST
from submissions.models import BotVersion

from versiontests import services
from versiontests.forms import TestForm
from versiontests.tasks import ask_for_test


@login_required
@require_POST
def start_test(request: HttpRequest, bot_uuid: str, version_uuid: str) -> HttpResponse:
    version = get_object_or_404(
        BotVersion.objects.select_related("bot"), uuid=version_uuid, bot__uuid=bot_uuid
    )
    if version.bot.owner_id != request.user.pk:
        raise PermissionDenied("Only the bot's owner can test its versions.")
    assert isinstance(request.user, User)
    form = TestForm(request.POST)
    if not form.is_valid():
        problems = "; ".join(str(e) for errors in form.errors.values() for e in errors)
        messages.error(request, f"The test was not started: {problems}")
        return redirect(version)
    try:
        ask_for_test(version, request.user, form.cleaned_data["ladder"], form.cleaned_data["sprt"])
    except services.TestRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, f"Test of v{version.number} asked for; this page shows it.")
    return redirect(version)
