"""z3 proofs for Kekoro: deal arithmetic (8 undrawn cards) and the 26 yaku over one Boolean per
card (every yaku stacks, KE-YAKU-2), cross-checked against the reference's scorer.

Encoded from :mod:`hanafuda_spec.games.kekoro`; the reference is reached only through the adapter.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from hanafuda_spec import z3layer as z
from hanafuda_spec.adapter import EngineAdapter
from hanafuda_spec.games import kekoro as ke
from hanafuda_spec.proofs.common import (
    Case,
    Outcome,
    YakuModel,
    deal_sizes,
    fishing_counts,
    rows_to_check,
    scoring_option_sets,
    timed,
    yaku_checks,
)

__all__ = ["checks"]

GAME = "kekoro"
DECK = tuple(m * 10 + i for m in range(1, 13) for i in range(4))
YAKU_KEYS = ("gundari_ribbons", "eight_islands")
Result = tuple[bool, str, Mapping[str, object], int, tuple[Case, ...]]


def _deal(adapter: EngineAdapter) -> Iterator[Outcome]:
    def arithmetic() -> Result:
        h, f, s = z.int_var("hand"), z.int_var("field"), z.int_var("stock")
        dom = [h.eq(8), f.eq(8), s.eq(48 - 2 * h - f)]
        # one draw per turn, 2h turns; the rest stays undrawn (KE-END-1)
        r = z.prove("deal", (2 * h + f + s).eq(48) & (s >= 2 * h) & (s - 2 * h).eq(ke.UNDRAWN), dom)
        if not r.ok:
            return False, r.status, {"kind": "model", **r.counterexample}, 0, ()
        opts = ke.SPEC.resolve(None, {"misdeal": "off"})
        msg, cx, n = deal_sizes(adapter, GAME, opts, {"hand.0": 8, "hand.1": 8, "field": 8, "stock": 24})
        if msg:
            return False, msg, cx, n, ()
        return True, f"proved: 8 + 8 + 8 + 24 = 48, 16 draws, {ke.UNDRAWN} undrawn; {n} deals agree", {}, n, ()
    yield timed(GAME, "z3 deal arithmetic (KE-DEAL, KE-END-1)", arithmetic)


def _stack(m: YakuModel) -> z.Bool:
    return m.total.eq(ke.YAKU_POINTS * z.count(m.formed(y) for y in m.rows))


def checks(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    """Every Kekoro proof, in report order."""
    yield from _deal(adapter)
    yield fishing_counts(GAME, "8 + 8 + 8 (KE-DEAL, FW-HA turn)", 2, 48, 8, 8)
    base = ke.yaku_table(ke.SPEC.resolve())
    for k, (label, values) in enumerate(scoring_option_sets(ke.SPEC, YAKU_KEYS)):
        rows = ke.yaku_table(values)
        yield from yaku_checks(GAME, adapter, label, values, None, rows, DECK, 48 - ke.UNDRAWN,
                               claims=[("KE-YAKU-1/2 every formed yaku scores 30, none excludes another", _stack)],
                               quick=quick, only=rows_to_check(rows, base, quick, k == 0))
