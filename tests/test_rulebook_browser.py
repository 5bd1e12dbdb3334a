"""The rulebooks in a real browser (issue 16): headless Chromium, driven by Playwright, opens every
page of every game's book and fails on horizontal overflow, content sticking out of the text
column, a broken picture or link, or a page without card pictures where they belong. It prints
each quick reference to A4 (two sides at most). Planted faults show that each check can fail.
Skipped when Chromium is not installed (CI installs Debian's package)."""

from __future__ import annotations

import html as html_lib
import re
from pathlib import Path
from typing import Any

import pytest
from hanafuda.records import record_match
from hanafuda.registry import game
from hanafuda.rulebook.browser import all_pages, browser_page, check_pages, chromium, pdf_pages
from hanafuda.view import render_html, view_record
from hanafuda_spec.games import all_specs

pytestmark = pytest.mark.skipif(chromium() is None, reason="chromium is not installed")

#: The pages of a book that must show card pictures, and how small a picture may be drawn there
#: (the rules page links to the gallery's drawings and folds its value tables: no picture need show).
PICTURE_PAGES = ("howto", "example", "gallery", "quickref")
MIN_CARD_WIDTH = 60


def _book_pages(site: Path) -> list[str]:
    pages = [p for p in all_pages(site) if p.startswith("gen/") and p.count("/") == 2]
    pages += ["index.html", "gen/rulebooks.html", "references.html", "gen/spec/index.html"]
    return pages


@pytest.mark.parametrize("width", [1280, 800, 412])
def test_every_page_of_every_book_renders_cleanly(site: Path, width: int) -> None:
    pages = _book_pages(site)
    assert len(pages) >= 8 * len(all_specs())
    reports = check_pages(site, pages, width=width)
    problems = [p for r in reports for p in r.problems()]
    assert not problems, "\n".join(problems)
    by_page = {r.page: r for r in reports}
    for s in all_specs():
        for name in PICTURE_PAGES:
            r = by_page[f"gen/{s.key}/{name}.html"]
            assert r.card_pictures > 0, f"{r.page}: no card picture"
            assert r.smallest_card >= MIN_CARD_WIDTH, f"{r.page}: a card drawn {r.smallest_card}px wide"


def test_a_planted_overflow_fails(site: Path) -> None:
    wide = "document.querySelector('article').insertAdjacentHTML('beforeend', '<div style=\"width:2600px\">x</div>')"
    [r] = check_pages(site, ["gen/kujuroku/howto.html"], plant=wide)
    assert r.overflow > 0 and any("horizontal overflow" in p for p in r.problems())
    clipped = ("document.querySelector('article').insertAdjacentHTML('beforeend', '<div style=\"overflow:hidden\">"
               "<table><tr><td style=\"min-width:2000px\">cut</td></tr></table></div>')")
    [r] = check_pages(site, ["gen/kujuroku/howto.html"], plant=clipped)
    assert any("sticks out" in p for p in r.problems()), r.problems()


def test_a_planted_broken_picture_and_link_fail(site: Path) -> None:
    plant = ("document.images[0].src = 'no-such-card.svg';"
             "document.querySelector('article a.reference.internal').href = 'rules.html#no-such-rule';")
    [r] = check_pages(site, ["gen/koikoi/howto.html"], plant=plant)
    assert any("broken image" in p for p in r.problems()), r.problems()
    assert any("no anchor #no-such-rule" in p for p in r.problems()), r.problems()


def test_quick_reference_prints_on_two_a4_sides(site: Path, tmp_path: Path) -> None:
    for s in all_specs():
        sides = pdf_pages(site, f"gen/{s.key}/quickref.html", tmp_path / f"{s.key}.pdf")
        assert 1 <= sides <= 2, f"{s.key}: the quick reference prints on {sides} A4 sides"


@pytest.mark.parametrize("width", [1280, 412])
def test_a_view_page_steps_with_the_keys_and_shows_its_problem(tmp_path: Path, width: int) -> None:
    doc: dict[str, Any] = record_match(game("kujuroku"), None, {}, seed=3, policy_seed=3)
    doc["actions"][5] = "play 999"
    page_file = tmp_path / "view.html"
    page_file.write_text(render_html(view_record(doc)), encoding="utf-8")
    with browser_page(width) as page:
        page.goto(page_file.as_uri(), wait_until="load")
        banner = page.locator("#first-problem")
        assert banner.is_visible() and "[KJ-TURN-2]" in banner.inner_text()
        here = page.locator("#here .problem")  # the page opens at the problem, shown at its action
        assert here.is_visible() and "KJ-TURN-2" in here.inner_text()
        box = here.bounding_box()
        assert box is not None and 0 <= box["y"] < 900
        assert "action 5" in page.locator("#caption").inner_text()
        assert page.locator("#log li.current").get_attribute("data-a") == "5"
        start = page.locator("#step").inner_text()
        page.keyboard.press("ArrowRight")
        assert page.locator("#step").inner_text() != start and page.locator("#here .problem").count() == 0
        page.keyboard.press("ArrowLeft")
        assert page.locator("#step").inner_text() == start
        page.keyboard.press("Home")
        assert page.locator("#step").inner_text().startswith("step 1 of")
        cards = page.evaluate("Array.from(document.images).map(i => [i.naturalWidth, i.getBoundingClientRect().width])")
        assert cards and all(n > 0 and w >= MIN_CARD_WIDTH for n, w in cards)
        assert page.evaluate("document.documentElement.scrollWidth") <= width


#: The pages of the books a player reads (the rules, decisions and status pages are the reference).
PLAYER_PAGES = ("howto", "example", "gallery", "quickref", "index")
MAX_PLAYER_PAGE_HEIGHT = 15_000


def _player_pages() -> list[str]:
    return ([f"gen/{s.key}/{name}.html" for s in all_specs() for name in PLAYER_PAGES]
            + ["index.html", "glossary.html", "card-pictures.html", "gen/rulebooks.html"])


def test_player_pages_fit_a_phone(site: Path) -> None:
    """At 412 px wide: no player page taller than 15,000 px, no table wider than the window (a wide
    table scrolls inside its box), every card face loaded and at least 60 px wide."""
    reports = check_pages(site, _player_pages(), width=412)
    problems = [p for r in reports for p in r.problems()]
    assert not problems, "\n".join(problems)
    tall = [f"{r.page}: {r.height}px" for r in reports if r.height > MAX_PLAYER_PAGE_HEIGHT]
    assert not tall, tall
    [deck] = [r for r in reports if r.page == "gen/rulebooks.html"]  # both decks, every card
    assert deck.card_pictures >= 48 + 42 and deck.smallest_card >= MIN_CARD_WIDTH


#: Pages exempt from the height limit: the API reference of one module each (autodoc of its every
#: class and function, searched rather than read) and the hand-written implementers' guides.
TALL_ALLOWED = re.compile(r"^gen/api/(?!index\.html$)|^(validating|mutation|architecture|engines)\.html$")


def test_every_generated_page_fits_a_phone(site: Path) -> None:
    """At 412 px wide, every page the books generate (rules, decisions, options, status, the spec's
    pages, the command line; player pages too) is at most 15,000 px tall: long material is folded
    (one click away) or on a linked page of its own."""
    pages = [p for p in all_pages(site) if p.startswith("gen/") and not TALL_ALLOWED.search(p)]
    pages += [p for p in _player_pages() if p not in pages]
    assert len(pages) >= 10 * len(all_specs())
    reports = check_pages(site, pages, width=412)
    tall = [f"{r.page}: {r.height}px" for r in reports if r.height > MAX_PLAYER_PAGE_HEIGHT]
    assert not tall, tall
    assert {f"gen/{s.key}/{n}.html" for s in all_specs() for n in ("rules", "decisions", "options")} <= set(pages)


def test_a_link_into_a_folded_part_opens_it(site: Path) -> None:
    """A link to an id inside a closed ``details`` element opens it (the rules page's value tables,
    the decisions' reasons, the house rules are folded)."""
    spec = next(s for s in all_specs() if s.options)
    target = f"variant-{spec.key}-{spec.options[0].key}".replace("_", "-")
    with browser_page(412) as page:
        page.goto((site.resolve() / f"gen/{spec.key}/howto.html").as_uri() + "#" + target, wait_until="load")
        assert page.evaluate(f"document.getElementById('{target}').open") is True
        page.goto((site.resolve() / f"gen/{spec.key}/howto.html").as_uri(), wait_until="load")
        assert page.evaluate(f"document.getElementById('{target}').open") is False


@pytest.mark.parametrize("width", [1280, 412])
def test_example_pages_embed_the_view(site: Path, width: int) -> None:
    """Each example round embeds its record's ``hanafuda view`` page (the same player, inline: no
    other file, no network); it steps with the arrow keys inside the page, and is left out in print."""
    from hanafuda.rulebook.example import EXAMPLES

    for key in EXAMPLES:
        html = (site / "gen" / key / "example.html").read_text(encoding="utf-8")
        [frame_tag] = re.findall(r"<iframe[^>]*>", html)
        attrs = frame_tag.split("srcdoc=")[0]  # the page is its srcdoc: no src to load
        assert 'class="record-view"' in attrs and " src=" not in attrs and "srcdoc=" in frame_tag
        inner = html_lib.unescape(re.search(r'srcdoc="([^"]*)"', frame_tag)[1])  # type: ignore[index]
        assert "Content-Security-Policy" in inner and "://" not in inner.replace("http://www.w3.org/", "")
    with browser_page(width) as page:
        page.goto((site.resolve() / "gen/musashino/example.html").as_uri(), wait_until="load")
        box = page.locator("iframe.record-view")
        box.scroll_into_view_if_needed()
        assert box.is_visible() and (box.bounding_box() or {}).get("width", 0) > 300
        frame = page.frame_locator("iframe.record-view")
        assert frame.locator("#valid").is_visible()
        start = frame.locator("#step").inner_text()
        assert start.startswith("step 1 of")
        frame.locator("#next").click()
        page.keyboard.press("ArrowRight")
        assert frame.locator("#step").inner_text().startswith("step 3 of")
        cards = frame.locator("img").evaluate_all(
            "imgs => imgs.map(i => [i.naturalWidth, i.getBoundingClientRect().width])")
        assert cards and all(n > 0 and w >= MIN_CARD_WIDTH for n, w in cards)
        page.emulate_media(media="print")
        assert not box.is_visible()


def test_a_planted_tall_page_and_wide_table_are_seen(site: Path) -> None:
    plant = ("document.querySelector('article').insertAdjacentHTML('beforeend', "
             "'<div style=\"height:20000px\"></div><table style=\"width:900px\"><tr><td>x</td></tr></table>')")
    [r] = check_pages(site, ["gen/kekoro/howto.html"], width=412, plant=plant)
    assert r.height > MAX_PLAYER_PAGE_HEIGHT and r.wide_tables, r


#: Words a player page must not show: the program's internal words, seeds, card ids in prose,
#: option syntax (option names appear only in footnotes, for implementers).
FORBIDDEN = {
    "a seed": re.compile(r"\bseed \d+"),
    "a card id in prose": re.compile(r"\bcards? \d+\b"),
    "--option syntax": re.compile(r"--option|\b[a-z_]+=[a-z0-9+-]+\b"),
    "an internal word": re.compile(r"\b(card-points|oni-captive|remaining-card|collect \d|snapshot|"
                                   r"reference's notes|chip\(s\)|1 points)\b"),
}


def _player_text(html: str) -> str:
    """The text a player reads on a page: the article, without footnotes, tags or the pictures' alt text."""
    body = html[html.index("<article"):html.index("</article>")]
    body = re.sub(r'<(aside|div) class="footnote[^"]*".*?</\1>', "", body, flags=re.S)
    body = re.sub(r'<(section|div) class="footnotes?".*?</\1>', "", body, flags=re.S)
    body = re.sub(r"<[^>]+>", " ", body)
    return html_lib.unescape(body)


def test_player_pages_have_no_internal_words(site: Path) -> None:
    found = []
    for page in _player_pages():
        text = _player_text((site / page).read_text(encoding="utf-8"))
        for what, pattern in FORBIDDEN.items():
            found += [f"{page}: {what}: {m[0]!r}" for m in pattern.finditer(text)]
    assert not found, "\n".join(found[:40])


def test_a_planted_internal_word_is_found() -> None:
    page = "<article><p>collect 0 21 under seed 23, card 110 and --option jizo=on</p></article>"
    text = _player_text(page)
    assert all(p.search(text) for p in FORBIDDEN.values())
