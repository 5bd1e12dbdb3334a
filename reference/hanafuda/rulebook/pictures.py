"""Card pictures: the hanafuda faces of a published deck, and the Daini deck drawn here.

The 48 hanafuda cards are Louie Mantia, Jr.'s deck from Wikimedia Commons (CC BY-SA 4.0), kept
unmodified under ``docs/cards/hf-<id>.svg`` with their credits in ``docs/cards/CREDITS``; they are
not the code's (MIT) and keep their own licence. Where the source tree is absent (an installed
package), :func:`card_svg` draws a plain stand-in from the card data instead: a frame in the plant's
colour, the plant, a sign for the kind. The Daini deck of Kujuroku is drawn here: the rank as
batons with the rank in the corners, the special cards (the red I-tsun, the gold special 3, the
silver I-shi) and the two jokers, the Oni-fuda (a demon's face) and the Jizo-fuda (a stone Jizo). No
face carries a point value: each game's pages give the values of its own rules.

Every picture is a file named after the deck family and the card id (``hf-80.svg``,
``daini-0.svg``).

>>> from hanafuda_spec.cards import card
>>> svg = card_svg(card(80))
>>> svg.lstrip().startswith("<svg")
True
>>> picture_name(card(80)), short_name(card(110))
('hf-80.svg', 'Rain Man')
"""

from __future__ import annotations

import base64
from html import escape
from pathlib import Path

from hanafuda_spec.cards import BaseCard, Card, DainiCard, Kind, RibbonColour

__all__ = ["HEIGHT", "PLANT_COLOURS", "WIDTH", "card_image_uri", "card_svg", "drawn_svg", "faces_dir", "picture_name",
           "short_name", "thumbnail_name"]

WIDTH, HEIGHT = 48, 76

#: The colour each month's plant is drawn in (month -> (name, colour)).
PLANT_COLOURS: dict[int, tuple[str, str]] = {
    1: ("pine", "#2e6b3a"),
    2: ("plum", "#c2185b"),
    3: ("cherry", "#f48fb1"),
    4: ("wisteria", "#7e57c2"),
    5: ("iris", "#3949ab"),
    6: ("peony", "#d81b60"),
    7: ("bush clover", "#ad1457"),
    8: ("susuki grass", "#9e8a52"),
    9: ("chrysanthemum", "#f9a825"),
    10: ("maple", "#e64a19"),
    11: ("willow", "#558b2f"),
    12: ("paulownia", "#6a5d9c"),
}

_RIBBON = {RibbonColour.POETRY: "#d32f2f", RibbonColour.BLUE: "#1e40af", RibbonColour.PLAIN: "#e53935"}
_KIND_LABEL = {Kind.BRIGHT: "Bright", Kind.ANIMAL: "Animal", Kind.RIBBON: "Ribbon", Kind.CHAFF: "Chaff"}


def picture_name(c: BaseCard) -> str:
    """The file name of a card's picture."""
    return f"hf-{c.id}.svg" if isinstance(c, Card) else f"daini-{c.id}.svg"


def short_name(c: BaseCard) -> str:
    """A name short enough to print on the card: what it shows besides the plant."""
    name = c.name_en.split(" (")[0]
    if isinstance(c, Card):
        if " with " in name:
            return name.split(" with ", 1)[1]
        return "Yellow Chaff" if "Yellow" in name else "Chaff"
    return name


def _text(x: float, y: float, size: float, text: str, fill: str = "#222", weight: str = "normal",
          fit: float | None = None) -> str:
    squeeze = f' textLength="{fit}" lengthAdjust="spacingAndGlyphs"' if fit else ""
    return (f'<text x="{x}" y="{y}" font-family="DejaVu Sans, Verdana, sans-serif" font-size="{size}" '
            f'font-weight="{weight}" text-anchor="middle" fill="{fill}"{squeeze}>{escape(text)}</text>')


def _frame(colour: str, title: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img">',
        f"<title>{escape(title)}</title>",
        f'<rect x="1" y="1" width="{WIDTH - 2}" height="{HEIGHT - 2}" rx="4" fill="#fffaf0" '
        f'stroke="{colour}" stroke-width="2"/>',
        f'<rect x="1" y="1" width="{WIDTH - 2}" height="14" rx="4" fill="{colour}"/>',
    ]


def _hanafuda(c: Card) -> list[str]:
    plant, colour = PLANT_COLOURS[c.month]
    out = _frame(colour, f"{c.id} {c.name_en} ({c.kind.value}, {plant})")
    head = plant.split()[-1]
    out.append(_text(WIDTH / 2, 11, 8, head, "#fff", "bold", fit=WIDTH - 8 if len(head) > 8 else None))
    cx, cy = WIDTH / 2, 38
    if c.kind is Kind.BRIGHT:
        out.append(f'<circle cx="{cx}" cy="{cy}" r="12" fill="#e53935" stroke="#b71c1c"/>')
    elif c.kind is Kind.ANIMAL:
        out.append(f'<circle cx="{cx}" cy="{cy}" r="11" fill="none" stroke="{colour}" stroke-width="3"/>')
    elif c.kind is Kind.RIBBON:
        rc = _RIBBON[c.ribbon or RibbonColour.PLAIN]
        out.append(f'<rect x="{cx - 6}" y="{cy - 16}" width="12" height="30" fill="{rc}"/>')
        if c.ribbon is RibbonColour.POETRY:
            for dy in (-10, -4, 2):
                out.append(f'<line x1="{cx - 3}" y1="{cy + dy}" x2="{cx + 3}" y2="{cy + dy}" stroke="#fff"/>')
        out.append(_text(cx, cy + 24, 7, (c.ribbon or RibbonColour.PLAIN).value, rc))
    else:
        for dx in (-8, -3, 2, 7):
            out.append(f'<path d="M{cx + dx} {cy + 12} q2 -14 {dx / 2} -20" fill="none" stroke="{colour}" '
                       f'stroke-width="2"/>')
        if c.id == 113:
            out.append(f'<path d="M{cx - 2} {cy - 14} l6 8 h-5 l5 8" fill="none" stroke="#333" '
                       f'stroke-width="2"/>')
    label = short_name(c)
    out.append(_text(WIDTH / 2, HEIGHT - 7, 7, label, fit=WIDTH - 6 if len(label) > 9 else None))
    out.append("</svg>")
    return out


_KANJI = "一二三四五六七八九十"

#: Where the batons of ranks 1 to 9 stand (x, y in the card's 48 x 76 box).
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((24, 38),),
    2: ((24, 26), (24, 50)),
    3: ((24, 22), (24, 38), (24, 54)),
    4: ((16, 27), (32, 27), (16, 49), (32, 49)),
    5: ((16, 24), (32, 24), (24, 38), (16, 52), (32, 52)),
    6: ((16, 22), (32, 22), (16, 38), (32, 38), (16, 54), (32, 54)),
    7: ((16, 21), (32, 21), (24, 30), (16, 40), (32, 40), (16, 55), (32, 55)),
    8: ((16, 20), (32, 20), (16, 32), (32, 32), (16, 44), (32, 44), (16, 56), (32, 56)),
    9: ((12, 21), (24, 21), (36, 21), (12, 38), (24, 38), (36, 38), (12, 55), (24, 55), (36, 55)),
}


#: How long a baton is drawn for each rank (fewer pips, longer batons).
_BATON = {1: 22.0, 2: 12.0, 3: 9.0, 4: 11.0, 5: 9.0, 6: 9.0, 7: 7.0, 8: 6.0, 9: 8.0}


def _baton(x: float, y: float, fill: str, rank: int) -> str:
    """One pip of the Daini (and Kabufuda) suit: an upright baton with a knot at each end."""
    h, w = _BATON[rank], 7.0 if rank == 1 else 4.0
    return (f'<rect x="{x - w / 2}" y="{y - h / 2}" width="{w}" height="{h}" rx="{w / 2}" fill="{fill}" '
            f'stroke="#1b1b1b" stroke-width="0.6"/>'
            f'<circle cx="{x}" cy="{y - h / 2}" r="{w / 2 + 0.6}" fill="#1b1b1b"/>'
            f'<circle cx="{x}" cy="{y + h / 2}" r="{w / 2 + 0.6}" fill="#1b1b1b"/>')


def _daini(c: DainiCard) -> list[str]:
    ink, paper = "#1b1b1b", "#fbf6e9"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img">', f"<title>{escape(c.name_en)}</title>"]
    if c.is_joker:
        oni = c.id == 0
        out.append(f'<rect x="1" y="1" width="{WIDTH - 2}" height="{HEIGHT - 2}" rx="4" '
                   f'fill="{"#fde8e4" if oni else "#eef0f2"}" stroke="{ink}" stroke-width="1.5"/>')
        if oni:  # a red demon's face with two horns and a fanged mouth
            out += ['<path d="M14 22 L11 8 L20 18 Z M34 22 L37 8 L28 18 Z" fill="#f5e6b8" stroke="#1b1b1b"/>',
                    '<ellipse cx="24" cy="34" rx="14" ry="16" fill="#c62828" stroke="#1b1b1b"/>',
                    '<path d="M15 28 l6 3 M33 28 l-6 3" stroke="#1b1b1b" stroke-width="2"/>',
                    '<circle cx="18.5" cy="33" r="2.5" fill="#fff59d" stroke="#1b1b1b"/>',
                    '<circle cx="29.5" cy="33" r="2.5" fill="#fff59d" stroke="#1b1b1b"/>',
                    '<path d="M16 42 q8 7 16 0 z" fill="#1b1b1b"/>',
                    '<path d="M18 42 l2 4 l2 -4 M26 42 l2 4 l2 -4" fill="#fff"/>']
        else:  # a stone Jizo: a round shaved head, a red bib, a robe
            out += ['<path d="M12 60 Q12 32 24 32 Q36 32 36 60 Z" fill="#9e9e9e" stroke="#1b1b1b"/>',
                    '<circle cx="24" cy="22" r="9" fill="#bdbdbd" stroke="#1b1b1b"/>',
                    '<path d="M18 21 q2 1.5 4 0 M26 21 q2 1.5 4 0" fill="none" stroke="#1b1b1b"/>',
                    '<path d="M16 33 L32 33 L24 43 Z" fill="#d32f2f" stroke="#1b1b1b"/>',
                    '<rect x="22.5" y="36" width="3" height="22" fill="#757575"/>']
        label = "Oni" if oni else "Jizo"
        out.append(_text(WIDTH / 2, HEIGHT - 5, 8, label, ink, "bold"))
        out.append("</svg>")
        return out
    rank = c.rank
    special = c.special
    fill = {10: "#c62828", 30: "#d4a017", 40: "#b0bec5"}.get(c.id, "#1e3a5f")
    frame = "#eceff1" if c.id == 40 else paper
    out.append(f'<rect x="1" y="1" width="{WIDTH - 2}" height="{HEIGHT - 2}" rx="4" fill="{frame}" '
               f'stroke="{ink}" stroke-width="1.5"/>')
    if c.id == 40:  # the silver overprint of the I-shi
        out.append(f'<rect x="5" y="12" width="{WIDTH - 10}" height="{HEIGHT - 24}" rx="2" fill="none" '
                   f'stroke="#d4a017" stroke-width="1.2" stroke-dasharray="2 1.5"/>')
    if rank == 10:  # the ten: a standing figure, as on the Kabufuda ten
        out += [f'<circle cx="24" cy="24" r="6" fill="#f3d6b0" stroke="{ink}"/>',
                f'<path d="M12 64 L17 32 L31 32 L36 64 Z" fill="#1e3a5f" stroke="{ink}"/>',
                '<path d="M17 32 L24 44 L31 32" fill="none" stroke="#fbf6e9" stroke-width="1.5"/>',
                f'<rect x="16" y="15" width="16" height="4" fill="{ink}"/>']
    elif rank == 1:
        out.append(_baton(24, 38, fill, 1))
    else:
        out += [_baton(x, y, fill, rank) for x, y in _PIPS[rank]]
    corner = _KANJI[rank - 1]
    out.append(_text(7, 10, 7, corner, ink, "bold"))
    turned = _text(WIDTH - 7, HEIGHT - 10, 7, corner, ink, "bold")
    out.append(f'<g transform="rotate(180 {WIDTH - 7} {HEIGHT - 12})">{turned}</g>')
    if special:
        out.append(f'<circle cx="{WIDTH - 7}" cy="7" r="3" fill="{fill}" stroke="{ink}" stroke-width="0.6"/>')
    out.append("</svg>")
    return out


def faces_dir() -> Path | None:
    """Where the published hanafuda faces are (``docs/cards`` of the source tree), if they are there."""
    from hanafuda.rulebook.build import DocsNotFoundError, docs_dir

    try:
        d = docs_dir() / "cards"
    except DocsNotFoundError:
        return None
    return d if (d / "CREDITS").is_file() else None


def drawn_svg(c: BaseCard) -> str:
    """The picture drawn here from the card data (every Daini card; the stand-in of a hanafuda card)."""
    if isinstance(c, Card):
        return "\n".join(_hanafuda(c)) + "\n"
    if isinstance(c, DainiCard):
        return "\n".join(_daini(c)) + "\n"
    raise TypeError(f"no picture for {type(c).__name__}")


def card_svg(c: BaseCard) -> str:
    """The SVG picture of one card: the published face of a hanafuda card where the source tree has
    it, else the drawing of :func:`drawn_svg`."""
    faces = faces_dir() if isinstance(c, Card) else None
    if faces is not None and (faces / picture_name(c)).is_file():
        return (faces / picture_name(c)).read_text(encoding="utf-8")
    return drawn_svg(c)


def thumbnail_name(c: BaseCard) -> str:
    """The file name of a card's small raster copy (``thumbs/hf-80.webp``), for pages that embed them."""
    return f"hf-{c.id}.webp"


def card_image_uri(c: BaseCard) -> str:
    """A card's picture as a ``data:`` URI, for pages that must carry their pictures inside them
    (``hanafuda view``): the small copy of a published face (a few kilobytes, where the face itself
    is tens), else the SVG."""
    faces = faces_dir() if isinstance(c, Card) else None
    if faces is not None and (faces / "thumbs" / thumbnail_name(c)).is_file():
        data = (faces / "thumbs" / thumbnail_name(c)).read_bytes()
        return "data:image/webp;base64," + base64.b64encode(data).decode()
    return "data:image/svg+xml;base64," + base64.b64encode(card_svg(c).encode()).decode()


def kind_label(c: BaseCard) -> str:
    """The kind column of a deck table."""
    if isinstance(c, Card):
        k = _KIND_LABEL[c.kind]
        return f"{k} ({c.ribbon.value})" if c.ribbon is not None else k
    if isinstance(c, DainiCard):
        return "joker" if c.is_joker else ("special" if c.special else "plain")
    return ""

