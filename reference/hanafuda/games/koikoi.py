"""Koi-Koi (こいこい), the two-player fishing game of koi-koi ("come on") and shōbu ("stop").

Rules, citations and decisions: :mod:`hanafuda_spec.games.koikoi`. The oya is the dealer,
the ko the other player; seat numbers are 0 and 1.

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
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from hanafuda_spec.cards import HANAFUDA, BaseCard, Card, Deck
from hanafuda_spec.games import koikoi as spec
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.yaku import ScoredYaku, YakuDef

from hanafuda.engine import (
    ACTION_ORDER,
    Action,
    FastRound,
    Game,
    MatchInfo,
    PileScore,
    RoundResult,
    RoundSetup,
    action,
    evolve,
    pile_score,
)
from hanafuda.fishing import (
    PLAY,
    TAKE,
    CardIndex,
    Table,
    capture,
    deal_packets,
    explain_hand_play,
    hand_plays,
    match_mask,
    packet_plan,
    plays_of,
    resolve,
    take_choices,
    takes_of,
)

__all__ = ["GAME", "INDEX", "KoiKoi", "KoiKoiRules", "KoiKoiState", "Phase"]

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


@dataclass(frozen=True)
class KoiKoiRules:
    """Typed Koi-Koi rules, built from resolved option values (see the catalogue's options)."""

    values: tuple[tuple[str, str], ...]

    def __getitem__(self, key: str) -> str:
        return dict(self.values)[key]

    @functools.cached_property
    def opt(self) -> Mapping[str, str]:
        return dict(self.values)

    @functools.cached_property
    def _scorers(self) -> dict[tuple[int | None, str | None, bool], Callable[[int], tuple[ScoredYaku, ...]]]:
        return {}

    def scorer(self, month: int | None, sake: str | None,
               called: bool = False) -> Callable[[int], tuple[ScoredYaku, ...]]:
        """The scorer of the compiled yaku table for a month, sake-cup reading and whether the holder has
        called koi-koi (viewing_value=1-3): pile mask in, yaku in table order out; built once per rules
        object (so that scoring never hashes the long option tuple)."""
        key = (month, sake, called and self.opt["viewing_value"] != "5")
        found = self._scorers.get(key)
        if found is None:
            found = self._scorers[key] = _scorer(self.values, *key)
        return found

    @functools.cached_property
    def fast_turn(self) -> bool:
        """The turn ``_FastKoiKoi`` implements: turn=standard and after_hands=stop."""
        return self.opt["turn"] == "standard" and self.opt["after_hands"] == "stop"

    @functools.cached_property
    def turn_flags(self) -> tuple[bool, bool, bool, int, bool]:
        """What the turn looks at, read once: viewing=weather (the field matters to scoring),
        discard=must-capture, koikoi_on=new, koikoi_min, and viewing_value other than 5 (a call
        re-values the viewing yaku)."""
        o = self.opt
        return (o["viewing"] == "weather", o["discard"] == "must-capture", o["koikoi_on"] == "new",
                int(o["koikoi_min"]), o["viewing_value"] != "5")

    @functools.cached_property
    def plain_scorers(self) -> dict[int | None, Callable[[int], tuple[ScoredYaku, ...]]] | None:
        """Under :attr:`plain_scoring`, the month given to :meth:`KoiKoi.score` -> :meth:`scorer` of
        no call for that month (of no month where the Cards of the Month are off), filled as months are
        met; else None."""
        return {} if self.plain_scoring else None

    @functools.cached_property
    def month_cards(self) -> bool:
        """KK-YAKU-14: the Cards of the Month score (month_cards=on)."""
        return self.opt["month_cards"] == "on"

    @functools.cached_property
    def plain_scoring(self) -> bool:
        """No option filters a table's answer: the viewing yaku score on their own (viewing=on),
        every yaku counts (yaku_count=all) and the Sake Cup has one reading (not sake_cup=either)."""
        o = self.opt
        return o["viewing"] in ("on", "off") and o["yaku_count"] != "best" and o["sake_cup"] != "either"

    @functools.cached_property
    def koikoi_once(self) -> bool:
        """KK-TURN-8: one koi-koi per round for both players together."""
        return self.opt["koikoi_limit"] == "once-per-round"

    @functools.cached_property
    def koikoi_needs_hand(self) -> bool:
        """KK-TURN-9: no koi-koi with an empty hand."""
        return self.opt["koikoi_last_turn"] == "forbidden"

    @property
    def hand_size(self) -> int:
        return int(self.opt["hand_size"])

    @functools.cached_property
    def dealing(self) -> tuple[Callable[[Sequence[int]], tuple[int, ...]], Callable[[Sequence[int]], tuple[int, ...]],
                               Callable[[Sequence[int]], tuple[int, ...]]]:
        """KK-DEAL-1 as positions in the deck order: getters of the cards dealt to the ko (the dealer's
        opponent), the table and the dealer (:func:`packet_plan`; the rest, from :attr:`stock_start`,
        is the draw pile)."""
        plan = packet_plan((("ko", self.hand_size), ("field", 8), ("dealer", self.hand_size)), int(self.opt["packets"]))
        where: dict[str, list[int]] = {"ko": [], "field": [], "dealer": []}
        i = 0
        for who, k in plan:
            where[who] += range(i, i + k)
            i += k
        return _getter(where["ko"]), _getter(where["field"]), _getter(where["dealer"])

    @property
    def stock_start(self) -> int:
        """The position of the draw pile's top card in the deck order (after the deal)."""
        return 2 * self.hand_size + 8

    @functools.cached_property
    def deal_checks(self) -> tuple[bool, bool, bool, bool] | None:
        """What :meth:`KoiKoi.deal_fast` looks at, read once: field_three=misdeal, field_pairs=misdeal,
        whether lucky hands are looked for (teyaku other than off) and hand_pairs=on; None where the
        fast round does not play these rules (:attr:`fast_turn`) or the Lightning may be wild."""
        o = self.opt
        if not self.fast_turn or o["lightning"] == "wild":
            return None
        return (o["field_three"] == "misdeal", o["field_pairs"] == "misdeal", o["teyaku"] != "off",
                o["hand_pairs"] == "on")


@dataclass(frozen=True)
class KoiKoiState:
    """One position of a Koi-Koi round."""

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


@dataclass(frozen=True, slots=True)
class _Compiled:
    """A yaku row as bit masks (same meaning as :class:`YakuDef.value`)."""

    yid: str
    group: str | None
    points: int
    pool: int
    need: int
    required: int
    forbidden: int
    extra_pool: int
    extra_from: int
    extra: int
    doubled: int

    def value(self, pile: int) -> int:
        if pile & self.required != self.required or pile & self.forbidden:
            return 0
        held = pile & self.pool
        if held.bit_count() + (held & self.doubled).bit_count() < self.need:
            return 0
        if not self.extra_pool:
            return self.points
        ex = pile & self.extra_pool
        return self.points + self.extra * max(0, ex.bit_count() + (ex & self.doubled).bit_count() - self.extra_from)


#: The hanafuda deck as bits: the card sets of a Koi-Koi table are masks over this index.
INDEX: CardIndex[Card] = CardIndex(c for c in HANAFUDA.cards if isinstance(c, Card))

#: Every hanafuda card by id (``card(id)`` parses text; this is a plain table for the hot paths).
_CARD: dict[int, Card] = INDEX.by_id
#: Card id -> its mask, and a card's mask -> the mask of its month (plain tables for the hot paths).
_MASK_OF: dict[int, int] = {c.id: c.mask for c in INDEX.cards}
_SUIT_OF: dict[int, int] = INDEX.suit_of


def _mask(ids: frozenset[int]) -> int:
    m = 0
    for i in ids:
        m |= _CARD[i].mask
    return m


def _compile(y: YakuDef) -> _Compiled:
    return _Compiled(y.id, y.group, y.points, _mask(y.pool), y.need, _mask(y.required), _mask(y.forbidden),
                     _mask(y.extra_pool), y.extra_from, y.extra, _mask(y.doubled))


#: A yaku a block finds in a pile: (index in the table, points, id, group or None).
_Found = tuple[int, int, str, "str | None"]

#: Blocks looking at no more cards than this get a lookup table (at most 2**12 entries each).
_LOOKUP_BITS = 12

#: Adjacent lookup tables are merged into one while together they look at no more cards than this
#: (at most 2**14 entries, each built from the two tables it merges, not by scoring again).
_MERGE_BITS = 14


class _Block(NamedTuple):
    """Rows scored together: a run of rows of one group, or one ungrouped row. ``pool`` and
    ``doubled`` are the union of the rows' and ``need`` the least of theirs, so that a pile with
    too few of the block's cards skips every row of the block at once. ``cards`` is every card any of
    the rows looks at; a block with few of them has ``lookup``, what it finds for each subset of
    ``cards`` (a table of every case, built with the block). (A named tuple: the scoring loop unpacks
    it.)"""

    pool: int
    doubled: int
    need: int
    rows: tuple[tuple[int, _Compiled], ...]  #: (index in the table, row)
    cards: int
    lookup: dict[int, tuple[_Found, ...]] | None


def _found(rows: tuple[tuple[int, _Compiled], ...], pile: int) -> tuple[_Found, ...]:
    """What a block's rows find in ``pile``: every ungrouped row that forms, and the best row of the
    group (the first on a tie)."""
    out: list[_Found] = []
    best: _Found | None = None
    for i, y in rows:
        v = y.value(pile)
        if v <= 0:
            continue
        if y.group is None:
            out.append((i, v, y.yid, None))
        elif best is None or v > best[1]:
            best = (i, v, y.yid, y.group)
    if best is not None:
        out.append(best)
    return tuple(out)


def _subsets(mask: int) -> list[int]:
    """Every subset of a mask (the empty set included)."""
    out, sub = [], mask
    while True:
        out.append(sub)
        if not sub:
            return out
        sub = (sub - 1) & mask


@functools.lru_cache(maxsize=512)
def _found_table(rows: tuple[tuple[int, _Compiled], ...], cards: int) -> dict[int, tuple[_Found, ...]]:
    """What a block's rows find in each subset of its cards (shared by every table holding the block)."""
    return {sub: _found(rows, sub) for sub in _subsets(cards)}


@functools.lru_cache(maxsize=512)
def _blocks(rows: tuple[_Compiled, ...]) -> tuple[_Block, ...]:
    """The blocks of compiled rows (cached by the rows: assignments that differ only in options the
    yaku table does not read, as ``identify`` tries by the hundred, share one table)."""
    runs: list[list[tuple[int, _Compiled]]] = []
    for i, y in enumerate(rows):
        if y.group is not None and runs and runs[-1][0][1].group == y.group:
            runs[-1].append((i, y))
        else:
            runs.append([(i, y)])
    out = []
    for run in runs:
        pool = doubled = cards = 0
        for _, y in run:
            pool |= y.pool
            doubled |= y.doubled
            cards |= y.pool | y.required | y.forbidden | y.extra_pool | y.doubled
        block = tuple(run)
        lookup = _found_table(block, cards) if cards.bit_count() <= _LOOKUP_BITS else None
        out.append(_Block(pool, doubled, min(y.need for _, y in run), block, cards, lookup))
    return tuple(out)


def _rows(values: tuple[tuple[str, str], ...], month: int | None, sake: str | None,
          called: bool = False) -> tuple[_Compiled, ...]:
    """The catalogue's yaku table for these options, compiled to masks."""
    return tuple(_compile(y) for y in spec.yaku_table(dict(values), month, sake, called))


_WILLOW = INDEX.suit_mask(11)
_PAULOWNIA = INDEX.suit_mask(12)
_VIEWING = ("flower-viewing", "moon-viewing")


#: ``ScoredYaku(id, points)``, built once and then shared (it is immutable and compares by value).
_scored = functools.cache(ScoredYaku)


def _score_with(table: tuple[_Block, ...], pile: int) -> list[ScoredYaku]:
    """The yaku of ``pile`` in table order, keeping the best of each group (the first on a tie).
    The general scorer, for any table; :class:`_Scorer` is the fast one, checked against it."""
    best: dict[str, tuple[int, int, str]] = {}
    chosen: list[tuple[int, int, str]] = []
    for pool, doubled, need, rows, cards, lookup in table:
        if lookup is not None:
            found = lookup[pile & cards]
        else:
            held = pile & pool
            n = held.bit_count()
            if doubled:
                n += (held & doubled).bit_count()
            if n < need:
                continue  # too few of the block's cards for any of its rows
            found = _found(rows, pile)
        for i, v, yid, group in found:
            if group is None:
                chosen.append((i, v, yid))
            else:
                cur = best.get(group)
                if cur is None or v > cur[1]:
                    best[group] = (i, v, yid)
    if not chosen and not best:
        return []
    chosen.extend(best.values())
    chosen.sort()
    return [_scored(yid, v) for _, v, yid in chosen]


# The fast scorer. When every group's rows are one run of the table (true of every Koi-Koi table),
# a pile's yaku are the concatenation, in table order, of what each block finds: so a block's
# lookup table can hold its answer ready-made (a tuple of ScoredYaku), adjacent lookup tables can be
# merged into one, and a block whose rows only count the cards of one pool (Chaff) becomes a table
# indexed by that count. Scoring a pile is then one lookup per part and tuple concatenation.

def _ready(found: tuple[_Found, ...]) -> tuple[ScoredYaku, ...]:
    return tuple(_scored(yid, v) for _, v, yid, _g in found)


@functools.lru_cache(maxsize=512)
def _lookup(rows: tuple[tuple[int, _Compiled], ...], cards: int) -> dict[int, tuple[ScoredYaku, ...]]:
    """A block's answers for every subset of its cards (shared by every table holding the block: the
    tables of the twelve months differ only in the Cards of the Month)."""
    return {sub: _ready(_found(rows, sub)) for sub in _subsets(cards)}


@functools.lru_cache(maxsize=512)
def _merged(blocks: tuple[tuple[tuple[tuple[int, _Compiled], ...], int], ...]) -> dict[int, tuple[ScoredYaku, ...]]:
    """One lookup table for adjacent blocks ``(rows, cards)``: for each subset of their cards, the
    concatenation of what each block finds (built from the blocks' own tables; shared by every table
    holding these blocks, as the twelve months' tables do)."""
    merged = _lookup(*blocks[0])
    cards = blocks[0][1]
    for rows, more in blocks[1:]:
        lookup, prev = _lookup(rows, more), merged
        merged = {sub: prev[sub & cards] + lookup[sub & more] for sub in _subsets(cards | more)}
        cards |= more
    return merged


def _counted(block: _Block) -> tuple[tuple[ScoredYaku, ...], ...] | None:
    """A block whose rows look only at how many cards of one pool the pile holds (no required or
    forbidden cards, bonuses over the same pool): its answers by count; else None."""
    pool, doubled = block.pool, block.doubled
    for _, y in block.rows:
        if y.required or y.forbidden or y.pool != pool or y.extra_pool not in (0, pool) or y.doubled != doubled:
            return None
    # every pile holding d doubled and p plain cards of the pool counts 2d + p and gets one answer
    doubles, plains = _bits(pool & doubled), _bits(pool & ~doubled)
    answers: dict[int, tuple[ScoredYaku, ...]] = {}
    for d in range(len(doubles) + 1):
        for p in range(len(plains) + 1):
            answers.setdefault(2 * d + p, _ready(_found(block.rows, sum(doubles[:d]) + sum(plains[:p]))))
    # a count no pile reaches is never looked up: it gets the answer of the count below
    out: list[tuple[ScoredYaku, ...]] = []
    for n in range(max(answers) + 1):
        out.append(answers.get(n, out[-1] if out else ()))
    return tuple(out)


def _bits(mask: int) -> list[int]:
    """The one-bit masks of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


class _Scorer:
    """The yaku of a pile (a mask) for one table, by lookups (see above). Built once per table, for
    the tables :meth:`applies` to: ``lookups`` are ``(cards, table)`` pairs, ``table[pile & cards]``
    holding what the blocks of those cards find; ``tail`` is the last block when it only counts the
    cards of a pool (Chaff): ``(pool, doubled, by_count)``, ``by_count[n]`` what it finds when the
    pile holds ``n`` of the pool, ``doubled`` ones twice."""

    __slots__ = ("lookups", "tail")

    def __init__(self, table: tuple[_Block, ...]) -> None:
        *blocks, last = table
        counted = _counted(last) if last.lookup is None else None
        if counted is None:
            blocks.append(last)
            self.tail: tuple[int, int, tuple[tuple[ScoredYaku, ...], ...]] | None = None
        else:
            self.tail = (last.pool, last.doubled, counted)
        lookups: list[tuple[int, dict[int, tuple[ScoredYaku, ...]]]] = []
        run: list[_Block] = []  # adjacent blocks merged into one table while it looks at few cards
        for block in blocks:
            if run and (_cards(run) | block.cards).bit_count() > _MERGE_BITS:
                lookups.append((_cards(run), _merged(tuple((b.rows, b.cards) for b in run))))
                run = []
            run.append(block)
        if run:
            lookups.append((_cards(run), _merged(tuple((b.rows, b.cards) for b in run))))
        self.lookups = tuple(lookups)

    @staticmethod
    def applies(table: tuple[_Block, ...]) -> bool:
        """Whether every group's rows are one block, and every block has a lookup table but perhaps
        the last, which then only counts the cards of a pool."""
        groups = [b.rows[0][1].group for b in table if b.rows[0][1].group is not None]
        return (len(groups) == len(set(groups)) and all(b.lookup is not None for b in table[:-1])
                and (table[-1].lookup is not None or _counted(table[-1]) is not None))

    def __call__(self, pile: int) -> tuple[ScoredYaku, ...]:
        out: tuple[ScoredYaku, ...] = ()
        for cards, table in self.lookups:
            out += table[pile & cards]
        if self.tail is None:
            return out
        pool, doubled, by_count = self.tail
        held = pile & pool
        return out + by_count[held.bit_count() + (held & doubled).bit_count()]

    def function(self) -> Callable[[int], tuple[ScoredYaku, ...]]:
        """``__call__`` as a closure written out for the shapes of the catalogue's tables (two or
        three lookup tables and a counted pool, the Chaff): the same sum of the same lookups, without
        the loop and the attribute reads (a quarter of the time of scoring a mask). Other shapes get
        ``__call__`` itself."""
        if self.tail is None or len(self.lookups) not in (2, 3):
            return self.__call__
        pool, doubled, by_count = self.tail
        if len(self.lookups) == 2:
            (c1, t1), (c2, t2) = self.lookups

            def two(pile: int) -> tuple[ScoredYaku, ...]:
                held = pile & pool
                return t1[pile & c1] + t2[pile & c2] + by_count[held.bit_count() + (held & doubled).bit_count()]
            return two
        (c1, t1), (c2, t2), (c3, t3) = self.lookups

        def three(pile: int) -> tuple[ScoredYaku, ...]:
            held = pile & pool
            return (t1[pile & c1] + t2[pile & c2] + t3[pile & c3]
                    + by_count[held.bit_count() + (held & doubled).bit_count()])
        return three


def _cards(blocks: Sequence[_Block]) -> int:
    """Every card some row of ``blocks`` looks at."""
    return functools.reduce(operator.or_, (b.cards for b in blocks))


@functools.lru_cache(maxsize=256)
def _scorer(values: tuple[tuple[str, str], ...], month: int | None, sake: str | None,
            called: bool = False) -> Callable[[int], tuple[ScoredYaku, ...]]:
    """The fastest scorer for a table: :class:`_Scorer` (as ``_Scorer.function``) where it applies,
    else :func:`_score_with`."""
    return _scorer_of(_rows(values, month, sake, called))


@functools.lru_cache(maxsize=512)
def _scorer_of(rows: tuple[_Compiled, ...]) -> Callable[[int], tuple[ScoredYaku, ...]]:
    """:func:`_scorer` of compiled rows (built once per distinct table, whatever options led to it)."""
    table = _blocks(rows)
    if _Scorer.applies(table):
        return _Scorer(table).function()
    return lambda pile: tuple(_score_with(table, pile))


def score_mask(rules: KoiKoiRules, pile: int, month: int | None, field: int = 0,
               called: bool = False) -> tuple[ScoredYaku, ...]:
    """The yaku of a capture pile given as a bit mask, after every scoring option
    (KK-YAKU-1…19; viewing, sake_cup and yaku_count options). ``called``: the holder has called
    koi-koi this round (KK-YAKU-17)."""
    if rules.plain_scoring:  # no option filters the table's answer (the default rules)
        return rules.scorer(month, None, called)(pile)
    opt = rules.opt
    if opt["sake_cup"] == "either":
        a = list(rules.scorer(month, "animal", called)(pile))
        c = list(rules.scorer(month, "chaff", called)(pile))
        a, c = _filter(opt, a, field), _filter(opt, c, field)
        found = a if sum(y.points for y in a) >= sum(y.points for y in c) else c
    else:
        found = _filter(opt, list(rules.scorer(month, None, called)(pile)), field)
    if opt["yaku_count"] == "best" and found:
        top = max(found, key=lambda y: y.points)
        found = [top]
    return tuple(found)


def _filter(opt: Mapping[str, str], found: list[ScoredYaku], field: int) -> list[ScoredYaku]:
    mode = opt["viewing"]
    if mode == "need-other" and not any(y.id not in _VIEWING for y in found):
        return [y for y in found if y.id not in _VIEWING]
    if mode == "weather":
        if field & _WILLOW:
            found = [y for y in found if y.id != "flower-viewing"]
        if field & _PAULOWNIA:
            found = [y for y in found if y.id != "moon-viewing"]
    return found


# -- lucky hands ---------------------------------------------------------------------------


LIGHTNING = 113

#: The cards of every hanafuda month as bit masks over :data:`INDEX`.
_MONTHS = tuple(INDEX.suit_mask(m) for m in range(1, 13))
_LIGHTNING = _CARD[LIGHTNING].mask
_BRIGHTS = _mask(frozenset(spec.BRIGHTS))
_SUSUKI = INDEX.suit_mask(8)


def _lightning_wild(rules: KoiKoiRules, field: int) -> bool:
    """KK-WILD-5: whether the Lightning is wild this round (always, or only if Susuki was dealt to the table)."""
    mode = rules.opt["lightning"]
    return mode == "wild" or (mode == "wild-if-susuki" and bool(field & _SUSUKI))


def _month_counts(cards: int) -> list[int]:
    """How many cards of each month (January first) a card set (a mask) holds."""
    return [(cards & m).bit_count() for m in _MONTHS]


def _teshi(counts: Sequence[int]) -> bool:
    """All four cards of a month (``counts`` from :func:`_month_counts`)."""
    return 4 in counts


def _kuttsuki(counts: Sequence[int]) -> bool:
    """At least four pairs of a month; four of a month counts as two pairs (decision KK-16)."""
    return sum([n // 2 for n in counts]) >= 4


# The same tests on every month at once: each month's four cards are four adjacent bits of INDEX (a
# hexadecimal digit of a mask; checked below), so a digit of _nibble_counts(mask) is how many cards of
# that month the mask holds.
_DIGITS_1 = int("1" * 12, 16)
_FOURS = 4 * _DIGITS_1  #: a count of 4 in some month (the counts are at most 4)
if tuple(0xF << 4 * i for i in range(12)) != _MONTHS:  # pragma: no cover - the deck's bit layout
    raise ImportError("Koi-Koi's month tests expect each month's cards in four adjacent bits")


def _nibble_counts(mask: int) -> int:
    """Each month's card count (:func:`_month_counts`) in that month's hexadecimal digit."""
    c2 = (mask & 0x555555555555) + ((mask >> 1) & 0x555555555555)
    return (c2 & 0x333333333333) + ((c2 >> 2) & 0x333333333333)


def _three(n: int) -> bool:
    """Some month with 3 or more cards, from :func:`_nibble_counts`: ``max(counts) >= 3``."""
    return bool(n & _FOURS or n & (n >> 1) & _DIGITS_1)


def _pairs(n: int) -> int:
    """``sum(count // 2)`` over the months, from :func:`_nibble_counts` (each halved count is 0, 1 or 2)."""
    half = (n >> 1) & (7 * _DIGITS_1)
    return (half & _DIGITS_1).bit_count() + 2 * (half & (2 * _DIGITS_1)).bit_count()


def _getter(positions: Sequence[int]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """A function giving the items at ``positions`` of a sequence, as a tuple."""
    get = operator.itemgetter(*positions)
    if len(positions) == 1:
        return lambda seq: (get(seq),)
    return get


def _moved(t: Table[Card], seat: int, field: int, got: int, hand: int | None = None,
           stock: tuple[Card, ...] | None = None) -> Table[Card]:
    """The table after a play by ``seat``: the new field, ``got`` added to the seat's capture pile,
    and the seat's new hand and the new stock where given (one copy of the table)."""
    hands, caps = t.hand_masks, t.captured_masks
    if hand is not None:
        hands = (hand, hands[1]) if seat == 0 else (hands[0], hand)
    if got:
        caps = (caps[0] | got, caps[1]) if seat == 0 else (caps[0], caps[1] | got)
    return evolve(t, hand_masks=hands, field_mask=field, captured_masks=caps,
                  stock=t.stock if stock is None else stock)


class KoiKoi(Game[KoiKoiState, KoiKoiRules]):
    """Koi-Koi under the FudaWiki rules and their variations."""

    spec = spec.SPEC

    def make_rules(self, values: Mapping[str, str]) -> KoiKoiRules:
        return KoiKoiRules(tuple(sorted(values.items())))

    def deck(self, rules: KoiKoiRules) -> Deck:
        return HANAFUDA

    def seats(self, rules: KoiKoiRules) -> int:
        return 2

    # -- the deal ----------------------------------------------------------------------
    def start_round(self, rules: KoiKoiRules, order: Sequence[BaseCard], setup: RoundSetup) -> KoiKoiState:
        cards = [c for c in order if isinstance(c, Card)]
        if len(cards) != 48:
            raise ValueError("Koi-Koi deals from the 48-card hanafuda deck")
        dealer = setup.dealer
        # KK-DEAL-1: packets to the opponent (ko), the table and the dealer in turn
        size = rules.hand_size
        got = deal_packets(cards, packet_plan((("ko", size), ("field", 8), ("dealer", size)),
                                              int(rules.opt["packets"])))
        hands = (got["dealer"], got["ko"]) if dealer == 0 else (got["ko"], got["dealer"])
        table = Table.deal(INDEX, hands, got["field"], got["stock"])
        field = table.field_mask
        state = KoiKoiState(rules, setup, table, dealer, Phase.PLAY, field_brights=(field & _BRIGHTS).bit_count(),
                            lightning_wild=_lightning_wild(rules, field))
        state = self._check_deal(state)
        return self._begin_turn(state) if state.phase is Phase.PLAY else state

    def _check_deal(self, s: KoiKoiState) -> KoiKoiState:
        opt = s.rules.opt
        field = s.table.field_mask
        mode = opt["field_teyaku"]
        counts = _month_counts(field)
        four = _teshi(counts)
        if (mode == "misdeal" and four) or (opt["field_three"] == "misdeal" and max(counts) >= 3):
            return evolve(s, phase=Phase.OVER, end="misdeal")  # KK-DEAL-3, KK-DEAL-9
        pairs_void = opt["field_pairs"] == "misdeal"  # KK-DEAL-10
        if pairs_void and mode != "dealer-captures" and _kuttsuki(counts):
            return evolve(s, phase=Phase.OVER, end="misdeal")  # KK-DEAL-3
        if mode == "dealer-wins" and four:
            return evolve(s, phase=Phase.OVER, end="field-teyaku", winner=s.dealer,
                           teyaku_points=(6, 0) if s.dealer == 0 else (0, 6))
        if mode == "dealer-captures":
            t = s.table
            while _teshi(_month_counts(t.field_mask)):
                if len(t.stock) < 4:  # KK-DEAL-8: the draw pile cannot replace the four cards
                    return evolve(s, phase=Phase.OVER, end="misdeal")
                quad = next(m for m in _MONTHS if (t.field_mask & m).bit_count() == 4)  # the earliest month
                new = INDEX.mask_of(t.stock[:4])
                t = evolve(t, field_mask=(t.field_mask & ~quad) | new, stock=t.stock[4:]).add_captured(s.dealer, quad)
            if pairs_void and _kuttsuki(_month_counts(t.field_mask)):  # KK-DEAL-10: the table play begins with
                return evolve(s, phase=Phase.OVER, end="misdeal")
            s = evolve(s, table=t)
        hand_mode = opt["teyaku"]
        if hand_mode == "off":
            return s
        pts = []
        hand_pairs = opt["hand_pairs"] == "on"  # KK-DEAL-11
        for h in s.table.hand_masks:
            counts = _month_counts(h)
            a, b = _teshi(counts), hand_pairs and _kuttsuki(counts)
            pts.append(int(opt["teyaku_both"]) if a and b else 6 if a or b else 0)
        if not any(pts):
            return s
        if hand_mode == "misdeal":
            return evolve(s, phase=Phase.OVER, end="misdeal")
        if all(pts):
            return evolve(s, phase=Phase.OVER, end="teyaku-draw")
        w = 0 if pts[0] else 1  # KK-DEAL-4; points not multiplied (KK-DEAL-6)
        return evolve(s, phase=Phase.OVER, end="teyaku", winner=w, teyaku_points=(pts[0], pts[1]))

    # -- play ----------------------------------------------------------------------------
    def to_move(self, state: KoiKoiState) -> int | None:
        return None if state.phase is Phase.OVER else state.turn

    def legal_actions(self, state: KoiKoiState) -> tuple[Action, ...]:
        if state.phase is Phase.DRAW:
            return (action(DRAW),)
        t = state.table
        if state.phase in (Phase.PLAY, Phase.PLAY_SECOND):
            must = state.rules.opt["discard"] == "must-capture"
            plays = hand_plays(t, state.turn, must)
            if state.lightning_wild and t.hand_masks[state.turn] & _LIGHTNING:  # KK-WILD-1
                wild = {action(PLAY, (LIGHTNING, f.id)) for f in INDEX.cards_of(t.field_mask & ~_WILLOW)}
                plays = sorted(set(plays) | wild, key=ACTION_ORDER)
                if must and wild:
                    plays = [a for a in plays if a in wild or match_mask(t, _CARD[a.cards[0]])]
            return tuple(plays)
        if state.phase is Phase.TAKE:
            assert state.pending is not None
            if state.lightning_wild and state.pending.id == LIGHTNING:  # KK-WILD-3
                return tuple(action(TAKE, (f.id,)) for f in INDEX.cards_of(t.field_mask & ~_WILLOW))
            return tuple(take_choices(t, state.pending))
        if state.phase is Phase.CALL:
            return (action(KOIKOI), action(STOP)) if self._may_koikoi(state) else (action(STOP),)
        return ()

    def _may_koikoi(self, state: KoiKoiState) -> bool:
        """KK-TURN-8 (once per round for both players) and KK-TURN-9 (not with an empty hand); with
        neither, the decision point offers shōbu alone (decision KK-25)."""
        r = state.rules
        if r.koikoi_once and (state.calls[0] or state.calls[1]):
            return False
        return not (r.koikoi_needs_hand and not state.table.hand_masks[state.turn])

    def do(self, state: KoiKoiState, action: Action) -> KoiKoiState:
        t = state.table
        p = state.turn
        if action.kind == PLAY:
            c = _CARD[action.cards[0]]
            target = action.cards[1] if len(action.cards) > 1 else None
            hand = t.hand_masks[p] & ~c.mask
            if state.lightning_wild and c.id == LIGHTNING and target is not None and _CARD[target].suit != 11:
                field, got = t.field_mask & ~_CARD[target].mask, c.mask | _CARD[target].mask  # KK-WILD-1
            else:
                field, got = capture(t, c, target)
            mode = state.rules.opt["turn"]
            if state.phase is Phase.PLAY and mode != "draw-first" and t.stock:  # KK-TURN-2: now the draw
                return self._play_drawn(state, t, field, got, hand, keep=mode == "keep-unmatched")
            t = _moved(t, p, field, got, hand=hand)
            if state.phase is Phase.PLAY_SECOND:  # the turn's second hand play ends it (KK-TURN-6, KK-TURN-7)
                return self._end_turn(state, t)
            if mode == "draw-first" and hand:
                return evolve(state, table=t, phase=Phase.PLAY_SECOND)  # KK-TURN-6
            # draw-first with nothing left for a second play (only when the draw pile ran dry), or an
            # empty draw pile (only after dealer-captures with 10-card hands, KK-TURN-5)
            return self._end_turn(state, t)
        if action.kind == DRAW:  # KK-END-5: a draw-only turn once both hands are empty
            return self._play_drawn(state, t, t.field_mask, 0, t.hand_masks[p], keep=False)
        if action.kind == TAKE:
            drawn = state.pending
            assert drawn is not None
            if state.lightning_wild and drawn.id == LIGHTNING:  # KK-WILD-3
                taken = _CARD[action.cards[0]].mask
                field, got = t.field_mask & ~taken, drawn.mask | taken
            else:
                field, got = capture(t, drawn, action.cards[0])
            return self._end_turn(state, _moved(t, p, field, got))
        if action.kind == KOIKOI:
            calls = (state.calls[0] + (p == 0), state.calls[1] + (p == 1))
            if state.rules.opt["viewing_value"] != "5" and calls[p] == 1:
                # KK-YAKU-17: the first call re-values the caller's viewing yaku; that is not an improvement
                now = self._yaku_now(evolve(state, calls=calls), p)
                seen = (now, state.seen[1]) if p == 0 else (state.seen[0], now)
                return self._pass(state, t, calls=calls, seen=seen)
            return self._pass(state, t, calls=calls)
        if action.kind == STOP:
            return evolve(state, phase=Phase.OVER, end="shobu", winner=p)
        raise AssertionError(action)

    def _play_drawn(self, state: KoiKoiState, t: Table[Card], field: int, got: int, hand: int,
                    keep: bool) -> KoiKoiState:
        """Turn the draw pile's top card and play it (KK-CAP-6), with the wild Lightning rules
        (KK-WILD-2…4) and turn=keep-unmatched (KK-TURN-7). ``t`` is the table at the start of the play;
        ``field``, ``got`` and ``hand`` are the field, the cards captured and the player's hand after the
        hand card (all masks), so that the table of the turn is built once."""
        p = state.turn
        drawn, stock = t.stock[0], t.stock[1:]

        def after(field: int, more: int = 0, hand: int = hand) -> Table[Card]:
            return _moved(t, p, field, got | more, hand=hand, stock=stock)

        if state.lightning_wild:
            if drawn.id == LIGHTNING:
                if not stock:  # KK-WILD-4: the last card of the draw pile takes everything left
                    return self._end_turn(state, after(0, field | drawn.mask))
                targets = field & ~_WILLOW
                if targets.bit_count() > 1:  # KK-WILD-3: the player chooses which card it takes
                    return evolve(state, table=after(field), phase=Phase.TAKE, pending=drawn)
                if targets:
                    return self._end_turn(state, after(field & ~targets, drawn.mask | targets))
                if keep:  # nothing it may take: an unmatched drawn card (KK-TURN-7)
                    return evolve(state, table=after(field, hand=hand | drawn.mask), phase=Phase.PLAY_SECOND)
                return self._end_turn(state, after(field | drawn.mask))
            if field & _LIGHTNING and drawn.suit != 11:  # KK-WILD-2: the first non-Willow drawn takes it
                return self._end_turn(state, after(field & ~_LIGHTNING, drawn.mask | _LIGHTNING))
        m = field & INDEX.suit_mask(drawn.suit)
        if keep and not m:  # KK-TURN-7
            return evolve(state, table=after(field, hand=hand | drawn.mask), phase=Phase.PLAY_SECOND)
        if m.bit_count() == 2:
            return evolve(state, table=after(field), phase=Phase.TAKE, pending=drawn)
        field, more = resolve(INDEX, field, drawn, None)  # KK-CAP-6
        return self._end_turn(state, after(field, more))

    def _yaku_now(self, state: KoiKoiState, seat: int, t: Table[Card] | None = None) -> tuple[ScoredYaku, ...]:
        """The yaku of ``seat``'s capture pile on table ``t`` (the state's table by default)."""
        t = state.table if t is None else t
        weather = state.rules.opt["viewing"] == "weather"  # only the weather rule looks at the field
        return score_mask(state.rules, t.captured_masks[seat], self._month(state), t.field_mask if weather else 0,
                          state.calls[seat] > 0)

    def _month(self, state: KoiKoiState) -> int | None:
        return state.month if state.rules.opt["month_cards"] == "on" else None

    def _end_turn(self, state: KoiKoiState, t: Table[Card]) -> KoiKoiState:
        """KK-TURN-3: after both plays (``t`` is the table they left), a new or improved yaku gives the
        koi-koi/shōbu choice."""
        p = state.turn
        now = self._yaku_now(state, p, t)
        if now == state.seen[p]:  # nothing new or improved (the common case)
            return self._pass(state, t)
        before = {y.id: y.points for y in state.seen[p]}
        new = any(y.id not in before for y in now)
        improved = new or any(y.points > before[y.id] for y in now if y.id in before)
        seen = (now, state.seen[1]) if p == 0 else (state.seen[0], now)
        last_improver = p if improved else state.last_improver
        changes = {"seen": seen, "last_improver": last_improver}
        decides = new if state.rules.opt["koikoi_on"] == "new" else improved
        if decides:
            if sum(y.points for y in now) < int(state.rules.opt["koikoi_min"]):
                return evolve(state, table=t, pending=None, phase=Phase.OVER, end="shobu", winner=p,
                              **changes)  # KK-TURN-4
            return evolve(state, table=t, pending=None, phase=Phase.CALL, **changes)
        return self._pass(state, t, **changes)

    def _pass(self, state: KoiKoiState, t: Table[Card], **changes: object) -> KoiKoiState:
        """The turn passes to the other player (with ``changes`` to the state), unless the round is over."""
        p = state.turn
        nxt = 1 - p
        if not t.hand_masks[nxt]:
            if state.rules.opt["after_hands"] == "draw-pile" and not t.hand_masks[p] and t.stock:
                return evolve(state, table=t, turn=nxt, phase=Phase.DRAW, pending=None, **changes)  # KK-END-5
            return evolve(state, table=t, phase=Phase.OVER, end="exhaustive", pending=None, **changes)  # KK-END-2
        return self._begin_turn(evolve(state, table=t, turn=nxt, phase=Phase.PLAY, pending=None, **changes))

    def _begin_turn(self, state: KoiKoiState) -> KoiKoiState:
        """KK-TURN-6: with turn=draw-first the turn starts by drawing the top card into the hand."""
        t = state.table
        if state.rules.opt["turn"] != "draw-first" or not t.stock:
            return state
        p = state.turn
        t = _moved(t, p, t.field_mask, 0, hand=t.hand_masks[p] | t.stock[0].mask, stock=t.stock[1:])
        return evolve(state, table=t)

    def fast_round(self, state: KoiKoiState) -> FastRound[KoiKoiState] | None:
        """The round played in place (``_FastKoiKoi``) under the turn rules it implements: the
        standard turn (turn=standard), no wild Lightning this round, and the round ending when the hands
        are empty (after_hands=stop); every other option is the reference's (deals, scoring, results)."""
        if state.phase is not Phase.PLAY or state.lightning_wild or not state.rules.fast_turn:
            return None
        return _FastKoiKoi(self, state)

    def deal_fast(self, rules: KoiKoiRules, order: Sequence[int], setup: RoundSetup) -> FastRound[KoiKoiState] | None:
        """The deal of :meth:`start_round` straight into the fast round, where :meth:`fast_round` would
        take its first position: the fast round's rules, no wild Lightning, and a deal that none of
        ``_check_deal``'s tests can touch (no four of a month on the table, nor three under
        field_three=misdeal, nor four pairs under field_pairs=misdeal; where lucky hands are looked for,
        no hand with four of a month or, under hand_pairs=on, four pairs). Any other deal, even one
        that option values would let play, is left to :meth:`start_round` (None)."""
        checks = rules.deal_checks
        if checks is None or len(order) != 48:
            return None
        ko_of, field_of, dealer_of = rules.dealing
        mask_of = _MASK_OF.__getitem__
        field = sum(map(mask_of, field_of(order)))  # distinct bits: the sum is the union
        if _lightning_wild(rules, field):  # KK-WILD-5 (lightning=wild-if-susuki): not the fast round's
            return None
        three_void, pairs_void, hands_looked_at, hand_pairs = checks
        n = _nibble_counts(field)
        if n & _FOURS or (three_void and _three(n)) or (pairs_void and _pairs(n) >= 4):
            return None
        ko, dealer = sum(map(mask_of, ko_of(order))), sum(map(mask_of, dealer_of(order)))
        if hands_looked_at:
            for h in (ko, dealer):
                n = _nibble_counts(h)
                if n & _FOURS or (hand_pairs and _pairs(n) >= 4):
                    return None
        h0, h1 = (dealer, ko) if setup.dealer == 0 else (ko, dealer)
        return _FastKoiKoi(self, None, rules, setup, (tuple(order), h0, h1, field))

    def explain_illegal(self, state: KoiKoiState, action: Action) -> tuple[str, str]:
        p = state.turn
        if action.kind == PLAY:
            if state.phase not in (Phase.PLAY, Phase.PLAY_SECOND):
                return "KK-TURN-2", f"seat {p} cannot play a hand card now (phase {state.phase.value})"
            found = explain_hand_play(state.table.hands[p], state.table.field, action, p,
                                      ("KK-TURN-2", "KK-CAP-2", "KK-CAP-1"))
            return found or ("KK-CAP-5", f"card {action.cards[0]} captures nothing while a capture is possible "
                                         "(discard=must-capture)")
        if action.kind == TAKE:
            if state.phase is not Phase.TAKE:
                return "KK-CAP-6", "no drawn card is waiting for a choice of target"
            return "KK-CAP-2", f"{action.cards} is not one of the two field cards the drawn card matches"
        if action.kind == DRAW:
            return "KK-END-5", "a draw-only turn comes only once both hands are empty (after_hands=draw-pile)"
        if action.kind in (KOIKOI, STOP) and state.phase is Phase.CALL:
            if action.cards or action.label:
                return "KK-TURN-3", f"{action.kind!r} names no card and no label"
            # a bare stop is always legal here: this is a koi-koi the decision point does not offer
            if state.rules.koikoi_once and (state.calls[0] or state.calls[1]):
                return "KK-TURN-8", "koi-koi was already called in this round (koikoi_limit=once-per-round)"
            return "KK-TURN-9", (f"seat {p} holds no card any more: koi-koi needs a card in hand "
                                 "(koikoi_last_turn=forbidden)")
        if action.kind in (KOIKOI, STOP):
            return "KK-TURN-3", "koi-koi and shōbu are called only after forming a new or improved yaku"
        return "KK-TURN-2", f"unknown action kind {action.kind!r} for Koi-Koi"

    # -- results -------------------------------------------------------------------------
    def round_result(self, state: KoiKoiState) -> RoundResult:
        if state.phase is not Phase.OVER:
            raise ValueError("the round is not over")
        return _result(state.rules, state.end, state.dealer, state.winner, state.teyaku_points, state.last_improver,
                       state.calls, state.field_brights, (self._yaku_now(state, 0), self._yaku_now(state, 1)))

    def _shobu_points(self, state: KoiKoiState, w: int,
                      yaku: tuple[tuple[ScoredYaku, ...], ...]) -> tuple[int, tuple[tuple[str, int], ...]]:
        """The points of seat ``w``'s win in ``state`` and the notes saying how they are made."""
        return _shobu_points(state.rules.opt, state.calls, state.field_brights, w, yaku)

    def snapshot(self, state: KoiKoiState, info: MatchInfo | None = None) -> Snapshot:
        t = state.table
        zones: list[tuple[str, tuple[int, ...]]] = [
            ("hand.0", INDEX.ids_of(t.hand_masks[0])),
            ("hand.1", INDEX.ids_of(t.hand_masks[1])),
            ("field", INDEX.ids_of(t.field_mask)),
            ("stock", tuple(c.id for c in t.stock)),
            ("drawn", (state.pending.id,) if state.pending else ()),
            ("captured.0", INDEX.ids_of(t.captured_masks[0])),
            ("captured.1", INDEX.ids_of(t.captured_masks[1])),
        ]
        scores = info.scores if info else (0, 0)
        return Snapshot("koikoi", tuple(zones), self.to_move(state), state.phase.value, state.dealer,
                        state.setup.number, scores)

    def score(self, rules: KoiKoiRules, cards: Sequence[BaseCard], month: int | None = None) -> PileScore:
        pile = 0
        for c in cards:  # INDEX.mask_of, inlined: this is the whole public scoring path
            pile |= c.mask
        plain = rules.plain_scorers  # score_mask, without the options' filters where none applies
        if plain is not None:
            found = plain.get(month)
            if found is None:
                found = plain[month] = rules.scorer(month if rules.month_cards else None, None)
            return pile_score(found(pile))
        return pile_score(score_mask(rules, pile, month if rules.month_cards else None))

    def month_matters(self, rules: KoiKoiRules) -> bool:
        return rules.opt["month_cards"] == "on"

    def table_matters(self, rules: KoiKoiRules) -> bool:
        return rules.opt["viewing"] == "weather"  # only the weather rule looks at the field

    def score_on_table(self, rules: KoiKoiRules, cards: Sequence[BaseCard], table: Sequence[BaseCard],
                       month: int | None = None) -> PileScore:
        m = month if rules.opt["month_cards"] == "on" else None
        field = INDEX.mask_of(table) if self.table_matters(rules) else 0
        return PileScore(score_mask(rules, INDEX.mask_of(cards), m, field), None)

    def yaku_names(self, rules: KoiKoiRules) -> Mapping[str, str]:
        return {y.id: y.name for y in spec.yaku_table(rules.opt, 1)}

    # -- the match -----------------------------------------------------------------------
    def new_match(self, rules: KoiKoiRules, first_dealer: int = 0) -> MatchInfo:
        start = int(rules.opt["start_points"])  # KK-GAME-3
        return MatchInfo((start, start), first_dealer)

    def seats_in_play(self, rules: KoiKoiRules, info: MatchInfo) -> tuple[int, ...]:
        return (0, 1)

    def settle(self, rules: KoiKoiRules, info: MatchInfo, result: RoundResult) -> MatchInfo:
        scores = (info.scores[0] + result.deltas[0], info.scores[1] + result.deltas[1])
        played = info.rounds_played + (1 if result.counts else 0)
        dealer = result.next_dealer if result.next_dealer is not None else info.dealer
        length = rules.opt["length"]
        if length == "to-50":
            over, reason = max(scores) >= 50, "target"  # KK-GAME-2
        else:
            over, reason = played >= int(length), "rounds"  # KK-GAME-1
            if not over and rules.opt["game_end"] == "zero" and min(scores) <= 0:
                over, reason = True, "zero"  # KK-GAME-3
        winners: tuple[int, ...] = ()
        if over:
            top = max(scores)
            winners = tuple(i for i in (0, 1) if scores[i] == top)
        return MatchInfo(scores, dealer, played, info.deals + 1, over, winners, reason if over else "",
                         (*info.history, result))


#: ``play c`` and ``play c t`` (the shared instances :func:`plays_of` lists), by the id of the object,
#: -> the masks of c and of t (0 for none): what a legal play is, read in one lookup by the fast
#: replay. Keyed by identity: INDEX keeps these objects alive, so no other object has their ids.
_PLAY_MASKS: dict[int, tuple[int, int]] = {
    **{id(a): (m, 0) for m, a in INDEX.plays.items()},
    **{id(a): (m, t) for m, on in INDEX.plays_on.items() for t, a in on.items()},
}
_BY_MASK: dict[int, Card] = INDEX.by_mask


class _FastKoiKoi(FastRound[KoiKoiState]):
    """A Koi-Koi round played in place (see :class:`~hanafuda.engine.FastRound`): the zones as
    mutable masks, the stock as a tuple of masks and the index of its top card. The turn is the
    reference's (:meth:`KoiKoi.do`, :meth:`KoiKoi._end_turn`, :meth:`KoiKoi._pass`) for the options
    :meth:`KoiKoi.fast_round` accepts: play a hand card (KK-TURN-2), draw and play the top card of the
    draw pile (KK-CAP-6), choose a target among two matches (KK-CAP-2), then a new or improved yaku
    gives the koi-koi/shōbu call (KK-TURN-3, KK-TURN-4), else the turn passes; the round ends when the
    next player's hand is empty (KK-END-2) or on shōbu. Made from a position (:meth:`KoiKoi.fast_round`)
    or straight from a deal (:meth:`KoiKoi.deal_fast`: then the first position is built only when
    :meth:`state` is asked for it)."""

    __slots__ = ("called_matters", "calls", "caps", "deal", "dealer", "end", "field", "field_brights", "game", "hands",
                 "koikoi_min", "last", "last_improver", "month", "must", "new_only", "pending", "phase", "rules",
                 "scorers", "seen", "start", "stock", "teyaku_points", "top", "turn", "weather", "winner")
    start: KoiKoiState | None  # the first position, where it was built
    deal: tuple[tuple[int, ...], RoundSetup] | None  # the deck order and setup it was dealt from (deal_fast)
    phase: Phase

    def __init__(self, game: KoiKoi, s: KoiKoiState | None, rules: KoiKoiRules | None = None,
                 setup: RoundSetup | None = None, dealt: tuple[tuple[int, ...], int, int, int] | None = None) -> None:
        """From position ``s``; or, with ``s`` None, from the first position of a deal: ``rules``, ``setup``
        and ``dealt`` (the deck order's card ids, the two hands' masks, seat 0 first, and the field's)."""
        self.game = game
        if s is not None:
            t = s.table
            r = self.rules = s.rules
            number = s.setup.number
            self.start, self.deal, self.dealer = s, None, s.dealer
            self.hands, self.field, self.caps = list(t.hand_masks), t.field_mask, list(t.captured_masks)
            self.stock, self.top = tuple([c.mask for c in t.stock]), 0  # the draw pile is stock[top:]
            self.turn, self.phase, self.pending = s.turn, s.phase, s.pending
            self.calls, self.seen = list(s.calls), list(s.seen)
            self.last_improver, self.end, self.winner = s.last_improver, s.end, s.winner
            self.field_brights, self.teyaku_points = s.field_brights, s.teyaku_points
        else:  # KoiKoi.start_round of a deal _check_deal lets play, KoiKoiState's defaults
            assert rules is not None and setup is not None and dealt is not None
            r = self.rules = rules
            number = setup.number
            order, h0, h1, field = dealt
            self.start, self.deal, self.dealer = None, (order, setup), setup.dealer
            self.hands, self.field, self.caps = [h0, h1], field, [0, 0]
            self.stock, self.top = tuple(map(_MASK_OF.__getitem__, order[rules.stock_start:])), 0
            self.turn, self.phase, self.pending = setup.dealer, Phase.PLAY, None
            self.calls, self.seen = [0, 0], [(), ()]
            self.last_improver, self.end, self.winner = None, "", None
            self.field_brights, self.teyaku_points = (field & _BRIGHTS).bit_count(), (0, 0)
        self.month = (number - 1) % 12 + 1 if r.month_cards else None
        self.weather, self.must, self.new_only, self.koikoi_min, self.called_matters = r.turn_flags
        # the scorers of this round's month, before and after a koi-koi call, where no option filters
        # their answer (score_mask then returns it as it is); else None and _yaku calls score_mask
        self.scorers = ((r.scorer(self.month, None, False), r.scorer(self.month, None, True))
                        if r.plain_scoring else None)
        #: per seat, the last pile scored by these scorers: (pile, called, yaku)
        self.last: list[tuple[int, bool, tuple[ScoredYaku, ...]]] = [(-1, False, ()), (-1, False, ())]

    def over(self) -> bool:
        return self.phase is Phase.OVER

    def legal(self) -> Sequence[Action]:
        phase = self.phase
        if phase is Phase.PLAY:
            return plays_of(INDEX, self.hands[self.turn], self.field, self.must)
        if phase is Phase.TAKE:
            assert self.pending is not None
            return takes_of(INDEX, self.field, self.pending)
        if phase is Phase.CALL:
            r = self.rules
            if (r.koikoi_once and (self.calls[0] or self.calls[1])) or (
                    r.koikoi_needs_hand and not self.hands[self.turn]):  # KK-TURN-8, KK-TURN-9
                return (action(STOP),)
            return (action(KOIKOI), action(STOP))
        return ()

    def replay(self, actions: Sequence[Action | None], pos: int, stop: int) -> int:
        """:meth:`FastRound.replay`, a hand play's legality read from the masks: ``play c`` is listed by
        :func:`plays_of` when c is in the hand and the field does not hold exactly two cards of its month,
        ``play c t`` when it holds two, t one of them (discard=free; under discard=must-capture, and in
        the other phases, the listed actions are searched)."""
        plays, suit_of, default = _PLAY_MASKS.get, _SUIT_OF, FastRound.replay
        while pos < stop:
            phase = self.phase
            if phase is not Phase.PLAY or self.must:
                if phase is Phase.OVER:
                    break
                nxt = default(self, actions, pos, pos + 1)
                if nxt == pos:
                    break
                pos = nxt
                continue
            found = plays(id(actions[pos]))
            if found is None:
                break
            c, t = found
            if not self.hands[self.turn] & c:
                break
            if (self.field & suit_of[c]).bit_count() == 2:
                if not t & self.field:
                    break
            elif t:
                break
            self._play(c, t)
            pos += 1
        return pos

    def play(self, a: Action) -> None:
        p = self.turn
        kind = a.kind
        if kind == PLAY:
            cards = a.cards
            self._play(_MASK_OF[cards[0]], _MASK_OF[cards[1]] if len(cards) > 1 else 0)
        elif kind == TAKE:
            assert self.pending is not None
            t = _MASK_OF[a.cards[0]]
            self.field &= ~t
            self.caps[p] |= t | self.pending.mask
            self._end_turn()
        elif kind == KOIKOI:
            self.calls[p] += 1
            if self.called_matters and self.calls[p] == 1:  # KK-YAKU-17: re-valued, not an improvement
                self.seen[p] = self._yaku(p)
            self._pass()
        elif kind == STOP:
            self.phase, self.end, self.winner = Phase.OVER, "shobu", p
        else:
            raise AssertionError(a)

    def _play(self, c: int, target: int) -> None:
        """A legal hand play of card ``c`` (its mask) on ``target`` (a mask, 0 for none), then the draw:
        the captures of fishing.resolve, written out on masks (a target is named exactly when two field
        cards match)."""
        p = self.turn
        self.hands[p] &= ~c
        field = self.field
        m = field & _SUIT_OF[c]
        if not m:  # no match: the card joins the field
            field |= c
            got = 0
        else:  # one match or three; or two, the target named
            if target:
                m = target
            field &= ~m
            got = m | c
        stock = self.stock
        if self.top < len(stock):  # KK-CAP-6: the draw
            d = stock[self.top]
            self.top += 1
            m = field & _SUIT_OF[d]
            if not m:
                field |= d
            elif m.bit_count() == 2:  # KK-CAP-2: a choice to make
                self.field, self.pending, self.phase = field, _BY_MASK[d], Phase.TAKE
                self.caps[p] |= got
                return
            else:
                field &= ~m
                got |= m | d
        self.field = field
        self.caps[p] |= got
        self._end_turn()

    def _yaku(self, seat: int) -> tuple[ScoredYaku, ...]:
        if self.scorers is not None:  # the pile alone decides (and whether its holder has called)
            pile, called = self.caps[seat], self.calls[seat] > 0
            last = self.last[seat]
            if last[0] == pile and last[1] == called:  # a turn that captured nothing
                return last[2]
            now = self.scorers[called](pile)
            self.last[seat] = (pile, called, now)
            return now
        return score_mask(self.rules, self.caps[seat], self.month, self.field if self.weather else 0,
                          self.calls[seat] > 0)

    def _end_turn(self) -> None:
        """:meth:`KoiKoi._end_turn`: KK-TURN-3, KK-TURN-4."""
        p = self.turn
        self.pending = None
        now = self._yaku(p)
        seen = self.seen[p]
        if now == seen:  # nothing new or improved (the common case): _pass, written out
            nxt = 1 - p
            if not self.hands[nxt]:
                self.phase, self.end = Phase.OVER, "exhaustive"
            else:
                self.turn, self.phase = nxt, Phase.PLAY
            return
        before = {y.id: y.points for y in seen}
        new = any(y.id not in before for y in now)
        improved = new or any(y.points > before[y.id] for y in now if y.id in before)
        self.seen[p] = now
        if improved:
            self.last_improver = p
        if new if self.new_only else improved:
            if sum(y.points for y in now) < self.koikoi_min:
                self.phase, self.end, self.winner = Phase.OVER, "shobu", p  # KK-TURN-4
            else:
                self.phase = Phase.CALL
            return
        self._pass()

    def _pass(self) -> None:
        """:meth:`KoiKoi._pass` with after_hands=stop: KK-END-2."""
        self.pending = None
        nxt = 1 - self.turn
        if not self.hands[nxt]:
            self.phase, self.end = Phase.OVER, "exhaustive"
        else:
            self.turn, self.phase = nxt, Phase.PLAY

    def result(self) -> RoundResult | None:
        """:meth:`KoiKoi.round_result` of :meth:`state`, from the round's own fields."""
        if self.phase is not Phase.OVER:
            raise ValueError("the round is not over")
        return _result(self.rules, self.end, self.dealer, self.winner, self.teyaku_points, self.last_improver,
                       self.calls, self.field_brights, (self._yaku(0), self._yaku(1)))

    def state(self) -> KoiKoiState:
        s = self.start
        if s is None:  # made from a deal: its first position, as the reference deals it
            assert self.deal is not None
            order, setup = self.deal
            s = self.start = self.game.start_round(self.rules, list(map(_CARD.__getitem__, order)), setup)
        table = evolve(s.table, hand_masks=tuple(self.hands), field_mask=self.field,
                       stock=tuple(map(_BY_MASK.__getitem__, self.stock[self.top:])),
                       captured_masks=tuple(self.caps))
        return evolve(s, table=table, turn=self.turn, phase=self.phase, pending=self.pending,
                      calls=(self.calls[0], self.calls[1]), seen=(self.seen[0], self.seen[1]),
                      last_improver=self.last_improver, end=self.end, winner=self.winner)


def _result(rules: KoiKoiRules, end: str, dealer: int, winner: int | None, teyaku_points: tuple[int, int],
            last_improver: int | None, calls: Sequence[int], field_brights: int,
            yaku: tuple[tuple[ScoredYaku, ...], tuple[ScoredYaku, ...]]) -> RoundResult:
    """The result of a round that ended so (:meth:`KoiKoi.round_result`, and the fast round's
    :meth:`_FastKoiKoi.result`): ``yaku`` are each seat's yaku at the end."""
    opt = rules.opt
    d = dealer
    zero = opt["zero_sum"] == "on"
    if end == "misdeal":
        return RoundResult("misdeal", (0, 0), counts=False, next_dealer=d)
    if end in ("teyaku", "field-teyaku"):
        w = winner
        assert w is not None
        pts = max(teyaku_points)
        return RoundResult(end, _deltas(w, pts, zero), w, next_dealer=w)
    if end == "shobu" or (end == "exhaustive" and opt["exhaustive"] == "last-yaku" and last_improver is not None):
        w = winner if end == "shobu" else last_improver
        assert w is not None
        pts, notes = _shobu_points(opt, calls, field_brights, w, yaku)
        return RoundResult(end, _deltas(w, pts, zero), w, yaku, next_dealer=w, notes=notes)
    # exhaustive draw or both players holding lucky hands: a drawn round
    priv = int(opt["oyaken"])
    nxt = d if opt["draw_dealer"] == "stay" else 1 - d
    return RoundResult(end, _deltas(d, priv, zero), None, yaku, next_dealer=nxt, notes=(("oyaken", priv),))


def _shobu_points(opt: Mapping[str, str], calls: Sequence[int], field_brights: int, w: int,
                  yaku: tuple[tuple[ScoredYaku, ...], ...]) -> tuple[int, tuple[tuple[str, int], ...]]:
    """The points of seat ``w``'s shōbu (or last-yaku win) and the notes saying how they are made."""
    base = sum(y.points for y in yaku[w])
    if opt["yaku_count"] == "both-players":
        base += sum(y.points for y in yaku[1 - w])
    seven = 2 if opt["seven_double"] == "on" and base >= 7 else 1
    own, other = calls[w], calls[1 - w]
    mode = opt["multiplier"]
    n = field_brights
    fm = {"off": 1, "double": 2 if n else 1, "count": n + 1}[opt["field_multiplier"]]
    if mode == "additive":  # KK-SCORE-6: the scorer's own calls add 1-3, then multiply by calls - 2
        bonus = own if own <= 3 else base * seven * (own - 3)
        return (base * seven + bonus) * fm, (("base", base), ("seven", seven), ("koikoi_bonus", bonus),
                                             ("field", fm))
    koi = {"opponent": 2 if other else 1, "self": 2 if own else 1, "anyone": 2 if own or other else 1,
           "count": other + 1, "none": 1}[mode]
    return base * seven * koi * fm, (("base", base), ("seven", seven), ("koikoi", koi), ("field", fm))


def _deltas(winner: int, pts: int, zero_sum: bool) -> tuple[int, int]:
    loser = -pts if zero_sum else 0
    return (pts, loser) if winner == 0 else (loser, pts)


GAME = KoiKoi()
