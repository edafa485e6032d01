"""The endpoints of the operators' machines: ``/healthz`` for load balancers, ``/metrics`` for
Prometheus (:mod:`core.metrics`).

:class:`OperationsMiddleware` serves both, first in ``MIDDLEWARE``: before the host check and the
HTTPS redirect, because load balancers and Prometheus reach each web process by an internal
address (``web:8000``), which is no host of the site's, over plain HTTP inside the network. No
session, no cookie, nothing of a user's is touched. ``/metrics`` asks for
``Authorization: Bearer <NIMMT_METRICS_TOKEN>`` when that is set (do set it when the TLS proxy
forwards every path).
"""

import hmac
import logging
from collections.abc import Callable

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse

from core import metrics

log = logging.getLogger(__name__)

HEALTH_PATH = "/healthz"
METRICS_PATH = "/metrics"


def check_health() -> dict[str, str]:
    """``"ok"`` or what failed, for the database and the broker."""
    checks = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        checks["database"] = "ok"
    except Exception as error:
        log.warning("health: the database failed: %s", error)
        checks["database"] = f"failing: {type(error).__name__}"
    try:
        metrics.queue_depths()
        checks["broker"] = "ok"
    except Exception as error:
        log.warning("health: the broker failed: %s", error)
        checks["broker"] = f"failing: {type(error).__name__}"
    return checks


def health(request: HttpRequest) -> HttpResponse:
    checks = check_health()
    healthy = all(value == "ok" for value in checks.values())
    response = JsonResponse(
        {"status": "ok" if healthy else "failing", "checks": checks}, status=200 if healthy else 503
    )
    response["Cache-Control"] = "no-store"
    return response


def metrics_view(request: HttpRequest) -> HttpResponse:
    token = settings.METRICS_TOKEN
    if token:
        given = request.headers.get("Authorization", "")
        if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
            response = HttpResponse("a metrics token is needed\n", status=401)
            response["WWW-Authenticate"] = 'Bearer realm="metrics"'
            return response
    response = HttpResponse(
        metrics.exposition(), content_type="text/plain; version=0.0.4; charset=utf-8"
    )
    response["Cache-Control"] = "no-store"
    return response


ENDPOINTS: dict[str, Callable[[HttpRequest], HttpResponse]] = {
    HEALTH_PATH: health,
    METRICS_PATH: metrics_view,
}


class OperationsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        endpoint = ENDPOINTS.get(request.path_info)
        if endpoint is None:
            return self.get_response(request)
        if request.method not in ("GET", "HEAD"):
            return HttpResponse(status=405, headers={"Allow": "GET, HEAD"})
        return endpoint(request)
