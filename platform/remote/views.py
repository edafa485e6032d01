"""The bot page's remote play: the owner issues and revokes the bot's remote token here (the
JSON API has the same, :mod:`api.views`); :func:`bot_panel` is what the bot page shows.

The token is shown once, on the page the issuing POST answers (never in a redirect, a flash
message or a log). Everyone sees whether a remote bot is online; only its owner sees its
connections' addresses and the token's hint.
"""

import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST
from submissions.models import Bot, BotVersion

from remote import services
from remote.tls import is_self_signed


def _owned(request: HttpRequest, bot_uuid: str) -> Bot:
    bot = get_object_or_404(Bot, uuid=bot_uuid)
    if bot.owner_id != request.user.pk:
        raise PermissionDenied("Only the bot's owner can change it.")
    return bot


@dataclass(frozen=True)
class Kit:
    """How a starter kit's bot runs from its folder (``starter-<key>/`` in the zip)."""

    key: str  # the manifest's language
    label: str
    run: str
    build: str = ""  # done once first, in the folder


KITS = (
    Kit("python", "Python", "python3 bot.py"),
    Kit("javascript", "JavaScript", "node bot.js"),
    Kit("go", "Go", "./bot", "sh build.sh"),
    Kit("cpp", "C++", "./bot", "sh build.sh"),
    Kit("java", "Java", "java -jar bot.jar", "sh build.sh"),
)


@dataclass(frozen=True)
class Command:
    kit: Kit
    line: str


def connect_commands(
    url: str, token: str = "$NIMMT_REMOTE_TOKEN", ca: Path | None = None, first: str = ""
) -> list[Command]:
    """The command line that plays a bot from its owner's machine, per kit (``first``, the
    bot's own language, leading): with ``--ca`` when the gateway's certificate is self-signed."""
    prefix = "" if token.startswith("$") else f"NIMMT_REMOTE_TOKEN={shlex.quote(token)} "
    trust = "" if ca is None else f" --ca {shlex.quote(str(ca))}"
    kits = sorted(KITS, key=lambda kit: kit.key != first)
    return [Command(k, f"{prefix}{k.run} --remote {shlex.quote(url)}{trust}") for k in kits]


def self_signed_ca() -> Path | None:
    """The gateway's certificate when bots must be told to trust it (``--ca``): a self-signed
    one the site can read (``run_gateway --self-signed``, as the demo runs it)."""
    cert = settings.GATEWAY_TLS_CERT
    return cert if cert is not None and is_self_signed(cert) else None


def _language(bot: Bot) -> str:
    """The language of the bot's latest uploaded code ("" if none or not said)."""
    for version in bot.versions.exclude(code_root=BotVersion.REMOTE).order_by("-number")[:1]:
        return str(version.manifest.get("language", "")).lower()
    return ""


def gateway_certificate(request: HttpRequest) -> HttpResponse:
    """The gateway's self-signed certificate, for bots on other machines to pass with ``--ca``."""
    ca = self_signed_ca()
    if ca is None:
        raise Http404("The gateway's certificate is signed by a CA: bots trust it as it is.")
    response = HttpResponse(ca.read_bytes(), content_type="application/x-pem-file")
    response["Content-Disposition"] = 'attachment; filename="gateway.crt"'
    return response


def bot_panel(bot: Bot, is_owner: bool) -> dict[str, Any]:
    """The bot page's remote section (see ``remote/includes/bot_remote.html``)."""
    is_remote = bool(bot.active_version and bot.active_version.is_remote)
    if not is_remote and not is_owner:
        return {"shown": False}
    status = services.status(bot)
    ca = self_signed_ca()
    return {
        "shown": True,
        "is_remote": is_remote,
        "online": status.online,
        "token": status.token if is_owner else None,
        "connections": status.connections if is_owner else [],
        "commands": connect_commands(status.gateway_url, ca=ca, first=_language(bot)),
        "ca": ca,
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
    url, ca = services.gateway_url(), self_signed_ca()
    response = render(
        request,
        "remote/token.html",
        {
            "bot": bot,
            "token": token,
            "url": url,
            "ca": ca,
            "commands": connect_commands(url, token, ca, _language(bot)),
        },
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
