"""What a guest may do: play at its tables, and otherwise only what a visitor may.

A guest (:class:`~tables.models.Guest`) is a user made by one click, without the sign-up's
limit per address or its email confirmation, so it must not do what those guard: upload a
bot, make an API token, ask for an analysis, enter a tournament. :class:`GuestsOnlyPlay`
refuses a guest's every unsafe request (POST, ...) outside the tables' pages and the log-in and
log-out (a guest may leave, or log in to an account), whichever view would take it; reading
pages is left alone.
"""

from collections.abc import Callable

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
REFUSED = "Guests can only play at the table. Sign up to upload bots, ask for analyses and more."


class GuestsOnlyPlay:
    """Middleware (after authentication): a guest's unsafe requests go to the tables only."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method not in SAFE_METHODS and not self._open_to_guests(request.path_info):
            user = request.user
            if user.is_authenticated and hasattr(user, "guest"):
                raise PermissionDenied(REFUSED)
        return self.get_response(request)

    @staticmethod
    def _open_to_guests(path: str) -> bool:
        return path.startswith(reverse("play")) or path in (reverse("login"), reverse("logout"))
