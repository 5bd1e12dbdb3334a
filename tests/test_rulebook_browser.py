"""The rulebooks in a real browser (issue 16): headless Chromium, driven by Playwright, opens every
page of every game's book and fails on horizontal overflow, content sticking out of the text
column, a broken picture or link, or a page without card pictures where they belong. It prints
each quick reference to A4 (two sides at most). Planted faults show that each check can fail.
Skipped when Chromium is not installed (CI installs Debian's package)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hanafuda.records import record_match
from hanafuda.registry import game
from hanafuda.rulebook.browser import all_pages, browser_page, check_pages, chromium, pdf_pages
from hanafuda.view import render_html, view_record
from hanafuda_spec.games import all_specs

pytestmark = pytest.mark.skipif(chromium() is None, reason="chromium is not installed")

#: The pages of a book that must show card pictures, and how small a picture may be drawn there.
PICTURE_PAGES = ("howto", "example", "gallery", "quickref", "rules")
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
