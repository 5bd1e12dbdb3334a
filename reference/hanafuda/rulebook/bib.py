"""The bibliography: ``docs/references.bib``, written from :mod:`hanafuda_spec.sources`.

Every source key a citation can name (:data:`hanafuda_spec.sources.SOURCES`) is a BibTeX key
of the same spelling, so a rule's citation ``Citation("FW-KK", ...)`` becomes ``{cite:p}`FW-KK```
in the rulebooks. :data:`WORKS` adds the works the sources' own bibliographies list (Kusaba
1995, Shiono 1921, the kubotaya and asahi-net pages, ...), and :data:`DETAILS` the
bibliographic details a :class:`~hanafuda_spec.sources.Source` does not carry.

``docs/references.bib`` is checked in so that readers find it; it must equal
:func:`render_bib` (the test suite checks it). Regenerate it with
``python -m hanafuda.rulebook.bib docs/references.bib``.

>>> text = render_bib()
>>> "@misc{SEED-000," in text and "@misc{SHIONO-1921," in text
True
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

from hanafuda_spec.sources import SOURCES, Source

__all__ = ["DETAILS", "WORKS", "bib_keys", "render_bib"]

#: Extra BibTeX fields for source keys (details the sources' bibliographies give).
DETAILS: dict[str, dict[str, str]] = {
    "KUSABA-1995": {"howpublished": "Jun Kusaba's Game Research Site, January–February 1995"},
    "SHIONO-1921": {"howpublished": "Shihōshō Chōsaka; National Diet Library, pid 1878761"},
}

#: Works the sources' bibliographies list that no rule cites directly (key -> fields).
WORKS: dict[str, dict[str, str]] = {
    "ASAHI-KJ": {
        "author": "{rp9h-tkhs}",
        "title": "九十六 (Kujuroku)",
        "howpublished": "asahi-net.or.jp personal pages",
        "url": "https://www.asahi-net.or.jp/~rp9h-tkhs/dg_kujuroku.htm",
        "note": "bibliography of the Kujuroku seed (SEED-001)",
    },
    "KUBO-KJ": {
        "author": "{kubotaya}",
        "title": "Kujuroku",
        "howpublished": "kubotaya exblog",
        "url": "https://kubotaya.exblog.jp/5001386/",
        "note": "bibliography of the Kujuroku seed (SEED-001)",
    },
    "GEO-DAINI": {
        "author": "{xmbwq497}",
        "title": "Dai Nihon (daijinihon)",
        "howpublished": "GeoCities Japan, archived 2019-03-16",
        "url": "https://web.archive.org/web/20190316051238/http://www.geocities.jp/xmbwq497/karuta/daijinihon.html",
        "note": "bibliography of the Kujuroku seed (SEED-001)",
    },
    "WP-KK": {
        "author": "{Wikipedia}",
        "title": "Koi-Koi",
        "howpublished": "English Wikipedia",
        "url": "https://en.wikipedia.org/wiki/Koi-Koi",
        "note": "the article seed 002 is a scrambled fragment of; in the bibliography of FW-KK",
    },
    "WP-JA-KK": {
        "author": "{Wikipedia}",
        "title": "こいこい (Koi-Koi)",
        "howpublished": "Japanese Wikipedia",
        "url": "https://ja.wikipedia.org/wiki/こいこい",
        "note": "bibliography of FW-KK",
    },
    "WP-JA-KABU": {
        "author": "{Wikipedia}",
        "title": "株札 (Kabufuda)",
        "howpublished": "Japanese Wikipedia",
        "url": "https://ja.wikipedia.org/wiki/株札",
        "note": "bibliography of FW-KABU",
    },
    "NIN-LEAFLETS": {
        "author": "{Nintendo}",
        "title": "Koi-Koi rules leaflets (the current one and the blue 1960s one)",
        "howpublished": "printed with Nintendo hanafuda decks",
        "note": "bibliography of FW-KK",
    },
    "INDIANWOLF-2017": {
        "author": "Johnson, Jason and Fazio-Johnson, Antonietta",
        "title": "Hanafuda Games",
        "howpublished": "IndianWolf Studios, Hanami edition",
        "year": "2017",
        "url": "http://www.indianwolfstudios.com/hanafuda-games-rulebook.html",
        "note": "bibliography of FW-KK, FW-HA and FW-SD",
    },
    "JAPANPUB-1970": {
        "author": "{Japan Publications}",
        "title": "Hanafuda – The Flower Card Game",
        "howpublished": "Japan Publications",
        "year": "1970",
        "note": "bibliography of FW-KK and FW-HA",
    },
    "KIRISAME": {
        "author": "Leonard, Graham",
        "title": "Hanafuda pages (Koi-Koi, Hana-Awase)",
        "howpublished": "hana.kirisame.org, archived 2005",
        "url": "https://web.archive.org/web/20051125014910/http://hana.kirisame.org/koikoi.html",
        "note": "bibliography of FW-KK and FW-HA",
    },
    "FUZOKU-1908": {
        "author": "Naganuma, Koichirō",
        "title": "古今室内遊戯余談 (Kokon shitsunai yūgi yodan), part 1",
        "howpublished": "Fūzoku gahō no. 381, pp. 9–11, 10 March 1908 (Meiji 41)",
        "year": "1908",
        "note": "bibliography of FW-MB",
    },
    "MIXI-MB": {
        "author": "{mixi hanafuda community}",
        "title": "Musashino discussion thread",
        "howpublished": "mixi community 49586",
        "url": "https://mixi.jp/view_bbs.pl?comm_id=49586&page=all&id=4614383",
        "note": "bibliography of FW-MB",
    },
    "JIYUKOJI-1888": {
        "author": "{Jiyū Koji}",
        "title": "花かるたトランプ引方並に秘伝 (Hana-karuta and cards: how to play, with secrets)",
        "howpublished": "December 1888 (Meiji 21)",
        "year": "1888",
        "note": "bibliography of FW-TY",
    },
    "NDL-861683": {
        "author": "{National Diet Library}",
        "title": "Digital collection item 861683",
        "howpublished": "NDL Digital Collections",
        "url": "https://dl.ndl.go.jp/info:ndljp/pid/861683/4",
        "note": "bibliography of FW-TY",
    },
    "MOCOGAME-2019": {
        "author": "{MocoGame}",
        "title": "Hanafuda Geemu Dai Shōgō",
        "howpublished": "iOS application",
        "year": "2019",
        "note": "bibliography of FW-SD",
    },
}


def _escape(value: str) -> str:
    return value.replace("&", r"\&").replace("%", r"\%").replace("#", r"\#").replace("_", r"\_")


def _source_fields(s: Source) -> dict[str, str]:
    fields = {
        "author": "{" + s.author + "}",
        "title": s.title,
        "howpublished": s.author if s.url else "",
        "year": s.date[:4] if s.date[:4].isdigit() else "",
        "url": s.url,
        "note": (f"{s.note}; published {s.date}" if s.note else f"published {s.date}") + f"; source key {s.key}",
    }
    fields.update(DETAILS.get(s.key, {}))
    return fields


def _entry(key: str, fields: Mapping[str, str]) -> str:
    lines = [f"@misc{{{key},"]
    for name in ("author", "title", "howpublished", "year", "url", "note"):
        v = fields.get(name, "")
        if not v:
            continue
        if name == "url":
            lines.append(f"  url = {{{v}}},")
        elif name == "author":
            lines.append(f"  author = {{{v}}},")
        elif name == "title":  # braces keep the capitals as written (no sentence case)
            lines.append(f"  title = {{{{{_escape(v)}}}}},")
        else:
            lines.append(f"  {name} = {{{_escape(v)}}},")
    lines.append("}")
    return "\n".join(lines)


def bib_keys() -> tuple[str, ...]:
    """Every key of the bibliography: the source keys, then the other works."""
    return (*SOURCES, *WORKS)


def render_bib() -> str:
    """The text of ``docs/references.bib``."""
    parts = ["% Generated by hanafuda.rulebook.bib from hanafuda_spec.sources: do not edit by hand.\n"]
    for s in SOURCES.values():
        parts.append(_entry(s.key, _source_fields(s)))
    for key, fields in WORKS.items():
        parts.append(_entry(key, fields))
    return "\n\n".join(parts) + "\n"


def main(argv: list[str]) -> int:
    """``python -m hanafuda.rulebook.bib [FILE]``: write the bibliography (default: stdout)."""
    text = render_bib()
    if argv:
        Path(argv[0]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
