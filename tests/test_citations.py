"""Every citation says what its source says.

For each citation of a source kept as a document beside the project
(:data:`hanafuda_spec.sources.DOCUMENTS`, in ``../shared/sources``): its section is a heading of that
document (or ``introduction``, the text before the first heading) and its quoted phrase is found
inside that section. Sources that are not such documents (books, blogs, an engine's code, our own
notes) are skipped. Skipped as a whole when the source documents are not beside the checkout, as the
own-words test is.

A rule labelled "stated in the seed" that names a gap must not rest on that gap's decision: either the
gap takes the seed as written (``Gap.literal``) or the rule keeps what we decided apart, in
``Rule.decided``. That check needs no documents and always runs.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path

import pytest
from hanafuda_spec.catalogue import Citation, Evidence, GameSpec, Rule
from hanafuda_spec.games import all_specs
from hanafuda_spec.sources import DOCUMENTS, UNSECTIONED

SOURCES = Path(__file__).parents[2] / "shared" / "sources"
INTRODUCTION = "introduction"
needs_sources = pytest.mark.skipif(not SOURCES.is_dir(), reason="source documents not available")


def norm(text: str) -> str:
    """Text as read: markup dropped (pictures keep their alt text, links their words), quotes and
    dashes plain, whitespace collapsed, case folded."""
    text = re.sub(r"!\[([^\]]*)\]\([^)]*\)", r" \1 ", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<br\s*/?>|\{\.[a-z-]+\}", " ", text)
    for a, b in (("\u2018", "'"), ("\u2019", "'"), ("\u201c", '"'), ("\u201d", '"'), ("\u2013", "-"),
                 ("\u2014", "-"), ("\u00a0", " ")):
        text = text.replace(a, b)
    text = re.sub(r"[*_`>|]", " ", text)
    return re.sub(r"\s+", " ", text).strip().casefold()


def heading(text: str) -> str:
    """A heading as cited: normalised, without quotation marks or a closing full stop."""
    return norm(text).replace('"', "").strip(" .:")


def sections(text: str) -> dict[str, str]:
    """A markdown document's sections by heading: each runs to the next heading of its level or
    above (so it holds its subsections); ``introduction`` is the text before the first heading. Two
    headings of the same name (FW-KK's two "Calling Koi-Koi") make one section of both."""
    if text.startswith("---") and "\n---" in text:  # the page's front matter
        text = text.split("\n---", 1)[1]
    lines = text.splitlines()
    heads = [(i, len(m.group(1)), heading(m.group(2))) for i, line in enumerate(lines)
             if (m := re.match(r"(#+)\s+(.*)", line))]
    out = {INTRODUCTION: "\n".join(lines[:heads[0][0] if heads else len(lines)])}
    for k, (i, level, name) in enumerate(heads):
        end = next((j for j, lv, _ in heads[k + 1:] if lv <= level), len(lines))
        out[name] = "\n".join((*([out[name]] if name in out else []), *lines[i:end]))
    return out


@cache
def document(root: Path, key: str) -> Mapping[str, str]:
    """The normalised sections of one source document (for UNSECTIONED ones, the whole text under
    every name)."""
    text = (root / DOCUMENTS[key]).read_text(encoding="utf-8")
    return {k: norm(v) for k, v in sections(text).items()}


def citations(spec: GameSpec) -> Iterator[tuple[str, Citation]]:
    for r in spec.rules:
        for c in r.citations:
            yield r.id, c
    for o in spec.options:
        yield f"{spec.key} option {o.key}", o.citation
    for rs in spec.rulesets:
        yield f"{spec.key} ruleset {rs.name}", rs.citation


def citation_problems(specs: Iterable[GameSpec], root: Path) -> list[str]:
    """Each citation of a kept document whose section is not a heading of it, or whose quote is not in
    that section."""
    out = []
    for spec in specs:
        for where, c in citations(spec):
            if c.source not in DOCUMENTS:
                continue  # not a document we keep: a book, a blog, an engine's code, our notes
            secs = document(root, c.source)
            if c.source in UNSECTIONED:
                body = " ".join(secs.values())
            elif heading(c.section) in secs:
                body = secs[heading(c.section)]
            else:
                out.append(f"{where}: {c.source} has no section {c.section!r}")
                continue
            if c.quote and norm(c.quote) not in body:
                out.append(f"{where}: {c.quote!r} is not in {c.source} §{c.section}")
    return out


def label_problems(specs: Iterable[GameSpec]) -> list[str]:
    """Each rule labelled as stated in the seed whose text rests on a gap's decision: it names a gap
    that does more than take the seed as written, and keeps no decided part apart."""
    out = []
    for spec in specs:
        gaps = {g.id: g for g in spec.gaps}
        for r in spec.rules:
            if r.evidence is Evidence.SEED and r.gap is not None and not gaps[r.gap].literal and not r.decided:
                out.append(f"{r.id}: labelled {r.evidence.value!r} but rests on decision {r.gap}")
    return out


# -- the catalogue -----------------------------------------------------------------------------------

@needs_sources
def test_every_quoted_phrase_is_in_its_cited_section() -> None:
    assert citation_problems(all_specs(), SOURCES) == []


@needs_sources
def test_every_kept_document_is_there() -> None:
    missing = [k for k, rel in DOCUMENTS.items() if not (SOURCES / rel).is_file()]
    assert missing == []


def test_no_seed_label_covers_a_decision() -> None:
    assert label_problems(all_specs()) == []


def test_a_decided_part_is_shown_apart_from_what_the_seed_states() -> None:
    split = [r for s in all_specs() for r in s.rules if r.decided]
    assert split and all(r.gap is not None and r.evidence is not Evidence.DECISION for r in split)


# -- the checks catch what they are for ------------------------------------------------------------

def _planted(spec: GameSpec, rule_id: str, *, citations: tuple[Citation, ...] | None = None,
             decided: str | None = None) -> GameSpec:
    """A copy of ``spec`` with one rule changed: other citations, or another decided part."""
    def change(r: Rule) -> Rule:
        if r.id != rule_id:
            return r
        return dataclasses.replace(r, citations=r.citations if citations is None else citations,
                                   decided=r.decided if decided is None else decided)
    return dataclasses.replace(spec, rules=tuple(change(r) for r in spec.rules))


def _spec(key: str) -> GameSpec:
    return next(s for s in all_specs() if s.key == key)


@needs_sources
def test_a_planted_wrong_quote_is_found() -> None:
    mb = _spec("musashino")
    rule = mb.rule("MB-GAME-1")
    c = rule.citations[0]
    assert citation_problems([mb], SOURCES) == []
    # a phrase of the same page, but of another section than the one cited
    wrong = dataclasses.replace(c, quote="The loser(s) must pay the winner 8 points")
    assert citation_problems([_planted(mb, "MB-GAME-1", citations=(wrong,))], SOURCES) == [
        f"MB-GAME-1: {wrong.quote!r} is not in SEED-003 §{c.section}"]
    moved = dataclasses.replace(c, section="Scoring")
    assert citation_problems([_planted(mb, "MB-GAME-1", citations=(moved,))], SOURCES) == [
        f"MB-GAME-1: {c.quote!r} is not in SEED-003 §Scoring"]
    nowhere = dataclasses.replace(c, section="intro")
    assert citation_problems([_planted(mb, "MB-GAME-1", citations=(nowhere,))], SOURCES) == [
        "MB-GAME-1: SEED-003 has no section 'intro'"]


@needs_sources
def test_sources_that_are_not_kept_documents_are_skipped() -> None:
    kj = _spec("kujuroku")
    engine = Citation("ENGINE-SOMEONE", "src/game.py:score", "def score")
    assert citation_problems([_planted(kj, "KJ-EQ-1", citations=(engine,))], SOURCES) == []


def test_a_planted_seed_label_on_a_decision_is_found() -> None:
    kj = _spec("kujuroku")
    r = kj.rule("KJ-JIZO-2")
    assert r.decided and label_problems([kj]) == []
    assert label_problems([_planted(kj, "KJ-JIZO-2", decided="")]) == [
        "KJ-JIZO-2: labelled 'stated in the seed' but rests on decision KJ-27"]


def test_the_normalisation_reads_markup_as_text() -> None:
    assert norm("**Only the first 3 players** participate") == "only the first 3 players participate"
    assert norm("![Willow with Rain Man](/x/110.svg =50x)") == "willow with rain man"
    assert norm("dealer\u2019s  choice") == "dealer's choice"
    assert heading('Calling *"Koi-Koi"*') == "calling koi-koi"
    assert set(sections("---\ntitle: x\n---\nlead\n# A\na\n## B\nb\n# C\nc")) == {INTRODUCTION, "a", "b", "c"}
    assert sections("lead\n# A\na\n## B\nb\n# C\nc")["a"].splitlines() == ["# A", "a", "## B", "b"]


# -- what `hanafuda rules GAME` shows --------------------------------------------------------------

#: The rules an independent reading found labelled as stated in the seed while their content was a
#: decision (issue 15): each now shows what the seed states and what we decided apart.
SPLIT = {"kusurigui": ("KG-YAKU-14", "KG-PAY-1", "KG-YAKU-6", "KG-YAKU-1", "KG-DEAL-4"),
         "kujuroku": ("KJ-DEAL-4", "KJ-ONI-7", "KJ-END-1"),
         "musashino": ("MB-END-1", "MB-END-2", "MB-SCORE-1")}


@pytest.mark.parametrize("game", sorted(SPLIT))
def test_rules_command_shows_what_the_seed_states_and_what_we_decided(
        game: str, capsys: pytest.CaptureFixture[str]) -> None:
    from hanafuda.cli import main

    assert main(["rules", game]) == 0
    out = capsys.readouterr().out
    spec = _spec(game)
    for rid in SPLIT[game]:
        r = spec.rule(rid)
        assert r.evidence is Evidence.SEED and r.decided and r.gap, rid
        tail = out.split(f"\n  {rid}  [")[1].splitlines()[1:]
        block = " ".join(line.strip() for line in itertools.takewhile(lambda x: x.startswith("    "), tail))
        assert "the source states: " in block and f"we decided ({r.gap}): " in block, block
        stated = block.index("the source states: ")
        assert stated < block.index("we decided")
    assert main(["rules", game, "--json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)["rules"]}
    assert all(rows[rid]["decided"] == spec.rule(rid).decided for rid in SPLIT[game])
