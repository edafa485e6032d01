"""The arena's metrics for Prometheus: what the workers saw, counted in the database, and what
is waiting, read from the broker and the database when Prometheus asks.

Why not prometheus_client's multiprocess mode: its files aggregate the processes of one machine
only, and start again from zero with each process, while the arena's workers run on any number
of machines and the site is the one place Prometheus scrapes. So a worker adds what it observed
(a match's duration, its bots' start and decision times, their faults, a validation's verdict)
to :class:`core.models.Tally` rows **in the transaction that keeps the result** — an attempt
whose claim was lost, or a task delivered twice, counts nothing, and a match counts exactly
once. Queue depths and the work waiting are read at scrape time (the broker's queue lengths, the
database's queued and running rows, through the indexes the sweepers use), so they are exact
too. prometheus_client writes the exposition format (:func:`exposition`).

Histograms are kept as one tally per bucket (not cumulative; the collector sums them), plus
``_sum`` and ``_count``.
"""

import logging
import math
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import connection
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
    SummaryMetricFamily,
)
from prometheus_client.registry import Collector

from core.celery import QUEUES
from core.models import Tally

if TYPE_CHECKING:  # the bridge imports the runner; only its types are needed here
    from matches.bridge import MatchOutcome

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Histogram:
    name: str
    help: str
    buckets: tuple[float, ...]  # upper bounds, ascending; +Inf is added

    def bucket_of(self, value: float) -> str:
        """The ``le`` label of the bucket ``value`` falls in.

        >>> MATCH_SECONDS.bucket_of(0.5), MATCH_SECONDS.bucket_of(7), MATCH_SECONDS.bucket_of(1e9)
        ('1', '10', '+Inf')
        """
        for bound in self.buckets:
            if value <= bound:
                return _number(bound)
        return "+Inf"


MATCH_SECONDS = Histogram(
    "nimmt_match_duration_seconds",
    "How long the runner took to play a match (all its games).",
    (1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800),
)
SANDBOX_START_SECONDS = Histogram(
    "nimmt_sandbox_start_seconds",
    "From a bot program's launch in the sandbox to its hello.",
    (0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10),
)
DECISION_MAX_SECONDS = Histogram(
    "nimmt_decision_max_seconds",
    "A bot's slowest decision in a match.",
    (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5),
)
STORAGE_SECONDS = Histogram(
    "nimmt_storage_write_seconds",
    "Writing a played match's files (replays, logs) to the arena's storage.",
    (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
HISTOGRAMS = (MATCH_SECONDS, SANDBOX_START_SECONDS, DECISION_MAX_SECONDS, STORAGE_SECONDS)
DECISIONS = "nimmt_decision_seconds"  # a summary: every decision's time, _sum and _count

COUNTERS = {
    "nimmt_matches_started_total": "Match attempts a worker claimed and began to play.",
    "nimmt_matches_finished_total": "Matches that ended, by outcome (finished: stored; failed).",
    "nimmt_faults_total": "Faults of bots in stored matches, by kind.",
    "nimmt_validations_total": "Validations of uploaded versions, by outcome.",
}


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _labels(labels: Mapping[str, str]) -> str:
    return ",".join(f"{key}={labels[key]}" for key in sorted(labels))


class Tallies:
    """What one transaction adds: ``count``, ``observe``, then :meth:`save`."""

    def __init__(self) -> None:
        self.amounts: dict[tuple[str, str], float] = defaultdict(float)

    def count(self, name: str, amount: float = 1.0, **labels: str) -> None:
        if name not in COUNTERS:
            raise ValueError(f"unknown counter {name!r}")
        self.amounts[(name, _labels(labels))] += amount

    def observe(self, histogram: Histogram, value: float) -> None:
        if not math.isfinite(value) or value < 0:
            return
        self.amounts[(f"{histogram.name}_bucket", f"le={histogram.bucket_of(value)}")] += 1
        self.amounts[(f"{histogram.name}_sum", "")] += value
        self.amounts[(f"{histogram.name}_count", "")] += 1

    def save(self) -> None:
        """Add the amounts to their rows (made when missing), in one statement per row, in a
        fixed order so that two workers' transactions never wait on each other in a circle."""
        if not self.amounts:
            return
        table = Tally._meta.db_table
        sql = (
            f"INSERT INTO {table} (name, labels, value) VALUES (%s, %s, %s) "
            f"ON CONFLICT (name, labels) DO UPDATE SET value = {table}.value + excluded.value"
        )
        with connection.cursor() as cursor:
            cursor.executemany(sql, [(n, lab, v) for (n, lab), v in sorted(self.amounts.items())])
        self.amounts.clear()


def match_started() -> None:
    tallies = Tallies()
    tallies.count("nimmt_matches_started_total")
    tallies.save()


def match_failed() -> None:
    """Call in the transaction that fails the match."""
    tallies = Tallies()
    tallies.count("nimmt_matches_finished_total", outcome="failed")
    tallies.save()


def match_stored(outcome: "MatchOutcome", *, storage_seconds: float) -> None:
    """Call in the transaction that stores ``outcome``: its duration, its bots' start and
    decision times, its faults, and how long its files took to write."""
    tallies = Tallies()
    tallies.count("nimmt_matches_finished_total", outcome="finished")
    tallies.observe(STORAGE_SECONDS, storage_seconds)
    tallies.observe(MATCH_SECONDS, outcome.result.duration_s)
    for bot in outcome.result.bots:
        if bot.program is not None and bot.program.start_ms is not None:
            tallies.observe(SANDBOX_START_SECONDS, bot.program.start_ms / 1000)
        if bot.answers and bot.think_mean_ms is not None:
            tallies.amounts[(f"{DECISIONS}_sum", "")] += bot.think_mean_ms * bot.answers / 1000
            tallies.amounts[(f"{DECISIONS}_count", "")] += bot.answers
            tallies.observe(DECISION_MAX_SECONDS, bot.think_max_ms / 1000)
    for seat in outcome.seats:
        for fault in seat.faults:
            tallies.count("nimmt_faults_total", kind=str(fault.get("kind", "unknown")))
    tallies.save()


def validation_done(*, passed: bool) -> None:
    """Call in the transaction that stores the verdict."""
    tallies = Tallies()
    tallies.count("nimmt_validations_total", outcome="passed" if passed else "failed")
    tallies.save()


# ---------------------------------------------------------------------------- exposition


def _parse_labels(text: str) -> dict[str, str]:
    return dict(pair.split("=", 1) for pair in text.split(",")) if text else {}


class ArenaCollector(Collector):
    """Every metric, read when Prometheus scrapes."""

    def collect(self) -> Iterator[Metric]:
        rows = list(Tally.objects.values_list("name", "labels", "value"))
        yield from _counters(rows)
        yield from _histograms(rows)
        yield from _decisions(rows)
        yield from _work_waiting()
        yield from _queue_depths()


def _counters(rows: list[tuple[str, str, float]]) -> Iterable[Metric]:
    for name, help_text in COUNTERS.items():
        series = [(_parse_labels(labels), value) for n, labels, value in rows if n == name]
        keys = sorted({key for labels, _ in series for key in labels})
        family = CounterMetricFamily(name.removesuffix("_total"), help_text, labels=keys)
        for labels, value in sorted(series, key=lambda s: sorted(s[0].items())):
            family.add_metric([labels.get(key, "") for key in keys], value)
        yield family


def _histograms(rows: list[tuple[str, str, float]]) -> Iterable[Metric]:
    values = {(name, labels): value for name, labels, value in rows}
    for histogram in HISTOGRAMS:
        running = 0.0
        buckets = []
        for bound in (*map(_number, histogram.buckets), "+Inf"):
            running += values.get((f"{histogram.name}_bucket", f"le={bound}"), 0.0)
            buckets.append((bound, running))
        yield HistogramMetricFamily(
            histogram.name,
            histogram.help,
            buckets=buckets,
            sum_value=values.get((f"{histogram.name}_sum", ""), 0.0),
        )


def _decisions(rows: list[tuple[str, str, float]]) -> Iterable[Metric]:
    values = {(name, labels): value for name, labels, value in rows}
    yield SummaryMetricFamily(
        DECISIONS,
        "Bots' decision times in stored matches (their mean: rate of _sum over rate of _count).",
        count_value=round(values.get((f"{DECISIONS}_count", ""), 0.0)),
        sum_value=values.get((f"{DECISIONS}_sum", ""), 0.0),
    )


@dataclass(frozen=True)
class Waiting:
    """Rows of an app's ``model`` that wait for work (or are in it), counted by ``status`` at
    each scrape as the gauge ``name``."""

    name: str
    help: str
    model: Any
    statuses: tuple[str, ...]


_WAITING: dict[str, Waiting] = {}


def count_waiting(name: str, help_text: str, model: Any, statuses: tuple[str, ...]) -> None:
    """Count ``model``'s rows in ``statuses`` as the gauge ``name`` at every scrape. The app
    that owns the model says so from its ``AppConfig.ready`` (``core`` imports no app)."""
    _WAITING[name] = Waiting(name, help_text, model, statuses)


def _work_waiting() -> Iterable[Metric]:
    for waiting in sorted(_WAITING.values(), key=lambda w: w.name):
        family = GaugeMetricFamily(waiting.name, waiting.help, labels=["status"])
        counts: dict[str, int] = dict.fromkeys(waiting.statuses, 0)
        for status, n in _counts_by_status(waiting.model, waiting.statuses):
            counts[status] = n
        for status in waiting.statuses:
            family.add_metric([status], counts[status])
        yield family


def _counts_by_status(model: Any, statuses: tuple[str, ...]) -> list[tuple[str, int]]:
    from django.db.models import Count

    return list(
        model.objects.filter(status__in=statuses)
        .order_by()
        .values("status")
        .annotate(n=Count("pk"))
        .values_list("status", "n")
    )


def queue_depths() -> dict[str, int]:
    """Messages waiting in each of the site's broker queues (the broker's own count)."""
    from kombu import Connection
    from kombu.exceptions import ChannelError

    depths = {}
    with Connection(
        settings.CELERY_BROKER_URL,
        transport_options=settings.CELERY_BROKER_TRANSPORT_OPTIONS,
        connect_timeout=3,
    ) as broker:
        channel: Any = broker.default_channel
        for queue in QUEUES:
            try:
                depths[queue] = channel.queue_declare(queue=queue, passive=True).message_count
            except ChannelError:  # no message was ever sent there
                depths[queue] = 0
    return depths


def _queue_depths() -> Iterable[Metric]:
    family = GaugeMetricFamily(
        "nimmt_queue_messages", "Messages waiting in a broker queue.", labels=["queue"]
    )
    up = GaugeMetricFamily("nimmt_broker_up", "Whether the broker answered this scrape.")
    try:
        depths = queue_depths()
    except Exception as error:
        log.warning("metrics: the broker did not answer: %s", error)
        up.add_metric([], 0)
    else:
        up.add_metric([], 1)
        for queue, depth in depths.items():
            family.add_metric([queue], depth)
    yield family
    yield up


def exposition() -> bytes:
    """The metrics in Prometheus' text format."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(ArenaCollector())
    return generate_latest(registry)
