"""The bot page's remote play: the owner issues and revokes the bot's remote token here (the
JSON API has the same, :mod:`api.views`); :func:`bot_panel` is what the bot page shows.

The token is shown once, on the page the issuing POST answers (never in a redirect, a flash
message or a log). Everyone sees whether a remote bot is online; only its owner sees its
connections' addresses and the token's hint.
"""

import shlex
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST
from submissions.models import Bot

from remote import services


def _owned(request: HttpRequest, bot_uuid: str) -> Bot:
    bot = get_object_or_404(Bot, uuid=bot_uuid)
    if bot.owner_id != request.user.pk:
        raise PermissionDenied("Only the bot's owner can change it.")
    return bot


def connect_command(url: str, token: str = "$NIMMT_REMOTE_TOKEN") -> str:
    """The command line that plays a bot made with the Python kit from its owner's machine."""
    prefix = "" if token.startswith("$") else f"NIMMT_REMOTE_TOKEN={shlex.quote(token)} "
    return f"{prefix}python3 bot.py --remote {shlex.quote(url)}"


def bot_panel(bot: Bot, is_owner: bool) -> dict[str, Any]:
    """The bot page's remote section (see ``remote/includes/bot_remote.html``)."""
    is_remote = bool(bot.active_version and bot.active_version.is_remote)
    if not is_remote and not is_owner:
        return {"shown": False}
    status = services.status(bot)
    return {
        "shown": True,
        "is_remote": is_remote,
        "online": status.online,
        "token": status.token if is_owner else None,
        "connections": status.connections if is_owner else [],
        "command": connect_command(status.gateway_url),
        "gateway_url": status.gateway_url,
    }


@login_required
@require_POST
def issue_token(request: HttpRequest, bot_uuid: str) -> HttpResponse:
    bot = _owned(request, bot_uuid)
    if bot.is_retired:
        messages.error(request, "A retired bot does not play: resume it first.")
        return redirect(bot)
    token = services.issue(bot)
    url = services.gateway_url()
    response = render(
        request,
        "remote/token.html",
        {"bot": bot, "token": token, "url": url, "command": connect_command(url, token)},
    )
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_POST
def revoke_token(request: HttpRequest, bot_uuid: str) -> HttpResponse:
    bot = _owned(request, bot_uuid)
    if services.revoke(bot):
        messages.success(request, "The remote token is revoked; its connection is cut.")
    return redirect(bot)
