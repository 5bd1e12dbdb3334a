"""The rulebooks (issues 8 and 16): a fresh Sphinx build with warnings as errors; each book opens
with How to play, every sentence linked to its rules; the example round, replayed from a record
checked at every build (a rules change that changes it fails the build); every rule id with its
citation and evidence badge and every yaku with its card pictures in the rendered HTML; the worked
examples as doctests; the bibliography. The browser checks are in test_rulebook_browser.py."""

from __future__ import annotations

import doctest
import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from hanafuda.cli import build_parser
from hanafuda.rulebook.bib import bib_keys, render_bib
from hanafuda.rulebook.build import build, docs_dir
from hanafuda.rulebook.example import EXAMPLES, ExampleError, load_checked, make_record
from hanafuda.rulebook.learn import EVIDENCE_BADGES
from hanafuda.rulebook.pages import GENERIC_INVARIANTS, rule_label, rule_tests, write_site, yaku_label
from hanafuda.rulebook.pictures import card_svg, drawn_svg, picture_name
from hanafuda.rulebook.yakuview import game_yaku
from hanafuda_spec.cards import DAINI_JIZO, HANAFUDA
from hanafuda_spec.games import all_specs, spec_for
from hanafuda_spec.games.howto import HOWTO
from hanafuda_spec.sources import SOURCES

DOCS = docs_dir()
BOOK_PAGES = ("index", "howto", "example", "gallery", "quickref", "rules", "decisions", "status")


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
        for page in BOOK_PAGES:
            assert (site / "gen" / s.key / f"{page}.html").is_file(), f"{s.key}/{page} missing"
    for page in ("spec/invariants", "spec/shuffle", "spec/proofs", "cli", "api/index"):
        assert (site / "gen" / f"{page}.html").is_file(), page


def test_every_rule_id_appears_with_its_citation(site: Path) -> None:
    for s in all_specs():
        html = (site / "gen" / s.key / "rules.html").read_text(encoding="utf-8")
        for r in s.rules:
            block = _block(html, rule_label(r.id))
            assert f"<strong>{r.id}</strong>" in block, r.id
            badge = EVIDENCE_BADGES[r.evidence][0]
            assert f'<span class="badge ev-{badge}">{badge}</span>' in block, f"{r.id}: no evidence badge"
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
    """Each yaku of the default rules is drawn with its cards in the yaku gallery (the rules page's
    yaku table links there); a row that only some option has is a line of the gallery's one table of
    variants (issue 28: the cards are not drawn again for each variant), which says how its cards
    differ from the default's."""
    shown = 0
    for s in all_specs():
        rules = (site / "gen" / s.key / "rules.html").read_text(encoding="utf-8")
        html = (site / "gen" / s.key / "gallery.html").read_text(encoding="utf-8")
        views = game_yaku(s.key)
        defaults = {y.id for y in views if not y.option}
        for y in views:
            if not (y.option and y.id in defaults):
                assert f'href="gallery.html#{yaku_label(s.key, y.label)}"' in rules, (s.key, y.label)
            if y.option and y.id in defaults:
                assert f'id="{yaku_label(s.key, y.label)}"' in html, y.label
                assert y.option.replace(" ", '</span> <span class="pre">') in html, (s.key, y.label)
                continue
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
            html = (site / "gen" / s.key / "rules.html").read_text(encoding="utf-8")
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
    """Every picture is SVG; ours (the Daini deck, the stand-ins) are titled with the card's name;
    no face carries a number in digits (no point value, issue 28)."""
    svg = "{http://www.w3.org/2000/svg}"
    for c in (*HANAFUDA.cards, *DAINI_JIZO.cards):
        for text in (card_svg(c), drawn_svg(c)):
            root = ET.fromstring(text)
            assert root.tag == f"{svg}svg"
            assert not [t.text for t in root.iter(f"{svg}text") if t.text and re.search(r"\d", t.text)], c
        title = ET.fromstring(drawn_svg(c)).find(f"{svg}title")
        assert title is not None and title.text is not None and c.name_en in title.text


def test_the_hanafuda_faces_are_the_credited_published_deck() -> None:
    """The 48 faces are the files listed in docs/cards/CREDITS (author, licence, origin of each),
    and the pictures of the books are those files, unchanged."""
    credits = (DOCS / "cards" / "CREDITS").read_text(encoding="utf-8")
    assert "Louie Mantia, Jr." in credits and "CC BY-SA 4.0" in credits
    assert "https://creativecommons.org/licenses/by-sa/4.0/" in credits
    for c in HANAFUDA.cards:
        face = DOCS / "cards" / picture_name(c)
        assert re.search(rf"^hf-{c.id} +Hanafuda_[A-Z][a-z]+_[A-Za-z]+(_\d)?\.svg ", credits, re.M), c.id
        assert card_svg(c) == face.read_text(encoding="utf-8")
        assert (DOCS / "cards" / "thumbs" / f"hf-{c.id}.webp").read_bytes()[8:12] == b"WEBP"
    page = (DOCS / "card-pictures.md").read_text(encoding="utf-8")
    assert "CC BY-SA 4.0" in page and "Louie Mantia, Jr." in page and "commons.wikimedia.org" in page


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


def test_labels_are_the_ids_docutils_gives() -> None:
    from docutils.nodes import make_id as docutils_make_id

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


# -- learning from the books (issue 16) ---------------------------------------------------------


def test_each_rulebook_opens_with_how_to_play(site: Path) -> None:
    for s in all_specs():
        index = (site / "gen" / s.key / "index.html").read_text(encoding="utf-8")
        body = index[index.index('<div class="toctree-wrapper compound">'):]
        toc = re.findall(r'<li class="toctree-l1"><a class="reference internal" href="([^"#]+)"', body)
        assert toc and toc[0] == "howto.html", f"{s.key}: the book opens with {toc[:1]}"
        assert toc[1] == "example.html", s.key
        howto = (site / "gen" / s.key / "howto.html").read_text(encoding="utf-8")
        assert f"<h1>How to play {s.name}" in howto
        for sec in HOWTO[s.key].sections:
            assert f"{sec.title}<a" in howto, f"{s.key}: section {sec.title!r} missing"
            for line in sec.lines:
                links = re.findall(r'href="rules\.html#([^"]+)"', _sentence(howto, line.text))
                assert links == [rule_label(r) for r in line.rules], f"{s.key}: {line.text!r}"
        pictures = re.findall(r'<img alt="\d+ [^"]*" src="[^"]*/(?:hf|daini)-\d+\.svg"', howto)
        assert len(pictures) >= 40, f"{s.key}: How to play shows {len(pictures)} card pictures"


def _sentence(html: str, text: str) -> str:
    """The paragraph of How to play that holds a sentence (its first words locate it)."""
    start = " ".join(text.split()[:8]).replace("'", "\u2019")
    i = html.find(start)
    assert i >= 0, f"sentence not found: {text!r}"
    return html[i:html.index("</p>", i)]


def test_how_to_play_names_only_rules_of_its_game() -> None:
    assert set(HOWTO) == {s.key for s in all_specs()}
    for key, h in HOWTO.items():
        spec = spec_for(key)
        assert h.sections[0].title == "The object of the game"
        unknown = [r for r in h.rule_ids() if not spec.has_rule(r)]
        assert not unknown, f"{key}: unknown rule ids {unknown}"
        assert {s.show for s in h.sections} >= {"deck", "yaku", "example"}, key


def test_example_records_validate_and_show_the_special_cards() -> None:
    special = {"kujuroku": {0, 1}, "kusurigui": {110, 111, 112, 113}, "musashino": {10, 30, 80, 110, 120}}
    for key, ex in EXAMPLES.items():
        doc = load_checked(key)
        assert doc is not None
        assert doc == json.loads(json.dumps(make_record(ex))), f"{key}: the committed record is not the seed's"
        start = sum(r["actions"] for r in doc["result"]["rounds"][:ex.deal - 1])
        n = doc["result"]["rounds"][ex.deal - 1]["actions"]
        moved = {int(c) for a in doc["actions"][start:start + n] for c in a["action"].split()[1:] if c.isdigit()}
        assert special.get(key, set()) & moved or key not in special, f"{key}: no special card is played"
    reasons = {k: load_checked(k)["result"]["rounds"][0]["reason"] for k in EXAMPLES}  # type: ignore[index]
    assert reasons["kekoro"] == "instant-victory"
    assert reasons["koikoi"] == "shobu"


def test_musashino_example_shows_the_storm_and_the_sun() -> None:
    """Issue 28: Musashino-Bana's example round shows the Storm (a Storm card in one pile takes a
    dekiyaku away from another player) and the Sun (the Crane, taken after a Storm card, gives a
    player back what that card's Storm would have taken), and tells both in words."""
    import dataclasses

    from hanafuda.registry import game
    from hanafuda.rulebook.example import replay_deal
    from hanafuda.rulebook.learn import example_page

    ex = EXAMPLES["musashino"]
    doc = load_checked("musashino")
    assert doc is not None and ex.options.get("storm") == "cards"
    view = replay_deal(doc, ex)
    g: Any = game("musashino")

    def dekiyaku(**change: str) -> list[set[str]]:
        rules = g.rules(ex.ruleset, {**ex.options, **change})
        state = dataclasses.replace(view.end_state, rules=rules)
        return [{y.id for y in g.side_dekiyaku(state, side)} for side in range(rules.sides)]

    now, no_sun, calm = dekiyaku(), dekiyaku(sun="off"), dekiyaku(storm="off", sun="off")
    assert any(calm[i] - now[i] for i in range(len(now))), "the Storm takes no dekiyaku away"
    assert any(now[i] - no_sun[i] for i in range(len(now))), "the Sun gives no dekiyaku back"
    assert [sorted(y.id for y in side) for side in view.result.yaku] == [sorted(x) for x in now]
    page = example_page(next(s for s in all_specs() if s.key == "musashino"), doc)
    assert "is a Storm card" in page and "The Sun: the Crane is taken after" in page
    assert re.search(r"The Storm: seat \d's pile holds .* so seat \d loses", page)
    assert re.search(r"The Sun: without it, the Storm would also have taken .* keeps", page)


def test_a_tampered_example_record_fails_the_build(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(DOCS, docs, ignore=shutil.ignore_patterns("_build", "gen"))
    path = docs / "examples" / "records" / "koikoi.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["result"]["rounds"][0]["deltas"][0] += 1
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ExampleError, match=r"koikoi\.json: the example record does not validate"):
        load_checked("koikoi", path.parent)
    assert build(tmp_path / "out", docs=docs) == 1
    assert not (tmp_path / "out").exists()


def test_a_rules_change_that_changes_the_example_fails_the_build(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The koi-koi doubling (KK-SCORE-1) switched off in the engine: the example's settlement no
    longer replays, and writing the site (what every build does first) stops with the reason."""
    import dataclasses

    from hanafuda.games import koikoi

    real = koikoi.KoiKoi.round_result

    def no_doubling(self: koikoi.KoiKoi, state: koikoi.KoiKoiState) -> object:
        r = real(self, state)
        return dataclasses.replace(r, deltas=tuple(d // 2 for d in r.deltas))

    monkeypatch.setattr(koikoi.KoiKoi, "round_result", no_doubling)
    docs = tmp_path / "docs"
    shutil.copytree(DOCS, docs, ignore=shutil.ignore_patterns("_build", "gen"))
    with pytest.raises(ExampleError, match="REC-RESULT-1"):
        write_site(docs)


def test_example_page_shows_the_deal_the_turns_and_the_settlement(site: Path) -> None:
    for key, ex in EXAMPLES.items():
        html = (site / "gen" / key / "example.html").read_text(encoding="utf-8")
        for heading in ("The deal", "The play", "The end of the round", "The settlement"):
            assert f"{heading}<a" in html, f"{key}: {heading}"
        turns = html.count('class="turn docutils container"')
        doc = load_checked(key)
        assert doc is not None
        assert turns >= 5, f"{key}: {turns} turns shown"
        assert html.count("<img") >= 30, key
        assert f"seed {ex.seed}" in html


def test_gallery_shows_every_yaku_and_quick_reference_every_default_one(site: Path) -> None:
    for s in all_specs():
        gallery = (site / "gen" / s.key / "gallery.html").read_text(encoding="utf-8")
        quick = (site / "gen" / s.key / "quickref.html").read_text(encoding="utf-8")
        for y in game_yaku(s.key):
            assert y.name.replace("'", "\u2019") in gallery, y.name
            if not y.option:
                assert y.name.split()[0] in quick, y.name


def test_decision_pages_are_titled_by_their_question(site: Path) -> None:
    for s in all_specs():
        html = (site / "gen" / s.key / "decisions.html").read_text(encoding="utf-8")
        for g in s.gaps:
            m = re.search(rf'<section id="{rule_label(g.id)}">\s*(?:<span id="[^"]*"></span>)?<h2>(.*?)<a', html, re.S)
            assert m is not None, g.id
            def words(t: str) -> list[str]:
                return re.sub(r"[^\w ]", "", t).split()[:2]

            assert words(_text(m.group(1))) == words(g.question), g.id
            assert f"Decision {g.id}" in html


def test_sources_page_says_what_every_tag_is(site: Path) -> None:
    html = _text((site / "references.html").read_text(encoding="utf-8"))
    for key, src in SOURCES.items():
        assert key in html and src.title.split()[0] in html, key


def test_score_prints_display_names_for_every_game() -> None:
    import subprocess
    import sys

    cases = {"kujuroku": ("40", "41", "42", "43"), "kusurigui": ("70", "100"), "musashino": ("90", "120"),
             "kekoro": ("20", "40", "120"), "koikoi": ("10", "30", "80")}
    for key, cards in cases.items():
        out = subprocess.run([sys.executable, "-m", "hanafuda", "score", key, *cards], capture_output=True,
                             text=True, check=True).stdout
        first = out.splitlines()[1].strip()
        assert first[0].isupper() and "-" not in first.split("  ")[0], f"{key}: {first!r}"


def test_how_to_play_has_every_option_as_a_house_rule(site: Path) -> None:
    """Issue 28: each How to play ends with "Variants (house rules)": every option of the catalogue
    in words, its standard value, its source (or our own addition) and the decision behind it, the
    option's name only in a footnote for implementers."""
    for s in all_specs():
        html = (site / "gen" / s.key / "howto.html").read_text(encoding="utf-8")
        assert f'id="{s.key}-house-rules"' in html and "Variants (house rules)" in html, s.key
        for o in s.options:
            label = f"variant-{s.key}-{o.key}".replace("_", "-")
            m = re.search(rf'<details class="details" id="{label}">(.*?)</details>', html, re.S)
            assert m is not None, (s.key, o.key)
            body = _text(m.group(1))
            assert o.key.replace("_", " ").capitalize() in body, (s.key, o.key)
            assert "Source:" in body and o.citation.source in body, (s.key, o.key)
            for v in o.ours:
                assert "our own addition" in body and str(v).replace("-", " ") in body, (s.key, o.key, v)
            for g in s.gaps:
                if o.key in g.options:
                    assert f'href="decisions.html#{rule_label(g.id)}"' in m.group(1), (s.key, o.key, g.id)
            note = re.search(rf'id="opt-{label}".*?</(?:aside|div)>', html, re.S)
            assert note is not None and f'<span class="pre">{o.key}</span>' in note.group(0), (s.key, o.key)


def test_house_rules_are_generated_from_the_option_specs() -> None:
    """The Variants section is written from the catalogue's OptionSpecs, not by hand: an option added
    to a catalogue appears, in words, with its source and our own values."""
    import dataclasses
    import enum

    from hanafuda.rulebook.learn import in_words, variants_section
    from hanafuda_spec.catalogue import Citation, OptionSpec

    class MoonBonus(enum.StrEnum):
        OFF = "off"
        DOUBLE_MOON = "double-moon"

    spec = next(s for s in all_specs() if s.key == "kekoro")
    extra = OptionSpec("moon_bonus", MoonBonus, MoonBonus.OFF, "The Moon scores twice with moon_bonus=double-moon.",
                       Citation("SEED-004", "Yaku"), ours=("double-moon",))
    text = "\n".join(variants_section(dataclasses.replace(spec, options=(*spec.options, extra)), 9))
    assert "## 9. Variants (house rules)" in text
    assert ":::{details} Moon bonus: **off**" in text
    assert "moon bonus “double moon”" in text and "moon_bonus=double" not in text.split("[^opt-")[0]
    assert "“double moon” is our own addition" in text
    assert "[^opt-variant-kekoro-moon-bonus]: For implementers: the option `moon_bonus`" in text
    assert in_words("with payment_cap=none only") == "with payment cap “none” only"
