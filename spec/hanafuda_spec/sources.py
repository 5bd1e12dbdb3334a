"""The source documents rules are cited from (keys used by :class:`~hanafuda_spec.catalogue.Citation`).

The keys follow RULES-DOSSIER §0.2. Each entry is also a bibliography entry of the rulebooks.

Two kinds of source: ``document`` (a rules text; a citation names a section and may quote a short
phrase from it) and ``implementation`` (the code of an open engine at one commit; a citation names
the file and the function, ``"src/ai.c: is_koikoi_enabled"``, and quotes nothing). Tests that check
quoted phrases against the documents skip implementation sources (``Source.kind``).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DOCUMENT", "DOCUMENTS", "IMPLEMENTATION", "SOURCES", "Source", "engine"]


DOCUMENT = "document"
IMPLEMENTATION = "implementation"


@dataclass(frozen=True)
class Source:
    key: str
    title: str
    author: str
    date: str
    url: str
    note: str = ""
    kind: str = DOCUMENT  #: ``document`` or ``implementation``
    repository: str = ""  #: implementation sources: ``owner/name`` on GitHub
    commit: str = ""  #: implementation sources: the commit every citation refers to

    def __post_init__(self) -> None:
        if self.kind not in (DOCUMENT, IMPLEMENTATION):
            raise ValueError(f"source {self.key}: unknown kind {self.kind!r}")
        if self.kind == IMPLEMENTATION and not (self.repository and len(self.commit) == 40):
            raise ValueError(f"source {self.key}: an implementation names its repository and full commit")


_FW = "https://fudawiki.org/en/"


def engine(key: str, repository: str, commit: str, date: str, title: str, author: str, note: str) -> Source:
    """An implementation source: an open engine's code at one commit."""
    return Source(key, title, author, date, f"https://github.com/{repository}/tree/{commit}",
                  f"{note}; repository {repository}, commit {commit[:12]}",
                  IMPLEMENTATION, repository, commit)

SOURCES: dict[str, Source] = {
    s.key: s
    for s in (
        Source("SEED-000", "Kusuri-gui", "FudaWiki", "2022-07-22", _FW + "hanafuda/games/kusuri-gui",
               "seed document, FudaWiki commit fb464ec3"),
        Source("SEED-001", "Kujuroku", "FudaWiki", "2022-10-09", _FW + "kabufuda/games/kujuroku",
               "seed document, FudaWiki commit effb7a53"),
        Source("SEED-002", "Koi-Koi (lead, Deal and Play, sentences reversed)", "Wikipedia", "2021",
               "https://en.wikipedia.org/wiki/Koi-Koi", "seed document"),
        Source("SEED-003", "Musashino-Bana", "FudaWiki", "2022-09-13", _FW + "hanafuda/games/musashino-bana",
               "seed document, FudaWiki commit 1a3d65b1; yaku table under construction"),
        Source("SEED-004", "Kekoro", "FudaWiki", "2021-04-22", _FW + "hanafuda/games/kekoro",
               "seed document, FudaWiki commit 71e14b8c"),
        Source("FW-KG", "Kusuri-gui (revision 92aeb55b)", "FudaWiki", "2022-11-19",
               _FW + "hanafuda/games/kusuri-gui", "tags only changed since the seed"),
        Source("FW-KJ", "Kujuroku (revision c2695204)", "FudaWiki", "2024-06-06",
               _FW + "kabufuda/games/kujuroku", "adds dekiyaku configurations A-D"),
        Source("FW-MB", "Musashino-Bana (revision 6ffb2278)", "FudaWiki", "2022-09-13",
               _FW + "hanafuda/games/musashino-bana", "completes the yaku table"),
        Source("FW-KE", "Kekoro (revision e88cd981)", "FudaWiki", "2022-11-19", _FW + "hanafuda/games/kekoro",
               "round scoring, next dealer, game winner"),
        Source("FW-KK", "Koi-Koi (revision 7f8b6af9)", "FudaWiki", "2026-07-05", _FW + "hanafuda/games/koi-koi",
               "full rules, yaku table and variations"),
        Source("FW-HA", "Hana-Awase (revision b58f9346)", "FudaWiki", "2025-02-04",
               _FW + "hanafuda/games/hana-awase", "the gameplay Kujuroku and Musashino-Bana defer to"),
        Source("FW-TY", "Taiyaku (revision a22683b4)", "FudaWiki", "2025-05-22", _FW + "hanafuda/games/taiyaku",
               "the scoring Musashino-Bana assumes"),
        Source("FW-SD", "Sudaoshi (revision 39c5cca4)", "FudaWiki", "2022-04-11", _FW + "hanafuda/games/sudaoshi",
               "source of Kekoro's card values"),
        Source("FW-KABU", "Kabufuda (revision 6d034646)", "FudaWiki", "2022-12-14", _FW + "kabufuda",
               "the deck family of Daini"),
        Source("FW-SUITS", "Hanafuda suits", "FudaWiki", "2022", _FW + "hanafuda/suits",
               "card names and the card-image numbering used as card ids"),
        Source("WP-2008", "Koi-Koi (oldid 240825563)", "Wikipedia", "2008-09",
               "https://en.wikipedia.org/wiki/Koi-Koi?oldid=240825563", "unscrambled Deal and Play"),
        Source("NIN-JP", "花札・株札 遊び方 (Koi-Koi rules)", "Nintendo", "n.d.",
               "https://www.nintendo.com/jp/others/hanafuda_kabufuda/howtoplay/", "rules leaflet"),
        Source("KUBO", "薬食い (Kusuri-gui)", "kubotaya blog", "2010-09-23",
               "https://kubotaya.hatenablog.com/entry/20100923", "bibliography of the Kusuri-gui seed"),
        Source("KUSABA-1995", "In Search of Old Hanafuda Games", "Jun Kusaba", "1995",
               "https://sites.google.com/a/banjoyugi.net/kusabazyun/Home/reproductioned/history/kohanafuda",
               "Jun Kusaba's Game Research Site; cited by the Kekoro seed for alternative card values"),
        Source("SHIONO-1921", "Teikei Aru Hanzai No Chōsa", "Suehiko Shiono", "1921",
               "https://dl.ndl.go.jp/info:ndljp/pid/1878761",
               "Shihōshō Chōsaka, pp. 75-80 (National Diet Library); cited by the Kekoro seed for yaku card swaps"),
        Source("WEBLIO-1SUIT", "１スート系 (one-suit decks)", "Weblio / Japanese Wikipedia", "2022-04",
               "https://www.weblio.jp/content/１スート系", "physical contents of a Daini deck"),
        engine("ENG-BH", "suzukiplan/open-hanafuda-ai", "475728d6b9ab39060ba35737f6c23aa603e2d05d", "2026-04-10",
               "Open Hanafuda AI (the Battle Hanafuda simulator)", "Yoji Suzuki",
               "MIT; C; claims Nintendo's rules with no local variations"),
        engine("ENG-KKAI", "guansanghai/KoiKoi-AI", "89d789565c7c36c84b74662e43001d960bf80901", "2025-07-22",
               "KoiKoi-AI (koikoigame.py, the rules of the KoiKoi-Japan game)", "Sanghai Guan",
               "MIT; Python; the engine of the 201 human game records of the paper"),
        engine("ENG-GOKK", "ngs/go-koikoi", "3c1068c76bfe0540a8c961605fad1ec93e0c3cb5", "2026-03-30",
               "go-koikoi (a terminal Koi-Koi game)", "ngs", "Go; its docs/rules.md claims Nintendo's rules"),
        engine("ENG-KKS", "sidsryu/koikoi-scorer", "d8376a8340df10619d1c457f99cac1a5294c03a4", "2016-08-31",
               "koikoi-scorer (a Koi-Koi score calculator)", "Sid S. Ryu",
               "MIT; C++; a scorer of capture piles, no play; its defaults claim Nintendo's rules"),
        Source("DOSSIER", "Rules sources and seed audit", "hanafuda project", "2026",
               "", "our research notes: gap ids and checked arithmetic"),
    )
}

#: The sources kept as documents in the shared sources folder (``../shared/sources`` beside the
#: checkout), by key: the file a citation's section and quoted phrase can be checked in. A source not
#: listed here (a book, a blog, an engine's code, our own notes) is cited but not checked that way.
DOCUMENTS: dict[str, str] = {
    "SEED-000": "seeds/000_5a4f0c6e04512b8e.txt",
    "SEED-001": "seeds/001_1e47c3b1f0eaaa20.txt",
    "SEED-002": "seeds/002_34e3dc4158763917.txt",
    "SEED-003": "seeds/003_476e4daa9a6f6235.txt",
    "SEED-004": "seeds/004_0e465a3e79685f56.txt",
    "FW-KG": "fudawiki/kusuri-gui.md",
    "FW-KJ": "fudawiki/kujuroku.md",
    "FW-MB": "fudawiki/musashino-bana.md",
    "FW-KE": "fudawiki/kekoro.md",
    "FW-KK": "fudawiki/koi-koi.md",
    "FW-HA": "fudawiki/hana-awase.md",
    "FW-TY": "fudawiki/taiyaku.md",
    "FW-SD": "fudawiki/sudaoshi.md",
    "FW-KABU": "fudawiki/kabufuda.md",
}

#: Documents whose text has no headings: SEED-002 is Wikipedia's lead, Deal and Play run together in
#: reverse sentence order, so a citation names the article's section and its phrase is found anywhere.
UNSECTIONED = frozenset({"SEED-002"})
