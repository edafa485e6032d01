"""Log-in lock-out with two limits (django-axes' database handler, extended).

django-axes counts failed log-ins per combination of its ``AXES_LOCKOUT_PARAMETERS`` and
compares the largest count with one limit. The site has two combinations with limits of their
own: a username from one address (``AXES_FAILURE_LIMIT``: guessing one account's password)
and one address whatever the usernames (``LOGIN_ADDRESS_FAILURE_LIMIT``: one password tried
against many accounts, "password spraying"). :meth:`LockoutHandler.get_failures` reports the
count nearest its limit, in units of ``AXES_FAILURE_LIMIT``, so axes' one comparison applies
both; and a good log-in forgives only its own username's failures, not the address's (or an
attacker with an account of their own could clear the address's count between tries).
"""

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from django.conf import settings
from django.db.models import QuerySet, Sum
from django.http import HttpRequest


class LockoutHandler(AxesDatabaseHandler):  # type: ignore[misc]  # axes ships no types
    """django-axes' database handler with a per-address limit beside the per-username one.
    ``AXES_LOCKOUT_PARAMETERS`` lists the pair first, then the address alone."""

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        pair, address = (_failures(q) for q in self.get_user_attempts(request, credentials))
        per_pair, per_address = settings.AXES_FAILURE_LIMIT, settings.LOGIN_ADDRESS_FAILURE_LIMIT
        # floor(address * per_pair / per_address) reaches per_pair exactly when address
        # reaches per_address
        return max(pair, address * per_pair // per_address)

    def reset_user_attempts(
        self, request: HttpRequest, credentials: dict[str, Any] | None = None
    ) -> int:
        pair = self.filter_user_attempts(request, credentials)[0]
        count, _ = pair.delete()
        return int(count)


def _failures(attempts: "QuerySet[Any]") -> int:
    return int(attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0)
