"""The errors the library raises for bad input or an unusable environment, in a module of their own so
that the library never imports the command-line layer (:mod:`hanafuda.cli` and :mod:`hanafuda.commands`
import them from here, and the program reports them in one line with exit code 2)."""

from __future__ import annotations

__all__ = ["UsageError"]


class UsageError(ValueError):
    """Bad command-line input or environment: reported in one line with exit code 2."""
