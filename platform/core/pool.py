"""The workers' process pool: Celery's prefork pool, replacing an exited child within half a
second.

Each task runs in a child of its own (``CELERY_WORKER_MAX_TASKS_PER_CHILD = 1``, for gRPC's
sake: ``config/settings.py``). Celery's pool starts the next child when it sees the last one's
end, but that look can come a moment before the child can be reaped; the pool then waits for its
next round, every 5 s, and the slot stays empty: a person's table or a finished match's rating
waited up to 5 s for it. This pool's round comes every :data:`ROUND_S`.
"""

from typing import Any

from celery.concurrency import asynpool, prefork

#: How often the pool looks for exited children to replace (s).
ROUND_S = 0.25


class AsynPool(asynpool.AsynPool):
    @property
    def timers(self) -> dict[Any, float]:
        return {self.maintain_pool: ROUND_S}


class TaskPool(prefork.TaskPool):
    """``worker_pool``: the prefork pool with :class:`AsynPool`."""

    Pool = AsynPool
