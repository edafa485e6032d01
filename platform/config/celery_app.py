"""The Celery app, configured from Django settings under the ``CELERY_`` namespace.

Run from ``platform/`` (the queues of each kind of worker: ``core.celery.WORKERS``)::

    celery -A config worker -Q ratings,tables,challenges,matches,maintenance   # match runner
    celery -A config worker -Q validation --concurrency 1                      # upload checks
    celery -A config beat                                                      # the schedule

A worker takes its next task from the first of its queues that has one, so ``-Q`` must list
them in ``core.celery.QUEUES``' order: a worker whose list breaks it refuses to start.
"""

import gc
import os
import sys
from pathlib import Path
from typing import Any

from celery import Celery
from celery.signals import celeryd_after_setup, worker_ready

# The site's apps are top-level modules of platform/, and the arena package lives beside it;
# `celery -A config` finds this module from platform/ but leaves neither on sys.path.
_PLATFORM = Path(__file__).resolve().parent.parent
for _path in (str(_PLATFORM.parent), str(_PLATFORM)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from core.celery import check_queue_order  # noqa: E402  (needs the path above)

app = Celery("nimmt")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@celeryd_after_setup.connect
def _check_queues(sender: str, instance: Any, **kwargs: Any) -> None:
    try:
        check_queue_order(list(instance.app.amqp.queues.consume_from or {}))
    except ValueError as error:  # Celery logs a handler's Exception and goes on
        raise SystemExit(f"celery worker -Q: {error}") from None


@celeryd_after_setup.connect
@worker_ready.connect
def _freeze(**kwargs: Any) -> None:
    """Keep the garbage collector off what the worker has made so far (the tasks' modules):
    each task runs in a child forked afresh (``CELERY_WORKER_MAX_TASKS_PER_CHILD``), and a
    collection in the child would touch, and so copy, every page of it: 141 ms of CPU a child
    without this, 50 ms with it."""
    gc.freeze()
