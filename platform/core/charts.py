"""Small charts drawn on the server as inline SVG: a sparkline and a line chart with a band.

Pure geometry (no Django): values in, SVG coordinates out; the templates write the elements.
No JavaScript and no external asset is needed to see a bot's rating history.

>>> s = sparkline([1500, 1520, 1510, 1540], width=30, height=10, pad=0)
>>> s.points
'0,10 10,5 20,7.5 30,0'
>>> s.delta, s.trend
(40.0, 'up')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Chart", "Sparkline", "line_chart", "nice_ticks", "sparkline"]


def _num(value: float) -> str:
    """A coordinate with at most one decimal, without a trailing ``.0``."""
    return f"{value:.1f}".removesuffix(".0")


@dataclass(frozen=True)
class Sparkline:
    width: int
    height: int
    points: str  # for <polyline points="...">
    last_x: str
    last_y: str
    delta: float  # last value minus first
    trend: str  # "up", "down" or "flat"


def sparkline(
    values: Sequence[float], *, width: int = 80, height: int = 20, pad: float = 2.0
) -> Sparkline | None:
    """A sparkline of ``values`` (oldest first); ``None`` for fewer than two values.

    >>> sparkline([5]) is None
    True
    >>> sparkline([3, 3, 3], width=20, height=10, pad=0).points  # flat: drawn in the middle
    '0,5 10,5 20,5'
    """
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = high - low
    inner_w, inner_h = width - 2 * pad, height - 2 * pad
    step = inner_w / (len(values) - 1)
    coords = []
    for i, value in enumerate(values):
        x = pad + i * step
        y = pad + inner_h / 2 if span == 0 else pad + inner_h * (high - value) / span
        coords.append((_num(x), _num(y)))
    delta = float(values[-1] - values[0])
    trend = "up" if delta > 0.5 else "down" if delta < -0.5 else "flat"
    return Sparkline(
        width,
        height,
        " ".join(f"{x},{y}" for x, y in coords),
        coords[-1][0],
        coords[-1][1],
        delta,
        trend,
    )


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About ``count`` round tick values covering ``low..high`` (steps of 1, 2 or 5 × 10ⁿ).

    >>> nice_ticks(1432, 1618)
    [1450.0, 1500.0, 1550.0, 1600.0]
    >>> nice_ticks(0, 1, 3)
    [0.0, 0.5, 1.0]
    >>> nice_ticks(7, 7)
    [7.0]
    """
    if high < low:
        low, high = high, low
    if high == low:
        return [float(low)]
    raw = (high - low) / max(1, count)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step) * step
    ticks = []
    value = first
    while value <= high + step * 1e-9:
        ticks.append(float(round(value, 10)))
        value += step
    return ticks


@dataclass(frozen=True)
class Tick:
    position: str  # x or y coordinate
    label: str


@dataclass(frozen=True)
class Chart:
    """A line chart's SVG pieces, in a ``width`` × ``height`` viewBox."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    line: str  # <polyline points>
    band: str  # <polygon points> around the line (empty without errors)
    y_ticks: list[Tick]
    x_ticks: list[Tick]
    last_x: str
    last_y: str


def line_chart(
    values: Sequence[float],
    errors: Sequence[float] | None = None,
    *,
    x_labels: Sequence[str] | None = None,
    width: int = 640,
    height: int = 200,
    margin: tuple[int, int, int, int] = (10, 12, 22, 44),  # top, right, bottom, left
) -> Chart | None:
    """A line through ``values`` (oldest first) with a band of ``± errors`` around it.

    ``x_labels`` name the points (game numbers); about six of them are shown.

    >>> c = line_chart([1500, 1540, 1520], [350, 240, 200], width=100, height=60,
    ...                margin=(0, 0, 0, 0))
    >>> c.line
    '0,30 50,26.6 100,28.3'
    >>> [t.label for t in c.y_ticks]
    ['1200', '1400', '1600', '1800']
    >>> line_chart([1500]) is None
    True
    """
    if len(values) < 2:
        return None
    if errors is not None and len(errors) != len(values):
        raise ValueError(f"{len(values)} values but {len(errors)} errors")
    errs = list(errors) if errors is not None else [0.0] * len(values)
    top, right, bottom, left = margin
    lows = [v - e for v, e in zip(values, errs, strict=True)]
    highs = [v + e for v, e in zip(values, errs, strict=True)]
    low, high = min(lows), max(highs)
    if high == low:
        low, high = low - 1, high + 1
    inner_w, inner_h = width - left - right, height - top - bottom

    def x_at(i: int) -> float:
        return left + inner_w * i / (len(values) - 1)

    def y_at(v: float) -> float:
        return top + inner_h * (high - v) / (high - low)

    xs = [_num(x_at(i)) for i in range(len(values))]  # shared by the line and the band
    line = " ".join(f"{x},{_num(y_at(v))}" for x, v in zip(xs, values, strict=True))
    band = ""
    if errors is not None:
        upper = [f"{x},{_num(y_at(v))}" for x, v in zip(xs, highs, strict=True)]
        lower = [f"{x},{_num(y_at(v))}" for x, v in zip(xs, lows, strict=True)]
        band = " ".join(upper + lower[::-1])
    y_ticks = [Tick(_num(y_at(t)), f"{t:g}") for t in nice_ticks(low, high, 4)]
    labels = list(x_labels) if x_labels is not None else [str(i + 1) for i in range(len(values))]
    every = max(1, math.ceil(len(values) / 6))
    shown = sorted({*range(0, len(values), every), len(values) - 1})
    if len(shown) > 1 and shown[-1] - shown[-2] < every / 2:
        shown.pop(-2)  # the last label would touch its neighbour
    x_ticks = [Tick(_num(x_at(i)), labels[i]) for i in shown]
    return Chart(
        width,
        height,
        left,
        width - right,
        top,
        height - bottom,
        line,
        band,
        y_ticks,
        x_ticks,
        _num(x_at(len(values) - 1)),
        _num(y_at(values[-1])),
    )
