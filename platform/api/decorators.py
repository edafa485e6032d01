"""Cross-cutting concerns of the JSON API, as decorators on plain view functions.

:func:`api` checks the method, reads ``Authorization: Bearer <token>`` (a personal API token,
see :mod:`accounts.models`) and answers every refusal as ``{"error": "..."}`` JSON. Views find
the token's user in ``request.api_user`` (``None`` for an anonymous read).
"""

from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any, Literal

from accounts.models import ApiToken, User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, JsonResponse
from django.http.response import HttpResponseBase
from django.views.decorators.csrf import csrf_exempt

View = Callable[..., HttpResponseBase]


class ApiRequest(HttpRequest):
    api_user: User | None


def error(status: int, message: str) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


def bearer_user(request: HttpRequest) -> tuple[User | None, str]:
    """The token's user and "", or ``None`` and why not ("" when no token was sent)."""
    header = request.META.get("HTTP_AUTHORIZATION", "")
    if not header:
        return None, ""
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None, "Send the token as 'Authorization: Bearer <token>'."
    user = ApiToken.authenticate(token.strip())
    if user is None:
        return None, "The API token is unknown or revoked."
    return user, ""


def api(
    methods: Sequence[str] = ("GET",), auth: Literal["optional", "required"] = "optional"
) -> Callable[[View], View]:
    """Make ``view`` an API endpoint answering ``methods`` (token ``required`` or ``optional``).

    A token that is sent must be valid, even where none is needed.
    """

    def decorate(view: View) -> View:
        @csrf_exempt  # token authentication: no cookies, so no cross-site request to forge
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if request.method not in methods:
                response = error(405, f"Use {' or '.join(methods)}.")
                response["Allow"] = ", ".join(methods)
                return response
            user, problem = bearer_user(request)
            if problem:
                return error(401, problem)
            if user is None and auth == "required":
                return error(401, "This needs an API token: send 'Authorization: Bearer <token>'.")
            request.api_user = user  # type: ignore[attr-defined]
            try:
                return view(request, *args, **kwargs)
            except Http404 as missing:
                return error(404, str(missing) or "Not found.")
            except PermissionDenied as refused:
                return error(403, str(refused) or "Not allowed.")

        return wrapper

    return decorate
