"""Runs the docstring examples of the pure platform modules, so CI checks them even where
``--doctest-modules`` does not reach ``platform/``."""

import doctest
from types import ModuleType

import pytest
from ladders import rating
from submissions import unpack


@pytest.mark.parametrize("module", [rating, unpack], ids=lambda m: m.__name__)
def test_it_passes_the_docstring_examples(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
