"""z3 proofs for Kusuri-gui: deal arithmetic (44 cards, four re-deals, three out of play), the
dekiyaku table with its "part of" relation (gap KG-10) proved over one Boolean per card, and the
round settlement as a decision table (ties, KG-16), and the discard-pile turn as an inductive count
model (conservation, strict alternation from the dealer, four re-deals).

Encoded from :mod:`hanafuda_spec.games.kusurigui`; the reference is reached only through the adapter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

from hanafuda_spec import z3layer as z
from hanafuda_spec.adapter import EngineAdapter
from hanafuda_spec.games import kusurigui as kg
from hanafuda_spec.proofs.common import (
    Case,
    CountModel,
    DecisionRow,
    Outcome,
    YakuModel,
    deal_sizes,
    decision_table,
    inductive,
    rows_to_check,
    scoring_option_sets,
    strict_parts,
    timed,
    yaku_checks,
)
from hanafuda_spec.yaku import ScoredYaku

__all__ = ["checks"]

GAME = "kusurigui"
DECK = tuple(sorted(kg.BRIGHTS | kg.ANIMALS | kg.RIBBONS | kg.CHAFF))
YAKU_KEYS = ("dekiyaku", "five_brights", "hot_pot", "hand_cannon", "sake_cup", "rainy_overlap")
SEMANTIC = ("dekiyaku", "rainy_overlap")
Result = tuple[bool, str, Mapping[str, object], int, tuple[Case, ...]]


def _deal(adapter: EngineAdapter) -> Iterator[Outcome]:
    def arithmetic() -> Result:
        h, f, s, r = z.int_var("hand"), z.int_var("field"), z.int_var("stock"), z.int_var("redeal")
        deck = len(DECK)
        dom = [h.eq(4), f.eq(4), r.eq(8), s.eq(deck - 2 * h - f)]
        # KG-DEAL: 4 + 4 in hand and 4 on the field; the stock is dealt out in re-deals of 4 + 4;
        # one field card is face up, three stay face down: 41 cards in play, 40 plays.
        claim = z.all_of([(2 * h + f + s).eq(44), s.eq(kg.REDEALS * r),
                          (2 * h + s + 1).eq(deck - kg.OUT_OF_PLAY), (2 * h + s).eq(kg.PLAYS_PER_ROUND)])
        res = z.prove("deal", claim, dom)
        if not res.ok:
            return False, res.status, {"kind": "model", **res.counterexample}, 0, ()
        msg, cx, n = deal_sizes(adapter, GAME, kg.SPEC.resolve(), {"hand.0": 4, "hand.1": 4, "stock": 32})
        if msg:
            return False, msg, cx, n, ()
        return True, f"proved: 4 + 4 + 4 + 32 = 44 = 4 re-deals of 8 after the deal, 41 in play, 40 plays; " \
                     f"{n} deals agree", {}, n, ()
    yield timed(GAME, "z3 deal arithmetic (KG-DEAL, four re-deals)", arithmetic)


def _scoring(values: Mapping[str, str], parts: set[tuple[int, int]]
             ) -> tuple[Callable[[YakuModel], z.Int], Callable[[YakuModel, Sequence[int]], tuple[ScoredYaku, ...]]]:
    """KG-YAKU-1/2 and gap KG-10 over the encoding: stacking without the dekiyaku that are part of a
    bigger one formed (``parts`` found by z3), or only the most valuable (dekiyaku=exclusive)."""
    def kept(m: YakuModel) -> list[z.Int]:
        formed = [m.formed(y) for y in m.rows]
        ids = [y.id for y in m.rows]
        out = []
        for i, v in enumerate(m.values):
            bigger = [formed[j] for (a, j) in parts if a == i]
            if values["rainy_overlap"] == "higher" and ids[i] == "rainy-three-brights":
                bigger.append(formed[ids.index("three-brights")])
            out.append(z.ite(z.any_of(bigger), 0, v))
        return out

    def total(m: YakuModel) -> z.Int:
        if values["dekiyaku"] == "exclusive":
            return z.max_of(list(m.values))
        return z.sum_of(kept(m))

    def expect(m: YakuModel, pile: Sequence[int]) -> tuple[ScoredYaku, ...]:
        a = m.assign(pile)
        if values["dekiyaku"] == "exclusive":
            vals = [(y.id, z.evaluate(v, a)) for y, v in zip(m.rows, m.values, strict=True)]
            top = max((v for _, v in vals), default=0)
            return tuple(ScoredYaku(i, v) for i, v in vals[:1] if v > 0) if top <= 0 else (
                (ScoredYaku(next(i for i, v in vals if v == top), top),))
        return tuple(ScoredYaku(y.id, v) for y, e in zip(m.rows, kept(m), strict=True) if (v := z.evaluate(e, a)) > 0)
    return total, expect


def _yaku(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    base_rows = kg.yaku_table(kg.SPEC.resolve())
    model = YakuModel(base_rows, DECK)
    parts = strict_parts(model)

    def part_of() -> Result:
        found = {(base_rows[i].id, base_rows[j].id) for i, j in parts}
        listed = sorted(f"{a} part of {b}" for a, b in found)
        if found != set(kg.PART_OF):
            return False, (f"z3 finds {sorted(found - set(kg.PART_OF))} not in PART_OF, and PART_OF has "
                           f"{sorted(set(kg.PART_OF) - found)} that z3 refutes"), {}, 0, ()
        return True, "the catalogue's PART_OF is exactly the strict containment z3 proves", {}, 0, tuple(
            Case(x, "KG-10") for x in listed)
    yield timed(GAME, "z3 'part of' relation of the dekiyaku (KG-10)", part_of)

    for k, (label, values) in enumerate(scoring_option_sets(kg.SPEC, YAKU_KEYS)):
        rows = kg.yaku_table(values)
        total, expect = _scoring(values, parts)
        only = rows_to_check(rows, base_rows, quick, k == 0)
        if only is not None and not only and label.split("=")[0] in SEMANTIC:
            only = frozenset(y.id for y in rows)
        yield from yaku_checks(GAME, adapter, label, values, None, rows, DECK, 41, total=total, expect=expect,
                               compare_ids=values["dekiyaku"] != "exclusive", quick=quick, only=only)


def _settlement() -> Iterator[Outcome]:
    def table() -> Result:
        rows = [DecisionRow("KG-SCORE-1 seat 0 higher", lambda v: v["t0"] > v["t1"], lambda v: v["t0"] - v["t1"]),
                DecisionRow("KG-SCORE-1 seat 1 higher", lambda v: v["t1"] > v["t0"], lambda v: v["t0"] - v["t1"]),
                DecisionRow("KG-16 equal totals: nobody pays", lambda v: v["t0"].eq(v["t1"]), lambda v: z.const(0))]
        gaps, clashes = decision_table(("t0", "t1"), lambda v: (v["t0"] >= 0) & (v["t1"] >= 0), rows)
        cases = [Case(f"totals {g['t0']}, {g['t1']}: no rule", None) for g in gaps]
        cases += [Case(f"totals {g['t0']}, {g['t1']}: two rules differ", None) for g in clashes]
        n = 0
        vals = kg.SPEC.resolve(None, {"bust": "debt"})
        for a, b in ((0, 0), (5, 5), (3, 0), (0, 3), (11, 10)):
            n += 1
            want = (a - b, b - a)
            if kg.settlement(vals, (a, b), (100, 100)) != want:
                return False, f"settlement({a}, {b}) is not {want}", {}, n, tuple(cases)
        cases.append(Case("equal totals (both 0 included): nobody pays, the dealer stays", "KG-16"))
        return True, "complete and consistent; the catalogue's settlement agrees on the boundary cases", {}, n, \
            tuple(cases)
    yield timed(GAME, "z3 decision table: round settlement and ties (KG-SCORE-1, KG-16)", table)


IN_PLAY = 41  # 44 cards less the three that stay out of play after the deal (KG-4)
STOCK0 = 32  # four re-deals of eight (KG-DEAL)


def turn_model() -> CountModel:
    """The discard-pile turn over zone sizes (SEED-000 "Gameplay"; KG-17, KG-18).

    Variables: the dealer's hand ``h0``, the non-dealer's ``h1``, the pile ``p``, the stock ``s``,
    both capture piles together ``c``, the seat to play ``t`` (0 the dealer) and the re-deals done
    ``r``. A play takes one hand card: it is discarded onto the pile, or it takes the whole (non-empty)
    pile with it. The turn then passes. When both hands are empty and the stock is not, four cards
    are dealt to each player and the dealer plays next.

    The invariant: the 41 cards in play are conserved; the dealer leads every cycle (``t = 0`` exactly
    when the hands are equal); the stock is ``32 - 8r`` with at most four re-deals, so a round that has
    used up its stock and hands has had exactly four re-deals.
    """
    names = ("h0", "h1", "p", "s", "c", "t", "r")

    def init(v: Mapping[str, z.Int]) -> z.Bool:
        return z.all_of([v["h0"].eq(4), v["h1"].eq(4), v["p"].eq(1), v["s"].eq(STOCK0), v["c"].eq(0),
                         v["t"].eq(0), v["r"].eq(0)])

    def inv(v: Mapping[str, z.Int]) -> z.Bool:
        return z.all_of([
            (v["h0"] + v["h1"] + v["p"] + v["s"] + v["c"]).eq(IN_PLAY),
            *(v[n] >= 0 for n in ("h0", "h1", "p", "s", "c")),
            v["r"] >= 0, v["r"] <= 4, v["s"].eq(STOCK0 - 8 * v["r"]),
            v["t"].eq(0).implies(v["h0"].eq(v["h1"])), v["t"].eq(1).implies(v["h1"].eq(v["h0"] + 1)),
            v["t"] >= 0, v["t"] <= 1, v["h0"] <= 4,
            (v["h0"].eq(0) & v["h1"].eq(0) & v["s"].eq(0)).implies(v["r"].eq(4)),
        ])

    def same(v: Mapping[str, z.Int], w: Mapping[str, z.Int], keep: Sequence[str]) -> z.Bool:
        return z.all_of(v[n].eq(w[n]) for n in keep)

    def step(v: Mapping[str, z.Int], w: Mapping[str, z.Int]) -> z.Bool:
        moves = []
        for seat, h, other in ((0, "h0", "h1"), (1, "h1", "h0")):
            mine = z.all_of([v["t"].eq(seat), v[h] >= 1, w[h].eq(v[h] - 1), w["t"].eq(1 - seat),
                             same(v, w, (other, "s", "r"))])
            moves.append(mine & w["p"].eq(v["p"] + 1) & w["c"].eq(v["c"]))  # discard onto the pile
            moves.append(mine & (v["p"] >= 1) & w["p"].eq(0) & w["c"].eq(v["c"] + v["p"] + 1))  # take the pile
        moves.append(z.all_of([v["h0"].eq(0), v["h1"].eq(0), v["s"] >= 8, w["h0"].eq(4), w["h1"].eq(4),
                               w["s"].eq(v["s"] - 8), w["r"].eq(v["r"] + 1), w["t"].eq(0),
                               same(v, w, ("p", "c"))]))  # a re-deal (KG-17); the dealer leads (KG-18)
        return z.any_of(moves)

    return CountModel(names, init, step, inv)


def _turn() -> Iterator[Outcome]:
    def proof() -> Result:
        for r in inductive(turn_model()):
            if not r.ok:
                return False, f"{r.name}: {r.status}", {"kind": "model", "game": GAME, **r.counterexample}, 0, ()
        return True, ("proved: 41 cards in play conserved, the dealer leads every cycle of plays, the stock is "
                      "32 - 8 x re-deals, and a round played out has had exactly four re-deals"), {}, 0, ()
    yield timed(GAME, "z3 inductive count invariants of the turn (KG-18, four re-deals)", proof)


def checks(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    """Every Kusuri-gui proof, in report order."""
    yield from _deal(adapter)
    yield from _turn()
    yield from _settlement()
    yield from _yaku(adapter, quick)
