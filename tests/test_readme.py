"""The README's "Use it from Python" examples run as doctests, so they stay true."""

from __future__ import annotations

import doctest
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_examples_run() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False,
                              raise_on_error=False)
    assert result.attempted >= 15, result
    assert result.failed == 0, result
