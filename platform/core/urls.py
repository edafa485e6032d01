"""Page addresses of rows, made quickly.

A list page links every row (50 matches, their 200 bots...). Django's ``reverse()`` costs
about 0.1 ms a call, which made URL building the largest part of such a page. The address of a
row is its URL pattern with its UUID in it: :func:`url_with_uuid` reverses each pattern once,
with a placeholder, and fills in the UUID after that. ``config/urls.py`` stays the one place
where addresses are defined.
"""

import uuid
from functools import cache

from django.urls import reverse

_PLACEHOLDER = uuid.UUID(int=0)


@cache
def _pattern(name: str) -> tuple[str, str]:
    path = reverse(name, args=[_PLACEHOLDER])
    before, found, after = path.partition(str(_PLACEHOLDER))
    if not found:
        raise ValueError(f"URL {name!r} does not take a UUID as its only argument")
    return before, after


def url_with_uuid(name: str, value: uuid.UUID) -> str:
    """``reverse(name, args=[value])`` for a URL whose only argument is a UUID."""
    before, after = _pattern(name)
    return f"{before}{value}{after}"
