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
from dataclasses import MISSING, dataclass, fields
from itertools import combinations
from operator import add, attrgetter, itemgetter

from hanafuda_spec.cards import DAINI, DAINI_JIZO, BaseCard, DainiCard, Deck
from hanafuda_spec.games import kujuroku as spec
from hanafuda_spec.games.kujuroku import JIZO, ONI
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.yaku import ScoredYaku, YakuDef

from hanafuda.engine import (
    Action,
    FastRound,
    Game,
    MatchInfo,
    PileScore,
    RoundResult,
    RoundSetup,
    action,
    evolve,
)
from hanafuda.fishing import PLAY, TAKE, CardIndex, Table, match_mask, resolve

__all__ = ["COLLECT", "GAME", "INDEX", "Kujuroku", "KujurokuRules", "KujurokuState", "Phase", "score_mask"]

COLLECT = "collect"

#: The cards as bits for every Kujuroku table: one index over the 42-card Jizo deck serves the
#: 41-card deck too (a card has the same bit in both). The numbered cards are bits 0-39; the Oni
#: (id 0) is bit 40 and the Jizo (id 1) bit 41, so bit order is not id order, but
#: :meth:`~hanafuda.fishing.CardIndex.cards_of` still lists cards by id.
INDEX: CardIndex[DainiCard] = CardIndex(c for c in DAINI_JIZO.cards if isinstance(c, DainiCard))

_ONI_CARD, _JIZO_CARD = INDEX.by_id[ONI], INDEX.by_id[JIZO]
_ONI, _JIZO = _ONI_CARD.mask, _JIZO_CARD.mask  #: the Oni-fuda and the Jizo-fuda as one-bit masks
#: The numbered cards (all but the jokers). Their bits ascend with their ids, so a loop over their
#: bits meets them in id order.
_NUMBERED = INDEX.mask_of(c for c in INDEX.cards if c.suit)
assert [c.bit for c in INDEX.cards if c.suit] == sorted(c.bit for c in INDEX.cards if c.suit)
#: KJ-CAP-1: each numbered card (by its bit) and the cards of its number, which it matches.
_MATCHED_BY = {c.mask: INDEX.suits[c.suit] for c in INDEX.cards if c.suit}

#: The cards of the 41-card deck and of the 42-card deck (jizo=on).
_DECK_MASKS = {False: INDEX.mask_of(DAINI.cards), True: INDEX.mask_of(DAINI_JIZO.cards)}

#: The cards of each number (rank 1 to 10) as masks, lowest number first; the jokers have no number.
_RANKS: tuple[tuple[int, int], ...] = tuple(sorted(INDEX.suits.items()))

#: The participants of a round by number of seats and dealer: the dealer and the next two to the right.
_PARTICIPANTS = {n: tuple(tuple((d + i) % n for i in range(spec.PLAYERS_PER_ROUND)) for d in range(n))
                 for n in (3, 4)}
assert spec.PLAYERS_PER_ROUND == 3  # (the fast round's dekiyaku check looks at three piles)

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


#: The phases as module constants (reading a member from the enum class costs about 0.1 µs; the hot
#: paths compare with these).
_DEAL_ONI, _DEAL_TRIPLE, _PLAY, _TAKE, _OVER = Phase.DEAL_ONI, Phase.DEAL_TRIPLE, Phase.PLAY, Phase.TAKE, Phase.OVER


@dataclass(frozen=True)
class KujurokuRules:
    """Typed Kujuroku rules, built from resolved option values (see the catalogue's options)."""

    values: tuple[tuple[str, str], ...]
    seats: int
    jizo: bool
    configuration: str
    stack: bool
    confirmed: bool
    draw_dealer_stays: bool
    #: KJ-27: in the Jizo variant an Oni's capture from the hand is checked for dekiyaku only after
    #: the drawn card (jizo_timing=after-draw), so that a drawn Jizo can undo it first (KJ-JIZO-2).
    check_after_draw: bool = False

    @property
    def opt(self) -> Mapping[str, str]:
        return dict(self.values)

    @property
    def deck(self) -> Deck:
        return DAINI_JIZO if self.jizo else DAINI

    @functools.cached_property
    def dekiyaku(self) -> _DekiyakuTable:
        """The dekiyaku table of these rules (configuration and count)."""
        return _dekiyaku_table(self.configuration, self.stack)


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


#: The fields of :class:`KujurokuState` that have defaults, at their defaults.
_STATE_DEFAULTS = {f.name: f.default for f in fields(KujurokuState) if f.default is not MISSING}


def _oni_holder(piles: Sequence[int]) -> int | None:
    """The seat whose capture pile (a mask) holds the Oni-fuda."""
    for seat, pile in enumerate(piles):
        if pile & _ONI:
            return seat
    return None




def _deal_positions(recipient: str) -> tuple[int, ...]:
    """The positions in the deck order (top first) of the cards KJ-DEAL-2 deals to ``recipient``."""
    out: list[int] = []
    i = 0
    for who, n in spec.DEAL_PLAN:
        if who == recipient:
            out += range(i, i + n)
        i += n
    return tuple(out)


#: KJ-DEAL-2: the cards of the 2nd player, the 3rd player, the dealer and the field, picked out of a
#: list in deck order (each gets several cards, so each getter gives a tuple).
_DEAL_GETTERS = tuple(itemgetter(*_deal_positions(who)) for who in ("2nd", "3rd", "dealer", "field"))
assert all(len(_deal_positions(who)) > 1 for who in ("2nd", "3rd", "dealer", "field"))
_DEALT = sum(n for _, n in spec.DEAL_PLAN)  #: the cards dealt; the rest is the stock
_MASK = attrgetter("mask")  #: a card's one-bit mask, for ``map``

#: The numbered cards of number r are the four bits 4(r-1) to 4(r-1)+3 (a nibble per number), so that
#: :func:`_rank_counts` counts the cards of every number at once.
assert all(cards == 0xF << 4 * (rank - 1) for rank, cards in INDEX.suits.items()) and len(INDEX.suits) == 10
_NIBBLE_1 = sum(1 << 4 * r for r in range(10))  #: bit 0 of each number's nibble
_NIBBLE_4 = _NIBBLE_1 << 2  #: bit 2 of each nibble: set in a count of four
_PAIRS_1, _PAIRS_2 = _NIBBLE_1 * 0x5, _NIBBLE_1 * 0x3


def _rank_counts(cards: int) -> int:
    """How many cards of each number a mask holds, as the nibbles of one integer (the count of
    number r, 0 to 4, in bits 4(r-1) to 4(r-1)+3): a count of four has bit 2 of its nibble set, and a
    count of three bits 0 and 1 (the jokers are left out)."""
    c = cards & _NUMBERED
    c -= (c >> 1) & _PAIRS_1  # the count of each pair of bits
    return (c & _PAIRS_2) + ((c >> 2) & _PAIRS_2)  # of each nibble


_new = object.__new__


def _new_table(hands: tuple[int, ...], field: int, stock: tuple[DainiCard, ...],
               piles: tuple[int, ...]) -> Table[DainiCard]:
    """``Table(INDEX, hands, field, stock, piles)`` without the frozen dataclass's ``__init__``."""
    t: Table[DainiCard] = _new(Table)
    t.__dict__.update(index=INDEX, hand_masks=hands, field_mask=field, stock=stock, captured_masks=piles)
    return t


def _new_state(rules: KujurokuRules, setup: RoundSetup, table: Table[DainiCard], phase: Phase,
               turn: int) -> KujurokuState:
    """``KujurokuState(rules, setup, table, phase, turn)`` without the frozen dataclass's ``__init__``
    (the other fields at their defaults)."""
    s: KujurokuState = _new(KujurokuState)
    s.__dict__.update(_STATE_DEFAULTS, rules=rules, setup=setup, table=table, phase=phase, turn=turn)
    return s


# -- dekiyaku ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Dekiyaku:
    """A dekiyaku row as bit masks: every card of ``required`` and ``need`` cards of ``pool``."""

    yid: str
    points: int
    required: int
    pool: int
    need: int

    def formed(self, pile: int) -> bool:
        return pile & self.required == self.required and (pile & self.pool).bit_count() >= self.need


def _mask(ids: Iterable[int]) -> int:
    return INDEX.mask_of(INDEX.by_id[i] for i in ids)


def _compile(y: YakuDef) -> _Dekiyaku:
    if y.forbidden or y.extra_pool or y.doubled:
        raise ValueError(f"dekiyaku {y.id}: only required cards and a pool are supported")
    return _Dekiyaku(y.id, y.points, _mask(y.required), _mask(y.pool), y.need)


class _DekiyakuTable(dict[int, tuple[ScoredYaku, ...]]):
    """The dekiyaku of one configuration with one count rule (``stack``), remembered pile by pile.

    Only the cards some row names (``counted``) can form a dekiyaku, so ``table[pile & table.counted]``
    is what a pile forms, found on first use: at most 2**13 different keys (configuration B names the
    most cards)."""

    __slots__ = ("counted", "rows", "stack")

    def __init__(self, configuration: str, stack: bool) -> None:
        super().__init__()
        self.rows = tuple(_compile(y) for y in spec.CONFIGURATIONS[configuration])
        if any(y.formed(0) for y in self.rows):  # (so an empty pile need not be looked up)
            raise ValueError(f"configuration {configuration}: a dekiyaku formed by no cards")
        self.stack = stack
        self.counted = 0
        for y in self.rows:
            self.counted |= y.required | y.pool

    def __missing__(self, pile: int) -> tuple[ScoredYaku, ...]:
        """The dekiyaku formed by a pile of counted cards: the most valuable only, or all with
        ``dekiyaku_count=stack`` (KJ-YAKU-3, KJ-YAKU-4)."""
        formed = [y for y in self.rows if y.formed(pile)]
        if not formed:
            found: tuple[ScoredYaku, ...] = ()
        elif self.stack:
            found = tuple(ScoredYaku(y.yid, y.points) for y in formed)
        else:
            best = max(formed, key=lambda y: y.points)
            found = (ScoredYaku(best.yid, best.points),)
        self[pile] = found
        return found


@functools.cache
def _dekiyaku_table(configuration: str, stack: bool) -> _DekiyakuTable:
    return _DekiyakuTable(configuration, stack)


def score_mask(rules: KujurokuRules, pile: int) -> tuple[ScoredYaku, ...]:
    """The dekiyaku a pile (bit mask over :data:`INDEX`) forms: the most valuable only, or all with
    ``dekiyaku_count=stack`` (KJ-YAKU-3, KJ-YAKU-4)."""
    table = rules.dekiyaku
    return table[pile & table.counted]


def _remaining(captive: DainiCard | None, piles: Iterable[int]) -> int:
    """The card remaining that the Oni-holder is owed (KJ-ONI-6, KJ-ONI-7), as a mask; 0 while it is
    not confirmed. The predicate of :func:`hanafuda_spec.games.kujuroku.remaining_card` on the
    capture piles' masks: the Oni captured a numbered card, and exactly one card of that number lies
    outside every capture pile."""
    if captive is None or not captive.suit:
        return 0
    outside = INDEX.suits[captive.suit]
    for pile in piles:
        outside &= ~pile
    return outside if outside.bit_count() == 1 else 0


def _point_values(jizo: bool) -> tuple[tuple[int, int], ...]:
    """Each card-point value (:func:`hanafuda_spec.games.kujuroku.card_points`) and the cards worth it."""
    values: dict[int, int] = {}
    for c in INDEX.cards:
        v = spec.card_points(c.id, jizo)
        values[v] = values.get(v, 0) | c.mask
    return tuple(sorted(values.items()))


#: KJ-SCORE-1 / KJ-JIZO-5 as masks, without and with the Jizo variant.
_POINT_VALUES = {jizo: _point_values(jizo) for jizo in (False, True)}


def _pile_points(jizo: bool, pile: int) -> int:
    """The card points of a capture pile (a mask): :func:`hanafuda_spec.games.kujuroku.card_points`
    summed over its cards."""
    return sum(v * (pile & cards).bit_count() for v, cards in _POINT_VALUES[jizo])


def _triple_rank(field: int) -> int | None:
    """The lowest number with three cards on the field (KJ-DEAL-6), if any."""
    for rank, cards in _RANKS:
        if (field & cards).bit_count() == 3:
            return rank
    return None


def _deal_takes(phase: Phase, field: int) -> tuple[Action, ...]:
    """The dealer's choices at the deal (``collect``) in a deal phase, given the field; none in any
    other phase."""
    if phase is Phase.DEAL_ONI:  # KJ-DEAL-4
        return tuple(action(COLLECT, (ONI, c.id)) for c in INDEX.cards_of(field & ~_ONI))
    if phase is Phase.DEAL_TRIPLE:  # KJ-DEAL-6
        r = _triple_rank(field)
        three = INDEX.cards_of(field & INDEX.suit_mask(r or 0))
        return tuple(action(COLLECT, (a.id, b.id)) for a, b in combinations(three, 2))
    return ()


# -- results ---------------------------------------------------------------------------------------

#: The round's reason (RoundResult.reason) for each settlement case (KJ-SCORE-3…6).
_SETTLEMENT_REASONS = {"two-negative": "card-points", "two-positive": "card-points", "all-positive": "draw",
                       "all-negative": "draw-all-negative"}
_CHIP_NOTES = tuple(f"chips.{i}" for i in range(4))  #: the note naming each seat's chip score
_NO_YAKU = {n: ((),) * n for n in (3, 4)}  #: no dekiyaku for any of the seats


def _point_tables(jizo: bool) -> tuple[tuple[int, ...], ...]:
    """:func:`_pile_points` of every value of each byte of a mask (bytes 0 to 5, bits 0 to 47)."""
    return tuple(tuple(_pile_points(jizo, b << 8 * k) for b in range(256)) for k in range(6))


def _pile_points_by_bytes(jizo: bool) -> Callable[[int], int]:
    """:func:`_pile_points` for ``jizo`` as six table lookups, one per byte of the mask."""
    t0, t1, t2, t3, t4, t5 = _point_tables(jizo)
    assert max(INDEX.by_mask).bit_length() <= 48

    def points(pile: int) -> int:
        return (t0[pile & 255] + t1[pile >> 8 & 255] + t2[pile >> 16 & 255] + t3[pile >> 24 & 255]
                + t4[pile >> 32 & 255] + t5[pile >> 40 & 255])

    return points


#: :func:`_pile_points` by table lookups, without and with the Jizo variant.
_PILE_POINTS = {jizo: _pile_points_by_bytes(jizo) for jizo in (False, True)}


def _round_result(reason: str, deltas: tuple[int, ...], winner: int | None, yaku: tuple[tuple[ScoredYaku, ...], ...],
                  card_points: tuple[int, ...] | None, next_dealer: int,
                  notes: tuple[tuple[str, int], ...]) -> RoundResult:
    """``RoundResult(reason, deltas, winner, yaku, card_points, next_dealer=…, notes=…)`` (a round that
    counts and does not end the game) without the frozen dataclass's ``__init__``."""
    r: RoundResult = _new(RoundResult)
    r.__dict__.update(reason=reason, deltas=deltas, winner=winner, yaku=yaku, card_points=card_points, counts=True,
                      ends_game=False, next_dealer=next_dealer, notes=notes)
    return r


def _deal_lost(result: RoundResult) -> int:
    """A round's note ``deal-lost`` (KJ-GAME-1), 0 if it has none."""
    return dict(result.notes).get("deal-lost", 0)


class _Turn:
    """A position while one action is applied to it: the zones as masks and the state fields an
    action may change, edited in place, then made into one new state by :meth:`state` or
    :meth:`over`. (It serves the dealer's takes at the deal too.) ``s`` is the position before the
    action; ``order`` the participants in turn order from the player to move."""

    __slots__ = ("captive", "draws", "field", "hands", "oni_from_hand", "order", "out", "piles", "s", "stock")

    def __init__(self, s: KujurokuState) -> None:
        t = s.table
        self.s = s
        self.hands = t.hand_masks
        self.field = t.field_mask
        self.stock = t.stock
        self.piles = list(t.captured_masks)
        self.captive = s.captive
        self.oni_from_hand = s.oni_from_hand
        self.draws = s.draws
        self.out = s.out
        self.order = _TURN_ORDER[s.rules.seats][s.setup.dealer][s.turn]

    def to_pile(self, seat: int, cards: int) -> None:
        """The cards of ``cards`` (a mask) join ``seat``'s capture pile: every capture goes this way."""
        self.piles[seat] |= cards

    def remove_oni(self) -> None:
        """KJ-ONI-5: an Oni left on the field as the turn ends is removed from the round (``out``)."""
        if self.field & _ONI:
            self.field &= ~_ONI
            self.out = (*self.out, _ONI_CARD)

    def dekiyaku(self) -> tuple[int, tuple[ScoredYaku, ...]] | None:
        """KJ-YAKU-1 (decision KJ-8): the first participant, the player to move first, whose pile
        forms a dekiyaku, and what it forms. With remaining_card=confirmed the confirmed remaining
        card counts as the Oni-holder's (KJ-ONI-7)."""
        rules, piles = self.s.rules, self.piles
        extra, holder = 0, None
        if rules.confirmed and self.captive is not None:
            extra = _remaining(self.captive, piles)
            if extra:
                holder = _oni_holder(piles)
        table = rules.dekiyaku
        counted = table.counted
        for seat in self.order:
            pile = piles[seat]
            if not pile:
                continue
            if seat == holder:
                pile |= extra
            found = table[pile & counted]
            if found:
                return seat, found
        return None

    def state(self, phase: Phase, turn: int, pending: DainiCard | None = None) -> KujurokuState:
        """The new position: these zones and fields, with ``phase``, ``turn`` and ``pending``."""
        s = self.s
        table = evolve(s.table, hand_masks=self.hands, field_mask=self.field, stock=self.stock,
                       captured_masks=tuple(self.piles))
        return evolve(s, table=table, out=self.out, captive=self.captive, oni_from_hand=self.oni_from_hand,
                      draws=self.draws, phase=phase, turn=turn, pending=pending)

    def over(self, end: str, turn: int, found: tuple[int, tuple[ScoredYaku, ...]] | None = None,
             remaining: DainiCard | None = None) -> KujurokuState:
        """The new position of a round that is over: played out (``end="exhaustive"``) or ended by the
        dekiyaku ``found`` (the winner and what it formed)."""
        winner, won = found if found is not None else (None, ())
        return evolve(self.state(Phase.OVER, turn), end=end, winner=winner, won=won, remaining=remaining)


def _result(rules: KujurokuRules, d: int, end: str, captive: DainiCard | None, remaining: DainiCard | None,
            winner: int | None, won: tuple[ScoredYaku, ...], piles: Sequence[int]) -> RoundResult:
    """:meth:`Kujuroku.round_result` of a round over, from its fields (``d`` the dealer, ``piles`` the
    captured masks): the reference's and the fast round's (:meth:`_FastKujuroku.result`)."""
    seats = rules.seats
    parts = _PARTICIPANTS[seats][d]
    zeros = (0,) * seats
    if end == "misdeal":  # KJ-DEAL-3
        return RoundResult("misdeal", zeros, counts=False, next_dealer=d, notes=(("dealer", d), ("deal-lost", 0)))
    notes: list[tuple[str, int]] = [("dealer", d)]
    if captive is not None:
        notes.append(("oni-captive", captive.id))
    if remaining is not None:
        notes.append(("remaining-card", remaining.id))
    if end == "dekiyaku":
        w = winner
        assert w is not None
        value = sum(y.points for y in won)  # one row unless dekiyaku_count=stack (KJ-YAKU-4)
        deltas = [0] * seats
        for i in parts:  # KJ-YAKU-2
            deltas[i] = 2 * value if i == w else -value
        lost = w != d  # KJ-END-1
        notes += [("deal-lost", int(lost)), ("value", value)]
        yaku = tuple([won if i == w else () for i in range(seats)])
        return _round_result("dekiyaku", tuple(deltas), w, yaku, None, (d + 1) % seats if lost else d,
                             tuple(notes))
    points = _PILE_POINTS[rules.jizo]
    pts = [points(piles[i]) if i in parts else 0 for i in range(seats)]
    chips = [spec.chip_score(pts[i]) for i in parts]  # KJ-SCORE-2
    case = spec.settlement_case(chips)
    deltas = [0] * seats
    if case == "two-negative":  # KJ-SCORE-3
        w = next(i for i, c in zip(parts, chips, strict=True) if c > 0)
        for i, c in zip(parts, chips, strict=True):
            if i != w:
                deltas[i] = c
                deltas[w] -= c
    elif case == "two-positive":  # KJ-SCORE-4
        loser = next(i for i, c in zip(parts, chips, strict=True) if c < 0)
        for i, c in zip(parts, chips, strict=True):
            if i != loser:
                deltas[i] = c
                deltas[loser] -= c
    keeps = pts[d] >= max(pts[i] for i in parts)  # KJ-END-1, a tie keeps the deal (KJ-15)
    if case in ("all-positive", "all-negative") and rules.draw_dealer_stays:
        keeps = True  # KJ-SCORE-5/6, KJ-END-3 (decision KJ-14)
    notes.append(("deal-lost", int(not keeps)))
    notes += [(_CHIP_NOTES[i], c) for i, c in zip(parts, chips, strict=True)]
    gainers = [i for i in range(seats) if deltas[i] > 0]
    return _round_result(_SETTLEMENT_REASONS[case], tuple(deltas), gainers[0] if len(gainers) == 1 else None,
                         _NO_YAKU[seats], tuple(pts), d if keeps else (d + 1) % seats, tuple(notes))


class Kujuroku(Game[KujurokuState, KujurokuRules]):
    """Kujuroku under the FudaWiki rules (SEED-001, FW-KJ) and their variations."""

    spec = spec.SPEC

    def make_rules(self, values: Mapping[str, str]) -> KujurokuRules:
        return KujurokuRules(
            values=tuple(sorted(values.items())),
            seats=int(values["players"]),
            jizo=values["jizo"] == "on",
            configuration=values["configuration"],
            stack=values["dekiyaku_count"] == "stack",
            confirmed=values["remaining_card"] == "confirmed",
            draw_dealer_stays=values["draw_dealer"] == "stay",
            check_after_draw=values["jizo"] == "on" and values["jizo_timing"] == "after-draw",
        )

    def deck(self, rules: KujurokuRules) -> Deck:
        return rules.deck

    def seats(self, rules: KujurokuRules) -> int:
        return rules.seats

    # -- the deal ----------------------------------------------------------------------------------
    def start_round(self, rules: KujurokuRules, order: Sequence[BaseCard], setup: RoundSetup) -> KujurokuState:
        deck = rules.deck
        cards = [c for c in order if isinstance(c, DainiCard)]
        masks = list(map(_MASK, cards))
        # the whole deck: as many one-bit masks as it has cards, summing to its mask. (n one-bit masks
        # sum to a number of n bits only if no two are equal: adding a bit already set carries and
        # sets no new bit. So they are distinct, and their sum is their union.)
        if len(masks) != len(deck) or sum(masks) != _DECK_MASKS[rules.jizo]:
            raise ValueError(f"Kujuroku deals the whole {deck.name} deck ({len(deck)} cards)")
        seats, d = rules.seats, setup.dealer
        # KJ-DEAL-2: the 2nd player, the 3rd, the dealer and the field (the masks are distinct bits)
        second, third, mine, field = [sum(get(masks)) for get in _DEAL_GETTERS]
        hands = [0] * seats
        hands[(d + 1) % seats], hands[(d + 2) % seats], hands[d] = second, third, mine
        state = _new_state(rules, setup, _new_table(tuple(hands), field, tuple(cards[_DEALT:]), (0,) * seats),
                           Phase.PLAY, d)
        counts = _rank_counts(field)
        if counts & _NIBBLE_4:  # a number with four cards on the field
            return evolve(state, phase=Phase.OVER, end="misdeal")  # KJ-DEAL-3, checked first (KJ-4)
        if not field & _JOKERS and not counts & (counts >> 1) & _NIBBLE_1:  # no number with three cards
            return state  # the dealer has nothing to take (KJ-DEAL-4/5/6) and plays first
        return self._continue_deal(_Turn(state))

    def deal_fast(self, rules: KujurokuRules, order: Sequence[int],
                  setup: RoundSetup) -> FastRound[KujurokuState] | None:
        """:meth:`start_round` then :meth:`fast_round`, for the deals where ``start_round`` returns its
        first position at once: the whole deck, dealt as KJ-DEAL-2 deals it, with no joker on the field
        and no number with three or four cards there (so no misdeal, KJ-DEAL-3, and nothing for the
        dealer to take, KJ-DEAL-4/5/6). Every other deal (and an order that is not the deck) gets None:
        ``start_round`` deals it."""
        try:
            bits = list(map(_BIT_OF_ID.__getitem__, order))
        except KeyError:
            return None
        if len(bits) != len(rules.deck) or sum(bits) != _DECK_MASKS[rules.jizo]:  # (see start_round)
            return None
        second, third, mine, field = [sum(get(bits)) for get in _DEAL_GETTERS]
        counts = _rank_counts(field)
        if field & _JOKERS or counts & (_NIBBLE_4 | (counts >> 1) & _NIBBLE_1):
            return None
        seats, d = rules.seats, setup.dealer
        hands = [0] * seats
        hands[(d + 1) % seats], hands[(d + 2) % seats], hands[d] = second, third, mine
        return _FastKujuroku.dealt(rules, setup, hands, field, tuple(map(_CARD_OF_ID.__getitem__, order[_DEALT:])))

    def _continue_deal(self, w: _Turn) -> KujurokuState:
        """The dealer's takes at the deal, in the order of decision KJ-4, then the first turn."""
        d = w.s.dealer
        if w.field & _JIZO:  # KJ-DEAL-5: the Jizo, and the Oni with it if dealt too
            taken = w.field & (_JIZO | _ONI)
            w.field &= ~taken
            w.to_pile(d, taken)
        elif w.field & _ONI:
            return w.state(Phase.DEAL_ONI, d)  # KJ-DEAL-4
        if _triple_rank(w.field) is not None:
            return w.state(Phase.DEAL_TRIPLE, d)  # KJ-DEAL-6
        found = w.dekiyaku()  # KJ-YAKU-1: after the dealer's takes (the dealer is to move)
        if found is not None:
            return w.over("dekiyaku", d, found)
        return w.state(Phase.PLAY, d)

    # -- legal actions -----------------------------------------------------------------------------
    def to_move(self, state: KujurokuState) -> int | None:
        return None if state.phase is _OVER else state.turn

    def legal_actions(self, state: KujurokuState) -> tuple[Action, ...]:
        t = state.table
        phase = state.phase
        if phase is _PLAY:
            return self._hand_plays(t.hand_masks[state.turn], t.field_mask)
        if phase is _TAKE:
            assert state.pending is not None
            if state.pending.id == ONI:  # KJ-ONI-3
                return tuple(action(TAKE, (c.id,)) for c in INDEX.cards_of(t.field_mask))
            return tuple(action(TAKE, (c.id,)) for c in INDEX.cards_of(match_mask(t, state.pending)))
        return _deal_takes(phase, t.field_mask)

    @staticmethod
    def _hand_plays(hand: int, field: int) -> tuple[Action, ...]:
        """The plays of a hand, made in sorted order: the Oni's (id 0), the Jizo's (id 1), then the
        numbered cards in bit order, which is their id order."""
        out: list[Action] = []
        if hand & _ONI:
            if field:  # KJ-ONI-1/2: it must capture one card of the player's choice
                out.extend(action(PLAY, (ONI, f.id)) for f in INDEX.cards_of(field))
            else:  # KJ-ONI-4
                out.append(action(PLAY, (ONI,)))
        if hand & _JIZO:  # KJ-JIZO-1
            out.append(action(PLAY, (JIZO,)))
        by_mask, plays = INDEX.by_mask, INDEX.plays
        hand &= _NUMBERED
        while hand:
            bit = hand & -hand
            hand ^= bit
            m = field & _MATCHED_BY[bit]  # KJ-CAP-1
            if m.bit_count() == 2:  # KJ-CAP-3
                cid = by_mask[bit].id
                out.append(action(PLAY, (cid, by_mask[m & -m].id)))
                out.append(action(PLAY, (cid, by_mask[m & (m - 1)].id)))
            else:  # KJ-CAP-2/4/5; KJ-CAP-6: a non-matching card may always be played
                out.append(plays[bit])
        return tuple(out)

    # -- applying actions --------------------------------------------------------------------------
    def do(self, state: KujurokuState, action: Action) -> KujurokuState:
        if action.kind == PLAY:
            return self._play(state, action)
        if action.kind == TAKE:
            return self._take(state, action.cards[0])
        if action.kind == COLLECT:
            return self._collect(state, action.cards)
        raise AssertionError(action)

    def _collect(self, s: KujurokuState, ids: Sequence[int]) -> KujurokuState:
        w = _Turn(s)
        taken = w.field & _mask(ids)
        w.field &= ~taken
        w.to_pile(s.dealer, taken)
        if s.phase is Phase.DEAL_ONI:  # KJ-DEAL-4: the card taken with the Oni is its capture (KJ-3)
            w.captive = INDEX.by_mask[taken & ~_ONI]
        return self._continue_deal(w)

    def _play(self, s: KujurokuState, action: Action) -> KujurokuState:
        w, p = _Turn(s), s.turn
        c = INDEX.by_id[action.cards[0]]
        bit = c.mask
        target = action.cards[1] if len(action.cards) > 1 else None
        hands = list(w.hands)
        hands[p] &= ~bit
        w.hands = tuple(hands)
        got = 0
        if bit == _ONI:
            if target is not None:  # KJ-ONI-1
                x = INDEX.by_id[target]
                got = _ONI | x.mask
                w.field &= ~x.mask
                w.to_pile(p, got)
                w.captive = x
            else:  # KJ-ONI-4: onto the empty field, removed when the turn ends
                w.field |= _ONI
            w.oni_from_hand = True
        elif bit == _JIZO:  # KJ-JIZO-1: on the field, to the capture pile when the turn ends
            w.field |= _JIZO
        else:
            w.field, got = resolve(INDEX, w.field, c, target)  # KJ-CAP-1 to 5
            w.to_pile(p, got)
        if got and not (bit == _ONI and s.rules.check_after_draw):
            found = w.dekiyaku()  # KJ-YAKU-1: after the hand card
            if found is not None:
                return w.over("dekiyaku", p, found)
        return self._draw(w)  # KJ-27: the Oni's capture from the hand waits for the drawn card

    def _draw(self, w: _Turn) -> KujurokuState:
        p = w.s.turn
        # KJ-27: an Oni's capture from the hand, not yet checked, is checked after the drawn card (in
        # the Jizo variant, the only one that waits, every turn draws: KJ-TURN-3)
        waiting = w.s.rules.check_after_draw and w.oni_from_hand and w.captive is not None
        if not w.stock:  # KJ-TURN-3: the last player of a 41-card round does not draw
            return self._end_turn(w)
        drawn = w.stock[0]
        w.stock = w.stock[1:]
        w.draws += 1
        bit, field = drawn.mask, w.field
        got = 0
        if bit == _ONI:
            if field & _JIZO:  # KJ-JIZO-4: the Oni captures the Jizo and nothing else (KJ-18)
                got = _ONI | _JIZO
                w.field = field & ~_JIZO
                w.to_pile(p, got)
            elif not field:  # KJ-ONI-4: discarded onto the empty field
                w.field = _ONI
            elif field.bit_count() == 1:  # KJ-ONI-3 with a single card: no choice to make (KJ-25)
                got = _ONI | field
                w.field = 0
                w.to_pile(p, got)
                w.captive = INDEX.by_mask[field]
            else:  # KJ-ONI-3: the player chooses its capture
                return w.state(Phase.TAKE, p, drawn)
        elif bit == _JIZO:
            if field & _ONI:  # KJ-JIZO-3: the Oni discarded from the hand is captured by the Jizo
                got = _ONI | _JIZO
                w.field = field & ~_ONI
                w.to_pile(p, got)
            elif w.oni_from_hand and w.captive is not None:
                # KJ-JIZO-2: the Oni's capture goes back to the field; the Jizo captures the Oni
                x = w.captive.mask
                w.piles[p] &= ~x
                w.field = field | x
                got = _JIZO
                w.to_pile(p, got)
                w.captive = None
            else:  # KJ-JIZO-1: put on the field, into the capture pile as the turn ends
                w.to_pile(p, _JIZO)
        else:
            m = field & _MATCHED_BY[bit]  # KJ-CAP-1
            if m.bit_count() == 2:  # KJ-CAP-3: the player chooses
                return w.state(Phase.TAKE, p, drawn)
            if m:  # KJ-CAP-2/4: it captures its one match, or all three
                got = m | bit
                w.field = field & ~m
                w.to_pile(p, got)
            else:  # KJ-CAP-5: it stays on the field
                w.field = field | bit
        if got or waiting:
            found = w.dekiyaku()  # KJ-YAKU-1: after the drawn card
            if found is not None:
                return w.over("dekiyaku", p, found)
        return self._end_turn(w)

    def _take(self, s: KujurokuState, target: int) -> KujurokuState:
        w, p = _Turn(s), s.turn
        drawn = s.pending
        assert drawn is not None
        if drawn.id == ONI:  # KJ-ONI-3
            x = INDEX.by_id[target]
            w.field &= ~x.mask
            w.to_pile(p, _ONI | x.mask)
            w.captive = x
        else:  # KJ-CAP-3
            w.field, got = resolve(INDEX, w.field, drawn, target)
            w.to_pile(p, got)
        found = w.dekiyaku()  # KJ-YAKU-1: after the drawn card
        if found is not None:
            return w.over("dekiyaku", p, found)
        return self._end_turn(w)

    def _end_turn(self, w: _Turn) -> KujurokuState:
        p = w.s.turn
        w.remove_oni()  # KJ-ONI-5: removed from the round
        if w.field & _JIZO:  # KJ-JIZO-1: to its player's capture pile
            w.field &= ~_JIZO
            w.to_pile(p, _JIZO)
        w.oni_from_hand = False
        hands = w.hands
        if not hands[p] and not any(hands[i] for i in w.order):  # KJ-TURN-4
            return self._finish(w)
        return w.state(Phase.PLAY, w.order[1])

    def _finish(self, w: _Turn) -> KujurokuState:
        """A round played out: the Oni-holder receives the remaining card (KJ-ONI-6), which may still
        complete a dekiyaku (with remaining_card=end), then the round is over."""
        if w.captive is None:
            return w.over("exhaustive", w.s.turn)
        x = _remaining(w.captive, w.piles) & w.field
        holder = _oni_holder(w.piles)
        if not x or holder is None:  # excluded by the parity argument of remaining_card()
            raise AssertionError(f"KJ-ONI-6: no single remaining card for the Oni's capture {w.captive.id}")
        w.field &= ~x
        w.to_pile(holder, x)
        remaining = INDEX.by_mask[x]
        found = score_mask(w.s.rules, w.piles[holder])
        if found:
            return w.over("dekiyaku", w.s.turn, (holder, found), remaining)
        return w.over("exhaustive", w.s.turn, None, remaining)

    def fast_round(self, state: KujurokuState) -> FastRound[KujurokuState] | None:
        """The round played in place (``_FastKujuroku``) from any position not over, under every
        option: both decks (jizo), three or four seats, every dekiyaku configuration and count, both
        readings of the remaining card and of the Jizo's timing, and the dealer's takes at the deal
        (``collect``). None for a round already over (a misdeal, a dekiyaku at the deal)."""
        return None if state.phase is _OVER else _FastKujuroku(state)

    # -- illegal actions ---------------------------------------------------------------------------
    def explain_illegal(self, state: KujurokuState, action: Action) -> tuple[str, str]:
        p, t = state.turn, state.table
        phase = state.phase.value
        if action.kind == COLLECT:
            if state.phase is Phase.DEAL_ONI:
                return "KJ-DEAL-4", f"the dealt Oni takes one field card: 'collect 0 X', not {action}"
            if state.phase is Phase.DEAL_TRIPLE:
                return "KJ-DEAL-6", f"the dealer takes two of the three cards of number {_triple_rank(t.field_mask)}"
            return "KJ-DEAL-4", f"nothing is collected now (phase {phase})"
        if action.kind == PLAY:
            if state.phase is not Phase.PLAY:
                return "KJ-TURN-2", f"seat {p} cannot play a hand card now (phase {phase})"
            c = INDEX.by_id.get(action.cards[0]) if action.cards else None
            if c is None or not t.hand_masks[p] & c.mask:
                return "KJ-TURN-2", f"card {action.cards[0] if action.cards else '?'} is not in seat {p}'s hand"
            cid = c.id
            if cid == ONI:
                if len(action.cards) == 1:
                    return "KJ-ONI-2", "the Oni-fuda may not be discarded while the field has cards"
                return "KJ-ONI-1", f"the Oni-fuda captures one card that is on the field, not {action.cards[1:]}"
            if cid == JIZO:
                return "KJ-JIZO-1", "the Jizo-fuda captures nothing: play it as 'play 1'"
            m = INDEX.cards_of(match_mask(t, c))
            if len(m) == 2:
                return "KJ-CAP-3", f"card {cid} matches {m[0].id} and {m[1].id}: name one of them as target"
            return "KJ-CAP-2", f"card {cid} has {len(m)} match(es) on the field: no target is chosen"
        if action.kind == TAKE:
            if state.phase is not Phase.TAKE or state.pending is None:
                return "KJ-CAP-3", "no drawn card is waiting for a choice of target"
            if state.pending.id == ONI:
                return "KJ-ONI-3", f"the drawn Oni-fuda captures one field card, not {action.cards}"
            return "KJ-CAP-3", f"{action.cards} is not one of the two field cards the drawn card matches"
        return "KJ-TURN-2", f"unknown action kind {action.kind!r} for Kujuroku"

    # -- results -----------------------------------------------------------------------------------
    def card_points(self, rules: KujurokuRules, cards: Iterable[BaseCard]) -> int:
        """KJ-SCORE-1 / KJ-JIZO-5: the card points of a pile."""
        return sum(spec.card_points(c.id, rules.jizo) for c in cards)

    def round_result(self, state: KujurokuState) -> RoundResult:
        if state.phase is not Phase.OVER:
            raise ValueError("the round is not over")
        return _result(state.rules, state.setup.dealer, state.end, state.captive, state.remaining, state.winner,
                       state.won, state.table.captured_masks)

    def snapshot(self, state: KujurokuState, info: MatchInfo | None = None) -> Snapshot:
        t, seats = state.table, state.rules.seats
        ids = t.index.ids_of
        zones: list[tuple[str, tuple[int, ...]]] = [(f"hand.{i}", ids(t.hand_masks[i])) for i in range(seats)]
        zones += [
            ("field", ids(t.field_mask)),
            ("stock", tuple(c.id for c in t.stock)),
            ("drawn", (state.pending.id,) if state.pending else ()),
        ]
        zones += [(f"captured.{i}", ids(t.captured_masks[i])) for i in range(seats)]
        zones.append(("out.oni", tuple(c.id for c in state.out)))
        scores = info.scores if info else state.setup.scores
        return Snapshot("kujuroku", tuple(zones), self.to_move(state), state.phase.value, state.dealer,
                        state.setup.number, scores)

    def score(self, rules: KujurokuRules, cards: Sequence[BaseCard], month: int | None = None) -> PileScore:
        return PileScore(score_mask(rules, INDEX.mask_of(cards)), self.card_points(rules, cards))

    # -- the match ---------------------------------------------------------------------------------
    def new_match(self, rules: KujurokuRules, first_dealer: int = 0) -> MatchInfo:
        return MatchInfo((spec.START_CHIPS,) * rules.seats, first_dealer)

    def seats_in_play(self, rules: KujurokuRules, info: MatchInfo) -> tuple[int, ...]:
        return _PARTICIPANTS[rules.seats][info.dealer]  # the dealer and the next two to the right

    def settle(self, rules: KujurokuRules, info: MatchInfo, result: RoundResult) -> MatchInfo:
        before, deltas = info.scores, result.deltas
        if len(before) != len(deltas):
            tuple(zip(before, deltas, strict=True))  # raises zip's ValueError
        scores = tuple(map(add, before, deltas))
        dealer = result.next_dealer if result.next_dealer is not None else info.dealer
        played = info.rounds_played + (1 if result.counts else 0)
        history = (*info.history, result)
        losses = sum(map(_deal_lost, history))
        over = losses >= rules.seats  # KJ-GAME-1
        winners: tuple[int, ...] = ()
        if over:  # KJ-GAME-2
            top = max(scores)
            winners = tuple(i for i, v in enumerate(scores) if v == top)
        # MatchInfo(scores, dealer, played, deals, over, winners, end_reason, history), without the frozen
        # dataclass's __init__
        new: MatchInfo = _new(MatchInfo)
        new.__dict__.update(scores=scores, dealer=dealer, rounds_played=played, deals=info.deals + 1, over=over,
                            winners=winners, end_reason="every player dealt and lost the deal" if over else "",
                            history=history)
        return new


#: Card id -> the card's one-bit mask.
_BIT_OF_ID = {c.id: c.mask for c in INDEX.cards}
_CARD_OF_ID: dict[int, DainiCard] = INDEX.by_id  #: the deck's cards by id (the stock of a fast deal)
#: The jokers' bits (the Oni and the Jizo): the only bits out of id order.
_JOKERS = _ONI | _JIZO
#: One-bit mask of a numbered card -> ``play 0 <card>`` (the Oni from the hand captures it).
_ONI_PLAYS = {c.mask: action(PLAY, (ONI, c.id)) for c in INDEX.cards if c.suit}
_ONI_ALONE, _JIZO_PLAY = action(PLAY, (ONI,)), action(PLAY, (JIZO,))
_PLAYS, _PLAYS_ON = INDEX.plays, INDEX.plays_on  #: ``play c`` and ``play c t`` by the masks of c and t
#: One-bit mask of a numbered card -> ``take <card>``.
_TAKES = {c.mask: action(TAKE, (c.id,)) for c in INDEX.cards if c.suit}
#: ``play c`` and ``play c t`` of a numbered card c (the shared instances the legal plays list), by the id
#: of the object, -> the masks of c and of t (0 for none): the fast replay's one lookup. Keyed by
#: identity: INDEX keeps these objects alive, so no other object has their ids. The jokers' plays are
#: not in it (the fast replay searches the listed actions for them).
_NUMBERED_PLAYS: dict[int, tuple[int, int]] = {
    **{id(a): (m, 0) for m, a in _PLAYS.items() if m & _NUMBERED},
    **{id(a): (m, t) for m, on in _PLAYS_ON.items() if m & _NUMBERED for t, a in on.items()},
}


class _FastKujuroku(FastRound[KujurokuState]):
    """A Kujuroku round played in place (see :class:`~hanafuda.engine.FastRound`): the zones as
    mutable masks, the stock as a tuple and the index of its top card, and the state's other fields
    as attributes. Each step is the reference's, in the same order: :meth:`Kujuroku._play` (a hand
    card: KJ-CAP-1…5, the Oni KJ-ONI-1/4, the Jizo KJ-JIZO-1), :meth:`Kujuroku._draw` (KJ-TURN-3,
    KJ-ONI-3/4, KJ-JIZO-2…4, KJ-CAP-1…5), :meth:`Kujuroku._take`, :meth:`Kujuroku._end_turn` (KJ-ONI-5,
    KJ-JIZO-1, KJ-TURN-4), :meth:`Kujuroku._finish` (KJ-ONI-6) and the dealer's takes at the deal
    (:meth:`Kujuroku._collect`, :meth:`Kujuroku._continue_deal`: KJ-DEAL-4…6), with the dekiyaku
    checked where :class:`_Turn` checks them (KJ-YAKU-1, KJ-27, KJ-ONI-7)."""

    __slots__ = ("after_draw", "captive", "confirmed", "dealer", "draws", "end", "field", "hands", "oni_from_hand",
                 "orders", "out", "pending", "phase", "piles", "remaining", "rules", "setup", "stock", "table", "top",
                 "turn", "winner", "won")

    def __init__(self, s: KujurokuState) -> None:
        t, rules = s.table, s.rules
        self.rules, self.setup = rules, s.setup
        self.after_draw, self.confirmed, self.table = rules.check_after_draw, rules.confirmed, rules.dekiyaku
        self.dealer = s.setup.dealer
        self.orders = _TURN_ORDER[rules.seats][self.dealer]  #: seat -> participants in turn order from it
        self.hands, self.field, self.piles = list(t.hand_masks), t.field_mask, list(t.captured_masks)
        self.stock, self.top = t.stock, 0  # the draw pile is stock[top:]
        self.phase, self.turn, self.pending = s.phase, s.turn, s.pending
        self.out, self.captive, self.oni_from_hand, self.draws = s.out, s.captive, s.oni_from_hand, s.draws
        self.end, self.winner, self.won, self.remaining = s.end, s.winner, s.won, s.remaining

    def over(self) -> bool:
        return self.phase is _OVER

    def replay(self, actions: Sequence[Action | None], pos: int, stop: int) -> int:
        """:meth:`FastRound.replay`, a numbered card's play checked on the masks: the legal plays list
        ``play c`` when c is in the hand of the player to move and the field does not hold exactly two
        cards of its number (KJ-CAP-1/2/4/5/6), ``play c t`` when it holds two, t one of them (KJ-CAP-3).
        The jokers' plays, a field with a joker on it, and the phases other than the hand play search
        the listed actions as the default does."""
        plays, matched, default = _NUMBERED_PLAYS.get, _MATCHED_BY, FastRound.replay
        while pos < stop:
            phase = self.phase
            a = actions[pos]
            found = plays(id(a)) if phase is _PLAY and not self.field & _JOKERS else None
            if found is None:
                if phase is _OVER:
                    break
                nxt = default(self, actions, pos, pos + 1)
                if nxt == pos:
                    break
                pos = nxt
                continue
            c, t = found
            if not self.hands[self.turn] & c:
                break
            m = self.field & matched[c]
            if m.bit_count() == 2:
                if not t & m:
                    break
            elif t:
                break
            self.play(a)  # type: ignore[arg-type]  # (found in the table: an Action)
            pos += 1
        return pos

    def legal(self) -> Sequence[Action]:
        phase, field = self.phase, self.field
        if phase is _PLAY:
            hand = self.hands[self.turn]
            if (hand | field) & _JOKERS:
                return self._plays_with_jokers(hand, field)
            out: list[Action] = []
            while hand:  # the numbered cards in bit order, which is id order
                bit = hand & -hand
                hand ^= bit
                m = field & _MATCHED_BY[bit]  # KJ-CAP-1
                if m.bit_count() == 2:  # KJ-CAP-3: the lower target first
                    on = _PLAYS_ON[bit]
                    out.append(on[m & -m])
                    out.append(on[m & (m - 1)])
                else:  # KJ-CAP-2/4/5/6
                    out.append(_PLAYS[bit])
            return out
        if phase is _TAKE:
            pending = self.pending
            assert pending is not None
            if pending.id != ONI:  # KJ-CAP-3: the two matches, lower first
                m = field & _MATCHED_BY[pending.mask]
                return (_TAKES[m & -m], _TAKES[m & (m - 1)])
            if field & _JOKERS:
                return tuple(action(TAKE, (c.id,)) for c in INDEX.cards_of(field))
            takes = []
            while field:  # KJ-ONI-3: any field card
                low = field & -field
                field ^= low
                takes.append(_TAKES[low])
            return takes
        return _deal_takes(phase, field)

    @staticmethod
    def _plays_with_jokers(hand: int, field: int) -> list[Action]:
        """The plays of a hand or onto a field with a joker: the Oni's (id 0), the Jizo's (id 1), then the
        numbered cards' (:meth:`Kujuroku._hand_plays`)."""
        if field & _JOKERS:  # (a joker lies on the field only within a turn or a deal)
            return list(Kujuroku._hand_plays(hand, field))
        out: list[Action] = []
        if hand & _ONI:  # KJ-ONI-1/2/4
            if field:
                f = field
                while f:  # numbered cards only: bit order is id order
                    low = f & -f
                    f ^= low
                    out.append(_ONI_PLAYS[low])
            else:
                out.append(_ONI_ALONE)
        if hand & _JIZO:  # KJ-JIZO-1
            out.append(_JIZO_PLAY)
        hand &= _NUMBERED
        while hand:
            bit = hand & -hand
            hand ^= bit
            m = field & _MATCHED_BY[bit]  # KJ-CAP-1
            if m.bit_count() == 2:  # KJ-CAP-3: the lower target first
                on = _PLAYS_ON[bit]
                out.append(on[m & -m])
                out.append(on[m & (m - 1)])
            else:  # KJ-CAP-2/4/5/6
                out.append(_PLAYS[bit])
        return out

    def play(self, a: Action) -> None:
        kind, cards = a.kind, a.cards
        if kind != PLAY:
            if kind == TAKE:
                self._take(cards[0])
            elif kind == COLLECT:
                self._collect(cards)
            else:
                raise AssertionError(a)
            return
        # Kujuroku._play, with the draw of a numbered card inline (the common turn)
        p = self.turn
        bit = _BIT_OF_ID[cards[0]]
        self.hands[p] &= ~bit
        if not bit & _NUMBERED:
            self._play_joker(bit, cards)
            return
        field = self.field
        m = field & _MATCHED_BY[bit]  # KJ-CAP-1
        if m:
            if m.bit_count() == 2:  # KJ-CAP-3: the target named
                m = _BIT_OF_ID[cards[1]]
            self.field = field = field & ~m  # KJ-CAP-2/4
            self.piles[p] |= m | bit
            if self._dekiyaku():  # KJ-YAKU-1: after the hand card
                return
        else:  # KJ-CAP-5
            self.field = field = field | bit
        stock, top = self.stock, self.top
        if top == len(stock) or self.after_draw or not stock[top].mask & _NUMBERED:
            self._draw()  # the general draw: no card, a joker, or a capture that may wait (KJ-27)
            return
        drawn = stock[top]  # Kujuroku._draw of a numbered card
        self.top = top + 1
        self.draws += 1
        bit = drawn.mask
        m = field & _MATCHED_BY[bit]  # KJ-CAP-1
        if m:
            if m.bit_count() == 2:  # KJ-CAP-3: the player chooses
                self.phase, self.pending = _TAKE, drawn
                return
            self.field = field = field & ~m  # KJ-CAP-2/4
            self.piles[p] |= m | bit
            if self._dekiyaku():  # KJ-YAKU-1: after the drawn card
                return
        else:  # KJ-CAP-5
            self.field = field = field | bit
        if field & _JOKERS:
            self._end_turn()
            return
        # Kujuroku._end_turn with no joker on the field: the next participant plays (KJ-TURN-4)
        self.oni_from_hand = False
        hands, order = self.hands, self.orders[p]
        if hands[p] or hands[order[1]] or hands[order[2]]:
            self.turn = order[1]
        else:
            self._finish()

    # -- the steps of a turn (the reference's, in place) --------------------------------------------
    def _play_joker(self, bit: int, cards: tuple[int, ...]) -> None:
        """:meth:`Kujuroku._play` of the Oni or the Jizo from the hand, then the draw."""
        p = self.turn
        if bit == _ONI:
            self.oni_from_hand = True
            if len(cards) > 1:  # KJ-ONI-1
                x = INDEX.by_id[cards[1]]
                self.field &= ~x.mask
                self.piles[p] |= _ONI | x.mask
                self.captive = x
                # KJ-27: with jizo_timing=after-draw the capture waits for the drawn card
                if not self.after_draw and self._dekiyaku():
                    return
            else:  # KJ-ONI-4
                self.field |= _ONI
        else:  # KJ-JIZO-1
            self.field |= _JIZO
        self._draw()

    def _draw(self) -> None:
        """:meth:`Kujuroku._draw`: the top card of the stock, then the end of the turn."""
        stock, top = self.stock, self.top
        if top == len(stock):  # KJ-TURN-3
            self._end_turn()
            return
        p, piles = self.turn, self.piles
        waiting = self.after_draw and self.oni_from_hand and self.captive is not None  # KJ-27
        drawn = stock[top]
        self.top = top + 1
        self.draws += 1
        bit, field = drawn.mask, self.field
        got = 0
        if bit & _NUMBERED:
            m = field & _MATCHED_BY[bit]  # KJ-CAP-1
            if m:
                if m.bit_count() == 2:  # KJ-CAP-3: the player chooses
                    self.phase, self.pending = _TAKE, drawn
                    return
                got = m | bit  # KJ-CAP-2/4
                self.field = field & ~m
                piles[p] |= got
            else:  # KJ-CAP-5
                self.field = field | bit
        elif bit == _ONI:
            if field & _JIZO:  # KJ-JIZO-4
                got = _ONI | _JIZO
                self.field = field & ~_JIZO
                piles[p] |= got
            elif not field:  # KJ-ONI-4
                self.field = _ONI
            elif field.bit_count() == 1:  # KJ-ONI-3, one card
                got = _ONI | field
                self.field = 0
                piles[p] |= got
                self.captive = INDEX.by_mask[field]
            else:  # KJ-ONI-3: the player chooses
                self.phase, self.pending = _TAKE, drawn
                return
        elif field & _ONI:  # KJ-JIZO-3
            got = _ONI | _JIZO
            self.field = field & ~_ONI
            piles[p] |= got
        elif self.oni_from_hand and self.captive is not None:  # KJ-JIZO-2
            x = self.captive.mask
            piles[p] = (piles[p] & ~x) | _JIZO
            self.field = field | x
            got = _JIZO
            self.captive = None
        else:  # KJ-JIZO-1
            piles[p] |= _JIZO
        if (got or waiting) and self._dekiyaku():  # KJ-YAKU-1: after the drawn card
            return
        self._end_turn()

    def _take(self, target: int) -> None:
        drawn = self.pending
        assert drawn is not None
        p = self.turn
        self.pending = None
        x = _BIT_OF_ID[target]
        self.field &= ~x
        if drawn.id == ONI:  # KJ-ONI-3
            self.piles[p] |= _ONI | x
            self.captive = INDEX.by_mask[x]
        else:  # KJ-CAP-3
            self.piles[p] |= x | drawn.mask
        self.phase = _PLAY
        if self._dekiyaku():  # KJ-YAKU-1: after the drawn card
            return
        self._end_turn()

    def _end_turn(self) -> None:
        p, field = self.turn, self.field
        if field & _ONI:  # KJ-ONI-5
            field &= ~_ONI
            self.out = (*self.out, _ONI_CARD)
        if field & _JIZO:  # KJ-JIZO-1
            field &= ~_JIZO
            self.piles[p] |= _JIZO
        self.field = field
        self.oni_from_hand = False
        hands, order = self.hands, self.orders[p]
        if not hands[order[0]] and not hands[order[1]] and not hands[order[2]]:  # KJ-TURN-4
            self._finish()
        else:
            self.phase, self.turn = _PLAY, order[1]

    def _finish(self) -> None:
        """:meth:`Kujuroku._finish`: the remaining card to the Oni-holder (KJ-ONI-6)."""
        if self.captive is None:
            self._end("exhaustive")
            return
        piles = self.piles
        x = _remaining(self.captive, piles) & self.field
        holder = _oni_holder(piles)
        if not x or holder is None:
            raise AssertionError(f"KJ-ONI-6: no single remaining card for the Oni's capture {self.captive.id}")
        self.field &= ~x
        piles[holder] |= x
        self.remaining = INDEX.by_mask[x]
        table = self.table
        found = table[piles[holder] & table.counted]
        if found:
            self._end("dekiyaku", holder, found)
        else:
            self._end("exhaustive")

    def _dekiyaku(self) -> bool:
        """:meth:`_Turn.dekiyaku` (KJ-YAKU-1, KJ-ONI-7); if a pile forms one, the round ends so. The
        participants' piles are looked up in turn order from the player to move (an empty pile too: no
        dekiyaku is formed by no cards, see :class:`_DekiyakuTable`)."""
        piles = self.piles
        captive = self.captive
        if captive is not None and self.confirmed:  # _remaining(captive, piles), inline
            outside = _MATCHED_BY.get(captive.mask, 0)
            for pile in piles:
                outside &= ~pile
            if outside and not outside & (outside - 1):  # one card: it counts as the Oni-holder's
                return self._dekiyaku_with_remaining(outside)
        table = self.table
        counted = table.counted
        first, second, third = self.orders[self.turn]
        found = table[piles[first] & counted]
        if found:
            self._end("dekiyaku", first, found)
            return True
        found = table[piles[second] & counted]
        if found:
            self._end("dekiyaku", second, found)
            return True
        found = table[piles[third] & counted]
        if found:
            self._end("dekiyaku", third, found)
            return True
        return False

    def _dekiyaku_with_remaining(self, extra: int) -> bool:
        """:meth:`_dekiyaku` with the confirmed remaining card ``extra`` counted in the Oni-holder's pile
        (KJ-ONI-7)."""
        piles, table = self.piles, self.table
        holder = _oni_holder(piles)
        counted = table.counted
        for seat in self.orders[self.turn]:
            pile = piles[seat]
            if seat == holder:
                pile |= extra
            found = table[pile & counted]
            if found:
                self._end("dekiyaku", seat, found)
                return True
        return False

    def _end(self, end: str, winner: int | None = None, won: tuple[ScoredYaku, ...] = ()) -> None:
        self.phase, self.pending, self.end, self.winner, self.won = _OVER, None, end, winner, won

    # -- the deal -----------------------------------------------------------------------------------
    def _collect(self, ids: tuple[int, ...]) -> None:
        """:meth:`Kujuroku._collect` and :meth:`Kujuroku._continue_deal` (KJ-DEAL-4…6)."""
        d = self.dealer
        taken = self.field & _mask(ids)
        self.field &= ~taken
        self.piles[d] |= taken
        if self.phase is _DEAL_ONI:
            self.captive = INDEX.by_mask[taken & ~_ONI]
        field = self.field
        if field & _JIZO:  # KJ-DEAL-5
            taken = field & _JOKERS
            self.field = field & ~taken
            self.piles[d] |= taken
        elif field & _ONI:  # KJ-DEAL-4
            self.phase = _DEAL_ONI
            return
        if _triple_rank(self.field) is not None:  # KJ-DEAL-6
            self.phase = _DEAL_TRIPLE
            return
        self.phase = _PLAY
        self._dekiyaku()  # KJ-YAKU-1: after the dealer's takes

    def result(self) -> RoundResult | None:
        """:meth:`Kujuroku.round_result` of :meth:`state`, from the round's own fields (:func:`_result`)."""
        if self.phase is not _OVER:
            raise ValueError("the round is not over")
        return _result(self.rules, self.dealer, self.end, self.captive, self.remaining, self.winner, self.won,
                       self.piles)

    @classmethod
    def dealt(cls, rules: KujurokuRules, setup: RoundSetup, hands: list[int], field: int,
              stock: tuple[DainiCard, ...]) -> _FastKujuroku:
        """The round at a deal that leaves the dealer nothing to take (:meth:`Kujuroku.deal_fast`): what
        ``__init__`` sets from the first position :meth:`Kujuroku.start_round` gives then (the phase
        PLAY, the dealer to move, empty piles, the other fields at their defaults)."""
        f: _FastKujuroku = _new(cls)
        f.rules, f.setup = rules, setup
        f.after_draw, f.confirmed, f.table = rules.check_after_draw, rules.confirmed, rules.dekiyaku
        f.dealer = f.turn = setup.dealer
        f.orders = _TURN_ORDER[rules.seats][f.dealer]
        f.hands, f.field, f.piles = hands, field, [0] * rules.seats
        f.stock, f.top = stock, 0
        f.phase, f.pending = _PLAY, None
        f.out, f.captive, f.oni_from_hand, f.draws = (), None, False, 0
        f.end, f.winner, f.won, f.remaining = "", None, (), None
        return f

    def state(self) -> KujurokuState:
        table = _new_table(tuple(self.hands), self.field, self.stock[self.top:], tuple(self.piles))
        new: KujurokuState = _new(KujurokuState)
        new.__dict__.update(rules=self.rules, setup=self.setup, table=table, phase=self.phase, turn=self.turn,
                            out=self.out, pending=self.pending, captive=self.captive, oni_from_hand=self.oni_from_hand,
                            draws=self.draws, end=self.end, winner=self.winner, won=self.won, remaining=self.remaining)
        return new


GAME = Kujuroku()
