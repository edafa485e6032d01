"""The house way of writing and sending Celery tasks (after grand-challenge's ``core/celery``).

* :func:`house_task` registers a task with ``acks_late=True`` and ``reject_on_worker_lost=True``
  (a task whose worker dies is delivered again), a fixed queue (through the router
  :func:`route`, Celery's ``task_routes``), and retries with backoff on transient database
  errors only. Task functions take keyword-only primary keys, never model
  objects, and must be idempotent: they claim their row before doing anything.
* :func:`enqueue` sends a task once the current transaction commits, so a worker never looks
  for a row that is not there yet. A broker that is down does not fail the request: the row
  stays queued and a sweeper (:func:`resend_stale`, from each app's beat task) sends it again.
* A task enqueues its own follow-ups: the functions it calls say what happened and it sends
  what comes next, so no service module imports a tasks module that imports it back.
"""

import inspect
import logging
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from celery import Task, shared_task
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import Q
from django.utils import timezone

if TYPE_CHECKING:  # a model module: not imported where settings may still be loading
    from core.leases import Claimable

log = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")

QUEUES = ("matches", "validation", "maintenance")
ROUTES: dict[str, str] = {}  # task name -> queue, filled by house_task
TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (OperationalError, InterfaceError)


def house_task(
    *, queue: str, time_limit: int = 30 * 60, max_retries: int = 5
) -> Callable[[Callable[P, R]], "Task[P, R]"]:
    """Register a task on ``queue``; its parameters must all be keyword-only.

    >>> house_task(queue="nowhere")
    Traceback (most recent call last):
    ...
    ValueError: unknown queue 'nowhere'; queues: matches, validation, maintenance
    """
    if queue not in QUEUES:
        raise ValueError(f"unknown queue {queue!r}; queues: {', '.join(QUEUES)}")

    def register(func: Callable[P, R]) -> "Task[P, R]":
        positional = [
            p.name
            for p in inspect.signature(func).parameters.values()
            if p.kind is not inspect.Parameter.KEYWORD_ONLY
        ]
        if positional:
            raise TypeError(f"{func.__qualname__}: task parameters must be keyword-only")
        name = f"{func.__module__}.{func.__name__}"
        ROUTES[name] = queue
        task: Task[P, R] = shared_task(
            name=name,
            acks_late=True,
            reject_on_worker_lost=True,
            autoretry_for=TRANSIENT_ERRORS,
            retry_backoff=True,
            retry_backoff_max=60,
            retry_jitter=True,
            max_retries=max_retries,
            time_limit=time_limit,
        )(func)
        return task

    return register


def route(name: str, args: Any, kwargs: Any, options: Any, task: Any = None, **kw: Any) -> Any:
    """Celery router (``CELERY_TASK_ROUTES``): the queue :func:`house_task` fixed for ``name``."""
    queue = ROUTES.get(name)
    return {"queue": queue} if queue else None


def enqueue(task: "Task[..., Any]", **kwargs: Any) -> None:
    """Send ``task(**kwargs)`` when the current transaction commits (at once outside one)."""

    def send() -> None:
        task.apply_async(kwargs=kwargs)

    transaction.on_commit(send, robust=True)


def resend_stale(
    model: "type[Claimable]",
    task: "Task[..., Any]",
    *,
    waiting: str,
    working: str,
    key: str,
    after_seconds: float,
) -> int:
    """Send ``task(key=pk)`` again for every row of ``model`` whose message was lost or whose
    worker died; the number of rows sent.

    A waiting row whose message was sent longer than ``after_seconds`` ago (a broker restart lost
    it) and a working row whose lease ran out (its worker was killed) are both sent again, at
    most once every ``after_seconds``; the task claims the row first, so a message that was not
    lost after all (a long queue) costs one no-op run.
    """
    now = timezone.now()
    stale = Q(queued_at__lt=now - timedelta(seconds=after_seconds))
    rows = model._default_manager.filter(
        stale & (Q(status=waiting) | Q(status=working, lease_expires_at__lt=now))
    ).values_list("pk", flat=True)
    sent = 0
    for pk in rows:
        # Only one sweeper sends a row again: the one whose update moved queued_at.
        if model._default_manager.filter(pk=pk, queued_at__lt=now).update(queued_at=now):
            log.info("sending %s %s again", model.__name__, pk)
            enqueue(task, **{key: pk})
            sent += 1
    return sent
