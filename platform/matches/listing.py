"""Lists of matches newest first, read a page at a time by key, so that a page costs what the
first one does however many matches there are.

The order is ``created_at`` then ``id``, both descending. A list of all matches (or one
ladder's) is read from the match table's indexes ``match_list`` and ``match_list_ladder``. A
list of one bot's matches is read from its seats instead, in the same order by the seat's copy
of its match's ``created_at`` (index ``seat_bot_listed``): from the match table it would have
to read every match the bot ever played to sort them.

>>> from matches.models import Match
>>> listing = Listing(Match.objects.filter(status=Match.FINISHED))
>>> listing.created, listing.ident
('created_at', 'id')
>>> Listing(Match.objects.all(), bot_id=7).created
'seats__match_created_at'
"""

import datetime as dt
from dataclasses import dataclass

from django.db.models import Q, QuerySet

from matches.models import Match


@dataclass(frozen=True)
class Page:
    """A page of a list, newest first, and whether there are older or newer matches."""

    matches: list[Match]
    has_older: bool
    has_newer: bool


class Listing:
    """``found`` (a queryset of matches, filtered) newest first; ``bot_id``: only the matches
    that bot has a seat in, read through its seats."""

    def __init__(self, found: QuerySet[Match], bot_id: int | None = None) -> None:
        self.found, self.bot_id = found, bot_id
        if bot_id is None:
            self.created, self.ident = "created_at", "id"
        else:
            self.created, self.ident = "seats__match_created_at", "seats__match_id"

    def _where(self, *conditions: Q) -> QuerySet[Match]:
        """``found`` with ``conditions``, in one ``filter`` with the bot's: conditions on a
        bot's seats in separate calls would each join all the match's seats again."""
        if self.bot_id is not None:
            conditions = (Q(seats__bot_id=self.bot_id), *conditions)
        return self.found.filter(*conditions)

    def _past(self, created: dt.datetime, pk: int, older: bool) -> QuerySet[Match]:
        """The matches listed after (``older``) or before the match ``(created, pk)``; the
        plain range on ``created`` is what the index is searched by."""
        side = "lt" if older else "gt"
        return self._where(
            Q(**{f"{self.created}__{side}e": created}),
            Q(**{f"{self.created}__{side}": created})
            | Q(**{self.created: created, f"{self.ident}__{side}": pk}),
        )

    def newest_first(self) -> QuerySet[Match]:
        """The whole list in its order (to read a slice of: the API pages by offset)."""
        return self._where().order_by(f"-{self.created}", f"-{self.ident}")

    def first(self, size: int) -> Page:
        """The newest ``size`` matches."""
        found = _distinct(self.newest_first()[: size + 1])
        return Page(found[:size], has_older=len(found) > size, has_newer=False)

    def before(self, created: dt.datetime, pk: int, size: int) -> Page:
        """The ``size`` matches listed after (older than) the match ``(created, pk)``."""
        older = self._past(created, pk, older=True)
        found = _distinct(older.order_by(f"-{self.created}", f"-{self.ident}")[: size + 1])
        return Page(found[:size], has_older=len(found) > size, has_newer=True)

    def after(self, created: dt.datetime, pk: int, size: int) -> Page:
        """The ``size`` matches listed just before (newer than) the match ``(created, pk)``."""
        newer = self._past(created, pk, older=False)
        found = _distinct(newer.order_by(self.created, self.ident)[: size + 1])
        return Page(list(reversed(found[:size])), has_older=True, has_newer=len(found) > size)


def _distinct(found: QuerySet[Match]) -> list[Match]:
    """The matches in their order, each once (a bot in two seats of a match, which the
    arena's own matches never have, would otherwise list it twice)."""
    seen: set[int] = set()
    kept = []
    for match in found:
        if match.pk not in seen:
            seen.add(match.pk)
            kept.append(match)
    return kept
