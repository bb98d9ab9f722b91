"""The core's main entry used as its docstring shows: the example in `Game`'s docstring runs as written."""

from __future__ import annotations

import doctest

from assistant.core.game import history


def test_the_games_example_runs_as_written():
    result = doctest.testmod(history, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted >= 12
