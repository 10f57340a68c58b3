"""The examples in the engine's docstrings run (python-chess keeps its own the same way)."""

from __future__ import annotations

import doctest

import pytest

import adjudicator.answer_space
import adjudicator.state
import adjudicator.systems


@pytest.mark.parametrize("module", [adjudicator.state, adjudicator.systems, adjudicator.answer_space],
                         ids=lambda m: m.__name__)
def test_the_examples_in_the_docstrings_run(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
