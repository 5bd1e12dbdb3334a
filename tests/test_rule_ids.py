"""Every rule id the project mentions exists: a rule or a gap of the catalogue.

Code, docs, tests and examples name rules by id (``KJ-ONI-3``, ``MB-14``); a misspelt or retired id
would send a reader to nothing. Every text file git tracks is scanned for the catalogue's id shapes.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from hanafuda_spec.catalogue import GameSpec
from hanafuda_spec.games import all_specs

ROOT = Path(__file__).parents[1]

#: The id shapes of the catalogue: a rule ``<GAME>-<AREA>-<n>`` or a gap ``<GAME>-<n>``.
ID = re.compile(r"\b(?:KK|KG|KJ|MB|KE)-(?:[A-Z]+-)?\d+\b")


def known_ids(specs: Iterable[GameSpec]) -> frozenset[str]:
    return frozenset(i for s in specs for i in (*(r.id for r in s.rules), *(g.id for g in s.gaps)))


def unknown_ids(texts: Iterable[tuple[str, str]], known: frozenset[str]) -> list[str]:
    """``where: id`` for each id in ``texts`` (name, text) that is not in ``known``."""
    out = []
    for where, text in texts:
        for n, line in enumerate(text.splitlines(), 1):
            out += [f"{where}:{n}: {m}" for m in ID.findall(line) if m not in known]
    return out


def _tracked() -> list[str]:
    try:
        r = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return []
    return [p for p in r.stdout.decode().split("\0") if p]


def project_texts() -> Iterator[tuple[str, str]]:
    for rel in _tracked():
        path = ROOT / rel
        try:
            yield rel, path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # a binary file (pictures) or one removed from the work tree


def test_every_rule_id_mentioned_in_code_and_docs_exists() -> None:
    texts = list(project_texts())
    if not texts:
        pytest.skip("not a git checkout")
    assert any(p.endswith(".py") for p, _ in texts) and any(p.endswith(".md") for p, _ in texts)
    assert unknown_ids(texts, known_ids(all_specs())) == []


def test_a_planted_unknown_id_is_found() -> None:
    known = known_ids(all_specs())
    planted = "KJ-" + "JIZO-" + "6"  # built, so that this file itself does not mention it
    assert planted not in known and "KJ-JIZO-5" in known and "MB-14" in known
    text = f"see KJ-JIZO-5 and MB-14\nthe points (KJ-SCORE-1 / {planted})\n"
    assert unknown_ids([("doc.md", text)], known) == [f"doc.md:2: {planted}"]
    gap = "MB-" + "99"
    assert unknown_ids([("x.py", f"# decided in {gap}")], known) == [f"x.py:1: {gap}"]
    # a removed rule is found too: the same text against a catalogue without it
    assert unknown_ids([("doc.md", text)], known - {"MB-14"}) == ["doc.md:1: MB-14", f"doc.md:2: {planted}"]


def test_a_planted_id_in_a_copy_of_a_project_file_is_found() -> None:
    """The docstring slip issue 15 found, planted back into a copy of the catalogue module."""
    rel = "spec/hanafuda_spec/games/kujuroku.py"
    text = (ROOT / rel).read_text(encoding="utf-8")
    known = known_ids(all_specs())
    assert unknown_ids([(rel, text)], known) == []
    planted = "KJ-" + "JIZO-" + "6"
    copy = text.replace("KJ-SCORE-1 / KJ-JIZO-5", f"KJ-SCORE-1 / {planted}", 1)
    assert copy != text
    found = unknown_ids([(rel, copy)], known)
    assert len(found) == 1 and found[0].startswith(rel + ":") and found[0].endswith(planted)
