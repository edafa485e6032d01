"""The house way of writing and sending Celery tasks (after grand-challenge's ``core/celery``).

* :func:`house_task` registers a task with ``acks_late=True`` and ``reject_on_worker_lost=True``
  (a task whose worker dies is delivered again), a fixed queue (through the router
  :func:`route`, Celery's ``task_routes``), and retries with backoff on transient database
  errors only. Task functions take keyword-only primary keys, never model
  objects, and must be idempotent: they claim their row before doing anything.
* :func:`enqueue` sends a task once the current transaction commits, so a worker never looks
  for a row that is not there yet. A broker that is down does not fail the request: the row
  stays queued and the sweeper (:func:`resend_stale`, from each app's beat task) sends it again.
* :func:`resend_stale` is that sweeper. The broker keeps nothing the database does not know
  (Redis runs without persistence): a message lost with a broker restart, or never sent, is
  sent again at most ``REQUEUE_AFTER_SECONDS`` after its last sending plus one sweep interval;
  work whose worker died is sent again as soon as its lease has run out.
* :func:`look_again_when_lease_ends`: a redelivered message that finds its row still held
  (its worker died a moment ago) comes back when the lease ends, not a sweep later.
* A task enqueues its own follow-ups: the functions it calls say what happened and it sends
  what comes next, so no service module imports a tasks module that imports it back.
"""

import inspect
import itertools
import logging
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from celery import Task, current_app, shared_task
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import CharField, F, Q, Value
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

if TYPE_CHECKING:  # a model module: not imported where settings may still be loading
    from core.leases import Claimable

log = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")

#: Every queue, in the order a worker that consumes several takes its next task from them (the
#: first non-empty one wins: Redis's ``queue_order_strategy="priority"``, the folder broker's
#: :class:`core.brokers.FolderTransport`). People first: a rating (milliseconds) so that a
#: finished match is rated in the slot it just freed, a person's table, a challenge; then
#: validation (builds), the league's matches (ladders, tournaments, version tests), and the
#: sweeps, the scheduler and analyses last: they run whenever no match waits (the league's
#: queue is bounded by the scheduler; a lost message is the broker's to give back, and the
#: sweeps are every few seconds), and they never hold a slot a match is waiting for (each task
#: is a fresh pool child: frequent small tasks first would starve the league). Production and
#: the demo give validation a worker of its own (:data:`WORKERS`), so a build never takes a
#: match's slot; a worker on every queue (the tests') takes them in this order.
QUEUES = ("ratings", "tables", "challenges", "validation", "matches", "maintenance")
#: The queues of each kind of worker, in :data:`QUEUES` order: what ``-Q`` says in
#: ``deploy/supervisord.conf``, ``deploy/systemd/`` and ``docker/entrypoint.sh``.
WORKERS = {
    "matches": ("ratings", "tables", "challenges", "matches", "maintenance"),
    "validation": ("validation",),
}
ROUTES: dict[str, str] = {}  # task name -> queue, filled by house_task
TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (OperationalError, InterfaceError)


def house_task(
    *, queue: str, time_limit: int = 30 * 60, max_retries: int = 5
) -> Callable[[Callable[P, R]], "Task[P, R]"]:
    """Register a task on ``queue``; its parameters must all be keyword-only.

    >>> house_task(queue="nowhere")
    Traceback (most recent call last):
    ...
    ValueError: unknown queue 'nowhere' (the queues: core.celery.QUEUES)
    """
    if queue not in QUEUES:
        raise ValueError(f"unknown queue {queue!r} (the queues: core.celery.QUEUES)")

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


def check_queue_order(queues: list[str]) -> None:
    """Refuse a worker's ``-Q`` list that names an unknown queue or breaks :data:`QUEUES`'
    order (the worker takes from the first non-empty queue in the order given).

    >>> check_queue_order(["ratings", "matches"])
    >>> check_queue_order(["matches", "tables"])
    Traceback (most recent call last):
    ...
    ValueError: list tables before matches: a worker takes its queues in the order given
    """
    unknown = [queue for queue in queues if queue not in QUEUES]
    if unknown:
        raise ValueError(f"unknown queue {unknown[0]!r} (the queues: core.celery.QUEUES)")
    ranks = [QUEUES.index(queue) for queue in queues]
    for before, after in itertools.pairwise(ranks):
        if after < before:
            raise ValueError(
                f"list {QUEUES[after]} before {QUEUES[before]}: "
                "a worker takes its queues in the order given"
            )


def route(name: str, args: Any, kwargs: Any, options: Any, task: Any = None, **kw: Any) -> Any:
    """Celery router (``CELERY_TASK_ROUTES``): the queue :func:`house_task` fixed for ``name``."""
    queue = ROUTES.get(name)
    return {"queue": queue} if queue else None


def enqueue(task: "Task[..., Any]", *, queue: str | None = None, **kwargs: Any) -> None:
    """Send ``task(**kwargs)`` when the current transaction commits (at once outside one),
    to ``queue`` if given (one of :data:`QUEUES`) instead of the task's own."""
    transaction.on_commit(lambda: send(task, queue=queue, **kwargs), robust=True)


def send(
    task: "Task[..., Any]",
    *,
    countdown: float | None = None,
    queue: str | None = None,
    **kwargs: Any,
) -> bool:
    """Send ``task(**kwargs)`` now (after ``countdown`` seconds, to ``queue`` if given);
    ``False`` if the broker could not be reached (after Celery's own few publish retries): the
    sweepers send it again."""
    options: dict[str, Any] = {} if countdown is None else {"countdown": countdown}
    if queue is not None:
        if queue not in QUEUES:
            raise ValueError(f"unknown queue {queue!r} (the queues: core.celery.QUEUES)")
        options["queue"] = queue
    try:
        task.apply_async(kwargs=kwargs, **options)
    except BrokerError as error:
        log.warning("broker unreachable, %s%s not sent (the sweeper sends it again): %s",
                    task.name, kwargs, error)  # fmt: skip
        return False
    return True


def broker_backlog(queue: str) -> int | None:
    """How many messages wait in ``queue`` at the broker; ``None`` if it cannot be reached."""
    connection = current_app.connection_for_read()
    unreachable: tuple[type[BaseException], ...] = (BrokerError, *connection.connection_errors)
    try:
        with connection:
            connection.ensure_connection(max_retries=1)
            channel: Any = connection.default_channel  # a virtual channel: queue_declare
            try:
                _, count, _ = channel.queue_declare(queue=queue, passive=True)
            except connection.channel_errors:  # Redis keeps no empty list: "no such queue"
                return 0
            return int(count)
    except unreachable as error:
        log.warning("could not count the messages in %s: %s", queue, error)
        return None


def resend_stale(
    model: "type[Claimable]",
    task: "Task[..., Any]",
    *,
    waiting: str,
    working: str,
    key: str,
    after_seconds: float,
    queue_field: str | None = None,
) -> int:
    """Send ``task(key=pk)`` again for every row of ``model`` whose message was lost or whose
    worker died; the number of rows sent. Each goes to the task's queue, or to the one its
    row names in ``queue_field`` (a challenge's match to ``challenges``).

    * A working row whose lease ran out (its worker was killed) is sent again at once, and
      again every ``after_seconds`` while it stays so.
    * A waiting row last sent more than ``after_seconds`` ago is sent again if the broker holds
      fewer messages on the task's queue than there are waiting rows: then some message is
      missing (a broker restart, a send that failed). A long queue of live messages sends
      nothing, and a round of sending can at most double the messages of waiting rows.

    The task claims its row first, so a message that was not lost after all costs one no-op run.
    """
    now = timezone.now()
    sent_before = now - timedelta(seconds=after_seconds)
    manager = model._default_manager
    stale = Q(status=working, lease_expires_at__lt=now) & (
        Q(queued_at__lt=F("lease_expires_at")) | Q(queued_at__lt=sent_before)
    )
    lost = Q(status=waiting, queued_at__lt=sent_before)
    own = ROUTES.get(task.name, "maintenance")
    queue_of = F(queue_field) if queue_field else Value(own)
    # Each queue is counted against its own waiting rows: the league's long queue says
    # nothing of a challenge whose message was lost.
    for queue in manager.filter(lost).order_by().values_list(queue_of, flat=True).distinct():
        backlog = broker_backlog(queue)
        waiting_here = manager.filter(Q(status=waiting)).alias(q=queue_of).filter(q=queue)
        if backlog is not None and backlog < waiting_here.count():
            stale |= lost & Q(pk__in=waiting_here.values("pk"))
    sent = 0
    rows = manager.filter(stale).order_by("queued_at").values_list("pk", queue_of)
    for pk, queue in rows:
        # Only one sweeper sends a row again: the one whose update moved queued_at.
        if manager.filter(pk=pk, queued_at__lt=now).update(queued_at=now):
            log.info("sending %s %s again to %s", model.__name__, pk, queue)
            enqueue(task, queue=queue, **{key: pk})
            sent += 1
    return sent


def look_again_when_lease_ends(
    task: "Task[..., Any]",
    model: "type[Claimable]",
    pk: int,
    *,
    working: str,
    key: str,
    queue_field: str | None = None,
) -> bool:
    """After a claim failed: if this message was a redelivery (the broker believes its worker
    lost) and the row is still held, send ``task`` again for when the lease ends (to the
    queue the row names in ``queue_field``, if given, as :func:`resend_stale`).

    The holder may have died a moment ago and its lease is not over yet; without this the row
    would wait for the sweeper. A fresh duplicate (a sweep's) finds a live holder and stops.
    """
    delivery = task.request.delivery_info or {}
    if not delivery.get("redelivered"):
        return False
    queue_of = F(queue_field) if queue_field else Value(None, CharField())
    held = (
        model._default_manager.filter(Q(pk=pk, status=working))
        .values_list("lease_expires_at", queue_of)
        .first()
    )
    if held is None or held[0] is None:
        return False
    lease_end, queue = held
    wait = max(1.0, (lease_end - timezone.now()).total_seconds() + 1.0)
    keys: dict[str, Any] = {key: pk}
    return send(task, countdown=wait, queue=queue, **keys)
