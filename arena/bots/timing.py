"""Time budgets of the searching bots: a decision's deadline on a named clock.

``wall`` is :func:`time.perf_counter`, the clock the arena's deadlines run on. ``cpu`` is
:func:`time.process_time`, the processor time this process has used: on a busy machine every
bot then gets the same amount of computing per decision whatever else runs, which is what a
strength comparison at equal time needs (``benchmarks/strength.py`` uses it).

>>> deadline = Deadline(30.0, "cpu")
>>> deadline.expired(), 0.0 < deadline.left() <= 0.030
(False, True)
>>> Deadline(5, "sundial")
Traceback (most recent call last):
...
ValueError: unknown clock 'sundial'; clocks: wall, cpu
"""

import time
from collections.abc import Callable, Mapping
from types import MappingProxyType

CLOCKS: Mapping[str, Callable[[], float]] = MappingProxyType(
    {"wall": time.perf_counter, "cpu": time.process_time}
)


def clock_named(name: str) -> Callable[[], float]:
    """The clock called ``name`` (``wall`` or ``cpu``), in seconds."""
    clock = CLOCKS.get(name)
    if clock is None:
        raise ValueError(f"unknown clock {name!r}; clocks: {', '.join(CLOCKS)}")
    return clock


class Deadline:
    """``ms`` milliseconds from now on clock ``clock``; ``now`` may be given for tests."""

    def __init__(
        self, ms: float, clock: str = "wall", now: Callable[[], float] | None = None
    ) -> None:
        self.now = now or clock_named(clock)
        self.start = self.now()
        self.end = self.start + ms / 1000

    def expired(self) -> bool:
        return self.now() >= self.end

    def left(self) -> float:
        """Seconds left (negative once past)."""
        return self.end - self.now()

    def at(self, fraction: float) -> float:
        """The clock reading ``fraction`` of the way from the start to the end."""
        return self.start + (self.end - self.start) * fraction
