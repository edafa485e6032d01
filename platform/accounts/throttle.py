"""Who is asking, and how often: the client's address for log-in lockout (django-axes) and
sign-up limits (django-ratelimit), and the sign-up limits themselves.

The address is ``REMOTE_ADDR``; only when that is one of ``TRUSTED_PROXIES`` does
``X-Forwarded-For`` count, read from the right (each proxy appends the address it was reached
from): the nearest entry that is not itself a trusted proxy. The entries further left are the
client's own word, and a client that reaches the site directly cannot name an address at all
(:class:`ForwardedHeaders` drops its ``X-Forwarded-*`` headers). An IPv6 address counts as its
/64 network: one host usually holds a whole /64 and could otherwise take a new address for
every try.
"""

import ipaddress
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django_ratelimit.core import get_usage
from redis.exceptions import RedisError

SIGNUP_GROUP = "accounts.signup"
SIGNUP_ATTEMPT_GROUP = "accounts.signup-attempt"


def client_ip(request: HttpRequest) -> str | None:
    """The address that the limits count against (``None`` when the request has none).

    >>> from django.test import RequestFactory
    >>> client_ip(RequestFactory().get("/", REMOTE_ADDR="2001:db8:1:2:3:4:5:6"))
    '2001:db8:1:2::'
    """
    address = request.META.get("REMOTE_ADDR", "")
    if _trusted(address):
        for hop in reversed(request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")):
            hop = hop.strip()
            if _parse(hop) is None:
                break  # not an address: nothing left of it is the proxies' word
            address = hop
            if not _trusted(hop):
                break
    ip = _parse(address)
    if ip is None:
        return None
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False).network_address)
    return str(ip)


def _parse(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(address)
    except ValueError:
        return None


def _trusted(address: str) -> bool:
    """Whether ``address`` is one of the proxies in ``TRUSTED_PROXIES``."""
    ip = _parse(address)
    return ip is not None and any(ip in network for network in settings.TRUSTED_PROXIES)


#: The headers only a trusted proxy may set (as ``request.META`` names them).
FORWARDED_HEADERS = (
    "HTTP_X_FORWARDED_FOR",
    "HTTP_X_FORWARDED_PROTO",
    "HTTP_X_FORWARDED_HOST",
    "HTTP_X_FORWARDED_PORT",
)


class ForwardedHeaders:
    """Drops the ``X-Forwarded-*`` headers of a request that did not come from a trusted proxy,
    before anything reads them: Django's ``SECURE_PROXY_SSL_HEADER`` would otherwise believe a
    client's own ``X-Forwarded-Proto``. First in ``MIDDLEWARE``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if not _trusted(request.META.get("REMOTE_ADDR", "")):
            for header in FORWARDED_HEADERS:
                request.META.pop(header, None)
        return self.get_response(request)


def limit_address(request: HttpRequest) -> str:
    """:func:`client_ip` for django-ratelimit, which needs an address: requests without one
    share ``0.0.0.0``."""
    return client_ip(request) or "0.0.0.0"


class Unavailable(Exception):
    """The counters cannot be read (the cache is down): refuse rather than count nothing."""


def _limited(request: HttpRequest, group: str, rate: str, *, increment: bool) -> bool:
    """Counting this request (``increment``): is it over the limit? Not counting it: would one
    more be?"""
    try:
        usage = get_usage(
            request, group=group, key="ip", rate=rate, method="POST", increment=increment
        )
    except RedisError as error:
        raise Unavailable(str(error)) from error
    if usage is None:  # rate limits turned off (RATELIMIT_ENABLE), or not a POST
        return False
    return bool(usage["should_limit"] if increment else usage["count"] >= usage["limit"])


def signup_refused(request: HttpRequest) -> str:
    """Why this sign-up attempt is refused ("" when it may go on); counts the attempt."""
    if _limited(request, SIGNUP_GROUP, settings.SIGNUP_RATE, increment=False):
        return (
            f"Too many new accounts from your address (at most {_rate_text(settings.SIGNUP_RATE)})."
            " Try again later."
        )
    if _limited(request, SIGNUP_ATTEMPT_GROUP, settings.SIGNUP_ATTEMPT_RATE, increment=True):
        return (
            "Too many sign-up attempts from your address "
            f"(at most {_rate_text(settings.SIGNUP_ATTEMPT_RATE)}). Try again later."
        )
    return ""


def count_signup(request: HttpRequest) -> None:
    """Count an account made from this address."""
    _limited(request, SIGNUP_GROUP, settings.SIGNUP_RATE, increment=True)


_PERIODS = {"s": "second", "m": "minute", "h": "hour", "d": "day"}


def _rate_text(rate: str) -> str:
    """``5/h`` as words.

    >>> _rate_text("5/h"), _rate_text("1/10m")
    ('5 an hour', '1 every 10 minutes')
    """
    count, _, period = rate.partition("/")
    multiple, unit = period[:-1], _PERIODS[period[-1]]
    if multiple and multiple != "1":
        return f"{count} every {multiple} {unit}s"
    return f"{count} {'an' if unit == 'hour' else 'a'} {unit}"
