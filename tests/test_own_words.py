"""The catalogue is written in our own words: no run of ten words from a source document appears in a
rule, gap or option text (a short quoted phrase as evidence stays well under that). Skipped when the
source documents are not beside the checkout (``../shared/sources``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hanafuda_spec.games import all_specs

SOURCES = Path(__file__).parents[2] / "shared" / "sources"
RUN = 10


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("'", " ").replace('"', " ")).strip().lower()


def _texts() -> Iterator[tuple[str, str]]:
    for s in all_specs():
        for r in s.rules:
            yield r.id, r.text
            if r.decided:
                yield f"{r.id} (decided)", r.decided
        for g in s.gaps:
            yield g.id, " ".join((g.question, g.sources_say, g.decision, g.reason))
        for o in s.options:
            yield f"{s.key} option {o.key}", o.text


@pytest.mark.skipif(not SOURCES.is_dir(), reason="source documents not available")
def test_no_sentence_is_copied_from_the_sources() -> None:
    corpus = _norm(" ".join(p.read_text(encoding="utf-8") for p in sorted(SOURCES.rglob("*")) if p.is_file()))
    copied = []
    for where, text in _texts():
        words = _norm(text).split()
        for i in range(len(words) - RUN + 1):
            chunk = " ".join(words[i:i + RUN])
            if chunk in corpus:
                copied.append(f"{where}: {chunk!r}")
                break
    assert not copied, copied
