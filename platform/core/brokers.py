"""The demo's folder broker, taking from a worker's queues in their order.

kombu's ``filesystem://`` transport takes from a worker's queues in turn (a
:class:`~kombu.utils.scheduling.FairCycle` whose position moves on after every message), so a
person's table queued behind the league's matches waited for one message of every other queue
first. :class:`FolderTransport` starts every look at the first queue instead: the next task is
the first queue's that has one, as Redis's ``queue_order_strategy="priority"`` does with
``BRPOP`` over the queues in order (``config/settings.py`` sets both). Celery picks it through
``broker_transport`` (a transport named by a URL cannot be a module path).
"""

from queue import Empty  # what kombu's virtual transports raise for "no message"
from typing import Any

from kombu.transport import filesystem
from kombu.utils.scheduling import FairCycle


class FirstQueueFirst(FairCycle):
    """A cycle over the queues that always starts at the first: the first with a message
    gives it (queues are ``active_queues``, in the order the worker consumes them)."""

    def get(self, callback: Any, **kwargs: Any) -> Any:
        self.pos = 0
        return super().get(callback, **kwargs)


class Channel(filesystem.Channel):
    def _reset_cycle(self) -> None:
        self._cycle = FirstQueueFirst(self._get_and_deliver, self._active_queues, Empty)


class FolderTransport(filesystem.Transport):
    """``filesystem://`` with :class:`Channel`: queues taken first first."""

    Channel = Channel
