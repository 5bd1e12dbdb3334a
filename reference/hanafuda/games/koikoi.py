"""Koi-Koi (こいこい), the two-player fishing game of koi-koi ("come on") and shōbu ("stop").

Rules, citations and decisions: :mod:`hanafuda_spec.games.koikoi`. The oya is the dealer,
the ko the other player; seat numbers are 0 and 1. The turn is :class:`KoiKoiRound`'s, played in
place; :class:`KoiKoi` plays each action on a round built from the immutable position.

>>> from hanafuda.engine import Match
>>> from hanafuda_spec.cards import card
>>> m = Match.start(GAME, GAME.rules(), seed=1)
>>> len(m.state.table.hands[0]), len(m.state.table.field), len(m.state.table.stock)
(8, 8, 24)
>>> GAME.score(GAME.rules(), [card(i) for i in (10, 30, 80, 110, 120)]).yaku_total
15
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from hanafuda_spec.cards import HANAFUDA, BaseCard, Card
from hanafuda_spec.games import koikoi as spec
from hanafuda_spec.yaku import ScoredYaku, YakuDef

from hanafuda._construct import Deferred, deferrable, deferred_builder, new
from hanafuda.engine import (
    ACTION_ORDER,
    Action,
    MatchInfo,
    PileScore,
    RoundResult,
    RoundSetup,
    RulesOptions,
    action,
    pile_score,
    settled,
)
from hanafuda.fishing import (
    FOURS,
    NAMED_OF_TWO,
    PLAY,
    SUIT_DIGITS,
    TAKE,
    CardIndex,
    FishingGame,
    FishingRound,
    Getter,
    Table,
    deal_two,
    explain_hand_play,
    lands,
    plays_of,
    suit_counts,
    takes_of,
    two_hand_dealing,
)
from hanafuda.games._options import Reading, fill, flag, member, number, plain
from hanafuda.yakumask import YakuRow, table_scorer

__all__ = ["GAME", "INDEX", "KoiKoi", "KoiKoiRound", "KoiKoiRules", "KoiKoiState", "Phase"]

KOIKOI = "koikoi"
STOP = "stop"
DRAW = "draw"


class Phase(enum.Enum):
    PLAY = "play"  #: the player to move plays a hand card
    PLAY_SECOND = "play-second"  #: a second hand card (turn=draw-first, or turn=keep-unmatched)
    DRAW = "draw"  #: both hands are empty: turn the draw pile's top card (after_hands=draw-pile)
    TAKE = "take"  #: the drawn card matches two field cards: choose one
    CALL = "call"  #: a new or improved yaku: koi-koi or shōbu
    OVER = "over"


#: The phases as plain names, each named (an enum member read through its class is a slow lookup).
_PLAY, _PLAY_SECOND, _DRAW, _TAKE, _CALL, _OVER = (Phase.PLAY, Phase.PLAY_SECOND, Phase.DRAW, Phase.TAKE, Phase.CALL,
                                                   Phase.OVER)


@dataclass(frozen=True)
@plain
class KoiKoiRules(RulesOptions):
    """Typed Koi-Koi rules, built from resolved option values (see the catalogue's options): the steps
    read them as the catalogue's enums (:meth:`~hanafuda.engine.RulesOptions.value`) or through the
    readings below, computed when the rules object is made (:func:`~hanafuda.games._options.plain`)."""

    catalogue = spec.SPEC
    values: tuple[tuple[str, str], ...]

    def __post_init__(self) -> None:
        fill(self)

    def __getstate__(self) -> dict[str, object]:
        """The fields and readings, without the compiled scorers (closures, rebuilt as asked)."""
        return {**super().__getstate__(), "_scorers": {}, "plain_scorers": None if self.plain_scorers is None else {}}

    @Reading
    def _scorers(self) -> dict[object, Callable[[int], tuple[ScoredYaku, ...]]]:
        return {}

    def scorer(self, month: int | None, sake: str | None,
               called: bool = False) -> Callable[[int], tuple[ScoredYaku, ...]]:
        """The scorer of the compiled yaku table for a month, sake-cup reading and whether the holder has
        called koi-koi (viewing_value=1-3): pile mask in, yaku in table order out; built once per rules object."""
        key = month if sake is None and not called else (month, sake, called and self.call_revalues)
        found = self._scorers.get(key)
        if found is None:
            found = self._scorers[key] = _scorer(self.values, month, sake, called and self.call_revalues)
        return found

    # The options' readings the steps use (:mod:`hanafuda.games._options`): flags, then numbers and members.
    month_cards = flag(spec.MonthCards.ON, "KK-YAKU-14: the Cards of the Month score.")
    weather_viewing = flag(spec.Viewing.WEATHER, "viewing=weather: the viewing yaku depend on the cards on the table.")
    must_capture = flag(spec.Discard.MUST_CAPTURE, "KK-CAP-5: no non-capturing hand play while a capture is possible.")
    draw_first = flag(spec.Turn.DRAW_FIRST, "KK-TURN-6: a turn draws a card into the hand, then plays two hand cards.")
    keep_unmatched = flag(spec.Turn.KEEP_UNMATCHED, "KK-TURN-7: a drawn card matching nothing goes to the hand.")
    draw_only_turns = flag(spec.AfterHands.DRAW_PILE, "KK-END-5: with both hands empty, turns draw from the pile.")
    koikoi_on_new = flag(spec.KoikoiOn.NEW, "KK-TURN-3: only a new yaku, not an improved one, gives the call.")
    koikoi_once = flag(spec.KoikoiLimit.ONCE_PER_ROUND, "KK-TURN-8: one koi-koi per round for both players together.")
    koikoi_needs_hand = flag(spec.KoikoiLastTurn.FORBIDDEN, "KK-TURN-9: no koi-koi with an empty hand.")
    lightning_wild = flag(spec.Lightning.WILD, "KK-WILD-1: the Lightning is wild in every round.")
    lightning_wild_if_susuki = flag(spec.Lightning.WILD_IF_SUSUKI, "KK-WILD-5: wild if the dealt table holds a Susuki.")
    field_four_void = flag(spec.FieldTeyaku.MISDEAL, "KK-DEAL-3: four of a month on the dealt table is a misdeal.")
    dealer_captures_four = flag(spec.FieldTeyaku.DEALER_CAPTURES, "KK-DEAL-8: the dealer captures a dealt four.")
    dealer_wins_four = flag(spec.FieldTeyaku.DEALER_WINS, "KK-DEAL-3: a dealt four wins the round for the dealer.")
    field_three_void = flag(spec.FieldThree.MISDEAL, "KK-DEAL-9: three of a month on the dealt table is a misdeal.")
    field_pairs_void = flag(spec.FieldPairs.MISDEAL, "KK-DEAL-10: four pairs on the dealt table is a misdeal.")
    lucky_hand_void = flag(spec.Teyaku.MISDEAL, "KK-DEAL-4: a lucky hand makes the deal a misdeal.")
    hand_pairs = flag(spec.HandPairs.ON, "KK-DEAL-11: four pairs in a hand is a lucky hand.")
    zero_sum = flag(spec.ZeroSum.ON, "KK-SCORE-2: the winner's points are taken from the loser.")
    last_yaku_wins = flag(spec.Exhaustive.LAST_YAKU, "KK-END-4: the last to better a yaku wins an exhaustive draw.")
    both_players_yaku = flag(spec.YakuCount.BOTH_PLAYERS, "KK-SCORE-5: the stopper also scores the opponent's yaku.")
    seven_double = flag(spec.SevenDouble.ON, "KK-SCORE-4: a base score of 7 or more is doubled.")
    to_fifty = flag(spec.Length.TO_50, "KK-GAME-1: the game is played until a player reaches 50 points.")
    zero_ends = flag(spec.GameEnd.ZERO, "KK-GAME-3: a round leaving a player at 0 points or fewer ends the game.")
    dealer_stays = flag(spec.DrawDealer.STAY, "KK-END-3: the dealer deals again after a drawn round.")
    call_revalues = flag(spec.ViewingValue.N5, "KK-YAKU-17: a koi-koi call re-values the viewing yaku.", unless=True)
    lucky_hands = flag(spec.Teyaku.OFF, "KK-DEAL-4: lucky hands count.", unless=True)
    koikoi_min = number(spec.KoikoiMin, "KK-TURN-4: below this many points a yaku ends the round without a call.")
    hand_size = number(spec.HandSize, "KK-DEAL-1: the cards dealt to each hand.")
    packets = number(spec.Packets, "KK-DEAL-1: the packet size of the deal.")
    teyaku_both = number(spec.TeyakuBoth, "KK-DEAL-5: the points of a hand holding both lucky hands.")
    oyaken = number(spec.Oyaken, "KK-END-2: the dealer's points in a drawn round (the dealer's privilege).")
    start_points = number(spec.StartPoints, "KK-GAME-3: each player's points at the start of a game.")
    multiplier = member(spec.Multiplier, "KK-SCORE-1, KK-SCORE-6: how the koi-koi calls multiply a shōbu.")
    field_multiplier = member(spec.FieldMultiplier, "KK-SCORE-3: how Brights dealt to the table multiply a shōbu.")

    @Reading
    def rounds(self) -> int:
        """KK-GAME-1: the rounds of a game (0 for a game played to 50 points, :attr:`to_fifty`)."""
        return 0 if self.to_fifty else int(self.value(spec.Length))

    @functools.cached_property
    def dealing(self) -> tuple[Getter[int], Getter[int], Getter[int]]:
        """KK-DEAL-1 as positions in the deck order: the cards dealt to the ko (the dealer's opponent), the
        table and the dealer, in packets of ``packets`` cards (the rest is the draw pile, :meth:`stock_order`)."""
        return two_hand_dealing(self.hand_size, 8, self.packets)

    # Hooks: the steps read these, and :mod:`hanafuda.deviations` overrides them to replay a record as an
    # engine with a known mistake plays (a diagnosis); here each is the rule as the reference plays it.

    @Reading
    def call_on_held(self) -> bool:
        """KK-TURN-3: whether the decision also comes after a turn that changed no yaku but ends holding one
        (never in the reference: only after a new or improved yaku)."""
        return False

    def stock_order(self, order: Sequence[int]) -> Sequence[int]:
        """KK-DEAL-1: the draw pile, top first: the deck order's cards after the deal (two hands and 8)."""
        return order[2 * self.hand_size + 8:]

    @Reading
    def named_captures(self) -> int:
        """KK-CAP-2, KK-CAP-3: the numbers of matching table cards among which a played or drawn card names
        the one it takes, as a bit set (:data:`~hanafuda.fishing.NAMED_OF_TWO`: two; one match or three are
        taken whole)."""
        return NAMED_OF_TWO

    @Reading
    def call_before_draw(self) -> bool:
        """KK-TURN-3: whether a hand play that forms a yaku gives the koi-koi decision before the draw (never
        in the reference: the decision comes after both plays)."""
        return False

    @Reading
    def plain_scorers(self) -> dict[int | None, Callable[[int], tuple[ScoredYaku, ...]]] | None:
        """The scorers of :meth:`KoiKoi.score`'s plain tables by the month it is given (filled as asked); None when
        an option filters a table's answer: the viewing yaku do not score on their own (viewing other than on and
        off), the best yaku alone counts (yaku_count=best) or the Sake Cup has two readings (sake_cup=either)."""
        filtered = (self.value(spec.Viewing) not in (spec.Viewing.ON, spec.Viewing.OFF) or self.value(spec.YakuCount)
                    is spec.YakuCount.BEST or self.value(spec.SakeCup) is spec.SakeCup.EITHER)
        return None if filtered else {}

    def offers_call(self, new: bool, improved: bool, holds_card: bool) -> bool:
        """KK-TURN-3: whether a turn that formed a ``new`` or ``improved`` yaku gives the koi-koi decision
        (KK-TURN-9's empty hand is the decision's own business: shōbu alone)."""
        return new if self.koikoi_on_new else improved

    def shobu_points(self, calls: Sequence[int], field_brights: int, w: int,
                     yaku: tuple[tuple[ScoredYaku, ...], ...]) -> tuple[int, tuple[tuple[str, int], ...]]:
        """KK-SCORE-1…6: the points of seat ``w``'s shōbu and the notes saying how they are made."""
        return _shobu_points(self, calls, field_brights, w, yaku)

    def next_dealer(self, dealer: int, winner: int | None) -> int:
        """KK-END-3: the winner deals the next round; after a drawn round, draw_dealer says who."""
        if winner is not None:
            return winner
        return dealer if self.dealer_stays else 1 - dealer


@deferrable
@dataclass(frozen=True)
class KoiKoiState(Deferred):
    """One position of a Koi-Koi round (from ``KoiKoiRound.position``, its fields read when first used)."""

    rules: KoiKoiRules
    setup: RoundSetup
    table: Table[Card]
    turn: int
    phase: Phase
    pending: Card | None = None
    calls: tuple[int, int] = (0, 0)
    seen: tuple[tuple[ScoredYaku, ...], tuple[ScoredYaku, ...]] = ((), ())
    last_improver: int | None = None
    field_brights: int = 0
    end: str = ""
    winner: int | None = None
    teyaku_points: tuple[int, int] = (0, 0)
    lightning_wild: bool = False

    @property
    def dealer(self) -> int:
        return self.setup.dealer

    @property
    def month(self) -> int:
        return (self.setup.number - 1) % 12 + 1


# -- scoring -------------------------------------------------------------------------------


#: The hanafuda deck as bits: the card sets of a Koi-Koi table are masks over this index.
INDEX: CardIndex[Card] = CardIndex(c for c in HANAFUDA.cards if isinstance(c, Card))

#: Every hanafuda card by id (``card(id)`` parses text; this is a plain table for the hot paths).
_CARD: dict[int, Card] = INDEX.by_id
#: Card id -> its mask, and a card's mask -> the mask of its month (plain tables for the hot paths).
_MASK_OF: dict[int, int] = {c.id: c.mask for c in INDEX.cards}
_SUIT_OF: dict[int, int] = INDEX.suit_of
_PLAY_MASKS = INDEX.play_masks  #: a listed play's card ids -> the masks of the card and its target


_WILLOW = INDEX.suit_mask(11)
_PAULOWNIA = INDEX.suit_mask(12)
_VIEWING = ("flower-viewing", "moon-viewing")


@functools.lru_cache(maxsize=256)
def _scorer(values: tuple[tuple[str, str], ...], month: int | None, sake: str | None,
            called: bool = False) -> Callable[[int], tuple[ScoredYaku, ...]]:
    """The scorer of the catalogue's table for these options (:func:`~hanafuda.yakumask.table_scorer`)."""
    return scorer_of_table(spec.yaku_table(dict(values), month, sake, called))


def scorer_of_table(table: Sequence[YakuDef]) -> Callable[[int], tuple[ScoredYaku, ...]]:
    """A scorer (pile mask in, yaku out) for any yaku table: what :meth:`KoiKoiRules.scorer` builds from the
    catalogue's table, for a changed table (the deviations of :mod:`hanafuda.deviations`)."""
    return table_scorer(tuple(YakuRow.of(y, _MASK_OF) for y in table))


def score_mask(rules: KoiKoiRules, pile: int, month: int | None, field: int = 0,
               called: bool = False) -> tuple[ScoredYaku, ...]:
    """The yaku of a capture pile given as a bit mask, after every scoring option
    (KK-YAKU-1…19; viewing, sake_cup and yaku_count options). ``called``: the holder has called
    koi-koi this round (KK-YAKU-17)."""
    if rules.plain_scorers is not None:  # no option filters the table's answer (the default rules)
        return rules.scorer(month, None, called)(pile)
    viewing = rules.value(spec.Viewing)
    if rules.value(spec.SakeCup) is spec.SakeCup.EITHER:
        a = list(rules.scorer(month, "animal", called)(pile))
        c = list(rules.scorer(month, "chaff", called)(pile))
        a, c = _filter(viewing, a, field), _filter(viewing, c, field)
        found = a if sum(y.points for y in a) >= sum(y.points for y in c) else c
    else:
        found = _filter(viewing, list(rules.scorer(month, None, called)(pile)), field)
    if rules.value(spec.YakuCount) is spec.YakuCount.BEST and found:
        found = [max(found, key=lambda y: y.points)]
    return tuple(found)


def _filter(mode: spec.Viewing, found: list[ScoredYaku], field: int) -> list[ScoredYaku]:
    if mode is spec.Viewing.NEED_OTHER and not any(y.id not in _VIEWING for y in found):
        return [y for y in found if y.id not in _VIEWING]
    if mode is spec.Viewing.WEATHER:
        if field & _WILLOW:
            found = [y for y in found if y.id != "flower-viewing"]
        if field & _PAULOWNIA:
            found = [y for y in found if y.id != "moon-viewing"]
    return found


# -- lucky hands and the wild Lightning ------------------------------------------------------------


LIGHTNING = 113
_LIGHTNING = _CARD[LIGHTNING].mask
_BRIGHTS = sum(_MASK_OF[i] for i in spec.BRIGHTS)
_SUSUKI = INDEX.suit_mask(8)


# The deal's tests of four of a month (teshi), three, and four pairs (kuttsuki) read the month counts of
# fishing.suit_counts, every month at once.
assert tuple(INDEX.suits.values()) == tuple(0xF << 4 * i for i in range(12))  # what suit_counts reads


def _three(n: int) -> bool:
    """Some month with 3 or more cards, from :func:`~hanafuda.fishing.suit_counts`."""
    return bool(n & FOURS or n & (n >> 1) & SUIT_DIGITS)


def _pairs(n: int) -> int:
    """The pairs of a month, from :func:`~hanafuda.fishing.suit_counts`: four of a month counts as two
    (decision KK-16)."""
    half = (n >> 1) & (7 * SUIT_DIGITS)
    return (half & SUIT_DIGITS).bit_count() + 2 * (half & (2 * SUIT_DIGITS)).bit_count()


# -- the game ---------------------------------------------------------------------------------------


class KoiKoi(FishingGame[KoiKoiState, KoiKoiRules]):
    """Koi-Koi under the FudaWiki rules and their variations. The turn is :class:`KoiKoiRound`'s."""

    spec, over = spec.SPEC, _OVER

    def make_rules(self, values: Mapping[str, str]) -> KoiKoiRules:
        return KoiKoiRules(tuple(sorted(values.items())))

    def seats(self, rules: KoiKoiRules) -> int:
        return 2  # KK-EQ-1: two players

    # -- a round -------------------------------------------------------------------------------
    def start_round(self, rules: KoiKoiRules, order: Sequence[BaseCard], setup: RoundSetup) -> KoiKoiState:
        return self.holding(KoiKoiRound.dealt(rules, [c.id for c in order if isinstance(c, Card)], setup))

    def deal_fast(self, rules: KoiKoiRules, order: Sequence[int], setup: RoundSetup) -> KoiKoiRound | None:
        """The round :meth:`start_round` deals, played in place; None for a deal over at once (left to it)."""
        r = KoiKoiRound.dealt(rules, order, setup)
        return None if r.phase is _OVER else r

    def round_of(self, state: KoiKoiState) -> KoiKoiRound:
        return KoiKoiRound(state)

    def explain_illegal(self, state: KoiKoiState, action: Action) -> tuple[str, str]:
        p, phase = state.turn, state.phase
        if action.kind == PLAY:
            if phase not in (_PLAY, _PLAY_SECOND):
                return "KK-TURN-2", f"seat {p} cannot play a hand card now (phase {phase.value})"
            found = explain_hand_play(state.table.hands[p], state.table.field, action, p,
                                      ("KK-TURN-2", "KK-CAP-2", "KK-CAP-1"))
            return found or ("KK-CAP-5", f"card {action.cards[0]} captures nothing while a capture is possible "
                                         "(discard=must-capture)")
        if action.kind == TAKE:
            if phase is not _TAKE:
                return "KK-CAP-6", "no drawn card is waiting for a choice of target"
            return "KK-CAP-2", f"{action.cards} is not one of the two field cards the drawn card matches"
        if action.kind == DRAW:
            return "KK-END-5", "a draw-only turn comes only once both hands are empty (after_hands=draw-pile)"
        if action.kind in (KOIKOI, STOP) and phase is _CALL:
            if action.cards or action.label:
                return "KK-TURN-3", f"{action.kind!r} names no card and no label"
            # a bare stop is always legal here: this is a koi-koi the decision point does not offer
            if KoiKoiRound(state).called_once():
                return "KK-TURN-8", "koi-koi was already called in this round (koikoi_limit=once-per-round)"
            return "KK-TURN-9", (f"seat {p} holds no card any more: koi-koi needs a card in hand "
                                 "(koikoi_last_turn=forbidden)")
        if action.kind in (KOIKOI, STOP):
            return "KK-TURN-3", "koi-koi and shōbu are called only after forming a new or improved yaku"
        return "KK-TURN-2", f"unknown action kind {action.kind!r} for Koi-Koi"

    # -- scoring -------------------------------------------------------------------------------
    def score(self, rules: KoiKoiRules, cards: Sequence[BaseCard], month: int | None = None) -> PileScore:
        pile = 0
        for c in cards:  # INDEX.mask_of, inlined: this is the whole public scoring path
            pile |= c.mask
        plain = rules.plain_scorers  # score_mask, without the options' filters where none applies
        if plain is not None:
            try:
                found = plain[month]
            except KeyError:
                found = plain[month] = rules.scorer(month if rules.month_cards else None, None)
            return pile_score(found(pile), None)
        return pile_score(score_mask(rules, pile, month if rules.month_cards else None), None)

    def month_matters(self, rules: KoiKoiRules) -> bool:
        return rules.month_cards

    def table_matters(self, rules: KoiKoiRules) -> bool:
        return rules.weather_viewing  # only the weather rule looks at the field

    def score_on_table(self, rules: KoiKoiRules, cards: Sequence[BaseCard], table: Sequence[BaseCard],
                       month: int | None = None) -> PileScore:
        field = INDEX.mask_of(table) if rules.weather_viewing else 0
        return PileScore(score_mask(rules, INDEX.mask_of(cards), month if rules.month_cards else None, field), None)

    def yaku_names(self, rules: KoiKoiRules) -> Mapping[str, str]:
        return {y.id: y.name for y in spec.yaku_table(rules.opt, 1)}

    # -- the match -----------------------------------------------------------------------------
    def new_match(self, rules: KoiKoiRules, first_dealer: int = 0) -> MatchInfo:
        start = rules.start_points  # KK-GAME-3
        return MatchInfo((start, start), first_dealer)  # KK-GAME-3; KK-DEAL-2: the first dealer as given

    def settle(self, rules: KoiKoiRules, info: MatchInfo, result: RoundResult) -> MatchInfo:
        after = settled(info, result, False, "")
        if rules.to_fifty:
            over, reason = max(after.scores) >= 50, "target"  # KK-GAME-2
        else:
            over, reason = after.rounds_played >= rules.rounds, "rounds"  # KK-GAME-1
            if not over and rules.zero_ends and min(after.scores) <= 0:
                over, reason = True, "zero"  # KK-GAME-3
        return settled(info, result, over, reason) if over else after  # the top scores win


# -- the round ---------------------------------------------------------------------------------------


def _plays(must: bool, hand: int, field: int, named: int) -> list[Action]:
    """The hand plays with the wild Lightning in hand: :func:`plays_of` (``must``: discard=must-capture,
    KK-CAP-5) and the Lightning's plays on any non-Willow field card, which count as captures (KK-WILD-1)."""
    on = {action(PLAY, (LIGHTNING, f.id)) for f in INDEX.cards_of(field & ~_WILLOW)}
    plays = sorted(set(plays_of(INDEX, hand, field, must, named)) | on, key=ACTION_ORDER)
    if must and on:
        plays = [a for a in plays if a in on or field & _SUIT_OF[_MASK_OF[a.cards[0]]]]
    return plays


MISDEAL = "misdeal"
_DRAW_ONLY = (action(DRAW),)
_CALLS = (action(KOIKOI), action(STOP))  # sorted: 'koikoi' < 'stop'
_STOP_ONLY = (action(STOP),)


class KoiKoiRound(FishingRound[KoiKoiState, Card]):
    """A Koi-Koi round played in place, the one implementation of its turn: the zones as masks over
    :data:`INDEX`, the draw pile as ``stock[top:]``; its methods are the round's steps."""

    __slots__ = ("calls", "caps", "end", "field", "field_brights", "hands", "last_improver", "pending",
                 "phase", "rules", "scorers", "seen", "setup", "stock", "teyaku_points", "top", "turn", "wild",
                 "winner")
    index = INDEX
    calls: tuple[int, int]
    seen: tuple[tuple[ScoredYaku, ...], tuple[ScoredYaku, ...]]
    scorers: tuple[Callable[[int], tuple[ScoredYaku, ...]], Callable[[int], tuple[ScoredYaku, ...]]] | None

    def __init__(self, s: KoiKoiState) -> None:
        """The round from position ``s``."""
        t = s.table
        self.rules, self.setup = s.rules, s.setup
        self.hands, self.field, self.caps = list(t.hand_masks), t.field_mask, list(t.captured_masks)
        self.stock, self.top = t.stock, 0
        self.turn, self.phase, self.pending = s.turn, s.phase, s.pending
        self.calls, self.seen, self.last_improver = s.calls, s.seen, s.last_improver
        self.end, self.winner, self.teyaku_points = s.end, s.winner, s.teyaku_points
        self.field_brights, self.wild, self.scorers = s.field_brights, s.lightning_wild, None

    @classmethod
    def dealt(cls, rules: KoiKoiRules, order: Sequence[int], setup: RoundSetup) -> KoiKoiRound:
        """The round dealt from ``order`` (card ids, top first): KK-DEAL-1, the deal's checks, then the
        dealer's first turn (KK-TURN-1)."""
        if len(order) != 48:
            raise ValueError("Koi-Koi deals from the 48-card hanafuda deck")
        r = cls.__new__(cls)
        r.hands, field = deal_two(rules.dealing, _MASK_OF, order, setup.dealer)  # KK-DEAL-1
        r.rules, r.setup, r.field, r.caps = rules, setup, field, [0, 0]
        r.stock, r.top = tuple(map(_CARD.__getitem__, rules.stock_order(order))), 0
        r.turn, r.phase, r.pending, r.calls, r.seen = setup.dealer, _PLAY, None, (0, 0), ((), ())
        r.last_improver, r.end, r.winner, r.teyaku_points = None, "", None, (0, 0)
        r.field_brights, r.scorers = (field & _BRIGHTS).bit_count(), None
        r.wild = rules.lightning_wild or (rules.lightning_wild_if_susuki and bool(field & _SUSUKI))  # KK-WILD-5
        end = r._deal_end()
        if end is not None:
            r._over(*end)
        elif rules.draw_first:
            r._begin_turn()
        return r

    def _deal_end(self) -> tuple[str, int | None] | None:
        """The deal's checks, on the table (KK-DEAL-3, KK-DEAL-7…10) then the hands (KK-DEAL-4, KK-DEAL-11):
        how the round ends at once (the end and the winner), or None when play begins."""
        rules, d = self.rules, self.setup.dealer
        n = suit_counts(self.field)
        if (rules.field_four_void and n & FOURS) or (rules.field_three_void and _three(n)):
            return MISDEAL, None  # KK-DEAL-3, KK-DEAL-9
        if rules.dealer_captures_four and n & FOURS:
            found = self._dealer_captures()
            if found is None:
                return MISDEAL, None  # KK-DEAL-8: the draw pile cannot replace the four cards
            n = found
        if rules.field_pairs_void and _pairs(n) >= 4:  # KK-DEAL-10: on the table the play begins with
            return MISDEAL, None  # KK-DEAL-3
        if rules.dealer_wins_four and n & FOURS:  # KK-DEAL-3; under field_teyaku=play the four stays (KK-DEAL-12)
            self.teyaku_points = (6, 0) if d == 0 else (0, 6)  # KK-DEAL-3: the dealer scores 6
            return "field-teyaku", d
        if not rules.lucky_hands:  # KK-DEAL-4: no lucky hands
            return None
        pts = []
        for h in self.hands:  # four of a month, or four pairs under hand_pairs=on (KK-DEAL-11)
            n = suit_counts(h)
            a, b = bool(n & FOURS), rules.hand_pairs and _pairs(n) >= 4
            pts.append(rules.teyaku_both if a and b else 6 if a or b else 0)  # KK-DEAL-4/5
        if not any(pts):
            return None
        if rules.lucky_hand_void or all(pts):
            return (MISDEAL if rules.lucky_hand_void else "teyaku-draw"), None
        self.teyaku_points = (pts[0], pts[1])  # KK-DEAL-4; points not multiplied (KK-DEAL-6)
        return "teyaku", 0 if pts[0] else 1

    def _dealer_captures(self) -> int | None:
        """KK-DEAL-8: the dealer captures each four of a month on the table, the earliest month first, and four
        cards of the draw pile replace it, until no four is left; the month counts of the table then
        (:func:`~hanafuda.fishing.suit_counts`), or None, the table unchanged, when the draw pile runs short."""
        field, stock, got = self.field, self.stock, 0
        while (n := suit_counts(field)) & FOURS:
            if len(stock) < 4:
                return None
            low = n & FOURS & -(n & FOURS)
            quad = (low >> 2) * 0xF  # the month's digit
            field = (field & ~quad) | sum(c.mask for c in stock[:4])
            stock, got = stock[4:], got | quad
        self.field, self.stock = field, stock
        self.caps[self.setup.dealer] |= got
        return n

    def _over(self, end: str, winner: int | None = None) -> None:
        self.phase, self.end, self.winner = _OVER, end, winner

    # -- the turn ----------------------------------------------------------------------------------
    def over(self) -> bool:
        return self.phase is _OVER

    def legal(self) -> Sequence[Action]:
        phase = self.phase
        if phase is _PLAY or phase is _PLAY_SECOND:
            hand, o = self.hands[self.turn], self.rules
            if self.wild and hand & _LIGHTNING:
                return _plays(o.must_capture, hand, self.field, o.named_captures)
            return plays_of(INDEX, hand, self.field, o.must_capture, o.named_captures)
        if phase is _TAKE:
            d = self.pending
            assert d is not None
            if self.wild and d.mask == _LIGHTNING:  # KK-WILD-3
                return [action(TAKE, (f.id,)) for f in INDEX.cards_of(self.field & ~_WILLOW)]
            return takes_of(INDEX, self.field, d, self.rules.named_captures)
        if phase is _CALL:
            return _STOP_ONLY if self.called_once() or self.empty_handed() else _CALLS
        return _DRAW_ONLY if phase is _DRAW else ()

    def called_once(self) -> bool:
        """KK-TURN-8: koi-koi was called this round under koikoi_limit=once-per-round: no second call."""
        return self.rules.koikoi_once and bool(self.calls[0] or self.calls[1])

    def empty_handed(self) -> bool:
        """KK-TURN-9: the caller's hand is empty under koikoi_last_turn=forbidden: no call (decision KK-25:
        the decision point then offers shōbu alone)."""
        return self.rules.koikoi_needs_hand and not self.hands[self.turn]

    def plays_from_masks(self) -> int | None:
        """A hand play, listed as :func:`plays_of` lists it: not under discard=must-capture, nor with a wild
        Lightning in hand (KK-WILD-1 adds plays), which is then the card to watch."""
        phase = self.phase
        if (phase is _PLAY or phase is _PLAY_SECOND) and not self.rules.must_capture:
            if not self.wild:
                return 0
            return None if self.hands[self.turn] & _LIGHTNING else _LIGHTNING
        return None

    def play(self, a: Action) -> None:
        kind, cards = a.kind, a.cards
        if kind == PLAY:
            c, t = _PLAY_MASKS.get(cards) or (_MASK_OF[cards[0]], _MASK_OF[cards[1]])  # (wild: not listed)
            self.play_card(c, t)
        elif kind == TAKE:
            self._take(cards[0])
        elif kind == KOIKOI:
            self._koikoi()
        elif kind == STOP:  # KK-TURN-3, KK-END-1: shōbu ends the round
            self._over("shobu", self.turn)
        elif kind == DRAW:  # KK-END-5: a draw-only turn once both hands are empty
            self._draw(False)
        else:
            raise AssertionError(a)

    def play_card(self, card: int, target: int) -> None:
        """KK-TURN-2: a hand card (a mask; ``target`` the mask of the field card named, or 0) resolved against
        the field as :func:`~hanafuda.fishing.resolve` does, on masks: it stays there, takes its one match, the
        one named of two, or all three (KK-CAP-1…4); the wild Lightning takes the non-Willow card named
        (KK-WILD-1). Then the draw, or under turn=draw-first a second hand card (KK-TURN-6). A second hand
        card (KK-TURN-6, KK-TURN-7) ends the turn; so does a play with no draw left (the draw pile empty
        after dealer-captures with 10-card hands, KK-TURN-5)."""
        p, field = self.turn, self.field
        self.hands[p] &= ~card
        self.field, got = lands(field, card, field & _SUIT_OF[card], target)
        self.caps[p] |= got
        if self.phase is _PLAY:  # the turn's first hand card
            r = self.rules
            if r.draw_first:
                if self.hands[p]:
                    self.phase = _PLAY_SECOND
                    return
            elif self.top < len(self.stock):
                if r.call_before_draw and self._decides(False):  # a decision before the draw (an engine deviation)
                    if self.phase is _CALL:
                        self.pending = self.stock[self.top]  # the draw still to come after a koi-koi
                    return
                self._draw(r.keep_unmatched)
                return
        self._decides()

    def _draw(self, keep: bool) -> None:
        """KK-CAP-6: the draw pile's top card, played against the field: it waits for a choice between two
        matches (KK-CAP-2), or is resolved as a hand card is; under turn=keep-unmatched (``keep``) a card
        matching nothing goes to the hand for a second play (KK-TURN-7). The wild Lightning drawn takes a
        non-Willow card, chosen among several (KK-WILD-3), or the whole table as the pile's last card
        (KK-WILD-4); a wild Lightning on the table goes to the first non-Willow card drawn (KK-WILD-2)."""
        p, drawn = self.turn, self.stock[self.top]
        self.top += 1
        d, field = drawn.mask, self.field
        if self.wild:
            if d == _LIGHTNING:
                targets = field & ~_WILLOW
                if self.top == len(self.stock):  # KK-WILD-4: the pile's last card takes the whole table
                    self.field, self.caps[p] = 0, self.caps[p] | field | d
                elif targets.bit_count() > 1:  # KK-WILD-3: the player chooses the card it takes
                    self.pending, self.phase = drawn, _TAKE
                    return
                elif targets:
                    self.field, self.caps[p] = field & ~targets, self.caps[p] | d | targets
                elif keep:  # nothing it may take (KK-TURN-7)
                    self.hands[p] |= d
                    self.phase = _PLAY_SECOND
                    return
                else:
                    self.field = field | d
                self._decides()
                return
            if field & _LIGHTNING and not d & _WILLOW:  # KK-WILD-2
                self.field, self.caps[p] = field & ~_LIGHTNING, self.caps[p] | d | _LIGHTNING
                self._decides()
                return
        m = field & _SUIT_OF[d]
        if keep and not m:  # KK-TURN-7
            self.hands[p] |= d
            self.phase = _PLAY_SECOND
        elif self.rules.named_captures >> m.bit_count() & 1:  # KK-CAP-2
            self.pending, self.phase = drawn, _TAKE
        else:  # KK-CAP-1, KK-CAP-3, KK-CAP-4
            self.field, got = lands(field, d, m, 0)
            self.caps[p] |= got
            self._decides()

    def _take(self, target: int) -> None:
        """KK-CAP-2: the drawn card takes the field card chosen (the wild Lightning: any non-Willow one, KK-WILD-3)."""
        drawn = self.pending
        assert drawn is not None
        if self.wild and drawn.mask == _LIGHTNING:
            t = _MASK_OF[target]
            self.field &= ~t
            self.caps[self.turn] |= drawn.mask | t
        else:  # the target is one of the matches (:meth:`legal`)
            self.field, got = lands(self.field, drawn.mask, self.field & _SUIT_OF[drawn.mask], _MASK_OF[target])
            self.caps[self.turn] |= got
        self._decides()

    def _decides(self, passes: bool = True) -> bool:
        """KK-TURN-3, KK-TURN-4: the end of a turn: whether the yaku of the player to move now give the
        decision (the phase becomes the call) or end the round (a shōbu below koikoi_min points). When they
        do not, False, and the turn passes (unless ``passes`` is False: a decision asked before the draw)."""
        p = self.turn
        self.pending = None
        now, seen = self.yaku(p), self.seen[p]
        r = self.rules
        if now == seen and (not now or not r.call_on_held):  # nothing new or improved (the common case)
            if passes:
                self._pass()
            return False
        before = {y.id: y.points for y in seen}
        new_yaku = any(y.id not in before for y in now)
        improved = new_yaku or any(y.points > before[y.id] for y in now if y.id in before)
        self.seen = (now, self.seen[1]) if p == 0 else (self.seen[0], now)
        if improved:
            self.last_improver = p
        if self.rules.offers_call(new_yaku, improved, bool(self.hands[p])) or (r.call_on_held and now):
            if sum(y.points for y in now) < r.koikoi_min:
                self._over("shobu", p)  # KK-TURN-4
            else:
                self.phase = _CALL
            return True
        if passes:
            self._pass()
        return False

    def _koikoi(self) -> None:
        """KK-TURN-3: koi-koi, play goes on; the first call re-values the caller's viewing yaku, which is not
        an improvement (KK-YAKU-17)."""
        p, (c0, c1) = self.turn, self.calls
        self.calls = (c0 + 1, c1) if p == 0 else (c0, c1 + 1)
        if self.rules.call_revalues and self.calls[p] == 1:
            now = self.yaku(p)
            self.seen = (now, self.seen[1]) if p == 0 else (self.seen[0], now)
        if self.pending is not None:  # a decision before the draw (:attr:`KoiKoiRules.call_before_draw`)
            self.pending = None
            self._draw(self.rules.keep_unmatched)
        else:
            self._pass()

    def _pass(self) -> None:
        """The turn passes to the other player. When their hand is empty the round ends (KK-END-2), unless
        under after_hands=draw-pile both hands are empty and the draw pile is not: then draw-only turns
        (KK-END-5). No card is waiting then (``pending`` is None)."""
        q = 1 - self.turn
        if self.hands[q]:
            self.turn, self.phase = q, _PLAY
            if self.rules.draw_first:
                self._begin_turn()
        elif self.rules.draw_only_turns and not self.hands[1 - q] and self.top < len(self.stock):
            self.turn, self.phase = q, _DRAW
        else:
            self.phase, self.end = _OVER, "exhaustive"  # KK-END-1/2: both hands empty, a draw

    def _begin_turn(self) -> None:
        """KK-TURN-6: under turn=draw-first a turn starts by drawing the top card into the hand."""
        if self.top < len(self.stock):
            self.hands[self.turn] |= self.stock[self.top].mask
            self.top += 1

    # -- positions and results -------------------------------------------------------------------
    def yaku(self, seat: int) -> tuple[ScoredYaku, ...]:
        """The yaku of ``seat``'s capture pile now (re-valued once it has called koi-koi, KK-YAKU-17)."""
        called, plain = self.calls[seat] > 0, self.scorers
        if plain is None:
            r = self.rules
            month = (self.setup.number - 1) % 12 + 1 if r.month_cards else None
            if r.plain_scorers is None:
                return score_mask(r, self.caps[seat], month, self.field if r.weather_viewing else 0, called)
            plain = self.scorers = (r.scorer(month, None), r.scorer(month, None, True))
        return plain[called](self.caps[seat])

    def state(self) -> KoiKoiState:
        return new(KoiKoiState, rules=self.rules, setup=self.setup, table=self.table_now(self.caps), turn=self.turn,
                   phase=self.phase, pending=self.pending, calls=self.calls, seen=self.seen,
                   last_improver=self.last_improver, field_brights=self.field_brights, end=self.end, winner=self.winner,
                   teyaku_points=self.teyaku_points, lightning_wild=self.wild)

    #: The position, deferred: a :class:`KoiKoiState` holding the turn and the phase, its other fields read from
    #: :meth:`state` on first use.
    position = deferred_builder(KoiKoiState, "turn", "phase")

    def copy(self) -> KoiKoiRound:
        c = KoiKoiRound.__new__(KoiKoiRound)
        (c.rules, c.setup, c.hands, c.field, c.caps, c.stock, c.top, c.turn, c.phase, c.pending, c.calls, c.seen,
         c.last_improver, c.end, c.winner, c.teyaku_points, c.field_brights, c.wild, c.scorers) = (
            self.rules, self.setup, self.hands.copy(), self.field, self.caps.copy(), self.stock, self.top, self.turn,
            self.phase, self.pending, self.calls, self.seen, self.last_improver, self.end, self.winner,
            self.teyaku_points, self.field_brights, self.wild, self.scorers)
        return c

    def result(self) -> RoundResult:
        """:meth:`KoiKoi.round_result`: how the round ended and what it scores."""
        if self.phase is not _OVER:
            raise ValueError("the round is not over")
        rules, d, end, w = self.rules, self.setup.dealer, self.end, self.winner
        zero = rules.zero_sum
        if end == MISDEAL:
            return RoundResult(MISDEAL, (0, 0), counts=False, next_dealer=d)
        if end in ("teyaku", "field-teyaku"):
            assert w is not None
            pts = max(self.teyaku_points)
            return RoundResult(end, _deltas(w, pts, zero), w, next_dealer=self.rules.next_dealer(d, w))
        yaku = (self.yaku(0), self.yaku(1))
        if end == "exhaustive" and rules.last_yaku_wins:
            w = self.last_improver  # the last player to form or improve a yaku wins (KK-END-4)
        elif end != "shobu":
            w = None  # KK-END-2: an exhaustive draw scores for nobody
        if w is not None:  # a shōbu, or an exhaustive round won by the last yaku (KK-SCORE-1)
            pts, notes = self.rules.shobu_points(self.calls, self.field_brights, w, yaku)
            return RoundResult(end, _deltas(w, pts, zero), w, yaku, next_dealer=self.rules.next_dealer(d, w),
                               notes=notes)
        # an exhaustive draw, or both players holding lucky hands: a drawn round (KK-END-2)
        priv = rules.oyaken
        return RoundResult(end, _deltas(d, priv, zero), None, yaku, next_dealer=self.rules.next_dealer(d, None),
                           notes=(("oyaken", priv),))


def _shobu_points(rules: KoiKoiRules, calls: Sequence[int], field_brights: int, w: int,
                  yaku: tuple[tuple[ScoredYaku, ...], ...]) -> tuple[int, tuple[tuple[str, int], ...]]:
    """The points of seat ``w``'s shōbu (or last-yaku win) and the notes saying how they are made."""
    base = sum(y.points for y in yaku[w])
    if rules.both_players_yaku:
        base += sum(y.points for y in yaku[1 - w])
    seven = 2 if rules.seven_double and base >= 7 else 1
    own, other = calls[w], calls[1 - w]
    mode, fmode, n = rules.multiplier, rules.field_multiplier, field_brights
    fm = 1 if fmode is _FIELD_OFF else (2 if n else 1) if fmode is _FIELD_DOUBLE else n + 1
    if mode is _ADDITIVE:  # KK-SCORE-6: the scorer's own calls add 1-3, then multiply by calls - 2
        bonus = own if own <= 3 else base * seven * (own - 3)
        return (base * seven + bonus) * fm, (("base", base), ("seven", seven), ("koikoi_bonus", bonus),
                                             ("field", fm))
    koi = {_OPPONENT: 2 if other else 1, _SELF: 2 if own else 1, _ANYONE: 2 if own or other else 1,
           _COUNT: other + 1, _NONE: 1}[mode]
    return base * seven * koi * fm, (("base", base), ("seven", seven), ("koikoi", koi), ("field", fm))


#: The multiplier options' values as plain names, each named (the same reason as the phases').
_OPPONENT, _SELF, _ANYONE, _COUNT, _NONE, _ADDITIVE = (spec.Multiplier.OPPONENT, spec.Multiplier.SELF,
                                                       spec.Multiplier.ANYONE, spec.Multiplier.COUNT,
                                                       spec.Multiplier.NONE, spec.Multiplier.ADDITIVE)
_FIELD_OFF, _FIELD_DOUBLE = spec.FieldMultiplier.OFF, spec.FieldMultiplier.DOUBLE


def _deltas(winner: int, pts: int, zero_sum: bool) -> tuple[int, int]:
    loser = -pts if zero_sum else 0
    return (pts, loser) if winner == 0 else (loser, pts)


GAME = KoiKoi()
