"""z3 proofs for Musashino-Bana: deal arithmetic of the three deals (hands and draw pile run out
together), the dekiyaku table over one Boolean per card (every dekiyaku stacks except the
absorbed ones; an insta-win leaves only the insta-win dekiyaku), and ties as a decision table
(MB-7).

Encoded from :mod:`hanafuda_spec.games.musashino`; the reference is reached only through the adapter.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from hanafuda_spec import z3layer as z
from hanafuda_spec.adapter import EngineAdapter
from hanafuda_spec.games import musashino as mb
from hanafuda_spec.proofs.common import (
    Case,
    DecisionRow,
    Outcome,
    card_var,
    cross_check,
    deal_sizes,
    decision_table,
    fishing_counts,
    scoring_option_sets,
    timed,
)
from hanafuda_spec.yaku import ScoredYaku

__all__ = ["checks"]

GAME = "musashino"
DECK = tuple(m * 10 + i for m in range(1, 13) for i in range(4))
YAKU_KEYS = ("four_brights", "insta_win_value")
Result = tuple[bool, str, Mapping[str, object], int, tuple[Case, ...]]


def _deal(adapter: EngineAdapter) -> Iterator[Outcome]:
    def arithmetic() -> Result:
        n = 0
        for key, plan in mb.DEALS.items():
            p, h, f, s = (z.int_var(x) for x in ("players", "hand", "field", "stock"))
            dom = [p.eq(plan.players), h.eq(plan.hand), f.eq(plan.field), s.eq(48 - p * plan.hand - f)]
            # one draw per turn, one turn per hand card: the draw pile and the hands run out together
            r = z.prove(f"deal {key}", (s + p * plan.hand + f).eq(48) & s.eq(plan.stock) & s.eq(p * plan.hand), dom)
            if not r.ok:
                return False, f"players={key}: {r.status}", {"kind": "model", **r.counterexample}, n, ()
            want = {f"hand.{i}": plan.hand for i in range(plan.players)} | {"field": plan.field, "stock": plan.stock}
            msg, cx, k = deal_sizes(adapter, GAME, mb.SPEC.resolve(None, {"players": key}), want)
            n += k
            if msg:
                return False, f"players={key}: {msg}", cx, n, ()
        return True, "proved for 3 × 7 + 6 + 21, 4 × 5 + 8 + 20, 4 × 6 + 0 + 24; " + f"{n} deals agree", {}, n, ()
    yield timed(GAME, "z3 deal arithmetic (MB-DEAL, the three deals)", arithmetic)


class _Model:
    """The dekiyaku table over Booleans ``c<id>``."""

    def __init__(self, rows: Sequence[mb.Dekiyaku]) -> None:
        self.rows = tuple(rows)
        self.x = {c: z.bool_var(card_var(c)) for c in DECK}
        self.formed = [z.all_of(z.any_of(self.x[c] for c in sorted(part)) for part in y.parts) for y in self.rows]
        insta = z.any_of(f for y, f in zip(self.rows, self.formed, strict=True) if y.stops_round)
        absorbed = {a: [f for y, f in zip(self.rows, self.formed, strict=True) if a in y.absorbs] for a in
                    (y.id for y in self.rows)}
        self.scores = [z.ite(f & (insta.iff(z.true()) if y.stops_round else ~insta) & ~z.any_of(absorbed[y.id]),
                             y.points, 0) for y, f in zip(self.rows, self.formed, strict=True)]
        self.total = z.sum_of(self.scores)

    def pile(self, m: z.Model) -> tuple[int, ...]:
        return tuple(c for c in DECK if m.get(card_var(c)) is True)

    def expect(self, pile: Sequence[int]) -> tuple[ScoredYaku, ...]:
        a = {card_var(c): c in set(pile) for c in DECK}
        return tuple(ScoredYaku(y.id, v) for y, s in zip(self.rows, self.scores, strict=True)
                     if (v := z.evaluate(s, a)) > 0)


def _yaku(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    base = set(mb.yaku_table(mb.SPEC.resolve()))
    for k, (label, values) in enumerate(scoring_option_sets(mb.SPEC, YAKU_KEYS)):
        m = _Model(mb.yaku_table(values))
        full = not quick or k == 0
        only = None if full else {y.id for y in m.rows if y not in base}
        if only is not None and not only:
            continue  # a quick run: the same table as the first ruleset's

        def claims(m: _Model = m) -> Result:
            ids = [y.id for y in m.rows]
            out = []
            for y, f in zip(m.rows, m.formed, strict=True):
                for a in y.absorbs:  # MB-11: absorbing only ever happens to a dekiyaku contained in the bigger one
                    r = z.prove(f"{y.id} absorbs {a}", f.implies(m.formed[ids.index(a)]))
                    if not r.ok:
                        return False, f"{y.id} can form without {a}: pile {list(m.pile(r.counterexample))}", {}, 0, ()
                    out.append(f"{y.id} contains {a}")
            pairs = [(i, j) for i in range(len(ids)) for j in range(len(ids)) if i < j]
            res = z.prove_all([(f"{i}={j}", m.formed[i].iff(m.formed[j])) for i, j in pairs])
            same = [Case(f"{ids[i]} = {ids[j]} (identical compositions)", None)
                    for (i, j), r in zip(pairs, res, strict=True) if r.ok]
            return True, "proved: " + "; ".join(out), {}, 0, tuple(same)
        yield timed(GAME, f"z3 absorption and identical compositions (MB-3, MB-11), {label}", claims)

        def maximum(m: _Model = m, values: Mapping[str, str] = values) -> Result:
            best = z.maximize("max", m.total)
            if best.value is None:
                return False, "maximum not found (timeout)", {}, 0, ()
            pile = m.pile(best.model)
            got, _ = adapter.score_pile(GAME, values, pile, None)
            if sum(y.points for y in got) != best.value:
                return False, f"maximum {best.value} on {list(pile)}, the reference scores {_fmt(got)}", {
                    "kind": "score", "game": GAME, "options": dict(values), "month": None, "pile": list(pile),
                    "expected": [[y.id, y.points] for y in m.expect(pile)]}, 1, ()
            return True, f"maximum {best.value} (pile of {len(pile)} cards), reached by the reference", {}, 1, ()
        yield timed(GAME, f"z3 maximum dekiyaku score, {label}", maximum)

        def boundary(m: _Model = m, values: Mapping[str, str] = values, only: set[str] | None = only,
                     full: bool = full) -> Result:
            ok, detail, cx, n = cross_check(adapter, GAME, values, None, _piles(m, full, only), m.expect)
            return ok, detail, cx, n, ()
        yield timed(GAME, f"z3 boundary piles vs scorer, {label}", boundary)


def _piles(m: _Model, crowded: bool, only: set[str] | None) -> Iterator[tuple[str, tuple[int, ...]]]:
    for y, f in zip(m.rows, m.formed, strict=True):
        if only is not None and y.id not in only:
            continue
        lone = z.all_of(~m.x[c] for c in DECK if c not in y.cards)
        extra = [[lone, z.count(m.x[c] for c in y.cards) <= len(y.parts)]]
        if crowded:
            extra.append([z.count(m.x.values()) >= 20])
        for cs in extra:
            w = z.find([f, *cs])
            if w is None:
                continue
            pile = m.pile(w)
            yield f"{y.id} just formed", pile
            key = next((c for c in pile if c in y.cards), None)
            if key is not None:
                yield f"{y.id} one card short (without {key})", tuple(c for c in pile if c != key)


def _fmt(ys: Sequence[ScoredYaku]) -> str:
    return ", ".join(f"{y.id} {y.points}" for y in ys) or "nothing"


def _ties() -> Iterator[Outcome]:
    def table() -> Result:
        names = ("t0", "t1", "t2")  # the sides' totals in turn order, the dealer's side first

        def top(v: Mapping[str, z.Int], i: int) -> z.Bool:
            return z.all_of(v[names[i]] >= v[n] for n in names)

        def first_top(v: Mapping[str, z.Int]) -> z.Int:
            return z.ite(top(v, 0), 0, z.ite(top(v, 1), 1, 2))
        rows = [
            DecisionRow("MB-YAKU: the most points wins", lambda v: z.any_of(
                z.all_of(v[names[i]] > v[n] for n in names if n != names[i]) for i in range(3)), first_top),
            DecisionRow("MB-7: a tie for the most goes to the first in turn order from the dealer", lambda v: z.any_of(
                top(v, i) & top(v, j) for i in range(3) for j in range(3) if i < j), first_top),
            DecisionRow("MB-7: all equal (nobody scoring included): the dealer's side, nothing paid",
                        lambda v: v["t0"].eq(v["t1"]) & v["t1"].eq(v["t2"]), lambda v: z.const(0)),
        ]
        gaps, clashes = decision_table(names, lambda v: z.all_of(v[n] >= 0 for n in names), rows)
        cases = [Case(f"totals {[g[n] for n in names]}: no rule", None) for g in gaps]
        cases += [Case(f"totals {[g[n] for n in names]}: two rules differ", None) for g in clashes]
        cases += [Case("a tie for the most points", "MB-7"), Case("all sides equal, nobody scoring included", "MB-7")]
        return True, "complete and consistent over every three totals", {}, 0, tuple(cases)
    yield timed(GAME, "z3 decision table: round winner and ties (MB-7)", table)


def checks(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    """Every Musashino-Bana proof, in report order."""
    yield from _deal(adapter)
    for key, plan in mb.DEALS.items():
        yield fishing_counts(GAME, f"players={key}", plan.players, 48, plan.field, plan.hand)
    yield from _ties()
    yield from _yaku(adapter, quick)
