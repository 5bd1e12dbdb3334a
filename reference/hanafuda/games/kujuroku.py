"""Kujuroku (九十六, "ninety-six"): three-handed fishing with the Daini deck, the Oni-fuda and Jizo-fuda.

Rules, citations and decisions: :mod:`hanafuda_spec.games.kujuroku` (rule ids ``KJ-…``). Seats
are 0–3 (0–2 with ``players=3``). Three seats play each round: the dealer (oya) and the next two
to the dealer's right, ``(dealer + 1) % seats`` and ``(dealer + 2) % seats``, in that turn order;
in the four-player game the fourth seat sits the round out.

Phases of a round:

* ``deal-oni`` – the Oni-fuda (demon joker) was dealt to the field: the dealer names the field
  card it takes (``collect 0 X``);
* ``deal-triple`` – three cards of a number lie on the field: the dealer names the two they take
  (``collect X Y``);
* ``play`` – the player to move plays a hand card: ``play C`` (no match, one match), ``play C T``
  (two matches: T is the one captured), ``play 0 T`` (the Oni captures T), ``play 0`` (the Oni onto
  an empty field), ``play 1`` (the Jizo-fuda, Buddha joker, put on the field);
* ``take`` – the drawn card matches two field cards, or is the Oni facing several: ``take T``.

Chips are the match scores (30 each at the start); a round's deltas are per seat, 0 for the seat
sitting out.

>>> from hanafuda.engine import Match
>>> m = Match.start(GAME, GAME.rules(), seed=1)
>>> [len(h) for h in m.state.table.hands], len(m.state.table.stock), m.state.participants
([6, 6, 6, 0], 17, (0, 1, 2))
>>> GAME.score(GAME.rules(), [DAINI.by_id(i) for i in (40, 41, 42, 43)]).yaku_total
4
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from itertools import combinations
from operator import attrgetter, or_
from typing import cast

from hanafuda_spec.cards import DAINI, DAINI_JIZO, BaseCard, DainiCard, Deck
from hanafuda_spec.games import kujuroku as spec
from hanafuda_spec.games.kujuroku import JIZO, ONI
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.yaku import ScoredYaku, YakuDef

from hanafuda._construct import new
from hanafuda.engine import (
    Action,
    FastRound,
    MatchInfo,
    PileScore,
    RoundResult,
    RoundSetup,
    RulesOptions,
    action,
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
    Table,
    card_plays,
    explain_hand_play,
    lands,
    packet_getters,
    packet_plan,
    suit_counts,
    takes_of,
    zones,
)
from hanafuda.games._options import flag, member, number
from hanafuda.yakumask import YakuRow

__all__ = ["COLLECT", "GAME", "INDEX", "Kujuroku", "KujurokuRound", "KujurokuRules", "KujurokuState", "Phase",
           "score_mask"]

COLLECT = "collect"

#: The cards as bits for every Kujuroku table: one index over the 42-card Jizo deck serves the
#: 41-card deck too (a card has the same bit in both). The numbered cards are bits 0-39; the Oni
#: (id 0) is bit 40 and the Jizo (id 1) bit 41, so bit order is not id order, but
#: :meth:`~hanafuda.fishing.CardIndex.cards_of` still lists cards by id.
INDEX: CardIndex[DainiCard] = CardIndex(c for c in DAINI_JIZO.cards if isinstance(c, DainiCard))

_ONI_CARD, _JIZO_CARD = INDEX.by_id[ONI], INDEX.by_id[JIZO]
_ONI, _JIZO = _ONI_CARD.mask, _JIZO_CARD.mask  #: the Oni-fuda and the Jizo-fuda as one-bit masks
_JOKERS = _ONI | _JIZO
#: The numbered cards (all but the jokers): their bits ascend with their ids, so a mask lists them in id order.
_NUMBERED = INDEX.mask_of(c for c in INDEX.cards if c.suit)
assert CardIndex(c for c in INDEX.cards if c.suit).id_order
#: KJ-CAP-1: each numbered card (by its bit) and the cards of its number, which it matches.
_MATCHED_BY = {c.mask: INDEX.suits[c.suit] for c in INDEX.cards if c.suit}

#: The cards of the 41-card deck and of the 42-card deck (jizo=on).
_DECK_MASKS = {False: INDEX.mask_of(DAINI.cards), True: INDEX.mask_of(DAINI_JIZO.cards)}

#: The participants of a round by number of seats and dealer: the dealer and the next two to the right (KJ-EQ-3).
_PARTICIPANTS = {n: tuple(tuple((d + i) % n for i in range(spec.PLAYERS_PER_ROUND)) for d in range(n))
                 for n in (3, 4)}
assert spec.PLAYERS_PER_ROUND == 3  # (the end of a turn looks at three hands)

#: The participants in turn order starting from each of them, by number of seats and dealer: the
#: next player is ``[1]``, and the capture piles are checked for dekiyaku in this order (KJ-YAKU-1).
_TURN_ORDER = {n: tuple({p: parts[i:] + parts[:i] for i, p in enumerate(parts)} for parts in by_dealer)
               for n, by_dealer in _PARTICIPANTS.items()}


class Phase(enum.Enum):
    DEAL_ONI = "deal-oni"  #: the dealer chooses the card the dealt Oni takes (KJ-DEAL-4)
    DEAL_TRIPLE = "deal-triple"  #: the dealer chooses two of three cards of a number (KJ-DEAL-6)
    PLAY = "play"  #: the player to move plays a hand card
    TAKE = "take"  #: the drawn card waits for its target
    OVER = "over"


#: The phases as module constants, which the steps compare with (an enum class's attribute is a slow read).
_DEAL_ONI, _DEAL_TRIPLE, _PLAY, _TAKE, _OVER = Phase.DEAL_ONI, Phase.DEAL_TRIPLE, Phase.PLAY, Phase.TAKE, Phase.OVER


@dataclass(frozen=True)
class KujurokuRules(RulesOptions):
    """Typed Kujuroku rules, built from resolved option values (see the catalogue's options)."""

    catalogue = spec.SPEC
    values: tuple[tuple[str, str], ...]

    # The options' readings the steps use (:mod:`hanafuda.games._options`), each with the rule it decides.
    seats = number(spec.Players, "KJ-EQ-3: the seats at the table (with three, all play every round).")
    jizo = flag(spec.Jizo.ON, "KJ-EQ-2: the Jizo-fuda is in the deck.")
    configuration = member(spec.Configuration, "KJ-YAKU-3: the dekiyaku table played.")
    stack = flag(spec.DekiyakuCount.STACK, "KJ-YAKU-4: every dekiyaku formed at once pays.")
    confirmed = flag(spec.RemainingCard.CONFIRMED, "KJ-ONI-7: the confirmed remaining card counts at once.")
    draw_dealer_stays = flag(spec.DrawDealer.STAY, "KJ-END-3: after a drawn round the dealer deals again.")

    @functools.cached_property
    def check_after_draw(self) -> bool:
        """KJ-27: in the Jizo variant an Oni's capture from the hand is checked for dekiyaku only after the
        drawn card (jizo_timing=after-draw), so that a drawn Jizo can undo it first (KJ-JIZO-2)."""
        return self.jizo and self.value(spec.JizoTiming) is spec.JizoTiming.AFTER_DRAW

    @property
    def deck(self) -> Deck:
        return DAINI_JIZO if self.jizo else DAINI  # KJ-EQ-1, KJ-EQ-2

    @functools.cached_property
    def dekiyaku(self) -> _DekiyakuTable:
        """The dekiyaku table of these rules (its rows and count)."""
        return _dekiyaku_table(self.dekiyaku_rows, self.stack)

    # Hooks: the steps read these, and :mod:`hanafuda.deviations_other` overrides them to replay a record as
    # an engine with a known mistake plays (a diagnosis); here each is the rule as the reference plays it.

    @property
    def pile_points(self) -> Callable[[int], int]:
        """KJ-SCORE-1 / KJ-JIZO-5: the card points of a capture pile (a mask)."""
        return _PILE_POINTS[self.jizo]

    def next_dealer(self, dealer: int, keeps: bool) -> int:
        """KJ-END-1, KJ-END-2: the dealer who keeps the deal deals again; else the player to their right."""
        return dealer if keeps else (dealer + 1) % self.seats

    @property
    def dekiyaku_rows(self) -> tuple[YakuDef, ...]:
        """KJ-YAKU-5…8: the dekiyaku of the configuration (their cards and values)."""
        return spec.CONFIGURATIONS[self.configuration]

    @functools.cached_property
    def named_captures(self) -> int:
        """KJ-CAP-3, KJ-CAP-4: the match counts whose card names its target (:data:`~hanafuda.fishing.NAMED_OF_TWO`)."""
        return NAMED_OF_TWO

    @property
    def dealt_to_dealer(self) -> int:
        """KJ-DEAL-5 (KJ-DEAL-4): the jokers that, dealt to the field, go to the dealer with any other joker there."""
        return _JIZO

    @property
    def jizo_undoes_oni(self) -> bool:
        """KJ-JIZO-2: a drawn Jizo sends the card the Oni captured from the hand this turn back to the field."""
        return True


@dataclass(frozen=True)
class KujurokuState:
    """One position of a Kujuroku round. The table's hands, field and capture piles are bit masks
    over :data:`INDEX`.

    ``captive`` is the numbered card the Oni-fuda captured while that capture stands (KJ-ONI-6);
    ``oni_from_hand`` records that the Oni was played from the hand during the current turn (for
    the Jizo meetings, KJ-JIZO-2/3); ``out`` holds the removed Oni (zone ``out.oni``).
    """

    rules: KujurokuRules
    setup: RoundSetup
    table: Table[DainiCard]
    phase: Phase
    turn: int
    out: tuple[DainiCard, ...] = ()
    pending: DainiCard | None = None
    captive: DainiCard | None = None
    oni_from_hand: bool = False
    draws: int = 0
    end: str = ""
    winner: int | None = None
    won: tuple[ScoredYaku, ...] = ()
    remaining: DainiCard | None = None

    @property
    def dealer(self) -> int:
        return self.setup.dealer

    @property
    def participants(self) -> tuple[int, ...]:
        """The three seats playing this round in turn order, the dealer first (KJ-EQ-3, KJ-TURN-1)."""
        return _PARTICIPANTS[self.rules.seats][self.dealer]

    def oni_holder(self) -> int | None:
        """The seat whose capture pile holds the Oni-fuda."""
        return _oni_holder(self.table.captured_masks)


def _oni_holder(piles: Sequence[int]) -> int | None:
    """The seat whose capture pile (a mask) holds the Oni-fuda."""
    for seat, pile in enumerate(piles):
        if pile & _ONI:
            return seat
    return None


#: The fields of a position that a round holds as they are, in the order :meth:`KujurokuRound._begin` sets them,
#: and of a first position (the dealer plays, KJ-TURN-1; the others' defaults).
_HELD = ("phase", "pending", "out", "captive", "oni_from_hand", "draws", "end", "winner", "won", "remaining")
_Held = tuple[Phase, DainiCard | None, tuple[DainiCard, ...], DainiCard | None, bool, int, str, int | None,
              tuple[ScoredYaku, ...], DainiCard | None]
_held: Callable[[KujurokuState], _Held] = attrgetter(*_HELD)
_FIRST = {f.name: f.default for f in fields(KujurokuState)} | {"phase": _PLAY}
_FIRST_HELD = cast(_Held, tuple(_FIRST[n] for n in _HELD))

#: KJ-DEAL-2: the cards of the 2nd player, the 3rd player, the dealer and the field, picked out of the
#: deck order (top first); the rest of the deck is the stock.
_DEAL_WANTED = (("2nd", 6), ("3rd", 6), ("dealer", 6), ("field", 6))
assert packet_plan(_DEAL_WANTED, 3) == spec.DEAL_PLAN
_DEAL = packet_getters(_DEAL_WANTED, 3)
_DEAL_2ND, _DEAL_3RD, _DEAL_DEALER, _DEAL_FIELD = (_DEAL[k] for k, _ in _DEAL_WANTED)
_DEALT = sum(n for _, n in _DEAL_WANTED)


def _whole_deck(deck: int, bits: Sequence[int]) -> bool:
    """Whether the one-bit masks of a deck order are the whole deck ``deck`` (a mask): as many as it has cards,
    summing to its mask (so they are distinct: adding a bit already set carries, and sets no new bit)."""
    return len(bits) == deck.bit_count() and sum(bits) == deck


#: The numbered cards of number r are the four bits 4(r-1) to 4(r-1)+3, what :func:`~hanafuda.fishing.suit_counts`
#: reads (the jokers, bits 40 and 41, are left out of the masks it is given).
assert tuple(INDEX.suits.values()) == tuple(0xF << 4 * i for i in range(10))


# -- dekiyaku ----------------------------------------------------------------------------------------


class _DekiyakuTable(dict[int, tuple[ScoredYaku, ...]]):
    """The dekiyaku of one configuration with one count rule (``stack``), remembered pile by pile.

    Only the cards some row names (``counted``) can form a dekiyaku, so ``table[pile & table.counted]``
    is what a pile forms, found on first use: at most 2**13 different keys (configuration B names the
    most cards)."""

    __slots__ = ("counted", "owed", "rows", "stack")

    def __init__(self, rows: tuple[YakuDef, ...], stack: bool) -> None:
        super().__init__()
        self.rows = tuple(YakuRow.of(y, _BIT_OF_ID) for y in rows)
        if any(y.formed(0) for y in self.rows):  # (so an empty pile need not be looked up)
            raise ValueError(f"a dekiyaku formed by no cards: {', '.join(y.yid for y in self.rows if y.formed(0))}")
        self.stack = stack
        self.counted = functools.reduce(or_, (y.required | y.pool for y in self.rows), 0)
        #: the numbered cards of every number with a counted card: only an Oni's capture among them can be
        #: owed a remaining card (KJ-ONI-7) that changes what a pile forms
        self.owed = sum(suit for suit in INDEX.suits.values() if suit & self.counted)

    def __missing__(self, pile: int) -> tuple[ScoredYaku, ...]:
        """The dekiyaku formed by a pile of counted cards: the most valuable only, or all with
        ``dekiyaku_count=stack`` (KJ-YAKU-3, KJ-YAKU-4)."""
        formed = [y for y in self.rows if y.formed(pile)]
        if formed and not self.stack:
            formed = [max(formed, key=lambda y: y.points)]
        found = self[pile] = tuple(ScoredYaku(y.yid, y.points) for y in formed)
        return found


_dekiyaku_table = functools.cache(_DekiyakuTable)  #: the table of each configuration and count rule


def score_mask(rules: KujurokuRules, pile: int) -> tuple[ScoredYaku, ...]:
    """The dekiyaku a pile (bit mask over :data:`INDEX`) forms: the most valuable only, or all with
    ``dekiyaku_count=stack`` (KJ-YAKU-3, KJ-YAKU-4)."""
    table = rules.dekiyaku
    return table[pile & table.counted]


def _remaining(captive: DainiCard | None, taken: int) -> int:
    """The card remaining that the Oni-holder is owed (KJ-ONI-6, KJ-ONI-7), as a mask; 0 while it is
    not confirmed. The predicate of :func:`hanafuda_spec.games.kujuroku.remaining_card` on the
    capture piles' union ``taken``: the Oni captured a numbered card, and exactly one card of that number
    lies outside every capture pile."""
    if captive is None:
        return 0
    outside = _MATCHED_BY.get(captive.mask, 0) & ~taken  # (none for a joker: it has no number)
    return outside if outside.bit_count() == 1 else 0


def _triple_rank(field: int) -> int | None:
    """The lowest number with three cards on the field (KJ-DEAL-6), if any."""
    counts = suit_counts(field & _NUMBERED)
    threes = counts & (counts >> 1) & SUIT_DIGITS  # a count of three: bits 0 and 1 of its digit
    return ((threes & -threes).bit_length() + 3) // 4 if threes else None


def _deal_takes(phase: Phase, field: int) -> tuple[Action, ...]:
    """The dealer's choices at the deal (``collect``) in a deal phase, given the field; none in any
    other phase."""
    if phase is _DEAL_ONI:  # KJ-DEAL-4
        return tuple(action(COLLECT, (ONI, c.id)) for c in INDEX.cards_of(field & ~_ONI))
    if phase is _DEAL_TRIPLE:  # KJ-DEAL-6
        r = _triple_rank(field)
        three = INDEX.cards_of(field & INDEX.suit_mask(r or 0))
        return tuple(action(COLLECT, (a.id, b.id)) for a, b in combinations(three, 2))
    return ()


# -- results ---------------------------------------------------------------------------------------

#: The round's reason (RoundResult.reason) for each settlement case (KJ-SCORE-3…6).
_SETTLEMENT_REASONS = {"two-negative": "card-points", "two-positive": "card-points", "all-positive": "draw",
                       "all-negative": "draw-all-negative"}
_CHIP_NOTES = tuple(f"chips.{i}" for i in range(4))  #: the note naming each seat's chip score
_DEAL_LOST = ("deal-lost", 1)  #: the note of a round in which the dealer lost the deal (KJ-END-1, KJ-GAME-1)
_NO_YAKU = {n: ((),) * n for n in (3, 4)}  #: no dekiyaku for any of the seats


def _pile_points(jizo: bool) -> Callable[[int], int]:
    """KJ-SCORE-1 / KJ-JIZO-5: the card points of a capture pile (a mask), each card's
    :func:`hanafuda_spec.games.kujuroku.card_points` summed, read from a table of each byte of the mask."""
    assert max(INDEX.by_mask).bit_length() <= 48
    value = {c.mask: spec.card_points(c.id, jizo) for c in INDEX.cards}
    t0, t1, t2, t3, t4, t5 = (tuple(sum(value.get(1 << 8 * k + i, 0) for i in range(8) if b >> i & 1)
                                    for b in range(256)) for k in range(6))

    def points(pile: int) -> int:
        return (t0[pile & 255] + t1[pile >> 8 & 255] + t2[pile >> 16 & 255] + t3[pile >> 24 & 255]
                + t4[pile >> 32 & 255] + t5[pile >> 40 & 255])

    return points


_PILE_POINTS = {jizo: _pile_points(jizo) for jizo in (False, True)}  #: without and with the Jizo variant


# -- the round ---------------------------------------------------------------------------------------

_BIT_OF_ID = {c.id: c.mask for c in INDEX.cards}  #: card id -> the card's one-bit mask
#: The id of a field card -> ``play 0 <card>`` (the Oni from the hand captures it).
_ONI_PLAYS = {c.id: action(PLAY, (ONI, c.id)) for c in INDEX.cards if c.id != ONI}
_ONI_ALONE, _JIZO_PLAY = INDEX.plays[_ONI], INDEX.plays[_JIZO]


@functools.cache
def _plays_by_card(named: int) -> dict[int, dict[int, tuple[Action, ...]]]:
    """The hand plays of each numbered card (KJ-CAP-1…5) as :func:`~hanafuda.fishing.card_plays` lists them
    for ``named``: by the card's bit, then by every set of the other cards of its number that the field may
    hold, so that a hand's plays are one lookup a card (:meth:`KujurokuRound.legal`)."""
    found: dict[int, dict[int, tuple[Action, ...]]] = {}
    for c in INDEX.cards_of(_NUMBERED):
        on = found[c.mask] = {}
        others = sub = _MATCHED_BY[c.mask] & ~c.mask
        while True:  # every subset of the other cards of the number
            on[sub] = tuple(card_plays(INDEX, c.mask, sub, named)[0])
            if not sub:
                break
            sub = (sub - 1) & others
    return found
#: The cards of every hand play -> the masks of the card played and of its target (0 for none): the numbered
#: cards' plays (:attr:`~hanafuda.fishing.CardIndex.play_masks`), the jokers' alone, the Oni's on a card.
_PLAY_MASKS = INDEX.play_masks | {a.cards: (_ONI, _BIT_OF_ID[i]) for i, a in _ONI_PLAYS.items()}


class KujurokuRound(FishingRound[KujurokuState, DainiCard]):
    """A Kujuroku round played in place, the one implementation of its steps (:class:`Kujuroku` plays every
    action through it): the zones as masks, the stock as a tuple and the index of its top card, the state's
    other fields as attributes. The steps: the deal and the dealer's takes (:meth:`deal`, ``_collect``,
    ``_continue_deal``), a numbered card from the hand (:meth:`play_card`), the Oni or the Jizo from the
    hand (``_play_joker``), the draw (``_draw``), the drawn card's choice (``_take``), the end of
    a turn and of the round (``_end_turn``, ``_finish``), each capture checked for dekiyaku
    (``_dekiyaku``)."""

    __slots__ = ("after_draw", "by_card", "captive", "confirmed", "draws", "end", "field", "hands", "named",
                 "oni_from_hand", "orders", "out", "pending", "phase", "piles", "remaining", "rules", "setup", "stock",
                 "table", "top", "turn", "winner", "won")
    index = INDEX

    def __init__(self, s: KujurokuState) -> None:
        t = s.table
        self._begin(s.rules, s.setup, list(t.hand_masks), t.field_mask, list(t.captured_masks), t.stock, s.turn,
                    _held(s))

    def _begin(self, rules: KujurokuRules, setup: RoundSetup, hands: list[int], field: int, piles: list[int],
               stock: tuple[DainiCard, ...], turn: int, held: _Held) -> None:
        """The round's fields: the readings of the rules its turns make, the zones, the turn and the position's
        other fields (``held``, in the order of :data:`_HELD`)."""
        self.rules, self.setup, self.named = rules, setup, rules.named_captures
        self.after_draw, self.confirmed, self.table = rules.check_after_draw, rules.confirmed, rules.dekiyaku
        self.orders = _TURN_ORDER[len(hands)][setup.dealer]  #: seat -> participants in turn order from it
        self.by_card = _plays_by_card(self.named)
        self.hands, self.field, self.piles, self.turn = hands, field, piles, turn
        self.stock, self.top = stock, 0  # the draw pile is stock[top:]; the cards drawn, draws + top
        (self.phase, self.pending, self.out, self.captive, self.oni_from_hand, self.draws, self.end, self.winner,
         self.won, self.remaining) = held

    @classmethod
    def deal(cls, rules: KujurokuRules, setup: RoundSetup, bits: Sequence[int],
             stock: tuple[DainiCard, ...]) -> KujurokuRound:
        """The round dealt from the one-bit masks of the whole deck in order, top first (KJ-DEAL-2), and the
        dealer's takes played as far as they go without a choice; ``stock`` is the cards left to draw."""
        seats, d = rules.seats, setup.dealer
        hands = [0] * seats  # (the masks are distinct bits: their sum is their union)
        hands[(d + 1) % seats], hands[(d + 2) % seats] = sum(_DEAL_2ND(bits)), sum(_DEAL_3RD(bits))
        hands[d], field = sum(_DEAL_DEALER(bits)), sum(_DEAL_FIELD(bits))
        r = cls.__new__(cls)
        r._begin(rules, setup, hands, field, [0] * seats, stock, d, _FIRST_HELD)
        if suit_counts(field & _NUMBERED) & FOURS:  # KJ-DEAL-3: four of a number on the field, checked first (KJ-4)
            r._end("misdeal")
        else:
            r._continue_deal()
        return r

    def over(self) -> bool:
        return self.phase is _OVER

    def legal(self) -> Sequence[Action]:
        """The legal actions (:meth:`~hanafuda.engine.Game.legal_actions`). The hand plays are sorted: the
        Oni's (id 0), the Jizo's (id 1), then the numbered cards' (KJ-CAP-1…5; KJ-CAP-6: a card that matches
        nothing may always be played); a drawn card's targets (KJ-ONI-3, KJ-CAP-3); the dealer's choices at
        the deal."""
        phase, field = self.phase, self.field
        if phase is _PLAY:
            hand = self.hands[self.turn]
            plays: list[Action] = []
            if hand & _JOKERS:
                if hand & _ONI:  # KJ-ONI-1/2: it captures a field card of the player's choice; KJ-ONI-4: none is there
                    plays = list(map(_ONI_PLAYS.__getitem__, INDEX.ids_of(field))) or [_ONI_ALONE]
                if hand & _JIZO:  # KJ-JIZO-1
                    plays.append(_JIZO_PLAY)
                hand &= _NUMBERED
            by_card, extend = self.by_card, plays.extend
            while hand:  # the numbered cards in bit order, which is id order
                low = hand & -hand
                hand ^= low
                extend(by_card[low][field & _MATCHED_BY[low]])
            return plays
        if phase is _TAKE:
            pending = self.pending
            assert pending is not None
            if pending.mask == _ONI:  # KJ-ONI-3: any field card
                return [INDEX.takes[c.mask] for c in INDEX.cards_of(field)]
            return takes_of(INDEX, field, pending, self.named)  # KJ-CAP-3: one of its two matches
        return _deal_takes(phase, field)

    def plays_from_masks(self) -> int | None:
        """A hand play with no joker in the hand or on the field: the jokers match no number and have plays
        of their own (KJ-ONI-1…4, KJ-JIZO-1), which the shared replay searches among the listed ones."""
        return _JOKERS if self.phase is _PLAY and not (self.hands[self.turn] | self.field) & _JOKERS else None

    def play(self, a: Action) -> None:
        kind = a.kind
        if kind == PLAY:
            card, target = _PLAY_MASKS[a.cards]
            if card & _JOKERS:
                self._play_joker(card, target)
            else:
                self.play_card(card, target)
        elif kind == TAKE:
            self._take(_BIT_OF_ID[a.cards[0]])
        elif kind == COLLECT:
            self._collect(a.cards)
        else:
            raise AssertionError(a)

    # -- the deal ---------------------------------------------------------------------------------------
    def _collect(self, ids: tuple[int, ...]) -> None:
        """The dealer's choice at the deal: the card the dealt Oni takes (KJ-DEAL-4; it is the Oni's
        capture, KJ-3) or two of three cards of a number (KJ-DEAL-6); then the rest of the deal."""
        taken = self.field & sum(_BIT_OF_ID[i] for i in set(ids))
        self.field &= ~taken
        self.piles[self.setup.dealer] |= taken
        if self.phase is _DEAL_ONI:
            self.captive = INDEX.by_mask[taken & ~_ONI]
        self._continue_deal()

    def _continue_deal(self) -> None:
        """The dealer's takes at the deal, in the order of decision KJ-4, then the first turn: the dealer
        plays first unless the takes formed a dekiyaku (KJ-YAKU-1)."""
        field = self.field
        # KJ-DEAL-5: the Jizo, and the Oni with it if dealt too (the rules asked only when a joker was dealt)
        if field & _JOKERS and field & self.rules.dealt_to_dealer:
            self.field = field & ~_JOKERS
            self.piles[self.setup.dealer] |= field & _JOKERS
        elif field & _ONI:  # KJ-DEAL-4: the dealer chooses the Oni's capture
            self.phase = _DEAL_ONI
            return
        if _triple_rank(self.field) is not None:  # KJ-DEAL-6: the dealer chooses two of the three
            self.phase = _DEAL_TRIPLE
            return
        self.phase = _PLAY
        self._dekiyaku()

    # -- a turn -----------------------------------------------------------------------------------------
    def play_card(self, card: int, target: int) -> None:
        """A numbered card from the hand (KJ-TURN-2), then the draw: it captures its one match, the target
        named of two, or all three (KJ-CAP-1…4), else it stays on the field (KJ-CAP-5)."""
        p = self.turn
        self.hands[p] &= ~card
        self.field, got = lands(self.field, card, self.field & _MATCHED_BY[card], target)  # KJ-CAP-1, KJ-CAP-3
        if got:
            self.piles[p] |= got
            if self._dekiyaku():  # KJ-YAKU-1: after the hand card
                return
        self._draw()

    def _play_joker(self, bit: int, target: int) -> None:
        """The Oni or the Jizo from the hand (``target`` the mask of the card the Oni captures, 0 for none),
        then the draw."""
        p = self.turn
        self.hands[p] &= ~bit
        if bit == _JIZO:  # KJ-JIZO-1: onto the field, into its player's pile when the turn ends
            self.field |= _JIZO
        else:
            self.oni_from_hand = True  # (for the Jizo meetings, KJ-JIZO-2/3)
            if target:  # KJ-ONI-1: it captures the card named
                self.field &= ~target
                self.piles[p] |= _ONI | target
                self.captive = INDEX.by_mask[target]
                # KJ-YAKU-1; KJ-27: with jizo_timing=after-draw the capture is checked after the drawn card
                if not self.after_draw and self._dekiyaku():
                    return
            else:  # KJ-ONI-4: onto the empty field, removed when the turn ends
                self.field |= _ONI
        self._draw()

    def _draw(self) -> None:
        """The top card of the stock (KJ-TURN-2) resolved against the field, then the end of the turn. The
        last player of a 41-card round has none to draw (KJ-TURN-3)."""
        stock, top = self.stock, self.top
        if top == len(stock):
            self._end_turn()
            return
        drawn = stock[top]
        self.top = top + 1
        bit, field, got = drawn.mask, self.field, 0
        if bit & _NUMBERED:
            m = field & _MATCHED_BY[bit]  # KJ-CAP-1
            if self.named >> m.bit_count() & 1:  # KJ-CAP-3: the player chooses
                self.phase, self.pending = _TAKE, drawn
                return
            self.field, got = lands(field, bit, m, 0)  # KJ-CAP-2/4: its one match or all three; KJ-CAP-5
        elif bit == _ONI:
            if field & _JIZO:  # KJ-JIZO-4: the Oni captures the Jizo and nothing else (KJ-18)
                got = _ONI | _JIZO
                self.field = field & ~_JIZO
            elif not field:  # KJ-ONI-4: discarded onto the empty field
                self.field = _ONI
            elif field & (field - 1):  # KJ-ONI-3: the player chooses its capture
                self.phase, self.pending = _TAKE, drawn
                return
            else:  # KJ-ONI-3 facing a single card: no choice to make (KJ-25)
                got = _ONI | field
                self.field = 0
                self.captive = INDEX.by_mask[field]
        elif field & _ONI:  # KJ-JIZO-3: the Jizo captures the Oni discarded from the hand
            got = _ONI | _JIZO
            self.field = field & ~_ONI
        elif self.oni_from_hand and self.captive is not None and self.rules.jizo_undoes_oni:
            # KJ-JIZO-2: the Oni's capture goes back to the field; the Jizo captures the Oni
            x = self.captive.mask
            self.piles[self.turn] &= ~x  # KJ-JIZO-2: the Oni stays, and counts as the Oni (KJ-YAKU-9)
            self.field = field | x
            got = _JIZO
            self.captive = None
        else:  # KJ-JIZO-1: into the player's capture pile
            self.piles[self.turn] |= _JIZO
        if got:
            self.piles[self.turn] |= got
        # KJ-YAKU-1: after the drawn card. KJ-27: an Oni's capture from the hand not yet checked is checked now
        # (in the Jizo variant, the only one that waits, every turn draws; a draw that captures nothing
        # leaves the Oni's capture as it was)
        if (got or (self.after_draw and self.oni_from_hand and self.captive is not None)) and self._dekiyaku():
            return
        self._end_turn()

    def _take(self, target: int) -> None:
        """The drawn card captures the field card named: the Oni any (KJ-ONI-3), a numbered card one of its
        two matches (KJ-CAP-3)."""
        drawn = self.pending
        assert drawn is not None
        self.phase, self.pending = _PLAY, None
        self.field &= ~target
        self.piles[self.turn] |= target | drawn.mask
        if drawn.mask == _ONI:
            self.captive = INDEX.by_mask[target]
        if not self._dekiyaku():  # KJ-YAKU-1: after the drawn card
            self._end_turn()

    def _end_turn(self) -> None:
        """The end of a turn: an Oni left on the field is removed from the round (KJ-ONI-5), a Jizo there goes
        to its player's pile (KJ-JIZO-1); the next participant plays, or the round is played out (KJ-TURN-4)."""
        p, field = self.turn, self.field
        if field & _JOKERS:
            if field & _ONI:  # KJ-ONI-5: removed from the round
                self.out = (*self.out, _ONI_CARD)
            if field & _JIZO:  # KJ-JIZO-1
                self.piles[p] |= _JIZO
            self.field = field & ~_JOKERS
        self.oni_from_hand = False
        hands = self.hands
        _, nxt, last = self.orders[p]
        if hands[p] or hands[nxt] or hands[last]:  # KJ-TURN-4
            self.turn = nxt  # (the phase is PLAY: the turn's play or take set it)
        else:
            self._finish()

    def _finish(self) -> None:
        """A round played out: the Oni-holder receives the remaining card (KJ-ONI-6), which may still complete
        a dekiyaku (with remaining_card=end), then the round is over."""
        piles = self.piles
        x = _remaining(self.captive, functools.reduce(or_, piles, 0)) & self.field
        holder = _oni_holder(piles) if x else None
        if holder is None:
            # excluded by the parity argument of remaining_card() under the reference's captures (KJ-CAP-3)
            if self.captive is not None and self.named == NAMED_OF_TWO:
                raise AssertionError(f"KJ-ONI-6: no single remaining card for the Oni's capture {self.captive.id}")
            self._end("exhaustive")
            return
        self.field &= ~x
        piles[holder] |= x
        self.remaining = INDEX.by_mask[x]
        found = self.table[piles[holder] & self.table.counted]
        if found:
            self._end("dekiyaku", holder, found)
        else:
            self._end("exhaustive")

    def _dekiyaku(self) -> bool:
        """KJ-YAKU-1 (decision KJ-8): whether a participant's pile forms a dekiyaku, the piles looked up in
        turn order from the player to move; the first that does ends the round. With
        remaining_card=confirmed the confirmed remaining card counts as the Oni-holder's (KJ-ONI-7)."""
        piles, table = self.piles, self.table
        first, second, third = self.orders[self.turn]  # (three participants: the other seat has no pile)
        a, b, c = piles[first], piles[second], piles[third]
        captive = self.captive
        if captive is not None and self.confirmed and captive.mask & table.owed:
            extra = _remaining(captive, a | b | c)
            holder = _oni_holder(piles) if extra else None
            if holder is not None:  # to the Oni-holder's pile
                piles = piles.copy()
                piles[holder] |= extra
                a, b, c = piles[first], piles[second], piles[third]
        counted = table.counted
        seat, found = first, table[a & counted]
        if not found:
            seat, found = second, table[b & counted]
            if not found:
                seat, found = third, table[c & counted]
                if not found:
                    return False
        self._end("dekiyaku", seat, found)
        return True

    def _end(self, end: str, winner: int | None = None, won: tuple[ScoredYaku, ...] = ()) -> None:
        self.phase, self.pending, self.end, self.winner, self.won = _OVER, None, end, winner, won

    # -- the position and the result ---------------------------------------------------------------------
    def state(self) -> KujurokuState:
        return new(KujurokuState, rules=self.rules, setup=self.setup, table=self.table_now(self.piles),
                   phase=self.phase, turn=self.turn, out=self.out, pending=self.pending, captive=self.captive,
                   oni_from_hand=self.oni_from_hand, draws=self.draws + self.top, end=self.end, winner=self.winner,
                   won=self.won, remaining=self.remaining)

    def result(self) -> RoundResult | None:
        """:meth:`Kujuroku.round_result` of :meth:`state`, from the round's own fields."""
        if self.phase is not _OVER:
            raise ValueError("the round is not over")
        rules, d, end, captive, remaining = self.rules, self.setup.dealer, self.end, self.captive, self.remaining
        seats = len(self.hands)  # (a hand per seat)
        parts = _PARTICIPANTS[seats][d]
        if end == "misdeal":  # KJ-DEAL-3
            return RoundResult("misdeal", (0,) * seats, counts=False, next_dealer=d,
                               notes=(("dealer", d), ("deal-lost", 0)))
        notes: list[tuple[str, int]] = [("dealer", d)]
        if captive is not None:
            notes.append(("oni-captive", captive.id))
        if remaining is not None:
            notes.append(("remaining-card", remaining.id))
        deltas = [0] * seats
        if end == "dekiyaku":
            w, won = self.winner, self.won
            assert w is not None
            value = sum(y.points for y in won)  # one row unless dekiyaku_count=stack (KJ-YAKU-4)
            for i in parts:  # KJ-YAKU-2
                deltas[i] = 2 * value if i == w else -value
            lost = w != d  # KJ-END-1
            notes += [("deal-lost", int(lost)), ("value", value)]
            yaku = tuple([won if i == w else () for i in range(seats)])
            return new(RoundResult, reason="dekiyaku", deltas=tuple(deltas), winner=w, yaku=yaku, card_points=None,
                       counts=True, ends_game=False, next_dealer=rules.next_dealer(d, not lost), notes=tuple(notes))
        points, piles = rules.pile_points, self.piles
        pts = [points(piles[i]) if i in parts else 0 for i in range(seats)]
        chips = [spec.chip_score(pts[i]) for i in parts]  # KJ-SCORE-2
        case = spec.settlement_case(chips)
        if case in ("two-negative", "two-positive"):  # KJ-SCORE-3, KJ-SCORE-4
            # the one seat whose chips have the other sign collects from (pays) each of the other two
            one = next(i for i, c in zip(parts, chips, strict=True) if (c > 0) == (case == "two-negative"))
            for i, c in zip(parts, chips, strict=True):
                if i != one:
                    deltas[i] = c
                    deltas[one] -= c
        keeps = pts[d] >= max(pts[i] for i in parts)  # KJ-END-1, a tie keeps the deal (KJ-15)
        if case in ("all-positive", "all-negative") and rules.draw_dealer_stays:
            keeps = True  # KJ-SCORE-5/6, KJ-END-3 (decision KJ-14)
        notes.append(("deal-lost", int(not keeps)))
        notes += [(_CHIP_NOTES[i], c) for i, c in zip(parts, chips, strict=True)]
        gainers = [i for i in range(seats) if deltas[i] > 0]
        return new(RoundResult, reason=_SETTLEMENT_REASONS[case], deltas=tuple(deltas),
                   winner=gainers[0] if len(gainers) == 1 else None, yaku=_NO_YAKU[seats], card_points=tuple(pts),
                   counts=True, ends_game=False, next_dealer=rules.next_dealer(d, keeps), notes=tuple(notes))


class Kujuroku(FishingGame[KujurokuState, KujurokuRules]):
    """Kujuroku under the FudaWiki rules (SEED-001, FW-KJ) and their variations. Its turn is
    :class:`KujurokuRound`'s."""

    spec, over = spec.SPEC, _OVER

    def make_rules(self, values: Mapping[str, str]) -> KujurokuRules:
        return KujurokuRules(tuple(sorted(values.items())))

    def deck(self, rules: KujurokuRules) -> Deck:
        return rules.deck

    def seats(self, rules: KujurokuRules) -> int:
        return rules.seats

    # -- a round -----------------------------------------------------------------------------------------
    def start_round(self, rules: KujurokuRules, order: Sequence[BaseCard], setup: RoundSetup) -> KujurokuState:
        cards = [c for c in order if isinstance(c, DainiCard)]
        bits = [c.mask for c in cards]
        if not _whole_deck(_DECK_MASKS[rules.jizo], bits):
            raise ValueError(f"Kujuroku deals the whole {rules.deck.name} deck ({len(rules.deck)} cards)")
        return KujurokuRound.deal(rules, setup, bits, tuple(cards[_DEALT:])).state()

    def deal_fast(self, rules: KujurokuRules, order: Sequence[int],
                  setup: RoundSetup) -> FastRound[KujurokuState] | None:
        """:meth:`start_round` then :meth:`~hanafuda.engine.RoundGame.fast_round`: the round at the first
        position ``start_round`` gives (the dealer's takes at the deal played as far as they go without a
        choice, KJ-DEAL-4…6), played in place. A round over at the deal (a misdeal, KJ-DEAL-3, or a dekiyaku
        of the dealer's takes, KJ-YAKU-1), which ``fast_round`` does not play, and an order that is not the
        deck get None."""
        try:
            bits = list(map(_BIT_OF_ID.__getitem__, order))
        except KeyError:
            return None
        if not _whole_deck(_DECK_MASKS[rules.jizo], bits):
            return None
        r = KujurokuRound.deal(rules, setup, bits, tuple(map(INDEX.by_id.__getitem__, order[_DEALT:])))
        return None if r.phase is _OVER else r

    def round_of(self, state: KujurokuState) -> KujurokuRound:
        return KujurokuRound(state)

    def explain_illegal(self, state: KujurokuState, action: Action) -> tuple[str, str]:
        """The rule an action breaks where it stands: the phase that takes it (the deal's choices, the hand
        play, the drawn card's choice), the jokers' plays (KJ-ONI-1/2, KJ-JIZO-1), and for a numbered card
        the shared hand play's checks (:func:`~hanafuda.fishing.explain_hand_play`)."""
        p, t, phase = state.turn, state.table, state.phase
        kind, cards = action.kind, action.cards
        if kind == COLLECT:
            if phase is _DEAL_ONI:
                return "KJ-DEAL-4", f"the dealt Oni takes one field card: 'collect 0 X', not {action}"
            if phase is _DEAL_TRIPLE:
                return "KJ-DEAL-6", f"the dealer takes two of the three cards of number {_triple_rank(t.field_mask)}"
            return "KJ-DEAL-4", f"nothing is collected now (phase {phase.value})"
        if kind == PLAY:
            if phase is not _PLAY:
                return "KJ-TURN-2", f"seat {p} cannot play a hand card now (phase {phase.value})"
            if cards and cards[0] in (ONI, JIZO) and t.hand_masks[p] & _BIT_OF_ID[cards[0]]:
                if cards[0] == JIZO:
                    return "KJ-JIZO-1", "the Jizo-fuda captures nothing: play it as 'play 1'"
                if len(cards) == 1:
                    return "KJ-ONI-2", "the Oni-fuda may not be discarded while the field has cards"
                return "KJ-ONI-1", f"the Oni-fuda captures one card that is on the field, not {cards[1:]}"
            found = explain_hand_play(t.hand(p), t.field, action, p, ("KJ-TURN-2", "KJ-CAP-3", "KJ-CAP-2"))
            return found or ("KJ-CAP-2", f"card {cards[0]} cannot be played so")
        if kind == TAKE:
            if phase is not _TAKE or state.pending is None:
                return "KJ-CAP-3", "no drawn card is waiting for a choice of target"
            if state.pending.id == ONI:
                return "KJ-ONI-3", f"the drawn Oni-fuda captures one field card, not {cards}"
            return "KJ-CAP-3", f"{cards} is not one of the two field cards the drawn card matches"
        return "KJ-TURN-2", f"unknown action kind {kind!r} for Kujuroku"

    # -- results -----------------------------------------------------------------------------------------
    def card_points(self, rules: KujurokuRules, cards: Iterable[BaseCard]) -> int:
        """KJ-SCORE-1 / KJ-JIZO-5: the card points of a pile."""
        return sum(spec.card_points(c.id, rules.jizo) for c in cards)

    def snapshot(self, state: KujurokuState, info: MatchInfo | None = None) -> Snapshot:
        found = (*zones(state.table, state.pending), ("out.oni", tuple(c.id for c in state.out)))
        return Snapshot("kujuroku", found, self.to_move(state), state.phase.value, state.dealer, state.setup.number,
                        info.scores if info else state.setup.scores)

    def score(self, rules: KujurokuRules, cards: Sequence[BaseCard], month: int | None = None) -> PileScore:
        return PileScore(score_mask(rules, INDEX.mask_of(cards)), self.card_points(rules, cards))

    # -- the match ---------------------------------------------------------------------------------
    def new_match(self, rules: KujurokuRules, first_dealer: int = 0) -> MatchInfo:
        return MatchInfo((spec.START_CHIPS,) * rules.seats, first_dealer)  # KJ-EQ-4; KJ-DEAL-1: as given

    def seats_in_play(self, rules: KujurokuRules, info: MatchInfo) -> tuple[int, ...]:
        return _PARTICIPANTS[rules.seats][info.dealer]  # the dealer and the next two to the right (KJ-EQ-3)

    def settle(self, rules: KujurokuRules, info: MatchInfo, result: RoundResult) -> MatchInfo:
        lost = (_DEAL_LOST in result.notes) + sum(_DEAL_LOST in r.notes for r in info.history)  # KJ-GAME-1
        over = lost >= rules.seats
        return settled(info, result, over, "every player dealt and lost the deal")  # KJ-GAME-2: the top scores win


GAME = Kujuroku()
