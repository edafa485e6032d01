"""The docstring examples of the site's modules (``--doctest-modules`` does not reach
``platform/``, which is not on the test paths)."""

import doctest
from importlib import import_module
from types import ModuleType

import pytest
from config import env
from core import celery, charts, disks, locks
from ladders import services
from matches import listing, scheduler

FEWER_CHART_POINTS = import_module("ladders.migrations.0009_fewer_chart_points")


@pytest.mark.parametrize(
    "module",
    [env, celery, charts, disks, locks, scheduler, listing, services, FEWER_CHART_POINTS],
    ids=lambda m: m.__name__,
)
def test_it_passes_the_docstring_examples(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
