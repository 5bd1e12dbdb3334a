"""Musashino-Bana (武蔵野花): rule catalogue, decisions, options and the dekiyaku table.

The seed (SEED-003) is the FudaWiki page as it stood while its dekiyaku table was still being
written: the table breaks off after rows copied from Hana-Awase. The same author completed the
table later that day (FW-MB, revision ``6ffb2278``); that completed table is the rule here (gaps
MB-1 to MB-4), and the seed's trailing rows are kept, as data, in :data:`SEED_ROWS_NOT_USED`.
Play is Hana-Awase's (FW-HA) and the scoring is Taiyaku's (FW-TY), as the seed says.

Glossary: *dekiyaku* (出来役, "built combinations") are the scoring sets of captured cards;
an *insta-win* dekiyaku (the source's "Insta-Win Yaku") stops the round at once; the *oya* is
the dealer, who also plays first; a *side* owns a capture pile: a player in the three-player
game, a team of two partners in the four-player game.

>>> [y.id for y in score_pile(yaku_table(SPEC.resolve()), [10, 80, 113, 120])]
['four-brights']
>>> score_pile(yaku_table(SPEC.resolve()), [10, 30, 80, 110, 120])
(ScoredYaku(id='five-kings', points=8),)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from hanafuda_spec.catalogue import (
    Citation,
    Citer,
    Evidence,
    GameSpec,
    Gap,
    OptionLink,
    OptionSpec,
    Rule,
    RulesetSpec,
    Topic,
)
from hanafuda_spec.invariants import GameProfile, Step
from hanafuda_spec.terms import INTS, B, N, Ops
from hanafuda_spec.yaku import ScoredYaku

__all__ = [
    "BANQUETS",
    "CAP",
    "DEALS",
    "INSTA_WIN",
    "MUSASHINO",
    "PROFILE",
    "SEED_ROWS_NOT_USED",
    "SPEC",
    "STORM_CARDS",
    "STORM_VICTIMS",
    "SUN_CARD",
    "DealPlan",
    "Dekiyaku",
    "SeedRow",
    "dealer_draw",
    "score_pile",
    "settlement",
    "side_of",
    "sides",
    "turn_order",
    "yaku_table",
]

S, LR, RS, D = Evidence.SEED, Evidence.LATER_REVISION, Evidence.RELATED_SOURCE, Evidence.DECISION
T = Topic

seed = Citer("SEED-003")
fw = Citer("FW-MB")
ha = Citer("FW-HA")
ty = Citer("FW-TY")

def dossier(quote: str = "") -> Citation:
    return Citation("DOSSIER", "3.4", quote)


# -- card data ---------------------------------------------------------------------------------

#: Cards whose capture raises the Storm (the Rain Man and the Lightning).
STORM_CARDS = frozenset({110, 113})
#: Storm Rule, version "cards": an opponent's Full Moon, Curtain and Cherry Poetry Ribbon stop counting.
STORM_VICTIMS = frozenset({80, 30, 31})
#: Storm Rule, version "banquets": an opponent's Moon Banquet and Flower Banquet are void.
BANQUETS = ("moon-banquet", "flower-banquet")
#: The Sun Rule's card: the Crane (with the sun).
SUN_CARD = 10
#: The dekiyaku that stop the round.
INSTA_WIN = ("five-kings", "seven-red-ribbons")


@dataclass(frozen=True)
class DealPlan:
    """A deal: cards per hand, to the field, to the draw pile, and the packets (decision MB-19).

    ``packets`` lists rounds of dealing; in each round every player, from the one to the
    dealer's right round to the dealer, gets ``hand`` cards, then the field gets ``field``.
    """

    players: int
    hand: int
    field: int
    stock: int
    packets: tuple[tuple[int, int], ...]


#: The three deal configurations by value of the ``players`` option (MB-DEAL-1, MB-DEAL-2).
# The options' values, one enum each: the OptionSpecs below take their choices from them.


class Players(enum.StrEnum):
    """The values of option ``players``."""

    N3 = "3"
    N4 = "4"
    N4_NO_FIELD = "4-no-field"


class Length(enum.StrEnum):
    """The values of option ``length``."""

    N12 = "12"
    N6 = "6"
    N3 = "3"


class FourBrights(enum.StrEnum):
    """The values of option ``four_brights``."""

    LIGHTNING = "lightning"
    CURTAIN = "curtain"


class InstaWinValue(enum.StrEnum):
    """The values of option ``insta_win_value``."""

    N8 = "8"
    N4 = "4"
    N12 = "12"
    N16 = "16"


class PaymentCap(enum.StrEnum):
    """The values of option ``payment_cap``."""

    N8 = "8"
    NONE = "none"


class InstaWinCheck(enum.StrEnum):
    """The values of option ``insta_win_check``."""

    TURN = "turn"
    CAPTURE = "capture"


class Storm(enum.StrEnum):
    """The values of option ``storm``."""

    OFF = "off"
    CARDS = "cards"
    BANQUETS = "banquets"


class Sun(enum.StrEnum):
    """The values of option ``sun``."""

    OFF = "off"
    AFTER = "after"
    ANY_ORDER = "any-order"


DEALS: Mapping[str, DealPlan] = {
    Players.N3: DealPlan(3, 7, 6, 21, ((4, 3), (3, 3))),
    Players.N4: DealPlan(4, 5, 8, 20, ((3, 4), (2, 4))),
    Players.N4_NO_FIELD: DealPlan(4, 6, 0, 24, ((3, 0), (3, 0))),
}


def sides(players: str) -> int:
    """How many capture piles (sides) there are: one per player, or two teams."""
    return 3 if players == "3" else 2


def side_of(players: str, seat: int) -> int:
    """The side a seat belongs to: the seat itself, or its team (seats 0 and 2 are team 0,
    seats 1 and 3 team 1: partners sit opposite, decision MB-16).

    >>> [side_of("4", s) for s in range(4)], [side_of("3", s) for s in range(3)]
    ([0, 1, 0, 1], [0, 1, 2])
    """
    return seat if players == "3" else seat % 2


def dealer_draw(draws: Sequence[int]) -> int:
    """Who deals first when each player draws one card (the index into ``draws``): the earliest
    month, and within a month the card with the lower index, index 0 ranking highest (decision
    MB-9). Since card ids are ``month * 10 + index``, that is the lowest id; no tie is possible.

    >>> dealer_draw([42, 11, 13])
    1
    """
    if not draws:
        raise ValueError("nobody drew a card")
    if len(set(draws)) != len(draws):
        raise ValueError("two players cannot draw the same card")
    return min(range(len(draws)), key=lambda i: (draws[i] // 10, draws[i] % 10))


# -- the dekiyaku table --------------------------------------------------------------------------


@dataclass(frozen=True)
class Dekiyaku:
    """One row of the Musashino dekiyaku table.

    The dekiyaku is formed when the pile holds at least one card of *each* of ``parts``:
    ``({10}, {80})`` needs both cards, ``({90}, {30, 31})`` the Sake Cup and either cherry card.
    A pile holding more than one card of a part still forms it once (decisions MB-20, MB-21).
    ``stops_round`` marks the insta-win dekiyaku; ``absorbs`` names dekiyaku that do not count
    when this one is formed (Four Brights absorbs Three Brights, MB-11). ``cards`` is every card
    that can take part.
    """

    id: str
    name: str
    name_ja: str
    points: int
    parts: tuple[frozenset[int], ...]
    rule: str
    stops_round: bool = False
    absorbs: tuple[str, ...] = ()
    cards: frozenset[int] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", frozenset().union(*self.parts))

    def formed(self, pile: frozenset[int] | set[int]) -> bool:
        """Whether ``pile`` forms this dekiyaku (plain set arithmetic, the obvious definition)."""
        return all(part & pile for part in self.parts)

    @property
    def condition(self) -> str:
        """The condition in words.

        >>> yaku_table(SPEC.resolve())[16].condition
        'card 90 and one of 30, 31'
        """
        single = sorted(next(iter(p)) for p in self.parts if len(p) == 1)
        multi = [p for p in self.parts if len(p) > 1]
        words = []
        if single:
            words.append(f"card{'s' if len(single) > 1 else ''} {', '.join(map(str, single))}")
        words += [f"one of {', '.join(map(str, sorted(p)))}" for p in multi]
        text = " and ".join(words)
        if self.stops_round:
            text += "; stops the round"
        if self.absorbs:
            text += f"; absorbs {', '.join(self.absorbs)}"
        return text


def _each(*ids: int) -> tuple[frozenset[int], ...]:
    return tuple(frozenset({i}) for i in ids)


def yaku_table(values: Mapping[str, str]) -> tuple[Dekiyaku, ...]:
    """The dekiyaku table (FW-MB, the completed revision) for resolved option ``values``.

    ``insta_win_value`` sets the worth of the two insta-win dekiyaku; ``four_brights=curtain``
    puts the Curtain (30) in Four Brights instead of the Lightning (113).

    >>> t = yaku_table(SPEC.resolve(None, {"four_brights": "curtain"}))
    >>> sorted(next(y for y in t if y.id == "four-brights").cards)
    [10, 30, 80, 120]
    """
    insta = int(values["insta_win_value"])
    fourth = 30 if values["four_brights"] == "curtain" else 113
    return (
        Dekiyaku("five-kings", "Five Kings", "五王", insta, _each(10, 30, 80, 110, 120), "MB-YAKU-2",
                 stops_round=True),
        Dekiyaku("seven-red-ribbons", "Seven Red Ribbons", "七夕", insta, _each(11, 21, 31, 41, 51, 71, 112),
                 "MB-YAKU-3", stops_round=True),
        Dekiyaku("four-brights", "Four Brights", "四光", 4, _each(10, 80, fourth, 120), "MB-YAKU-4",
                 absorbs=("three-brights",)),
        Dekiyaku("kemari-court", "Kemari Court", "鞠懸", 4, _each(10, 30, 100, 110), "MB-YAKU-5"),
        Dekiyaku("three-brights", "Three Brights (Sun-Moon-Star)", "三光", 2, _each(10, 80, 120), "MB-YAKU-6"),
        Dekiyaku("takasago", "Takasago", "高砂", 2, _each(10, 60, 90), "MB-YAKU-7"),
        Dekiyaku("front-sugawara", "Front Sugawara", "表菅原", 2, _each(10, 20, 30), "MB-YAKU-8"),
        Dekiyaku("back-sugawara", "Back Sugawara", "裡菅原", 2, _each(11, 21, 31), "MB-YAKU-9"),
        Dekiyaku("purple-ribbons", "Purple Ribbons", "紫短", 2, _each(61, 91, 101), "MB-YAKU-10"),
        Dekiyaku("large-birds", "Large Birds", "大鳥", 2, _each(10, 81, 120), "MB-YAKU-11"),
        Dekiyaku("small-birds", "Small Birds", "小鳥", 2, _each(20, 40, 111), "MB-YAKU-12"),
        Dekiyaku("crop-pests", "Crop Pests", "野荒し", 2, _each(70, 100, 81), "MB-YAKU-13"),
        Dekiyaku("three-red-flowers", "Three Red Flowers", "三紅", 2,
                 (frozenset({22, 23}), frozenset({62, 63}), frozenset({72, 73})), "MB-YAKU-14"),
        Dekiyaku("three-purple-flowers", "Three Purple Flowers", "三紫", 2,
                 (frozenset({42, 43}), frozenset({52, 53}), frozenset({122, 123})), "MB-YAKU-15"),
        Dekiyaku("coat-of-arms", "Coat of Arms", "菊桐", 1, _each(90, 120), "MB-YAKU-16"),
        Dekiyaku("moon-banquet", "Moon Banquet", "月の宴", 1, _each(90, 80), "MB-YAKU-17"),
        Dekiyaku("flower-banquet", "Flower Banquet", "花の宴", 1, (frozenset({90}), frozenset({30, 31})),
                 "MB-YAKU-18"),
        Dekiyaku("autumn-leaves", "Autumn Leaves", "紅葉の賀", 1, (frozenset({90}), frozenset({100, 101})),
                 "MB-YAKU-19"),
        Dekiyaku("cuckoo-with-moon", "Cuckoo with Moon", "月ホト", 1, _each(40, 80), "MB-YAKU-20"),
        Dekiyaku("butterflies-with-flowers", "Butterflies with Flowers", "蝶花", 1, _each(60, 30), "MB-YAKU-21"),
        Dekiyaku("boar-with-peony", "Boar with Peony", "獅子牡丹", 1, _each(70, 60), "MB-YAKU-22"),
        Dekiyaku("plum-pot", "Plum Blossom Pot", "梅壷", 1, _each(20, 21, 22, 23), "MB-YAKU-23"),
        Dekiyaku("wisteria-pot", "Wisteria Pot", "藤壷", 1, _each(40, 41, 42, 43), "MB-YAKU-23"),
        Dekiyaku("iris-bridge", "Iris Bridge", "八ツ橋", 1, _each(50, 51, 52, 53), "MB-YAKU-23"),
        Dekiyaku("paulownia-pot", "Paulownia Pot", "桐壷", 1, _each(120, 121, 122, 123), "MB-YAKU-23"),
    )


def score_pile(table: Iterable[Dekiyaku], pile: Iterable[int]) -> tuple[ScoredYaku, ...]:
    """The dekiyaku a pile scores, in table order (MB-YAKU-1): if an insta-win dekiyaku is formed,
    only the insta-win dekiyaku count; otherwise every formed dekiyaku counts, except those a
    formed dekiyaku absorbs. This is the slow, obvious definition; the reference uses bit masks.

    >>> t = yaku_table(SPEC.resolve())
    >>> [(y.id, y.points) for y in score_pile(t, [10, 80, 120, 90])]
    [('three-brights', 2), ('coat-of-arms', 1), ('moon-banquet', 1)]
    """
    p = frozenset(pile)
    rows = [y for y in table if y.formed(p)]
    insta = [y for y in rows if y.stops_round]
    if insta:
        rows = insta
    absorbed = {a for y in rows for a in y.absorbs}
    return tuple(ScoredYaku(y.id, y.points) for y in rows if y.id not in absorbed)


@dataclass(frozen=True)
class SeedRow:
    """A row of the seed's unfinished table that the completed table dropped (MB-1 to MB-4)."""

    name: str
    name_ja: str
    value: int
    cards: str
    why: str
    gap: str


#: The seed's trailing rows, kept so the decisions page can show what was left out and why.
SEED_ROWS_NOT_USED = (
    SeedRow("Pine, Paulownia, Moon", "松桐坊主", 20, "10, 120, 80",
            "Listed under the 2-point three-card heading but valued 20, Hana-Awase's value; the same three "
            "cards as Three Brights; deleted by the completed revision.", "MB-1"),
    SeedRow("Seven Ribbons", "七短", 40, "any 7 Ribbons other than the Willow Ribbon (112)",
            "Hana-Awase's row and value; conflicts with the insta-win Seven Red Ribbons, which includes 112; "
            "deleted by the completed revision.", "MB-4"),
    SeedRow("Six Ribbons", "六短", 30, "any 6 Ribbons other than the Willow Ribbon (112)",
            "Hana-Awase's row and value, under a 'Ribbon Yaku' heading the completed revision does not have.",
            "MB-2"),
    SeedRow("Poetry Ribbons", "赤短", 40, "11, 21, 31",
            "Hana-Awase's row and value; the same three cards as Back Sugawara, so with stacking one set would "
            "score twice; deleted by the completed revision.", "MB-3"),
)


# -- gaps and decisions ------------------------------------------------------------------------

_SEED_ROWS_TEXT = "; ".join(f"{r.name} ({r.name_ja}) worth {r.value}: {r.cards}" for r in SEED_ROWS_NOT_USED)

GAPS = (
    Gap("MB-1", "The seed lists Pine-Paulownia-Moon (10, 120, 80) worth 20 under the heading of 2-point "
        "three-card dekiyaku. Which is right, and is it a Musashino dekiyaku at all?",
        "SEED-003 has the row with value 20; 20 is its value in Hana-Awase's yaku list (FW-HA). FW-MB, saved "
        "by the same author about six hours later the same day, deletes the row.",
        "Not a Musashino dekiyaku: the completed table of FW-MB is used and the row is dropped.",
        "The row was copied from Hana-Awase while the table was being written; its value does not fit its "
        "heading and its cards duplicate Three Brights. The author's own completed revision removes it."),
    Gap("MB-2", "The seed's table ends with a 'Ribbon Yaku' group (Seven Ribbons 40, Six Ribbons 30, Poetry "
        "Ribbons 40) and the words 'under construction'. What is the rest of the table?",
        "Seed rows not used, as the seed gives them: " + _SEED_ROWS_TEXT + ". FW-MB removes these rows and "
        "completes the table (Large Birds, Small Birds, Crop Pests, the two flower dekiyaku, the 1-point "
        "pairs and the four-of-a-kind pots).",
        "The completed table of FW-MB is the default and only table (MB-YAKU-1 to MB-YAKU-23). The seed's "
        "trailing rows are not used; they are kept as data (SEED_ROWS_NOT_USED) for the decisions page.",
        "The trailing rows carry Hana-Awase's values (40/30/40, FW-HA), not the 1-8 scale of every other row; "
        "the same author finished the table the same day and took them out. An option restoring them would "
        "double-count card sets (MB-3) and contradict the insta-win Seven Red Ribbons (MB-4)."),
    Gap("MB-3", "Two rows of the seed name the same cards: Pine-Paulownia-Moon and Three Brights (10, 80, 120); "
        "Poetry Ribbons and Back Sugawara (11, 21, 31). With 'all Yaku stack' they would count twice.",
        "SEED-003 has both pairs; FW-MB keeps only Three Brights and Back Sugawara.",
        "Each card set scores under one name only: the duplicates are the copied rows dropped by MB-1 and MB-2.",
        "Resolved by the completed revision; no reading of the seed gives a reason to pay one set twice."),
    Gap("MB-4", "The copied Seven Ribbons row excludes the Willow Ribbon (112); the insta-win Seven Red Ribbons "
        "requires it.",
        "SEED-003 has both rows; FW-MB keeps only Seven Red Ribbons (11, 21, 31, 41, 51, 71, 112).",
        "Seven Red Ribbons, with 112, is the rule; the Seven Ribbons row is not used.",
        "The exclusion of 112 is Hana-Awase's (FW-HA); the completed revision drops that row."),
    Gap("MB-5", "What is an insta-win dekiyaku worth?",
        "SEED-003 and FW-MB give 8 and warn that the amount is only assumed; FW-TY's round-stopping dekiyaku "
        "take every chip a player has set aside, 8 at most.",
        "8 by default; option insta_win_value selects 4, 12 or 16, values of ours (no source names them).",
        "8 is the source's own assumption and equals Taiyaku's 'take all chips' under the 8-chip limit. "
        "Re-examined in session 2 (issue 15): the other values are kept as options, marked as ours, because the "
        "seed itself calls the 8 an assumption, so a group may settle on another; 12 and 16 only matter with "
        "payment_cap=none.",
        ("insta_win_value",)),
    Gap("MB-6", "Who pays for an insta-win, and is there a limit on what a side can lose in a round?",
        "SEED-003: the loser(s) pay the winner 8. FW-MB: the losing players or the losing team pay. FW-TY: "
        "every player sets aside 8 chips per round and cannot lose more; a shortfall is not owed.",
        "Every losing side (each other player, or the other team) pays the winner's side. By default no side "
        "pays more than 8 in a round (payment_cap=8), for insta-wins and ordinary wins alike; payment_cap=none "
        "removes the limit. In the team game a team pays and receives as one side and both partners' scores "
        "move by the team's amount.",
        "The seed adopts Taiyaku's scoring, which includes the 8-chip limit, and the assumed insta-win value of "
        "8 is that limit: without it an ordinary win could pay more than the insta-win ranked above it. "
        "Re-examined in session 2 (issue 15) and kept, although the cap changes about 15% of four-player rounds: "
        "SEED-003 §Setup says Taiyaku's scoring system is assumed, the cap is part of that system (FW-TY "
        "§End of Round and Scoring), and the seed's 'difference of their score' reads as that system's payment; "
        "payment_cap=none plays the difference uncapped.",
        ("payment_cap",)),
    Gap("MB-7", "The side with the most dekiyaku points wins: what if two or more sides tie for the most, or "
        "nobody scores?",
        "SEED-003 and FW-MB are silent. FW-TY: a tie for first goes to the leader, or the nearest player to "
        "the leader's right, and losers pay only that player; if everyone ties the leader wins and nothing is "
        "paid. In Musashino the dealer plays first, so the dealer is the leader.",
        "FW-TY's rule with the dealer as leader: among the sides tied for the top total, the winner is the one "
        "that comes first in turn order starting with the dealer. Every other side pays the difference, so a "
        "co-leader pays nothing; if all sides tie (nobody scoring included) the dealer's side wins and nothing "
        "is paid.",
        "It is the rule of the game whose scoring the source adopts; only the leader has to be mapped."),
    Gap("MB-8", "Who deals next, in particular in the team game and after a tie?",
        "SEED-003: the winner of the round deals next. Ties: MB-7. In the team game a team wins.",
        "The winner deals next (the declared winner after MB-7). In the team game the deal stays with the "
        "dealer when the dealer's team wins, and otherwise passes to the next player in turn order, who is on "
        "the winning team. After a misdeal the same dealer deals again.",
        "The team rule picks the winning team's member who comes first in turn order from the dealer, the same "
        "tie-break as MB-7."),
    Gap("MB-9", "The first-dealer draw breaks a tie of months by 'the highest-ranked card', but Musashino has "
        "no card points or ranks.",
        "SEED-003 copies the dealer draw of FW-HA, where rank means card points (20/10/5/1).",
        "The draw is outside the engine: a match names its first dealer (seat 0 unless given). For players, "
        "dealer_draw() states the procedure: the earliest month, then the lower index within the month "
        "(index 0, the month's top card, ranks highest), which is the lowest card id, so no redraw is needed.",
        "The draw does not affect play; the index order is the deck's own order (RULES-DOSSIER §4)."),
    Gap("MB-10", "When is an insta-win checked: the moment a capture completes it, or after the turn's two "
        "plays?",
        "SEED-003: the round stops immediately. FW-TY checks dekiyaku after both of a player's plays.",
        "After both plays of a turn (insta_win_check=turn). Every side is checked, the player who moved first, "
        "then the others in turn order; the first side found with an insta-win wins. Option "
        "insta_win_check=capture checks after every capture instead (so a completed hand play skips the draw).",
        "Taiyaku, the game the scoring comes from, checks at the end of the turn. Other sides need checking "
        "only because the Sun Rule can lift a Storm during another player's turn.",
        ("insta_win_check",)),
    Gap("MB-11", "All dekiyaku stack except that Four Brights absorbs Three Brights. Does that hold with the "
        "Curtain variant of Four Brights, and what does an insta-win pile score?",
        "SEED-003: the exception is stated for the Lightning; the Curtain variant is optional. An insta-win "
        "winner receives points for the insta-win dekiyaku only.",
        "Four Brights absorbs Three Brights in both variants. A pile that forms an insta-win dekiyaku scores its "
        "insta-win dekiyaku only (so Five Kings, which holds Three Brights, scores 8 alone).",
        "In both variants Three Brights is a subset of Four Brights, which is the reason for the exception."),
    Gap("MB-12", "Storm Rule, first version: when is it judged (the cards an opponent holds when the storm card "
        "is taken, or at the end of the round), does it touch an insta-win, and who is an opponent in teams?",
        "SEED-003 says the victim cards 'cannot be used' for dekiyaku and that such dekiyaku are not counted at "
        "the end of the round.",
        "Judged whenever dekiyaku are judged (every insta-win check and the end of the round) on the piles as "
        "they are then: a side is stormed while any opponent holds the Rain Man or the Lightning, and its Moon, "
        "Curtain and Cherry Poetry Ribbon then count for no dekiyaku, whenever they were taken. An insta-win "
        "already made has ended the round and stands. In the team game the opponents are the other team.",
        "Capture piles only grow, so judging on the current piles is the end-of-round reading applied at every "
        "check; it also keeps a stormed card from completing an insta-win. A consequence z3 found: a stormed "
        "side whose own pile would form Five Kings or Seven Red Ribbons scores its ordinary dekiyaku instead, "
        "which can be worth more than the insta-win (under the default payment cap it never pays more).",
        ("storm",)),
    Gap("MB-13", "Storm Rule, second version: the seed voids an opponent's 'Moon Viewing' and 'Flower Viewing', "
        "which are not in its table.",
        "FW-MB renames them Moon Banquet (90, 80) and Flower Banquet (90 with 30 or 31).",
        "Version two voids the stormed side's Moon Banquet and Flower Banquet; timing and opponents as MB-12.",
        "The later revision names the intended dekiyaku.", ("storm",)),
    Gap("MB-14", "Sun Rule: is it part of the Storm Rule or a second optional rule; does the Crane cancel a "
        "Storm only if taken after the storm card ('then'); and whose Storm does it cancel?",
        "SEED-003 heads the Storm 'Storm Rule (Optional Rule)' and the Sun 'Sun Rule (If Storm Rule is used)': "
        "only the Storm is marked optional, and the Sun is stated for games that use it. If an opponent of the "
        "storm card's holder then captures the Crane, the storm card's effects are invalidated.",
        "The Sun comes with the Storm: choosing a Storm version (storm=cards or banquets) sets sun=after unless "
        "sun is chosen too; sun=off with a Storm is the explicit choice of a Storm without the Sun, and a Sun "
        "without a Storm (sun=after or any-order with storm=off) is refused as a conflict. sun=after (the "
        "literal reading) cancels a storm card when an opponent of its holder took the Crane in a later turn; "
        "sun=any-order cancels it whenever an opponent of its holder has the Crane. A cancelled storm card "
        "storms nobody. Without a Storm (the default) sun is off.",
        "Changed in session 2 (issue 15): until then storm=cards alone played a Storm without a Sun and "
        "sun=after without a Storm was accepted and did nothing. The seed's headings make the Sun part of any "
        "game with the Storm, so the Storm alone brings it; 'then' marks an order, so sun=after; the dossier's "
        "suggestion (any order) and a Storm without a Sun stay selectable.", ("sun", "storm")),
    Gap("MB-15", "Four Brights uses the Lightning (113), which is Chaff in most games, and the completed page "
        "notes that real Musashino decks have no lightning card.",
        "SEED-003 and FW-MB both list 113 and give the Curtain (30) as an option.",
        "113 by default; four_brights=curtain uses 30 instead.",
        "Both revisions state the rule this way; the remark about the decks concerns how the old cards were "
        "drawn, not which card the rule names.", ("four_brights",), literal=True),
    Gap("MB-16", "Four players in teams of two: where do partners sit, and so in what order do they play?",
        "SEED-003: two teams sharing one capture area; the order is not given.",
        "Partners sit opposite: seats 0 and 2 are team 0, seats 1 and 3 team 1, so turns alternate between the "
        "teams. The team owns one capture pile (zone captured.<team>) and one score, which both partners' "
        "scores show.",
        "It is the usual seating for partnership card games and the only one in which both teams play "
        "alternately."),
    Gap("MB-17", "Without card points or teyaku, what replaces Hana-Awase's card-point ties and scores?",
        "SEED-003: no card points or teyaku. FW-HA breaks ties and ranks by card points.",
        "No card points are counted anywhere (the scorer reports none); ties use turn order (MB-7) and the "
        "dealer draw uses the card index (MB-9).", "Literal reading of the seed."),
    Gap("MB-18", "How long is a game and who wins it?",
        "SEED-003: 12 rounds is traditional, 6 or 3 are options; the winner is not stated. FW-TY: the most chips.",
        "length=12 by default (6 or 3 as options); a misdeal is not a round. The side with the most points wins; "
        "equal top scores share the win (in the team game both partners of the winning team are winners).",
        "Taiyaku's rule, on which the scoring is modelled.", ("length",)),
    Gap("MB-19", "In what order are the cards dealt?",
        "SEED-003 gives only the counts. FW-HA's custom for three players: 4 to each player anticlockwise, 3 to "
        "the field, 3 to each player, 3 to the field.",
        "Three players: FW-HA's pattern. Four players, 5 and 8: 3 to each player, 4 to the field, 2 to each, 4 "
        "to the field. Four players, 6 and none: 3 to each, twice. Each round of packets starts with the player "
        "to the dealer's right and ends with the dealer.",
        "FW-HA's custom where it exists, and the same shape (two rounds, field after the players) otherwise. The "
        "order matters only for replaying a stacked deck."),
    Gap("MB-20", "Flower Banquet (90 with 30 or 31) and Autumn Leaves (90 with 100 or 101): does a pile with both "
        "alternatives score the dekiyaku twice? (Not numbered in the dossier; noted under the completed table.)",
        "FW-MB: 'plus 1 of' the two cards.", "Once.",
        "The row names one dekiyaku formed by the cup and a partner; a second partner forms nothing new."),
    Gap("MB-21", "Three Red Flowers and Three Purple Flowers take one Chaff of each of three months: does a pile "
        "with both Chaff of a month score more? And which Chaff count? (Noted under the completed table.)",
        "FW-MB names the months and flags the Chaff card type and the exclusion of the yellow Paulownia (121) as "
        "assumptions of its author.",
        "Once; Red: Plum 22/23, Peony 62/63, Bush Clover 72/73; Purple: Wisteria 42/43, Iris 52/53, Paulownia "
        "122/123, not 121.", "The page's stated reading; a dekiyaku is formed or not."),
    Gap("MB-22", "What happens when both insta-win dekiyaku are completed at once?",
        "The sources do not consider it.",
        "The win is paid once: each losing side owes the insta-win value (8 by default), however many insta-win "
        "dekiyaku the winner holds; both are listed in the round's result.",
        "Changed in session 2 (issue 15): until then both counted (16, cut to 8 by the default payment cap, so "
        "default play is unchanged). SEED-003 §Scoring ties the 8 points to winning by an insta-win, not to "
        "each dekiyaku ('the player wins', and the losers pay 8); the stacking of dekiyaku the sources state "
        "belongs to the count of dekiyaku points at the end of a round played out."),
    Gap("MB-23", "Is four of a month in a player's hand a misdeal?",
        "SEED-003 names only four of a month on the field. FW-HA leaves the hand case to house rules.",
        "No: only four of a month on the field is a misdeal.", "Literal reading of the seed."),
)


def _r(rid: str, topic: Topic, text: str, cites: tuple[Citation, ...], ev: Evidence,
       gap: str | None = None, option: str | None = None, decided: str = "") -> Rule:
    return Rule(rid, topic, text, cites, ev, gap, option, decided)


RULES = (
    _r("MB-EQ-1", T.EQUIPMENT, "The full 48-card hanafuda deck is used. There are no card points and no teyaku "
       "(lucky hands): only dekiyaku score.",
       (seed("introduction", "without any card points or Teyaku"), seed("Equipment")), S, "MB-17",
       decided="Nothing falls back on card points: a tie for the top goes by turn order (MB-7) and the first "
       "dealer's draw by the card index (MB-9)."),
    _r("MB-EQ-2", T.EQUIPMENT, "Three players each play for themselves (players=3), or four play in two teams of "
       "two (players=4 or 4-no-field), each team sharing one capture area.",
       (seed("introduction", "teams of 2"), fw("introduction", "same capture area")), S, "MB-16", "players",
       decided="Partners sit opposite each other, so turns alternate between the teams; a team has one score, "
       "which both partners' scores show."),
    _r("MB-DEAL-1", T.DEALING, "Three players: 7 cards to each hand and 6 face up to the field; the other 21 "
       "cards are the draw pile.", (seed("Distributing The Initial Cards", "7 cards are dealt"),), S, None,
       "players"),
    _r("MB-DEAL-2", T.DEALING, "Four players: 5 cards to each hand and 8 to the field (players=4), or 6 to each "
       "hand and none to the field (players=4-no-field); the other 20 or 24 cards are the draw pile. In every "
       "configuration the draw pile holds exactly one card per card in the hands, so both run out together.",
       (seed("Distributing The Initial Cards", "either of the two"), dossier("runs out exactly")), S, None,
       "players"),
    _r("MB-DEAL-3", T.DEALING, "Cards are dealt in packets: three players get 4 each, the field 3, then 3 each "
       "and the field 3; four players with a field get 3 each, the field 4, then 2 each and the field 4; four "
       "players without a field get 3 each twice. Each round of packets starts with the player to the dealer's "
       "right and ends with the dealer.",
       (ha("Distributing the Initial Cards", "anti-clockwise order"),), D, "MB-19"),
    _r("MB-DEAL-4", T.DEALING, "If the field is dealt all four cards of a month, the deal is a misdeal: the cards "
       "are reshuffled and the same dealer deals again; it is not a round.",
       (seed("Distributing The Initial Cards", "misdeal"),), S),
    _r("MB-DEAL-5", T.DEALING, "Four cards of a month in a player's hand are not a misdeal.",
       (seed("Distributing The Initial Cards"), ha("Misdeals", "house rule")), D, "MB-23"),
    _r("MB-DEAL-6", T.DEALING, "The first dealer is chosen before the game and the engine takes it as given; "
       "by the card draw, the earliest month deals, then the lower card index (dealer_draw).",
       (seed("Choosing The Dealer", "earliest month"),), D, "MB-9"),
    _r("MB-TURN-1", T.TURN, "The dealer plays first and play passes anticlockwise, to the dealer's right (seat "
       "dealer+1 next).",
       (seed("Gameplay", "anti-clockwise"),), S, "MB-16",
       decided="In the team game partners sit opposite, so the teams alternate."),
    _r("MB-TURN-2", T.TURN, "A turn has two plays: a card from the hand, then the top card of the draw pile, "
       "turned face up and played the same way.",
       (seed("Gameplay", "same as in Hana-awase"), ha("Turns", "in the same fashion")), RS),
    _r("MB-CAP-1", T.CAPTURE, "A played card that matches one field card of its month captures it; both go to "
       "the side's capture pile.", (ha("Turns", "matching pair"),), RS),
    _r("MB-CAP-2", T.CAPTURE, "A played card that matches two field cards captures one of them, chosen by the "
       "player.", (ha("Turns", "may choose"),), RS),
    _r("MB-CAP-3", T.CAPTURE, "A played card that matches three field cards captures all three (so three of a "
       "month dealt to the field wait for the fourth).", (ha("Turns", "all three are captured"),), RS),
    _r("MB-CAP-4", T.CAPTURE, "A played card that matches nothing stays on the field.",
       (ha("Turns", "remains on the table"),), RS),
    _r("MB-CAP-5", T.CAPTURE, "A card that matches must capture, but a player may play a hand card that matches "
       "nothing even when another would capture.", (ha("Turns", "no obligation"),), RS),
    _r("MB-CAP-6", T.CAPTURE, "The drawn card is resolved by the same rules; when it matches two field cards "
       "the player chooses which one it takes.", (ha("Turns", "in the same fashion"),), RS),
    _r("MB-CAP-7", T.CAPTURE, "Captured cards go to the capturing side's pile: the player's own, or the team's "
       "shared pile.", (seed("introduction", "same capture area"),), S),
    _r("MB-YAKU-1", T.YAKU, "The dekiyaku table is the completed table of the later revision; the seed's "
       "trailing rows copied from Hana-Awase are not used. All dekiyaku a pile forms stack, except that Four "
       "Brights absorbs Three Brights, and a pile forming an insta-win dekiyaku scores only its insta-win "
       "dekiyaku.", (seed("Dekiyaku", "stack"), fw("Dekiyaku")), LR, "MB-2"),
    _r("MB-YAKU-2", T.YAKU, "Five Kings (insta-win): the Crane, Curtain, Moon, Rain Man and Phoenix "
       "(10, 30, 80, 110, 120).", (seed("Dekiyaku", "Five Kings"),), S, None, "insta_win_value"),
    _r("MB-YAKU-3", T.YAKU, "Seven Red Ribbons (insta-win): the seven red ribbons, poetry and plain, Willow "
       "included (11, 21, 31, 41, 51, 71, 112).", (seed("Dekiyaku", "Seven Red Ribbons"),), S, "MB-4",
       "insta_win_value",
       decided="The seed's other row, Seven Ribbons without the Willow ribbon, is not used."),
    _r("MB-YAKU-4", T.YAKU, "Four Brights, 4: the Crane, Moon, Lightning and Phoenix (10, 80, 113, 120); with "
       "four_brights=curtain the Curtain (30) replaces the Lightning. It absorbs Three Brights.",
       (seed("Dekiyaku", "Four Brights"),), S, "MB-15", "four_brights"),
    _r("MB-YAKU-5", T.YAKU, "Kemari Court, 4: 10, 30, 100, 110.", (seed("Dekiyaku", "Kemari Court"),), S),
    _r("MB-YAKU-6", T.YAKU, "Three Brights, 2: 10, 80, 120; not counted when Four Brights is formed.",
       (seed("Dekiyaku", "Three Brights"),), S, "MB-11",
       decided="With four_brights=curtain Four Brights absorbs it as well."),
    _r("MB-YAKU-7", T.YAKU, "Takasago, 2: 10, 60, 90.", (seed("Dekiyaku", "Takasago"),), S),
    _r("MB-YAKU-8", T.YAKU, "Front Sugawara, 2: 10, 20, 30.", (seed("Dekiyaku", "Front Sugawara"),), S),
    _r("MB-YAKU-9", T.YAKU, "Back Sugawara, 2: 11, 21, 31.",
       (seed("Dekiyaku", "Back Sugawara"),), S, "MB-3",
       decided="The seed's Poetry Ribbons row, with the same three cards, is not used."),
    _r("MB-YAKU-10", T.YAKU, "Purple Ribbons, 2: 61, 91, 101.", (seed("Dekiyaku", "Purple Ribbons"),), S),
    _r("MB-YAKU-11", T.YAKU, "Large Birds, 2: 10, 81, 120.", (fw("Dekiyaku", "Large Birds"),), LR, "MB-2"),
    _r("MB-YAKU-12", T.YAKU, "Small Birds, 2: 20, 40, 111.", (fw("Dekiyaku", "Small Birds"),), LR, "MB-2"),
    _r("MB-YAKU-13", T.YAKU, "Crop Pests, 2: 70, 100, 81.", (fw("Dekiyaku", "Crop Pests"),), LR, "MB-2"),
    _r("MB-YAKU-14", T.YAKU, "Three Red Flowers, 2: a Plum Chaff (22/23), a Peony Chaff (62/63) and a Bush "
       "Clover Chaff (72/73).", (fw("Dekiyaku", "Three Red Flowers"),), LR, "MB-21"),
    _r("MB-YAKU-15", T.YAKU, "Three Purple Flowers, 2: a Wisteria Chaff (42/43), an Iris Chaff (52/53) and a "
       "Paulownia Chaff other than the yellow one (122/123).", (fw("Dekiyaku", "Three Purple Flowers"),), LR,
       "MB-21"),
    _r("MB-YAKU-16", T.YAKU, "Coat of Arms, 1: 90, 120.", (fw("Dekiyaku", "Coat of Arms"),), LR, "MB-2"),
    _r("MB-YAKU-17", T.YAKU, "Moon Banquet, 1: 90, 80.", (fw("Dekiyaku", "Moon Banquet"),), LR, "MB-13"),
    _r("MB-YAKU-18", T.YAKU, "Flower Banquet, 1: 90 with 30 or 31, counted once.",
       (fw("Dekiyaku", "Flower Banquet"),), LR, "MB-20"),
    _r("MB-YAKU-19", T.YAKU, "Autumn Leaves, 1: 90 with 100 or 101, counted once.",
       (fw("Dekiyaku", "Autumn Leaves"),), LR, "MB-20"),
    _r("MB-YAKU-20", T.YAKU, "Cuckoo with Moon, 1: 40, 80.", (fw("Dekiyaku", "Cuckoo with Moon"),), LR, "MB-2"),
    _r("MB-YAKU-21", T.YAKU, "Butterflies with Flowers, 1: 60, 30.",
       (fw("Dekiyaku", "Butterflies with Flowers"),), LR, "MB-2"),
    _r("MB-YAKU-22", T.YAKU, "Boar with Peony, 1: 70, 60.", (fw("Dekiyaku", "Boar with Peony"),), LR, "MB-2"),
    _r("MB-YAKU-23", T.YAKU, "Four of a kind, 1 each: all four Plum (Plum Blossom Pot), Wisteria (Wisteria Pot), "
       "Iris (Iris Bridge) or Paulownia (Paulownia Pot) cards.", (fw("Dekiyaku", "Four-of-a-kind"),), LR,
       "MB-2"),
    _r("MB-END-1", T.END_ROUND, "The round ends when every hand is empty, or at once when a player forms an "
       "insta-win dekiyaku.",
       (seed("Gameplay", "Insta-Win Dekiyaku"), ty("Dekiyaku That Stop the Round", "played their two cards")),
       S, "MB-10", "insta_win_check",
       decided="Insta-wins are checked after both plays of each turn, for every side, the mover's first "
       "(insta_win_check=capture: after every capture); the draw pile empties with the hands."),
    _r("MB-END-2", T.END_ROUND, "The round's winner deals the next round.",
       (seed("Choosing The Dealer", "winner of the round"),), S, "MB-8",
       decided="In the team game the dealer keeps the deal when the dealer's team wins and otherwise passes it to "
       "the right, to the next player, who is on the winning team; after a tie the winner is the one MB-7 names."),
    _r("MB-SCORE-1", T.SCORING, "Insta-win: the loser or losers pay the winner 8 points, an amount the seed itself "
       "calls an assumption.",
       (seed("Scoring", "only assumed"), fw("Scoring", "losing players/team")), S, "MB-22", "insta_win_value",
       decided="Each losing side (each other player, or the other team) pays the insta-win value once, however "
       "many insta-win dekiyaku the winner holds (MB-22); the value is an option (insta_win_value, MB-5)."),
    _r("MB-SCORE-2", T.SCORING, "Otherwise each side totals its dekiyaku; the side with the highest total wins and "
       "every other side pays it the difference between the totals.",
       (seed("Scoring", "difference of their score"), ty("End of Round and Scoring")), S),
    _r("MB-SCORE-3", T.SCORING, "Ties for the top total go to the tied side that comes first in turn order from "
       "the dealer; when all sides tie, the dealer's side wins and nothing is paid.",
       (ty("End of Round and Scoring", "If there are two winners"),), D, "MB-7"),
    _r("MB-SCORE-4", T.SCORING, "With payment_cap=8 (the default) no side pays more than 8 in a round, for an "
       "insta-win or an ordinary win; payment_cap=none removes the limit.",
       (ty("End of Round and Scoring", "cannot lose more than 8"),), D, "MB-6", "payment_cap"),
    _r("MB-SCORE-5", T.SCORING, "In the team game a team pays and receives as one side: both partners' scores "
       "change by the team's amount.", (fw("Scoring", "losing players/team"),), D, "MB-6"),
    _r("MB-STORM-1", T.VARIANTS, "Storm Rule, storm=cards: when a player captures the Rain Man (110) or the "
       "Lightning (113), an opponent's Moon (80), Curtain (30) and Cherry Poetry Ribbon (31) cannot be used for a "
       "dekiyaku.", (seed("Storm Rule (Optional Rule)", "cannot be used to form a Dekiyaku"),), S, "MB-12",
       "storm",
       decided="It is judged on the piles as they are whenever dekiyaku are judged: a side is stormed while an "
       "opponent's side holds 110 or 113, whenever its own cards were taken."),
    _r("MB-STORM-2", T.VARIANTS, "Storm Rule, storm=banquets: while an opponent's side holds 110 or 113, a side's "
       "Moon Banquet and Flower Banquet do not count.",
       (seed("Storm Rule (Optional Rule)"), fw("Storm Rule (Optional Rule)", "Moon Banquet")), LR, "MB-13",
       "storm"),
    _r("MB-STORM-3", T.VARIANTS, "The Storm is judged on the capture piles whenever dekiyaku are judged: at every "
       "insta-win check and at the end of the round. Opponents are the other players, or the other team.",
       (seed("Storm Rule (Optional Rule)", "at the end of the round"),), D, "MB-12", "storm"),
    _r("MB-STORM-4", T.VARIANTS, "Sun Rule, part of a game with the Storm Rule: once an opponent of a storm "
       "card's holder then captures the Crane (10), that storm card has no effect.",
       (seed("Sun Rule (If Storm Rule is used)", "then captures"),), S, "MB-14", "sun",
       decided="A Storm version brings sun=after unless sun is chosen; sun=any-order lets the Crane cancel "
       "whenever it was taken; sun=off with a Storm plays the Storm alone; a Sun without a Storm is refused."),
    _r("MB-GAME-1", T.END_GAME, "A game is 12 rounds by default, or 6 or 3.",
       (seed("Setup", "12 rounds is traditional"),), S, "MB-18", "length",
       decided="A misdeal is not a round."),
    _r("MB-GAME-2", T.END_GAME, "The side with the most points at the end wins; equal top scores share the win.",
       (ty("End of the Game", "highest"),), D, "MB-18"),
)

OPTIONS = (
    OptionSpec("players", Players, Players.N3,
               "3: three players, 7 cards each and 6 to the field; 4: two teams of two, 5 each and 8 to the field; "
               "4-no-field: two teams, 6 each and no field.", seed("Distributing The Initial Cards")),
    OptionSpec("length", Length, Length.N12, "Rounds in a game.", seed("Setup", "6 and 3 are options")),
    OptionSpec("four_brights", FourBrights, FourBrights.LIGHTNING,
               "The fourth card of Four Brights besides the Crane, Moon and Phoenix.",
               seed("Dekiyaku", "Curtain card instead")),
    OptionSpec("insta_win_value", InstaWinValue, InstaWinValue.N8,
               "Points each losing side pays for an insta-win (the source's 8 is an assumption; 4, 12 and 16 are "
               "ours); values above 8 only matter with payment_cap=none.", seed("Scoring", "only assumed"),
               ours=("4", "12", "16")),
    OptionSpec("payment_cap", PaymentCap, PaymentCap.N8, "Most a side can pay in one round (Taiyaku's 8-chip limit).",
               ty("End of Round and Scoring", "cannot lose more than 8")),
    OptionSpec("insta_win_check", InstaWinCheck, InstaWinCheck.TURN,
               "When insta-win dekiyaku are checked: after both plays of a turn, or after every capture.",
               ty("Dekiyaku That Stop the Round")),
    OptionSpec("storm", Storm, Storm.OFF,
               "Storm Rule: off; the opponents' Moon, Curtain and Cherry Poetry Ribbon stop counting; or the "
               "opponents' Moon and Flower Banquets are void.", seed("Storm Rule (Optional Rule)")),
    OptionSpec("sun", Sun, Sun.OFF,
               "Sun Rule (only with a Storm, which brings sun=after unless sun is chosen): the Crane taken by an "
               "opponent of a storm card's holder cancels that card, if taken after it, or at any time.",
               seed("Sun Rule (If Storm Rule is used)", "If Storm Rule is used"),
               (OptionLink("storm", ("off",), "MB-14", allowed=("off",)),
                OptionLink("storm", ("cards", "banquets"), "MB-14", default="after"))),
)

RULESETS = (
    RulesetSpec("fudawiki", "The completed FudaWiki page (FW-MB) with the decisions of this catalogue.", {},
                fw("Dekiyaku")),
    RulesetSpec("storm-and-sun", "Both optional rules: the Storm (first version) and the Sun (literal order).",
                {"storm": "cards", "sun": "after"}, seed("Sun Rule (If Storm Rule is used)")),
)

SPEC = MUSASHINO = GameSpec(
    key="musashino",
    name="Musashino-Bana",
    aliases=("musashino-bana", "musashinobana", "musashino bana", "mb"),
    deck="hanafuda",
    summary="Three players, or two teams of two, play Hana-Awase's fishing turn for dekiyaku only; two "
            "dekiyaku win the round outright, and rounds are settled as in Taiyaku.",
    sources=("SEED-003", "FW-MB", "FW-HA", "FW-TY"),
    rules=RULES,
    gaps=GAPS,
    options=OPTIONS,
    rulesets=RULESETS,
    default_ruleset="fudawiki",
)


# -- invariants (the neutral form) --------------------------------------------------------------

_DECK = tuple(m * 10 + i for m in range(1, 13) for i in range(4))
_INSTA_REASON = "insta-win"


def _players(step: Step) -> str:
    return step.options.get("players", "3")


def _seats(step: Step) -> int:
    return DEALS[_players(step)].players


def _hands(step: Step) -> list[int]:
    return [len(step.after.zone(f"hand.{s}")) for s in range(_seats(step))]


def _deal_sizes(step: Step) -> str | None:
    """MB-DEAL-1/2: the first position of a round has full hands, the field and the draw pile."""
    s = step.after
    if s.phase != "play" or not (step.before is None or step.outcomes) or step.match_over:
        return None
    plan = DEALS[_players(step)]
    hands = _hands(step)
    field, stock = len(s.zone("field")), len(s.zone("stock"))
    if hands != [plan.hand] * plan.players or field != plan.field or stock != plan.stock:
        return f"deal sizes: hands {hands}, field {field}, stock {stock} (players={_players(step)})"
    return None


def _run_out_together(step: Step) -> str | None:
    """MB-DEAL-2 / MB-END-1: while the round is on, the hands hold as many cards as the draw pile
    (a drawn card waiting for its target included), so hands and draw pile run out together; a
    round that ends without an insta-win ends with both empty."""
    s = step.after
    hands = sum(_hands(step))
    stock = len(s.zone("stock"))
    if s.to_move is not None and hands != stock:
        return f"hands hold {hands} cards but the draw pile {stock}"
    if step.match_over and step.outcomes and step.outcomes[-1].reason == "hands-empty" and hands + stock:
        return f"round ended on empty hands with {hands} hand cards and {stock} draw cards left"
    return None


def _turn_order(step: Step) -> str | None:
    """MB-TURN-1: the dealer leads and play passes to the right: in turn order from the dealer the
    hand sizes never shrink and differ by at most one, and the player to move is the first with the
    most cards (the dealer when all hands are equal)."""
    s = step.after
    if s.to_move is None or s.phase != "play":
        return None
    n = _seats(step)
    order = [(s.dealer + k) % n for k in range(n)]
    sizes = [len(s.zone(f"hand.{p}")) for p in order]
    if sizes != sorted(sizes) or sizes[-1] - sizes[0] > 1:
        return f"hand sizes {sizes} in turn order from dealer {s.dealer}"
    want = order[sizes.index(sizes[-1])]
    if s.to_move != want:
        return f"seat {s.to_move} to move, expected seat {want} (hand sizes {sizes} from dealer {s.dealer})"
    return None


def _teams_share(step: Step) -> str | None:
    """MB-EQ-2 / MB-SCORE-5: one capture pile per side (captured.<team> in the team game), and
    partners' scores and round deltas are always equal."""
    s = step.after
    players = _players(step)
    n_sides = sides(players)
    piles = sorted(z for z in s.zone_names() if z.startswith("captured."))
    want = [f"captured.{i}" for i in range(n_sides)]
    if piles != want:
        return f"capture piles {piles}, expected {want}"
    if players != "3":
        if s.scores[0] != s.scores[2] or s.scores[1] != s.scores[3]:
            return f"partners' scores differ: {s.scores}"
        for o in step.outcomes:
            if o.deltas[0] != o.deltas[2] or o.deltas[1] != o.deltas[3]:
                return f"partners' round deltas differ: {o.deltas}"
    return None


def _captures_to_mover(step: Step) -> str | None:
    """MB-CAP-7: an action adds cards only to the mover's side's pile."""
    b, a = step.before, step.after
    if b is None or b.to_move is None or step.outcomes:
        return None
    players = _players(step)
    mine = side_of(players, b.to_move)
    for i in range(sides(players)):
        before, after = b.zone(f"captured.{i}"), a.zone(f"captured.{i}")
        if not set(before) <= set(after):
            return f"cards left capture pile {i}"
        if i != mine and before != after:
            return f"seat {b.to_move} captured into side {i}'s pile"
    return None


def turn_order(players: str, dealer: int) -> tuple[int, ...]:
    """The sides in turn order from the dealer's (MB-TURN-1): the order in which a tie for the top
    is broken (MB-SCORE-3).

    >>> turn_order("3", 1), turn_order("4", 3)
    ((1, 2, 0), (1, 0))
    """
    return tuple(dict.fromkeys(side_of(players, (dealer + k) % DEALS[players].players)
                               for k in range(DEALS[players].players)))


#: The most a side pays in a round with payment_cap=8 (MB-SCORE-4).
CAP = int(PaymentCap.N8)


def settlement(ops: Ops[N, B], totals: Sequence[N], insta: B, insta_side: N, capped: B, value: N,
               ) -> tuple[list[N], N]:
    """MB-SCORE-1…5, written once for the invariant below and the zero-sum proof
    (``hanafuda_spec.proofs.zero_sum``): ``totals`` are the sides' dekiyaku totals in turn order from
    the dealer (:func:`turn_order`); ``insta``: the round ended by an insta-win of the side at position
    ``insta_side``, worth ``value``; ``capped``: payment_cap=8. The winner is the insta-win's side or the
    first side in turn order with the top total (MB-SCORE-3); every other side pays it the difference
    (the insta-win's value), at most :data:`CAP` when capped (MB-SCORE-4). Gives each position's delta
    and the winner's position; a team pays and receives once (MB-SCORE-5).

    >>> settlement(INTS, [3, 7, 7], False, 0, True, 8)
    ([-4, 4, 0], 1)
    >>> settlement(INTS, [0, 16], True, 0, True, 16)
    ([8, -8], 0)
    """
    n = len(totals)
    top = ops.max_of(totals)
    best = ops.const(n - 1)
    for k in reversed(range(n - 1)):
        first = ops.eq(totals[k], top)
        for j in range(k):
            first = ops.and_(first, ops.lt(totals[j], top))
        best = ops.ite(first, ops.const(k), best)
    winner = ops.ite(insta, insta_side, best)
    cap = ops.const(CAP)
    pays = []
    for k in range(n):
        owed = ops.ite(insta, value, ops.sub(top, totals[k]))
        owed = ops.ite(ops.and_(capped, ops.lt(cap, owed)), cap, owed)
        pays.append(ops.ite(ops.eq(winner, ops.const(k)), ops.const(0), owed))
    total = ops.sum_of(pays)
    return [ops.ite(ops.eq(winner, ops.const(k)), total, ops.sub(ops.const(0), pays[k])) for k in range(n)], winner


def _next_dealer(players: str, dealer: int, winner_side: int) -> int:
    if players == "3":
        return winner_side
    return dealer if side_of(players, dealer) == winner_side else (dealer + 1) % 4


def _settlement(step: Step) -> str | None:
    """MB-SCORE-1…5 and MB-END-2: every settlement is :func:`settlement` of the dekiyaku the round
    reports, and the next dealer follows from its winner."""
    if step.before is None or not step.outcomes:
        return None
    players = _players(step)
    n = DEALS[players].players
    capped = step.options.get("payment_cap", PaymentCap.N8) != PaymentCap.NONE
    value = int(step.options.get("insta_win_value", InstaWinValue.N8))  # paid once, however many formed (MB-22)
    dealer = step.before.dealer
    for o in step.outcomes:
        if not o.counts:
            if any(o.deltas):
                return f"a misdeal moved points: {o.deltas}"
            continue
        totals = [sum(y.points for y in side) for side in o.yaku]
        if len(totals) != sides(players):
            return f"round reports dekiyaku for {len(totals)} sides"
        order = turn_order(players, dealer)
        insta = o.reason == _INSTA_REASON
        at = 0
        if insta:
            winners = [k for k, sd in enumerate(order) if totals[sd] > 0]
            if len(winners) != 1 or not all(y.id in INSTA_WIN for y in o.yaku[order[winners[0]]]):
                return f"insta-win round reports {o.yaku}"
            at = winners[0]
        deltas, w = settlement(INTS, [totals[sd] for sd in order], insta, at, capped, value)
        side_delta = {sd: deltas[k] for k, sd in enumerate(order)}
        # a team pays and receives once; both partners' scores show the team's amount
        want = tuple(side_delta[side_of(players, seat)] for seat in range(n))
        if o.deltas != want:
            return f"{o.reason}: deltas {o.deltas}, expected {want} from totals {totals} (dealer {dealer})"
        dealer = _next_dealer(players, dealer, order[w])
    if not step.match_over and step.after.dealer != dealer:
        return f"dealer {step.after.dealer} after the round, expected {dealer}"
    return None


def _insta_stops(step: Step) -> str | None:
    """MB-END-1: without the Storm, no side ever holds an insta-win dekiyaku at the start of a turn
    (it would have ended the round)."""
    s = step.after
    if s.to_move is None or s.phase != "play" or step.options.get("storm", "off") != "off":
        return None
    insta = _INSTA_ROWS[step.options.get("four_brights", "lightning")]
    for i in range(sides(_players(step))):
        pile = frozenset(s.zone(f"captured.{i}"))
        for y in insta:
            if y.formed(pile):
                return f"side {i} holds {y.id} but the round goes on"
    return None


_INSTA_ROWS = {
    fb: tuple(y for y in yaku_table({"insta_win_value": "8", "four_brights": fb}) if y.stops_round)
    for fb in ("lightning", "curtain")
}


def _game_length(step: Step) -> str | None:
    """MB-GAME-1: a game of N rounds ends after round N, not before."""
    length = int(step.options.get("length", "12"))
    if step.match_over and step.after.round != length:
        return f"game of {length} rounds ended after round {step.after.round}"
    if not step.match_over and step.after.round > length:
        return f"round {step.after.round} played in a game of {length} rounds"
    return None


PROFILE = GameProfile(
    game="musashino",
    deck=lambda _o: _DECK,
    zero_sum=lambda _o: True,
    max_round_actions=2 * 24,  # a hand play and a take per turn; 24 turns at most (4 players, 6 each)
    invariants=(
        ("MB-DEAL-1/2 deal sizes", _deal_sizes),
        ("MB-END-1 hands and draw pile run out together", _run_out_together),
        ("MB-TURN-1 turn order", _turn_order),
        ("MB-EQ-2 teams share a pile and a score", _teams_share),
        ("MB-CAP-7 captures go to the mover's side", _captures_to_mover),
        ("MB-SCORE-1..5 settlement follows the dekiyaku", _settlement),
        ("MB-END-1 insta-win stops the round", _insta_stops),
        ("MB-GAME-1 game length", _game_length),
    ),
    option_sets=({"players": "3"}, {"players": "4"}, {"players": "4-no-field"}),
)
