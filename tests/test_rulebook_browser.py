"""The rulebooks in a real browser (issue 16): headless Chromium, driven by Playwright, opens every
page of every game's book and fails on horizontal overflow, content sticking out of the text
column, a broken picture or link, or a page without card pictures where they belong. It prints
each quick reference to A4 (two sides at most). Planted faults show that each check can fail.
Skipped when Chromium is not installed (CI installs Debian's package)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hanafuda.rulebook.browser import all_pages, check_pages, chromium, pdf_pages
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
