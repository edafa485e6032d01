"""The challenges' piece of a bot's page: a link to challenge it, and its owner's switch."""

from typing import Any

from django import template
from submissions.models import Bot

from challenges.services import accepts_challenges

register = template.Library()


@register.inclusion_tag("challenges/includes/bot_panel.html", takes_context=True)
def challenge_panel(context: dict[str, Any], bot: Bot, is_owner: bool) -> dict[str, Any]:
    """Whether others may challenge ``bot``; its owner's switch; a link to challenge it."""
    return {
        "bot": bot,
        "is_owner": is_owner,
        "accepts": accepts_challenges(bot),
        "user": context.get("user"),
        "csrf_token": context.get("csrf_token"),
    }
