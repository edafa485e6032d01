"""Template context shared by every page."""

from typing import Any

from django.conf import settings
from django.http import HttpRequest


def site(request: HttpRequest) -> dict[str, Any]:
    return {"site_name": settings.SITE_NAME}
