"""The seasons' piece of a ladder's page: its season under way, and the last one's page."""

from django import template
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from ladders.models import Ladder

from seasons.models import Season

register = template.Library()


@register.simple_tag
def season_banner(ladder: Ladder) -> SafeString:
    """One line: the ladder's open season (and when it freezes or ends), and the last one
    that finished; nothing for a ladder without seasons."""
    current = Season.objects.filter(ladder=ladder, status__in=Season.OPEN).first()
    last = Season.objects.filter(ladder=ladder, status=Season.FINISHED).order_by("-number").first()
    parts = []
    if current is not None:
        if current.is_frozen:
            when = "frozen: no new versions until its final is over"
        elif current.status == Season.SCHEDULED:
            when = f"starts {timezone.localtime(current.starts_at):%Y-%m-%d %H:%M}"
        else:
            when = f"freezes {timezone.localtime(current.freezes_at):%Y-%m-%d %H:%M}"
        parts.append(
            format_html('<a href="{}">{}</a> ({})', current.get_absolute_url(), current.name, when)
        )
    if last is not None:
        parts.append(format_html('last: <a href="{}">{}</a>', last.get_absolute_url(), last.name))
    if not parts:
        return SafeString("")
    return format_html(
        '<p class="notice small" id="ladder-season">Season: {}</p>',
        format_html(" · ".join(["{}"] * len(parts)), *parts),
    )
