"""Kujuroku (九十六, "ninety-six"): rule catalogue, decisions, options and rule data.

Kujuroku is a three-handed fishing game played with the one-suit **Daini** deck (cards 1 to 10,
four of each, plus the *Oni-fuda*, the demon joker; the *Jizo-fuda*, the Buddha joker, in a
variant). Four people sit at the table and three play each round; the dealer (oya) keeps the deal
until they lose a round, and the game ends when every player has dealt and lost the deal.

The seed (SEED-001) is the FudaWiki page of 2022-10-09. Its later revision (FW-KJ, 2024-06-06)
turns the seed's dekiyaku table into "Configuration A" and adds configurations B, C and D; offering
them is decision KJ-10. The turn itself is Hana-Awase's (FW-HA), which the page defers to. Gaps
KJ-1…KJ-21 are the dossier's (RULES-DOSSIER §3.2); KJ-22…KJ-25 are questions found while writing
the rules down.

Rule data is declared here once and interpreted by the reference:

* :data:`CONFIGURATIONS` — the four dekiyaku tables as :class:`~hanafuda_spec.yaku.YakuDef` rows;
* :func:`card_points` — the card values (Oni 12, or 0 and the Jizo 12 in the Jizo variant);
* :data:`CHIP_TABLE` and :func:`chip_score` — the chips won or lost around the par of 96;
* :func:`settlement_case` — which settlement case a round's chip scores fall into;
* :func:`remaining_card` — the one precise predicate behind "the card remaining" (KJ-11, KJ-12);
* :data:`DEAL_PLAN` — the attested dealing order.

>>> [y.id for y in CONFIGURATIONS["A"]]
['shi-yaku', 'san-yaku', 'danjou', 'shi-dan', 'shi-dan-san']
>>> sum(card_points(i, jizo=False) for i in DECK_IDS[False]), sum(card_points(i, jizo=True) for i in DECK_IDS[True])
(300, 300)
>>> chip_score(96), chip_score(95), chip_score(116), chip_score(75)
(1, -1, 3, -3)
>>> remaining_card(41, [0, 41, 42, 43])
40
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence

from hanafuda_spec.cards import DAINI, DAINI_JIZO
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
from hanafuda_spec.yaku import YakuDef

__all__ = [
    "BAKATSUN",
    "CHIP_TABLE",
    "CONFIGURATIONS",
    "DEAL_PLAN",
    "DECK_IDS",
    "FOURS",
    "HAND_SIZE",
    "ISHI",
    "ITSUN",
    "JIZO",
    "KUJUROKU",
    "ONI",
    "PAR",
    "PLAYERS_PER_ROUND",
    "SPEC",
    "SPECIAL_3",
    "START_CHIPS",
    "THREES",
    "card_point_deltas",
    "card_points",
    "chip_score",
    "remaining_card",
    "settlement_case",
    "stock_size",
]

S, LR, RS, D = Evidence.SEED, Evidence.LATER_REVISION, Evidence.RELATED_SOURCE, Evidence.DECISION
T = Topic

seed = Citer("SEED-001")
later = Citer("FW-KJ")
ha = Citer("FW-HA")
dossier = Citer("DOSSIER")

# -- cards and counts ---------------------------------------------------------------------------

#: The jokers: the Oni-fuda (demon) and the Jizo-fuda (Buddha, Jizo variant only).
ONI, JIZO = 0, 1
#: The special cards: I-tsun (special 1), I-shi (special 4) and the special 3 (configurations B, C).
ITSUN, ISHI, SPECIAL_3 = 10, 40, 30
#: The four 4s, the four 3s, and the three plain 1s (Bakatsun).
FOURS = frozenset({40, 41, 42, 43})
THREES = frozenset({30, 31, 32, 33})
BAKATSUN = frozenset({11, 12, 13})

#: Card ids of the deck, without and with the Jizo variant.
DECK_IDS: Mapping[bool, tuple[int, ...]] = {
    False: tuple(c.id for c in DAINI.cards),
    True: tuple(c.id for c in DAINI_JIZO.cards),
}

#: Three players take part in each round (the fourth sits out in the four-player game).
PLAYERS_PER_ROUND = 3
#: Cards dealt to each participant's hand; six more go face up to the field.
HAND_SIZE = 6
#: Chips each player starts with (SEED-001 "Equipment": 30 per player).
START_CHIPS = 30
#: The par score: 288 (the deck without the Oni) divided by three players.
PAR = 96

#: The attested deal (KJ-DEAL-2): packets of three to the 2nd player (to the dealer's right),
#: the 3rd player, the dealer and the field, twice round.
DEAL_PLAN: tuple[tuple[str, int], ...] = (("2nd", 3), ("3rd", 3), ("dealer", 3), ("field", 3)) * 2


def stock_size(jizo: bool) -> int:
    """Cards left in the draw pile after the deal: 41 − 24 = 17, or 42 − 24 = 18.

    >>> stock_size(False), stock_size(True)
    (17, 18)
    """
    return len(DECK_IDS[jizo]) - PLAYERS_PER_ROUND * HAND_SIZE - 6


def card_points(card_id: int, jizo: bool) -> int:
    """KJ-SCORE-1 / KJ-JIZO-5: the card points of a card.

    The Oni is worth 12 (0 in the Jizo variant, where the Jizo is worth 12); the 1s, 2s and 10s
    are worth 10; every other card is worth its number. Either deck totals 300.

    >>> card_points(ONI, False), card_points(ONI, True), card_points(JIZO, True), card_points(73, False)
    (12, 0, 12, 7)
    """
    if card_id == ONI:
        return 0 if jizo else 12
    if card_id == JIZO:
        return 12
    rank = card_id // 10
    return 10 if rank in (1, 2, 10) else rank


#: KJ-SCORE-2: (lowest card score of the band, chips), highest band first. No band is worth 0.
CHIP_TABLE: tuple[tuple[int, int], ...] = ((116, 3), (106, 2), (96, 1), (86, -1), (76, -2), (-10**9, -3))


def chip_score(points: int) -> int:
    """The chips a card score wins (positive) or loses (negative) by the chip table."""
    for low, chips in CHIP_TABLE:
        if points >= low:
            return chips
    raise AssertionError("the last band covers every score")


def settlement_case(chips: Sequence[int]) -> str:
    """Which settlement case the three participants' chip scores fall into (KJ-SCORE-3…6):
    ``two-negative``, ``two-positive``, ``all-positive`` (a draw) or ``all-negative`` (KJ-13).

    >>> settlement_case([2, -1, -3]), settlement_case([1, 3, -2]), settlement_case([1, 1, 1])
    ('two-negative', 'two-positive', 'all-positive')
    """
    if len(chips) != PLAYERS_PER_ROUND or 0 in chips:
        raise ValueError(f"three non-zero chip scores expected, got {list(chips)}")
    positive = sum(1 for c in chips if c > 0)
    return ("all-negative", "two-negative", "two-positive", "all-positive")[positive]


def card_point_deltas(chips: Mapping[int, int], seats: int) -> tuple[int, ...]:
    """KJ-SCORE-3…6: what each seat gains after a round played out without a dekiyaku, from the three
    participants' chip scores (seat → chips). With two negative scores the positive player collects
    each loser's chips; with two positive scores the negative player pays each winner's; three of a
    sign is a draw.

    >>> card_point_deltas({0: 2, 1: -1, 2: -3}, 4), card_point_deltas({0: 1, 1: 3, 2: -2}, 3)
    ((4, -1, -3, 0), (1, 3, -4))
    """
    case = settlement_case(list(chips.values()))
    deltas = [0] * seats
    if case in ("two-negative", "two-positive"):
        # the one player of the minority sign settles with each of the two others
        odd = next(i for i, c in chips.items() if (c > 0) == (case == "two-negative"))
        for i, c in chips.items():
            if i != odd:
                deltas[i] += c
                deltas[odd] -= c
    return tuple(deltas)


def remaining_card(captive: int | None, captured: Iterable[int]) -> int | None:
    """"The card remaining" the Oni-holder is owed (KJ-ONI-6, KJ-ONI-7; gaps KJ-11, KJ-12).

    ``captive`` is the numbered card the Oni-fuda captured, if its capture still stands (at the
    deal or in play, and not undone by the Jizo-fuda); ``captured`` is every card in every
    capture pile. The predicate: *the remaining card is defined exactly when the Oni captured a
    numbered card of rank r and exactly one card of rank r lies outside every capture pile; it is
    that card.* Before it is defined, its identity is not yet "confirmed".

    Why "exactly one" holds at the end of a round played out: after the Oni takes one card of
    rank r, three are left, and they leave play only two at a time (a card captures one match,
    or the dealer takes two of three at the deal); a capture of three matches needs four cards of
    the rank, of which only three are left. So an odd number (3 or 1) stays uncaptured. When every
    card has been played, the uncaptured ones are on the field, and the field never holds three
    cards of a rank after the deal (a third would have captured). So exactly one remains. The
    tests check this on random rounds and on an exhaustive model of one rank.

    >>> remaining_card(41, [0, 41]) is None          # three 4s still out: not yet confirmed
    True
    >>> remaining_card(41, [0, 41, 40, 43])          # the other two captured: 42 is confirmed
    42
    >>> remaining_card(None, [40, 41, 42])           # no Oni capture: nothing is owed
    """
    if captive is None or captive in (ONI, JIZO):
        return None
    rank = captive // 10
    held = set(captured)
    outside = [rank * 10 + i for i in range(4) if rank * 10 + i not in held]
    return outside[0] if len(outside) == 1 else None


# -- dekiyaku configurations (SEED-001 table = configuration A; FW-KJ adds B, C, D) ----------------


def _dekiyaku(yid: str, name: str, ja: str, points: int, cards: Iterable[int], rule: str,
              one_of: frozenset[int] = frozenset()) -> YakuDef:
    """A dekiyaku: every card of ``cards`` held, and (configuration B) one card of ``one_of``."""
    return YakuDef(yid, name, ja, points, one_of, 1 if one_of else 0, rule, group="dekiyaku",
                   required=frozenset(cards))


#: The dekiyaku of each configuration, lowest value first. All rows share the group
#: ``dekiyaku``: by default only the most valuable formed one pays (KJ-YAKU-4).
CONFIGURATIONS: Mapping[str, tuple[YakuDef, ...]] = {
    "A": (
        _dekiyaku("shi-yaku", "Shi Yaku", "しやく", 4, FOURS, "KJ-YAKU-5"),
        _dekiyaku("san-yaku", "San Yaku", "さんやく", 6, THREES, "KJ-YAKU-5"),
        _dekiyaku("danjou", "Danjou (Danjoo)", "だんじょう", 8, {ONI, ITSUN, ISHI}, "KJ-YAKU-5"),
        _dekiyaku("shi-dan", "Shi-Dan", "しだん", 12, FOURS | {ONI}, "KJ-YAKU-5"),
        _dekiyaku("shi-dan-san", "Shi-Dan-San", "しだんさん", 18, FOURS | THREES | {ONI}, "KJ-YAKU-5"),
    ),
    "B": (
        _dekiyaku("shi-yaku", "Shi Yaku", "しやく", 4, FOURS, "KJ-YAKU-6"),
        _dekiyaku("san-yaku", "San Yaku", "さんやく", 6, THREES, "KJ-YAKU-6"),
        _dekiyaku("danjou", "Danjou (Danjoo)", "だんじょう", 8, {ONI, SPECIAL_3, ISHI}, "KJ-YAKU-6"),
        _dekiyaku("shi-dan-san", "Shi-Dan-San", "しだんさん", 18, FOURS | THREES | {ITSUN}, "KJ-YAKU-6",
                  one_of=BAKATSUN),
    ),
    "C": (
        _dekiyaku("shi-yaku", "Shi Yaku", "しやく", 4, FOURS, "KJ-YAKU-7"),
        _dekiyaku("san-yaku", "San Yaku", "さんやく", 6, THREES, "KJ-YAKU-7"),
        _dekiyaku("danjou", "Danjou (Danjoo)", "だんじょう", 8, {ITSUN, SPECIAL_3, ISHI}, "KJ-YAKU-7"),
        _dekiyaku("shi-san", "Shi-San", "しさん", 10, FOURS | THREES, "KJ-YAKU-7"),
        _dekiyaku("shi-dan", "Shi-Dan", "しだん", 12, FOURS | {ITSUN, SPECIAL_3}, "KJ-YAKU-7"),
        _dekiyaku("dan-san", "Dan-San", "だんさん", 14, THREES | {ITSUN, ISHI}, "KJ-YAKU-7"),
        _dekiyaku("shi-dan-san", "Shi-Dan-San", "しだんさん", 18, FOURS | THREES | {ITSUN}, "KJ-YAKU-7"),
    ),
    "D": (
        _dekiyaku("san-shima", "San Shima", "さんしま", 10, THREES, "KJ-YAKU-8"),
        _dekiyaku("danna", "Danna", "だんな", 15, {ITSUN, ISHI}, "KJ-YAKU-8"),
        _dekiyaku("nejikomi", "Nejikomi", "ねじこみ", 30, THREES | {ITSUN, ISHI}, "KJ-YAKU-8"),
    ),
}


# -- gaps and decisions ----------------------------------------------------------------------------

GAPS = (
    Gap("KJ-1", "How is the first dealer chosen, and how are the seats ordered? Ties on the 3s (no special "
        "3 is distinguished), ties among three players and drawn jokers are not covered.",
        "SEED-001 suggests a draw: the lowest number deals, a special card beats a plain one of its number, "
        "plain ties redraw; the number sequence gives the seating.",
        "The draw happens before the game and is outside the engine: a match names its first dealer (seat 0 "
        "unless given). Seats are numbered so that seat d+1 sits to the right of seat d, the next to play.",
        "The draw does not change any rule of play, and game records name the dealer explicitly."),
    Gap("KJ-2", "The game is for four, three playing each round; the seed allows three players but then no "
        "one can sit out when the dealer loses the deal.",
        "SEED-001: 'possible to play the game with 3 players only', without saying how.",
        "Option players=3: everybody plays every round; a dealer who loses passes the deal to the right and "
        "nobody sits out. The game still ends once every player has dealt and lost the deal.",
        "It is the only reading that keeps every other rule unchanged.", ("players",)),
    Gap("KJ-3", "When the Oni-fuda is dealt to the field and the dealer takes it with a card of their choice, "
        "does that count as the Oni having captured a card (for the remaining-card rule)?",
        "SEED-001 does not say; the dossier suggests yes.",
        "Yes: the card taken with the dealt Oni is the Oni's capture, and the remaining card of its number "
        "is owed to the dealer.",
        "The dealer takes the two cards together exactly as a played Oni would capture one."),
    Gap("KJ-4", "At the deal: which two of three cards of a number does the dealer take, and in what order "
        "are four of a number, the jokers and three of a number on the field dealt with?",
        "SEED-001 gives each rule alone. Hana-Awase (FW-HA) would stack three of a kind instead.",
        "Order: (1) four cards of a number on the field is a misdeal, before anything is taken; (2) the "
        "jokers: the dealer takes a dealt Jizo, or the Oni and the Jizo together, or the Oni with a card "
        "of their choice; (3) for each number with three cards left on the field, lowest first, the dealer "
        "takes two of their choice. Every choice is an explicit action of the dealer.",
        "The misdeal voids the deal, so nothing should be taken first; taking the Oni's card before "
        "looking for triples lets the dealer break a triple with the Oni, and the choice matters for the "
        "special cards (I-tsun, I-shi, the special 3). Re-examined in session 2 (issue 15) and kept: when the Oni "
        "and the Jizo are dealt together, the seed's Jizo rule adds that no other field card is taken, yet "
        "the dealer still takes two of three cards of a number. That clause sits in the Jizo's rule and answers "
        "the Oni's own rule (the Oni dealt alone brings a card of the dealer's choice; with the Jizo it brings "
        "none); the triple rule is a separate rule of the deal that keeps a card from capturing three at once. "
        "Reading the clause as cancelling it too would leave a three-card capture on the field in one layout "
        "only, which neither source describes; no option is added."),
    Gap("KJ-5", "What does 'identical to Hana-awase, except numbers are matched' carry over?",
        "FW-HA: one match captures, two matches the player chooses, three matches capture all, no match "
        "stays; a matching card must capture but the player may play a non-matching card.",
        "All of these, matching by number: special and plain cards of a number match each other. The "
        "three-match capture is kept although it cannot happen after the deal rules (KJ-4).",
        "The seed defers to Hana-Awase for everything it does not override."),
    Gap("KJ-6", "How many cards does the Oni-fuda capture, and who chooses? May it be kept in hand?",
        "SEED-001: it can capture 'any card on the field'; it may not be discarded without capturing.",
        "It captures exactly one field card, chosen by its player, from the hand or when drawn. It may be "
        "kept in hand like any card; played last onto a non-empty field it must capture.",
        "'Any card' is singular; nothing forces the player to use it early."),
    Gap("KJ-7", "After an Oni-fuda discarded onto an empty field is 'removed from the game', whose are its "
        "points?",
        "SEED-001 removes it at the end of that turn; it says nothing about its 12 points.",
        "It goes out of play (zone out.oni) and nobody scores it: 288 points are then in play (the Jizo "
        "variant loses nothing, the Oni being worth 0 there).",
        "It is the literal reading; the conservation invariant counts the removed Oni."),
    Gap("KJ-8", "When exactly is a dekiyaku checked, given that it ends the round 'immediately'?",
        "SEED-001: the round ends the moment a player forms one. Taiyaku (FW-TY) checks after both plays.",
        "After every capture step: when the dealer's takes at the deal are done, after the hand card is "
        "resolved, and after the drawn card is resolved. All three participants are checked (the remaining "
        "card can complete another player's dekiyaku, KJ-12): the player to move first, then in turn order; "
        "the first who has one wins the round.",
        "'Immediately' is the seed's word; checking everyone is needed because of the remaining-card rule. One "
        "exception, KJ-27: in the Jizo variant an Oni's capture from the hand is checked after the drawn card."),
    Gap("KJ-9", "Does each of the other two participants pay the dekiyaku's full value?",
        "SEED-001: the player 'receives chips from the other 2'.",
        "Yes: each of the two pays the full value; the player sitting out pays nothing.",
        "Zero-sum and the natural reading, as in Hachi-Hachi and Taiyaku."),
    Gap("KJ-10", "Which dekiyaku table applies, and when several form on the same capture (Shi-Dan always "
        "comes with Shi Yaku), do they add up?",
        "SEED-001 has one table; FW-KJ calls it Configuration A and adds B, C and D, one to be chosen before "
        "play. Neither says whether dekiyaku stack; Hana-Awase's yaku do stack (FW-HA).",
        "Configuration A by default; option configuration=B|C|D. Only the most valuable dekiyaku formed "
        "pays; option dekiyaku_count=stack pays the sum of all formed (Hana-Awase's habit).",
        "The larger dekiyaku contain the smaller ones (in C each is the sum of its parts), so adding them "
        "would count the same cards twice.", ("configuration", "dekiyaku_count")),
    Gap("KJ-11", "'The card remaining' of the Oni's number assumes exactly one such card, and 'the player "
        "who has the Oni-fuda' needs a meaning.",
        "SEED-001 states the rule for a round played out with the Oni having captured a card.",
        "The predicate of remaining_card(): owed when the Oni's capture stands and exactly one card of its "
        "number is outside every capture pile. At the end of a round played out it is moved from the field "
        "to the capture pile that holds the Oni; should that complete the holder's dekiyaku (possible only "
        "with remaining_card=end), the round ends with that dekiyaku. Not owed when the Oni was removed "
        "(KJ-7), was captured by the Jizo, or captured the Jizo.",
        "Exactly one card is left by a parity argument (see remaining_card), checked by tests."),
    Gap("KJ-12", "The info box applies the rule during the round, once the card's 'type and number' are "
        "'confirmed'. When is that?",
        "SEED-001: the card counts as the holder's as soon as it is confirmed, even if not yet on the field; "
        "it can complete a dekiyaku.",
        "Confirmed is the same predicate: exactly one card of the Oni's number is left outside the capture "
        "piles (the other two have been captured). From then on it counts as the Oni-holder's for dekiyaku "
        "checks (not physically moved until the end). Option remaining_card=end applies the rule at the end "
        "of the round only.",
        "When the other two have been captured, nothing else can happen to the last one: it matches no card "
        "that is left.", ("remaining_card",)),
    Gap("KJ-13", "No settlement rule when all three chip scores are negative.",
        "SEED-001 covers two negative, two positive and all positive.",
        "A draw: no chips change hands and the dealer deals again. This case cannot actually happen in a "
        "round played out under these rules: the field ends empty, so at least 288 points are captured, "
        "more than three scores of 95 or less (285).",
        "It mirrors the all-positive draw; the tests show the case is unreachable in play."),
    Gap("KJ-14", "When all three are positive the dealer deals again, but a dealer without the most points "
        "loses the deal: which wins?",
        "SEED-001 states both rules.",
        "The draw rule: the dealer stays. Option draw_dealer=most-points applies the most-points rule to "
        "draws too.",
        "The draw sentence is specific to this case and names the dealer explicitly.", ("draw_dealer",)),
    Gap("KJ-15", "Who keeps the deal on a tie for most points, or when another player forms a dekiyaku?",
        "SEED-001: the dealer stays after forming a dekiyaku or having 'the most points'.",
        "A dealer tied for the most card points keeps the deal; a dekiyaku formed by another player loses "
        "it.", "A tie is not a loss; another player's dekiyaku is."),
    Gap("KJ-16", "When exactly does the game end, who wins on a tie, and what if a player runs out of "
        "chips?",
        "SEED-001: until all players have dealt and lost the deal; the most chips wins; 30 chips each.",
        "Since the deal passes to the right, the game ends with the round in which the deal is lost for the "
        "fourth time (third with three players). Equal most chips is a shared win (a drawn game). Chips may "
        "go below zero (debts).", "Literal reading; nothing in the source stops play at zero chips."),
    Gap("KJ-17", "The page allows a Kabufuda or hanafuda deck instead of Daini.",
        "SEED-001 does not say which hanafuda cards stand for the special cards and the Oni.",
        "Only the Daini deck is modelled (a Kabufuda deck with its blank as the Oni maps onto the same card "
        "ids); the hanafuda substitution is out of scope.", "The substitution is not defined by the source."),
    Gap("KJ-18", "What happens exactly when a Jizo played from hand meets an Oni drawn the same turn, and "
        "where do the two end up?",
        "SEED-001: the Oni captures the Jizo.",
        "The drawn Oni captures only the Jizo; both go to the current player's capture pile, and the "
        "remaining-card rule does not apply (the Oni captured no numbered card).",
        "The source names only the Jizo as its capture."),
    Gap("KJ-19", "Points in the Jizo variant.", "SEED-001: Oni 0, Jizo 12.",
        "As stated; the total stays 300 and removing the Oni loses nothing.", "Literal reading.", literal=True),
    Gap("KJ-20", "The special 3 has 'no distinction' in the seed but is used by configurations B and C.",
        "Physical Daini decks have a special 3 (WEBLIO-1SUIT); FW-KJ uses it in B and C.",
        "The special 3 keeps its own id (30); it matches and scores like any 3 and matters only to "
        "configurations B and C.", "It keeps one card table for every configuration."),
    Gap("KJ-21", "The third player shuffles and the second may cut.", "SEED-001, procedural.",
        "Not modelled: the match's documented shuffle stands in for both.", "No rule depends on it."),
    Gap("KJ-22", "Is four of a number in one player's hand a misdeal?",
        "SEED-001 names only the field; Hana-Awase leaves the hand case to house rules (FW-HA).",
        "No: only the field is checked.", "The Kujuroku page states the field rule alone."),
    Gap("KJ-23", "The Jizo meetings: does a drawn Jizo also subdue an Oni captured in an earlier turn or at "
        "the deal?",
        "SEED-001 lists four meetings: dealt together; Oni used from hand then Jizo drawn; Oni discarded on "
        "an empty field then Jizo drawn; Jizo played then Oni drawn.",
        "Only those four. An Oni already in a capture pile from an earlier turn or the deal is not affected, "
        "and a drawn Jizo then simply goes to its player's capture pile.",
        "Each listed meeting happens within one turn or at the deal; neither joker stays on the field after "
        "a turn, so these are all the meetings there are."),
    Gap("KJ-24", "Does an Oni captured by the Jizo still count as the Oni-fuda in a dekiyaku (Danjou, "
        "Shi-Dan)?",
        "SEED-001: its 'power' is 'subdued'; the dekiyaku are lists of cards held.",
        "Yes: a dekiyaku counts the cards in the capture pile, and the Oni is there. Its power to capture "
        "is what the Jizo takes away.", "The dekiyaku table names cards, not powers."),
    Gap("KJ-25", "When the drawn Oni faces a single field card, or the field is empty after the hand play?",
        "SEED-001: drawn, it must capture; onto an empty field it is discarded.",
        "One field card: it captures that card (no choice to make). Empty field: it is discarded there and "
        "removed at the end of the turn, as from the hand. With 41 cards the empty-field case cannot arise: "
        "while the Oni is still in a hand or the draw pile, every play changes the number of field cards by an "
        "odd number, so each turn starts with an even number and the draw meets an odd one. (Once an Oni "
        "discarded from the hand onto an empty field is removed, that parity flips for the rest of the round; "
        "by then the Oni cannot be drawn. z3 proves the restricted claim.) In the Jizo variant a drawn Jizo "
        "changes the parity.",
        "Literal reading; the parity is checked by the invariants and proved by z3."),
    Gap("KJ-26", "Some dekiyaku of the tables can never be paid in play: is that intended, and should a round "
        "go on past a smaller dekiyaku so that a larger one can form?",
        "SEED-001 and FW-KJ list the dekiyaku and say a dekiyaku ends the round as soon as it is formed; "
        "neither says that some rows are out of reach.",
        "Literal reading: the round ends at the first dekiyaku (KJ-YAKU-1, KJ-8), so with the 41-card deck these "
        "rows are never paid in a round: Shi-Dan-San in configurations A and B, Shi-San and Shi-Dan-San in C, "
        "Nejikomi in D. In the Jizo variant with jizo_timing=after-draw (KJ-27) the turn in which the Oni "
        "captures from the hand is one check, so it can add the Oni and cards of two numbers, and every row "
        "becomes payable; with jizo_timing=at-capture the 41-card list holds again. The rows stay in the tables "
        "(scoring a pile with 'hanafuda score' still reports them).",
        "Found by z3 (the capture-step model of the proofs): each capture adds cards of a single number (the "
        "jokers aside) and the dealer's takes at most four cards, so a row that needs two complete sets of "
        "four, or a set of four together with another dekiyaku outside it, always has a smaller dekiyaku "
        "formed first. Re-examined in session 2 under the timing of KJ-27: the same model, with the Oni's turn "
        "as one step, finds each row paid. Neither source offers a way to play on, so no option is added."),
    Gap("KJ-27", "In the Jizo variant, the Oni played from the hand captures a card and the Jizo is then drawn: "
        "the seed returns the Oni's card to the field. But if the Oni's capture completes a dekiyaku, checking "
        "it at once (KJ-8) ends the round before the draw, and the undo never happens.",
        "SEED-001 §Jizo-fuda and Oni-fuda states the undo for exactly this order (Oni used from the hand, then "
        "the Jizo drawn); §Dekiyaku ends the round immediately when a dekiyaku is formed. Neither says which "
        "comes first.",
        "jizo_timing=after-draw (the default): in the Jizo variant, when the Oni captures from the hand, "
        "dekiyaku are checked once, after the drawn card is resolved (a drawn Jizo first returns the Oni's card "
        "to the field). Every other capture is checked at once as in KJ-8. Option jizo_timing=at-capture "
        "checks the Oni's capture at once, so a dekiyaku it completes ends the round before the draw.",
        "Changed in session 2 (issue 15): before, the Oni's capture was checked at once and the seed's undo was "
        "lost whenever that capture completed a dekiyaku (seen with the dealer's Oni taking the third 4 on the "
        "first turn, Shi-Dan paid with the Jizo on top of the draw pile). The seed states the undo without a "
        "condition, so the capture is not settled until the draw; a dekiyaku made of a capture the same turn "
        "takes back was never formed. The other order is a reasonable reading of 'immediately', so it stays "
        "an option. z3 re-examined KJ-26 under this timing.", ("jizo_timing",)),
)


def _r(rid: str, topic: Topic, text: str, cites: tuple[Citation, ...], ev: Evidence,
       gap: str | None = None, option: str | None = None, decided: str = "") -> Rule:
    return Rule(rid, topic, text, cites, ev, gap, option, decided)


RULES = (
    # equipment and seating
    _r("KJ-EQ-1", T.EQUIPMENT, "The Daini deck is used: the numbers 1 to 10, four cards each, among them a special "
       "1 (I-tsun) and a special 4 (I-shi), plus the Oni-fuda: 41 cards. The special 3 is not told apart from the "
       "other 3s.",
       (seed("Equipment", "for a total of 41 cards"),), S, "KJ-20",
       decided="The special 3 keeps its own card (id 30): it matches and scores like any 3 and matters only to "
       "configurations B and C."),
    _r("KJ-EQ-2", T.EQUIPMENT, "In the Jizo variant (option jizo=on) the Jizo-fuda is added: 42 cards.",
       (seed("Variant: Jizo-fuda", "the number of cards in the deck is 42"),), S, "KJ-19", "jizo"),
    _r("KJ-EQ-3", T.EQUIPMENT, "Four play the game, three of them in each round: the dealer and the next two to "
       "the dealer's right; the fourth sits the round out. Three may also play alone.",
       (seed("The Round Participants", "Only the first 3 players"),), S, "KJ-2", "players",
       decided="Option players=3: all three play every round and nobody sits out; the deal still passes to the "
       "right."),
    _r("KJ-EQ-4", T.EQUIPMENT, "Each player starts with 30 chips.", (seed("Equipment", "30 chips per player"),),
       S, "KJ-16",
       decided="Chips may go below zero: play does not stop when a player has none left."),
    # the deal
    _r("KJ-DEAL-1", T.DEALING, "The first dealer is chosen before the game; the engine takes it as given.",
       (seed("Choosing the Dealer and Seating Arrangement", "No method is stipulated"),), D, "KJ-1"),
    _r("KJ-DEAL-2", T.DEALING, "The dealer deals three cards to the next player to the right, three to the "
       "player after, three to themselves and three face up to the field, twice round: six cards to each "
       "hand and six to the field. The rest (17 cards, 18 in the Jizo variant) is the draw pile.",
       (seed("Dealing the Initial Cards", "3 cards to 2nd player"),), S, "KJ-21",
       decided="The shuffle by the third player and the cut by the second are not modelled: the match's documented "
       "shuffle stands in for both."),
    _r("KJ-DEAL-3", T.DEALING, "If the field holds all four cards of a number, the deal is void (a misdeal): the "
       "cards are reshuffled and dealt again.",
       (seed("Dealing the Initial Cards", "a misdeal is declared"),), S, "KJ-4",
       decided="The same dealer deals again, and this is checked before the dealer takes any card (KJ-DEAL-4 to "
       "6)."),
    _r("KJ-DEAL-4", T.DEALING, "If the Oni-fuda is dealt to the field, the dealer takes it together with one field "
       "card of their choice into their capture pile.",
       (seed("Dealing the Initial Cards", "one card on the field of the dealer"),), S, "KJ-3",
       decided="That card counts as the Oni's capture: the last card of its number is owed to the dealer as for an "
       "Oni played (KJ-ONI-6, KJ-ONI-7)."),
    _r("KJ-DEAL-5", T.DEALING, "In the Jizo variant, a Jizo dealt to the field goes to the dealer's capture "
       "pile; if the Oni is dealt there too, the dealer takes both and no other card.",
       (seed("Jizo-fuda when dealt on the field", "doesn't get to take any other card"),), S),
    _r("KJ-DEAL-6", T.DEALING, "If three cards of a number are on the field, the dealer takes two of the three "
       "into their capture pile.",
       (seed("Dealing the Initial Cards", "the dealer takes 2 of those 3 cards"),), S, "KJ-4",
       decided="This comes after the jokers, also after the Oni and the Jizo were dealt together; for each such "
       "number, lowest first, the dealer chooses which two."),
    _r("KJ-DEAL-7", T.DEALING, "Four cards of a number in a hand is not a misdeal.",
       (ha("Misdeals", "appears to vary by source"),), D, "KJ-22"),
    # the turn
    _r("KJ-TURN-1", T.TURN, "The dealer plays first; play passes to the right (anticlockwise) among the three "
       "participants.", (ha("Gameplay", "turn to play passes anti-clockwise"),
                          seed("The Round Participants", "counter-clockwise")), RS, "KJ-5"),
    _r("KJ-TURN-2", T.TURN, "A turn has two plays: a card from the hand, then the top card of the draw pile, "
       "turned up and played the same way.", (ha("Turns", "in the same fashion"),), RS, "KJ-5"),
    _r("KJ-TURN-3", T.TURN, "With 41 cards the draw pile holds one card fewer than the hands, so the last "
       "player to play from the hand does not draw; with 42 cards every turn draws.",
       (seed("Gameplay", "no longer draws a card"), seed("Variant: Jizo-fuda", "still gets to draw")), S),
    _r("KJ-TURN-4", T.TURN, "The round ends when a dekiyaku is formed or when every hand is empty.",
       (seed("Gameplay", "run out of cards in hand"),), S),
    # capturing
    _r("KJ-CAP-1", T.CAPTURE, "Cards match by number only: the special and plain cards of a number match each "
       "other.", (seed("Gameplay", "numbers/courts are being matched"),),
       S, "KJ-5",
       decided="The rest of matching is Hana-Awase's, by number: the jokers match nothing by number, and the "
       "capture rules are KJ-CAP-2 to 6."),
    _r("KJ-CAP-2", T.CAPTURE, "A card matching one field card captures it: both go to the player's capture "
       "pile.", (ha("Turns", "this matching pair is moved"),), RS, "KJ-5"),
    _r("KJ-CAP-3", T.CAPTURE, "A card matching two field cards captures one of them, chosen by the player.",
       (ha("Turns", "the player may choose"),), RS, "KJ-5"),
    _r("KJ-CAP-4", T.CAPTURE, "A card matching three field cards captures all three.",
       (ha("Turns", "all three are captured"),), RS, "KJ-5"),
    _r("KJ-CAP-5", T.CAPTURE, "A card matching nothing stays on the field.", (ha("Turns", "remains on the table"),),
       RS, "KJ-5"),
    _r("KJ-CAP-6", T.CAPTURE, "A card that matches must capture, but a player may play a hand card that "
       "matches nothing although another would capture.", (ha("Turns", "no obligation to play a card"),),
       RS, "KJ-5"),
    # the Oni-fuda
    _r("KJ-ONI-1", T.SPECIAL, "The Oni-fuda played from the hand captures a field card, whatever its number.",
       (seed("Wild Card", "regardless of number"),), S, "KJ-6",
       decided="It captures exactly one card, chosen by its player."),
    _r("KJ-ONI-2", T.SPECIAL, "The Oni-fuda may not be played from the hand without capturing while the field "
       "has cards.", (seed("Wild Card", "not allowed to discard it"),), S, "KJ-6",
       decided="It may be kept in hand like any card; played as the last card onto a non-empty field it must "
       "capture."),
    _r("KJ-ONI-3", T.SPECIAL, "A drawn Oni-fuda must capture a field card.",
       (seed("Wild Card", "must be used to capture"),), S, "KJ-25",
       decided="The player chooses which one; facing a single card, it takes that one."),
    _r("KJ-ONI-4", T.SPECIAL, "Onto an empty field the Oni-fuda is discarded: from the hand if its player "
       "wishes, always when drawn. The drawn card of that turn cannot capture it.",
       (seed("Wild Card", "may not use the drawn card"),), S),
    _r("KJ-ONI-5", T.SPECIAL, "An Oni-fuda left on the field when the turn ends is removed from the round.",
       (seed("Wild Card", "removed from the game"),), S, "KJ-7",
       decided="Nobody scores its points: it goes to zone out.oni."),
    _r("KJ-ONI-6", T.SPECIAL, "At the end of a round played out, if the Oni-fuda captured a card, the card of that "
       "number remaining goes to the player holding the Oni.",
       (seed("Wild Card", "automatically belongs to the player"),), S, "KJ-11",
       decided="Remaining means exactly one card of that number outside every capture pile (remaining_card()); "
       "nothing is owed when the Oni was removed, was captured by the Jizo or captured the Jizo."),
    _r("KJ-ONI-7", T.SPECIAL, "Once the number of that remaining card is confirmed, it counts as the Oni-holder's "
       "during the round and can complete their dekiyaku, which ends the round.",
       (seed("Wild Card", "treated as if the player already has it"),), S, "KJ-12", "remaining_card",
       decided="Confirmed means the other two cards of its number have been captured. Option remaining_card=end "
       "applies the rule at the end of the round only."),
    # the Jizo-fuda
    _r("KJ-JIZO-1", T.SPECIAL, "The Jizo-fuda captures nothing but the Oni. Played from the hand or drawn, it "
       "is put on the field without capturing and goes to its player's capture pile when the turn ends.",
       (seed("Jizo-fuda during gameplay", "goes to your capture pile"),), S, "KJ-23", "jizo",
       decided="A drawn Jizo does not subdue an Oni captured in an earlier turn or at the deal: it simply goes to "
       "its player's capture pile (the seed lists four meetings only)."),
    _r("KJ-JIZO-2", T.SPECIAL, "If the Oni-fuda captured a card from the hand and the Jizo-fuda is then drawn, "
       "the captured card goes back to the field and the Jizo captures the Oni.",
       (seed("Jizo-fuda and Oni-fuda", "remains on the field"),), S, "KJ-27", "jizo_timing",
       decided="The Oni's capture is checked for dekiyaku only after the drawn card (jizo_timing=after-draw), "
       "so the undo also happens when that capture completed a dekiyaku; jizo_timing=at-capture checks it at "
       "once and a dekiyaku it completes ends the round before the draw."),
    _r("KJ-JIZO-3", T.SPECIAL, "If the Oni-fuda was discarded from the hand onto an empty field and the "
       "Jizo-fuda is then drawn, the Jizo captures the Oni.",
       (seed("Jizo-fuda and Oni-fuda", "captured by the Jizo-fuda"),), S, None, "jizo"),
    _r("KJ-JIZO-4", T.SPECIAL, "If the Jizo-fuda was played from the hand and the Oni-fuda is then drawn, the Oni "
       "captures the Jizo.",
       (seed("Jizo-fuda and Oni-fuda", "captured by the Oni-fuda"),), S, "KJ-18", "jizo",
       decided="It captures nothing else; both go to the player's capture pile, and no remaining card is owed."),
    _r("KJ-JIZO-5", T.SPECIAL, "In the Jizo variant the Oni is worth 0 card points and the Jizo 12.",
       (seed("Variant: Jizo-fuda", "now worth 0 points"),), S, "KJ-19", "jizo"),
    # dekiyaku
    _r("KJ-YAKU-1", T.YAKU, "A dekiyaku ends the round the moment it is formed: checked after the dealer's "
       "takes at the deal and after each of the two plays of a turn, for all three participants, the player "
       "to move first. In the Jizo variant an Oni's capture from the hand is checked after the drawn card "
       "(KJ-27).", (seed("Dekiyaku", "the round ends immediately"),), D, "KJ-8"),
    _r("KJ-YAKU-2", T.YAKU, "The other two participants pay the dekiyaku's maker in chips.",
       (seed("Dekiyaku", "from the other 2 participating"),), S,
       "KJ-9",
       decided="Each of them pays the full value; the seat sitting out pays nothing."),
    _r("KJ-YAKU-3", T.YAKU, "The dekiyaku table is chosen before play: configuration A (the seed's table) by "
       "default, B, C or D as options.", (later("Dekiyaku", "Dekiyaku Set Configurations"),), LR, "KJ-10",
       "configuration"),
    _r("KJ-YAKU-4", T.YAKU, "When several dekiyaku form at once only the most valuable pays; option "
       "dekiyaku_count=stack pays them all.", (seed("Dekiyaku"), ha("Yaku", "Points from multiple yaku stack")),
       D, "KJ-10", "dekiyaku_count"),
    _r("KJ-YAKU-5", T.YAKU, "Configuration A: Shi Yaku, the four 4s (4); San Yaku, the four 3s (6); Danjou, "
       "the Oni, I-tsun and I-shi (8); Shi-Dan, the four 4s and the Oni (12); Shi-Dan-San, the four 4s, the "
       "four 3s and the Oni (18).", (seed("Dekiyaku", "Shi-Dan-San"), later("Configuration A.")), S),
    _r("KJ-YAKU-6", T.YAKU, "Configuration B: Shi Yaku (4); San Yaku (6); Danjou, the Oni, the special 3 and "
       "I-shi (8); Shi-Dan-San, the four 4s, I-tsun, one plain 1 and the four 3s (18).",
       (later("Configuration B."),), LR, "KJ-10", "configuration"),
    _r("KJ-YAKU-7", T.YAKU, "Configuration C: Shi Yaku (4); San Yaku (6); Danjou, I-tsun, the special 3 and "
       "I-shi (8); Shi-San, the four 4s and four 3s (10); Shi-Dan, the four 4s, I-tsun and the special 3 (12); "
       "Dan-San, the four 3s, I-tsun and I-shi (14); Shi-Dan-San, the four 4s, I-tsun and the four 3s (18).",
       (later("Configuration C."),), LR, "KJ-10", "configuration"),
    _r("KJ-YAKU-8", T.YAKU, "Configuration D: San Shima, the four 3s (10); Danna, I-tsun and I-shi (15); "
       "Nejikomi, the four 3s, I-tsun and I-shi (30).", (later("Configuration D."),), LR, "KJ-10",
       "configuration"),
    _r("KJ-YAKU-9", T.YAKU, "A dekiyaku counts the cards in a capture pile: an Oni captured by the Jizo still "
       "counts as the Oni.", (seed("Jizo-fuda and Oni-fuda", "subdued by the Jizo"),), D, "KJ-24"),
    # scoring without dekiyaku
    _r("KJ-SCORE-1", T.SCORING, "Card points: the Oni 12; the 1s, 2s and 10s 10 each; the other cards their "
       "number; 300 in all.", (seed("Card Points", "total card points in the deck is 300"),), S),
    _r("KJ-SCORE-2", T.SCORING, "Chip score by card points: 116 or more +3; 106–115 +2; 96–105 +1; 86–95 −1; "
       "76–85 −2; 75 or less −3.", (seed("Chip Score Table", "minimum score"),), S),
    _r("KJ-SCORE-3", T.SCORING, "Two negative chip scores: the positive player is paid by each loser the "
       "loser's own chip score, whatever the winner's own.",
       (seed("Chip Score Table", "regardless of the winner's positive"),), S),
    _r("KJ-SCORE-4", T.SCORING, "Two positive chip scores: the negative player pays each winner the winner's "
       "chip score, whatever the loser's own.", (seed("Chip Score Table", "regardless of the loser's"),), S),
    _r("KJ-SCORE-5", T.SCORING, "Three positive chip scores: a draw, no chips change hands.",
       (seed("Chip Score Table", "treated as a draw"),), S),
    _r("KJ-SCORE-6", T.SCORING, "Three negative chip scores: a draw as well (and unreachable in a round played "
       "out).", (seed("Chip Score Table"), dossier("3.2", "KJ-13")), D, "KJ-13"),
    # end of round, next dealer
    _r("KJ-END-1", T.END_ROUND, "The dealer keeps the deal after forming a dekiyaku or having the most points; a "
       "dealer without the most points loses it.",
       (seed("The Next Dealer", "If the dealer forms a dekiyaku"),), S, "KJ-15",
       decided="A dealer tied for the most card points keeps the deal; a dekiyaku formed by another player loses "
       "it."),
    _r("KJ-END-2", T.END_ROUND, "A dealer who loses the deal sits out the next round and the player to their right "
       "deals.",
       (seed("The Next Dealer", "player to the dealer's right"),), S, "KJ-2", "players",
       decided="With players=3 nobody sits out."),
    _r("KJ-END-3", T.END_ROUND, "After a drawn round the dealer deals again (option draw_dealer=most-points: "
       "the most-points rule decides).", (seed("Chip Score Table", "The dealer deals the next round"),), D,
       "KJ-14", "draw_dealer"),
    # end of game
    _r("KJ-GAME-1", T.END_GAME, "The game ends when every player has dealt and lost the deal.",
       (seed("End of Game", "lost their dealer status"),), S, "KJ-16",
       decided="That is the round in which the deal is lost for the fourth time (the third with three players)."),
    _r("KJ-GAME-2", T.END_GAME, "The player with the most chips wins; equal most is a shared (drawn) result; "
       "chips may go below zero.", (seed("End of Game", "most chips wins"),), D, "KJ-16"),
    _r("KJ-VAR-1", T.VARIANTS, "Playing with a hanafuda deck instead of Daini is not supported.",
       (seed("Equipment", "You may also use a Hanafuda deck"),), D, "KJ-17"),
)

# The options' values, one enum each: the OptionSpecs below take their choices from them.


class Jizo(enum.StrEnum):
    """The values of option ``jizo``."""

    OFF = "off"
    ON = "on"


class Players(enum.StrEnum):
    """The values of option ``players``."""

    N4 = "4"
    N3 = "3"


class Configuration(enum.StrEnum):
    """The values of option ``configuration``."""

    A = "A"
    B = "B"
    C = "C"
    D = "D"


class DekiyakuCount(enum.StrEnum):
    """The values of option ``dekiyaku_count``."""

    HIGHEST = "highest"
    STACK = "stack"


class RemainingCard(enum.StrEnum):
    """The values of option ``remaining_card``."""

    CONFIRMED = "confirmed"
    END = "end"


class JizoTiming(enum.StrEnum):
    """The values of option ``jizo_timing``."""

    AFTER_DRAW = "after-draw"
    AT_CAPTURE = "at-capture"


class DrawDealer(enum.StrEnum):
    """The values of option ``draw_dealer``."""

    STAY = "stay"
    MOST_POINTS = "most-points"


OPTIONS = (
    OptionSpec("jizo", Jizo, Jizo.OFF, "The Jizo-fuda variant: 42 cards, Oni worth 0, Jizo 12.",
               seed("Variant: Jizo-fuda")),
    OptionSpec("players", Players, Players.N4, "Four players (three play each round, one sits out) or three.",
               seed("introduction", "possible to play the game with 3 players only")),
    OptionSpec("configuration", Configuration, Configuration.A, "The dekiyaku table (A is the seed's).",
               later("Dekiyaku", "choose any one")),
    OptionSpec("dekiyaku_count", DekiyakuCount, DekiyakuCount.HIGHEST,
               "Dekiyaku formed at once: only the most valuable pays, or all of them.",
               ha("Yaku", "Points from multiple yaku stack")),
    OptionSpec("remaining_card", RemainingCard, RemainingCard.CONFIRMED,
               "The Oni's remaining card counts for dekiyaku once confirmed, or only at the end of the round.",
               seed("Wild Card", "once the type and number of this card has been confirmed")),
    OptionSpec("jizo_timing", JizoTiming, JizoTiming.AFTER_DRAW,
               "Jizo variant: an Oni's capture from the hand is checked for dekiyaku after the drawn card (so a "
               "drawn Jizo can undo it first), or at once like any capture.",
               seed("Jizo-fuda and Oni-fuda", "remains"),
               (OptionLink("jizo", ("off",), "KJ-27", allowed=("after-draw",)),)),
    OptionSpec("draw_dealer", DrawDealer, DrawDealer.STAY,
               "After a drawn round: the dealer deals again, or the most-points rule decides.",
               seed("Chip Score Table", "The dealer deals the next round")),
)

RULESETS = (
    RulesetSpec("fudawiki", "The FudaWiki page: 41 cards, dekiyaku configuration A.", {}, seed("Gameplay")),
)

SPEC = KUJUROKU = GameSpec(
    key="kujuroku",
    name="Kujuroku",
    aliases=("kujūroku", "ninety-six", "96"),
    deck="daini",
    summary="Three-handed fishing game with the Daini deck: the Oni-fuda captures anything, dekiyaku end the "
            "round at once, otherwise card points are settled in chips around a par of 96.",
    sources=("SEED-001", "FW-KJ", "FW-HA", "WEBLIO-1SUIT"),
    rules=RULES,
    gaps=GAPS,
    options=OPTIONS,
    rulesets=RULESETS,
    default_ruleset="fudawiki",
)


# -- invariants (the neutral form) -----------------------------------------------------------------

from hanafuda_spec.invariants import GameProfile, Step  # noqa: E402
from hanafuda_spec.neutral import Snapshot  # noqa: E402

_DEAL_PHASES = ("deal-oni", "deal-triple")
_LIVE_PHASES = ("deal-oni", "deal-triple", "play", "take")
#: Round-end reasons of a round played out (no dekiyaku).
EXHAUSTIVE = ("card-points", "draw", "draw-all-negative")


def _seats(options: Mapping[str, str]) -> int:
    return int(options.get("players", "4"))


def _jizo(options: Mapping[str, str]) -> bool:
    return options.get("jizo", "off") == "on"


def _participants(s: Snapshot, seats: int) -> tuple[int, ...]:
    return tuple((s.dealer + i) % seats for i in range(PLAYERS_PER_ROUND))


def _in_hands(s: Snapshot, seats: int) -> int:
    return sum(len(s.zone(f"hand.{i}")) for i in range(seats))


def _new_round(step: Step) -> bool:
    return not step.match_over and (step.before is None or bool(step.outcomes))


def _deal_sizes(step: Step) -> str | None:
    """KJ-DEAL-2: a new round has six cards in each participant's hand, six dealt to the field (some
    possibly taken by the dealer, KJ-DEAL-4…6) and a draw pile of 17 (18 with the Jizo)."""
    if not _new_round(step):
        return None
    s, seats = step.after, _seats(step.options)
    parts = _participants(s, seats)
    hands = tuple(len(s.zone(f"hand.{i}")) for i in parts)
    dealt_field = len(s.zone("field")) + len(s.zone(f"captured.{s.dealer}"))
    others = sum(len(s.zone(f"captured.{i}")) for i in range(seats) if i != s.dealer)
    want = stock_size(_jizo(step.options))
    if hands != (HAND_SIZE,) * 3 or dealt_field != 6 or others or len(s.zone("stock")) != want:
        return (f"deal sizes: hands {hands}, field+dealer's pile {dealt_field}, other piles {others}, "
                f"stock {len(s.zone('stock'))} (want 6/6/6, 6, 0, {want})")
    return None


def _sitting_out(step: Step) -> str | None:
    """KJ-EQ-3: in the four-player game the seat to the dealer's left holds no card all round."""
    seats = _seats(step.options)
    if seats == PLAYERS_PER_ROUND:
        return None
    s = step.after
    out = (s.dealer + PLAYERS_PER_ROUND) % seats
    if s.zone(f"hand.{out}") or s.zone(f"captured.{out}"):
        return f"seat {out} sits this round out but holds cards"
    return None


def _draw_pile(step: Step) -> str | None:
    """KJ-TURN-3: the draw pile always holds one card fewer than the hands (41 cards) or as many (42):
    it never runs short, and only the very last play of a 41-card round finds it empty."""
    s = step.after
    if s.phase not in _LIVE_PHASES:
        return None
    held = _in_hands(s, _seats(step.options))
    want = held if _jizo(step.options) else held - 1
    if len(s.zone("stock")) != max(want, 0):
        return f"draw pile {len(s.zone('stock'))} with {held} cards in hands (want {max(want, 0)})"
    if s.phase == "play" and s.to_move is not None and not s.zone(f"hand.{s.to_move}"):
        return f"seat {s.to_move} is to play with an empty hand"
    return None


def _exact_draws(step: Step) -> str | None:
    """KJ-TURN-3: a round played to the end uses exactly 17 draws (41 cards) or 18 (42 cards)."""
    b = step.before
    if b is None or not any(o.reason in EXHAUSTIVE for o in step.outcomes):
        return None
    seats, jizo = _seats(step.options), _jizo(step.options)
    held, left = _in_hands(b, seats), len(b.zone("stock"))
    drawn_last = 1 if jizo and b.phase == "play" else 0
    ok = (b.phase == "take" and held == 0 and left == 0) or (b.phase == "play" and held == 1 and
                                                              left == drawn_last)
    if not ok:
        used = stock_size(jizo) - left + drawn_last
        return f"round played out after {used} draws (want {stock_size(jizo)})"
    return None


def _jokers_leave_the_field(step: Step) -> str | None:
    """KJ-ONI-5, KJ-JIZO-1: at the start of every turn neither joker is on the field; out.oni holds only
    the Oni."""
    s = step.after
    if s.phase == "play" and (ONI in s.zone("field") or JIZO in s.zone("field")):
        return f"a joker stays on the field after a turn: {s.zone('field')}"
    if set(s.zone("out.oni")) - {ONI}:
        return f"out.oni holds {s.zone('out.oni')}"
    return None


def _field_parity(step: Step) -> str | None:
    """KJ-25: with 41 cards, while the Oni is in a hand or the draw pile, every turn starts with an
    even number of field cards (each play changes the number by one or three), so a drawn Oni never
    finds the field empty."""
    s = step.after
    if _jizo(step.options) or s.phase != "play" or len(s.zone("field")) % 2 == 0:
        return None
    oni_unplayed = 0 in s.zone("stock") or any(0 in s.zone(z) for z in s.zone_names() if z.startswith("hand."))
    if not oni_unplayed:
        return None
    return f"a turn starts with {len(s.zone('field'))} field cards"


def _dekiyaku_payment(step: Step) -> str | None:
    """KJ-YAKU-2/4: the maker receives the value from each of the two others; the seat out pays nothing."""
    seats = _seats(step.options)
    for o in step.outcomes:
        if o.reason != "dekiyaku":
            continue
        gains = [i for i, d in enumerate(o.deltas) if d > 0]
        if len(gains) != 1:
            return f"dekiyaku paid to {len(gains)} players: {o.deltas}"
        w = gains[0]
        pts = [y.points for y in o.yaku[w]]
        value = sum(pts) if step.options.get("dekiyaku_count") == "stack" else max(pts, default=0)
        payers = [d for i, d in enumerate(o.deltas) if i != w and d != 0]
        if value <= 0 or o.deltas[w] != 2 * value or sorted(payers) != [-value, -value] or \
                len(o.deltas) != seats:
            return f"dekiyaku worth {value} settled as {o.deltas}"
    return None


def _settlement_shape(step: Step) -> str | None:
    """KJ-SCORE-3…6: after a round played out, one player's chips balance the other two's (each 1 to 3),
    or nobody pays (a draw)."""
    for o in step.outcomes:
        if o.reason in ("draw", "draw-all-negative", "misdeal") and any(o.deltas):
            return f"{o.reason} moved chips: {o.deltas}"
        if o.reason != "card-points":
            continue
        nz = sorted((d for d in o.deltas if d), key=abs)
        if len(nz) != 3:
            return f"card-point settlement touches {len(nz)} players: {o.deltas}"
        a, b, big = nz
        if any(not 1 <= abs(d) <= 3 or (d > 0) == (big > 0) for d in (a, b)) or a + b + big != 0:
            return f"card-point settlement has no single balancing player: {o.deltas}"
    return None


def _settlement_exact(step: Step) -> str | None:
    """KJ-SCORE-1…6 exactly, for an implementation that reports the final position: each participant's
    card points are those of its final capture pile (and so are the card points reported), and the
    chips move as :func:`card_point_deltas` says."""
    seats, jizo = _seats(step.options), _jizo(step.options)
    for o in step.outcomes:
        if o.reason not in EXHAUSTIVE or o.final is None:
            continue
        points = {i: sum(card_points(c, jizo) for c in o.final.zone(f"captured.{i}"))
                  for i in _participants(o.final, seats)}
        if o.card_points is not None:
            reported = {i: o.card_points[i] for i in points}
            if reported != points:
                return f"card points {reported} reported, the final capture piles are worth {points}"
        want = card_point_deltas({i: chip_score(p) for i, p in points.items()}, seats)
        if tuple(o.deltas) != want:
            return f"{o.reason}: chips moved {list(o.deltas)}, card points {points} give {list(want)}"
    return None


def _chips_total(step: Step) -> str | None:
    """KJ-EQ-4: chips are only passed around: the total stays 30 per player."""
    seats = _seats(step.options)
    if sum(step.after.scores) != START_CHIPS * seats or len(step.after.scores) != seats:
        return f"chips {step.after.scores} do not total {START_CHIPS * seats}"
    return None


def _dealer_rotation(step: Step) -> str | None:
    """KJ-END-1/2: after a round the dealer stays or the deal passes to the right, never elsewhere."""
    b = step.before
    if b is None or not step.outcomes or step.match_over:
        return None
    seats = _seats(step.options)
    if step.after.dealer not in (b.dealer, (b.dealer + 1) % seats):
        return f"deal went from seat {b.dealer} to seat {step.after.dealer}"
    return None


PROFILE = GameProfile(
    game="kujuroku",
    deck=lambda o: DECK_IDS[_jizo(o)],
    zero_sum=lambda _o: True,
    # two deal choices (the Oni's card, at most two triples) and 18 turns of at most two actions
    max_round_actions=3 + 18 * 2,
    invariants=(
        ("KJ-DEAL-2 deal sizes", _deal_sizes),
        ("KJ-EQ-3 the fourth seat sits out", _sitting_out),
        ("KJ-TURN-3 the draw pile never runs short", _draw_pile),
        ("KJ-TURN-3 a round played out uses every draw", _exact_draws),
        ("KJ-ONI-5 jokers never stay on the field", _jokers_leave_the_field),
        ("KJ-ONI-3 field parity (KJ-25)", _field_parity),
        ("KJ-YAKU-2 dekiyaku payments", _dekiyaku_payment),
        ("KJ-SCORE-3 settlement shape", _settlement_shape),
        ("KJ-SCORE-1 settlement from the final capture piles", _settlement_exact),
        ("KJ-EQ-4 chips are conserved", _chips_total),
        ("KJ-END-2 the deal passes to the right", _dealer_rotation),
    ),
)
