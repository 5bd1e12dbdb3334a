"""The rulebooks (issue 8): a fresh Sphinx build with warnings as errors, every rule id with its
citation and every yaku with its card pictures in the rendered HTML, the worked examples as
doctests, the bibliography, and a real browser's screenshot showing the card pictures."""

from __future__ import annotations

import doctest
import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hanafuda.cli import build_parser
from hanafuda.rulebook.bib import bib_keys, render_bib
from hanafuda.rulebook.build import build, docs_dir
from hanafuda.rulebook.pages import GENERIC_INVARIANTS, rule_label, rule_tests, yaku_label
from hanafuda.rulebook.pictures import card_svg, picture_name
from hanafuda.rulebook.screenshot import chromium, colours_found, screenshot
from hanafuda.rulebook.yakuview import game_yaku
from hanafuda_spec.cards import DAINI_JIZO, HANAFUDA
from hanafuda_spec.games import all_specs
from hanafuda_spec.sources import SOURCES

DOCS = docs_dir()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One fresh build of the whole site with -W -n (warnings are errors, nitpicky references)."""
    out = tmp_path_factory.mktemp("rulebook") / "html"
    assert build(out) == 0, "the rulebook build failed: see the warnings above"
    return out


def _block(html: str, element_id: str) -> str:
    """The inside of the container with this id (containers of rules and yaku do not nest)."""
    m = re.search(rf'<div class="[^"]*container" id="{re.escape(element_id)}">(.*?)</div>', html, re.S)
    assert m is not None, f"no element with id {element_id!r}"
    return m.group(1)


def _text(fragment: str) -> str:
    return re.sub(r"<[^>]+>", "", fragment).replace("&quot;", '"').replace("&amp;", "&")


def test_fresh_build_with_warnings_as_errors_passes(site: Path) -> None:
    assert (site / "index.html").is_file()
    for s in all_specs():
        for page in ("index", "decisions", "status"):
            assert (site / "gen" / s.key / f"{page}.html").is_file(), f"{s.key}/{page} missing"
    for page in ("spec/invariants", "spec/shuffle", "spec/proofs", "cli", "api/index"):
        assert (site / "gen" / f"{page}.html").is_file(), page


def test_every_rule_id_appears_with_its_citation(site: Path) -> None:
    for s in all_specs():
        html = (site / "gen" / s.key / "index.html").read_text(encoding="utf-8")
        for r in s.rules:
            block = _block(html, rule_label(r.id))
            assert f"<strong>{r.id}</strong>" in block, r.id
            text = _text(block)
            assert r.text.split()[0] in text
            for c in r.citations:
                link = re.search(rf'<a class="reference internal" href="[^"]*references\.html#[^"]+"[^>]*>'
                                 rf"{re.escape(c.source)}</a>", block)
                assert link is not None, f"{r.id}: no link to the bibliography entry {c.source}"
                assert f"§{c.section}" in text, f"{r.id}: section {c.section!r} of {c.source} not shown"


def test_every_gap_has_its_decision_on_the_sources_page(site: Path) -> None:
    for s in all_specs():
        html = (site / "gen" / s.key / "decisions.html").read_text(encoding="utf-8")
        assert 'id="' + f"{s.key}-z3-gaps" + '"' in html
        for g in s.gaps:
            assert f'id="{rule_label(g.id)}"' in html, g.id
        for o in {o for g in s.gaps for o in g.options}:
            assert f"<code class=\"docutils literal notranslate\"><span class=\"pre\">{o}</span></code>" in html


def test_every_yaku_is_shown_with_its_card_pictures(site: Path) -> None:
    shown = 0
    for s in all_specs():
        html = (site / "gen" / s.key / "index.html").read_text(encoding="utf-8")
        for y in game_yaku(s.key):
            block = _block(html, yaku_label(s.key, y.label))
            pictures = re.findall(r'<img alt="(\d+) [^"]*" src="[^"]*/((?:hf|daini)-\d+\.svg)"', block)
            assert y.cards, f"{s.key} {y.label}: no cards"
            assert sorted(int(a) for a, _ in pictures) == sorted(y.cards), f"{s.key} {y.label}"
            assert all(src == f"{src.split('-')[0]}-{a}.svg" for a, src in pictures)
            shown += 1
    assert shown > 0


def test_card_value_and_chip_tables_are_generated(site: Path) -> None:
    import importlib

    for s in all_specs():
        mod = importlib.import_module(f"hanafuda_spec.games.{s.key}")
        if hasattr(mod, "CARD_VALUES") or hasattr(mod, "CHIP_TABLE"):
            html = (site / "gen" / s.key / "index.html").read_text(encoding="utf-8")
            assert f'id="{s.key}-value-tables"' in html, s.key
            for scale in getattr(mod, "CARD_VALUES", {}):
                assert "Card values (<code" in html and f"={scale}</span>" in html


def test_card_pictures_are_copied_into_the_site(site: Path) -> None:
    images = {p.name for p in (site / "_images").glob("*.svg")}
    assert {picture_name(c) for c in HANAFUDA.cards} <= images


def test_bibliography_lists_every_source_and_is_up_to_date() -> None:
    text = (DOCS / "references.bib").read_text(encoding="utf-8")
    assert text == render_bib(), "docs/references.bib is stale: python -m hanafuda.rulebook.bib docs/references.bib"
    for key in bib_keys():
        assert f"@misc{{{key}," in text
    used = {c.source for s in all_specs() for r in s.rules for c in r.citations}
    assert used <= set(SOURCES), f"citations of unknown sources: {used - set(SOURCES)}"


def test_unknown_citation_key_fails_the_build(tmp_path: Path) -> None:
    """The real configuration (docs/conf.py) on a two-page project that cites a key nobody defined."""
    proj = tmp_path / "docs"
    proj.mkdir()
    shutil.copy(DOCS / "references.bib", proj / "references.bib")
    (proj / "_static").mkdir()
    (proj / "conf.py").write_text(
        f"exec(compile(open({str(DOCS / 'conf.py')!r}).read(), {str(DOCS / 'conf.py')!r}, 'exec'))\n"
        "exclude_patterns += ['gen']\nhtml_css_files = []\n", encoding="utf-8")
    (proj / "index.md").write_text("# T\n\nA rule {cite:p}`FW-KK` and {cite:p}`NO-SUCH-SOURCE`.\n\n"
                                   "```{toctree}\nreferences\n```\n", encoding="utf-8")
    (proj / "references.md").write_text("# R\n\n```{bibliography}\n```\n", encoding="utf-8")
    assert build(tmp_path / "out", docs=proj, jobs="1") != 0
    (proj / "index.md").write_text("# T\n\nA rule {cite:p}`FW-KK`.\n\n```{toctree}\nreferences\n```\n",
                                   encoding="utf-8")
    assert build(tmp_path / "out2", docs=proj, jobs="1") == 0


def test_worked_examples_run_as_doctests() -> None:
    pages = sorted(p for p in (DOCS / "examples").glob("*.md") if p.stem != "index")
    assert any(p.stem == "koikoi" for p in pages)
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for page in pages:
        blocks = re.findall(r"```\{doctest\}\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
        assert blocks, page
        globs: dict[str, object] = {}
        for i, block in enumerate(blocks):
            test = parser.get_doctest(block, globs, f"{page.name}[{i}]", str(page), 0)
            runner.run(test, clear_globs=False)
            globs = test.globs
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted > 20


def test_card_pictures_are_well_formed_svg() -> None:
    for c in (*HANAFUDA.cards, *DAINI_JIZO.cards):
        root = ET.fromstring(card_svg(c))
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        title = root.find("{http://www.w3.org/2000/svg}title")
        assert title is not None and title.text is not None and c.name_en in title.text


def test_generic_invariants_are_all_described() -> None:
    from hanafuda_spec.games import profile_for
    from hanafuda_spec.invariants import GENERIC

    assert [n for n, _ in GENERIC(profile_for("koikoi"))] == list(GENERIC_INVARIANTS)


def test_tests_are_found_by_rule_id(tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text("def test_KK_YAKU_2_to_4_brights() -> None:\n    pass\n"
                                        "def test_KK_YAKU_12_13_viewing():\n    pass\n")
    found = rule_tests(tmp_path)
    assert sorted(found) == ["KK-YAKU-12", "KK-YAKU-13", "KK-YAKU-2", "KK-YAKU-3", "KK-YAKU-4"]


def test_rulebook_command_is_registered() -> None:
    help_text = build_parser().format_help()
    assert "rulebook" in help_text


@pytest.mark.skipif(chromium() is None, reason="chromium is not installed")
def test_headless_chromium_shows_the_card_pictures(site: Path, tmp_path: Path) -> None:
    png = screenshot(site / "gen" / "koikoi" / "index.html", tmp_path / "koikoi.png")
    found = colours_found(png)
    assert len(found) == 12, f"plant colours of the card pictures seen in the screenshot: {found}"


def test_labels_are_the_ids_docutils_gives() -> None:
    from docutils.nodes import make_id as docutils_make_id  # type: ignore[import-untyped]

    for s in all_specs():
        for rid in [r.id for r in s.rules] + [g.id for g in s.gaps]:
            assert rule_label(rid) == docutils_make_id(rid)
        for y in game_yaku(s.key):
            assert yaku_label(s.key, y.label) == docutils_make_id(f"yaku-{s.key}-{y.label}")


def test_verification_report_cases_appear_as_z3_found_gaps(tmp_path: Path) -> None:
    from hanafuda.rulebook.pages import decisions_page, read_report, status_page
    from hanafuda_spec.games import spec_for

    report = tmp_path / "verify.json"
    report.write_text(json.dumps({"ok": False, "checks": [
        {"game": "koikoi", "check": "proof: deal sizes", "kind": "proof", "examples": 0, "seconds": 0.2,
         "ok": False, "detail": "open cases", "cases": [{"text": "three matches", "gap": "KK-4"},
                                                       {"text": "a case nobody decided", "gap": None}]}]}))
    checks = read_report(report)
    spec = spec_for("koikoi")
    page = decisions_page(spec, checks)
    assert "three matches | {ref}`KK-4 <kk-4>`" in page
    assert "a case nobody decided | **open: no recorded decision**" in page
    assert "0 of 1 checks passed" in status_page(spec, {}, checks)
    assert "without a verification report" in decisions_page(spec, None)
