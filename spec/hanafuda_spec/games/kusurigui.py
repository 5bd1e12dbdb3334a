"""Kusuri-gui (薬食い, "medicine-eating"): rule catalogue, decisions, options and dekiyaku data.

Kusuri-gui is a two-player game with no field of cards: one discard pile, taken whole by a card
of its top card's month or by any willow (the four willows are Oni-fuda, 鬼札 "demon cards",
wild cards), and a payment on the spot, the *kusuri-gui* itself, for "eating" a card the
opponent has just discarded onto an emptied pile. A round is settled in chips by the difference
of the players' dekiyaku (出来役, scoring combinations) totals.

The seed (SEED-000) is the FudaWiki page; its bibliography entry, the kubotaya blog (KUBO),
confirms the deck, the deal and the chips. The dossier's gaps KG-1…KG-19 are all decided
below; every alternative a player could reasonably want is an option.

This module is the one place the rule data live: :func:`yaku_table` (the dekiyaku rows),
:func:`part_of` (the precise meaning of "part of a bigger dekiyaku", gap KG-10) and
:func:`dekiyaku` (the obvious, set-based scorer the reference's bit-mask scorer is checked
against). :data:`PROFILE` holds the invariants checked after every action of random play.

>>> [y.id for y in dekiyaku(SPEC.resolve(), [10, 30, 80, 120, 70, 100])]
['four-brights', 'hand-cannon']
>>> sorted(PART_OF)[:3]
[('four-brights', 'five-brights'), ('hand-cannon', 'hot-pot'), ('rainy-three-brights', 'five-brights')]
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

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
from hanafuda_spec.invariants import GameProfile, Step
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.yaku import ScoredYaku, YakuDef

__all__ = [
    "ANIMALS",
    "BRIGHTS",
    "CHAFF",
    "DECK",
    "DRY_BRIGHTS",
    "PART_OF",
    "PROFILE",
    "RIBBONS",
    "SPEC",
    "WILLOWS",
    "dekiyaku",
    "implies",
    "part_of",
    "settlement",
    "yaku_table",
]

S, LR, RS, D = Evidence.SEED, Evidence.LATER_REVISION, Evidence.RELATED_SOURCE, Evidence.DECISION
T = Topic

seed = Citer("SEED-000")
kubo = Citer("KUBO")

def dossier(gap: str, quote: str = "") -> Citation:
    return Citation("DOSSIER", f"3.1 {gap}", quote)


# -- the cards (RULES-DOSSIER §4.2, §4.3) ------------------------------------------------------

#: The 44 cards: the full deck without the Bush Clover and Maple chaff (72, 73, 102, 103).
DECK: tuple[int, ...] = tuple(sorted(
    {m * 10 + i for m in range(1, 13) for i in range(4)} - {72, 73, 102, 103}))
#: The four willows, all Oni-fuda in play; for dekiyaku they keep their printed kinds (KG-14).
WILLOWS = frozenset({110, 111, 112, 113})
BRIGHTS = frozenset({10, 30, 80, 110, 120})
DRY_BRIGHTS = frozenset({10, 30, 80, 120})
RAIN_MAN = 110
ANIMALS = frozenset({20, 40, 50, 60, 70, 81, 90, 100, 111})
SAKE = 90
RIBBONS = frozenset({11, 21, 31, 41, 51, 61, 71, 91, 101, 112})
POETRY = frozenset({11, 21, 31})
BLUE = frozenset({61, 91, 101})
GRASS = frozenset({41, 51, 71})
HOT_POT = frozenset({60, 70, 100})
HAND_CANNON = frozenset({70, 100})
#: The 20 chaff of the 44-card deck, the Lightning (113) and the yellow Paulownia (121) included.
CHAFF = frozenset({12, 13, 22, 23, 32, 33, 42, 43, 52, 53, 62, 63, 82, 83, 92, 93, 113, 121, 122, 123})

#: Cards the deal sets out of play: 1 face-up + 3 face-down field cards, minus the pile's card.
OUT_OF_PLAY = 3
#: Plays in a round that is played out: 4 + 4 first hands, then 4 re-deals of 8 cards.
PLAYS_PER_ROUND = 40
REDEALS = 4


# -- gaps and decisions --------------------------------------------------------------------------

GAPS = (
    Gap("KG-1", "Does each player start with 100 chips, or with two plates of 100 (200)?",
        "SEED-000 speaks of 'two plates for each player, each containing 100 chips'; KUBO gives each player "
        "100 ('各自100文').",
        "100 chips per player; option chips=200 for the two-plates reading.",
        "KUBO, the seed's own source, says 100 each; the other reading is kept as an option.", ("chips",)),
    Gap("KG-2", "How long is a game, and who wins it?",
        "SEED-000: 12 or 6 rounds are traditional; it never names the game's winner.",
        "12 rounds by default (option rounds=6). The player with more chips at the end wins; equal chips is a "
        "drawn game. A misdeal is not a round.",
        "Chips are the only score the game keeps, so more chips is the only sensible criterion.",
        ("rounds",)),
    Gap("KG-3", "How is the first dealer chosen when Kusuri-gui defines no card points?",
        "SEED-000: earliest month, then 'the higher point card', else draw again.",
        "The draw happens before the first deal and is outside the engine: a match names its first dealer "
        "(seat 0 unless given). For players, the usual 20/10/5/1 card points (FW-HA) break a same-month tie.",
        "The draw has no effect on the rules of play, and game records name the dealer explicitly."),
    Gap("KG-4", "With a willow face up, in which order are the face-down field cards turned, which card "
        "becomes the pile and what happens to the cards not turned?",
        "SEED-000 and KUBO: turn them one by one until a non-willow shows; set the turned willows aside.",
        "The face-down cards are turned in the order they were dealt. The first non-willow alone forms the "
        "discard pile; the face-up willow and every willow turned before it are set aside (zone "
        "out.willows); the cards not turned stay face down out of play (zone out.facedown).",
        "It follows the deal order, the only order the sources define, and it keeps exactly one card in "
        "the pile as in every other deal."),
    Gap("KG-5", "When is a deal a misdeal, and who deals again?",
        "SEED-000: when all field cards are willows; KUBO: when four willows come out on the field.",
        "A misdeal exactly when the face-up card and the three face-down cards are all willows. The same "
        "dealer reshuffles and deals again; the void deal uses up no round and moves no chips.",
        "Both sources agree on four willows; a void deal has no winner who could take the deal over."),
    Gap("KG-6", "With cards on the pile, must a willow capture, or may it be discarded?",
        "SEED-000: the holder 'can use it' to capture the whole pile.",
        "A willow played onto a non-empty pile always captures, like any other card that matches. Option "
        "oni_play=choice lets the player discard it on top instead (action 'discard <card>').",
        "In the seed a matching card always captures; 'can use it' describes what the card can do. Choosing "
        "to bury the pile under a willow is a real tactic, hence the option.", ("oni_play",)),
    Gap("KG-7", "Is a willow still special once another card covers it on the pile?",
        "SEED-000: it can only be matched by another willow 'while it's on the pile'.",
        "Only the top card decides what captures. A willow on top is taken only by a willow (same month, and "
        "wild); once covered it is an ordinary card of the pile.",
        "Every capture rule of the seed looks at the top card alone."),
    Gap("KG-8", "Exactly when is a capture a Kusuri-gui?",
        "SEED-000: taking a card the opponent discarded once the pile 'has been emptied'; not when that card "
        "was an Oni-fuda. Silent on the pile's size and on the capturing card.",
        "A capture is a Kusuri-gui when the pile holds exactly one card, the opponent discarded it onto the "
        "empty pile with the play just before, and it is not a willow. The opponent pays at once. The first "
        "card of the round (dealt face up) is never one. Capturing with a willow still counts (option "
        "oni_pays=no: it does not). The payment is a chip transfer of the round: it is booked in the "
        "round's result with the settlement.",
        "Under strict alternation a one-card pile that is not the dealt card was always put there by the "
        "opponent's last play, so the definition is checkable from the table alone. Only the eaten card is "
        "excluded by the seed, so the capturing card is free; some players may exclude it. Re-examined in "
        "session 2 (issue 15) against the wider reading (any capture of a pile holding a card the opponent "
        "discarded since the pile was last emptied) and kept: the seed speaks of capturing 'a card', the one "
        "discarded after the emptying, and of Kusuri-gui happening 'in succession', which describes single "
        "cards eaten one after another as each capture empties the pile; under the wider reading nearly every "
        "capture of a pile the opponent started would pay, and the event would not be the game's rare "
        "highlight. No option: neither source nor the dossier's notes describe the wider game.",
        ("oni_pays",)),
    Gap("KG-9", "How much is a Kusuri-gui payment?",
        "SEED-000: 1 or 2 chips, decided before play.",
        "1 chip by default; option payment=2.", "The seed makes it a choice fixed before play.", ("payment",)),
    Gap("KG-10", "What does 'a dekiyaku that is part of a bigger dekiyaku is not counted' mean?",
        "SEED-000 gives the rule for the stacking mode without defining 'part of'.",
        "Dekiyaku A is part of dekiyaku B when every capture pile that forms B also forms A, and not the "
        "other way round. For this table that gives exactly: Four Brights, Three Brights and Rainy Three "
        "Brights are part of Five Brights; Three Brights is part of Four Brights; Hand Cannon is part of "
        "Hot-pot. The counting dekiyaku (Animals, Ribbons, Chaff) and the named ribbon sets are part of "
        "nothing and stack with everything. Stacking is the default; option dekiyaku=exclusive scores only "
        "the single most valuable dekiyaku (the first listed on equal values).",
        "Implication between the card conditions is precise, can be computed and proved from the table, and "
        "agrees with every case a player would call 'part of'.", ("dekiyaku",)),
    Gap("KG-11", "The values given as ranges: Five Brights 8 to 10, Hot-pot 3 to 4, Hand Cannon 2 to 3.",
        "SEED-000: decide the values before playing.",
        "Defaults Five Brights 10, Hot-pot 4, Hand Cannon 3 (the top of each range); each is an option.",
        "The highest values keep the bigger dekiyaku worth more than its parts under either mode.",
        ("five_brights", "hot_pot", "hand_cannon")),
    Gap("KG-12", "The Rain Man with three other Brights forms both Three Brights (3) and Rainy Three Brights "
        "(2); there is no Rainy Four Brights.",
        "SEED-000 lists no Rainy Four Brights.",
        "When stacking, both count (5): neither is part of the other (KG-10). Option rainy_overlap=higher "
        "counts only Three Brights in that case.",
        "It is what the seed's own rules give; players who find it odd that it beats Four Brights can choose "
        "the option. Re-examined in session 2 (issue 15) and kept: the table is laid out in groups (Bright, "
        "Animal, Ribbon, Chaff), but the seed's only rule for stacking is about a dekiyaku that is part of a "
        "bigger one, and the groups cannot mean that one dekiyaku per group counts: in the Ribbon group the "
        "Poetry, Blue and Grass Ribbons and the five-ribbon count are clearly meant to add up when stacking. "
        "So the 5 for the Rain Man with three dry Brights, one more than Four Brights, stays the default and "
        "rainy_overlap=higher is the group reading.", ("rainy_overlap",)),
    Gap("KG-13", "The Bright table's column says 'Chips', the others 'Points'.",
        "SEED-000 uses both words.", "They are the same unit: a dekiyaku worth n is worth n chips.",
        "Settlement pays the difference of the totals in chips, so the units must agree."),
    Gap("KG-14", "Do the willows keep their printed kinds for dekiyaku although they are wild in play?",
        "SEED-000's table uses the Rain Man (110) as a Bright.",
        "Yes: 110 is a Bright, 111 an Animal, 112 a Ribbon (not one of the Grass Ribbons), 113 a Chaff.",
        "The table uses 110 as a Bright; treating the other willows the same way is the only consistent "
        "reading."),
    Gap("KG-15", "Does the Sake Cup (90) also count as Chaff, as in Koi-Koi?",
        "SEED-000 does not say.",
        "No: it is an Animal only. Option sake_cup=both counts it for Chaff as well.",
        "The seed lists it nowhere as chaff; the Koi-Koi habit is kept as an option.", ("sake_cup",)),
    Gap("KG-16", "What happens when both dekiyaku totals are equal (both 0 included)?",
        "SEED-000 only covers a higher total.",
        "Nobody pays (Kusuri-gui payments made during the round stand) and the dealer deals again. Option "
        "tie_dealer=pass gives the deal to the other player.",
        "The difference is zero; with no round winner, keeping the dealer is the usual hanafuda convention.",
        ("tie_dealer",)),
    Gap("KG-17", "In what order are the re-deals dealt?",
        "SEED-000: two cards to each player at a time until both hold four; KUBO: two at a time, twice.",
        "Non-dealer first, as in the first deal: two to the non-dealer, two to the dealer, two to the "
        "non-dealer, two to the dealer, from the top of the stock.",
        "It matches the first deal's order, so a stacked deck replays as a table would."),
    Gap("KG-18", "Who plays first after a re-deal?",
        "Implicit: strict alternation with eight plays per cycle.",
        "The dealer leads every cycle of eight plays; it follows from alternation and is checked as an "
        "invariant.", "Stated so that it is checked rather than assumed.", literal=True),
    Gap("KG-19", "What happens when a player runs out of chips?",
        "SEED-000 is silent.",
        "By default (bust=end) a player never pays more than they hold: a payment or a settlement is cut to "
        "the payer's chips at that moment (the chips at the start of the round plus the payments of the round "
        "so far), and the game ends after a round that leaves a player with no chips; the other player wins. "
        "Option bust=debt lets chips go below zero and plays every round.",
        "The chips are physical counters on the players' plates; debts are a house rule some players "
        "use. Re-examined in session 2 (issue 15), since the seed fixes the length and nothing else: kept. A "
        "player with an empty plate has nothing to pay with, so the seed's own equipment makes the game "
        "unplayable from then on unless debts are invented; ending it there is the smallest addition. With "
        "100 chips it almost never happens (random play never reaches it; the z3 chip model covers the case), "
        "so the default plays the fixed length in practice; bust=debt plays every round in every case.",
        ("bust",)),
)


def _r(rid: str, topic: Topic, text: str, cites: tuple[Citation, ...], ev: Evidence,
       gap: str | None = None, option: str | None = None, decided: str = "") -> Rule:
    return Rule(rid, topic, text, cites, ev, gap, option, decided)


RULES = (
    _r("KG-EQ-1", T.EQUIPMENT, "Two players use 44 cards: the hanafuda deck without the two Bush Clover chaff "
       "(72, 73) and the two Maple chaff (102, 103).",
       (seed("Setup", "44 cards"), kubo("準備", "44枚")), S),
    _r("KG-EQ-2", T.EQUIPMENT, "Each player starts the game with 100 chips (200 with chips=200).",
       (seed("Setup", "100 chips"), kubo("準備", "各自100文")), RS, "KG-1", "chips"),
    _r("KG-DEAL-1", T.DEALING, "The first dealer (oya) is chosen before the game; the engine takes it as given.",
       (seed("Choosing the Dealer", "There is no required method"),), D, "KG-3"),
    _r("KG-DEAL-2", T.DEALING, "The dealer deals from the top of the deck: 2 cards to the non-dealer, 2 to "
       "themselves, 3 face down to the field, 2 to the non-dealer, 2 to themselves, and 1 face up to the "
       "field. The other 32 cards are the stock.",
       (seed("Dealing the Cards", "finally 1 card on the field (face-up)"), kubo("札の配り方", "場1枚(表)")), S),
    _r("KG-DEAL-3", T.DEALING, "The face-up card starts the discard pile; the three face-down field cards take "
       "no part in the round.",
       (seed("Dealing the Cards", "will not be used during the round"),), S),
    _r("KG-DEAL-4", T.DEALING, "If the face-up card is a willow, the face-down field cards are turned one by one "
       "until a non-willow shows; every willow turned up on the field is set aside for the round.",
       (seed("Dealing the Cards", "until a non-Willow card appears"), kubo("札の配り方", "1枚づつめくります")),
       S, "KG-4",
       decided="The cards are turned in the order dealt; the first non-willow alone is the discard pile, and the "
       "face-down cards not turned stay out of play for the round."),
    _r("KG-DEAL-5", T.DEALING, "If all field cards are willows, the deal is void (a misdeal): the dealer "
       "reshuffles and deals again.",
       (seed("Dealing the Cards", "misdeal"), kubo("札の配り方", "全て配り直し")), S, "KG-5",
       decided="All four means the face-up card and the three face-down ones; the same dealer deals again, no "
       "round is used up and no chips move."),
    _r("KG-PLAY-1", T.TURN, "The dealer plays first and turns alternate. A turn is one card from the hand, "
       "played onto the discard pile.",
       (seed("Gameplay", "the dealer is the first to play"), seed("Turns", "Play 1 card from your hand")), S),
    _r("KG-PLAY-2", T.CAPTURE, "A card of the same month as the pile's top card captures the whole pile, the "
       "played card included.", (seed("Turns", "capture all cards in the discard pile"),), S),
    _r("KG-PLAY-3", T.CAPTURE, "Any other card is discarded face up on top of the pile; a card played onto an "
       "empty pile is discarded and starts a new pile.",
       (seed("Turns", "discard your card"),), S),
    _r("KG-PLAY-4", T.TURN, "When both hands are empty, the dealer deals four more cards to each player from the "
       "stock, two at a time; a round played out has four such re-deals.",
       (seed("Turns", "re-deals 4 cards to each player"), kubo("プレイの方法", "2枚づつ2回")),
       S, "KG-17",
       decided="Each re-deal serves the non-dealer first, as the first deal does: two to the non-dealer, two to "
       "the dealer, twice."),
    _r("KG-PLAY-5", T.TURN, "The dealer leads every cycle of eight plays (four by each player).",
       (seed("Gameplay", "Turn to play alternates"),), S, "KG-18"),
    _r("KG-ONI-1", T.SPECIAL, "The four willows are Oni-fuda (wild cards): played onto a pile that is not empty, a "
       "willow captures the whole pile whatever its top card.",
       (seed("Onifuda", "regardless of the month of the top card"),), S, "KG-6", "oni_play",
       decided="It always captures there, like any matching card; with oni_play=choice the player may instead "
       "discard it on top of the pile."),
    _r("KG-ONI-2", T.SPECIAL, "A willow played onto an empty pile is discarded; while it is on the pile it can "
       "only be matched by another willow.", (seed("Onifuda", "only be matched with another Willow"),), S, "KG-7",
       decided="Only the top card decides what captures: once covered, a willow is an ordinary card of the pile."),
    _r("KG-PAY-1", T.SPECIAL, "Kusuri-gui: when a player captures a card the opponent discarded after the pile had "
       "been emptied, the opponent pays that player the Kusuri-gui payment at once; the round then goes on.",
       (seed("Kusuri-gui", "after the discard pile has been emptied"),), S, "KG-8",
       decided="That is a capture of a pile holding exactly one card, which the opponent discarded onto the empty "
       "pile with the play just before; the card dealt face up is never one. Capturing it with a willow still "
       "counts (oni_pays=no: it does not)."),
    _r("KG-PAY-2", T.SPECIAL, "The payment is 1 or 2 chips, fixed before play.",
       (seed("Kusuri-gui", "decide first the value before playing"),), S, "KG-9", "payment",
       decided="1 chip by default; payment=2 for the other."),
    _r("KG-PAY-3", T.SPECIAL, "Eating a willow is no Kusuri-gui: no payment when the captured card is a willow.",
       (seed("Kusuri-gui", "does not count as Kusuri-gui"),), S),
    _r("KG-PAY-4", T.SPECIAL, "A capture made with a willow is a Kusuri-gui like any other (with oni_pays=no it "
       "is not).", (dossier("KG-8", "a Willow used to capture it still counts"),), D, "KG-8", "oni_pays"),
    _r("KG-PAY-5", T.SCORING, "Kusuri-gui payments are chip transfers of the round: they are booked in the "
       "round's result with the settlement, so chips are conserved.",
       (seed("Kusuri-gui", "immediately pays"),), D, "KG-8"),
    _r("KG-YAKU-1", T.YAKU, "Before play the players choose whether dekiyaku stack or are mutually exclusive. "
       "Stacking, every dekiyaku formed counts except one that is part of a bigger dekiyaku also formed; "
       "exclusive, only the most valuable counts.",
       (seed("Dekiyaku", "mutually exclusive, or can stack"),), S, "KG-10", "dekiyaku",
       decided="Stacking is the default (dekiyaku=exclusive for the other). Part of means that every pile forming "
       "the bigger dekiyaku forms it too: Four, Three and Rainy Three Brights are part of Five Brights, Three "
       "Brights of Four Brights, Hand Cannon of Hot-pot; the counting dekiyaku and the ribbon sets are part of "
       "nothing. Exclusive, the first listed wins a tie of values."),
    _r("KG-YAKU-2", T.YAKU, "Dekiyaku A is part of dekiyaku B when every capture pile forming B also forms A "
       "but not conversely (see gap KG-10 for the resulting pairs).",
       (seed("Dekiyaku", "part of a bigger Dekiyaku"),), D, "KG-10"),
    _r("KG-YAKU-3", T.YAKU, "Five Brights (gokō): the five Brights 10, 30, 80, 110 and 120; worth 8 to 10, fixed "
       "before play.", (seed("Dekiyaku", "8 to 10"),), S, "KG-11", "five_brights",
       decided="10 by default (five_brights=9 or 8)."),
    _r("KG-YAKU-4", T.YAKU, "Four Brights (shikō): 10, 30, 80 and 120; worth 4.",
       (seed("Dekiyaku", "Four Brights (Dry 4)"),), S),
    _r("KG-YAKU-5", T.YAKU, "Three Brights (sankō): any three of 10, 30, 80 and 120; worth 3.",
       (seed("Dekiyaku", "Three Brights (Dry 3)"),), S),
    _r("KG-YAKU-6", T.YAKU, "Rainy Three Brights (amesankō): the Rain Man (110) and any two of 10, 30, 80 and 120; "
       "worth 2.", (seed("Dekiyaku", "Rainy Three Brights"),), S, "KG-12", "rainy_overlap",
       decided="When the pile also forms Three Brights both count, 5, since neither is part of the other (KG-10); "
       "rainy_overlap=higher counts only Three Brights."),
    _r("KG-YAKU-7", T.YAKU, "Hot-pot (nabe): the Boar (70), the Deer (100) and the Butterflies (60); worth 3 to 4, "
       "fixed before play.", (seed("Dekiyaku", "3 to 4"),), S, "KG-11", "hot_pot",
       decided="4 by default (hot_pot=3)."),
    _r("KG-YAKU-8", T.YAKU, "Hand Cannon (teppō): the Boar (70) and the Deer (100); worth 2 to 3, fixed before "
       "play.",
       (seed("Dekiyaku", "2 to 3"),), S, "KG-11", "hand_cannon",
       decided="3 by default (hand_cannon=2)."),
    _r("KG-YAKU-9", T.YAKU, "Animals (tane): any five Animals, worth 1, plus 1 for each Animal beyond five.",
       (seed("Dekiyaku", "Any 5 Animal cards"),), S),
    _r("KG-YAKU-10", T.YAKU, "Poetry Ribbons (akatan): 11, 21 and 31; worth 2.",
       (seed("Dekiyaku", "Poetry Ribbons"),), S),
    _r("KG-YAKU-11", T.YAKU, "Blue Ribbons (aotan): 61, 91 and 101; worth 2.",
       (seed("Dekiyaku", "Blue Ribbons"),), S),
    _r("KG-YAKU-12", T.YAKU, "Grass Ribbons (kusatan): the plain ribbons 41, 51 and 71 (not the willow's 112); "
       "worth 2.", (seed("Dekiyaku", "excluding the"),), S),
    _r("KG-YAKU-13", T.YAKU, "Ribbons (tanzaku): any five Ribbons, worth 1, plus 1 for each Ribbon beyond five.",
       (seed("Dekiyaku", "Any 5 Ribbon cards"),), S),
    _r("KG-YAKU-14", T.YAKU, "Chaff (kasu): any ten Chaff, worth 1, plus 1 for each Chaff beyond ten.",
       (seed("Dekiyaku", "Any 10 Chaff cards"),), S, "KG-15", "sake_cup",
       decided="The Sake Cup is an Animal only, not a Chaff (sake_cup=both counts it as a Chaff too)."),
    _r("KG-YAKU-15", T.YAKU, "For dekiyaku the Rain Man (110) counts as a Bright, as the seed's table shows.",
       (seed("Dekiyaku", "Willow with Rain Man"),), S, "KG-14",
       decided="The other willows keep their printed kinds too: 111 Animal, 112 Ribbon (not one of the Grass "
       "Ribbons), 113 Chaff."),
    _r("KG-SCORE-1", T.SCORING, "At the end of the round the player with the higher dekiyaku total wins it and "
       "receives chips equal to the difference of the totals from the other.",
       (seed("End of Round and Scoring", "chips equal to the score difference"),), S, "KG-13",
       decided="A dekiyaku worth n is worth n chips: the table's Chips and Points columns are one unit."),
    _r("KG-SCORE-2", T.SCORING, "Equal totals: nobody pays and the dealer deals again (tie_dealer=pass: the "
       "other player deals).", (seed("End of Round and Scoring", "higher total dekiyaku score wins"),), D,
       "KG-16", "tie_dealer"),
    _r("KG-SCORE-3", T.SCORING, "With bust=end a player never pays more chips than they hold: a Kusuri-gui "
       "payment or a settlement is cut to the payer's chips.",
       (dossier("KG-19", "No rule for running out of chips"), seed("Setup", "100 chips")), D, "KG-19", "bust"),
    _r("KG-END-1", T.END_ROUND, "The round ends when the stock and both hands are exhausted (after 40 plays). "
       "Cards left on the pile belong to nobody.",
       (seed("End of Round and Scoring", "cannot be captured"),), S),
    _r("KG-END-2", T.END_ROUND, "The winner of the round deals the next one.",
       (seed("Choosing the Dealer", "winner of each round becomes the dealer"),), S),
    _r("KG-GAME-1", T.END_GAME, "A game is 12 or 6 rounds, fixed before play.",
       (seed("Setup", "either 12 rounds or 6 rounds"),), S, "KG-2", "rounds",
       decided="12 by default (rounds=6); a misdeal is not a round."),
    _r("KG-GAME-2", T.END_GAME, "The player with more chips at the end wins the game; equal chips is a drawn "
       "game.", (seed("Setup", "used for score calculation"),), D, "KG-2"),
    _r("KG-GAME-3", T.END_GAME, "With bust=end the game ends after a round that leaves a player without chips; "
       "with bust=debt chips may go below zero and every round is played.",
       (dossier("KG-19", "the game ends, or debts are allowed"),), D, "KG-19", "bust"),
)

# The options' values, one enum each: the OptionSpecs below take their choices from them.


class Dekiyaku(enum.StrEnum):
    """The values of option ``dekiyaku``."""

    STACK = "stack"
    EXCLUSIVE = "exclusive"


class FiveBrights(enum.StrEnum):
    """The values of option ``five_brights``."""

    N10 = "10"
    N9 = "9"
    N8 = "8"


class HotPot(enum.StrEnum):
    """The values of option ``hot_pot``."""

    N4 = "4"
    N3 = "3"


class HandCannon(enum.StrEnum):
    """The values of option ``hand_cannon``."""

    N3 = "3"
    N2 = "2"


class Payment(enum.StrEnum):
    """The values of option ``payment``."""

    N1 = "1"
    N2 = "2"


class Rounds(enum.StrEnum):
    """The values of option ``rounds``."""

    N12 = "12"
    N6 = "6"


class Chips(enum.StrEnum):
    """The values of option ``chips``."""

    N100 = "100"
    N200 = "200"


class Bust(enum.StrEnum):
    """The values of option ``bust``."""

    END = "end"
    DEBT = "debt"


class TieDealer(enum.StrEnum):
    """The values of option ``tie_dealer``."""

    STAY = "stay"
    PASS = "pass"


class SakeCup(enum.StrEnum):
    """The values of option ``sake_cup``."""

    ANIMAL = "animal"
    BOTH = "both"


class OniPlay(enum.StrEnum):
    """The values of option ``oni_play``."""

    CAPTURE = "capture"
    CHOICE = "choice"


class OniPays(enum.StrEnum):
    """The values of option ``oni_pays``."""

    YES = "yes"
    NO = "no"


class RainyOverlap(enum.StrEnum):
    """The values of option ``rainy_overlap``."""

    BOTH = "both"
    HIGHER = "higher"


OPTIONS = (
    OptionSpec("dekiyaku", Dekiyaku, Dekiyaku.STACK,
               "Dekiyaku stack (parts of a bigger dekiyaku excepted), or only the most valuable one counts.",
               seed("Dekiyaku", "mutually exclusive, or can stack")),
    OptionSpec("five_brights", FiveBrights, FiveBrights.N10, "Value of Five Brights.", seed("Dekiyaku", "8 to 10")),
    OptionSpec("hot_pot", HotPot, HotPot.N4, "Value of Hot-pot.", seed("Dekiyaku", "3 to 4")),
    OptionSpec("hand_cannon", HandCannon, HandCannon.N3, "Value of Hand Cannon.", seed("Dekiyaku", "2 to 3")),
    OptionSpec("payment", Payment, Payment.N1, "Chips the eaten player pays for a Kusuri-gui.",
               seed("Kusuri-gui", "1 or 2 chips")),
    OptionSpec("rounds", Rounds, Rounds.N12, "Rounds in a game.", seed("Setup", "either 12 rounds or 6 rounds")),
    OptionSpec("chips", Chips, Chips.N100, "Chips each player starts with.",
               seed("Setup", "two plates for each player")),
    OptionSpec("bust", Bust, Bust.END,
               "Running out of chips: payments are cut to what the payer holds and the game ends after the "
               "round; or chips may go below zero.", dossier("KG-19")),
    OptionSpec("tie_dealer", TieDealer, TieDealer.STAY, "Who deals after a round with equal totals.",
               dossier("KG-16", "a tie means no payment and the same dealer")),
    OptionSpec("sake_cup", SakeCup, SakeCup.ANIMAL,
               "The Sake Cup is an Animal only, or also counts as a Chaff.", dossier("KG-15")),
    OptionSpec("oni_play", OniPlay, OniPlay.CAPTURE,
               "A willow played onto a non-empty pile always captures, or the player may discard it.",
               seed("Onifuda", "you can use it to")),
    OptionSpec("oni_pays", OniPays, OniPays.YES, "Whether a Kusuri-gui made with a willow is paid.",
               dossier("KG-8")),
    OptionSpec("rainy_overlap", RainyOverlap, RainyOverlap.BOTH,
               "When Three Brights and Rainy Three Brights are both formed: both count, or only the higher.",
               dossier("KG-12")),
)

RULESETS = (
    RulesetSpec("fudawiki", "FudaWiki's rules (SEED-000) with the recorded decisions.", {},
                seed("Dekiyaku")),
)

SPEC = KUSURIGUI = GameSpec(
    key="kusurigui",
    name="Kusuri-gui",
    aliases=("kusuri-gui", "kg", "薬食い"),
    deck="kusurigui",
    summary="Two-player discard-pile game: a match takes the whole pile, willows are wild, and eating a fresh "
            "discard costs the opponent chips on the spot.",
    sources=("SEED-000", "FW-KG", "KUBO"),
    rules=RULES,
    gaps=GAPS,
    options=OPTIONS,
    rulesets=RULESETS,
    default_ruleset="fudawiki",
)


# -- dekiyaku --------------------------------------------------------------------------------------

def yaku_table(values: Mapping[str, str]) -> tuple[YakuDef, ...]:
    """The dekiyaku rows for resolved option ``values``, in the seed's order (the order also breaks
    ties in the exclusive mode).

    >>> [(y.id, y.points) for y in yaku_table(SPEC.resolve())][:4]
    [('five-brights', 10), ('four-brights', 4), ('three-brights', 3), ('rainy-three-brights', 2)]
    """
    chaff = CHAFF | {SAKE} if values["sake_cup"] == "both" else CHAFF
    return (
        YakuDef("five-brights", "Five Brights", "五光", int(values["five_brights"]), BRIGHTS, 5, "KG-YAKU-3"),
        YakuDef("four-brights", "Four Brights", "四光", 4, DRY_BRIGHTS, 4, "KG-YAKU-4"),
        YakuDef("three-brights", "Three Brights", "三光", 3, DRY_BRIGHTS, 3, "KG-YAKU-5"),
        YakuDef("rainy-three-brights", "Rainy Three Brights", "雨三光", 2, DRY_BRIGHTS, 2, "KG-YAKU-6",
                required=frozenset({RAIN_MAN})),
        YakuDef("hot-pot", "Hot-pot", "鍋", int(values["hot_pot"]), HOT_POT, 3, "KG-YAKU-7"),
        YakuDef("hand-cannon", "Hand Cannon", "鉄砲", int(values["hand_cannon"]), HAND_CANNON, 2, "KG-YAKU-8"),
        YakuDef("animals", "Animals", "タネ", 1, ANIMALS, 5, "KG-YAKU-9", extra_pool=ANIMALS, extra_from=5),
        YakuDef("poetry-ribbons", "Poetry Ribbons", "赤短", 2, POETRY, 3, "KG-YAKU-10"),
        YakuDef("blue-ribbons", "Blue Ribbons", "青短", 2, BLUE, 3, "KG-YAKU-11"),
        YakuDef("grass-ribbons", "Grass Ribbons", "草短", 2, GRASS, 3, "KG-YAKU-12"),
        YakuDef("ribbons", "Ribbons", "短冊", 1, RIBBONS, 5, "KG-YAKU-13", extra_pool=RIBBONS, extra_from=5),
        YakuDef("chaff", "Chaff", "カス", 1, chaff, 10, "KG-YAKU-14", extra_pool=chaff, extra_from=10),
    )


def _forced_and_least(b: YakuDef, pool: frozenset[int]) -> tuple[frozenset[int], int]:
    """For the smallest piles forming ``b``: the cards every one of them holds, and the fewest cards
    of ``pool`` any of them holds."""
    free = b.pool - b.required
    k = max(0, b.need - len(b.pool & b.required))
    forced = b.required | (free if k == len(free) else frozenset())
    least = len(pool & b.required) + max(0, k - len(free - pool))
    return forced, least


def implies(b: YakuDef, a: YakuDef) -> bool:
    """Whether every capture pile that forms ``b`` also forms ``a``.

    Both are monotone (adding cards never unforms them), so it is enough to look at the smallest
    piles forming ``b``: the required cards plus ``need`` cards of the pool. ``a`` holds on all of
    them exactly when its required cards are in every one and the one with the fewest cards of
    ``a``'s pool still has ``a.need`` of them.
    """
    for y in (a, b):
        if y.forbidden or y.doubled:
            raise ValueError(f"{y.id}: implication is defined for plain counting dekiyaku only")
    forced, least = _forced_and_least(b, a.pool)
    return a.required <= forced and least >= a.need


def part_of(table: Iterable[YakuDef]) -> frozenset[tuple[str, str]]:
    """The pairs (A, B) of the table with A part of B (gap KG-10): B implies A and A does not imply B."""
    rows = tuple(table)
    return frozenset((a.id, b.id) for a in rows for b in rows
                     if a.id != b.id and implies(b, a) and not implies(a, b))


#: The "part of" pairs (smaller, bigger). Values are options, card conditions are not, so one set
#: holds under every option.
PART_OF: frozenset[tuple[str, str]] = part_of(yaku_table(SPEC.resolve()))


def dekiyaku(values: Mapping[str, str], pile: Iterable[int]) -> tuple[ScoredYaku, ...]:
    """The dekiyaku a capture pile scores under ``values`` (KG-YAKU-1…15), in table order.

    This is the obvious, set-based definition; the reference computes the same with bit masks.

    >>> v = SPEC.resolve()
    >>> [y.id for y in dekiyaku(v, [10, 30, 80, 110])]
    ['three-brights', 'rainy-three-brights']
    >>> [y.id for y in dekiyaku({**v, "dekiyaku": "exclusive"}, [10, 30, 80, 110])]
    ['three-brights']
    """
    p = frozenset(pile)
    rows = yaku_table(values)
    formed = [(y, y.value(p)) for y in rows]
    formed = [(y, v) for y, v in formed if v > 0]
    if values["dekiyaku"] == "exclusive":
        if not formed:
            return ()
        top = max(v for _, v in formed)
        y = next(y for y, v in formed if v == top)
        return (ScoredYaku(y.id, top),)
    ids = {y.id for y, _ in formed}
    kept = [(y, v) for y, v in formed if not any((y.id, b) in PART_OF for b in ids)]
    if values["rainy_overlap"] == "higher" and {"three-brights", "rainy-three-brights"} <= ids:
        kept = [(y, v) for y, v in kept if y.id != "rainy-three-brights"]
    return tuple(ScoredYaku(y.id, v) for y, v in kept)


def settlement(values: Mapping[str, str], totals: tuple[int, int], chips: tuple[int, int]) -> tuple[int, int]:
    """The end-of-round chip transfer (KG-SCORE-1…3): the higher total takes the difference from the
    other, cut to the payer's ``chips`` with bust=end.

    >>> settlement(SPEC.resolve(), (7, 2), (100, 3))
    (3, -3)
    """
    if totals[0] == totals[1]:
        return (0, 0)
    w = 0 if totals[0] > totals[1] else 1
    amount = abs(totals[0] - totals[1])
    if values["bust"] == "end":
        amount = max(0, min(amount, chips[1 - w]))
    return (amount, -amount) if w == 0 else (-amount, amount)


# -- invariants over the neutral form --------------------------------------------------------------

_ZONES = frozenset({"hand.0", "hand.1", "pile", "stock", "captured.0", "captured.1", "out.facedown",
                    "out.willows"})


def _in_round(s: Snapshot) -> bool:
    return s.to_move is not None


def _zones(step: Step) -> str | None:
    """KG-DEAL-3/4: the named zones, three cards out of play, only willows set aside."""
    s = step.after
    extra = set(s.zone_names()) - _ZONES
    if extra:
        return f"unexpected zones {sorted(extra)}"
    if not _in_round(s):
        return None
    out = len(s.zone("out.facedown")) + len(s.zone("out.willows"))
    if out != OUT_OF_PLAY:
        return f"{out} cards out of play instead of {OUT_OF_PLAY}"
    if not set(s.zone("out.willows")) <= WILLOWS:
        return f"a non-willow was set aside: {s.zone('out.willows')}"
    return None


def _deal(step: Step) -> str | None:
    """KG-DEAL-2/4: a round starts with 4 + 4 cards in hand, a one-card non-willow pile, 32 in stock."""
    s = step.after
    if not (step.before is None or step.outcomes) or not _in_round(s):
        return None
    sizes = (len(s.zone("hand.0")), len(s.zone("hand.1")), len(s.zone("pile")), len(s.zone("stock")))
    if sizes != (4, 4, 1, 32) or s.zone("captured.0") or s.zone("captured.1"):
        return f"first position of a round: hands, pile, stock = {sizes}"
    if s.zone("pile")[0] in WILLOWS:
        return f"the round starts with a willow ({s.zone('pile')[0]}) as the pile"
    if s.to_move != s.dealer:
        return f"seat {s.to_move} leads instead of the dealer {s.dealer}"
    return None


def _cycle(step: Step) -> str | None:
    """KG-PLAY-1/5: the dealer leads every cycle of eight plays, so the dealer's hand is never the larger,
    and is equal exactly when the dealer is to play."""
    s = step.after
    if not _in_round(s):
        return None
    mover = s.to_move
    assert mover is not None
    mine, other = len(s.zone(f"hand.{mover}")), len(s.zone(f"hand.{1 - mover}"))
    want = other if mover == s.dealer else other + 1
    if mine != want or mine == 0:
        return f"seat {mover} (dealer {s.dealer}) to play with {mine} cards against {other}"
    if len(s.zone("stock")) % 8:
        return f"stock of {len(s.zone('stock'))} cards is not a whole number of re-deals"
    return None


def _chips(step: Step) -> str | None:
    """KG-EQ-2, KG-SCORE-3: chips are conserved; with bust=end nobody's chips go below zero."""
    s = step.after
    want = 2 * int(step.options.get("chips", "100"))
    if sum(s.scores) != want:
        return f"chips {s.scores} do not add up to {want}"
    if step.options.get("bust", "end") == "end" and min(s.scores) < 0:
        return f"chips below zero with bust=end: {s.scores}"
    return None


def _game_end(step: Step) -> str | None:
    """KG-GAME-1/3: a game is its number of rounds, unless a player ran out of chips with bust=end."""
    rounds = int(step.options.get("rounds", "12"))
    s = step.after
    busted = step.options.get("bust", "end") == "end" and min(s.scores) <= 0
    if step.match_over and s.round != rounds and not busted:
        return f"game of {rounds} rounds ended after round {s.round} with chips {s.scores}"
    if not step.match_over and (s.round > rounds or busted):
        return f"round {s.round} played with chips {s.scores} in a game of {rounds} rounds"
    return None


def _month(cid: int) -> int:
    return cid // 10


@dataclass
class _Round:
    """What the ledger remembers of the round in progress."""

    chips: list[int]
    plays: int = 0
    redeals: int = 0
    paid: list[int] = field(default_factory=lambda: [0, 0])


class RoundLedger:
    """KG-PLAY-2…4, KG-ONI-1/2, KG-PAY-1…5, KG-SCORE-1…3: a fold over the steps of a match.

    It replays every play on the neutral form — a capture takes the whole pile exactly when the
    card matches the top card's month or is a willow played onto a non-empty pile — counts the
    plays and re-deals, recognises each Kusuri-gui from the table alone (a one-card pile captured
    after the round's first play holds a card the opponent has just discarded onto an empty pile)
    and, when the round ends, checks that the round's chip transfers are exactly its Kusuri-gui
    payments plus the settlement of the dekiyaku it reports, and that those dekiyaku are the ones
    the final capture piles form. It resets at the first step of every match, so it assumes one
    match is driven at a time (as :func:`~hanafuda_spec.invariants.run_random` does).
    """

    def __init__(self) -> None:
        self.cur: _Round | None = None

    def __call__(self, step: Step) -> str | None:
        msg = None
        if step.before is not None and self.cur is not None and step.action is not None:
            if step.outcomes:
                msg = self._finish(step)
            else:
                msg = self._play(step.options, step.before, step.action, step.after)
        if step.before is None or step.outcomes:
            s = step.after
            self.cur = _Round(list(s.scores)) if _in_round(s) else None
        return msg

    def _apply(self, opts: Mapping[str, str], before: Snapshot,
               action: str) -> tuple[str | None, tuple[int, ...], tuple[int, ...]]:
        """The pile and the mover's capture pile after ``action``, and any violation of the play rules."""
        cur = self.cur
        assert cur is not None
        words = action.split()
        mover = before.to_move
        assert mover is not None
        if len(words) != 2 or words[0] not in ("play", "discard") or not words[1].isdigit():
            return f"unexpected action {action!r}", (), ()
        c = int(words[1])
        if c not in before.zone(f"hand.{mover}"):
            return f"seat {mover} played {c}, which is not in their hand", (), ()
        pile = before.zone("pile")
        mine = before.zone(f"captured.{mover}")
        if words[0] == "discard":
            if opts.get("oni_play") != "choice" or c not in WILLOWS or not pile:
                return f"{action!r} is not a legal discard", (), ()
            return None, (*pile, c), mine
        takes = bool(pile) and (c in WILLOWS or _month(c) == _month(pile[-1]))
        if not takes:
            return None, (*pile, c), mine
        if len(pile) == 1 and cur.plays > 0 and pile[0] not in WILLOWS and (
                opts.get("oni_pays", "yes") == "yes" or c not in WILLOWS):
            opp = 1 - mover
            amount = int(opts.get("payment", "1"))
            if opts.get("bust", "end") == "end":
                amount = max(0, min(amount, cur.chips[opp]))
            cur.chips[opp] -= amount
            cur.chips[mover] += amount
            cur.paid[opp] -= amount
            cur.paid[mover] += amount
        return None, (), tuple(sorted((*mine, *pile, c)))

    def _play(self, opts: Mapping[str, str], before: Snapshot, action: str, after: Snapshot) -> str | None:
        cur = self.cur
        assert cur is not None and before.to_move is not None
        msg, pile, mine = self._apply(opts, before, action)
        if msg:
            return msg
        cur.plays += 1
        mover = before.to_move
        if after.zone("pile") != pile:
            return f"after {action!r} on pile {before.zone('pile')} the pile is {after.zone('pile')}, not {pile}"
        if after.zone(f"captured.{mover}") != mine:
            return f"after {action!r} seat {mover} holds {after.zone(f'captured.{mover}')}, not {mine}"
        got = len(before.zone("stock")) - len(after.zone("stock"))
        if got:
            hands_before = len(before.zone("hand.0")) + len(before.zone("hand.1"))
            sizes = (len(after.zone("hand.0")), len(after.zone("hand.1")))
            if got != 8 or hands_before != 1 or sizes != (4, 4):
                return f"re-deal of {got} cards with {hands_before} in hand before and hands {sizes} after"
            cur.redeals += 1
            dealer, ko = before.dealer, 1 - before.dealer
            stock = before.zone("stock")
            want = {ko: sorted(stock[0:2] + stock[4:6]), dealer: sorted(stock[2:4] + stock[6:8])}
            for seat, cards in want.items():
                if list(after.zone(f"hand.{seat}")) != cards:
                    return f"re-deal gave seat {seat} {after.zone(f'hand.{seat}')}, not {cards} (KG-17 order)"
        return None

    def _finish(self, step: Step) -> str | None:
        cur = self.cur
        assert cur is not None and step.before is not None and step.action is not None
        before = step.before
        msg, _pile, mine = self._apply(step.options, before, step.action)
        if msg:
            return msg
        cur.plays += 1
        if cur.plays != PLAYS_PER_ROUND or cur.redeals != REDEALS:
            return f"round ended after {cur.plays} plays and {cur.redeals} re-deals"
        ended = step.outcomes[0]
        mover = before.to_move
        assert mover is not None
        piles = [before.zone("captured.0"), before.zone("captured.1")]
        piles[mover] = mine
        want = tuple(dekiyaku(step.options, p) for p in piles)
        got = tuple(tuple(side) for side in ended.yaku)
        if got != want:
            return f"round reports dekiyaku {got}, the capture piles form {want}"
        totals = (sum(y.points for y in want[0]), sum(y.points for y in want[1]))
        settle = settlement(step.options, totals, (cur.chips[0], cur.chips[1]))
        deltas = (cur.paid[0] + settle[0], cur.paid[1] + settle[1])
        if tuple(ended.deltas) != deltas:
            return (f"round deltas {ended.deltas}, expected Kusuri-gui payments {tuple(cur.paid)} + "
                    f"settlement {settle}")
        return None


PROFILE = GameProfile(
    game="kusurigui",
    deck=lambda _o: DECK,
    zero_sum=lambda _o: True,
    max_round_actions=PLAYS_PER_ROUND,
    invariants=(
        ("KG-DEAL-3 zones and cards out of play", _zones),
        ("KG-DEAL-2 the deal", _deal),
        ("KG-PLAY-5 the dealer leads every cycle", _cycle),
        ("KG-EQ-2 chips conserved", _chips),
        ("KG-GAME-1 game length", _game_end),
        ("KG-PAY-1 plays, re-deals, payments and settlement", RoundLedger()),
    ),
)
