"""Yaku rows as bit masks: a catalogue row (:class:`hanafuda_spec.yaku.YakuDef`) compiled once, so that
what a pile forms is a few integer operations on the pile's mask. The meaning is the row's own
(:meth:`~hanafuda_spec.yaku.YakuDef.value`, the plain set definition the tests compare with).

>>> from hanafuda_spec.cards import HANAFUDA
>>> from hanafuda_spec.yaku import YakuDef
>>> masks = {c.id: c.mask for c in HANAFUDA.cards}
>>> row = YakuRow.of(YakuDef("ribbons", "Ribbons", "", 1, frozenset({12, 22, 32, 42, 52, 62}), 5, "X",
...                          extra_pool=frozenset({12, 22, 32, 42, 52, 62}), extra_from=5), masks)
>>> row.value(sum(masks[i] for i in (12, 22, 32, 42))), row.value(sum(masks[i] for i in (12, 22, 32, 42, 52, 62)))
(0, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from hanafuda_spec.yaku import YakuDef

__all__ = ["YakuRow"]


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
