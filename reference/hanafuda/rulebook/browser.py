"""Look at the rulebooks in a real browser: headless Chromium driven by Playwright.

:func:`check_pages` opens built pages and reports, for each, what a reader would stumble on: the
page wider than the window (horizontal overflow), a picture that did not load, a link to a page or
an anchor that does not exist. It also counts the card pictures, so that a test can demand them
where they belong. :func:`screenshot` and :func:`pdf_pages` photograph and print a page.

The browser is the distribution's Chromium (``/usr/bin/chromium``, Debian's package), never a
downloaded build; without it :func:`chromium` is None and the tests that need it skip. Playwright is
a development dependency, imported only when a browser is used.

``python -m hanafuda.rulebook.browser SITE [PAGE...]`` checks pages of a built site (every page
by default) and prints one line per problem; ``--shot OUT.png PAGE`` photographs one page;
``--thumbs docs/cards`` makes the small copies of the card faces again (:func:`make_thumbnails`).
"""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

__all__ = ["CHROMIUM_ARGS", "PageReport", "browser_page", "check_pages", "chromium", "make_thumbnails", "pdf_pages",
           "screenshot"]

#: How Chromium is started: headless, sandbox off (CI runs as root), and nothing that talks to the network.
CHROMIUM_ARGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync")

_CARD = re.compile(r"/(?:hf|daini)-\d+\.svg$")


def chromium() -> str | None:
    """The installed Chromium, or None (then the browser checks cannot run)."""
    for cand in ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")):
        if cand and Path(cand).is_file():
            return cand
    return None


@dataclass
class PageReport:
    """What the browser found on one page."""

    page: str
    width: int
    scroll_width: int
    broken_images: list[str] = field(default_factory=list)
    broken_links: list[str] = field(default_factory=list)
    sticking_out: list[str] = field(default_factory=list)
    card_pictures: int = 0
    smallest_card: int = 0
    height: int = 0
    wide_tables: list[int] = field(default_factory=list)

    @property
    def overflow(self) -> int:
        """How many pixels the page is wider than the window (0: no horizontal scrolling)."""
        return max(0, self.scroll_width - self.width)

    def problems(self) -> list[str]:
        out = []
        if self.overflow:
            out.append(f"{self.page}: horizontal overflow of {self.overflow}px at {self.width}px wide")
        out += [f"{self.page}: sticks out of the text column (cut off or overflowing): {e}" for e in self.sticking_out]
        out += [f"{self.page}: broken image {src}" for src in self.broken_images]
        out += [f"{self.page}: broken link {href}" for href in self.broken_links]
        out += [f"{self.page}: a table reaches {r}px, past the {self.width}px window" for r in self.wide_tables]
        return out


@contextmanager
def _browser() -> Iterator[Any]:
    exe = chromium()
    if exe is None:
        raise FileNotFoundError("chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=list(CHROMIUM_ARGS))
        try:
            yield b
        finally:
            b.close()


@contextmanager
def browser_page(width: int = 1280, height: int = 900) -> Iterator[Any]:
    """A fresh Playwright page of the headless browser, ``width`` pixels wide (tests drive it)."""
    with _browser() as b:
        page = b.new_page(viewport={"width": width, "height": height})
        try:
            yield page
        finally:
            page.close()


@lru_cache(maxsize=512)
def _ids(path: Path) -> frozenset[str]:
    text = path.read_text(encoding="utf-8", errors="replace")
    return frozenset(re.findall(r'\bid="([^"]+)"', text))


def _link_problem(site: Path, page: Path, href: str) -> str | None:
    """Why a link of a built page is broken (None if it is not, or points off the site)."""
    u = urlparse(href)
    if u.scheme not in ("file", ""):
        return None
    target = Path(unquote(u.path)) if u.scheme == "file" else (page.parent / unquote(u.path)).resolve()
    if u.scheme == "file" and not str(target).startswith(str(site.resolve())):
        return None
    if target.is_dir():
        target = target / "index.html"
    if not target.is_file():
        return "no such page"
    if u.fragment and target.suffix == ".html" and u.fragment not in _ids(target):
        return f"no anchor #{u.fragment}"
    return None


_PROBE = """() => {
  // content sticking out of the text column without a scrolling box around it (cut off or overflowing)
  function sticking() {
    const art = document.querySelector('article') || document.body;
    const limit = art.getBoundingClientRect().right + 16;  // furo's own headings and tables reach 7px past it
    const scrolls = (el) => {
      for (let a = el.parentElement; a && a !== art.parentElement; a = a.parentElement) {
        const o = getComputedStyle(a).overflowX;
        if (o === 'auto' || o === 'scroll') return true;
      }
      return false;
    };
    return Array.from(art.querySelectorAll('*')).filter(e => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && r.right > limit && getComputedStyle(e).visibility !== 'hidden'
        && !scrolls(e);
    }).slice(0, 3).map(e =>
      `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right - limit)}px`);
  }
  const imgs = Array.from(document.images);
  // the card pictures a reader sees (not those inside a closed <details>: one click away)
  const cards = imgs.filter(i => /\\/(hf|daini)-\\d+\\.svg$/.test(i.currentSrc || i.src) && i.getClientRects().length);
  // tables wider than the window where a reader sees them: the table, or the box it scrolls in
  const vw = document.documentElement.clientWidth;
  const wideTables = Array.from(document.querySelectorAll('article table')).map(t => {
    let box = t;
    const art = document.querySelector('article') || document.body;
    for (let a = t.parentElement; a && a !== art.parentElement; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if (o === 'auto' || o === 'scroll') { box = a; break; }
    }
    return Math.round(box.getBoundingClientRect().right);
  }).filter(r => r > vw);
  return {
    height: document.documentElement.scrollHeight,
    wide_tables: wideTables,
    width: document.documentElement.clientWidth,
    scroll: document.documentElement.scrollWidth,
    broken: imgs.filter(i => !i.complete || i.naturalWidth === 0).map(i => i.getAttribute('src')),
    links: Array.from(document.querySelectorAll('a[href]')).map(a => a.href),
    cards: cards.length,
    smallest: cards.length ? Math.min(...cards.map(i => i.getBoundingClientRect().width)) : 0,
    sticking: sticking(),
  };
}"""


def check_pages(site: Path, pages: Sequence[str], width: int = 1280, height: int = 900,
                plant: str | None = None) -> list[PageReport]:
    """Open each page (a path relative to ``site``) at ``width`` pixels and report what is wrong.

    ``plant`` is JavaScript run on each page before it is measured (a test plants a fault with it).
    """
    site = site.resolve()
    reports = []
    with _browser() as b:
        ctx = b.new_context(viewport={"width": width, "height": height})
        page = ctx.new_page()
        for rel in pages:
            path = site / rel
            page.goto(path.as_uri(), wait_until="load")
            if plant:
                page.evaluate(plant)
            data = page.evaluate(_PROBE)
            rep = PageReport(rel, int(data["width"]), int(data["scroll"]), list(data["broken"]),
                             card_pictures=int(data["cards"]), smallest_card=round(float(data["smallest"])),
                             sticking_out=list(data["sticking"]), height=int(data["height"]),
                             wide_tables=[int(r) for r in data["wide_tables"]])
            for href in sorted(set(data["links"])):
                why = _link_problem(site, path, href)
                if why:
                    rep.broken_links.append(f"{href} ({why})")
            reports.append(rep)
        ctx.close()
    return reports


def screenshot(site: Path, page: str, out: Path, width: int = 1280, height: int = 900,
               full_page: bool = False) -> Path:
    """A PNG of a page as a reader at ``width`` pixels sees it."""
    with _browser() as b:
        p = b.new_page(viewport={"width": width, "height": height})
        p.goto((site.resolve() / page).as_uri(), wait_until="load")
        p.screenshot(path=str(out), full_page=full_page)
    return out


def pdf_pages(site: Path, page: str, out: Path) -> int:
    """Print a page to A4 PDF (the print style sheet applies) and return the number of sheets' sides."""
    with _browser() as b:
        p = b.new_page()
        p.goto((site.resolve() / page).as_uri(), wait_until="load")
        p.emulate_media(media="print")
        p.pdf(path=str(out), format="A4", prefer_css_page_size=True, print_background=True)
    return len(re.findall(rb"/Type\s*/Page[^s]", out.read_bytes()))


_THUMB = """async ([svg, width, quality]) => {
  const img = new Image();
  img.src = 'data:image/svg+xml;base64,' + svg;
  await img.decode();
  const c = document.createElement('canvas');
  c.width = width; c.height = Math.round(width * img.naturalHeight / img.naturalWidth);
  c.getContext('2d').drawImage(img, 0, 0, c.width, c.height);
  return c.toDataURL('image/webp', quality).split(',')[1];
}"""


def make_thumbnails(faces: Path, width: int = 128, quality: float = 0.82) -> list[Path]:
    """Small WebP copies of the card faces (``faces/hf-*.svg`` -> ``faces/thumbs/hf-*.webp``), drawn
    by the browser: what ``hanafuda view`` embeds, a few kilobytes a card where each SVG is tens."""
    import base64

    out = faces / "thumbs"
    out.mkdir(exist_ok=True)
    made = []
    with browser_page() as page:
        for svg in sorted(faces.glob("hf-*.svg")):
            data = base64.b64encode(svg.read_bytes()).decode()
            webp = base64.b64decode(page.evaluate(_THUMB, [data, width, quality]))
            target = out / (svg.stem + ".webp")
            target.write_bytes(webp)
            made.append(target)
    return made


def all_pages(site: Path) -> list[str]:
    """Every HTML page of a built site, relative to it (search and index pages of Sphinx left out)."""
    skip = {"search.html", "genindex.html", "py-modindex.html"}
    return sorted(str(p.relative_to(site)) for p in site.rglob("*.html")
                  if p.name not in skip and "_sources" not in p.parts and ".doctest" not in p.parts)


def main(argv: Sequence[str]) -> int:
    args = list(argv)
    if args[:1] == ["--thumbs"] and len(args) == 2:
        for p in make_thumbnails(Path(args[1])):
            print(p)
        return 0
    if args[:1] == ["--shot"]:
        if len(args) != 4:
            print("usage: python -m hanafuda.rulebook.browser --shot OUT.png SITE PAGE", file=sys.stderr)
            return 2
        print(screenshot(Path(args[2]), args[3], Path(args[1]), full_page=True))
        return 0
    if not args or not (Path(args[0]) / "index.html").is_file():
        print("usage: python -m hanafuda.rulebook.browser SITE [PAGE...] (SITE: a built rulebook site)",
              file=sys.stderr)
        return 2
    site = Path(args[0])
    problems = [p for r in check_pages(site, args[1:] or all_pages(site)) for p in r.problems()]
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
