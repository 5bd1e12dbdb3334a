"""Card pictures: small SVG drawings generated from the card data, no copied artwork.

A hanafuda card is drawn as a frame in its plant's colour with the month number at the top,
a sign for its kind in the middle (a sun disc for a Bright, a circle for an Animal, a ribbon in
its colour for a Ribbon, plain grass for a Chaff) and a short name at the bottom. A Daini card
(Kujuroku) shows its rank, with a mark for the special cards; the jokers say Oni and Jizo.

Every picture is a file named after the deck family and the card id (``hf-80.svg``,
``daini-0.svg``); its ``<title>`` is the card's full name.

>>> from hanafuda_spec.cards import card
>>> svg = card_svg(card(80))
>>> svg.startswith("<svg") and "Susuki Grass with Moon" in svg
True
>>> picture_name(card(80)), short_name(card(110))
('hf-80.svg', 'Rain Man')
"""

from __future__ import annotations

import base64
from html import escape

from hanafuda_spec.cards import BaseCard, Card, DainiCard, Kind, RibbonColour

__all__ = ["HEIGHT", "PLANT_COLOURS", "WIDTH", "card_image_uri", "card_svg", "picture_name", "short_name"]

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
    head = f"{c.month} {plant.split()[-1]}"
    out.append(_text(WIDTH / 2, 11, 8, head, "#fff", "bold", fit=WIDTH - 8 if len(head) > 8 else None))
    cx, cy = WIDTH / 2, 38
    if c.kind is Kind.BRIGHT:
        out.append(f'<circle cx="{cx}" cy="{cy}" r="12" fill="#e53935" stroke="#b71c1c"/>')
        out.append(_text(cx, cy + 4, 11, "20", "#fff", "bold"))
    elif c.kind is Kind.ANIMAL:
        out.append(f'<circle cx="{cx}" cy="{cy}" r="11" fill="none" stroke="{colour}" stroke-width="3"/>')
        out.append(_text(cx, cy + 4, 11, "10", colour, "bold"))
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


def _daini(c: DainiCard) -> list[str]:
    colour = "#b71c1c" if c.is_joker else ("#1a237e" if c.special else "#37474f")
    out = _frame(colour, f"{c.id} {c.name_en}")
    head = "joker" if c.is_joker else f"rank {c.rank}"
    out.append(_text(WIDTH / 2, 12, 9, head, "#fff", "bold"))
    if c.is_joker:
        out.append(_text(WIDTH / 2, 44, 13, "Oni" if c.id == 0 else "Jizo", colour, "bold"))
    else:
        out.append(_text(WIDTH / 2, 46, 24, str(c.rank), colour, "bold"))
        if c.special:
            out.append(f'<circle cx="{WIDTH - 9}" cy="24" r="4" fill="#f9a825"/>')
    label = short_name(c).split(" ")[0]
    out.append(_text(WIDTH / 2, HEIGHT - 7, 8, label[:10]))
    out.append("</svg>")
    return out


def card_svg(c: BaseCard) -> str:
    """The SVG picture of one card."""
    if isinstance(c, Card):
        return "\n".join(_hanafuda(c)) + "\n"
    if isinstance(c, DainiCard):
        return "\n".join(_daini(c)) + "\n"
    raise TypeError(f"no picture for {type(c).__name__}")


def kind_label(c: BaseCard) -> str:
    """The kind column of a deck table."""
    if isinstance(c, Card):
        k = _KIND_LABEL[c.kind]
        return f"{k} ({c.ribbon.value})" if c.ribbon is not None else k
    if isinstance(c, DainiCard):
        return "joker" if c.is_joker else ("special" if c.special else "plain")
    return ""


def card_image_uri(c: BaseCard) -> str:
    """A card's picture as a ``data:`` URI, for pages that must carry their pictures inside them
    (``hanafuda view``)."""
    return "data:image/svg+xml;base64," + base64.b64encode(card_svg(c).encode()).decode()
