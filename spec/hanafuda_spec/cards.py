"""Cards and decks: the canonical card identities every game and every record uses.

A hanafuda card's id is ``month * 10 + index``, the number the FudaWiki pages use for
their card images (RULES-DOSSIER §4.1). Index 0 is the month's top card, 1 the next,
2 and 3 the chaff (Willow and Paulownia follow their own order, see the table).
The Daini deck of Kujuroku has its own namespace (``DainiCard``): ``rank * 10 + copy``,
copy 0 being the *special* card of ranks 1, 3 and 4, with the jokers Oni (id 0) and
Jizo (id 1).

A card here is only its printed identity. What a card *does* in a game (the sake cup
counting as chaff in Koi-Koi, the willows being wild in Kusuri-gui) belongs to that
game's rules.

>>> card(80).slug, card("susuki_moon").id
('susuki_moon', 80)
>>> len(HANAFUDA), len(KUSURIGUI), len(DAINI), len(DAINI_JIZO)
(48, 44, 41, 42)
>>> KUSURIGUI.parse("72")
Traceback (most recent call last):
...
hanafuda_spec.cards.UnknownCardError: card '72' is not in the kusurigui deck
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

__all__ = [
    "DAINI",
    "DAINI_JIZO",
    "DECKS",
    "HANAFUDA",
    "KUSURIGUI",
    "Card",
    "DainiCard",
    "Deck",
    "Kind",
    "RibbonColour",
    "UnknownCardError",
    "card",
]


class Kind(enum.Enum):
    """The four standard kinds of hanafuda card (FW-SUITS, FW-HA)."""

    BRIGHT = "bright"  #: 光 hikari, 20-point cards
    ANIMAL = "animal"  #: タネ tane, 10-point cards
    RIBBON = "ribbon"  #: 短冊 tanzaku, 5-point cards
    CHAFF = "chaff"  #: カス kasu, 1-point cards


class RibbonColour(enum.Enum):
    """Which ribbon a ribbon card shows."""

    POETRY = "poetry"  #: red ribbon with writing (akatan)
    BLUE = "blue"  #: blue/purple ribbon (aotan)
    PLAIN = "plain"  #: red ribbon without writing (kusa, "grass")


class UnknownCardError(ValueError):
    """A card id or slug that is not in the deck being used."""


@dataclass(frozen=True, order=True)
class BaseCard:
    """What every card of every deck has: an id unique in its deck, a slug and a suit.

    ``suit`` is what cards match on in fishing games: the month for hanafuda, the rank
    for Daini (0 for the jokers, which match nothing by suit). ``bit`` is the card's
    position in its deck's canonical order, used for bit-mask card sets.
    """

    id: int
    slug: str = field(compare=False)
    suit: int = field(compare=False)
    bit: int = field(compare=False)
    name_en: str = field(compare=False)
    name_ja: str = field(compare=False)
    #: This card as a one-bit card set, ``1 << bit``: stored once rather than computed on each use
    #: (building the mask of a pile from its cards is the largest cost of scoring a list of cards).
    mask: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "mask", 1 << self.bit)

    def __str__(self) -> str:
        return str(self.id)


@dataclass(frozen=True, order=True)
class Card(BaseCard):
    """One of the 48 hanafuda cards.

    >>> c = card(90)
    >>> c.month, c.kind, c.name_en
    (9, <Kind.ANIMAL: 'animal'>, 'Chrysanthemum with Sake Cup')
    """

    kind: Kind = field(compare=False, default=Kind.CHAFF)
    ribbon: RibbonColour | None = field(compare=False, default=None)

    @property
    def month(self) -> int:
        """The month, 1 (Pine) to 12 (Paulownia)."""
        return self.suit

    @property
    def index(self) -> int:
        """Position within the month, 0 to 3."""
        return self.id % 10


@dataclass(frozen=True, order=True)
class DainiCard(BaseCard):
    """One card of the Daini (one-suit) deck used by Kujuroku (RULES-DOSSIER §4.4).

    >>> DAINI.parse("oni").is_joker, DAINI.parse("40").special
    (True, True)
    """

    special: bool = field(compare=False, default=False)

    @property
    def rank(self) -> int:
        """The number 1 to 10; 0 for the jokers (Oni, Jizo)."""
        return self.suit

    @property
    def is_joker(self) -> bool:
        return self.suit == 0


MONTHS = (
    ("pine", "Pine", "松"),
    ("plum", "Plum Blossoms", "梅"),
    ("cherry", "Cherry Blossoms", "桜"),
    ("wisteria", "Wisteria", "藤"),
    ("iris", "Iris", "菖蒲"),
    ("peony", "Peony", "牡丹"),
    ("clover", "Bush Clover", "萩"),
    ("susuki", "Susuki Grass", "芒"),
    ("chrys", "Chrysanthemum", "菊"),
    ("maple", "Maple", "紅葉"),
    ("willow", "Willow", "柳"),
    ("paulownia", "Paulownia", "桐"),
)

B, A, R, C = Kind.BRIGHT, Kind.ANIMAL, Kind.RIBBON, Kind.CHAFF
P, BL, PL = RibbonColour.POETRY, RibbonColour.BLUE, RibbonColour.PLAIN

# id, slug, kind, ribbon colour, English name, Japanese name (RULES-DOSSIER §4.2)
_TABLE: tuple[tuple[int, str, Kind, RibbonColour | None, str, str], ...] = (
    (10, "pine_crane", B, None, "Pine with Crane", "松に鶴"),
    (11, "pine_poetry", R, P, "Pine with Poetry Ribbon", "松に赤短"),
    (12, "pine_chaff_1", C, None, "Pine Chaff", "松のカス"),
    (13, "pine_chaff_2", C, None, "Pine Chaff", "松のカス"),
    (20, "plum_warbler", A, None, "Plum Blossoms with Bush Warbler", "梅に鶯"),
    (21, "plum_poetry", R, P, "Plum Blossoms with Poetry Ribbon", "梅に赤短"),
    (22, "plum_chaff_1", C, None, "Plum Chaff", "梅のカス"),
    (23, "plum_chaff_2", C, None, "Plum Chaff", "梅のカス"),
    (30, "cherry_curtain", B, None, "Cherry Blossoms with Curtain", "桜に幕"),
    (31, "cherry_poetry", R, P, "Cherry Blossoms with Poetry Ribbon", "桜に赤短"),
    (32, "cherry_chaff_1", C, None, "Cherry Chaff", "桜のカス"),
    (33, "cherry_chaff_2", C, None, "Cherry Chaff", "桜のカス"),
    (40, "wisteria_cuckoo", A, None, "Wisteria with Cuckoo", "藤に不如帰"),
    (41, "wisteria_ribbon", R, PL, "Wisteria with Ribbon", "藤に短冊"),
    (42, "wisteria_chaff_1", C, None, "Wisteria Chaff", "藤のカス"),
    (43, "wisteria_chaff_2", C, None, "Wisteria Chaff", "藤のカス"),
    (50, "iris_bridge", A, None, "Iris with Eight-Plank Bridge", "菖蒲に八橋"),
    (51, "iris_ribbon", R, PL, "Iris with Ribbon", "菖蒲に短冊"),
    (52, "iris_chaff_1", C, None, "Iris Chaff", "菖蒲のカス"),
    (53, "iris_chaff_2", C, None, "Iris Chaff", "菖蒲のカス"),
    (60, "peony_butterflies", A, None, "Peony with Butterflies", "牡丹に蝶"),
    (61, "peony_blue", R, BL, "Peony with Blue Ribbon", "牡丹に青短"),
    (62, "peony_chaff_1", C, None, "Peony Chaff", "牡丹のカス"),
    (63, "peony_chaff_2", C, None, "Peony Chaff", "牡丹のカス"),
    (70, "clover_boar", A, None, "Bush Clover with Boar", "萩に猪"),
    (71, "clover_ribbon", R, PL, "Bush Clover with Ribbon", "萩に短冊"),
    (72, "clover_chaff_1", C, None, "Bush Clover Chaff", "萩のカス"),
    (73, "clover_chaff_2", C, None, "Bush Clover Chaff", "萩のカス"),
    (80, "susuki_moon", B, None, "Susuki Grass with Moon", "芒に月"),
    (81, "susuki_geese", A, None, "Susuki Grass with Geese", "芒に雁"),
    (82, "susuki_chaff_1", C, None, "Susuki Chaff", "芒のカス"),
    (83, "susuki_chaff_2", C, None, "Susuki Chaff", "芒のカス"),
    (90, "chrys_sake", A, None, "Chrysanthemum with Sake Cup", "菊に盃"),
    (91, "chrys_blue", R, BL, "Chrysanthemum with Blue Ribbon", "菊に青短"),
    (92, "chrys_chaff_1", C, None, "Chrysanthemum Chaff", "菊のカス"),
    (93, "chrys_chaff_2", C, None, "Chrysanthemum Chaff", "菊のカス"),
    (100, "maple_deer", A, None, "Maple with Deer", "紅葉に鹿"),
    (101, "maple_blue", R, BL, "Maple with Blue Ribbon", "紅葉に青短"),
    (102, "maple_chaff_1", C, None, "Maple Chaff", "紅葉のカス"),
    (103, "maple_chaff_2", C, None, "Maple Chaff", "紅葉のカス"),
    (110, "willow_rainman", B, None, "Willow with Rain Man (Ono no Michikaze)", "柳に小野道風"),
    (111, "willow_swallow", A, None, "Willow with Swallow", "柳に燕"),
    (112, "willow_ribbon", R, PL, "Willow with Ribbon", "柳に短冊"),
    (113, "willow_lightning", C, None, "Willow with Lightning", "柳に雷"),
    (120, "paulownia_phoenix", B, None, "Paulownia with Phoenix", "桐に鳳凰"),
    (121, "paulownia_chaff_yellow", C, None, "Paulownia Yellow-bottom Chaff", "桐の黄カス"),
    (122, "paulownia_chaff_1", C, None, "Paulownia Chaff", "桐のカス"),
    (123, "paulownia_chaff_2", C, None, "Paulownia Chaff", "桐のカス"),
)


def _hanafuda_cards() -> tuple[Card, ...]:
    cards = []
    for cid, slug, kind, ribbon, en, ja in _TABLE:
        month, index = divmod(cid, 10)
        cards.append(
            Card(
                id=cid,
                slug=slug,
                suit=month,
                bit=(month - 1) * 4 + index,
                name_en=en,
                name_ja=ja,
                kind=kind,
                ribbon=ribbon,
            )
        )
    return tuple(cards)


_DAINI_NAMES = {
    1: ("Bakatsun", "ばかつん"),
    2: ("Ni", "ニ"),
    3: ("Bakasan", "ばかさん"),
    4: ("Bakashi", "ばかし"),
    5: ("Go", "ゴ"),
    6: ("Roku", "ロク"),
    7: ("Hichi", "ヒチ"),
    8: ("Hachi", "ハチ"),
    9: ("Ku", "ク"),
    10: ("Doh", "ドウ"),
}
_DAINI_SLUG = {
    1: "bakatsun",
    2: "ni",
    3: "bakasan",
    4: "bakashi",
    5: "go",
    6: "roku",
    7: "hichi",
    8: "hachi",
    9: "ku",
    10: "doh",
}


def _daini_cards(jizo: bool) -> tuple[DainiCard, ...]:
    cards = [
        DainiCard(
            id=0, slug="oni", suit=0, bit=40, name_en="Oni-fuda (demon joker)", name_ja="鬼札", special=True
        )
    ]
    if jizo:
        cards.append(
            DainiCard(
                id=1,
                slug="jizo",
                suit=0,
                bit=41,
                name_en="Jizo-fuda (Buddha joker)",
                name_ja="地蔵札",
                special=True,
            )
        )
    for rank in range(1, 11):
        for copy in range(4):
            en, ja = _DAINI_NAMES[rank]
            special = copy == 0 and rank in (1, 3, 4)
            if rank == 1 and copy == 0:
                slug, en, ja = "itsun", "I-tsun (special 1)", "いつん"
            elif rank == 4 and copy == 0:
                slug, en, ja = "ishi", "I-shi (special 4)", "いし"
            elif rank == 3 and copy == 0:
                slug, en = "bakasan_special", "Bakasan (special 3)"
            elif rank in (1, 3, 4):
                slug = f"{_DAINI_SLUG[rank]}_{copy}"
            else:
                slug = f"{_DAINI_SLUG[rank]}_{copy}"
            cards.append(
                DainiCard(
                    id=rank * 10 + copy,
                    slug=slug,
                    suit=rank,
                    bit=(rank - 1) * 4 + copy,
                    name_en=en,
                    name_ja=ja,
                    special=special,
                )
            )
    return tuple(sorted(cards))


@dataclass(frozen=True)
class Deck:
    """A named deck: its cards in canonical (ascending id) order.

    The canonical order is the order a shuffle starts from (see ``hanafuda_spec.shuffle``).
    """

    name: str
    cards: tuple[BaseCard, ...]

    def __post_init__(self) -> None:
        ids = [c.id for c in self.cards]
        if ids != sorted(set(ids)):
            raise ValueError(f"deck {self.name}: card ids must be unique and ascending")

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[BaseCard]:
        return iter(self.cards)

    def __contains__(self, item: object) -> bool:
        return item in self.cards

    @functools.cached_property
    def ids(self) -> tuple[int, ...]:
        """The card ids in canonical order: what a shuffle starts from (see ``hanafuda_spec.shuffle``)."""
        return tuple([c.id for c in self.cards])

    @property
    def full_mask(self) -> int:
        m = 0
        for c in self.cards:
            m |= c.mask
        return m

    def parse(self, text: str) -> BaseCard:
        """A card of this deck from its id (``"80"``) or slug (``"susuki_moon"``)."""
        key = text.strip()
        found = self._by_text().get(key.lower())
        if found is None:
            raise UnknownCardError(f"card {text!r} is not in the {self.name} deck")
        return found

    def by_id(self, cid: int) -> BaseCard:
        found = self._by_text().get(str(cid))
        if found is None:
            raise UnknownCardError(f"card {cid!r} is not in the {self.name} deck")
        return found

    def parse_many(self, texts: Iterable[str]) -> tuple[BaseCard, ...]:
        """Parse several cards; a card given twice is an error (nothing is silently merged)."""
        out: list[BaseCard] = []
        seen: set[int] = set()
        for t in texts:
            c = self.parse(t)
            if c.id in seen:
                raise UnknownCardError(f"card {t!r} is given twice")
            seen.add(c.id)
            out.append(c)
        return tuple(out)

    def cards_of_mask(self, mask: int) -> tuple[BaseCard, ...]:
        return tuple(c for c in self.cards if mask >> c.bit & 1)

    def _by_text(self) -> dict[str, BaseCard]:
        cache = _PARSE_CACHE.get(self.name)
        if cache is None:
            cache = {}
            for c in self.cards:
                cache[str(c.id)] = c
                cache[c.slug] = c
            _PARSE_CACHE[self.name] = cache
        return cache


_PARSE_CACHE: dict[str, dict[str, BaseCard]] = {}

HANAFUDA_CARDS: tuple[Card, ...] = _hanafuda_cards()
HANAFUDA = Deck("hanafuda", HANAFUDA_CARDS)
#: Kusuri-gui removes the Bush Clover and Maple chaff (SEED-000; KUBO): 44 cards.
KUSURIGUI = Deck("kusurigui", tuple(c for c in HANAFUDA_CARDS if c.id not in (72, 73, 102, 103)))
#: The Daini deck: 40 numbered cards and the Oni-fuda (SEED-001): 41 cards.
DAINI = Deck("daini", _daini_cards(jizo=False))
#: The Daini deck with the Jizo-fuda variant (SEED-001): 42 cards.
DAINI_JIZO = Deck("daini-jizo", _daini_cards(jizo=True))

DECKS: dict[str, Deck] = {d.name: d for d in (HANAFUDA, KUSURIGUI, DAINI, DAINI_JIZO)}


def card(key: int | str) -> Card:
    """A hanafuda card by id or slug."""
    c = HANAFUDA.parse(str(key))
    assert isinstance(c, Card)
    return c


def hanafuda_mask(ids: Iterable[int]) -> int:
    """A bit-mask card set of hanafuda card ids."""
    m = 0
    for i in ids:
        m |= card(i).mask
    return m
