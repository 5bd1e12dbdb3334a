"""Arithmetic written once, run on numbers and on z3 terms.

A rule the checkers apply to played rounds and the proofs state for all inputs (a round's settlement,
say) is written once as a function of an :class:`Ops`: :data:`INTS` evaluates it on Python integers,
and ``hanafuda_spec.proofs.common.TERMS`` builds the same function as z3 terms, so that what is
proved is what is checked. The catalogue's modules stay free of z3.

>>> def capped(ops, x, cap):
...     return ops.ite(ops.lt(cap, x), cap, x)
>>> capped(INTS, 12, 8), capped(INTS, 5, 8)
(8, 5)
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = ["INTS", "Ops"]

N = TypeVar("N")
B = TypeVar("B")


@dataclass(frozen=True)
class Ops(Generic[N, B]):
    """The operations a rule written once may use, over numbers ``N`` and truth values ``B``."""

    const: Callable[[int], N]
    add: Callable[[N, N], N]
    sub: Callable[[N, N], N]
    lt: Callable[[N, N], B]
    eq: Callable[[N, N], B]
    and_: Callable[[B, B], B]
    ite: Callable[[B, N, N], N]

    def max_of(self, xs: Sequence[N]) -> N:
        """The largest of ``xs`` (not empty)."""
        out = xs[0]
        for x in xs[1:]:
            out = self.ite(self.lt(out, x), x, out)
        return out

    def sum_of(self, xs: Sequence[N]) -> N:
        out = self.const(0)
        for x in xs:
            out = self.add(out, x)
        return out


def _ite(c: bool, a: int, b: int) -> int:
    return a if c else b


#: :class:`Ops` on Python integers and booleans.
INTS: Ops[int, bool] = Ops(int, operator.add, operator.sub, operator.lt, operator.eq, operator.and_, _ite)
