"""Links to matchup pages from other pages (a match's: every pair of its bots)."""

import itertools
from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag
def matchup_url(bot: Any, other: Any) -> str:
    """The address of ``bot``'s page against ``other``."""
    return reverse("matchup", args=[bot.uuid, other.uuid])


@register.simple_tag
def matchup_links(rows: list[dict[str, Any]]) -> SafeString:
    """ "A vs B" links for every pair of bots of a match's result rows (best first)."""
    bots: list[Any] = []
    for row in rows:
        bot = row["seat"].bot
        if all(bot.pk != b.pk for b in bots):
            bots.append(bot)
    if len(bots) < 2:
        return SafeString("")
    links = format_html_join(
        " · ",
        '<a href="{}">{} vs {}</a>',
        (
            (reverse("matchup", args=[a.uuid, b.uuid]), a.name, b.name)
            for a, b in itertools.combinations(bots, 2)
        ),
    )
    return format_html('<p class="small" id="matchup-links">Head to head: {}</p>', links)
