"""The beat's look at the seasons: each open one moved on as far as the clock allows."""

import logging

from core.celery import house_task

from seasons import services

log = logging.getLogger(__name__)


@house_task(queue="maintenance")
def advance_seasons() -> None:
    for pk in services.open_seasons():
        services.advance(pk)
