"""The workers' process pool: Celery's prefork pool, replacing an exited child within half a
second, and not brought down by a broker that comes back while a child is being replaced.

Each task runs in a child of its own (``CELERY_WORKER_MAX_TASKS_PER_CHILD = 1``, for gRPC's
sake: ``config/settings.py``). Celery's pool starts the next child when it sees the last one's
end, but that look can come a moment before the child can be reaped; the pool then waits for its
next round, every 5 s, and the slot stays empty: a person's table or a finished match's rating
waited up to 5 s for it. This pool's round comes every :data:`ROUND_S`.

Meanwhile the exited child is still in the pool's list, no longer watched (Celery stopped
watching it when it saw it end). If the broker's connection comes back in that moment, Celery
registers the pool with its event loop again and watches every child in the list: for that one
there is nothing to watch, and Celery 5.6's worker ended with "Unrecoverable error: ValueError
('file descriptor is None')" (seen after a Redis restart). This pool leaves such a child alone:
its round replaces it as before.
"""

from typing import Any

from celery.concurrency import asynpool, prefork

#: How often the pool looks for exited children to replace (s).
ROUND_S = 0.25


class AsynPool(asynpool.AsynPool):
    @property
    def timers(self) -> dict[Any, float]:
        return {self.maintain_pool: ROUND_S}

    def _track_child_process(self, proc: Any, hub: Any) -> None:
        if getattr(proc, "_sentinel_poll", ...) is None:
            return  # seen to end and no longer watched: the next round replaces it
        super()._track_child_process(proc, hub)  # type: ignore[misc]  # not in celery-types


class TaskPool(prefork.TaskPool):
    """``worker_pool``: the prefork pool with :class:`AsynPool`."""

    Pool = AsynPool
