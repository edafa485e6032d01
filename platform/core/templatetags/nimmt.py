"""Template filters shared by the pages: signed numbers, percentages, score intervals."""

import datetime as dt
import math
from html import escape
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from core.charts import Sparkline
from core.stats import Comparison
from core.urls import url_with_uuid

register = template.Library()


@register.filter
def signed(value: float | int | None, digits: int = 0) -> str:
    """``+12``, ``−7`` (a real minus sign) or ``0``; empty for nothing.

    >>> signed(12.4), signed(-7), signed(0.2), signed(2.345, 2)
    ('+12', '−7', '0', '+2.35')
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    text = f"{abs(value):.{digits}f}"
    if float(text) == 0:
        return text
    return ("+" if value > 0 else "−") + text


@register.filter
def fixed(value: float | int | None, digits: int = 0) -> str:
    """A number with ``digits`` decimals (a fast ``floatformat`` for long tables).

    >>> fixed(1623.46), fixed(8.333, 2), fixed(None), fixed(-0.2)
    ('1623', '8.33', '', '0')
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


@register.filter
def stamp(value: dt.datetime | None, short: bool = False) -> str:
    """A time in UTC, ``2026-11-29 13:58`` (``short``: ``Nov 29, 13:58``); fast for lists
    (Django's ``date`` filter costs about 0.07 ms a call).

    >>> stamp(dt.datetime(2026, 11, 9, 13, 58, tzinfo=dt.UTC)), stamp(None)
    ('2026-11-09 13:58', '')
    >>> stamp(dt.datetime(2026, 11, 9, 14, 58, tzinfo=dt.timezone(dt.timedelta(hours=1))), True)
    'Nov 9, 13:58'
    """
    if value is None:
        return ""
    value = value.astimezone(dt.UTC)
    if short:
        return f"{value:%b} {value.day}, {value:%H:%M}"
    return f"{value:%Y-%m-%d %H:%M}"


@register.filter
def percent(value: float | None, digits: int = 0) -> str:
    """``0.9772`` → ``97.7%`` (with ``digits=1``); empty for nothing or NaN.

    Values that would round to 0 or 100 without being so read ``<0.1%`` and ``>99.9%``:
    a likelihood is never quite certain.

    >>> percent(0.9772, 1), percent(float("nan")), percent(0.99996, 1), percent(1.0)
    ('97.7%', '', '>99.9%', '100%')
    >>> percent(0.00001, 1), percent(0.00001)
    ('<0.1%', '<1%')
    """
    if value is None or math.isnan(value):
        return ""
    text = f"{100 * value:.{digits}f}"
    step = 10.0**-digits
    if 0 < value < 1 and float(text) >= 100:
        return f">{100 - step:.{digits}f}%"
    if 0 < value < 1 and float(text) <= 0:
        return f"<{step:.{digits}f}%"
    return f"{text}%"


@register.filter
def los(value: float | None) -> str:
    """A likelihood of superiority: one decimal, never shown as certain.

    >>> los(0.98765), los(1.0), los(0.0), los(0.5)
    ('98.8%', '>99.9%', '<0.1%', '50.0%')
    """
    if value is None or math.isnan(value):
        return ""
    if value >= 0.9995:
        return ">99.9%"
    if value <= 0.0005:
        return "<0.1%"
    return f"{100 * value:.1f}%"


@register.filter
def los_cell(comparison: Comparison) -> SafeString:
    """A comparison's LOS, or why there is none: it needs two shared games.

    >>> from core.stats import compare_sums as c
    >>> "only 1 shared game" in los_cell(c(1, 2.0, 4.0)), los_cell(c(2, 4.0, 8.0))
    (True, '&gt;99.9%')
    """
    if not math.isnan(comparison.los):
        return format_html("{}", los(comparison.los))
    games = comparison.games
    text = (
        "no shared games" if games == 0 else f"only {games} shared game{'s' if games > 1 else ''}"
    )
    return format_html(
        '<span class="muted small" title="The likelihood of superiority needs at least '
        '2 shared games.">{}</span>',
        text,
    )


@register.filter
def plusminus(value: float | None, digits: int = 1) -> str:
    """``± 3.2``; empty for NaN (no interval below two games).

    >>> plusminus(3.21), plusminus(float("nan"))
    ('± 3.2', '')
    """
    if value is None or math.isnan(value):
        return ""
    return f"± {value:.{digits}f}"


# ---------------------------------------------------------------------------- row fragments
# Small pieces repeated on every row of the long lists, written in Python: an {% include %}
# per row was most of a list page's time.


@register.simple_tag
def lineup(match: Any) -> SafeString:
    """A match's bots in seat order, the winner in bold, each with its rank when known.

    Needs ``match.lineup`` (:func:`matches.views.with_lineups`). Plain string building: this
    runs for every row of the longest lists.
    """
    parts = []
    for seat in getattr(match, "lineup", []):
        name = escape(seat.name)
        if seat.rank == 1:
            name = f"<strong>{name}</strong>"
        part = f'<a href="{url_with_uuid("bot", seat.uuid)}">{name}</a>'
        if seat.rank:
            part += f' <span class="muted">({int(seat.rank)})</span>'
        parts.append(part)
    return mark_safe(", ".join(parts))  # names are escaped, the rest is ours


@register.simple_tag
def match_where(match: Any) -> SafeString:
    """Where a match was played: its ladder, or its tournament (and Swiss round)."""
    if match.ladder_id is not None:
        return format_html('<a href="{}">{}</a>', match.ladder.get_absolute_url(), match.ladder)
    if match.tournament_id is not None:
        tournament = match.tournament
        link = format_html('<a href="{}">{}</a>', tournament.get_absolute_url(), tournament)
        if tournament.format == "swiss":
            link = format_html('{} <span class="muted">round {}</span>', link, match.round)
        return link
    return format_html('<span class="muted">{}</span>', match.variant)


@register.simple_tag
def spark(line: Sparkline | None, games: int = 0) -> SafeString:
    """A sparkline (:func:`core.charts.sparkline`) and its change as a signed number.

    Only numbers and a trend word go in, so plain formatting is safe (and it runs on every
    row of a ladder table).
    """
    if line is None:
        return mark_safe('<span class="muted small">–</span>')
    tone = {"up": "delta-up", "down": "delta-down"}.get(line.trend, "muted")
    trend = {"up": "up", "down": "down"}.get(line.trend, "flat")
    delta = signed(line.delta)
    return mark_safe(
        f'<svg class="spark {trend}" width="{line.width:d}" height="{line.height:d}" '
        f'viewBox="0 0 {line.width:d} {line.height:d}" role="img" '
        f'aria-label="Elo over the last {int(games)} games: {delta}">'
        f'<polyline points="{escape(line.points)}"/>'
        f'<circle cx="{escape(line.last_x)}" cy="{escape(line.last_y)}" r="2.2"/></svg> '
        f'<span class="small {tone}">{delta}</span>'
    )
