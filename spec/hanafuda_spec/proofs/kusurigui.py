"""z3 proofs for Kusuri-gui: deal arithmetic (44 cards, four re-deals, three out of play), the
dekiyaku table with its "part of" relation (gap KG-10) proved over one Boolean per card, and the
round settlement as a decision table (ties, KG-16), and the discard-pile turn as an inductive count
model (conservation, strict alternation from the dealer, four re-deals).

The chips (KG-PAY-1…5, KG-SCORE-1…3, KG-END-2, KG-GAME-1/3): the payment on the spot, the round's
result and the end of the game as decision tables (complete, consistent, zero-sum, nobody below zero
with bust=end), a round's chips as an inductive model (conserved; a one-card pile after the first
play is always the opponent's fresh discard, which is what lets KG-8 be judged from the table; at
most 19 Kusuri-gui a round), and every play and round of random matches checked against the tables.

Encoded from :mod:`hanafuda_spec.games.kusurigui`; the reference is reached only through the adapter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import lru_cache

from hanafuda_spec import z3layer as z
from hanafuda_spec.adapter import EngineAdapter, RoundOutcome
from hanafuda_spec.games import kusurigui as kg
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.proofs.common import (
    SAMPLED,
    Case,
    CountModel,
    DecisionRow,
    Out,
    Outcome,
    TableRow,
    V,
    YakuModel,
    as_int,
    deal_sizes,
    decision_rows,
    decision_table,
    inductive,
    replay_match,
    rows_to_check,
    scoring_option_sets,
    strict_parts,
    table_value,
    timed,
    yaku_checks,
)
from hanafuda_spec.shuffle import SplitMix64
from hanafuda_spec.yaku import ScoredYaku

__all__ = ["checks", "replay_check", "round_model"]

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
        return True, ("the catalogue's sizes add up (4 + 4 + 4 + 32 = 44 = 4 re-deals of 8 after the deal, 41 in "
                      f"play, 40 plays: constants, no variable left free); {n} reference deals agree"), {}, n, ()
    yield timed(GAME, "deal arithmetic of the catalogue's sizes, reference deals (KG-DEAL, four re-deals)", arithmetic,
                SAMPLED)


def _scoring(values: Mapping[str, str], parts: Callable[[], frozenset[tuple[int, int]]]
             ) -> tuple[Callable[[YakuModel], z.Int], Callable[[YakuModel, Sequence[int]], tuple[ScoredYaku, ...]]]:
    """KG-YAKU-1/2 and gap KG-10 over the encoding: stacking without the dekiyaku that are part of a
    bigger one formed (``parts`` found by z3), or only the most valuable (dekiyaku=exclusive)."""
    o = kg.SPEC.value
    exclusive = o(values, kg.Dekiyaku) is kg.Dekiyaku.EXCLUSIVE

    def kept(m: YakuModel) -> list[z.Int]:
        formed = [m.formed(y) for y in m.rows]
        ids = [y.id for y in m.rows]
        out = []
        for i, v in enumerate(m.values):
            bigger = [formed[j] for (a, j) in parts() if a == i]
            if o(values, kg.RainyOverlap) is kg.RainyOverlap.HIGHER and ids[i] == "rainy-three-brights":
                bigger.append(formed[ids.index("three-brights")])
            out.append(z.ite(z.any_of(bigger), 0, v))
        return out

    def total(m: YakuModel) -> z.Int:
        if exclusive:
            return z.max_of(list(m.values))
        return z.sum_of(kept(m))

    def expect(m: YakuModel, pile: Sequence[int]) -> tuple[ScoredYaku, ...]:
        a = m.assign(pile)
        if exclusive:
            vals = [(y.id, z.evaluate(v, a)) for y, v in zip(m.rows, m.values, strict=True)]
            top = max((v for _, v in vals), default=0)
            return tuple(ScoredYaku(i, v) for i, v in vals[:1] if v > 0) if top <= 0 else (
                (ScoredYaku(next(i for i, v in vals if v == top), top),))
        return tuple(ScoredYaku(y.id, v) for y, e in zip(m.rows, kept(m), strict=True) if (v := z.evaluate(e, a)) > 0)
    return total, expect


@lru_cache(maxsize=1)
def _parts() -> frozenset[tuple[int, int]]:
    """The strict "part of" pairs of the default table's dekiyaku (found by z3 once in a process,
    when the first check that needs them runs)."""
    return frozenset(strict_parts(YakuModel(kg.yaku_table(kg.SPEC.resolve()), DECK)))


def _yaku(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    base_rows = kg.yaku_table(kg.SPEC.resolve())
    def part_of() -> Result:
        found = {(base_rows[i].id, base_rows[j].id) for i, j in _parts()}
        listed = sorted(f"{a} part of {b}" for a, b in found)
        if found != set(kg.PART_OF):
            return False, (f"z3 finds {sorted(found - set(kg.PART_OF))} not in PART_OF, and PART_OF has "
                           f"{sorted(set(kg.PART_OF) - found)} that z3 refutes"), {}, 0, ()
        return True, "the catalogue's PART_OF is exactly the strict containment z3 proves", {}, 0, tuple(
            Case(x, "KG-10") for x in listed)
    yield timed(GAME, "z3 'part of' relation of the dekiyaku (KG-10)", part_of)

    for k, (label, values) in enumerate(scoring_option_sets(kg.SPEC, YAKU_KEYS)):
        rows = kg.yaku_table(values)
        total, expect = _scoring(values, _parts)
        only = rows_to_check(rows, base_rows, quick, k == 0)
        if only is not None and not only and label.split("=")[0] in SEMANTIC:
            only = frozenset(y.id for y in rows)
        stacked = kg.SPEC.value(values, kg.Dekiyaku) is not kg.Dekiyaku.EXCLUSIVE
        yield from yaku_checks(GAME, adapter, label, values, None, rows, DECK, 41, total=total, expect=expect,
                               compare_ids=stacked, quick=quick, only=only)


def _settlement() -> Iterator[Outcome]:
    def table() -> Result:
        rows = [DecisionRow("KG-SCORE-1 seat 0 higher", lambda v: v["t0"] > v["t1"], lambda v: v["t0"] - v["t1"]),
                DecisionRow("KG-SCORE-1 seat 1 higher", lambda v: v["t1"] > v["t0"], lambda v: v["t0"] - v["t1"]),
                DecisionRow("KG-16 equal totals: nobody pays", lambda v: v["t0"].eq(v["t1"]), lambda v: z.const(0))]
        gaps, clashes = decision_table(("t0", "t1"), lambda v: (v["t0"] >= 0) & (v["t1"] >= 0), rows)
        cases = [Case(f"totals {g['t0']}, {g['t1']}: no rule", None) for g in gaps]
        cases += [Case(f"totals {g['t0']}, {g['t1']}: two rules differ", None) for g in clashes]
        n = 0
        vals = kg.SPEC.resolve(None, {"bust": kg.Bust.DEBT})
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


# -- the chips: payments on the spot, the round's result, the end of the game ------------------------













def row_index(rows: Sequence[TableRow], v: V) -> z.Int:
    out: z.Int = z.const(-1)
    for i in reversed(range(len(rows))):
        out = z.ite(rows[i].guard(v), i, out)
    return out


class TableEval:
    """A decision table evaluated on concrete inputs with z3 (results and the rule that applies),
    memoised: play gives the same few inputs again and again."""

    def __init__(self, names: Sequence[str], rows: Sequence[TableRow]) -> None:
        self.rows = tuple(rows)
        self.v = {n: z.int_var(n) for n in names}
        self.results = tuple(self.rows[0].out)
        self.exprs = {r: table_value(self.rows, r, self.v) for r in self.results}
        self.which = row_index(self.rows, self.v)
        self.cache: dict[tuple[tuple[str, int], ...], tuple[TableRow | None, dict[str, int]]] = {}

    def __call__(self, **inputs: int) -> tuple[TableRow | None, dict[str, int]]:
        key = tuple(sorted(inputs.items()))
        hit = self.cache.get(key)
        if hit is None:
            i = z.evaluate(self.which, inputs)
            hit = (self.rows[i] if i >= 0 else None, {r: z.evaluate(e, inputs) for r, e in self.exprs.items()})
            self.cache[key] = hit
        return hit


def _bit(v: V, *names: str) -> list[z.Bool]:
    return [(v[n] >= 0) & (v[n] <= 1) for n in names]


def _min(a: z.Int, b: z.Int) -> z.Int:
    """min(a, b)."""
    return z.ite(a < b, a, b)


#: The payment on the spot, per play. Inputs: ``cap`` the play takes the pile (KG-PLAY-2, KG-ONI-1),
#: ``n`` the pile's size before it, ``dealt`` (one-card pile) its card is the round's face-up card,
#: no play made yet, ``wt`` (one-card pile) its card is a willow, ``wc`` the played card is a willow;
#: the options ``op`` (oni_pays=yes), ``pay`` (payment), ``debt`` (bust=debt); ``chips`` the
#: opponent's chips before the payment. Results: ``amount`` the chips the opponent pays the player,
#: ``event`` 1 for a Kusuri-gui (paid, or cut to nothing with bust=end).
PAY_NAMES = ("cap", "n", "dealt", "wt", "wc", "op", "pay", "debt", "chips")


def pay_domain(v: V) -> z.Bool:
    return z.all_of([*_bit(v, "cap", "dealt", "wt", "wc", "op", "debt"), v["n"] >= 0,
                     v["cap"].eq(1).implies(v["n"] >= 1),  # KG-ONI-2: nothing takes an empty pile
                     v["n"].ne(1).implies(v["dealt"].eq(0) & v["wt"].eq(0)),
                     v["pay"].eq(1) | v["pay"].eq(2), v["debt"].eq(0).implies(v["chips"] >= 0)])


def _fresh(v: V) -> z.Bool:
    """The play takes a one-card pile that is not the round's face-up card: the opponent's discard
    onto the emptied pile with the play just before (proved in :func:`round_model`)."""
    return v["cap"].eq(1) & v["n"].eq(1) & v["dealt"].eq(0)


def _eats(v: V) -> z.Bool:
    return _fresh(v) & v["wt"].eq(0) & (v["wc"].eq(0) | v["op"].eq(1))


PAY_ROWS = (
    TableRow("KG-PLAY-3 the card is discarded: nothing is taken, nobody pays", None,
             lambda v: v["cap"].eq(0), {"amount": lambda v: 0, "event": lambda v: 0}),
    TableRow("KG-PAY-1 a pile of two or more cards taken: no Kusuri-gui", "KG-8",
             lambda v: v["cap"].eq(1) & (v["n"] >= 2), {"amount": lambda v: 0, "event": lambda v: 0}),
    TableRow("KG-PAY-1 the round's face-up card taken by the first play: no Kusuri-gui", "KG-8",
             lambda v: v["cap"].eq(1) & v["n"].eq(1) & v["dealt"].eq(1), {"amount": lambda v: 0, "event": lambda v: 0}),
    TableRow("KG-PAY-3 a fresh willow eaten: no Kusuri-gui", "KG-8",
             lambda v: _fresh(v) & v["wt"].eq(1), {"amount": lambda v: 0, "event": lambda v: 0}),
    TableRow("KG-PAY-4 oni_pays=no: a fresh discard eaten with a willow is not paid", "KG-8",
             lambda v: _fresh(v) & v["wc"].eq(1) & v["op"].eq(0), {"amount": lambda v: 0, "event": lambda v: 0}),
    TableRow("KG-PAY-1/2 a Kusuri-gui with bust=debt: the opponent pays the payment", "KG-9",
             lambda v: _eats(v) & v["debt"].eq(1), {"amount": lambda v: v["pay"], "event": lambda v: 1}),
    TableRow("KG-PAY-2, KG-SCORE-3 a Kusuri-gui with bust=end: the payment, cut to the opponent's chips", "KG-19",
             lambda v: _eats(v) & v["debt"].eq(0),
             {"amount": lambda v: _min(v["chips"], v["pay"]), "event": lambda v: 1}),
)

#: The round's result. Inputs: ``mis`` a misdeal, ``t0``/``t1`` the dekiyaku totals, ``x0``/``x1``
#: the chips after the round's payments, ``debt`` (bust=debt), ``d`` the dealer, ``pass``
#: (tie_dealer=pass). Results: ``win`` the seat that receives the settlement (-1: nobody), ``amount``
#: what it receives, ``delta0``/``delta1`` the settlement per seat, ``next`` the next dealer.
RESULT_NAMES = ("mis", "t0", "t1", "x0", "x1", "debt", "d", "pass")


def result_domain(v: V) -> z.Bool:
    return z.all_of([*_bit(v, "mis", "debt", "d", "pass"), v["t0"] >= 0, v["t1"] >= 0,
                     v["mis"].eq(1).implies(v["t0"].eq(0) & v["t1"].eq(0)),
                     v["debt"].eq(0).implies((v["x0"] >= 0) & (v["x1"] >= 0))])


def _settled(win: int, amount: Out, nxt: Out) -> dict[str, Out]:
    def delta(seat: int) -> Out:
        if win < 0:
            return lambda v: 0
        return amount if seat == win else (lambda v: -as_int(amount(v)))
    return {"win": lambda v: win, "amount": amount, "delta0": delta(0), "delta1": delta(1), "next": nxt}


def _won(seat: int, debt: int) -> TableRow:
    o = 1 - seat

    def higher(v: V) -> z.Bool:
        return v["mis"].eq(0) & (v[f"t{seat}"] > v[f"t{o}"]) & v["debt"].eq(debt)

    def diff(v: V) -> z.Int:
        return v[f"t{seat}"] - v[f"t{o}"]
    if debt:
        return TableRow(f"KG-SCORE-1, KG-END-2 seat {seat}'s total is higher (bust=debt): it receives the "
                        f"difference and deals next", "KG-13", higher, _settled(seat, diff, lambda v: seat))
    return TableRow(f"KG-SCORE-1/3, KG-END-2 seat {seat}'s total is higher (bust=end): it receives the "
                    f"difference, cut to seat {o}'s chips, and deals next", "KG-19", higher,
                    _settled(seat, lambda v: _min(as_int(diff(v)), v[f"x{o}"]), lambda v: seat))


RESULT_ROWS = (
    TableRow("KG-DEAL-5 a misdeal: no chips move, the same dealer deals again", "KG-5",
             lambda v: v["mis"].eq(1), _settled(-1, lambda v: 0, lambda v: v["d"])),
    _won(0, 1), _won(0, 0), _won(1, 1), _won(1, 0),
    TableRow("KG-SCORE-2 equal totals (both 0 included): nobody pays, the dealer stays", "KG-16",
             lambda v: v["mis"].eq(0) & v["t0"].eq(v["t1"]) & v["pass"].eq(0),
             _settled(-1, lambda v: 0, lambda v: v["d"])),
    TableRow("KG-SCORE-2 equal totals with tie_dealer=pass: nobody pays, the other player deals", "KG-16",
             lambda v: v["mis"].eq(0) & v["t0"].eq(v["t1"]) & v["pass"].eq(1),
             _settled(-1, lambda v: 0, lambda v: 1 - v["d"])),
)

#: Whether the game is over after a counted round: ``played`` counted rounds, ``rounds`` the option,
#: ``debt`` (bust=debt), ``lo`` the fewer chips of the two after the round.
END_NAMES = ("played", "rounds", "debt", "lo")


def end_domain(v: V) -> z.Bool:
    return z.all_of([*_bit(v, "debt"), v["rounds"].eq(6) | v["rounds"].eq(12), v["played"] >= 1,
                     v["played"] <= v["rounds"], v["debt"].eq(0).implies(v["lo"] >= 0)])


END_ROWS = (
    TableRow("KG-GAME-3 bust=end and a player has no chips left: the game ends", "KG-19",
             lambda v: v["debt"].eq(0) & (v["lo"] <= 0), {"over": lambda v: 1}),
    TableRow("KG-GAME-1 the last round has been played: the game ends", "KG-2",
             lambda v: v["played"] >= v["rounds"], {"over": lambda v: 1}),
    TableRow("KG-GAME-1 rounds remain and nobody is out of chips (or bust=debt): the game goes on", "KG-2",
             lambda v: (v["played"] < v["rounds"]) & (v["debt"].eq(1) | (v["lo"] > 0)), {"over": lambda v: 0}),
)


def _table_cases(names: Sequence[str], domain: Callable[[V], z.Bool], rows: Sequence[TableRow]) -> list[Case]:
    """Completeness and consistency of every result of a table: the situations no rule decides
    (open cases) and every rule with the decision it rests on."""
    cases: list[Case] = []
    for result in rows[0].out:
        gaps, clashes = decision_table(names, domain, decision_rows(rows, result))
        cases += [Case(f"{result}: no rule for {dict(g)}", None) for g in gaps]
        cases += [Case(f"{result}: two rules differ on {dict(g)}", None) for g in clashes]
    return cases


def _claims(names: Sequence[str], domain: Callable[[V], z.Bool], rows: Sequence[TableRow],
            claims: Sequence[tuple[str, Callable[[V, Mapping[str, z.Int]], z.Bool]]]) -> str | None:
    """Prove each claim (over the inputs and the table's results) on the domain; the first refuted,
    with its counterexample."""
    v = {n: z.int_var(n) for n in names}
    res = {r: table_value(rows, r, v) for r in rows[0].out}
    for name, claim in claims:
        r = z.prove(name, claim(v, res), [domain(v)])
        if not r.ok:
            shown = {k: r.counterexample.get(k) for k in names}
            return f"{name}: {r.status} at {shown}"
    return None


def _pay_table() -> Result:
    cases = _table_cases(PAY_NAMES, pay_domain, PAY_ROWS)
    if cases:
        return True, "", {}, 0, tuple(cases)

    def other(v: V, **new: z.Int) -> z.Int:
        return table_value(PAY_ROWS, "amount", {**v, **new})
    n2, c2 = z.int_var("n2"), z.int_var("chips2")
    bad = _claims(PAY_NAMES, pay_domain, PAY_ROWS, [
        ("KG-PAY-2 a payment is between 0 and the payment option",
         lambda v, r: (r["amount"] >= 0) & (r["amount"] <= v["pay"])),
        ("KG-SCORE-3 bust=end: the payer never goes below zero",
         lambda v, r: v["debt"].eq(0).implies(v["chips"] - r["amount"] >= 0)),
        ("KG-PAY-1 only a Kusuri-gui moves chips", lambda v, r: r["event"].eq(0).implies(r["amount"].eq(0))),
        ("KG-PAY-2 bust=debt: a Kusuri-gui pays exactly the payment",
         lambda v, r: (r["event"].eq(1) & v["debt"].eq(1)).implies(r["amount"].eq(v["pay"]))),
        ("the amount is the same for every pile of two or more cards",
         lambda v, r: ((v["n"] >= 2) & (n2 >= 2)).implies(r["amount"].eq(other(v, n=n2)))),
        ("the amount is the same whatever the payer's chips from the payment up (or with bust=debt)",
         lambda v, r: (v["debt"].eq(1) | ((v["chips"] >= v["pay"]) & (c2 >= v["pay"]))).implies(
             r["amount"].eq(other(v, chips=c2)))),
    ])
    if bad:
        return False, bad, {"kind": "model", "game": GAME}, 0, ()
    cases = [Case(r.text, r.gap or r.text.split()[0]) for r in PAY_ROWS]
    return True, ("complete and consistent; a payment is 0…payment, only a Kusuri-gui pays, exactly the payment "
                  "with bust=debt, never more than the payer holds with bust=end"), {}, 0, tuple(cases)


def _result_table() -> Result:
    cases = _table_cases(RESULT_NAMES, result_domain, RESULT_ROWS)
    if cases:
        return True, "", {}, 0, tuple(cases)

    def absv(x: z.Int) -> z.Int:
        return z.ite(x >= 0, x, -x)
    bad = _claims(RESULT_NAMES, result_domain, RESULT_ROWS, [
        ("KG-PAY-5 the settlement is zero-sum", lambda v, r: (r["delta0"] + r["delta1"]).eq(0)),
        ("KG-SCORE-3 bust=end: nobody goes below zero",
         lambda v, r: v["debt"].eq(0).implies((v["x0"] + r["delta0"] >= 0) & (v["x1"] + r["delta1"] >= 0))),
        ("KG-SCORE-1 the higher total never pays",
         lambda v, r: (v["t0"] > v["t1"]).implies(r["delta0"] >= 0) & (v["t1"] > v["t0"]).implies(r["delta1"] >= 0)),
        ("KG-SCORE-1 never more than the difference of the totals",
         lambda v, r: absv(r["delta0"]) <= absv(v["t0"] - v["t1"])),
        ("KG-SCORE-1, KG-13 bust=debt: exactly the difference, a point for a chip",
         lambda v, r: v["debt"].eq(1).implies(absv(r["delta0"]).eq(absv(v["t0"] - v["t1"])))),
        ("KG-END-2 the higher total deals next",
         lambda v, r: ((v["t0"] > v["t1"]).implies(r["next"].eq(0))) & ((v["t1"] > v["t0"]).implies(r["next"].eq(1)))),
    ])
    if bad:
        return False, bad, {"kind": "model", "game": GAME}, 0, ()
    n = 0
    ev = TableEval(RESULT_NAMES, RESULT_ROWS)
    for debt in (0, 1):
        vals = kg.SPEC.resolve(None, {"bust": kg.Bust.DEBT if debt else kg.Bust.END})
        for t0, t1, x0, x1 in ((0, 0, 5, 5), (4, 1, 0, 2), (1, 4, 2, 0), (9, 2, 50, 3), (2, 9, 3, 50), (7, 7, 0, 0)):
            n += 1
            _, r = ev(mis=0, t0=t0, t1=t1, x0=x0, x1=x1, debt=debt, d=0, **{"pass": 0})
            if kg.settlement(vals, (t0, t1), (x0, x1)) != (r["delta0"], r["delta1"]):
                bust = kg.SPEC.value(vals, kg.Bust)
                return False, (f"the catalogue's settlement{(t0, t1)} with chips {(x0, x1)}, bust={bust} "
                               f"is {kg.settlement(vals, (t0, t1), (x0, x1))}, the table says "
                               f"{(r['delta0'], r['delta1'])}"), {}, n, ()
    cases = [Case(r.text, r.gap or r.text.split()[0]) for r in RESULT_ROWS]
    return True, ("complete and consistent; zero-sum, nobody below zero with bust=end, the higher total never "
                  f"pays and deals next; the catalogue's settlement() agrees on {n} cases"), {}, n, tuple(cases)


def _end_table() -> Result:
    cases = _table_cases(END_NAMES, end_domain, END_ROWS)
    return True, "complete and consistent" if not cases else "", {}, 0, tuple(
        cases or [Case(r.text, r.gap or r.text.split()[0]) for r in END_ROWS])


#: Plays in a round (KG-END-1) and the most Kusuri-gui one round can hold (proved below).
PLAYS = kg.PLAYS_PER_ROUND
MAX_KUSURIGUI = (PLAYS - 1) // 2


def round_model() -> CountModel:
    """A round's chips over its plays (KG-PLAY-1…3, KG-PAY-1…5, KG-SCORE-1…3).

    Variables: plays made ``m``, the pile's size ``p``, ``bs`` the seat whose discard onto the empty
    pile is the pile's only card (-1: none), the seat to play ``t``, the chips ``x0``/``x1`` (the
    round's starting chips plus its payments, then the settlement), Kusuri-gui made ``k``, ``e`` 1 once
    the round is settled; parameters: the starting chips, the options and the dealer. A play takes the
    pile (only a non-empty one) or is put on it; the chips move as :data:`PAY_ROWS` says, with ``dealt``
    meaning "no play made yet". After 40 plays the round is settled as :data:`RESULT_ROWS` says.

    The invariant: the chips are conserved; with bust=end nobody goes below zero; the dealer plays the
    even-numbered plays; a one-card pile after the first play is always a fresh discard of the
    opponent's, made with the play just before (so KG-8's condition is read off the table, with no
    memory of who played what); two plays per Kusuri-gui at least, the first play excepted (hence
    at most 19 a round); the payments so far are at most the payment per Kusuri-gui.
    """
    names = ("m", "p", "bs", "t", "x0", "x1", "k", "e",
             "param_s0", "param_s1", "param_pay", "param_op", "param_debt", "param_d", "param_pass")

    def params(v: V) -> z.Bool:
        return z.all_of([v["param_pay"].eq(1) | v["param_pay"].eq(2),
                         *_bit(v, "param_op", "param_debt", "param_d", "param_pass"),
                         v["param_debt"].eq(0).implies((v["param_s0"] >= 0) & (v["param_s1"] >= 0))])

    def init(v: V) -> z.Bool:
        return z.all_of([v["m"].eq(0), v["p"].eq(1), v["bs"].eq(-1), v["t"].eq(v["param_d"]),
                         v["x0"].eq(v["param_s0"]), v["x1"].eq(v["param_s1"]), v["k"].eq(0), v["e"].eq(0)])

    def inv(v: V) -> z.Bool:
        fresh = v["bs"].ne(-1)
        paid = v["x0"] - v["param_s0"]
        most = z.ite(v["param_pay"].eq(1), v["k"], 2 * v["k"])
        return z.all_of([
            (v["x0"] + v["x1"]).eq(v["param_s0"] + v["param_s1"]),
            v["param_debt"].eq(0).implies((v["x0"] >= 0) & (v["x1"] >= 0)),
            v["m"] >= 0, v["m"] <= PLAYS, v["p"] >= 0, v["k"] >= 0, v["bs"] >= -1, v["bs"] <= 1,
            v["t"].eq(z.ite((v["m"] % 2).eq(0), v["param_d"], 1 - v["param_d"])),
            v["m"].eq(0).implies(v["p"].eq(1) & v["bs"].eq(-1) & v["k"].eq(0)),
            (v["p"].eq(1) & (v["m"] >= 1)).iff(fresh),
            fresh.implies(v["bs"].eq(1 - v["t"])),
            (v["m"] >= 1).implies(2 * v["k"] + z.ite(fresh, 1, 0) <= v["m"] - 1),
            v["e"] >= 0, v["e"] <= 1, v["e"].eq(1).implies(v["m"].eq(PLAYS)),
            v["e"].eq(0).implies((paid <= most) & (-paid <= most)),
        ])

    return CountModel(names, init, round_step, inv, params)


def round_step(v: V, w: V, aux: str = "") -> z.Bool:
    """The step of :func:`round_model` (``aux`` names its free choices apart, for unrolling): a play,
    or the settlement after the last play."""
    cap, wt, wc = z.int_var("cap" + aux), z.int_var("wt" + aux), z.int_var("wc" + aux)
    a0, a1 = z.int_var("a0" + aux), z.int_var("a1" + aux)
    pay = play_inputs(v, cap, wt, wc)
    amt, ev = table_value(PAY_ROWS, "amount", pay), table_value(PAY_ROWS, "event", pay)
    t = v["t"]
    play = z.all_of([v["e"].eq(0), v["m"] < PLAYS, *_bit(pay, "cap", "wt", "wc"),
                     cap.eq(1).implies(v["p"] >= 1), wt.eq(1).implies(v["p"].eq(1)),
                     w["m"].eq(v["m"] + 1), w["t"].eq(1 - t), w["p"].eq(z.ite(cap.eq(1), 0, v["p"] + 1)),
                     w["bs"].eq(z.ite(cap.eq(0) & v["p"].eq(0), t, -1)),
                     w["x0"].eq(v["x0"] + z.ite(t.eq(0), amt, -amt)),
                     w["x1"].eq(v["x1"] + z.ite(t.eq(1), amt, -amt)),
                     w["k"].eq(v["k"] + ev), w["e"].eq(0)])
    res = settle_inputs(v, a0, a1)
    settle = z.all_of([v["e"].eq(0), v["m"].eq(PLAYS), a0 >= 0, a1 >= 0,
                       w["x0"].eq(v["x0"] + table_value(RESULT_ROWS, "delta0", res)),
                       w["x1"].eq(v["x1"] + table_value(RESULT_ROWS, "delta1", res)), w["e"].eq(1),
                       *(w[n].eq(v[n]) for n in ("m", "p", "bs", "t", "k"))])
    return play | settle


def play_inputs(v: V, cap: z.Int, wt: z.Int, wc: z.Int) -> dict[str, z.Int]:
    """The payment table's inputs for the play of seat ``t`` in the round model."""
    return {"cap": cap, "n": v["p"], "dealt": z.ite(v["m"].eq(0) & v["p"].eq(1), 1, 0), "wt": wt, "wc": wc,
            "op": v["param_op"], "pay": v["param_pay"], "debt": v["param_debt"],
            "chips": z.ite(v["t"].eq(0), v["x1"], v["x0"])}


def settle_inputs(v: V, a0: z.Int, a1: z.Int) -> dict[str, z.Int]:
    return {"mis": z.const(0), "t0": a0, "t1": a1, "x0": v["x0"], "x1": v["x1"], "debt": v["param_debt"],
            "d": v["param_d"], "pass": v["param_pass"]}


def _round_chips() -> Result:
    model = round_model()
    for r in inductive(model):
        if not r.ok:
            return False, f"{r.name}: {r.status}", {"kind": "model", "game": GAME, **r.counterexample}, 0, ()
    v = {n: z.int_var(n) for n in model.names}
    cap, wt, wc, a0, a1 = (z.int_var(n) for n in ("cap", "wt", "wc", "a0", "a1"))
    pre = [model.params(v), model.inv(v)]
    play_pre = [*pre, v["e"].eq(0), v["m"] < PLAYS, *_bit({"cap": cap, "wt": wt, "wc": wc}, "cap", "wt", "wc"),
                cap.eq(1).implies(v["p"] >= 1), wt.eq(1).implies(v["p"].eq(1))]
    claims = [
        ("every play lies in the payment table's domain", pay_domain(play_inputs(v, cap, wt, wc)), play_pre),
        ("every settlement lies in the result table's domain", result_domain(settle_inputs(v, a0, a1)),
         [*pre, a0 >= 0, a1 >= 0]),
        (f"a played-out round has at most {MAX_KUSURIGUI} Kusuri-gui", v["k"] <= MAX_KUSURIGUI,
         [*pre, v["m"].eq(PLAYS)]),
        ("the round's transfers add up to zero", ((v["x0"] - v["param_s0"]) + (v["x1"] - v["param_s1"])).eq(0), pre),
    ]
    # declared vacuous under every option: a played round is no misdeal (mis = 0 in settle_inputs), so the
    # result domain's misdeal case never applies here
    vacuous = {"every settlement lies in the result table's domain"}
    for name, claim, assume in claims:
        r = z.prove(name, claim, assume, vacuous_ok=name in vacuous)
        if not r.ok:
            return False, f"{name}: {r.status} {r.detail}".rstrip(), {"kind": "model", "game": GAME,
                                                                       **r.counterexample}, 0, ()
    trace = unroll(model, round_step, PLAYS + 1, lambda last: last["k"].eq(MAX_KUSURIGUI) & last["e"].eq(1))
    if trace is None:
        return False, f"no round of the model reaches {MAX_KUSURIGUI} Kusuri-gui: the bound is not tight", {}, 0, ()
    caps = "".join("T" if trace.get(f"cap@{i}") else "." for i in range(PLAYS))
    return True, ("proved: chips conserved through the payments and the settlement, none below zero with "
                  "bust=end; a one-card pile after the first play is always the opponent's discard of the play "
                  f"just before (KG-8 read off the table); at most {MAX_KUSURIGUI} Kusuri-gui a round, paid at "
                  "most the payment each; every play and settlement inside the tables' domains. The bound is "
                  f"reached (plays that take the pile: {caps})"), {}, 0, ()


def unroll(model: CountModel, step: Callable[[V, V, str], z.Bool], steps: int, goal: Callable[[V], z.Bool],
           ) -> z.Model | None:
    """A run of ``model`` (its step given as ``step(pre, post, aux)``) of ``steps`` steps from its initial
    state ending in ``goal`` (bounded model checking), or None; the state and the choices of step ``i``
    are named ``<name>@<i>``."""
    states = [{n: z.int_var(n if n.startswith("param_") else f"{n}@{i}") for n in model.names}
              for i in range(steps + 1)]
    return z.find([model.params(states[0]), model.init(states[0]),
                   *(step(states[i], states[i + 1], f"@{i}") for i in range(steps)), goal(states[-1])])


PAY = TableEval(PAY_NAMES, PAY_ROWS)
RESULT = TableEval(RESULT_NAMES, RESULT_ROWS)
END = TableEval(END_NAMES, END_ROWS)


class ChipWatch:
    """Follows a match through the adapter and checks every play and every round against the tables:
    the payment of each play (:data:`PAY_ROWS`), the round's deltas = its payments + the settlement,
    the next dealer (:data:`RESULT_ROWS`), the end of the game (:data:`END_ROWS`), the reported counts
    (notes ``payments.<seat>``, ``kusurigui.<seat>``, ``settlement``, when the implementation gives
    them) and the round model's claims (a one-card pile after the first play is the opponent's fresh
    discard; at most 19 Kusuri-gui a round)."""

    def __init__(self, adapter: EngineAdapter, values: Mapping[str, str]) -> None:
        self.adapter = adapter
        self.values = values
        o = kg.SPEC.value
        self.opt = {"op": int(o(values, kg.OniPays) is kg.OniPays.YES), "pay": int(o(values, kg.Payment)),
                    "debt": int(o(values, kg.Bust) is kg.Bust.DEBT)}
        self.tie_pass = int(o(values, kg.TieDealer) is kg.TieDealer.PASS)
        self.counted = 0
        self.rounds = 0
        self.events = 0
        self.ties = 0
        self.rule = "KG-DEAL-5"
        self._new_round(adapter.snapshot())

    def _new_round(self, s: Snapshot) -> None:
        self.start = tuple(s.scores)
        self.plays = 0
        self.paid = [0, 0]
        self.eaten = [0, 0]
        self.last: tuple[int, bool] | None = None  # (seat, put onto an empty pile) of the last play
        self.log: list[str] = []  # the round's one-card piles taken, with the rule that applied

    def play(self, action: str) -> str | None:
        """Apply ``action`` through the adapter; the first disagreement with the tables, or None."""
        b = self.adapter.snapshot()
        mover = b.to_move
        words = action.split()
        if mover is None or len(words) != 2 or not words[1].isdigit():
            self.adapter.apply(action)
            return None
        c, pile = int(words[1]), b.zone("pile")
        n = len(pile)
        cap = words[0] == "play" and n >= 1 and (c in kg.WILLOWS or c // 10 == pile[-1] // 10)
        if n == 1 and self.plays > 0 and self.last != (1 - mover, True):
            return (f"KG-8: play {self.plays + 1} meets a one-card pile {list(pile)} that the opponent did not "
                    f"just put onto an empty pile (last play {self.last}); the round model proves it always is")
        pay, debt = self.opt["pay"], self.opt["debt"]
        chips = self.start[1 - mover] + self.paid[1 - mover]
        row, r = PAY(cap=int(cap), n=min(n, 2), dealt=int(n == 1 and self.plays == 0),
                     wt=int(n == 1 and pile[0] in kg.WILLOWS), wc=int(c in kg.WILLOWS), op=self.opt["op"],
                     pay=pay, debt=debt, chips=pay if debt or chips >= pay else chips)
        if row is None:
            return f"no payment rule for {action!r} on pile {list(pile)}"
        self.paid[mover] += r["amount"]
        self.paid[1 - mover] -= r["amount"]
        self.eaten[mover] += r["event"]
        if cap and n == 1:
            self.log.append(f"play {self.plays + 1} by seat {mover}: {row.text}")
        self.events += r["event"]
        self.plays += 1
        self.last = (mover, n == 0 and not cap)
        self.adapter.apply(action)
        outs = self.adapter.rounds_ended()
        if not outs:
            return None
        piles = [list(b.zone("captured.0")), list(b.zone("captured.1"))]
        if cap:
            piles[mover] += [*pile, c]
        return self._round_end(b, piles, outs)

    def _round_end(self, b: Snapshot, piles: list[list[int]], outs: Sequence[RoundOutcome]) -> str | None:
        nxt = b.dealer
        total = [0, 0]
        for o in outs:
            self.rounds += 1
            if o.reason == "misdeal":
                _, r = RESULT(mis=1, t0=0, t1=0, x0=self.start[0], x1=self.start[1], debt=self.opt["debt"], d=nxt,
                              **{"pass": self.tie_pass})
                if tuple(o.deltas) != (r["delta0"], r["delta1"]) or o.counts:
                    return f"KG-DEAL-5: a misdeal moved chips {o.deltas} or counted as a round ({o.counts})"
                continue
            bad = self._settlement(b, piles, o)
            if isinstance(bad, str):
                return bad
            nxt = bad
            total = [total[i] + o.deltas[i] for i in (0, 1)]
            self.counted += 1
        after = self.adapter.snapshot()
        want = tuple(self.start[i] + total[i] for i in (0, 1))
        if tuple(after.scores) != want:
            return f"KG-PAY-5: chips {after.scores} after the round, {self.start} + deltas {total} = {want}"
        rounds = int(kg.SPEC.value(self.values, kg.Rounds))
        _, e = END(played=self.counted, rounds=rounds, debt=self.opt["debt"], lo=min(want))
        if self.adapter.match_over() != bool(e["over"]):
            bust = kg.SPEC.value(self.values, kg.Bust)
            return (f"KG-GAME-1/3: after {self.counted} rounds with chips {want} (bust={bust}) the "
                    f"table says the game is {'over' if e['over'] else 'not over'}; the reference disagrees")
        if not e["over"] and after.dealer != nxt:
            return f"{self.rule}: seat {after.dealer} deals the next round, the table says seat {nxt}"
        self._new_round(after)
        return None

    def _taken(self) -> str:
        return "one-card piles taken: " + ("; ".join(self.log) or "none")

    def _settlement(self, b: Snapshot, piles: list[list[int]], o: RoundOutcome) -> str | int:
        totals = [sum(y.points for y in kg.dekiyaku(self.values, p)) for p in piles]
        reported = [sum(y.points for y in side) for side in o.yaku]
        if reported != totals:
            return f"the round reports dekiyaku totals {reported}; the final capture piles form {totals}"
        chips = [self.start[i] + self.paid[i] for i in (0, 1)]
        row, r = RESULT(mis=0, t0=totals[0], t1=totals[1], x0=chips[0], x1=chips[1], debt=self.opt["debt"],
                        d=b.dealer, **{"pass": self.tie_pass})
        self.ties += int(totals[0] == totals[1])
        want = (self.paid[0] + r["delta0"], self.paid[1] + r["delta1"])
        notes = dict(o.notes)
        rule = row.text if row else "no rule"
        if "payments.0" in notes and [notes["payments.0"], notes.get("payments.1")] != self.paid:
            return (f"KG-PAY-1…4: the round reports payments {[notes['payments.0'], notes.get('payments.1')]}, the "
                    f"payment table gives {self.paid} ({self._taken()})")
        if "kusurigui.0" in notes and [notes["kusurigui.0"], notes.get("kusurigui.1")] != self.eaten:
            return (f"KG-PAY-1: the round reports {[notes['kusurigui.0'], notes.get('kusurigui.1')]} Kusuri-gui, "
                    f"the payment table {self.eaten} ({self._taken()})")
        if "settlement" in notes and notes["settlement"] != r["amount"]:
            return (f"{rule}: totals {totals}, chips {chips}: settlement {notes['settlement']}, the table says "
                    f"{r['amount']}")
        if tuple(o.deltas) != want or sum(o.deltas) != 0:
            return (f"{rule}: totals {totals}, chips {chips}: the round's deltas are {tuple(o.deltas)}, the tables "
                    f"say payments {self.paid} + settlement {(r['delta0'], r['delta1'])} = {want} ({self._taken()})")
        self.rule = rule
        if sum(self.eaten) > MAX_KUSURIGUI or abs(self.paid[0]) > self.opt["pay"] * sum(self.eaten):
            return f"the round has {self.eaten} Kusuri-gui and payments {self.paid}: beyond what the round model allows"
        return r["next"]


#: Option sets the play check covers (quick: the first four).
CHIP_OPTIONS: tuple[dict[str, str], ...] = (
    {}, {"payment": "2", "oni_pays": "no"}, {"bust": "debt", "tie_dealer": "pass"}, {"oni_play": "choice"},
    {"rounds": "6", "chips": "200"}, {"oni_pays": "no", "oni_play": "choice"}, {"tie_dealer": "pass"},
)


def _against_play(adapter: EngineAdapter, quick: bool) -> Result:
    rng = SplitMix64(44)
    rounds = events = ties = 0
    for extra in CHIP_OPTIONS[:4] if quick else CHIP_OPTIONS:
        opts = kg.SPEC.resolve(None, extra)
        for _ in range(3 if quick else 12):
            seed = rng.next()
            adapter.start(GAME, opts, seed)
            watch = ChipWatch(adapter, opts)
            actions: list[str] = []
            for _ in range(5000):
                if adapter.match_over():
                    break
                legal = adapter.legal_actions()
                act = legal[rng.below(len(legal))]
                actions.append(act)
                bad = watch.play(act)
                if bad:
                    return False, bad, {"kind": "play", "game": GAME, "options": opts, "seed": seed,
                                        "actions": actions, "check": "kusurigui-chips"}, rounds + watch.rounds, ()
            rounds += watch.rounds
            events += watch.events
            ties += watch.ties
    return True, (f"{rounds} rounds ({events} Kusuri-gui, {ties} equal totals): every payment, settlement, next "
                  "dealer and game end as the tables say"), {}, rounds, ()


def replay_check(adapter: EngineAdapter, cx: Mapping[str, object], options: Mapping[str, str]) -> str | None:
    """Re-run a ``kusurigui-chips`` counterexample (a match): the disagreement, or None."""
    return replay_match(adapter, GAME, options, cx, lambda a: ChipWatch(a, options).play)


def _chips(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    yield timed(GAME, "z3 decision table: Kusuri-gui payment (KG-PAY-1…5, KG-SCORE-3)", _pay_table)
    yield timed(GAME, "z3 decision table: round result (KG-SCORE-1…3, KG-16, KG-END-2)", _result_table)
    yield timed(GAME, "z3 decision table: end of the game (KG-GAME-1, KG-GAME-3)", _end_table)
    yield timed(GAME, "z3 inductive chip model of a round (KG-PAY-1…5, KG-8, KG-EQ-2)", _round_chips)
    yield timed(GAME, "chips vs reference play (KG-PAY-1…5, KG-SCORE-1…3, KG-GAME-1/3)",
                lambda: _against_play(adapter, quick), SAMPLED)


def checks(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    """Every Kusuri-gui proof, in report order."""
    yield from _deal(adapter)
    yield from _turn()
    yield from _settlement()
    yield from _chips(adapter, quick)
    yield from _yaku(adapter, quick)
