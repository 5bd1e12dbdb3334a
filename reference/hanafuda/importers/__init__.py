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

from collections.abc import Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Protocol, runtime_checkable

from hanafuda_spec.neutral import JsonValue

__all__ = ["ENTRY_POINT_GROUP", "Importer", "ImporterError", "decode_utf8", "importers"]

ENTRY_POINT_GROUP = "hanafuda.importers"

Record = dict[str, JsonValue]


@dataclass
class ImporterError(Exception):
    """A log an importer cannot map: the 1-based line (or None) and what is wrong there."""

    line: int | None
    what: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.what}" if self.line is not None else self.what


def decode_utf8(data: bytes) -> str:
    """A log's text, with or without a UTF-8 byte order mark; anything else is an :class:`ImporterError`
    naming the first bad byte (a helper for importers)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ImporterError(None, f"not UTF-8 (byte {e.start + 1})") from None


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
