"""The tables' piece of a bot's page: its record against people, and its owner's switch."""

from typing import Any

from django import template
from submissions.models import Bot

from tables.ladder import bot_record

register = template.Library()


@register.inclusion_tag("tables/includes/people_record.html", takes_context=True)
def people_record(context: dict[str, Any], bot: Bot, is_owner: bool) -> dict[str, Any]:
    """``bot``'s places on the people ladders; for its owner, whether people may choose it."""
    return {
        "bot": bot,
        "is_owner": is_owner,
        "ratings": bot_record(bot),
        "csrf_token": context.get("csrf_token"),
    }
