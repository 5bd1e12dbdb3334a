"""A data model for yaku tables, shared by every game's catalogue, the scorer and the z3 models.

A yaku here is a *counting* condition over a capture pile: at least ``need`` cards of
``pool`` and all of ``required`` (and none of ``forbidden``). It is worth ``points``, plus
``extra`` for each card of ``extra_pool`` beyond ``extra_from``; cards in ``doubled`` count
twice towards both. Yaku sharing a ``group``
are mutually exclusive: only the most valuable one of the group scores (ties go to the one
listed first). Anything more particular (a round's month, cards on the field) is expressed
by the game building its table for the situation.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["ScoredYaku", "YakuDef", "best_per_group", "count_yaku"]


@dataclass(frozen=True)
class YakuDef:
    """One row of a yaku table (see the module docstring)."""

    id: str
    name: str
    name_ja: str
    points: int
    pool: frozenset[int]
    need: int
    rule: str
    group: str | None = None
    required: frozenset[int] = frozenset()
    forbidden: frozenset[int] = frozenset()
    extra_pool: frozenset[int] = frozenset()
    extra_from: int = 0
    extra: int = 1
    doubled: frozenset[int] = frozenset()

    def count(self, cards: frozenset[int], pile: frozenset[int] | set[int]) -> int:
        """How many of ``cards`` the pile holds, ``doubled`` cards counting twice."""
        held = cards & pile
        return len(held) + len(held & self.doubled)

    def value(self, pile: frozenset[int] | set[int]) -> int:
        """The yaku's worth for this pile, 0 if it is not formed. Plain set arithmetic: the
        reference's scorer uses bit masks; this is the slow, obvious definition."""
        if not self.required <= pile or self.forbidden & pile:
            return 0
        if self.count(self.pool, pile) < self.need:
            return 0
        bonus = 0
        if self.extra_pool:
            bonus = self.extra * max(0, self.count(self.extra_pool, pile) - self.extra_from)
        return self.points + bonus


@dataclass(frozen=True, order=True)
class ScoredYaku:
    """A yaku a pile forms and what it is worth (the neutral form scoring vectors use)."""

    id: str
    points: int


def count_yaku(table: Iterable[YakuDef], pile: Iterable[int]) -> tuple[ScoredYaku, ...]:
    """Every formed yaku of ``table`` with its value, before group exclusivity."""
    p = frozenset(pile)
    out = []
    for y in table:
        v = y.value(p)
        if v > 0:
            out.append(ScoredYaku(y.id, v))
    return tuple(out)


def best_per_group(table: Iterable[YakuDef], pile: Iterable[int]) -> tuple[ScoredYaku, ...]:
    """Formed yaku after exclusivity: per group the most valuable, first listed on ties."""
    p = frozenset(pile)
    best: dict[str, tuple[int, int]] = {}
    rows = list(table)
    chosen: list[int] = []
    for i, y in enumerate(rows):
        v = y.value(p)
        if v <= 0:
            continue
        if y.group is None:
            chosen.append(i)
            continue
        cur = best.get(y.group)
        if cur is None or v > cur[1]:
            best[y.group] = (i, v)
    chosen.extend(i for i, _ in best.values())
    return tuple(ScoredYaku(rows[i].id, rows[i].value(p)) for i in sorted(chosen))
