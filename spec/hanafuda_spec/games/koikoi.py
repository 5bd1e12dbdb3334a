"""Koi-Koi (こいこい): rule catalogue, decisions, options and yaku table.

The seed (SEED-002) is a scrambled fragment of Wikipedia's lead, Deal and Play (gap KK-1);
everything else comes from the FudaWiki Koi-Koi page (FW-KK), adopted by decision KK-1.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping

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

__all__ = ["ANIMALS", "BRIGHTS", "CHAFF", "KOIKOI", "RIBBONS", "SPEC", "yaku_table"]

S, LR, RS, D = Evidence.SEED, Evidence.LATER_REVISION, Evidence.RELATED_SOURCE, Evidence.DECISION
IMPL = Evidence.IMPLEMENTATION
T = Topic

fw = Citer("FW-KK")
seed = Citer("SEED-002")
ha = Citer("FW-HA")
#: Engines read at the commit their source entry names; the section is "file: function".
bh = Citer("ENG-BH")
kkai = Citer("ENG-KKAI")
gokk = Citer("ENG-GOKK")
kks = Citer("ENG-KKS")

BRIGHTS = frozenset({10, 30, 80, 110, 120})
DRY_BRIGHTS = frozenset({10, 30, 80, 120})
ANIMALS = frozenset({20, 40, 50, 60, 70, 81, 90, 100, 111})
RIBBONS = frozenset({11, 21, 31, 41, 51, 61, 71, 91, 101, 112})
POETRY = frozenset({11, 21, 31})
BLUE = frozenset({61, 91, 101})
CHAFF = frozenset(
    {12, 13, 22, 23, 32, 33, 42, 43, 52, 53, 62, 63, 72, 73, 82, 83, 92, 93, 102, 103, 113, 121, 122, 123}
)
SAKE = 90
LIGHTNING_CARD = 113
RAIN_MAN = 110
WILLOW_CARDS = frozenset({110, 111, 112, 113})
# The options' values, one enum each: the OptionSpecs below take their choices from them.


class Length(enum.StrEnum):
    """The values of option ``length``."""

    N12 = "12"
    N11 = "11"
    N10 = "10"
    N9 = "9"
    N8 = "8"
    N7 = "7"
    N6 = "6"
    N5 = "5"
    N4 = "4"
    N3 = "3"
    N2 = "2"
    N1 = "1"
    TO_50 = "to-50"


class FiveBrights(enum.StrEnum):
    """The values of option ``five_brights``."""

    N15 = "15"
    N10 = "10"


class ThreeBrights(enum.StrEnum):
    """The values of option ``three_brights``."""

    N6 = "6"
    N5 = "5"


class MonthCards(enum.StrEnum):
    """The values of option ``month_cards``."""

    ON = "on"
    OFF = "off"


class SakeCup(enum.StrEnum):
    """The values of option ``sake_cup``."""

    BOTH = "both"
    EITHER = "either"
    ANIMAL = "animal"


class Viewing(enum.StrEnum):
    """The values of option ``viewing``."""

    ON = "on"
    OFF = "off"
    NEED_OTHER = "need-other"
    WEATHER = "weather"
    RAIN_PILE = "rain-pile"
    WILLOW_PILE = "willow-pile"


class RainyFourBrights(enum.StrEnum):
    """The values of option ``rainy_four_brights``."""

    N7 = "7"
    THREE_BRIGHTS = "three-brights"


class ChaffDoubles(enum.StrEnum):
    """The values of option ``chaff_doubles``."""

    OFF = "off"
    ON = "on"
    SAKE = "sake"
    LIGHTNING = "lightning"
    PAULOWNIA = "paulownia"
    SAKE_LIGHTNING = "sake+lightning"
    SAKE_PAULOWNIA = "sake+paulownia"
    LIGHTNING_PAULOWNIA = "lightning+paulownia"


class YakuSystem(enum.StrEnum):
    """The values of option ``yaku_system``."""

    MODERN = "modern"
    OLDER = "older"
    OLDER_STACKED = "older-stacked"


class YakuSet(enum.StrEnum):
    """The values of option ``yaku_set``."""

    FULL = "full"
    LEAFLET_1960S = "leaflet-1960s"
    FLOWER_CARD_GAME = "flower-card-game"


class ViewingValue(enum.StrEnum):
    """The values of option ``viewing_value``."""

    N5 = "5"
    N1_3 = "1-3"


class Teyaku(enum.StrEnum):
    """The values of option ``teyaku``."""

    WIN = "win"
    MISDEAL = "misdeal"
    OFF = "off"


class TeyakuBoth(enum.StrEnum):
    """The values of option ``teyaku_both``."""

    N6 = "6"
    N12 = "12"


class FieldTeyaku(enum.StrEnum):
    """The values of option ``field_teyaku``."""

    MISDEAL = "misdeal"
    DEALER_CAPTURES = "dealer-captures"
    DEALER_WINS = "dealer-wins"
    PLAY = "play"


class FieldPairs(enum.StrEnum):
    """The values of option ``field_pairs``."""

    MISDEAL = "misdeal"
    PLAY = "play"


class FieldThree(enum.StrEnum):
    """The values of option ``field_three``."""

    PLAY = "play"
    MISDEAL = "misdeal"


class HandPairs(enum.StrEnum):
    """The values of option ``hand_pairs``."""

    ON = "on"
    OFF = "off"


class HandSize(enum.StrEnum):
    """The values of option ``hand_size``."""

    N8 = "8"
    N10 = "10"


class Packets(enum.StrEnum):
    """The values of option ``packets``."""

    N4 = "4"
    N2 = "2"


class Lightning(enum.StrEnum):
    """The values of option ``lightning``."""

    NORMAL = "normal"
    WILD = "wild"
    WILD_IF_SUSUKI = "wild-if-susuki"


class Turn(enum.StrEnum):
    """The values of option ``turn``."""

    STANDARD = "standard"
    DRAW_FIRST = "draw-first"
    KEEP_UNMATCHED = "keep-unmatched"


class AfterHands(enum.StrEnum):
    """The values of option ``after_hands``."""

    STOP = "stop"
    DRAW_PILE = "draw-pile"


class Discard(enum.StrEnum):
    """The values of option ``discard``."""

    FREE = "free"
    MUST_CAPTURE = "must-capture"


class KoikoiOn(enum.StrEnum):
    """The values of option ``koikoi_on``."""

    NEW_OR_IMPROVED = "new-or-improved"
    NEW = "new"


class KoikoiLimit(enum.StrEnum):
    """The values of option ``koikoi_limit``."""

    UNLIMITED = "unlimited"
    ONCE_PER_ROUND = "once-per-round"


class KoikoiLastTurn(enum.StrEnum):
    """The values of option ``koikoi_last_turn``."""

    ALLOWED = "allowed"
    FORBIDDEN = "forbidden"


class KoikoiMin(enum.StrEnum):
    """The values of option ``koikoi_min``."""

    N0 = "0"
    N1 = "1"
    N2 = "2"
    N3 = "3"
    N4 = "4"
    N5 = "5"
    N6 = "6"
    N7 = "7"
    N8 = "8"
    N9 = "9"
    N10 = "10"


class Multiplier(enum.StrEnum):
    """The values of option ``multiplier``."""

    OPPONENT = "opponent"
    SELF = "self"
    ANYONE = "anyone"
    COUNT = "count"
    NONE = "none"
    ADDITIVE = "additive"


class SevenDouble(enum.StrEnum):
    """The values of option ``seven_double``."""

    ON = "on"
    OFF = "off"


class FieldMultiplier(enum.StrEnum):
    """The values of option ``field_multiplier``."""

    OFF = "off"
    DOUBLE = "double"
    COUNT = "count"


class YakuCount(enum.StrEnum):
    """The values of option ``yaku_count``."""

    ALL = "all"
    BEST = "best"
    BOTH_PLAYERS = "both-players"


class ZeroSum(enum.StrEnum):
    """The values of option ``zero_sum``."""

    OFF = "off"
    ON = "on"


class Oyaken(enum.StrEnum):
    """The values of option ``oyaken``."""

    N0 = "0"
    N1 = "1"
    N6 = "6"


class DrawDealer(enum.StrEnum):
    """The values of option ``draw_dealer``."""

    STAY = "stay"
    PASS = "pass"


class StartPoints(enum.StrEnum):
    """The values of option ``start_points``."""

    N0 = "0"
    N30 = "30"


class GameEnd(enum.StrEnum):
    """The values of option ``game_end``."""

    ROUNDS = "rounds"
    ZERO = "zero"


class Exhaustive(enum.StrEnum):
    """The values of option ``exhaustive``."""

    NOBODY = "nobody"
    LAST_YAKU = "last-yaku"


#: viewing=rain-pile / willow-pile: the cards in the holder's own pile that rain off both viewing yaku.
VIEWING_RAIN: Mapping[str, frozenset[int]] = {
    Viewing.RAIN_PILE: frozenset({RAIN_MAN, LIGHTNING_CARD}), Viewing.WILLOW_PILE: WILLOW_CARDS}
PAULOWNIA_CHAFF = 121

#: chaff_doubles: which of the Sake Cup, Lightning and yellow Paulownia count as two Chaff.
_CD = ChaffDoubles
CHAFF_DOUBLES: Mapping[str, frozenset[int]] = {
    _CD.OFF: frozenset(), _CD.ON: frozenset({SAKE, LIGHTNING_CARD, PAULOWNIA_CHAFF}), _CD.SAKE: frozenset({SAKE}),
    _CD.LIGHTNING: frozenset({LIGHTNING_CARD}), _CD.PAULOWNIA: frozenset({PAULOWNIA_CHAFF}),
    _CD.SAKE_LIGHTNING: frozenset({SAKE, LIGHTNING_CARD}), _CD.SAKE_PAULOWNIA: frozenset({SAKE, PAULOWNIA_CHAFF}),
    _CD.LIGHTNING_PAULOWNIA: frozenset({LIGHTNING_CARD, PAULOWNIA_CHAFF}),
}

GAPS = (
    Gap("KK-1", "The seed is a scrambled fragment of Wikipedia's lead, Deal and Play: it has no yaku, "
        "scoring, koi-koi call, three-card capture, lucky hands, end of round or game length.",
        "SEED-002 covers the deal and the play of a hand card only. FW-KK, the same wiki as the other four "
        "seeds, gives complete rules and a list of variations.",
        "Take FW-KK's main rules as the default ruleset 'fudawiki'; every FW-KK variation that changes play "
        "or scoring is an option; Nintendo's values are the ruleset 'nintendo'.",
        "FW-KK is the fullest source and is from the same wiki as the other seeds; its bibliography includes "
        "the Wikipedia article the seed comes from.",
        ("five_brights", "three_brights", "month_cards")),
    Gap("KK-2", "After the scrambling, the sentence saying that 'this card' must be matched now follows the "
        "sentence about the played card, so it reads as if it were about the played card.",
        "In the unscrambled article (WP-2008) the sentence is about the card turned from the draw pile.",
        "The sentence is about the drawn card: a drawn card that matches must capture.",
        "WP-2008 and FW-KK both say the drawn card must capture."),
    Gap("KK-3", "May a player who could capture play a card that matches nothing?",
        "SEED-002 only says a player who cannot match must discard. WP-2008 ('alternatively') and FW-KK "
        "allow playing a non-matching card at any time; some sites require capturing when possible.",
        "Allowed by default; option discard=must-capture forbids it whenever a capture is possible.",
        "FW-KK states it explicitly as a warning box; the seed does not forbid it.",
        ("discard",)),
    Gap("KK-4", "What happens when the played or drawn card matches three cards on the table?",
        "The seed covers one and two matches only. FW-KK: all three are captured with the played card.",
        "Capture all four cards.", "FW-KK states it; it is universal among the sources in the dossier."),
    Gap("KK-5", "How is the first dealer chosen, and how are ties broken?",
        "SEED-002: earliest month, then 'the higher value card'; FW-KK: earliest month, higher point "
        "card, redraw on a tie.",
        "The dealer draw happens before the round and is outside the engine: a match names its first dealer "
        "(seat 0 unless given). The draw procedure is documented for players but not enforced.",
        "The draw has no effect on the rules of play, and records name the dealer explicitly."),
    Gap("KK-6", "Packets of two or four at the deal.",
        "SEED-002: 'two or four cards at a time'; FW-KK: four to the opponent, four to the table, four to "
        "the dealer, twice, sometimes in twos.",
        "Default packets of four in the order opponent, table, dealer; option packets=2 deals in twos in the "
        "same order. The order only matters for replaying a stacked deck.",
        "FW-KK gives the most detail.", ("packets",)),
    Gap("KK-7", "The string 'yaku.Īn' in the seed.", "An encoding artefact of the scrambling.",
        "Ignored.", "It carries no rule."),
    Gap("KK-8", "Is declaring a lucky hand (teyaku) optional?",
        "FW-KK: the holder 'declare[s] it' and wins the round at once.",
        "Lucky hands are resolved automatically right after the deal; declaring is not a choice.",
        "A lucky hand is worth 6 and the hand is otherwise poor (FW-KK's own comment), so declining has no "
        "use; an automatic rule keeps records unambiguous."),
    Gap("KK-9", "Which is checked first after the deal: a lucky hand on the table or in a hand?",
        "FW-KK describes both without an order.",
        "The table is checked first: a misdeal voids the deal before any hand is looked at.",
        "A misdeal means the cards are thrown in, so nothing dealt can score."),
    Gap("KK-10", "May a player call koi-koi on their last turn, when no card is left to play?",
        "FW-KK does not forbid it. The three open engines we read that play rounds do: the Battle Hanafuda "
        "simulator offers koi-koi only while the caller still holds a card (ENG-BH src/ai.c: is_koikoi_enabled), "
        "KoiKoi-AI forces shōbu on a player's eighth turn (ENG-KKAI koikoigame.py: "
        "KoiKoiRoundStateBase.claim_koikoi), go-koikoi makes a yaku formed with an empty hand a shōbu at once "
        "(ENG-GOKK ui.go: UI.checkPlayerYaku).",
        "Allowed by default: both calls are offered whenever a new or improved yaku forms, and koi-koi on the "
        "last turn leads to an exhaustive draw (or, with exhaustive=last-yaku, to that player's own score). "
        "koikoi_last_turn=forbidden offers only shōbu to a player whose hand is empty (KK-TURN-9).",
        "Reviewed again (issue 15): the call is pointless for the caller under the default scoring, but it is "
        "not illegal in any document source, and exhaustive=last-yaku and oyaken give it a use; the engines' "
        "restriction is an option so that their records can be checked exactly.", ("koikoi_last_turn",)),
    Gap("KK-11", "What does 'multiplier equal to the number of times koi-koi was called, plus 1' count?",
        "FW-KK's sentence says the number of times koi-koi was called; both of its examples speak of the "
        "opponent's calls, and the variation sits next to the default, which rewards the opponent's call.",
        "multiplier=count counts the opponent's calls only, as in the examples.",
        "Reviewed again (issue 15): the scorer's own calls can never count under this variation, since a "
        "player who called koi-koi and then stops scores for the calls of the opponent, and a count of both "
        "players' calls would contradict the examples (with one call by each, x3, not x2). Kept. The additive "
        "koi-koi bonus of KoiKoi-AI, which counts the scorer's own calls, is multiplier=additive (KK-SCORE-6).",
        ("multiplier",)),
    Gap("KK-12", "With koikoi_on=new, what happens when a yaku only improves?",
        "FW-KK: improving 'does not count' towards calling koi-koi; the sentence speaks of koi-koi only.",
        "No decision point: the turn passes as if nothing had formed (neither koi-koi nor shōbu is offered).",
        "Reviewed again (issue 15): in Koi-Koi a player may only stop at a decision point, and a decision point "
        "offering shōbu alone after an improvement would let the improvement end the round, which is the "
        "effect the variation removes (an improvement 'does not count'). Kept, with the reason stated."),
    Gap("KK-13", "FW-KK lists the Lightning as a wild card (always, or only when a Susuki card was dealt to the "
        "table) and defers its working to the Mushi rules. How do they apply to Koi-Koi?",
        "FW-KK: 'See the rules for Roppyakken or Mushi for details'. FW-HA summarises Mushi's wild card: it takes "
        "any single non-Willow card; from the hand it 'may' be used so; on the table it is taken by the first "
        "non-Willow card drawn; drawn, it must take a non-Willow card or else goes to the table; drawn as the last "
        "card, it takes everything; and a rule gives the two unpaired cards left at the end of a played-out deck "
        "to particular players.",
        "lightning=wild (or wild-if-susuki) applies FW-HA's summary: from the hand the Lightning may take any one "
        "non-Willow table card of the player's choice, or be played as an ordinary Willow; drawn, it must take a "
        "non-Willow card (the player chooses among several), goes to the table if there is none (even beside "
        "Willows), and takes the whole table if it was the last card of the draw pile; on the table it is taken by "
        "the first non-Willow card drawn, which takes only the Lightning. With discard=must-capture a wild capture "
        "counts as a capture. The unpaired-cards rule is not applied: a Koi-Koi round leaves 8 cards undrawn and "
        "the table's cards are never scored.",
        "The literal reading of the summary FW-KK points to; its end-of-round rule only serves card-point scoring "
        "of a played-out deck, which Koi-Koi does not have.",
        ("lightning",)),
    Gap("KK-20", "With field_teyaku=dealer-captures, replacement cards can form a new four of a month, again and "
        "again: what if the draw pile cannot supply four more replacements?",
        "FW-KK: the dealer captures the four cards and deals four more to the table; nothing more. z3 finds chains "
        "of quads that need more replacements than the draw pile holds.",
        "The dealer keeps capturing and replacing while four of a month lie on the table; if fewer than four cards "
        "are left in the draw pile when a replacement is due, the deal is a misdeal (same dealer, no round used).",
        "The table must hold 8 cards for play to begin; a void deal is the rule FW-KK already uses for a table "
        "that cannot be played.", ("field_teyaku",)),
    Gap("KK-19", "The turn variations: drawing first and playing two hand cards; keeping an unmatched drawn card "
        "and playing a second hand card instead; playing on from the draw pile once the hands are empty.",
        "FW-KK states each in one sentence, without details of timing.",
        "turn=draw-first: the top card goes into the hand at the start of the turn, then two hand cards are played "
        "one after the other, each resolved as usual, and yaku are checked after both. turn=keep-unmatched: a "
        "drawn card that matches nothing goes into the hand and the player plays a further hand card (which may "
        "be that card); there is no second draw. after_hands=draw-pile: once both hands are empty the players "
        "keep alternating draw-only turns ('draw') until the draw pile is empty, with the usual yaku check and "
        "calls after each; the round then ends as an exhaustive draw.",
        "The most literal reading of each sentence that keeps the round's card counts well defined.",
        ("turn", "after_hands")),
    Gap("KK-14", "What is the round's month for Cards of the Month when the game is not 12 rounds?",
        "FW-KK: round n is month n, and the yaku is mostly kept for games of 12 rounds ('full 12 round games').",
        "Round n uses month ((n - 1) mod 12) + 1 whatever the length; the option month_cards turns it off.",
        "It keeps the yaku well defined for every length.", ("month_cards",)),
    Gap("KK-15", "The sake cup counting as an Animal or a Chaff 'but not both': who chooses?",
        "FW-KK states the variation without saying when the choice is made.",
        "sake_cup=either scores the pile both ways and keeps the higher total.",
        "A player would always choose the better reading; this makes it a function of the pile.",
        ("sake_cup",)),
    Gap("KK-16", "What exactly is 'four pairs' (kuttsuki), and does four of a month count as two pairs?",
        "FW-KK defines a pair as two cards of one month and asks for four of them; it says nothing of four of a kind.",
        "A hand (or table) holds four pairs when its cards make at least four disjoint same-month pairs; four "
        "cards of one month count as two pairs. With 8 cards this means every month present is present an even "
        "number of times.",
        "It is the literal count of pairs and is well defined for the 10-card hand variant too."),
    Gap("KK-17", "Are the round multipliers (7 or more, koi-koi, field) applied to a lucky hand's 6 points?",
        "FW-KK: the holder wins the round 'scoring 6 points'; the multipliers are described for yaku scores only.",
        "No: a lucky hand scores its 6 (or 12) points as they are; zero-sum scoring still takes them from the "
        "loser.", "The multipliers are stated for the shōbu score only, and no koi-koi can have been called."),
    Gap("KK-18", "With field_teyaku=dealer-captures, every four of a month the dealer captures takes four more "
        "cards from the draw pile: with 10-card hands one such quad leaves 16 draw cards for 20 turns, and with "
        "8-card hands three or more chained quads do the same. What do the last turns draw?",
        "FW-KK lists the variations separately and never combines them.",
        "A turn whose draw pile is empty has no draw: the hand play alone makes the turn.",
        "It keeps every turn of the hands playable without inventing cards; the combinations are rare. (z3 "
        "also shows the last card is always drawn by the non-dealer, so a sweeping Lightning, KK-WILD-4, always "
        "goes to the non-dealer.)"),
    Gap("KK-22", "How does KoiKoi-AI's koi-koi bonus behave, and what does a fourth call do?",
        "ENG-KKAI (koikoigame.py: KoiKoiRoundStateBase.yaku_point) adds the number of the scorer's own calls "
        "for one to three calls and multiplies by (calls - 2) from four calls on; its viewing yaku are worth 1, "
        "or 3 once the scorer has called (KoiKoiRoundStateBase.yaku).",
        "multiplier=additive and viewing_value=1-3 reproduce the code exactly. z3 (decision table of the bonus) "
        "shows the bonus is not monotone: with a base of 1 or 2 points a fourth call scores less than the third "
        "(base x 2 against base + 3).",
        "An engine profile reproduces the engine, quirks included; the table records the quirk.",
        ("multiplier", "viewing_value")),
    Gap("KK-23", "The older yaku sets FW-KK mentions (Nintendo's 1960s leaflet; 'Hanafuda - The Flower Card "
        "Game') differ in point values that the page does not give.",
        "FW-KK: the leaflet lacks Boar-Deer-Butterfly and the viewing yaku; the book also lacks Three Brights and "
        "Rainy Four Brights; values 'differ drastically'.",
        "yaku_set removes the yaku the page names and keeps our values for the others.",
        "Only the missing yaku are sourced; inventing values would be worse than keeping the page's own.",
        ("yaku_set",)),
    Gap("KK-24", "Does the `nintendo` ruleset follow Nintendo's published rules?",
        "NIN-JP is cited for the yaku values only; the stored sources hold no copy of Nintendo's deal procedure, "
        "so the packet size of two cannot be checked against it. The Battle Hanafuda simulator, which claims "
        "Nintendo's rules, passes the deal after a drawn round (ENG-BH src/game.c: game) and reshuffles deals "
        "with lucky hands (src/cards_cli.c: validate_floor_cards), where `nintendo` keeps FW-KK's defaults.",
        "The `nintendo` ruleset keeps only what NIN-JP's yaku list states (Five Brights 10, Three Brights 5, no "
        "Cards of the Month); packets=2 is our choice for it, not Nintendo's statement. The simulator's "
        "readings are the ruleset battle-hanafuda, not changes to `nintendo`.",
        "An engine's reading is evidence about that engine, not about Nintendo's leaflet."),
    Gap("KK-25", "When an option makes both calls impossible but the player has formed or improved a yaku "
        "(koikoi_limit=once-per-round after a call, koikoi_last_turn=forbidden with an empty hand), does the "
        "player still decide?",
        "ENG-BH (src/sim_result.c: show_result) and ENG-KKAI (koikoigame.py: claim_koikoi) end the round for the "
        "player at once; both log it as the player's stop.",
        "The decision point stays and offers shōbu alone, so a record names the stop as an action (`stop`), as "
        "the engines' logs do.",
        "It keeps one action per decision point under every option, and the engines' logs list the stop."),
    Gap("KK-26", "Decisions reviewed again (issue 15): exhaustive=last-yaku and the multipliers; yaku_count=best "
        "and a new yaku worth less than the best; lucky hands with hand_size=10; the table dealer-captures looks at.",
        "FW-KK gives each variation in one sentence: the last improver 'obtains their yaku scores'; only the "
        "'single most valuable yaku' scores; lucky hands are described for 8-card hands; the dealer captures four "
        "of a month and deals four more. No source combines them.",
        "Kept, each with its reason. exhaustive=last-yaku scores the yaku as a shōbu would, multipliers included, "
        "since the variation says the player obtains their yaku score, and a score of yaku in Koi-Koi is the "
        "multiplied one (KK-SCORE-1); a table that wants the plain total can add seven_double=off and "
        "multiplier=none. yaku_count=best: a new yaku worth less than the best changes nothing the player would "
        "score, so it gives no decision (the scored yaku list is the same); the decision follows the scored "
        "yaku. hand_size=10: teshi and kuttsuki keep their definitions (four of a month; four disjoint pairs, "
        "KK-16) on 10 cards, which makes lucky hands commoner (about one round in seven in random deals); no "
        "source covers them, and teyaku=off or teyaku=misdeal are there for tables that disagree. "
        "dealer-captures: the field multiplier (KK-SCORE-3) and the wild-if-susuki test (KK-WILD-5) look at the "
        "table as dealt, before the replacements, because both speak of the cards the table is dealt at the "
        "start of the round; the quad the dealer takes at the deal is in the dealer's pile from the start, "
        "so the dealer's first turn compares against an empty list of yaku seen and a yaku the quad completes "
        "(Cards of the Month) gives a decision after that turn even if the turn captured nothing: the yaku is "
        "new to the dealer's decisions.",
        "Each reading follows the sentence of its variation; every alternative is reachable with existing "
        "options except the last, which only matters for Cards of the Month and is the literal reading of "
        "'forms a new yaku'.", ("exhaustive", "yaku_count", "hand_size", "field_teyaku")),
    Gap("KK-21", "How does the wild Lightning combine with the turn variations? With turn=draw-first, is the "
        "Lightning taken into the hand at the start of a turn a hand card, or a drawn card that must take (and, "
        "as the last card, takes the table)? With turn=keep-unmatched, does a drawn wild Lightning with no "
        "non-Willow card to take go to the hand or to the table? And does keep-unmatched apply to the draw-only "
        "turns of after_hands=draw-pile?",
        "FW-HA describes the wild Lightning for the standard turn, FW-KK the turn variations; neither combines them.",
        "Whatever is in the hand is a hand card: a Lightning taken in at the start of a draw-first turn is played "
        "from the hand (KK-WILD-1). A drawn Lightning with nothing it may take counts as an unmatched drawn card: "
        "with keep-unmatched it goes to the hand (KK-TURN-7). A draw-only turn has no hand to keep a card in: its "
        "card is played to the table as in the standard turn.",
        "The turn variation says where a drawn card goes before it is played; the wild rules say what it does "
        "when played. Reading the drawn-first Lightning as a drawn card would also break the count of draws "
        "(z3 finds the turns that would then draw twice)."),
)


def _r(rid: str, topic: Topic, text: str, cites: tuple[Citation, ...], ev: Evidence,
       gap: str | None = None, option: str | None = None, decided: str = "") -> Rule:
    return Rule(rid, topic, text, cites, ev, gap, option, decided)


RULES = (
    _r("KK-EQ-1", T.EQUIPMENT, "Two players use the full 48-card hanafuda deck; card point values do not score.",
       (seed("lead", "no effect on the score"), fw("introduction", "for two players")), S),
    _r("KK-DEAL-1", T.DEALING, "The dealer (oya) deals 8 cards to the opponent (ko), 8 face up to the table "
       "and 8 to themselves, two or four at a time; the other 24 form the draw pile.",
       (seed("Deal", "two or four cards at a time"), fw("Distributing the Initial Cards")), S,
       "KK-6", "packets",
       decided="Packets of four by default, in the order opponent, table, dealer (packets=2: twos, same order)."),
    _r("KK-DEAL-2", T.DEALING, "The first dealer is chosen before the game; the engine takes it as given.",
       (seed("Deal", "earliest month"), fw("Choosing the Dealer")), D, "KK-5"),
    _r("KK-DEAL-3", T.DEALING, "Right after the deal, if the table holds all four cards of a month or four "
       "pairs (field_pairs), the deal is void and the cards are reshuffled and dealt again by the same dealer.",
       (fw("Checking for Lucky Hands", "misdeal"),), RS, "KK-9", "field_teyaku"),
    _r("KK-DEAL-4", T.DEALING, "A hand holding all four cards of a month (teshi) or four pairs (kuttsuki) is a "
       "lucky hand: its holder wins the round at once and scores 6. If both players hold one, the round is "
       "drawn and the dealer stays.", (fw("Checking for Lucky Hands", "scoring 6 points"),), RS, "KK-8",
       "teyaku"),
    _r("KK-DEAL-6", T.DEALING, "Four pairs means at least four disjoint same-month pairs; four of a month counts "
       "as two pairs. Lucky-hand points are not multiplied.", (fw("Checking for Lucky Hands", "Four Pairs"),), D,
       "KK-16"),
    _r("KK-DEAL-8", T.DEALING, "With field_teyaku=dealer-captures, the dealer takes every four of a month on the "
       "table, four replacements each time; a deal whose draw pile cannot supply four replacements is a misdeal.",
       (fw("Setup Variations", "deals four more to the table"),), D, "KK-20"),
    _r("KK-DEAL-9", T.DEALING, "With field_three=misdeal, a table dealt three cards of one month is also a "
       "misdeal (four of a month included).", (bh("src/cards_cli.c: validate_floor_cards"),), IMPL, None,
       "field_three"),
    _r("KK-DEAL-10", T.DEALING, "With field_pairs=play, four pairs on the table is not a misdeal; it is its own "
       "choice, whatever field_teyaku does with four of a month. Under field_teyaku=dealer-captures the pairs are "
       "counted on the table play begins with, after the replacements.",
       (fw("Setup Variations", "Four Pairs"),), RS, "KK-1", "field_pairs"),
    _r("KK-DEAL-12", T.DEALING, "With field_teyaku=play, four of a month on the table is played on: no card can "
       "capture them, and they stay on the table to the end of the round.",
       (gokk("game.go: Game.StartRound"),), IMPL, None, "field_teyaku"),
    _r("KK-DEAL-11", T.DEALING, "With hand_pairs=off, four pairs in a hand (kuttsuki) is neither a lucky hand nor a "
       "misdeal; only four of a month (teshi) counts.",
       (kkai("koikoigame.py: KoiKoiRoundStateBase.__deal_card"),), IMPL, None, "hand_pairs"),
    _r("KK-DEAL-5", T.DEALING, "A player holding both lucky hands scores 6 by default (12 with teyaku_both=12).",
       (fw("Checking for Lucky Hands", "Decide on this as a house rule"),), RS, "KK-1", "teyaku_both"),
    _r("KK-TURN-1", T.TURN, "The dealer plays first; turns alternate.", (fw("Gameplay", "Turn to play alternates"),),
       RS, "KK-1"),
    _r("KK-TURN-2", T.TURN, "A turn has two plays: first a card from the hand, then the top card of the draw "
       "pile, turned face up and played the same way.",
       (seed("Play", "draw one card from the draw pile"), fw("Turns", "in the same fashion")), S),
    _r("KK-CAP-1", T.CAPTURE, "A played card that matches one table card of its month captures it: both go to "
       "the player's capture pile.", (seed("Play", "match by suit"),), S),
    _r("KK-CAP-2", T.CAPTURE, "A played card that matches two table cards captures one of them, chosen by the "
       "player.", (seed("Play", "gets the choice"),), S),
    _r("KK-CAP-3", T.CAPTURE, "A played card that matches three table cards captures all three.",
       (fw("Turns", "all three are captured"),), RS, "KK-4"),
    _r("KK-CAP-4", T.CAPTURE, "A played card that matches nothing stays on the table.",
       (seed("Play", "must discard a card face up"),), S),
    _r("KK-CAP-5", T.CAPTURE, "A card that matches must capture; but a player may play a hand card that matches "
       "nothing even when another hand card would capture.",
       (fw("Turns", "no obligation to play a card that matches"), Citation("WP-2008", "Play", "Alternatively")),
       RS, "KK-3", "discard"),
    _r("KK-CAP-6", T.CAPTURE, "The drawn card must capture when it matches, with the same one/two/three rules.",
       (seed("Play", "they must match that card"),), S, "KK-2",
       decided="The scrambled seed's sentence is read as the unscrambled article has it, about the drawn card."),
    _r("KK-TURN-3", T.TURN, "After both plays, a player whose capture pile forms a new yaku or improves one "
       "chooses: koi-koi (continue, the turn passes) or shōbu (stop, the round ends). Otherwise the turn "
       "passes.", (seed("lead", "keep going"), fw("Checking for Yaku", "improved an existing one")), S,
       "KK-10", "koikoi_on",
       decided="Which turns offer the calls (the last turn included) is decision KK-10, with option koikoi_on."),
    _r("KK-TURN-5", T.TURN, "A turn that finds the draw pile empty (possible only with dealer-captures, in the "
       "combinations of KK-18) has no draw.", (fw("Setup Variations", "deals four more to the table"),), D, "KK-18"),
    _r("KK-TURN-6", T.TURN, "With turn=draw-first, a turn begins by taking the top draw card into the hand; the "
       "player then plays two hand cards in succession, and yaku are checked after both.",
       (fw("Turn Structure Variations", "play two cards"),), RS, "KK-19", "turn"),
    _r("KK-TURN-7", T.TURN, "With turn=keep-unmatched, a drawn card that matches nothing is taken into the hand and "
       "the player plays another hand card in its place; that play ends the turn.",
       (fw("Turn Structure Variations", "takes it into their hand"),), RS, "KK-19", "turn"),
    _r("KK-END-5", T.END_ROUND, "With after_hands=draw-pile, once both hands are empty the players alternate "
       "draw-only turns until the draw pile is exhausted.",
       (fw("Turn Structure Variations", "until the draw pile is exhausted"),), RS, "KK-19", "after_hands"),
    _r("KK-TURN-8", T.TURN, "With koikoi_limit=once-per-round, koi-koi may be called once in a round by the two "
       "players together: after the first call, a new or improved yaku offers shōbu only.",
       (bh("src/ai.c: is_koikoi_enabled"), bh("src/sim_result.c: show_result")), IMPL, "KK-25", "koikoi_limit"),
    _r("KK-TURN-9", T.TURN, "With koikoi_last_turn=forbidden, a player whose hand is empty when the decision comes "
       "(their last turn) may only call shōbu.",
       (bh("src/ai.c: is_koikoi_enabled"), kkai("koikoigame.py: KoiKoiRoundStateBase.claim_koikoi"),
        gokk("ui.go: UI.checkPlayerYaku")), IMPL, "KK-10",
       "koikoi_last_turn"),
    _r("KK-TURN-4", T.TURN, "With koikoi_min=N, a player whose yaku total is below N cannot call koi-koi and "
       "stops automatically.", (fw("Calling Koi-Koi", "at least 3 points"),), RS, "KK-1", "koikoi_min"),
    _r("KK-WILD-1", T.SPECIAL, "With lightning=wild, the Lightning played from the hand may take any one non-Willow "
       "table card of the player's choice ('play 113 X'); it may also be played as an ordinary Willow.",
       (ha("Variations", "may use it to capture a non-Willow card"), fw("Additional Card Properties", "wild card")), RS,
       "KK-13", "lightning"),
    _r("KK-WILD-2", T.SPECIAL, "A wild Lightning on the table is taken by the first non-Willow card drawn, which "
       "takes only the Lightning.", (ha("Variations", "first non-Willow card drawn"),), RS, "KK-13", "lightning"),
    _r("KK-WILD-3", T.SPECIAL, "A wild Lightning drawn must take a non-Willow table card, chosen by the player when "
       "there are several; with none, it goes to the table.", (ha("Variations", "must capture a non-Willow card"),), RS,
       "KK-13", "lightning"),
    _r("KK-WILD-4", T.SPECIAL, "A wild Lightning drawn as the last card of the draw pile takes every table card.",
       (ha("Variations", "captures all remaining cards"),), RS, "KK-13", "lightning"),
    _r("KK-WILD-5", T.SPECIAL, "With lightning=wild-if-susuki, the Lightning is wild only in a round whose dealt "
       "table holds a Susuki card.", (fw("Additional Card Properties", "gathering storm"),), RS, "KK-13",
       "lightning"),
    _r("KK-YAKU-1", T.YAKU, "Yaku form groups: Brights, Animals, Ribbons and Other. Within a group only the "
       "most valuable yaku scores; the yaku of the Other group all stack.",
       (fw("Yaku", "mutually exclusive"),), RS, "KK-1", "yaku_system"),
    _r("KK-YAKU-2", T.YAKU, "Five Brights: all five Brights.", (fw("Bright Yaku", "Five Brights"),), RS, "KK-1",
       "five_brights"),
    _r("KK-YAKU-3", T.YAKU, "Four Brights: the four Brights other than the Rain Man.",
       (fw("Bright Yaku", "Dry 4"),), RS, "KK-1"),
    _r("KK-YAKU-4", T.YAKU, "Rainy Four Brights: the Rain Man and three other Brights.",
       (fw("Bright Yaku", "Rainy Four Brights"),), RS, "KK-1"),
    _r("KK-YAKU-5", T.YAKU, "Three Brights: three Brights, not counting the Rain Man.",
       (fw("Bright Yaku", "Any 3 of"),), RS, "KK-1", "three_brights"),
    _r("KK-YAKU-6", T.YAKU, "Boar-Deer-Butterfly: the Boar, Deer and Butterflies, plus 1 per further Animal.",
       (fw("Animal Yaku", "1 extra point for each additional Animal"),), RS, "KK-1"),
    _r("KK-YAKU-7", T.YAKU, "Animals: any five Animals, plus 1 per Animal beyond five.",
       (fw("Animal Yaku", "Any 5 Animal cards"),), RS, "KK-1"),
    _r("KK-YAKU-8", T.YAKU, "Poetry+Blue Ribbons: the three Poetry and three Blue Ribbons, plus 1 per further "
       "Ribbon.", (fw("Ribbon Yaku", "Poetry+Blue Ribbons"),), RS, "KK-1"),
    _r("KK-YAKU-9", T.YAKU, "Poetry Ribbons: the three Poetry Ribbons, plus 1 per further Ribbon.",
       (fw("Ribbon Yaku", "Poetry Ribbons"),), RS, "KK-1"),
    _r("KK-YAKU-10", T.YAKU, "Blue Ribbons: the three Blue Ribbons, plus 1 per further Ribbon.",
       (fw("Ribbon Yaku", "Blue Ribbons"),), RS, "KK-1"),
    _r("KK-YAKU-11", T.YAKU, "Ribbons: any five Ribbons, plus 1 per Ribbon beyond five.",
       (fw("Ribbon Yaku", "Any 5 Ribbon cards"),), RS, "KK-1"),
    _r("KK-YAKU-12", T.YAKU, "Flower-viewing sake: the Sake Cup and the Curtain.",
       (fw("Other Yaku", "Flower Viewing Sake"),), RS, "KK-1", "viewing"),
    _r("KK-YAKU-13", T.YAKU, "Moon-viewing sake: the Sake Cup and the Moon.",
       (fw("Other Yaku", "Moon Viewing Sake"),), RS, "KK-1", "viewing"),
    _r("KK-YAKU-14", T.YAKU, "Cards of the Month: the four cards of the round's month.",
       (fw("Other Yaku", "Cards of the Month"),), RS, "KK-14", "month_cards"),
    _r("KK-YAKU-15", T.YAKU, "Chaff (kasu): any ten Chaff, plus 1 per Chaff beyond ten; the Sake Cup counts "
       "as Chaff as well as an Animal.", (fw("Other Yaku", "also counts as Chaff"),), RS, "KK-15", "sake_cup"),
    _r("KK-SCORE-1", T.SCORING, "Only the player who calls shōbu scores: the total of their yaku (the base "
       "score), doubled if the base is 7 or more, and doubled again if the opponent called koi-koi during the "
       "round. The opponent scores nothing.",
       (fw("Scoring for Yaku", "greater than or equal to 7"),), RS, "KK-1", "multiplier"),
    _r("KK-SCORE-6", T.SCORING, "With multiplier=additive, the scorer's own koi-koi calls add 1, 2 or 3 points to "
       "the base for one to three calls; from four calls the base is multiplied by the number of calls minus 2. "
       "The opponent's calls do not count.", (kkai("koikoigame.py: KoiKoiRoundStateBase.yaku_point"),), IMPL,
       "KK-22", "multiplier"),
    _r("KK-SCORE-2", T.SCORING, "With zero_sum=on, the points the round's winner scores are taken from the "
       "loser.", (fw("Zero-Sum Scoring"),), RS, "KK-1", "zero_sum"),
    _r("KK-SCORE-3", T.SCORING, "With field_multiplier on, Brights dealt to the table multiply the round score "
       "(double: ×2 if any; count: × number of Brights + 1).", (fw("Field Multipliers"),), RS, "KK-1",
       "field_multiplier"),
    _r("KK-YAKU-16", T.YAKU, "With chaff_doubles, the cards it names count as two Chaff each: the Sake Cup, the "
       "Lightning and the yellow Paulownia all three (on), or any one or two of them on their own.",
       (fw("Additional Card Properties", "each count as 2 Chaff"),), RS, "KK-1",
       "chaff_doubles"),
    _r("KK-YAKU-17", T.YAKU, "With viewing_value=1-3, each viewing yaku is worth 1 point, or 3 once its holder has "
       "called koi-koi in the round.", (kkai("koikoigame.py: KoiKoiRoundStateBase.yaku"),), IMPL, "KK-22",
       "viewing_value"),
    _r("KK-YAKU-18", T.YAKU, "With yaku_system=older-stacked, the older yaku apply and Poetry+Blue Ribbons (10) is "
       "a yaku again, stacking with Poetry Ribbons and Blue Ribbons (and Ribbons).",
       (kkai("koikoigame.py: KoiKoiRoundStateBase.yaku"),), IMPL, None, "yaku_system"),
    _r("KK-YAKU-19", T.YAKU, "With yaku_set=leaflet-1960s there is no Boar-Deer-Butterfly and no viewing yaku; with "
       "yaku_set=flower-card-game there is also no Three Brights and no Rainy Four Brights.",
       (fw("Older Yaku", "lacks"),), RS, "KK-23", "yaku_set"),
    _r("KK-YAKU-20", T.YAKU, "With rainy_four_brights=three-brights, the Rain Man with three other Brights is not "
       "Rainy Four Brights: it scores as Three Brights (three_brights points); the Rain Man with two other Brights "
       "still forms nothing.",
       (kks("src/scoring-hand-calculator.cpp: ScoringHandCalculator::calculateThreeBrights"),), IMPL, None,
       "rainy_four_brights"),
    _r("KK-YAKU-21", T.YAKU, "With viewing=rain-pile, neither viewing yaku forms while the holder's own capture pile "
       "holds the Rain Man or the Lightning; with viewing=willow-pile, while it holds any Willow card.",
       (kks("src/scoring-hand-calculator.cpp: ScoringHandCalculator::isRaining"),), IMPL, None, "viewing"),
    _r("KK-DEAL-7", T.DEALING, "With hand_size=10, each player is dealt 10 cards; the table still gets 8 and the draw "
       "pile holds 20.", (fw("Setup Variations", "10 cards to their hand"),), RS, "KK-1", "hand_size"),
    _r("KK-SCORE-4", T.SCORING, "The doubling of a base score of 7 or more can be switched off (seven_double=off).",
       (fw("Multipliers", "originated as a house rule"),), RS, "KK-1", "seven_double"),
    _r("KK-SCORE-5", T.SCORING, "With yaku_count=best only the single most valuable yaku scores; with "
       "yaku_count=both-players the stopper also scores the opponent's yaku.", (fw("Yaku Counting"),), RS, "KK-1",
       "yaku_count"),
    _r("KK-END-4", T.END_ROUND, "With exhaustive=last-yaku, an exhaustive draw is scored for the last player to "
       "form or improve a yaku, as if they had called shōbu, and that player deals next.",
       (fw("Draws", "last player to form or improve a yaku"),), RS, "KK-1", "exhaustive"),
    _r("KK-END-1", T.END_ROUND, "The round ends when a player calls shōbu or when both hands are empty.",
       (fw("End of Round and Scoring"),), RS, "KK-1"),
    _r("KK-END-2", T.END_ROUND, "If both hands run out with no shōbu, the round is an exhaustive draw: nobody "
       "scores (dealer's privilege aside) and the dealer stays; the 8 cards left in the draw pile are never "
       "played.", (fw("Exhaustive Draw", "neither player earns any points"),), RS, "KK-1", "oyaken"),
    _r("KK-END-3", T.END_ROUND, "The winner of a round deals the next.",
       (fw("Choosing the Dealer", "winner of each round becomes the dealer"),), RS, "KK-1", "draw_dealer"),
    _r("KK-GAME-1", T.END_GAME, "A game is 12 rounds by default (any of 1 to 11 as options), or is played until a "
       "player reaches 50 points. Round n is month ((n - 1) mod 12) + 1. A misdeal does not count as a round.",
       (fw("Setup", "12 rounds is traditional"),), RS, "KK-14", "length"),
    _r("KK-GAME-2", T.END_GAME, "The player with more points at the end wins; equal points is a drawn game. "
       "In a game to 50, the first to reach 50 wins.", (fw("End of Game"),), RS, "KK-1"),
    _r("KK-GAME-3", T.END_GAME, "With start_points=30 each player begins the game with 30 points; with "
       "game_end=zero the game also ends after any round that leaves a player with 0 points or fewer.",
       (kkai("koikoigame.py: DefaultVar"), kkai("koikoigame.py: KoiKoiGameStateBase.new_round")), IMPL, None,
       "game_end"),
    _r("KK-VAR-1", T.VARIANTS, "Of the Mushi wild-card rules FW-KK defers to, the one for the unpaired cards "
       "left at the end of a played-out deck is not applied (a Koi-Koi round never scores its table).",
       (fw("Additional Card Properties", "Roppyakken or Mushi"),), D, "KK-13"),
)

_K = ("five_brights", "three_brights")

OPTIONS = (
    OptionSpec("length", Length, Length.N12,
               "Rounds in a game, or play to 50 points (8 is KoiKoi-AI's, KK-GAME-3; the Battle Hanafuda "
               "simulator plays any length from 1 to 12, ENG-BH src/main.c: main, its -r option).",
               fw("Setup", "6 rounds, 3 rounds")),
    OptionSpec("five_brights", FiveBrights, FiveBrights.N15, "Value of Five Brights.", fw("Bright Yaku")),
    OptionSpec("three_brights", ThreeBrights, ThreeBrights.N6, "Value of Three Brights.",
               fw("Bright Yaku", "Nintendo's rules")),
    OptionSpec("month_cards", MonthCards, MonthCards.ON, "Whether Cards of the Month is a yaku.",
               fw("Other Yaku", "typically only used in full 12 round games")),
    OptionSpec("sake_cup", SakeCup, SakeCup.BOTH,
               "The Sake Cup counts as Animal and Chaff, as either (the better), or as an Animal only.",
               fw("Taming the Sake Cup")),
    OptionSpec("viewing", Viewing, Viewing.ON,
               "Viewing yaku: recognised; not recognised; only with another yaku; rained off by Willow / "
               "fogged off by Paulownia cards on the table; rained off by the Rain Man or the Lightning in the "
               "holder's own pile; rained off by any Willow card in it (koikoi-scorer, KK-YAKU-21).",
               fw("Taming the Sake Cup")),
    OptionSpec("rainy_four_brights", RainyFourBrights, RainyFourBrights.N7,
               "The Rain Man with three other Brights: Rainy Four Brights (7); or Three Brights (koikoi-scorer, "
               "KK-YAKU-20).", kks("src/scoring-hand-calculator.cpp: ScoringHandCalculator::calculateThreeBrights")),
    OptionSpec("chaff_doubles", ChaffDoubles, ChaffDoubles.OFF,
               "Cards counting as two Chaff: none; the Sake Cup, Lightning and yellow Paulownia (on); or the ones "
               "named.", fw("Additional Card Properties", "and/or")),
    OptionSpec("yaku_system", YakuSystem, YakuSystem.MODERN,
               "Older yaku: no increments for Boar-Deer-Butterfly, Poetry and Blue; they stack with Animals and "
               "Ribbons; no Poetry+Blue. older-stacked: the same, plus Poetry+Blue (10) stacking with both.",
               fw("Older Yaku")),
    OptionSpec("yaku_set", YakuSet, YakuSet.FULL,
               "Which yaku exist: all; without Boar-Deer-Butterfly and the viewing yaku (Nintendo's 1960s leaflet); "
               "also without Three Brights and Rainy Four Brights ('Hanafuda - The Flower Card Game').",
               fw("Older Yaku", "lacks")),
    OptionSpec("viewing_value", ViewingValue, ViewingValue.N5,
               "Points of each viewing yaku: 5; or 1, and 3 once its holder has called koi-koi (KoiKoi-AI).",
               kkai("koikoigame.py: KoiKoiRoundStateBase.yaku")),
    OptionSpec("teyaku", Teyaku, Teyaku.WIN,
               "Lucky hands in a hand win 6; or are a misdeal; or are not recognised (off is go-koikoi's: "
               "ENG-GOKK game.go: Game.StartRound deals with no lucky-hand check).",
               fw("Setup Variations", "constitute a misdeal")),
    OptionSpec("teyaku_both", TeyakuBoth, TeyakuBoth.N6, "Score for holding both lucky hands.",
               fw("Checking for Lucky Hands", "score 12 points")),
    OptionSpec("field_teyaku", FieldTeyaku, FieldTeyaku.MISDEAL,
               "Four of a month on the table: a misdeal; captured by the dealer with four replacements dealt; the "
               "dealer wins 6; play on, the four cards staying on the table (go-koikoi). (Four pairs: field_pairs.)",
               fw("Setup Variations", "Four of a Kind")),
    OptionSpec("field_pairs", FieldPairs, FieldPairs.MISDEAL, "Four pairs on the table: a misdeal; or play on.",
               fw("Setup Variations", "Four Pairs")),
    OptionSpec("field_three", FieldThree, FieldThree.PLAY,
               "Three cards of a month on the table: play on; or a misdeal (Battle Hanafuda).",
               bh("src/cards_cli.c: validate_floor_cards")),
    OptionSpec("hand_pairs", HandPairs, HandPairs.ON,
               "Four pairs in a hand (kuttsuki): a lucky hand as teyaku says; or nothing (KoiKoi-AI).",
               kkai("koikoigame.py: KoiKoiRoundStateBase.__deal_card")),
    OptionSpec("hand_size", HandSize, HandSize.N8, "Cards dealt to each hand.",
               fw("Setup Variations", "10 cards to their hand")),
    OptionSpec("packets", Packets, Packets.N4, "Packet size at the deal.", fw("Distributing the Initial Cards")),
    OptionSpec("lightning", Lightning, Lightning.NORMAL,
               "The Lightning is an ordinary Willow; a wild card (Mushi rules as FW-HA summarises them); wild only "
               "when a Susuki card was dealt to the table.", fw("Additional Card Properties", "wild card")),
    OptionSpec("turn", Turn, Turn.STANDARD,
               "Turn structure: play then draw; draw first then play two; keep an unmatched drawn card and play "
               "another.", fw("Turn Structure Variations")),
    OptionSpec("after_hands", AfterHands, AfterHands.STOP,
               "When both hands are empty: the round ends; or draw-only turns continue until the draw pile is empty.",
               fw("Turn Structure Variations", "continue the round")),
    OptionSpec("discard", Discard, Discard.FREE,
               "Whether a player may play a non-matching card while able to capture.", fw("Turns")),
    OptionSpec("koikoi_on", KoikoiOn, KoikoiOn.NEW_OR_IMPROVED,
               "Whether improving a yaku allows a koi-koi/shōbu decision.", fw("Calling Koi-Koi")),
    OptionSpec("koikoi_limit", KoikoiLimit, KoikoiLimit.UNLIMITED,
               "Koi-koi calls in a round: any number; one for both players together (Battle Hanafuda).",
               bh("src/ai.c: is_koikoi_enabled")),
    OptionSpec("koikoi_last_turn", KoikoiLastTurn, KoikoiLastTurn.ALLOWED,
               "Koi-koi by a player whose hand is empty: allowed; forbidden, only shōbu is offered.",
               bh("src/ai.c: is_koikoi_enabled")),
    OptionSpec("koikoi_min", KoikoiMin, KoikoiMin.N0, "Minimum yaku points to call koi-koi.",
               fw("Calling Koi-Koi", "at least 3 points")),
    OptionSpec("multiplier", Multiplier, Multiplier.OPPONENT,
               "The koi-koi multiplier: ×2 if the opponent called, if the scorer called, if anyone called; "
               "opponent's calls + 1; no multiplier (none is ours: no source offers it, and no engine read plays it: "
               "ENG-GOKK game.go: Game.CalcFinalScore and ENG-BH's README double for the opponent's call, "
               "ENG-KKAI adds, ENG-KKS scores a pile and takes no calls); additive: +1/+2/+3 for "
               "the scorer's own 1-3 calls, then ×(calls - 2) (KoiKoi-AI, KK-SCORE-6).", fw("Multipliers"),
               ours=("none",)),
    OptionSpec("seven_double", SevenDouble, SevenDouble.ON, "Double a base score of 7 or more.",
               fw("Multipliers", "originated as a house rule")),
    OptionSpec("field_multiplier", FieldMultiplier, FieldMultiplier.OFF,
               "Brights dealt to the table multiply the score.", fw("Field Multipliers")),
    OptionSpec("yaku_count", YakuCount, YakuCount.ALL,
               "Score every yaku; only the single best; also the opponent's yaku.", fw("Yaku Counting")),
    OptionSpec("zero_sum", ZeroSum, ZeroSum.OFF, "The winner's points are taken from the loser.",
               fw("Zero-Sum Scoring")),
    OptionSpec("oyaken", Oyaken, Oyaken.N0, "Dealer's privilege: points the dealer scores on a draw.",
               fw("Draws", "dealer's privilege")),
    OptionSpec("draw_dealer", DrawDealer, DrawDealer.STAY, "Who deals after a drawn round.",
               fw("Draws", "passes to the other player")),
    OptionSpec("start_points", StartPoints, StartPoints.N0, "Points each player has when the game begins.",
               kkai("koikoigame.py: DefaultVar")),
    OptionSpec("game_end", GameEnd, GameEnd.ROUNDS,
               "When the game ends: after its rounds (length); or also once a player has 0 points or fewer.",
               kkai("koikoigame.py: KoiKoiGameStateBase.new_round")),
    OptionSpec("exhaustive", Exhaustive, Exhaustive.NOBODY,
               "On an exhaustive draw: nobody scores; or the last player to form or improve a yaku scores it "
               "and deals next.", fw("Draws", "last player to form or improve a yaku")),
)

_NINTENDO = {"five_brights": "10", "three_brights": "5", "month_cards": "off", "packets": "2"}

RULESETS = (
    RulesetSpec("fudawiki", "FudaWiki's main rules (FW-KK).", {}, fw("Yaku")),
    RulesetSpec("nintendo", "Nintendo's values: Five Brights 10, Three Brights 5, no Cards of the Month; "
                "packets of two (our choice, gap KK-24).", _NINTENDO,
                Citation("NIN-JP", "役一覧")),
    # Engine profiles: each reproduces one open engine at the commit its source names (docs/engines.md lists
    # where each departs from its own documentation).
    RulesetSpec("battle-hanafuda", "Engine profile of the Battle Hanafuda AI simulator (ENG-BH): Nintendo's values; "
                "one koi-koi per round for both players, none with an empty hand; lucky hands in a hand, and three "
                "of a month or four pairs on the table, are redealt; the deal passes after a drawn round.",
                {**_NINTENDO, "koikoi_limit": "once-per-round", "koikoi_last_turn": "forbidden",
                 "teyaku": "misdeal", "field_three": "misdeal", "draw_dealer": "pass"},
                bh("src/ai.c: is_koikoi_enabled; src/cards_cli.c: validate_floor_cards; src/game.c: game")),
    RulesetSpec("koikoi-japan", "Engine profile of KoiKoi-AI (ENG-KKAI), the rules of the KoiKoi-Japan game: 8 "
                "rounds from 30 points each, zero-sum, ending early at 0; older yaku with Poetry+Blue stacking; "
                "viewing 1/3; the additive koi-koi bonus, no doubling at 7; shōbu forced on the last turn; only four "
                "of a month is redealt; an exhaustive draw pays the dealer 1.",
                {"five_brights": "10", "three_brights": "5", "month_cards": "off", "yaku_system": "older-stacked",
                 "viewing_value": "1-3", "multiplier": "additive", "seven_double": "off", "zero_sum": "on",
                 "oyaken": "1", "teyaku": "misdeal", "hand_pairs": "off", "field_pairs": "play", "length": "8",
                 "start_points": "30", "game_end": "zero", "koikoi_last_turn": "forbidden"},
                kkai("koikoigame.py: KoiKoiRoundStateBase, KoiKoiGameStateBase")),
    RulesetSpec("go-koikoi", "Engine profile of go-koikoi (ENG-GOKK): Nintendo's values; no lucky hands and no "
                "misdeal at all; the Sake Cup is an Animal only; a yaku formed with an empty hand is a shōbu.",
                {**_NINTENDO, "teyaku": "off", "field_teyaku": "play", "field_pairs": "play", "sake_cup": "animal",
                 "koikoi_last_turn": "forbidden"},
                gokk("game.go: Game.StartRound; yaku.go: CheckYaku; ui.go: UI.checkPlayerYaku")),
    RulesetSpec("koikoi-scorer", "Engine profile of koikoi-scorer's defaults (ENG-KKS), a scorer of capture piles: "
                "Nintendo's values; the older yaku (no extra points for Boar-Deer-Butterfly, Poetry or Blue Ribbons, "
                "which stack with Animals and Ribbons); the Rain Man with three Brights is Three Brights; no viewing "
                "yaku, no Cards of the Month, no doubling at 7; the Sake Cup is an Animal only. It scores piles only: "
                "the play and koi-koi rules are FW-KK's.",
                {"five_brights": "10", "three_brights": "5", "month_cards": "off", "yaku_system": "older",
                 "rainy_four_brights": "three-brights", "viewing": "off", "seven_double": "off",
                 "sake_cup": "animal"},
                kks("src/scoring-hand-calculator.cpp: ScoringHandCalculator::calculate; src/score-table.cpp: "
                    "ScoreTable::defaultTable; src/koikoi-scorer.cpp: KoikoiScorer::report")),
)

SPEC = KOIKOI = GameSpec(
    key="koikoi",
    name="Koi-Koi",
    aliases=("koi-koi", "kk"),
    deck="hanafuda",
    summary="Two-player fishing game: form yaku, then risk them with koi-koi or cash them with shōbu.",
    sources=("SEED-002", "FW-KK", "WP-2008", "NIN-JP"),
    rules=RULES,
    gaps=GAPS,
    options=OPTIONS,
    rulesets=RULESETS,
    default_ruleset="fudawiki",
)


def yaku_table(values: Mapping[str, str], month: int | None, sake: str | None = None,
               called: bool = False) -> tuple[YakuDef, ...]:
    """The Koi-Koi yaku table for resolved option ``values`` in a round of ``month``.

    ``sake`` overrides the Sake Cup's role (``"animal"`` or ``"chaff"``) for sake_cup=either,
    which scores both readings and keeps the better. ``called``: the pile's holder has called
    koi-koi this round (it changes the viewing yaku under viewing_value=1-3, KK-YAKU-17).

    >>> from hanafuda_spec.yaku import best_per_group
    >>> t = yaku_table(KOIKOI.resolve(), month=1)
    >>> best_per_group(t, [10, 30, 80, 110, 120])
    (ScoredYaku(id='five-brights', points=15),)
    """
    role = sake or values["sake_cup"]
    animals = ANIMALS if role in ("both", "either", "animal") else ANIMALS - {SAKE}
    chaff = CHAFF | {SAKE} if role in ("both", "chaff") else CHAFF
    older = values["yaku_system"] in ("older", "older-stacked")  # KK-YAKU-1: the modern system groups
    yset = values.get("yaku_set", "full")
    rows: list[YakuDef] = [
        YakuDef("five-brights", "Five Brights", "五光", int(values["five_brights"]), BRIGHTS, 5, "KK-YAKU-2",
                group="brights"),
        YakuDef("four-brights", "Four Brights", "四光", 8, DRY_BRIGHTS, 4, "KK-YAKU-3", group="brights"),
        YakuDef("rainy-four-brights", "Rainy Four Brights", "雨四光", 7, DRY_BRIGHTS, 3, "KK-YAKU-4",
                group="brights", required=frozenset({110})),
        YakuDef("three-brights", "Three Brights", "三光", int(values["three_brights"]), DRY_BRIGHTS, 3,
                "KK-YAKU-5", group="brights", forbidden=frozenset({110})),
    ]
    if values.get("rainy_four_brights", "7") == "three-brights":  # KK-YAKU-20
        rows[2] = YakuDef("three-brights", "Three Brights", "三光", int(values["three_brights"]), DRY_BRIGHTS, 3,
                          "KK-YAKU-20", group="brights", required=frozenset({RAIN_MAN}))
    if yset == "flower-card-game":  # KK-YAKU-19
        rows = [y for y in rows if y.id not in ("rainy-four-brights", "three-brights")]
    bdb = frozenset({60, 70, 100})
    if older:  # KK-YAKU-1: the older systems' yaku all stack
        if values["yaku_system"] == "older-stacked":  # KK-YAKU-18
            rows.append(YakuDef("poetry-blue-ribbons", "Poetry+Blue Ribbons", "赤短・青短の重複", 10, POETRY | BLUE, 6,
                                "KK-YAKU-18"))
        rows += [
            YakuDef("boar-deer-butterfly", "Boar-Deer-Butterfly", "猪鹿蝶", 5, bdb, 3, "KK-YAKU-6"),
            YakuDef("animals", "Animals", "タネ", 1, animals, 5, "KK-YAKU-7", extra_pool=animals, extra_from=5),
            YakuDef("poetry-ribbons", "Poetry Ribbons", "赤短", 5, POETRY, 3, "KK-YAKU-9"),
            YakuDef("blue-ribbons", "Blue Ribbons", "青短", 5, BLUE, 3, "KK-YAKU-10"),
            YakuDef("ribbons", "Ribbons", "短冊", 1, RIBBONS, 5, "KK-YAKU-11", extra_pool=RIBBONS, extra_from=5),
        ]
    else:
        rows += [
            YakuDef("boar-deer-butterfly", "Boar-Deer-Butterfly", "猪鹿蝶", 5, bdb, 3, "KK-YAKU-6",
                    group="animals", extra_pool=animals, extra_from=3),
            YakuDef("animals", "Animals", "タネ", 1, animals, 5, "KK-YAKU-7", group="animals",
                    extra_pool=animals, extra_from=5),
            YakuDef("poetry-blue-ribbons", "Poetry+Blue Ribbons", "赤短・青短の重複", 10, POETRY | BLUE, 6,
                    "KK-YAKU-8", group="ribbons", extra_pool=RIBBONS, extra_from=6),
            YakuDef("poetry-ribbons", "Poetry Ribbons", "赤短", 5, POETRY, 3, "KK-YAKU-9", group="ribbons",
                    extra_pool=RIBBONS, extra_from=3),
            YakuDef("blue-ribbons", "Blue Ribbons", "青短", 5, BLUE, 3, "KK-YAKU-10", group="ribbons",
                    extra_pool=RIBBONS, extra_from=3),
            YakuDef("ribbons", "Ribbons", "短冊", 1, RIBBONS, 5, "KK-YAKU-11", group="ribbons",
                    extra_pool=RIBBONS, extra_from=5),
        ]
    if yset != "full":  # KK-YAKU-19
        rows = [y for y in rows if y.id != "boar-deer-butterfly"]
    if values["viewing"] != "off" and yset == "full":
        vp = 5 if values.get("viewing_value", "5") == "5" else 3 if called else 1  # KK-YAKU-17
        rain = VIEWING_RAIN.get(values["viewing"], frozenset())  # KK-YAKU-21
        rows += [
            YakuDef("flower-viewing", "Flower-viewing sake", "花見酒", vp, frozenset({30, SAKE}), 2, "KK-YAKU-12",
                    forbidden=rain),
            YakuDef("moon-viewing", "Moon-viewing sake", "月見酒", vp, frozenset({80, SAKE}), 2, "KK-YAKU-13",
                    forbidden=rain),
        ]
    if values["month_cards"] == "on" and month is not None:
        mc = frozenset(month * 10 + i for i in range(4))
        rows.append(YakuDef("cards-of-the-month", "Cards of the Month", "月札", 4, mc, 4, "KK-YAKU-14"))
    doubled = CHAFF_DOUBLES[values["chaff_doubles"]] & chaff  # KK-YAKU-16
    rows.append(YakuDef("chaff", "Chaff", "カス", 1, chaff, 10, "KK-YAKU-15", extra_pool=chaff, extra_from=10,
                        doubled=doubled))
    return tuple(rows)


#: Cards counting twice towards Chaff with chaff_doubles=on.
DOUBLE_CHAFF = frozenset({SAKE, 113, 121})


# -- invariants (the neutral form) --------------------------------------------------------

from hanafuda_spec.invariants import GameProfile, Step  # noqa: E402

_DECK = tuple(sorted(BRIGHTS | ANIMALS | RIBBONS | CHAFF))


def _deal_sizes(step: Step) -> str | None:
    """KK-DEAL-1: the first position of a round has full hands and 8 table cards."""
    s = step.after
    if s.phase != "play" or not (step.before is None or step.outcomes):
        return None
    h = int(step.options.get("hand_size", "8"))
    extra = 1 if step.options.get("turn") == "draw-first" else 0  # KK-TURN-6: the dealer has drawn
    hands = (len(s.zone("hand.0")), len(s.zone("hand.1")))
    want = (h + extra, h) if s.dealer == 0 else (h, h + extra)
    taken = len(s.zone("captured.0")) + len(s.zone("captured.1"))
    if hands != want or len(s.zone("field")) != 8 or len(s.zone("stock")) + taken != 48 - 2 * h - 8 - extra:
        return f"deal sizes: hands {hands}, field {len(s.zone('field'))}, stock {len(s.zone('stock'))}"
    return None


def _turn_order(step: Step) -> str | None:
    """KK-TURN-1: the dealer leads, so at a hand play the dealer's hand is never smaller."""
    s = step.after
    if s.to_move is None:
        return None
    mine, other = len(s.zone(f"hand.{s.to_move}")), len(s.zone(f"hand.{1 - s.to_move}"))
    if s.phase == "draw":  # KK-END-5
        return None if mine == other == 0 else f"a draw-only turn with hands {mine} and {other}"
    base = other if s.to_move == s.dealer else other + 1
    if s.phase == "play":
        # KK-TURN-6: with draw-first the turn's draw is already in the hand (none once the pile is empty)
        wants = {base, base + 1} if step.options.get("turn") == "draw-first" else {base}
    elif s.phase == "play-second":
        wants = {base}
    else:
        return None
    if mine not in wants:
        return f"seat {s.to_move} plays with {mine} cards against {other}: turns do not alternate from the dealer"
    return None


def _only_stopper_scores(step: Step) -> str | None:
    """KK-SCORE-1: at most one player gains; without zero-sum nobody loses points."""
    for o in step.outcomes:
        if sum(1 for d in o.deltas if d > 0) > 1:
            return f"both players scored in one round: {o.deltas}"
        if step.options.get("zero_sum") != "on" and any(d < 0 for d in o.deltas):
            return f"a player lost points without zero-sum scoring: {o.deltas}"
    return None


def _game_length(step: Step) -> str | None:
    """KK-GAME-1: a game of N rounds ends after round N, not before."""
    length = step.options.get("length", "12")
    if length == "to-50":
        if step.match_over and max(step.after.scores) < 50:
            return f"game to 50 ended at {step.after.scores}"
        return None
    early = step.options.get("game_end") == "zero" and min(step.after.scores) <= 0  # KK-GAME-3
    if step.match_over and step.after.round != int(length) and not (early and step.after.round < int(length)):
        return f"game of {length} rounds ended after round {step.after.round}"
    if not step.match_over and step.after.round > int(length):
        return f"round {step.after.round} played in a game of {length} rounds"
    return None


PROFILE = GameProfile(
    game="koikoi",
    deck=lambda _o: _DECK,
    zero_sum=lambda o: o.get("zero_sum") == "on",
    max_round_actions=3 * 2 * 10,  # (play, take, call) per turn, 10 turns each at most
    invariants=(
        ("KK-DEAL-1 deal sizes", _deal_sizes),
        ("KK-TURN-1 turn order", _turn_order),
        ("KK-SCORE-1 only the stopper scores", _only_stopper_scores),
        ("KK-GAME-1 game length", _game_length),
    ),
)
