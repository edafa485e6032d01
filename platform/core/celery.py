"""The house way of writing and sending Celery tasks (after grand-challenge's ``core/celery``).

* :func:`house_task` registers a task with ``acks_late=True`` and ``reject_on_worker_lost=True``
  (a task whose worker dies is delivered again), a fixed queue (through the router
  :func:`route`, Celery's ``task_routes``), and retries with backoff on transient database
  errors only. Task functions take keyword-only primary keys, never model
  objects, and must be idempotent: they claim their row before doing anything.
* :func:`enqueue` sends a task once the current transaction commits, so a worker never looks
  for a row that is not there yet. A broker that is down does not fail the request: the row
  stays queued and the sweeper (``matches.tasks.requeue_stale_work``) sends it again.
"""

import inspect
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from celery import Task, shared_task
from django.db import InterfaceError, OperationalError, transaction

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
