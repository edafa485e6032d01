"""Template context shared by every page."""

from typing import Any

from django.conf import settings
from django.http import HttpRequest

# Which item of the site's menu a page belongs to, by the name of its URL.
SECTIONS = {
    "home": "ladders",
    "ladder": "ladders",
    "match-list": "matches",
    "match": "matches",
    "match-game": "matches",
    "tournament-list": "tournaments",
    "tournament-new": "tournaments",
    "tournament": "tournaments",
    "my-bots": "bots",
    "new-bot": "bots",
    "tokens": "tokens",
}


def site(request: HttpRequest) -> dict[str, Any]:
    match = getattr(request, "resolver_match", None)
    name = match.url_name if match is not None else None
    return {"site_name": settings.SITE_NAME, "section": SECTIONS.get(name or "", "")}
