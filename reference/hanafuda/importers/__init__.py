"""Importers: other engines' game logs as ``hanafuda-record/1.1`` records (``hanafuda import``).

An importer reads one log file and returns its records: each carries the engine's profile as its
rules (a ruleset of the game's catalogue) and its provenance in ``meta`` (the file and line, the
engine, the commit the mapping was read from). What it cannot map — a card the format does not
have, a log that contradicts itself, a truncated log, another format — is an
:class:`ImporterError` located by line, never a silent guess. Deals are written as zones (each
hand, the table, the draw pile top first) and captures as the cards taken, so that an importer
needs no knowledge of our deal or of when a capture is a choice: validation checks both.

Built in: ``koikoi-ai`` (:mod:`hanafuda.importers.koikoi_ai`) and ``battle-hanafuda``
(:mod:`hanafuda.importers.battle_hanafuda`). Others are plugins: a package declares an entry
point in the group ``hanafuda.importers`` whose object has a ``name``, a one-line ``summary``
and a ``read(source, data)`` method. For example, in the plugin's ``pyproject.toml``::

    [project.entry-points."hanafuda.importers"]
    my-engine = "my_engine_hanafuda:IMPORTER"

and in ``my_engine_hanafuda.py``::

    from hanafuda.importers import ImporterError, Importer

    class MyEngine:
        name = "my-engine"
        summary = "My engine's JSON logs (one record per game)"

        def read(self, source: str, data: bytes) -> list[dict]:
            ...  # build hanafuda-record/1.1 documents; raise ImporterError(line, "what") on bad input

    IMPORTER: Importer = MyEngine()

``hanafuda import my-engine FILE...`` then finds it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Protocol, runtime_checkable

from hanafuda_spec.neutral import JsonValue

__all__ = ["ENTRY_POINT_GROUP", "MAX_DIGITS", "MAX_LOG_BYTES", "Importer", "ImporterError", "decode_utf8",
           "importers", "shown", "whole_number"]

ENTRY_POINT_GROUP = "hanafuda.importers"
#: The largest log file an importer is given (``hanafuda import`` refuses a larger one before reading
#: it whole): real logs are tens of kilobytes.
MAX_LOG_BYTES = 16 << 20
#: The most digits a number in a log may have: bounded before any ``int()`` (Python refuses more than
#: 4,300), and far beyond any point total or card index an engine writes.
MAX_DIGITS = 18

Record = dict[str, JsonValue]


@dataclass
class ImporterError(Exception):
    """A log an importer cannot map: the 1-based line (or None) and what is wrong there."""

    line: int | None
    what: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.what}" if self.line is not None else self.what


def shown(v: object, limit: int = 40) -> str:
    """A value from a log as a message shows it: JSON-escaped (no raw control characters, so a log cannot
    forge a line of the report), cut to about ``limit`` characters.

    >>> shown("a\\nhanafuda: error: forged")
    '"a\\\\nhanafuda: error: forged"'
    >>> shown(2.0), shown(True), shown(None)
    ('2.0', 'true', 'null')
    """
    more = False
    if isinstance(v, str) and len(v) > limit:
        v, more = v[:limit], True
    elif isinstance(v, list) and len(v) > 8:
        v, more = v[:8], True  # (only a beginning is shown: never serialise a huge value whole)
    elif isinstance(v, dict) and len(v) > 8:
        v, more = dict(list(v.items())[:8]), True
    try:
        text = json.dumps(v, ensure_ascii=True, allow_nan=True)
    except (TypeError, ValueError, RecursionError):
        text = "a value nested too deeply to show"
    return text[:limit] + "..." if more or len(text) > limit else text


def whole_number(text: str, line: int | None, what: str, low: int, high: int) -> int:
    """``text`` (ASCII digits, an optional minus sign) as an integer from ``low`` to ``high``, its length
    checked before any conversion; anything else is an :class:`ImporterError` "expected ..., found ..."."""
    digits = text[1:] if text.startswith("-") else text
    if 0 < len(digits) <= MAX_DIGITS and digits.isascii() and digits.isdigit():
        n = int(text)
        if low <= n <= high:
            return n
    raise ImporterError(line, f"{what}: expected a whole number {low} to {high}, found {shown(text)}")


def decode_utf8(data: bytes) -> str:
    """A log's text, with or without a UTF-8 byte order mark; anything else is an :class:`ImporterError`
    naming the first bad byte (a helper for importers)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ImporterError(data.count(b"\n", 0, e.start) + 1, f"expected UTF-8 text, found the byte "
                            f"0x{data[e.start]:02x} (byte {e.start + 1} of the file)") from None


@runtime_checkable
class Importer(Protocol):
    """The interface of an importer (built in, or found through the entry point group)."""

    name: str
    summary: str

    def read(self, source: str, data: bytes) -> list[Record]:
        """The records of one log file (``source`` is its name, for ``meta``); raises
        :class:`ImporterError` for anything it cannot map."""
        ...


def _builtins() -> dict[str, Importer]:
    from hanafuda.importers.battle_hanafuda import IMPORTER as BATTLE
    from hanafuda.importers.koikoi_ai import IMPORTER as KOIKOI_AI

    return {KOIKOI_AI.name: KOIKOI_AI, BATTLE.name: BATTLE}


def importers() -> Mapping[str, Importer]:
    """Every importer by name: the built-in ones and the plugins of the entry point group (a plugin
    that fails to load, or is not an importer, is skipped; one that reuses a built-in name does
    not replace it)."""
    found = _builtins()
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in found:
            continue
        try:
            obj = ep.load()
        except Exception:  # a broken plugin must not break the command for the others
            continue
        if isinstance(obj, Importer):
            found[ep.name] = obj
    return dict(sorted(found.items()))
