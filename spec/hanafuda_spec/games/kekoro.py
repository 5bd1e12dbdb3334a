"""Kekoro (けころ): rule catalogue, decisions, options, card values and the 26 yaku.

The seed (SEED-004) is the FudaWiki Kekoro page of 2021-04-22. Its later revision (FW-KE,
2022-11-19) says how a round is scored, who deals next and who wins the game; each adoption is
recorded as a decision (KE-1, KE-2, KE-3). The card values come from Sudaoshi (FW-SD); the
alternative values are Jun Kusaba's (KUSABA-1995) and the card swaps in two yaku are those of
*Teikei Aru Hanzai No Chōsa* (SHIONO-1921), both as reported by the seed.

Rule data is declared here once: :data:`CARD_VALUES` (card id → value per value scale) and
:func:`yaku_table` (the 26 thirty-point yaku for the chosen options). The reference interprets
them; the invariants at the bottom use them independently of the reference's scorer.

>>> len(yaku_table(KEKORO.resolve())), sum(CARD_VALUES["source"].values()), sum(CARD_VALUES["kusaba"].values())
(26, 330, 272)
>>> [y.id for y in yaku_table(KEKORO.resolve()) if y.pool == {120, 40, 20}]
['mist-island']
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable, Mapping
from types import MappingProxyType

from hanafuda_spec.catalogue import (
    Citation,
    Citer,
    Evidence,
    GameSpec,
    Gap,
    OptionSpec,
    Rule,
    RulesetSpec,
    Topic,
)
from hanafuda_spec.yaku import YakuDef

__all__ = [
    "ANIMALS",
    "CARD_VALUES",
    "CHAFF",
    "CURTAIN_PHOENIX",
    "DECLARE",
    "INSTANT_VICTORY",
    "KEKORO",
    "LEAD",
    "RIBBONS",
    "SPEC",
    "TEIKEI_SWAPS",
    "UNDRAWN",
    "WEAK_BRIGHTS",
    "YAKU_LEAD",
    "YAKU_POINTS",
    "card_points",
    "yaku_count",
    "yaku_table",
]

S, LR, RS, D = Evidence.SEED, Evidence.LATER_REVISION, Evidence.RELATED_SOURCE, Evidence.DECISION
T = Topic

seed = Citer("SEED-004")
fw = Citer("FW-KE")
dossier = Citer("DOSSIER")

# -- card values (KE-7, KE-8) ------------------------------------------------------------------

#: The 24 Chaff (kasu), the Lightning 113 and the yellow-bottom Paulownia 121 included.
CHAFF = frozenset(
    {12, 13, 22, 23, 32, 33, 42, 43, 52, 53, 62, 63, 72, 73, 82, 83, 92, 93, 102, 103, 113, 121, 122, 123}
)
#: The Curtain (30) and the Phoenix (120): valued like Chaff in the source.
CURTAIN_PHOENIX = frozenset({30, 120})
#: The Crane (10), the Moon (80) and the Rain Man (110): Brights valued like Animals.
WEAK_BRIGHTS = frozenset({10, 80, 110})
#: The 9 Animals (tane), the Sake Cup 90 and the Swallow 111 included.
ANIMALS = frozenset({20, 40, 50, 60, 70, 81, 90, 100, 111})
#: The 10 Ribbons (tanzaku), the Willow ribbon 112 included.
RIBBONS = frozenset({11, 21, 31, 41, 51, 61, 71, 91, 101, 112})


def _values(chaff: int, curtain_phoenix: int) -> Mapping[int, int]:
    table: dict[int, int] = {}
    for ids, v in ((CHAFF, chaff), (CURTAIN_PHOENIX, curtain_phoenix), (WEAK_BRIGHTS, 5), (ANIMALS, 5),
                   (RIBBONS, 1)):
        table.update(dict.fromkeys(ids, v))
    return MappingProxyType(dict(sorted(table.items())))


#: Card id → value, per value scale (option ``values``): the source's (Sudaoshi's) and Kusaba's.
CARD_VALUES: Mapping[str, Mapping[int, int]] = MappingProxyType({
    "source": _values(10, 10),
    "kusaba": _values(8, 5),
})

YAKU_POINTS = 30  #: every yaku is worth 30 (KE-YAKU-1)
YAKU_LEAD = 3  #: the yaku lead that allows the instant victory (KE-IV-1)
LEAD = 90  #: the cumulative lead that ends the game (KE-GAME-1)
UNDRAWN = 8  #: cards left in the draw pile when a round is played out (KE-END-1)

DECLARE = "declare"  #: the action kind of the instant-victory declaration
INSTANT_VICTORY = "instant-victory"  #: its label: ``declare instant-victory``


def card_points(values: Mapping[str, str], pile: Iterable[int]) -> int:
    """The card value of a pile under the resolved option ``values`` (KE-VAL-1, KE-VAL-2)."""
    table = CARD_VALUES[values["values"]]
    return sum(table[c] for c in pile)


# -- the 26 yaku (KE-YAKU-1…5) ----------------------------------------------------------------

#: (id, English name, Japanese name, the three cards) in the seed's order. Rows swapped by an
#: option are adjusted in :func:`yaku_table`.
_YAKU: tuple[tuple[str, str, str, tuple[int, int, int]], ...] = (
    ("mist-island", "Mist Island", "霧島", (120, 40, 20)),
    ("mist-island-ribbons", "Mist Island Ribbons", "短の霧島", (121, 41, 21)),
    ("gundari", "Gundari", "グンダリ", (20, 100, 120)),
    ("gundari-ribbons", "Gundari Ribbons", "短のグンダリ", (21, 101, 121)),
    ("elder", "Elder", "御老中", (50, 60, 100)),
    ("elder-ribbons", "Elder Ribbons", "短の御老中", (51, 61, 101)),
    ("three-five-six", "Three Five Six", "三五六", (30, 50, 60)),
    ("three-five-six-ribbons", "Three Five Six Ribbons", "短の三五六", (31, 51, 61)),
    ("five-four-six", "Five Four Six", "五四六", (50, 40, 60)),
    ("five-four-six-ribbons", "Five Four Six Ribbons", "短の五四六", (51, 41, 61)),
    ("seven-five-three", "Seven Five Three", "七五三", (70, 50, 30)),
    ("seven-five-three-ribbons", "Seven Five Three Ribbons", "短の七五三", (71, 51, 31)),
    ("kumano-shrines", "Kumano Shrines", "熊野サン", (90, 110, 30)),
    ("kumano-shrines-ribbons", "Kumano Shrines' Ribbons", "短の熊野サン", (91, 112, 31)),
    ("eight-islands", "Eight Islands", "八島", (80, 40, 20)),
    ("eight-islands-ribbons", "Eight Islands' Ribbons", "短の八島", (81, 41, 21)),
    ("nakazo", "Nakazō", "仲蔵", (70, 80, 90)),
    ("nakazo-ribbons", "Nakazō Ribbons", "短の仲蔵", (71, 81, 91)),
    ("four-seven-eight", "Four Seven Eight", "四七八", (41, 71, 81)),
    ("ten-seven-eight", "Ten Seven Eight", "十七八", (101, 71, 81)),
    ("shellfish", "Shellfish", "海老", (10, 100, 110)),
    ("shellfish-ribbons", "Shellfish Ribbons", "短の海老", (11, 101, 112)),
    ("low-three", "Low Three", "下三", (10, 110, 30)),
    ("low-three-ribbons", "Low Three Ribbons", "短の下三", (11, 112, 31)),
    ("downpour", "Downpour", "出雨", (70, 80, 110)),
    ("downpour-ribbons", "Downpour Ribbons", "短の出雨", (71, 81, 112)),
)

#: The *Teikei Aru Hanzai No Chōsa* swaps (KE-9): yaku id → (card out, card in, option, rule).
TEIKEI_SWAPS: Mapping[str, tuple[int, int, str, str]] = MappingProxyType({
    "gundari-ribbons": (101, 41, "gundari_ribbons", "KE-YAKU-4"),
    "eight-islands": (20, 110, "eight_islands", "KE-YAKU-5"),
})


def yaku_table(values: Mapping[str, str]) -> tuple[YakuDef, ...]:
    """The 26 yaku for resolved option ``values``: three named cards each, 30 points, no groups
    (a card counts in every yaku it completes, KE-YAKU-2). A swap that gives a yaku the cards of an
    earlier one drops it: a card set scores once (KE-9; 25 yaku with gundari_ribbons=teikei).

    >>> from hanafuda_spec.yaku import count_yaku
    >>> t = yaku_table(KEKORO.resolve())
    >>> count_yaku(t, [50, 60, 100, 30, 40])  # doctest: +NORMALIZE_WHITESPACE
    (ScoredYaku(id='elder', points=30), ScoredYaku(id='three-five-six', points=30),
     ScoredYaku(id='five-four-six', points=30))
    >>> [y.pool for y in yaku_table(KEKORO.resolve(None, {"eight_islands": "teikei"}))
    ...  if y.id == "eight-islands"] == [frozenset({80, 40, 110})]
    True
    """
    return _yaku_table(values["gundari_ribbons"], values["eight_islands"])


@functools.lru_cache(maxsize=8)
def _yaku_table(gundari_ribbons: str, eight_islands: str) -> tuple[YakuDef, ...]:
    chosen = {"gundari_ribbons": gundari_ribbons, "eight_islands": eight_islands}
    rows: list[YakuDef] = []
    for yid, name, ja, cards in _YAKU:
        pool = frozenset(cards)
        rule = "KE-YAKU-1"
        swap = TEIKEI_SWAPS.get(yid)
        if swap is not None and chosen[swap[2]] == "teikei":
            pool = (pool - {swap[0]}) | {swap[1]}
            rule = swap[3]
            if any(r.pool == pool for r in rows):
                continue  # KE-9: a card set scores once, under the name listed first
        rows.append(YakuDef(yid, name, ja, YAKU_POINTS, pool, 3, rule))
    return tuple(rows)


def yaku_count(table: Iterable[YakuDef], pile: Iterable[int]) -> int:
    """How many yaku a pile forms (each of the 26 counts once, KE-IV-2), by plain set arithmetic."""
    p = frozenset(pile)
    return sum(1 for y in table if y.pool <= p)


# -- gaps and decisions ---------------------------------------------------------------------------

GAPS = (
    Gap("KE-1", "Does the game end when one cumulative score exceeds the other's by more than 90, or by at "
        "least 90?",
        "SEED-004's introduction says one player should 'exceed' the other 'by 90 points'; its End of Game says "
        "'by at least 90 points'. FW-KE keeps 'at least' and adds that the player with the greater score wins. "
        "Neither gives a round limit.",
        "At least 90 (lead >= 90) ends the game after a round is settled; option lead_test=more-than asks for "
        "more than 90. There is no round limit by default; option round_limit=12/6/3 is a house rule that ends "
        "the game after that many counted rounds (the leader wins, equal totals are a drawn game).",
        "The End of Game sentence is the operative one and the later revision confirms it. Sudaoshi, whose "
        "values Kekoro uses, is played for 12, 6 or 3 rounds (FW-SD), which makes a round limit a reasonable "
        "house rule; random play ends without one (the lead is a random walk).",
        ("lead_test", "round_limit")),
    Gap("KE-2", "How is a round scored, and does the score accumulate?",
        "SEED-004 gives card values and 30 points per yaku but never combines them. FW-KE: each player adds up "
        "their captured cards' values and their yaku, and adds that to their running total.",
        "Adopt FW-KE: a played-out round adds to each player's total the value of their captured cards plus 30 "
        "per yaku. A round interrupted by an instant victory is not scored (the game is over).",
        "The later revision is the same author's own completion of the page. Only the difference of the totals "
        "decides the game, so a zero-sum reading would not change who wins; there is no option.", ()),
    Gap("KE-3", "Who deals the next round: 'the winner of each round' is not defined, nor are ties.",
        "FW-KE: the player with the greater score for the round deals next. Ties are not mentioned.",
        "The greater round score deals next (FW-KE). On equal round scores the dealer (oya) stays; option "
        "tie_dealer=pass passes the deal.",
        "Keeping the dealer on a tie is the smallest change (nobody 'won' the round) and is the dossier's "
        "suggestion.", ("tie_dealer",)),
    Gap("KE-4", "The instant victory: when may it be declared, may it wait, and how are yaku counted?",
        "SEED-004: a player leading by three yaku 'at any point in a round' 'may declare' an "
        "instant victory, ending the whole game. Nothing more.",
        "Judged at the end of each of the player's own turns (after both plays): a player whose yaku count "
        "exceeds the opponent's by 3 or more chooses 'declare instant-victory' or 'continue'. A player who "
        "continues may declare at the end of any later own turn while the lead still holds, including the last "
        "turn of the round. Each named yaku of the table counts 1 (a plain yaku and its Ribbon form are two).",
        "Yaku only grow during their owner's turn, so the end of one's own turn is the first moment any lead is "
        "reached and costs no opportunity; 'may' makes it a choice, so it is an explicit action. The seed "
        "speaks of yaku, not pairs, and scores each named yaku separately. Re-examined in session 2 (issue 15): "
        "this narrows 'at any point'. Within one's own turn the lead cannot fall, so declaring after the hand "
        "play or after the draw wins the same game. What is lost is a change of mind during the opponent's turn "
        "(declaring between their two plays, before a capture that shrinks the lead) by a player who chose to "
        "continue. Kept: a choice needs a moment at which it is offered, and offering it to the waiting player "
        "after each of the opponent's plays would let a declined lead be taken back at any time, which makes "
        "'continue' meaningless; the sources give no such exchange.", ()),
    Gap("KE-5", "How is the first dealer chosen: 'the higher point card' under which values?",
        "SEED-004: earliest month; within a month the higher point card; redraw on a tie. Under Kekoro's own "
        "values a Chaff (10) outranks the Crane (5).",
        "The draw happens before the match and is outside the engine: a match names its first dealer (seat 0 "
        "unless given). Where players draw, rank within a month by the usual order (Bright, Animal, Ribbon, "
        "Chaff: the card's index), not by Kekoro's values.",
        "The draw has no effect on play and records name the dealer; the usual ranking is what the same "
        "wording means in the other FudaWiki pages.", ()),
    Gap("KE-6", "The seed has no misdeal rule: what if four cards of a month are dealt to the table?",
        "FW-HA and FW-SD: four of a month on the field is a misdeal (they could never be captured); FW-HA leaves "
        "four in a hand to house rules.",
        "Four of a month on the field is a misdeal: the deal is void, the same dealer reshuffles and deals "
        "again, no round is used up. Option misdeal=field-or-hand also voids a deal with four of a month in a "
        "hand; misdeal=off plays every deal.",
        "Kekoro is a Hana-Awase-family game and Sudaoshi, whose values it uses, states the same rule.",
        ("misdeal",)),
    Gap("KE-7", "Which cards are in which value class?",
        "SEED-004's table counts 24 Chaff, 9 Animals and 10 Ribbons without naming them.",
        "The Lightning 113 and the yellow-bottom Paulownia 121 are Chaff; the Sake Cup 90 and the Swallow 111 "
        "are Animals; the Willow ribbon 112 is a Ribbon (CARD_VALUES lists every card).",
        "This is the standard classification (RULES-DOSSIER §4.2, the kinds of the FudaWiki suit pages, "
        "FW-SUITS), and it gives the seed's counts. Corrected in session 2 (issue 15): it is not the only split "
        "that does (the Swallow as a Chaff and the Lightning as an Animal gives the same counts); the counts "
        "only check it, the classification is what decides.", ()),
    Gap("KE-8", "Jun Kusaba's values: Chaff 8 and Curtain and Phoenix 5; what about the other cards?",
        "SEED-004 gives only the two changes; FW-KE adds that all other values stay the same.",
        "Option values=kusaba (ruleset kusaba): Chaff 8, Curtain and Phoenix 5, the rest unchanged (272 per "
        "deck instead of 330).", "The later revision says so explicitly.", ("values",)),
    Gap("KE-9", "The *Teikei Aru Hanzai No Chōsa* card swaps.",
        "SEED-004: that source replaces the Maple ribbon 101 by the Wisteria ribbon 41 in Gundari Ribbons, and "
        "the Bush Warbler 20 by the Rain Man 110 in Eight Islands.",
        "Two options, gundari_ribbons=teikei and eight_islands=teikei, both set by the ruleset teikei-1921. The "
        "swapped Gundari Ribbons (21, 41, 121) has exactly the cards of Mist Island Ribbons: that card set "
        "scores once, as Mist Island Ribbons (the name listed first), so 25 yaku remain and three cards make "
        "one yaku (30 points, one toward the instant victory).",
        "Each swap is a documented historical variant a player may want. Changed in session 2 (issue 15): until "
        "then the literal reading counted the set twice (60 points, two yaku toward the lead of 3). The seed "
        "lets one card serve in several yaku, but nothing lets one set of cards be two yaku; a 1921 list that "
        "really held the same set twice would name one combination twice, which is the copying slip MB-3 "
        "resolves the same way for Musashino-Bana. Default play (no swap) is unchanged.",
        ("gundari_ribbons", "eight_islands")),
    Gap("KE-10", "May one card count in several yaku ('as many yaku as possible')?",
        "Clear: yaku are not exclusive.",
        "No exclusivity: a pile forms every yaku whose three cards it holds.", "Literal reading.", (), literal=True),
    Gap("KE-11", "Two matching cards on the table; three matching cards.",
        "SEED-004 states the Hana-Awase rule: the player chooses one of two; three are all captured.",
        "As stated, for the played and the drawn card alike.", "Literal reading.", (), literal=True),
    Gap("KE-12", "The game's winner takes the stakes ('the sum of money wagered'): what does the engine model?",
        "A game-level result only; no stakes are part of play.",
        "Stakes are not modelled: the match result names the winner (the leader by 90, or the declarer of an "
        "instant victory).", "Nothing in play depends on the wager.", ()),
    Gap("KE-13", "'There are no Lucky Hands (teyaku) in Kekoro'.",
        "Clear.", "Nothing is checked at the deal apart from the misdeal rule (KE-6).", "Literal reading.",
       (), literal=True),
)


def _r(rid: str, topic: Topic, text: str, cites: tuple[Citation, ...], ev: Evidence,
       gap: str | None = None, option: str | None = None, decided: str = "") -> Rule:
    return Rule(rid, topic, text, cites, ev, gap, option, decided)


RULES = (
    _r("KE-EQ-1", T.EQUIPMENT, "Two players use the full 48-card hanafuda deck.",
       (seed("introduction", "fishing-type game played with Hanafuda"), fw("introduction", "2-player")), S),
    _r("KE-DEAL-1", T.DEALING, "The dealer (oya) deals 8 cards to the opponent, 8 face up to the table and 8 "
       "to themselves, in packets of four (or two) in the order opponent, table, dealer; the other 24 form "
       "the draw pile.", (seed("Distributing the Initial Cards", "four to their opponent"),), S, None, "packets"),
    _r("KE-DEAL-2", T.DEALING, "The first dealer is chosen before the game; the engine takes it as given.",
       (seed("Choosing the Dealer", "There is no required method"),), D, "KE-5"),
    _r("KE-DEAL-3", T.DEALING, "If the table is dealt all four cards of a month the deal is void: the same "
       "dealer reshuffles and deals again, and no round is used up (misdeal=field-or-hand: also four of a "
       "month in a hand; misdeal=off: never).",
       (Citation("FW-HA", "Misdeals"), Citation("FW-SD", "Dealing the Cards", "a misdeal is declared")), RS,
       "KE-6", "misdeal"),
    _r("KE-DEAL-4", T.DEALING, "There are no lucky hands (teyaku): nothing is scored at the deal.",
       (seed("Distributing the Initial Cards", "no Lucky Hands"),), S, "KE-13"),
    _r("KE-TURN-1", T.TURN, "The dealer plays first; turns alternate.",
       (seed("Gameplay", "the dealer is the first to play"),), S),
    _r("KE-TURN-2", T.TURN, "A turn has two plays: first a card from the hand, then the top card of the draw "
       "pile, turned face up and played the same way.", (seed("Turns", "in the same fashion"),), S),
    _r("KE-CAP-1", T.CAPTURE, "A played card that matches one table card of its month captures it: both go to "
       "the player's capture pile.", (seed("Turns", "this matching pair is moved"),), S, "KE-11"),
    _r("KE-CAP-2", T.CAPTURE, "A played card that matches two table cards captures one of them, chosen by the "
       "player.", (seed("Turns", "may choose which one"),), S, "KE-11"),
    _r("KE-CAP-3", T.CAPTURE, "A played card that matches three table cards captures all three.",
       (seed("Turns", "all three are captured"),), S, "KE-11"),
    _r("KE-CAP-4", T.CAPTURE, "A played card that matches nothing stays on the table.",
       (seed("Turns", "it remains on the table"),), S),
    _r("KE-CAP-5", T.CAPTURE, "A card that matches must capture; but a player may play a hand card that matches "
       "nothing even when another hand card would capture.", (seed("Turns", "no obligation"),), S),
    _r("KE-CAP-6", T.CAPTURE, "The drawn card must capture when it matches, with the same one/two/three rules.",
       (seed("Turns", "in the same fashion"),), S, "KE-11"),
    _r("KE-VAL-1", T.SCORING, "Card values: each Chaff 10 (24 cards), the Curtain and the Phoenix 10, the Crane, "
       "the Moon and the Rain Man 5, each Animal 5 (9 cards), each Ribbon 1 (10 cards): 330 in all.",
       (seed("Card Values"), Citation("FW-SD", "Card Values")), S, "KE-7", "values",
       decided="Which cards those are: the Lightning and the yellow Paulownia are among the Chaff, the Sake Cup "
       "and the Swallow among the Animals, the Willow ribbon among the Ribbons."),
    _r("KE-VAL-2", T.SCORING, "With values=kusaba, a Chaff is worth 8 and the Curtain and the Phoenix 5; every "
       "other value is unchanged: 272 in all.",
       (seed("Card Values", "Jun Kusaba instead gives 8"), fw("Card Values", "keeping all other values")), LR,
       "KE-8", "values"),
    _r("KE-YAKU-1", T.YAKU, "There are 26 yaku, each of three named cards and each worth 30: twelve pairs of a "
       "plain and a Ribbon form, and the Ribbon-only Four Seven Eight and Ten Seven Eight (see the yaku "
       "table).", (seed("Yaku", "worth 30 points"),), S),
    _r("KE-YAKU-2", T.YAKU, "Yaku are not exclusive: a card counts in every yaku it completes.",
       (seed("Yaku", "as many yaku as possible"),), S, "KE-10"),
    _r("KE-YAKU-3", T.YAKU, "In the Ribbon forms, Susuki has no ribbon and uses the Geese (81), and Paulownia "
       "uses the yellow-bottom Chaff (121).", (seed("Yaku", "Paulownia with Yellow Bottom"),), S),
    _r("KE-YAKU-4", T.YAKU, "With gundari_ribbons=teikei, Gundari Ribbons takes the Wisteria ribbon (41) "
       "instead of the Maple ribbon (101).", (seed("Yaku", "Maple Ribbon"),
                                                Citation("SHIONO-1921", "pp. 75-80")), S, "KE-9",
       "gundari_ribbons",
       decided="Those are the cards of Mist Island Ribbons: the set scores once, as Mist Island Ribbons, so "
       "Gundari Ribbons is not a separate yaku then."),
    _r("KE-YAKU-5", T.YAKU, "With eight_islands=teikei, Eight Islands takes the Rain Man (110) instead of the "
       "Bush Warbler (20).", (seed("Yaku", "Rain Man"), Citation("SHIONO-1921", "pp. 75-80")), S, None,
       "eight_islands"),
    _r("KE-SCORE-1", T.SCORING, "When a round is played out, each player scores the value of their captured "
       "cards plus 30 per yaku, added to their running total.",
       (fw("End of Round", "adds up and records the total value"),), LR, "KE-2"),
    _r("KE-END-1", T.END_ROUND, "The round ends when both hands are empty; the 8 cards left in the draw pile are "
       "never played.", (seed("End of Round", "each player's hand has run out"),
                         seed("Card Values", "before the draw pile has been exhausted")), S),
    _r("KE-END-2", T.END_ROUND, "The player with the greater round score deals the next round.",
       (fw("End of Round", "greater score for the round"),), LR, "KE-3"),
    _r("KE-END-3", T.END_ROUND, "On equal round scores the dealer stays (tie_dealer=pass: the deal passes).",
       (fw("End of Round", "greater score for the round"),), D, "KE-3", "tie_dealer"),
    _r("KE-IV-1", T.SPECIAL, "At the end of each of their own turns, a player whose yaku outnumber the "
       "opponent's by 3 or more chooses: declare the instant victory ('declare instant-victory') or "
       "'continue'. Declaring ends the round and the whole game; the declarer wins whatever the scores.",
       (seed("End of Round", "may declare an instant victory"), seed("End of Game", "ends immediately")), D,
       "KE-4"),
    _r("KE-IV-2", T.SPECIAL, "For the instant victory each of the 26 named yaku counts 1: a plain yaku and its "
       "Ribbon form are two.", (seed("End of Round", "scored 3 more yaku"),), D, "KE-4"),
    _r("KE-IV-3", T.SPECIAL, "A player who continues may declare at the end of any later own turn while the "
       "lead still holds; the round an instant victory interrupts is not scored.",
       (seed("End of Round", "If at any point in a round"),), D, "KE-4"),
    _r("KE-GAME-1", T.END_GAME, "The game ends once one cumulative score leads the other by at least 90; the "
       "leader wins.",
       (seed("End of Game", "by at least 90 points"), fw("End of Game", "greater score is declared the winner")),
       S, "KE-1", "lead_test",
       decided="It is checked after each round is settled; lead_test=more-than asks for more than 90, as the "
       "introduction words it."),
    _r("KE-GAME-2", T.END_GAME, "An instant victory ends the game at once; the declarer wins.",
       (seed("End of Game", "claims victory"),), S, "KE-12",
       decided="Stakes are not modelled: the match result names the winner."),
    _r("KE-GAME-3", T.END_GAME, "With round_limit=N the game also ends after N counted rounds: the leader wins, "
       "equal totals are a drawn game. A misdeal does not count as a round.",
       (seed("Setup", "Any other house rules"), Citation("FW-SD", "Setup (3 Players)", "12 rounds")), D, "KE-1",
       "round_limit"),
)

# The options' values, one enum each: the OptionSpecs below take their choices from them.


class Values(enum.StrEnum):
    """The values of option ``values``."""

    SOURCE = "source"
    KUSABA = "kusaba"


class GundariRibbons(enum.StrEnum):
    """The values of option ``gundari_ribbons``."""

    SOURCE = "source"
    TEIKEI = "teikei"


class EightIslands(enum.StrEnum):
    """The values of option ``eight_islands``."""

    SOURCE = "source"
    TEIKEI = "teikei"


class Packets(enum.StrEnum):
    """The values of option ``packets``."""

    N4 = "4"
    N2 = "2"


class Misdeal(enum.StrEnum):
    """The values of option ``misdeal``."""

    FIELD = "field"
    FIELD_OR_HAND = "field-or-hand"
    OFF = "off"


class TieDealer(enum.StrEnum):
    """The values of option ``tie_dealer``."""

    STAY = "stay"
    PASS = "pass"


class LeadTest(enum.StrEnum):
    """The values of option ``lead_test``."""

    AT_LEAST = "at-least"
    MORE_THAN = "more-than"


class RoundLimit(enum.StrEnum):
    """The values of option ``round_limit``."""

    NONE = "none"
    N12 = "12"
    N6 = "6"
    N3 = "3"


OPTIONS = (
    OptionSpec("values", Values, Values.SOURCE,
               "Card values: the source's (Sudaoshi's, 330 per deck) or Jun Kusaba's (Chaff 8, Curtain and "
               "Phoenix 5; 272 per deck).", seed("Card Values", "Jun Kusaba instead gives 8")),
    OptionSpec("gundari_ribbons", GundariRibbons, GundariRibbons.SOURCE,
               "Gundari Ribbons as in the seed's table (21, 101, 121) or with the Wisteria ribbon for the Maple "
               "ribbon (21, 41, 121), as in Teikei Aru Hanzai No Chōsa.", seed("Yaku", "Maple Ribbon")),
    OptionSpec("eight_islands", EightIslands, EightIslands.SOURCE,
               "Eight Islands as in the seed's table (80, 40, 20) or with the Rain Man for the Bush Warbler "
               "(80, 40, 110), as in Teikei Aru Hanzai No Chōsa.", seed("Yaku", "replaces the")),
    OptionSpec("packets", Packets, Packets.N4, "Packet size at the deal.",
               seed("Distributing the Initial Cards", "packets of two instead of four")),
    OptionSpec("misdeal", Misdeal, Misdeal.FIELD,
               "Which deals are void: four of a month on the table; also four of a month in a hand; none.",
               Citation("FW-HA", "Misdeals")),
    OptionSpec("tie_dealer", TieDealer, TieDealer.STAY, "Who deals after a round with equal scores.",
               fw("End of Round", "greater score for the round")),
    OptionSpec("lead_test", LeadTest, LeadTest.AT_LEAST,
               "The game ends on a lead of at least 90, or of more than 90.",
               seed("introduction", "exceed their opponent's cumulative score by 90")),
    OptionSpec("round_limit", RoundLimit, RoundLimit.NONE,
               "A house-rule limit on the number of rounds (none: play until the 90-point lead or an instant "
               "victory).", seed("Setup", "Any other house rules")),
)

RULESETS = (
    RulesetSpec("fudawiki", "The FudaWiki page's main rules (SEED-004, completed by FW-KE).", {},
                seed("Card Values")),
    RulesetSpec("kusaba", "Jun Kusaba's card values (Chaff 8, Curtain and Phoenix 5).", {"values": "kusaba"},
                Citation("KUSABA-1995", "Kekoro")),
    RulesetSpec("teikei-1921", "Both yaku swaps of Teikei Aru Hanzai No Chōsa (1921).",
                {"gundari_ribbons": "teikei", "eight_islands": "teikei"}, Citation("SHIONO-1921", "pp. 75-80")),
)

SPEC = KEKORO = GameSpec(
    key="kekoro",
    name="Kekoro",
    aliases=("ke",),
    deck="hanafuda",
    summary="Two-player fishing game: card values plus 26 thirty-point yaku, played until one player leads by "
            "90, or until a player three yaku ahead declares an instant victory.",
    sources=("SEED-004", "FW-KE", "FW-SD", "FW-HA", "KUSABA-1995", "SHIONO-1921"),
    rules=RULES,
    gaps=GAPS,
    options=OPTIONS,
    rulesets=RULESETS,
    default_ruleset="fudawiki",
)


# -- invariants (the neutral form) ----------------------------------------------------------------

from hanafuda_spec.adapter import RoundOutcome  # noqa: E402
from hanafuda_spec.invariants import GameProfile, Step  # noqa: E402
from hanafuda_spec.neutral import Snapshot  # noqa: E402

_DECK = tuple(sorted(CARD_VALUES["source"]))
_DECLARE_TEXT = f"{DECLARE} {INSTANT_VICTORY}"


def _lead(step: Step, seat: int) -> int:
    """Yaku lead of ``seat`` in the position after the step, from the spec's own table."""
    table = yaku_table(step.options)
    s = step.after
    return (yaku_count(table, s.zone(f"captured.{seat}"))
            - yaku_count(table, s.zone(f"captured.{1 - seat}")))


def _deal_sizes(step: Step) -> str | None:
    """KE-DEAL-1, KE-DEAL-3: a round starts with 8/8/8 and 24 in the draw pile, and (misdeal=field) no
    month complete on the table."""
    s = step.after
    if step.before is not None and not step.outcomes:
        return None
    if step.match_over:
        return None
    sizes = (len(s.zone("hand.0")), len(s.zone("hand.1")), len(s.zone("field")), len(s.zone("stock")))
    if sizes != (8, 8, 8, 24) or s.zone("captured.0") or s.zone("captured.1"):
        return f"deal sizes (hands, field, stock) {sizes}"
    mode = step.options.get("misdeal", "field")
    zones = {"field": ("field",), "field-or-hand": ("field", "hand.0", "hand.1"), "off": ()}[mode]
    for z in zones:
        months = [c // 10 for c in s.zone(z)]
        if any(months.count(m) == 4 for m in months):
            return f"a misdeal was played (misdeal={mode}): {z} {s.zone(z)}"
    return None


def _undrawn(step: Step) -> str | None:
    """KE-END-1: the draw pile always holds 8 more than the hands, so 8 stay undrawn at the end."""
    s = step.after
    hands = len(s.zone("hand.0")) + len(s.zone("hand.1"))
    if len(s.zone("stock")) != UNDRAWN + hands:
        return f"draw pile {len(s.zone('stock'))} with {hands} cards in hands: {UNDRAWN} must stay undrawn"
    if step.before is not None and any(o.reason == "played-out" for o in step.outcomes):
        b = step.before
        drawn = 1 if step.action is not None and step.action.startswith("play") else 0
        left = len(b.zone("stock")) - drawn
        if left != UNDRAWN or len(b.zone("hand.0")) + len(b.zone("hand.1")) > 1:
            return f"round played out with {left} cards left in the draw pile"
    return None


def _turn_order(step: Step) -> str | None:
    """KE-TURN-1: the dealer leads, so at a hand play the dealer's hand is never smaller."""
    s = step.after
    if s.phase != "play" or s.to_move is None:
        return None
    mine, other = len(s.zone(f"hand.{s.to_move}")), len(s.zone(f"hand.{1 - s.to_move}"))
    want = other if s.to_move == s.dealer else other + 1
    if mine != want:
        return f"seat {s.to_move} plays with {mine} cards against {other}: turns do not alternate from the dealer"
    return None


def _instant_victory(step: Step) -> str | None:
    """KE-IV-1…3: 'declare instant-victory' is offered exactly at the end of a player's own turn when their
    yaku lead (counted by the spec's table) is 3 or more, together with 'continue'."""
    s = step.after
    offered = _DECLARE_TEXT in step.legal
    if s.phase == "declare":
        if s.to_move is None or _lead(step, s.to_move) < YAKU_LEAD:
            return f"instant victory offered with a yaku lead below {YAKU_LEAD}"
        if set(step.legal) != {_DECLARE_TEXT, "continue"}:
            return f"at the declaration the actions are {list(step.legal)}"
    elif offered:
        return f"instant victory offered outside the declaration point (phase {s.phase})"
    b, a = step.before, step.action
    if b is None or a is None or b.to_move is None:
        return None
    mover = b.to_move
    kind = a.split()[0]
    if kind == "continue" and s.phase == "declare" and not step.outcomes:
        return "the declaration was offered twice in one turn"
    if kind == DECLARE:
        if not step.match_over or [o.reason for o in step.outcomes] != [INSTANT_VICTORY]:
            return "a declared instant victory did not end the game"
        return None
    if kind not in ("play", "take") or (not step.outcomes and s.phase == "take"):
        return None
    # a turn was completed by this action
    ended = [o for o in step.outcomes if o.counts]
    if ended:
        y = ended[0].yaku
        if len(y) == 2 and len(y[mover]) - len(y[1 - mover]) >= YAKU_LEAD:
            return f"seat {mover} ended the round {len(y[mover])} yaku to {len(y[1 - mover])} without a choice"
        return None
    if step.outcomes:
        return None
    lead = _lead(step, mover)
    if (lead >= YAKU_LEAD) != (s.phase == "declare" and s.to_move == mover):
        return f"seat {mover} ends a turn with a yaku lead of {lead}; phase {s.phase}, to move {s.to_move}"
    return None


def _round_score(step: Step) -> str | None:
    """KE-SCORE-1, KE-IV-3: a played-out round scores card values (0…330) plus 30 per yaku; a misdeal and
    an instant victory score nothing."""
    total = sum(CARD_VALUES[step.options.get("values", "source")].values())
    for o in step.outcomes:
        if o.reason in ("misdeal", INSTANT_VICTORY):
            if any(o.deltas):
                return f"{o.reason} changed the scores: {o.deltas}"
            if o.counts != (o.reason != "misdeal"):
                return f"{o.reason} counts={o.counts}"
            continue
        if any(y.points != YAKU_POINTS for side in o.yaku for y in side):
            return f"a yaku not worth {YAKU_POINTS}: {o.yaku}"
        cards = [d - YAKU_POINTS * len(side) for d, side in zip(o.deltas, o.yaku, strict=True)]
        if any(c < 0 for c in cards) or sum(cards) > total:
            return f"round deltas {o.deltas} are not card values plus 30 per yaku {o.yaku}"
        if o.final is not None:  # the exact result, recomputed from the final capture piles
            found = _exact_score(step.options, o, o.final)
            if found is not None:
                return found
    return None


def _exact_score(options: Mapping[str, str], o: RoundOutcome, final: Snapshot) -> str | None:
    """KE-SCORE-1 exactly, for an implementation that reports the final position: each side's delta
    is the card value of its final capture pile plus 30 per yaku the pile forms (KE-VAL-1, KE-YAKU-1,
    KE-YAKU-2), the yaku reported are those, and so are the card points if reported."""
    values = KEKORO.resolve(None, options)
    table = yaku_table(values)
    for side, (delta, reported) in enumerate(zip(o.deltas, o.yaku, strict=True)):
        pile = frozenset(final.zone(f"captured.{side}"))
        formed = sorted(y.id for y in table if y.pool <= pile)
        points = card_points(values, pile)
        if sorted(y.id for y in reported) != formed:
            return f"side {side}: yaku {sorted(y.id for y in reported)} reported, its final pile forms {formed}"
        if o.card_points is not None and o.card_points[side] != points:
            return f"side {side}: card points {o.card_points[side]} reported, its final pile is worth {points}"
        if delta != points + YAKU_POINTS * len(formed):
            return (f"side {side}: delta {delta}, its final pile gives {points} + {YAKU_POINTS} x "
                    f"{len(formed)} yaku")
    return None


def _game_end(step: Step) -> str | None:
    """KE-GAME-1…3: the game ends exactly on a 90-point lead, an instant victory, or the round limit."""
    if not step.outcomes:
        if step.match_over:
            return "the game ended without a round ending"
        return None
    if any(o.reason == INSTANT_VICTORY for o in step.outcomes):
        return None if step.match_over else "an instant victory did not end the game"
    s = step.after
    lead = abs(s.scores[0] - s.scores[1])
    reached = lead > LEAD if step.options.get("lead_test") == "more-than" else lead >= LEAD
    limit = step.options.get("round_limit", "none")
    # when the match is over the snapshot is the last round's, whose number is the rounds played
    at_limit = limit != "none" and s.round >= int(limit)
    if step.match_over and not (reached or at_limit):
        return f"the game ended at {s.scores} after round {s.round}"
    if not step.match_over and reached:
        return f"the game went on at {s.scores}, a lead of {lead}"
    if not step.match_over and limit != "none" and s.round > int(limit):
        return f"round {s.round} dealt with round_limit={limit}"
    return None


PROFILE = GameProfile(
    game="kekoro",
    deck=lambda _o: _DECK,
    zero_sum=lambda _o: False,
    max_round_actions=3 * 16,  # (play, take, declare/continue) per turn, 16 turns
    invariants=(
        ("KE-DEAL-1 deal sizes", _deal_sizes),
        ("KE-END-1 eight cards undrawn", _undrawn),
        ("KE-TURN-1 turn order", _turn_order),
        ("KE-IV-1 instant victory exactly on a lead of 3", _instant_victory),
        ("KE-SCORE-1 round score", _round_score),
        ("KE-GAME-1 game end", _game_end),
    ),
)
