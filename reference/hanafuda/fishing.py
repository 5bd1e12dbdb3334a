"""The fishing-game turn, written once for Koi-Koi, Kekoro, Musashino-Bana and Kujuroku.

A turn has two plays (FW-HA "Turn"; FW-KK "Turns"): a card from the hand, then the top card
of the draw pile, each resolved the same way against the field:

* no field card of its suit: the card stays on the field;
* one: the card captures it;
* two: the card captures one of them, chosen by the player;
* three: the card captures all three.

A card that matches must capture. Whether a player may play a non-matching hand card while
another would capture is a game rule (``must_capture``).

Card sets are bit masks (card ``c`` is the bit ``c.mask``; :class:`CardIndex` turns masks back
into cards), so that a capture is a few integer operations. :class:`Table` holds the zones; the
functions below return new tables and masks (nothing is mutated).

>>> from hanafuda_spec.cards import HANAFUDA, card
>>> idx = CardIndex(HANAFUDA.cards)
>>> t = Table.deal(idx, [[card(11), card(30)], []], [card(10), card(12), card(31)], [card(50)])
>>> [str(a) for a in hand_plays(t, 0)]
['play 11 10', 'play 11 12', 'play 30']
>>> field, got = capture(t, card(30), None)
>>> [c.id for c in idx.cards_of(field)], [c.id for c in idx.cards_of(got)]
([10, 12], [30, 31])
"""

from __future__ import annotations

import enum
import functools
import operator
from abc import abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

from hanafuda_spec.cards import HANAFUDA, BaseCard, Deck
from hanafuda_spec.neutral import Snapshot

from hanafuda._construct import new
from hanafuda.engine import (
    ACTION_ORDER,
    CARD_ORDER,
    Action,
    FastRound,
    MatchInfo,
    RoundGame,
    RoundSetup,
    action,
    evolve,
)

__all__ = [
    "FOURS",
    "NAMED_OF_TWO",
    "PLAY",
    "SUIT_DIGITS",
    "TAKE",
    "CardIndex",
    "FishingGame",
    "FishingRound",
    "FishingRules",
    "FishingState",
    "Table",
    "bits_of",
    "capture",
    "card_plays",
    "deal_packets",
    "deal_two",
    "explain_hand_play",
    "hand_plays",
    "lands",
    "match_mask",
    "matches",
    "packet_getters",
    "packet_plan",
    "plays_of",
    "resolve",
    "suit_counts",
    "takes_of",
    "two_hand_dealing",
    "zones",
]

C = TypeVar("C", bound=BaseCard)
S = TypeVar("S")
T = TypeVar("T")
R = TypeVar("R")

PLAY = "play"
TAKE = "take"


class CardIndex(Generic[C]):
    """The cards of one deck as bits: a bit-mask card set decoded back into cards (in id order,
    the order hands, field and capture piles are shown in), and each suit's cards as a mask.

    One index serves every table of a deck (build it once per game module).

    >>> from hanafuda_spec.cards import HANAFUDA, card
    >>> idx = CardIndex(HANAFUDA.cards)
    >>> m = idx.mask_of([card(120), card(10)])
    >>> [c.id for c in idx.cards_of(m)], bin(idx.suit_mask(1))
    ([10, 120], '0b1111')
    """

    __slots__ = ("_id_chunks", "_nibbles", "by_id", "by_mask", "byte_plays", "cards", "id_order",
                 "play_masks", "plays", "plays_on", "suit_of", "suits", "takes")

    def __init__(self, cards: Iterable[C]) -> None:
        self.cards: tuple[C, ...] = tuple(sorted(cards, key=CARD_ORDER))
        self.by_mask: dict[int, C] = {c.mask: c for c in self.cards}  #: one-bit mask -> card
        self.by_id: dict[int, C] = {c.id: c for c in self.cards}
        if len(self.by_mask) != len(self.cards) or len(self.by_id) != len(self.cards):
            raise ValueError("a card index needs distinct ids and bits")
        suits: dict[int, int] = {}
        for c in self.cards:
            if c.suit:  # suit 0 (a joker) matches nothing and has no suit mask
                suits[c.suit] = suits.get(c.suit, 0) | c.mask
        self.suits = suits  #: suit -> the mask of its cards (suit 0 is absent)
        #: one-bit mask -> the mask of the cards of its suit (0 for suit 0: a joker matches nothing)
        self.suit_of: dict[int, int] = {c.mask: suits.get(c.suit, 0) for c in self.cards}
        bits = [c.bit for c in self.cards]
        self.id_order = bits == sorted(bits)  #: ascending bits are ascending ids (not so in Daini)
        self.plays: dict[int, Action] = {c.mask: action(PLAY, (c.id,)) for c in self.cards}  #: mask -> ``play c``
        self.takes: dict[int, Action] = {c.mask: action(TAKE, (c.id,)) for c in self.cards}  #: mask -> ``take c``
        #: mask of c -> mask of t -> ``play c t``, for t of c's suit
        self.plays_on: dict[int, dict[int, Action]] = {
            c.mask: {t.mask: action(PLAY, (c.id, t.id)) for t in self.cards if t.suit == c.suit and t is not c}
            for c in self.cards if c.suit}
        #: the cards of every ``play c`` and ``play c t`` above -> the masks of c and of t (0 for none)
        self.play_masks: dict[tuple[int, ...], tuple[int, int]] = {
            **{a.cards: (m, 0) for m, a in self.plays.items()},
            **{a.cards: (m, t) for m, on in self.plays_on.items() for t, a in on.items()}}
        self._id_chunks: tuple[tuple[tuple[int, ...], ...], ...] = ()  # built by ids_of on its first call
        #: the bytes of a mask when every suit's cards lie in one hexadecimal digit of it (else 0): see byte_plays
        self._nibbles = (max(c.bit for c in self.cards) >> 3) + 1 if all(
            len({b.bit_length() - 1 >> 2 for b in bits_of(m)}) == 1 for m in suits.values()) else 0
        #: ``named`` -> for each byte of a mask, for each byte of the hand and each byte of the field there:
        #: :func:`card_plays` of those cards (see :func:`plays_of`)
        self.byte_plays: dict[int, list[list[list[tuple[Action, ...]]]]] = {}

    def fill_byte_plays(self, named: int) -> list[list[list[tuple[Action, ...]]]]:
        """``byte_plays`` for ``named``, computed once (empty where a suit spans two digits): each byte's entry
        joins the plays of its two digits, :func:`card_plays` of each digit's hand and field cards."""
        found = self.byte_plays.get(named)
        if found is None:
            found = self.byte_plays[named] = []
            every = sum(c.mask for c in self.cards)
            digits = []
            for k in range(2 * self._nibbles):
                cards = every >> 4 * k & 15
                digits.append([tuple(card_plays(self, (x >> 4) << 4 * k, (x & 15) << 4 * k, named)[0])
                               if not (x >> 4) & x and (x >> 4 | x) & ~cards & 15 == 0 else () for x in range(256)])
            for k in range(self._nibbles):
                cards, low, high = every >> 8 * k & 255, digits[2 * k], digits[2 * k + 1]
                rows: list[list[tuple[Action, ...]]] = []
                for h in range(256):
                    row: list[tuple[Action, ...]] = [()] * 256
                    free = f = cards & ~h if not h & ~cards else 0
                    while True:  # every field byte of the cards not in the hand
                        row[f] = low[(h & 15) << 4 | f & 15] + high[h & 240 | f >> 4]
                        if not f:
                            break
                        f = (f - 1) & free
                    rows.append(row)
                found.append(rows)
        return found

    def suit_mask(self, suit: int) -> int:
        """The cards of ``suit`` (0 for suit 0, the jokers, which match nothing)."""
        return self.suits.get(suit, 0)

    def mask_of(self, cards: Iterable[BaseCard]) -> int:
        m = 0
        for c in cards:
            m |= c.mask
        return m

    def cards_of(self, mask: int) -> tuple[C, ...]:
        """The cards of a mask, in id order."""
        by_mask = self.by_mask
        out = []
        while mask:
            low = mask & -mask
            out.append(by_mask[low])
            mask ^= low
        if not self.id_order:
            out.sort(key=CARD_ORDER)
        return tuple(out)

    def ids_of(self, mask: int) -> tuple[int, ...]:
        """The card ids of a mask, ascending: read a byte of the mask at a time from a table of the ids
        each byte value stands for (the game-AI views turn every zone of every position into ids)."""
        tables = self._id_chunks or self._chunk_tables()
        out: tuple[int, ...] = ()
        for table in tables:
            out += table[mask & 255]
            mask >>= 8
            if not mask:
                break
        return out if self.id_order else tuple(sorted(out))

    def _chunk_tables(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """For each byte of a mask (lowest first), the ids of the cards of each of its 256 values, in bit
        order."""
        top = max(c.bit for c in self.cards)
        ids = {c.bit: c.id for c in self.cards}
        self._id_chunks = tuple(
            tuple(tuple(ids[8 * k + b] for b in range(8) if value >> b & 1 and 8 * k + b in ids)
                  for value in range(256))
            for k in range(top // 8 + 1))
        return self._id_chunks


@dataclass(frozen=True)
class Table(Generic[C]):
    """The zones of a fishing round: hands, field and capture piles as bit masks over ``index``;
    the stock (draw pile) as a tuple, top first. ``hands``, ``field`` and ``captured`` show the
    masks as cards in id order."""

    index: CardIndex[C]
    hand_masks: tuple[int, ...]
    field_mask: int
    stock: tuple[C, ...]
    captured_masks: tuple[int, ...]

    @classmethod
    def deal(cls, index: CardIndex[C], hands: Sequence[Iterable[C]], field: Iterable[C], stock: Sequence[C],
             captured: Sequence[Iterable[C]] | None = None) -> Table[C]:
        """A table from card lists (captured piles empty unless given)."""
        caps = tuple(index.mask_of(p) for p in captured) if captured is not None else (0,) * len(hands)
        return cls(index, tuple(index.mask_of(h) for h in hands), index.mask_of(field), tuple(stock), caps)

    # -- views -------------------------------------------------------------------------------
    @property
    def hands(self) -> tuple[tuple[C, ...], ...]:
        return tuple(self.index.cards_of(h) for h in self.hand_masks)

    @property
    def field(self) -> tuple[C, ...]:
        return self.index.cards_of(self.field_mask)

    @property
    def captured(self) -> tuple[tuple[C, ...], ...]:
        return tuple(self.index.cards_of(c) for c in self.captured_masks)

    def hand(self, seat: int) -> tuple[C, ...]:
        return self.index.cards_of(self.hand_masks[seat])

    # -- changes (new tables) ----------------------------------------------------------------
    def add_captured(self, side: int, mask: int) -> Table[C]:
        """The cards of ``mask`` added to ``side``'s capture pile."""
        if not mask:
            return self
        caps = list(self.captured_masks)
        caps[side] |= mask
        return evolve(self, captured_masks=tuple(caps))


def zones(t: Table[C], pending: BaseCard | None) -> list[tuple[str, tuple[int, ...]]]:
    """The neutral form's zones of a fishing table (:class:`~hanafuda_spec.neutral.Snapshot`): each hand,
    the field, the stock (top first), the drawn card waiting for a choice of target, each capture pile."""
    ids, hands, caps = t.index.ids_of, t.hand_masks, t.captured_masks
    return [*zip(_HANDS[:len(hands)], map(ids, hands), strict=True), ("field", ids(t.field_mask)),
            ("stock", tuple(map(CARD_ORDER, t.stock))), ("drawn", (pending.id,) if pending else ()),
            *zip(_CAPTURED[:len(caps)], map(ids, caps), strict=True)]


_HANDS = tuple(f"hand.{i}" for i in range(8))  # the zone names of zones(), for up to eight seats (more: an error)
_CAPTURED = tuple(f"captured.{i}" for i in range(8))


def match_mask(t: Table[C], card: BaseCard) -> int:
    """The field cards of ``card``'s suit, as a mask (a suit of 0, a joker, matches nothing)."""
    return t.field_mask & t.index.suits.get(card.suit, 0)


def matches(field: Sequence[C], card: C) -> tuple[C, ...]:
    """The field cards of ``card``'s suit, from a list of cards (for explanations and tests)."""
    suit = card.suit
    if suit == 0:
        return ()
    return tuple([f for f in field if f.suit == suit])


def hand_plays(t: Table[C], seat: int, must_capture: bool = False) -> list[Action]:
    """The ``play`` actions for ``seat``'s hand: ``play c`` or, when two field cards match, ``play c t``
    for each choice. With ``must_capture``, non-capturing plays are left out whenever a capture
    is possible."""
    return plays_of(t.index, t.hand_masks[seat], t.field_mask, must_capture)


#: The numbers of matching field cards among which a played card names the one it takes, as a bit set
#: (bit n: n matches): two; a card with one match or three takes them all.
NAMED_OF_TWO = 1 << 2


def plays_of(index: CardIndex[C], hand: int, field: int, must_capture: bool = False,
             named: int = NAMED_OF_TWO) -> list[Action]:
    """:func:`hand_plays` for a hand and a field given as masks (for the rounds played in place); ``named``:
    the match counts that name a target (:data:`NAMED_OF_TWO`; an engine deviation may say otherwise).

    A card's plays depend on the field cards of its suit alone, so where every suit lies in one hexadecimal
    digit of the masks they are read a byte at a time from ``CardIndex.byte_plays``, the plays of each byte's
    hand and field cards (a must-capture rule looks at the whole hand: :func:`card_plays`)."""
    rows = index.byte_plays.get(named) or index.fill_byte_plays(named)
    if must_capture or not rows:
        out, capturing = card_plays(index, hand, field, named)
        if must_capture and capturing:
            out = capturing
    else:
        out = []
        n = len(rows)
        # (the field may hold cards of a wider index, Kujuroku's jokers: none of them matches a card of this one)
        for row, h, f in zip(rows, hand.to_bytes(n, "little"), (field & ~(-1 << 8 * n)).to_bytes(n, "little"),
                             strict=True):
            if h:
                out += row[h][f]
    if not index.id_order:  # in bit order the plays are already sorted when bits follow ids
        out.sort(key=ACTION_ORDER)
    return out


def card_plays(index: CardIndex[C], hand: int, field: int,
               named: int = NAMED_OF_TWO) -> tuple[list[Action], list[Action]]:
    """The hand plays of each card of ``hand`` on ``field`` (masks), in bit order: ``play c`` for a card that
    takes its one match or all three or stays on the field, ``play c t`` for each field card t it may name
    (a match count of ``named``); and the plays among them that capture."""
    suit_of, play, plays_on = index.suit_of, index.plays, index.plays_on
    out: list[Action] = []
    capturing: list[Action] = []  # the plays of cards that capture
    while hand:  # the hand's cards in bit order
        low = hand & -hand
        hand ^= low
        m = field & suit_of[low]
        if not m:
            out.append(play[low])
        elif named >> (n := m.bit_count()) & 1:  # a choice of target: the lower card first
            on = plays_on[low]
            two = (on[m & -m], on[m & (m - 1)]) if n == 2 else tuple(on[b] for b in bits_of(m))
            out += two
            capturing += two
        else:
            out.append(play[low])
            capturing.append(play[low])
    return out, capturing


def takes_of(index: CardIndex[C], field: int, card: BaseCard, named: int = NAMED_OF_TWO) -> list[Action]:
    """``take t`` actions for a drawn card that matches exactly two field cards of the mask ``field`` (a
    count of ``named``, as in :func:`plays_of`), else none."""
    m = field & index.suits.get(card.suit, 0)
    if not named >> m.bit_count() & 1:
        return []
    take, out = index.takes, []
    while m:  # in bit order
        low = m & -m
        out.append(take[low])
        m ^= low
    if not index.id_order:
        out.sort(key=ACTION_ORDER)
    return out


def bits_of(mask: int) -> list[int]:
    """The one-bit masks of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


#: Bit 0 of each of twelve hexadecimal digits, and bit 2 (set in a count of four): see :func:`suit_counts`.
SUIT_DIGITS = int("1" * 12, 16)
FOURS = 4 * SUIT_DIGITS


def suit_counts(mask: int) -> int:
    """How many cards of each suit a mask holds, each count (0 to 4) in its suit's hexadecimal digit, for a
    deck whose suit s is the four bits 4(s-1) to 4(s-1)+3 (the hanafuda months, the Daini numbers; the
    games check their index at import): a deal's tests of four, three or pairs of a suit look at every
    suit at once (``suit_counts(m) & FOURS``: some suit complete)."""
    c2 = (mask & 0x555555555555) + ((mask >> 1) & 0x555555555555)
    return (c2 & 0x333333333333) + ((c2 >> 2) & 0x333333333333)


def capture(t: Table[C], card: BaseCard, target: int | None) -> tuple[int, int]:
    """Resolve ``card`` against the table's field: the new field mask and the mask of the cards
    captured (the played card included; 0 if nothing was captured, the card then joins the field).
    ``target`` (a card id) is required for exactly two matches."""
    return resolve(t.index, t.field_mask, card, target)


def resolve(index: CardIndex[C], field: int, card: BaseCard, target: int | None) -> tuple[int, int]:
    """:func:`capture` against a field given as a mask, the target checked (one of two matches)."""
    m = field & index.suits.get(card.suit, 0)
    tc = index.by_id.get(target) if target is not None and m.bit_count() == 2 else None
    if m.bit_count() == 2 and (tc is None or not m & tc.mask):
        raise ValueError("two field cards match: a target must be chosen")
    return lands(field, card.mask, m, tc.mask if tc is not None else 0)


def lands(field: int, card: int, matched: int, target: int) -> tuple[int, int]:
    """The one capture of the fishing turn, on masks: ``card`` played to ``field``, where ``matched`` are
    the field cards of its suit. It takes ``target`` when one is named (one of two matches; Koi-Koi's wild
    Lightning names any card it may take), else its one match or all three; with nothing to take it stays
    on the field. Returns the new field and the cards captured (the played card included; 0 for none)."""
    m = target or matched
    if not m:
        return field | card, 0
    return field & ~m, m | card


@functools.cache
def packet_plan(wanted: tuple[tuple[str, int], ...], packet: int) -> tuple[tuple[str, int], ...]:
    """Packets of ``packet`` cards dealt to the recipients of ``wanted`` in turn, each until it holds the
    number of cards it wants (a smaller last packet if need be): a plan for :func:`deal_packets`.

    >>> packet_plan((("ko", 8), ("field", 8), ("dealer", 8)), 4)
    (('ko', 4), ('field', 4), ('dealer', 4), ('ko', 4), ('field', 4), ('dealer', 4))
    >>> packet_plan((("ko", 10), ("field", 8)), 4)
    (('ko', 4), ('field', 4), ('ko', 4), ('field', 4), ('ko', 2))
    """
    dealt = dict.fromkeys((who for who, _ in wanted), 0)
    plan = []
    while any(dealt[who] < n for who, n in wanted):
        for who, n in wanted:
            k = min(packet, n - dealt[who])
            if k:
                plan.append((who, k))
                dealt[who] += k
    return tuple(plan)


Getter = Callable[[Sequence[T]], tuple[T, ...]]


def packet_getters(wanted: tuple[tuple[str, int], ...], packet: int) -> dict[str, Getter[int]]:
    """:func:`packet_plan` as positions in the deck order: recipient -> a function giving the items of a deck
    order (top first) dealt to it. The rest of the deck, from ``sum`` of the wanted counts, is the stock.

    >>> got = packet_getters((("ko", 2), ("field", 1)), 2)
    >>> got["ko"]([5, 6, 7, 8]), got["field"]([5, 6, 7, 8])
    ((5, 6), (7,))
    """
    where: dict[str, list[int]] = {who: [] for who, _ in wanted}
    i = 0
    for who, k in packet_plan(wanted, packet):
        where[who] += range(i, i + k)
        i += k
    return {who: _getter(positions) for who, positions in where.items()}


@functools.cache
def two_hand_dealing(hand: int, field: int, packet: int) -> tuple[Getter[int], Getter[int], Getter[int]]:
    """The two-player deal (Koi-Koi, Kekoro): packets of ``packet`` cards to the ko (the dealer's
    opponent), the field and the dealer in turn, ``hand`` cards to each hand and ``field`` to the table;
    the getters of the ko's, the field's and the dealer's cards (:func:`packet_getters`)."""
    got = packet_getters((("ko", hand), ("field", field), ("dealer", hand)), packet)
    return got["ko"], got["field"], got["dealer"]


def deal_two(dealing: tuple[Getter[int], Getter[int], Getter[int]], mask_of: dict[int, int],
             order: Sequence[int], dealer: int) -> tuple[list[int], int]:
    """The two hands (seat 0 first; ``dealer`` deals) and the field, as masks, dealt from ``order`` (card
    ids, top first) by ``dealing`` (:func:`two_hand_dealing`); ``mask_of`` maps a card id to its mask."""
    ko_of, field_of, dealer_of = dealing
    mask = mask_of.__getitem__
    ko, theirs = sum(map(mask, ko_of(order))), sum(map(mask, dealer_of(order)))  # distinct bits: sum = union
    return [theirs, ko] if dealer == 0 else [ko, theirs], sum(map(mask, field_of(order)))


def _getter(positions: Sequence[int]) -> Getter[int]:
    get = operator.itemgetter(*positions)
    if len(positions) == 1:
        return lambda seq: (get(seq),)
    return get


def deal_packets(order: Sequence[C], plan: Sequence[tuple[str, int]]) -> dict[str, list[C]]:
    """Deal ``order`` (top first) following ``plan``, a list of (recipient, packet size).
    The rest of the deck is returned as recipient ``"stock"``, top first."""
    out: dict[str, list[C]] = {}
    i = 0
    for who, n in plan:
        out.setdefault(who, []).extend(order[i:i + n])
        i += n
    out["stock"] = list(order[i:])
    return out


def explain_hand_play(hand: Sequence[C], field: Sequence[C], action: Action, seat: int,
                      rules: tuple[str, str, str]) -> tuple[str, str] | None:
    """Why a ``play`` action refused by a fishing game is illegal, as far as the shared turn can tell:
    the card is not in the hand, two field cards match and no target was named, or a target was named
    where there is no choice. ``rules`` are the game's rule ids for those three cases. None when the
    action passes these checks (the game then names its own rule, such as a must-capture option)."""
    in_hand, choose, no_choice = rules
    if not action.cards or all(c.id != action.cards[0] for c in hand):
        return in_hand, f"card {action.cards[0] if action.cards else '?'} is not in seat {seat}'s hand"
    c = next(c for c in hand if c.id == action.cards[0])
    m = matches(field, c)
    if len(m) == 2:
        return choose, f"card {c.id} matches {m[0].id} and {m[1].id}: name one of them as target"
    if len(action.cards) > 1:
        return no_choice, f"card {c.id} has {len(m)} match(es) on the field: no target is chosen"
    return None


class FishingRules(Protocol):
    """What :meth:`~hanafuda.fishing.FishingRound.replay` reads of a fishing round's rules."""

    @property
    def named_captures(self) -> int:
        """The match counts that name a target, as ``named`` of :func:`plays_of`."""


class _Phased(Protocol):
    """The fields of a fishing round typed by each game (its own rules and phases) that the replay reads."""

    @property
    def rules(self) -> FishingRules: ...
    @property
    def phase(self) -> enum.Enum: ...


class FishingRound(FastRound[S], Generic[S, C]):
    """A fishing round played in place over the masks of one :class:`CardIndex`: the base of each fishing
    game's round, whose methods are that game's steps. It gives the games one replay of hand plays
    (:meth:`replay`); a round provides :attr:`index`, ``rules`` (:class:`FishingRules`), ``hands`` (a mask
    per seat), ``field``, ``turn``, ``phase``, :meth:`plays_from_masks` and :meth:`play_card`."""

    __slots__ = ()
    index: CardIndex[C]
    hands: list[int]
    field: int
    stock: tuple[C, ...]
    top: int
    turn: int

    def table_now(self, captured: Sequence[int]) -> Table[C]:
        """The zones now, for the round's :meth:`~hanafuda.engine.FastRound.state`: the hands, the field, the
        draw pile ``stock[top:]`` and the capture piles ``captured`` (a mask each)."""
        return new(Table, index=self.index, hand_masks=tuple(self.hands), field_mask=self.field,
                   stock=self.stock[self.top:], captured_masks=tuple(captured))

    @abstractmethod
    def plays_from_masks(self) -> int | None:
        """Whether the next action is a hand play whose legality the masks alone decide (the listed plays are
        exactly :func:`~hanafuda.fishing.plays_of` of ``rules.named_captures``, without a must-capture rule):
        None when it is not; else the cards (a mask, 0 for none) whose presence in the mover's hand or on
        the field may change that answer. Apart from those cards, the answer must depend on the phase
        alone: :meth:`~hanafuda.fishing.FishingRound.replay` asks again only when the phase changes or one
        of them shows up."""

    @abstractmethod
    def play_card(self, card: int, target: int) -> None:
        """The hand play of card mask ``card`` on ``target`` (a mask, 0 for none), and what follows it."""

    def replay(self, actions: Sequence[Action | None], pos: int, stop: int) -> int:
        """:meth:`~hanafuda.engine.FastRound.replay`, a hand play's legality read from the masks where
        :meth:`~hanafuda.fishing.FishingRound.plays_from_masks` says so (asked once per phase): ``play c`` is
        listed by :func:`~hanafuda.fishing.plays_of` when c is in the hand and the number of field cards of
        its month names no target (``rules.named_captures``), ``play c t`` when it does and t is one of
        them. Other actions are searched among the listed ones."""
        plays, suit_of, default = self.index.play_masks.get, self.index.suit_of, FastRound.replay
        me = cast(_Phased, self)  # (self, its rules and phase typed as the replay reads them)
        named = me.rules.named_captures
        while pos < stop:
            blockers = self.plays_from_masks()
            if blockers is None:
                if self.over():
                    break
                nxt = default(self, actions, pos, pos + 1)
                if nxt == pos:
                    break
                pos = nxt
                continue
            phase = me.phase
            while True:  # hand plays, while the phase lasts and none of the blockers shows up
                a = actions[pos]
                if a is None or a.kind != PLAY or a.label:
                    return pos
                found = plays(a.cards)
                if found is None:
                    return pos
                c, t = found
                if not self.hands[self.turn] & c:
                    return pos
                m = self.field & suit_of[c]
                if named >> m.bit_count() & 1:  # a target is named: one of the matches
                    if not t & m:
                        return pos
                elif t:
                    return pos
                self.play_card(c, t)
                pos += 1
                if pos == stop or me.phase is not phase:
                    break
                if blockers and (self.hands[self.turn] | self.field) & blockers:
                    break
        return pos


class FishingState(Protocol):
    """What the position of every fishing game holds (the fields :class:`FishingGame` reads)."""

    @property
    def setup(self) -> RoundSetup: ...
    @property
    def table(self) -> Table[Any]: ...
    @property
    def turn(self) -> int: ...
    @property
    def phase(self) -> enum.Enum: ...
    @property
    def pending(self) -> BaseCard | None: ...


F = TypeVar("F", bound=FishingState)


class FishingGame(RoundGame[F, R]):
    """The contract parts the fishing games share, read from their positions (:class:`FishingState`): who
    moves (nobody once the phase is :attr:`over`), the neutral form of the table, the hanafuda deck and
    every seat in play (a game with other ones says so)."""

    over: ClassVar[enum.Enum]  #: the phase of a round that is over

    def __init__(self) -> None:
        self._over = self.over  # read on every move: an instance attribute is the quicker lookup

    def deck(self, rules: R) -> Deck:
        return HANAFUDA

    def to_move(self, state: F) -> int | None:
        return None if state.phase is self._over else state.turn

    def is_terminal(self, state: F) -> bool:
        return state.phase is self._over

    def snapshot(self, state: F, info: MatchInfo | None = None) -> Snapshot:
        t, setup = state.table, state.setup
        return Snapshot(self.spec.key, tuple(zones(t, state.pending)), self.to_move(state), state.phase.value,
                        setup.dealer, setup.number, info.scores if info else (0,) * len(t.hand_masks))

    def seats_in_play(self, rules: R, info: MatchInfo) -> tuple[int, ...]:
        return tuple(range(self.seats(rules)))
