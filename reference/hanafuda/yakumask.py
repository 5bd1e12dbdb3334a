"""Yaku rows as bit masks: a catalogue row (:class:`hanafuda_spec.yaku.YakuDef`) compiled once, so that
what a pile forms is a few integer operations on the pile's mask. The meaning is the row's own
(:meth:`~hanafuda_spec.yaku.YakuDef.value`, the plain set definition the tests compare with). A whole
table, the best row of each group kept, is scored by lookup tables (:func:`table_scorer`): machinery, no
rule of its own, for any game whose table has that form (Koi-Koi's).

>>> from hanafuda_spec.cards import HANAFUDA
>>> from hanafuda_spec.yaku import YakuDef
>>> masks = {c.id: c.mask for c in HANAFUDA.cards}
>>> row = YakuRow.of(YakuDef("ribbons", "Ribbons", "", 1, frozenset({12, 22, 32, 42, 52, 62}), 5, "X",
...                          extra_pool=frozenset({12, 22, 32, 42, 52, 62}), extra_from=5), masks)
>>> row.value(sum(masks[i] for i in (12, 22, 32, 42))), row.value(sum(masks[i] for i in (12, 22, 32, 42, 52, 62)))
(0, 2)
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from hanafuda_spec.yaku import ScoredYaku, YakuDef

from hanafuda.fishing import bits_of

__all__ = ["TableScorer", "YakuRow", "blocks", "score_with", "table_scorer"]


@dataclass(frozen=True, slots=True)
class YakuRow:
    """A :class:`~hanafuda_spec.yaku.YakuDef` with its card sets as masks: at least ``need`` cards of
    ``pool`` and every card of ``required``, none of ``forbidden``; ``points``, plus ``extra`` for each
    card of ``extra_pool`` beyond ``extra_from``; a card of ``doubled`` counts twice."""

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

    @classmethod
    def of(cls, y: YakuDef, mask_of: Mapping[int, int]) -> YakuRow:
        """The row ``y`` compiled with ``mask_of`` (card id -> its mask)."""
        def m(ids: Iterable[int]) -> int:
            return sum(mask_of[i] for i in set(ids))
        return cls(y.id, y.group, y.points, m(y.pool), y.need, m(y.required), m(y.forbidden), m(y.extra_pool),
                   y.extra_from, y.extra, m(y.doubled))

    def formed(self, pile: int) -> bool:
        """Whether the pile forms the row (its value is then at least ``points``)."""
        if pile & self.required != self.required or pile & self.forbidden:
            return False
        held = pile & self.pool
        return held.bit_count() + (held & self.doubled).bit_count() >= self.need

    def value(self, pile: int) -> int:
        """What the row is worth for the pile, 0 when it is not formed (:meth:`formed`, written out: the
        scorers' hot path)."""
        if pile & self.required != self.required or pile & self.forbidden:
            return 0
        held = pile & self.pool
        if held.bit_count() + (held & self.doubled).bit_count() < self.need:
            return 0
        if not self.extra_pool:
            return self.points
        ex = pile & self.extra_pool
        return self.points + self.extra * max(0, ex.bit_count() + (ex & self.doubled).bit_count() - self.extra_from)


# -- a table's scorer: the best row of each group, in table order (Koi-Koi's tables) -------------------


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
    the rows looks at (a block with few of them gets a lookup table in :class:`TableScorer`). (A named tuple:
    the scoring loop unpacks it.)"""

    pool: int
    doubled: int
    need: int
    rows: tuple[tuple[int, YakuRow], ...]  #: (index in the table, row)
    cards: int

    @property
    def small(self) -> bool:
        """Few enough cards for a table of what the block finds in each subset of them."""
        return self.cards.bit_count() <= _LOOKUP_BITS


def _found(rows: tuple[tuple[int, YakuRow], ...], pile: int) -> tuple[_Found, ...]:
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
def blocks(rows: tuple[YakuRow, ...]) -> tuple[_Block, ...]:
    """The blocks of compiled rows (cached by the rows: assignments that differ only in options the
    yaku table does not read, as ``identify`` tries by the hundred, share one table)."""
    runs: list[list[tuple[int, YakuRow]]] = []
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
        out.append(_Block(pool, doubled, min(y.need for _, y in run), tuple(run), cards))
    return tuple(out)


#: ``ScoredYaku(id, points)``, built once and then shared (it is immutable and compares by value).
_scored = functools.cache(ScoredYaku)


def score_with(table: tuple[_Block, ...], pile: int) -> list[ScoredYaku]:
    """The yaku of ``pile`` in table order, keeping the best of each group (the first on a tie).
    The general scorer, for any table; :class:`TableScorer` is the fast one, checked against it."""
    best: dict[str, tuple[int, int, str]] = {}
    chosen: list[tuple[int, int, str]] = []
    for pool, doubled, need, rows, _ in table:
        held = pile & pool
        if held.bit_count() + (held & doubled).bit_count() < need:
            continue  # too few of the block's cards for any of its rows
        for i, v, yid, group in _found(rows, pile):
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
def _lookup(rows: tuple[tuple[int, YakuRow], ...], cards: int) -> dict[int, tuple[ScoredYaku, ...]]:
    """A block's answers for every subset of its cards (shared by every table holding the block: the
    tables of the twelve months differ only in the Cards of the Month)."""
    return {sub: _ready(_found(rows, sub)) for sub in _subsets(cards)}


@functools.lru_cache(maxsize=512)
def _merged(parts: tuple[tuple[tuple[tuple[int, YakuRow], ...], int], ...]) -> dict[int, tuple[ScoredYaku, ...]]:
    """One lookup table for adjacent blocks ``(rows, cards)``: for each subset of their cards, the
    concatenation of what each block finds (built from the blocks' own tables; shared by every table
    holding these blocks, as the twelve months' tables do)."""
    merged = _lookup(*parts[0])
    cards = parts[0][1]
    for rows, more in parts[1:]:
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
    doubles, plains = bits_of(pool & doubled), bits_of(pool & ~doubled)
    answers: dict[int, tuple[ScoredYaku, ...]] = {}
    for d in range(len(doubles) + 1):
        for p in range(len(plains) + 1):
            answers.setdefault(2 * d + p, _ready(_found(block.rows, sum(doubles[:d]) + sum(plains[:p]))))
    # a count no pile reaches is never looked up: it gets the answer of the count below
    out: list[tuple[ScoredYaku, ...]] = []
    for n in range(max(answers) + 1):
        out.append(answers.get(n, out[-1] if out else ()))
    return tuple(out)


class TableScorer:
    """The yaku of a pile (a mask) for one table, by lookups (see above). Built once per table, for
    the tables :meth:`applies` to: ``lookups`` are ``(cards, table)`` pairs, ``table[pile & cards]``
    holding what the blocks of those cards find; ``tail`` is the last block when it only counts the
    cards of a pool (Chaff): ``(pool, doubled, by_count)``, ``by_count[n]`` what it finds when the
    pile holds ``n`` of the pool, ``doubled`` ones twice."""

    __slots__ = ("lookups", "tail")

    def __init__(self, table: tuple[_Block, ...]) -> None:
        *blocks, last = table
        counted = None if last.small else _counted(last)
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
        return (len(groups) == len(set(groups)) and all(b.small for b in table[:-1])
                and (table[-1].small or _counted(table[-1]) is not None))

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


def _cards(run: Sequence[_Block]) -> int:
    """Every card some row of ``run`` looks at."""
    return functools.reduce(operator.or_, (b.cards for b in run))


@functools.lru_cache(maxsize=512)
def table_scorer(rows: tuple[YakuRow, ...]) -> Callable[[int], tuple[ScoredYaku, ...]]:
    """The fastest scorer of compiled rows (pile mask in, yaku out, in table order, the best of each group):
    :class:`TableScorer` (as ``TableScorer.function``) where it applies, else :func:`score_with`; built once
    per distinct table, whatever options led to it."""
    table = blocks(rows)
    if TableScorer.applies(table):
        return TableScorer(table).function()
    return lambda pile: tuple(score_with(table, pile))
