"""The errors the library raises for bad input or an unusable environment, in a module of their own so
that the library never imports the command-line layer (:mod:`hanafuda.cli` and :mod:`hanafuda.commands`
import them from here, and the program reports them in one line with exit code 2)."""

from __future__ import annotations

import re

__all__ = ["ECHO_LIMIT", "UsageError", "clip_echoes"]

#: How many characters of an input an error message echoes: longer input is cut there, with "…".
ECHO_LIMIT = 60

_QUOTED = re.compile(r"""(?<![\w'"])('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")(?![\w'"])""")
_UNIT = re.compile(r"\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N\{[^}]*\}|.)|.", re.S)
_BARE = re.compile(r"\S{" + str(3 * ECHO_LIMIT + 1) + ",}")


class UsageError(ValueError):
    """Bad command-line input or environment: reported in one line with exit code 2."""


def _cut(text: str) -> str:
    """``text`` (an escaped echo) cut to :data:`ECHO_LIMIT` characters and "…", never inside an escape."""
    n = 0
    for m in _UNIT.finditer(text):
        if m.end() > ECHO_LIMIT:
            break
        n = m.end()
    return text[:n] + "…"


def clip_echoes(message: str) -> str:
    """An error message with every long echo of input cut (issue 30): a quoted literal (as ``repr``
    writes one) of more than :data:`ECHO_LIMIT` characters keeps its first ones and "…" inside its
    quotes, still escaped; any other run of more than three times as many characters without a space
    keeps its first :data:`ECHO_LIMIT`. The program applies it to every one-line error, so a
    5,000-character ruleset name or option does not fill the terminal.

    >>> clip_echoes("unknown ruleset '" + "x" * 100 + "' for koikoi")[:30]
    "unknown ruleset 'xxxxxxxxxxxxx"
    >>> len(clip_echoes("unknown ruleset '" + "x" * 100 + "' for koikoi"))
    90
    >>> clip_echoes("unknown option 'colour' for koikoi")
    "unknown option 'colour' for koikoi"
    """
    def quoted(m: re.Match[str]) -> str:
        lit = m.group(0)
        inner = lit[1:-1]
        return lit if len(inner) <= ECHO_LIMIT else lit[0] + _cut(inner) + lit[-1]

    out = _QUOTED.sub(quoted, message)
    return _BARE.sub(lambda m: _cut(m.group(0)), out)
