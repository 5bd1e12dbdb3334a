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


def test_the_top_level_names_survive_importing_every_submodule() -> None:
    """Importing ``hanafuda.x`` sets the attribute ``x`` of the package: no top-level name may be a
    subpackage's name (``hanafuda.games`` is one)."""
    import importlib
    import pkgutil
    import types

    import hanafuda

    for info in pkgutil.walk_packages(hanafuda.__path__, "hanafuda."):
        if ".rulebook" not in info.name and not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    assert not [n for n in hanafuda.__all__ if isinstance(getattr(hanafuda, n), types.ModuleType)]
