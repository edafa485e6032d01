"""The arena's own counters for its metrics (:mod:`core.metrics`): one row per series."""

from django.db import models


class Tally(models.Model):
    """A running total of one metric series: ``name`` and its labels (``kind=crash``, sorted
    ``k=v`` pairs joined by commas; ``""`` for none). Only ever added to, by
    :func:`core.metrics.add`, in the transaction that does what it counts."""

    name = models.CharField(max_length=100)
    labels = models.CharField(max_length=200, blank=True)
    value = models.FloatField(default=0.0)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["name", "labels"], name="one_tally_per_series"),
        )

    def __str__(self) -> str:
        return f"{self.name}{{{self.labels}}} {self.value}"
