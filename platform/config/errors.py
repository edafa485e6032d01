"""The site's error answers: 400, 403, 404 and 500 pages in the site's layout, carrying the
view's own message (``PermissionDenied("Only the bot's owner can change it.")``); under
``/api/`` the same errors as ``{"error": "..."}`` JSON, unknown paths included.

A form whose text fields exceed ``DATA_UPLOAD_MAX_MEMORY_SIZE`` fails while Django reads the
request, before any view runs: the upload pages register a view here that shows their form
again with the error under the file field (:data:`too_large_views`).
"""

import logging
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import (
    PermissionDenied,
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.urls import Resolver404, resolve
from submissions import views as submission_views

log = logging.getLogger(__name__)

API_PREFIX = "/api/"

# Views that show their form again when its fields were too large, by URL name.
too_large_views: dict[str, Callable[[HttpRequest, str], HttpResponse]] = {
    "new-bot": submission_views.form_too_large,
    "upload-version": submission_views.form_too_large,
}


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def _message(exception: Exception | None) -> str:
    """The view's own words, if it gave any (a failed URL match carries a dict, not words)."""
    if exception is None or not exception.args or not isinstance(exception.args[0], str):
        return ""
    return exception.args[0]


def _page(request: HttpRequest, status: int, title: str, message: str) -> HttpResponse:
    context = {"status": status, "title": title, "message": message}
    return render(request, "error.html", context, status=status)


def too_large_message() -> str:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0
    return (
        f"The form's text fields came to more than {limit // 1024} KB. Choose the bot in the file "
        "field (a file is not counted against this limit), and keep the name short."
    )


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    too_large = isinstance(exception, RequestDataTooBig | TooManyFieldsSent | TooManyFilesSent)
    message = too_large_message() if too_large else "The request could not be read."
    status = 413 if too_large else 400
    if _is_api(request):
        return JsonResponse({"error": message}, status=status)
    if too_large:
        try:
            name = resolve(request.path_info).url_name or ""
        except Resolver404:
            name = ""
        if name in too_large_views:
            try:
                return too_large_views[name](request, message)
            except PermissionDenied as refused:
                return permission_denied(request, refused)
    return _page(request, status, "The request could not be used", message)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    message = _message(exception) or "You are not allowed to do this."
    if _is_api(request):
        return JsonResponse({"error": message}, status=403)
    return _page(request, 403, "Not allowed", message)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    message = _message(exception)
    if _is_api(request):
        if not message:
            message = (
                f"No API endpoint at {request.path}: ids in paths are UUIDs, and every path "
                f"ends with '/'. The endpoints start at {API_PREFIX}v1/ladders/."
            )
        return JsonResponse({"error": message}, status=404)
    return _page(request, 404, "Not found", message or f"There is no page at {request.path}.")


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 page, made without the database or the session (either may be what failed)."""
    message = "Something went wrong on our side. The error is logged; please try again later."
    if _is_api(request):
        return JsonResponse({"error": message}, status=500)
    context = {"status": 500, "title": "Server error", "message": message}
    context["site_name"] = settings.SITE_NAME
    return HttpResponse(loader.get_template("error.html").render(context), status=500)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form refused by the CSRF check (usually an old page, or cookies turned off)."""
    message = (
        "This form was refused because it could not be checked as coming from this site: the "
        "page may be old (log-in and log-out change it) or cookies are off. Reload the page and "
        "send the form again."
    )
    return _page(request, 403, "Form refused", message)
