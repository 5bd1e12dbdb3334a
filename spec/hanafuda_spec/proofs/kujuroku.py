"""z3 proofs for Kujuroku: deal arithmetic (41 and 42 cards), the chip bands and the settlement
cases as decision tables, the reference's card-point settlements checked against them, and the
four dekiyaku configurations (A–D, KJ-YAKU-5…8) over one Boolean per card.

For every configuration, with either ``dekiyaku_count`` and either deck (41 cards, or 42 with the
Jizo-fuda): the catalogue's claims (KJ-YAKU-4 exclusivity or stacking, KJ-10, KJ-20, KJ-YAKU-9),
the maximum and z3-generated boundary piles scored by the reference; which dekiyaku the dealer's
takes at the deal can form (KJ-YAKU-1, KJ-DEAL-3…6), each replayed on the reference with a stacked
deck and paid as KJ-YAKU-2 says; and which dekiyaku a single capture step can complete from a pile
that has none (KJ-YAKU-1, KJ-8, KJ-ONI-7), with the most a dekiyaku round can pay.

Encoded from :mod:`hanafuda_spec.games.kujuroku` (CONFIGURATIONS, CHIP_TABLE, card points, deal
sizes); the reference is reached only through the adapter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace

from hanafuda_spec import z3layer as z
from hanafuda_spec.adapter import EngineAdapter, RoundOutcome
from hanafuda_spec.games import kujuroku as kj
from hanafuda_spec.machines import place, probe_layout
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.proofs.common import (
    REPORT,
    SAMPLED,
    Case,
    CountModel,
    DecisionRow,
    Outcome,
    YakuModel,
    boundary_piles,
    cross_check,
    decision_table,
    expected_scores,
    inductive,
    strict_parts,
    timed,
    yaku_checks,
)
from hanafuda_spec.shuffle import SplitMix64
from hanafuda_spec.yaku import ScoredYaku, YakuDef

__all__ = ["checks"]

GAME = "kujuroku"
Result = tuple[bool, str, Mapping[str, object], int, tuple[Case, ...]]
TOTAL = 300  #: card points of either deck (KJ-SCORE-1)

#: Cases the proofs find, and the gap id of the recorded decision that closes each (None: open,
#: the check fails until the catalogue records a decision and its id is entered here).
DECISIONS: dict[str, str | None] = {
    # The Oni discarded from the hand onto an empty field (KJ-ONI-4) is removed at the end of the
    # turn, so that turn changes the field by an even number: the next turn starts with an odd one.
    # The profile's field-parity invariant (KJ-25) then fails (random play: seed 720, policy 5041).
    "parity-after-oni-discard": "KJ-25",
    # Some dekiyaku can never end a round: every capture step adds cards of one number (plus the
    # jokers), and the deal adds at most four cards, so a dekiyaku that needs two complete sets of
    # four (the 3s and the 4s), or a set of four and another dekiyaku that is not part of it, is
    # preceded by a smaller one that ends the round first (KJ-YAKU-1, KJ-8). The catalogue lists
    # them (KJ-YAKU-5…8) without saying so; see _formation. With the Jizo and jizo_timing=after-draw
    # (KJ-27) the Oni's turn is checked once and every row can be paid.
    "dekiyaku-never-paid": "KJ-26",
}


def _deal(adapter: EngineAdapter) -> Iterator[Outcome]:
    def arithmetic() -> Result:
        n = 0
        for jizo in (False, True):
            deck = len(kj.DECK_IDS[jizo])
            hands, field, stock = z.int_var("hands"), z.int_var("field"), z.int_var("stock")
            turns, draws = z.int_var("turns"), z.int_var("draws")
            dom = [hands.eq(kj.PLAYERS_PER_ROUND * kj.HAND_SIZE), field.eq(6), stock.eq(deck - hands - field),
                   turns.eq(hands),  # one hand card per turn
                   # KJ-TURN-3: every turn draws, except the very last one with 41 cards
                   draws.eq(turns - (0 if jizo else 1))]
            claim = (hands + field + stock).eq(deck) & stock.eq(draws) & stock.eq(kj.stock_size(jizo))
            r = z.prove("deal", claim, dom)
            if not r.ok:
                return False, f"jizo={jizo}: {r.status}", {"kind": "model", **r.counterexample}, n, ()
            opts = kj.SPEC.resolve(None, {"jizo": kj.Jizo.ON if jizo else kj.Jizo.OFF})
            for seed in range(1, 4):
                adapter.start(GAME, opts, seed)
                s = adapter.snapshot()
                if s.phase != "play":
                    continue
                n += 1
                in_hands = sorted(len(s.zone(f"hand.{i}")) for i in range(4))
                if in_hands[-3:] != [6, 6, 6] or len(s.zone("stock")) != kj.stock_size(jizo):
                    return False, f"jizo={jizo}: the reference deals hands {in_hands}, stock {len(s.zone('stock'))}", {
                        "kind": "play", "game": GAME, "options": opts, "seed": seed, "actions": []}, n, ()
        return True, ("the catalogue's sizes add up (18 + 6 + 17 = 41 with 17 draws, 18 + 6 + 18 = 42 with 18: "
                      f"constants, no variable left free); {n} reference deals agree"), {}, n, ()
    yield timed(GAME, "deal arithmetic of the catalogue's sizes, reference deals (KJ-DEAL, KJ-TURN-3)", arithmetic,
                SAMPLED)


def band_rows() -> list[DecisionRow]:
    """KJ-SCORE-2: one row per band of CHIP_TABLE (highest first)."""
    rows = []
    upper: int | None = None
    for low, chips in kj.CHIP_TABLE:
        lo, hi = low, upper

        def guard(v: Mapping[str, z.Int], lo: int = lo, hi: int | None = hi) -> z.Bool:
            g = v["points"] >= lo
            return g & (v["points"] < hi) if hi is not None else g
        def value(_v: Mapping[str, z.Int], c: int = chips) -> z.Int:
            return z.const(c)
        rows.append(DecisionRow(f"{lo}..{'' if hi is None else hi - 1}: {chips:+d}", guard, value))
        upper = low
    return rows


def chips_of(points: int) -> int:
    """The band value by the z3 table (evaluated, not the spec's function)."""
    v = {"points": z.int_var("points")}
    for r in band_rows():
        if z.evaluate(z.ite(r.guard(v), 1, 0), {"points": points}) == 1:
            return z.evaluate(r.value(v), {"points": points})
    raise ValueError(f"no band for {points}")


def _tables(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    def bands() -> Result:
        rows = band_rows()
        gaps, clashes = decision_table(("points",), lambda v: (v["points"] >= 0) & (v["points"] <= TOTAL), rows)
        cases = [Case(f"{g['points']} points: no band", None) for g in gaps]
        cases += [Case(f"{g['points']} points: two bands", None) for g in clashes]
        pv = {"points": z.int_var("points")}
        zero = z.find([pv["points"] >= 0, pv["points"] <= TOTAL,
                       z.any_of(r.guard(pv) & r.value(pv).eq(0) for r in rows)])
        if zero is not None:
            cases.append(Case(f"{zero['points']} points are worth 0 chips", None))
        par = chips_of(kj.PAR)
        if par != 1:
            return False, f"the par {kj.PAR} is worth {par}, not +1", {}, 0, tuple(cases)
        return True, "complete, consistent, no band worth 0; the par 96 is +1", {}, 0, tuple(cases)
    yield timed(GAME, "z3 decision table: chip bands (KJ-SCORE-2)", bands)

    def settlement() -> Result:
        # chips c0, c1, c2 (each ±1..3): which case (KJ-SCORE-3…6) applies
        names = ("c0", "c1", "c2")

        def pos(v: Mapping[str, z.Int]) -> z.Int:
            return z.count(v[n] > 0 for n in names)
        rows = [DecisionRow("KJ-SCORE-6 all negative (KJ-13)", lambda v: pos(v).eq(0), lambda v: z.const(0)),
                DecisionRow("KJ-SCORE-3 two negative", lambda v: pos(v).eq(1), lambda v: z.const(1)),
                DecisionRow("KJ-SCORE-4 two positive", lambda v: pos(v).eq(2), lambda v: z.const(2)),
                DecisionRow("KJ-SCORE-5 all positive", lambda v: pos(v).eq(3), lambda v: z.const(3))]

        def dom(v: Mapping[str, z.Int]) -> z.Bool:
            return z.all_of(((v[n] >= -3) & (v[n] <= 3) & v[n].ne(0)) for n in names)
        gaps, clashes = decision_table(names, dom, rows)
        cases = [Case(f"chips {[g[n] for n in names]}: no case", None) for g in gaps]
        cases += [Case(f"chips {[g[n] for n in names]}: two cases", None) for g in clashes]
        # all three negative needs at most 3 × 95 = 285 points captured: 15 or more uncaptured
        p = [z.int_var(f"p{i}") for i in range(3)]
        band_neg = z.all_of(x < kj.PAR for x in p)  # below the par: a negative band
        r = z.prove("all negative ⇒ ≤ 285 captured", z.sum_of(p) <= 285, [band_neg, *(x >= 0 for x in p)])
        if not r.ok:
            return False, f"all-negative arithmetic: {r.status}", {"kind": "model", **r.counterexample}, 0, ()
        cases.append(Case("all three chip scores negative: needs 15+ points uncaptured (Oni removed, cards "
                          "left on the field); settled as a draw", "KJ-13"))
        return True, "complete and consistent over every chip triple", {}, 0, tuple(cases)
    yield timed(GAME, "z3 decision table: settlement cases (KJ-SCORE-3…6)", settlement)

    def against_play() -> Result:
        """The last round of random matches, when settled on card points, pays what the z3 tables say."""
        rng = SplitMix64(96)
        checked = 0
        for players in kj.Players:
            opts = kj.SPEC.resolve(None, {"players": players})
            for _ in range(25 if quick else 100):
                seed = rng.next()
                adapter.start(GAME, opts, seed)
                actions: list[str] = []
                last = None
                for _ in range(20000):
                    if adapter.match_over():
                        break
                    legal = adapter.legal_actions()
                    act = legal[rng.below(len(legal))]
                    adapter.apply(act)
                    actions.append(act)
                    for o in adapter.rounds_ended():
                        last = o
                if last is None or last.reason != "card-points":
                    continue
                checked += 1
                bad = settlement_mismatch(last, adapter.snapshot())
                if bad:
                    return False, bad, {"kind": "play", "game": GAME, "options": opts, "seed": seed,
                                        "actions": actions, "check": "kujuroku-settlement"}, checked, ()
        return True, f"{checked} card-point settlements agree with the tables", {}, checked, ()
    yield timed(GAME, "chip bands and settlement vs reference play (KJ-SCORE-2…5)", against_play, SAMPLED)


def _turn(oni_aware: bool) -> CountModel:
    """One whole turn of the 41-card game over the number of field cards ``f`` and where the Oni is
    (``oni``: 0 gone or captured, 1 in a hand, 2 in the draw pile). A card matching nothing adds one
    field card, a capture removes one (three of a rank never lie on the field, KJ-5); the Oni
    captures one card (KJ-ONI-1/3), or onto an empty field it is discarded and removed at the end
    of the turn (KJ-ONI-4, KJ-25). A turn without a draw is the round's last and has no successor."""
    names = ("f", "oni")

    def inv(v: Mapping[str, z.Int]) -> z.Bool:
        even = (v["f"] % 2).eq(0)
        return (v["oni"] >= 1).implies(even) if oni_aware else even

    def init(v: Mapping[str, z.Int]) -> z.Bool:
        return v["f"].eq(6) & (v["oni"] >= 1) & (v["oni"] <= 2)

    def step(v: Mapping[str, z.Int], w: Mapping[str, z.Int]) -> z.Bool:
        f, oni = v["f"], v["oni"]
        hand_oni, k, j = z.int_var("hand_oni"), z.int_var("k"), z.int_var("j")
        drew_oni = z.int_var("drew_oni")
        # the hand play: a numbered card (k matches, 0 to 2) or the Oni from the hand (hand_oni = 1)
        mid = z.int_var("mid")
        removed = z.int_var("removed")
        hand = z.all_of([hand_oni >= 0, hand_oni <= 1, hand_oni.eq(1).implies(oni.eq(1)), k >= 0, k <= 2, k <= f,
                         z.ite(hand_oni.eq(1), 1, 0).eq(1).implies(
                             mid.eq(z.ite(f.eq(0), 1, f - 1)) & removed.eq(z.ite(f.eq(0), 1, 0))),
                         z.ite(hand_oni.eq(0), 1, 0).eq(1).implies(
                             mid.eq(z.ite(k.eq(0), f + 1, f - 1)) & removed.eq(0))])
        # the draw: the Oni if it is in the pile (drew_oni = 1), else a numbered card with j matches
        field_nums = mid - removed  # numbered cards on the field (a discarded Oni matches nothing)
        draw = z.all_of([drew_oni >= 0, drew_oni <= 1, drew_oni.eq(1).implies(oni.eq(2)), j >= 0, j <= 2,
                         j <= field_nums,
                         z.ite(drew_oni.eq(1), 1, 0).eq(1).implies(
                             w["f"].eq(z.ite(field_nums.eq(0), mid, mid - 1) - removed)),
                         z.ite(drew_oni.eq(0), 1, 0).eq(1).implies(
                             w["f"].eq(z.ite(j.eq(0), mid + 1, mid - 1) - removed))])
        where = w["oni"].eq(z.ite(hand_oni.eq(1) | drew_oni.eq(1), 0, oni))
        return z.all_of([f >= 0, oni >= 0, oni <= 2, hand, draw, where])

    return CountModel(names, init, step, inv)


def parity_model() -> CountModel:
    """The field-parity model of a whole turn (``_turn``, Oni-aware), for the refinement check
    against the engine (:mod:`hanafuda_spec.proofs.refinement`)."""
    return _turn(True)


def _parity() -> Iterator[Outcome]:
    def proof() -> Result:
        base, ind = inductive(_turn(True))
        for r in (base, ind):
            if not r.ok:
                return False, f"{r.name}: {r.status}", {"kind": "model", **r.counterexample}, 0, ()
        cases = []
        cx: dict[str, object] = {}
        _, plain = inductive(_turn(False))
        if not plain.ok:
            cx = {"kind": "model", "game": GAME, **plain.counterexample}
            after = cx.get("f'")
            cases.append(Case(
                f"the field-parity invariant 'every turn starts with an even number of field cards' (KJ-25, the "
                f"profile's field parity) is not inductive: from {cx.get('f')} field cards, Oni "
                f"{'from the hand' if cx.get('hand_oni') == 1 else 'drawn'} onto the empty field, the next turn "
                f"starts with {after}; it holds while the Oni is still to be played",
                DECISIONS["parity-after-oni-discard"]))
        return True, ("proved: while the Oni is in a hand or the draw pile, every turn starts with an even number "
                      "of field cards, so a drawn Oni always finds a card to capture (KJ-25)"), cx, 0, tuple(cases)
    yield timed(GAME, "z3 inductive field parity of the turn (KJ-25, KJ-ONI-3/4)", proof)

    def remaining() -> Result:
        # KJ-11: after the Oni takes a card of rank r, the other three leave play two at a time
        # (a capture, or the dealer's take of 2 of 3 at the deal): an odd number stays uncaptured.
        m = CountModel(("u",), lambda v: v["u"].eq(3), lambda v, w: (v["u"] >= 2) & w["u"].eq(v["u"] - 2),
                       lambda v: ((v["u"] % 2).eq(1)) & (v["u"] >= 1) & (v["u"] <= 3))
        base, ind = inductive(m)
        ok = base.ok and ind.ok
        return ok, ("the argument's arithmetic (3 cards, then 2 at a time: one is left) is inductive; a fixed model "
                    "that reads nothing of the game, so a report (play checks KJ-11 in tests/test_kujuroku.py)"
                    if ok else "refuted"), {}, 0, ()
    yield timed(GAME, "z3 inductive: one remaining card of the Oni's rank (KJ-11)", remaining, REPORT)


# -- the dekiyaku configurations (KJ-YAKU-3…9) -------------------------------------------------------

CONFIGS = tuple(kj.CONFIGURATIONS)
#: KJ-20: the configurations that tell the special 3 from the other 3s.
SPECIAL_3_CONFIGS = frozenset({"B", "C"})
#: The most cards one capture pile can hold, the bound of the crowded boundary piles: four taken at
#: the deal (KJ-DEAL-4…6), two for each of the twelve plays of a participant, and the remaining card.
PILE_BOUND = 4 + 2 * 2 * kj.HAND_SIZE + 1
NUMBERED = tuple(c for c in kj.DECK_IDS[False] if c != kj.ONI)
RANKS = tuple(sorted({c // 10 for c in NUMBERED}))
DEAL_PHASES = ("deal-oni", "deal-triple")
Claim = Callable[[YakuModel], z.Bool]


def rank_cards(r: int) -> tuple[int, ...]:
    return tuple(c for c in NUMBERED if c // 10 == r)


def config_rule(config: str) -> str:
    """The rule that lists the configuration's table (KJ-YAKU-5…8)."""
    return kj.CONFIGURATIONS[config][0].rule


def dekiyaku_rows(config: str, stack: bool) -> tuple[YakuDef, ...]:
    """The configuration's rows; with ``dekiyaku_count=stack`` (KJ-YAKU-4) outside their common group,
    so that every formed one scores."""
    rows = kj.CONFIGURATIONS[config]
    return tuple(replace(y, group=None) for y in rows) if stack else rows


def dekiyaku_options(config: str, stack: bool, jizo: bool) -> dict[str, str]:
    return kj.SPEC.resolve(None, {"configuration": config,
                                  "dekiyaku_count": kj.DekiyakuCount.STACK if stack else kj.DekiyakuCount.HIGHEST,
                                  "jizo": kj.Jizo.ON if jizo else kj.Jizo.OFF})


def dekiyaku_label(config: str, stack: bool, jizo: bool) -> str:
    head = f"configuration {config} ({config_rule(config)})"
    if config == "A" and not stack and not jizo:
        return f"{head}, ruleset fudawiki"  # the default rules
    return ", ".join([head, *(["dekiyaku_count=stack"] if stack else []), *(["jizo=on"] if jizo else [])])


def _image(m: YakuModel, prefix: str, source: Callable[[int], z.Bool]) -> z.Bool:
    """Every row scores the same on ``m``'s pile and on its image, a second pile that holds card ``c``
    exactly when ``source(c)`` holds."""
    m2 = YakuModel(m.rows, m.deck, prefix)
    link = z.all_of(m2.x[c].iff(source(c)) for c in m.deck)
    return link.implies(z.all_of(a.eq(b) for a, b in zip(m.scores, m2.scores, strict=True)))


def _swapped(m: YakuModel, a: int, b: int) -> Callable[[int], z.Bool]:
    """``m``'s pile with cards ``a`` and ``b`` exchanged, as a source for :func:`_image`."""
    return lambda c: m.has(b if c == a else a if c == b else c)


def dekiyaku_claims(config: str, stack: bool, jizo: bool) -> list[tuple[str, Claim]]:
    """What the catalogue says of one configuration's table, as claims over any pile."""
    out: list[tuple[str, Claim]] = []
    if stack:
        out.append(("KJ-YAKU-4 with dekiyaku_count=stack every formed dekiyaku pays its value",
                    lambda m: m.total.eq(z.sum_of(m.values))))
    else:
        out.append(("KJ-YAKU-4 only the most valuable formed dekiyaku pays",
                    lambda m: m.total.eq(z.max_of(m.values)) & (z.count(s > 0 for s in m.scores) <= 1)))
    ids = [y.id for y in kj.CONFIGURATIONS[config]]
    if "shi-dan" in ids and "shi-yaku" in ids:
        out.append(("KJ-10 Shi-Dan always comes with Shi Yaku", lambda m: m.formed(m.rows[ids.index("shi-dan")])
                    .implies(m.formed(m.rows[ids.index("shi-yaku")]))))
    if config == "C":
        def sum_of_parts(m: YakuModel) -> z.Bool:
            parts = strict_parts(m)  # (i, j): row i is part of row j
            base = [j for j in range(len(m.rows)) if not any(jj == j for _, jj in parts)]
            claims = []
            for j in range(len(m.rows)):
                mine = [i for i in base if i == j or (i, j) in parts]
                claims.append(m.values[j].eq(z.ite(z.all_of(m.formed(m.rows[i]) for i in mine),
                                                   sum(m.rows[i].points for i in mine), 0)))
            if not stack:  # so paying the most valuable one pays the sum of the formed Shi Yaku, San Yaku, Danjou
                claims.append(m.total.eq(z.sum_of(m.values[i] for i in base)))
            return z.all_of(claims)
        out.append(("KJ-10 in configuration C each dekiyaku is formed exactly when the smallest ones it contains "
                    "are, and is worth their sum", sum_of_parts))
    plain3 = next(c for c in sorted(kj.THREES) if c != kj.SPECIAL_3)
    if config in SPECIAL_3_CONFIGS:
        def never_lower(m: YakuModel) -> z.Bool:
            m2 = YakuModel(m.rows, m.deck, "s3_")
            link = z.all_of(m2.x[c].iff(_swapped(m, kj.SPECIAL_3, plain3)(c)) for c in m.deck)
            return (link & m.has(plain3) & ~m.has(kj.SPECIAL_3)).implies(m2.total >= m.total)
        out.append((f"KJ-20 in configuration {config} the special 3 in place of a plain 3 never lowers a score",
                    never_lower))
    else:
        out.append((f"KJ-20 in configuration {config} the special 3 scores like any other 3",
                    lambda m: _image(m, "s3_", _swapped(m, kj.SPECIAL_3, plain3))))
    if jizo:
        out.append(("KJ-YAKU-9 the Jizo in a pile changes no dekiyaku: an Oni it subdued still counts",
                    lambda m: _image(m, "jz_", lambda c: ~m.has(c) if c == kj.JIZO else m.has(c))))
    return out


def _prove_claims(m: YakuModel, claims: Sequence[tuple[str, Claim]], options: Mapping[str, str]) -> Result | None:
    """The first claim that fails, as a check result (None if every one is proved)."""
    for name, cl in claims:
        r = z.prove(name, cl(m))
        if not r.ok:
            pile = m.pile_of(r.counterexample)
            return False, f"{name}: {r.status}: pile {list(pile)}", {
                "kind": "model", "game": GAME, "options": dict(options), "pile": list(pile), "claim": name}, 0, ()
    return None


def _maximum(adapter: EngineAdapter, m: YakuModel, options: Mapping[str, str], extra: Sequence[z.Bool] = (),
             what: str = "maximum") -> Result:
    """The largest total z3 finds, scored by the reference on the pile that reaches it."""
    best = z.maximize(what, m.total, extra)
    if best.value is None:
        return False, f"{what}: not found (timeout)", {}, 0, ()
    pile = m.pile_of(best.model)
    got, _ = adapter.score_pile(GAME, options, pile, None)
    want = expected_scores(m, pile)
    if sorted(got) != sorted(want):
        return False, f"{what} {best.value} on {list(pile)}: the reference scores {_fmt(got)}", {
            "kind": "score", "game": GAME, "options": dict(options), "month": None, "pile": list(pile),
            "expected": [[y.id, y.points] for y in want]}, 1, ()
    return True, f"{what} {best.value} on {list(pile)}, scored so by the reference", {}, 1, ()


def _scorer(m: YakuModel) -> Callable[[Sequence[int]], tuple[ScoredYaku, ...]]:
    """Scoring as the z3 table says, for a pile."""
    return lambda p: expected_scores(m, p)


def _fmt(ys: Sequence[ScoredYaku]) -> str:
    return ", ".join(f"{y.id} {y.points}" for y in ys) or "nothing"


def _table_checks(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    """The generic yaku-table checks (claims, subsumptions, ties, order, maximum, boundary piles) of
    every configuration with either count and either deck; a quick run covers configuration A and
    one combined check of each other configuration."""
    for config in CONFIGS:
        if quick and config != "A":
            yield _table_summary(adapter, config)
            continue
        for stack in (False, True):
            for jizo in (False, True):
                first = config == "A" and not stack and not jizo
                if quick and stack and jizo:
                    continue
                rows, opts = dekiyaku_rows(config, stack), dekiyaku_options(config, stack, jizo)
                light = quick and not first
                yield from yaku_checks(GAME, adapter, dekiyaku_label(config, stack, jizo), opts, None, rows,
                                       kj.DECK_IDS[jizo], PILE_BOUND, claims=dekiyaku_claims(config, stack, jizo),
                                       quick=quick, only=frozenset(y.id for y in rows) if light else None,
                                       first=first)


def _table_summary(adapter: EngineAdapter, config: str) -> Outcome:
    """One check of a configuration's table (default count, 41 cards): its claims, its maximum and
    its boundary piles scored by the reference."""
    rows, opts = dekiyaku_rows(config, False), dekiyaku_options(config, False, False)

    def run() -> Result:
        m = YakuModel(rows, kj.DECK_IDS[False])
        claims = dekiyaku_claims(config, False, False)
        bad = _prove_claims(m, claims, opts)
        if bad is not None:
            return bad
        ok, top, cx, n, _ = _maximum(adapter, m, opts)
        if not ok:
            return ok, top, cx, n, ()
        ok, detail, cx, k = cross_check(adapter, GAME, opts, None, boundary_piles(m, PILE_BOUND),
                                        _scorer(m))
        if not ok:
            return ok, detail, cx, n + k, ()
        return True, f"proved: {'; '.join(nm for nm, _ in claims)}; {top}; {detail}", {}, n + k, ()
    return timed(GAME, f"z3 dekiyaku table: claims, maximum and boundary piles vs scorer, "
                       f"{dekiyaku_label(config, False, False)}", run, SAMPLED)


def _special_three(adapter: EngineAdapter) -> Outcome:
    """KJ-20: exchanging the special 3 with a plain 3 changes no score in A and D, and can in B and C
    (a z3 pile where it does, scored both ways by the reference)."""
    plain3 = next(c for c in sorted(kj.THREES) if c != kj.SPECIAL_3)

    def run() -> Result:
        said = []
        n = 0
        for config in CONFIGS:
            rows, opts = dekiyaku_rows(config, False), dekiyaku_options(config, False, False)
            m = YakuModel(rows, kj.DECK_IDS[False])
            same = _image(m, "s3_", _swapped(m, kj.SPECIAL_3, plain3))
            r = z.prove(f"KJ-20 {config}", same)
            if config not in SPECIAL_3_CONFIGS:
                if not r.ok:
                    pile = m.pile_of(r.counterexample)
                    return False, f"configuration {config}: the special 3 changes the score of {list(pile)}", {
                        "kind": "model", "game": GAME, "configuration": config, "pile": list(pile)}, n, ()
                said.append(f"{config}: like any 3")
                continue
            if r.ok:
                return False, f"configuration {config}: the special 3 never matters", {}, n, ()
            pile = m.pile_of(r.counterexample)
            image = tuple(sorted(plain3 if c == kj.SPECIAL_3 else kj.SPECIAL_3 if c == plain3 else c for c in pile))
            if kj.SPECIAL_3 not in pile:
                pile, image = image, pile
            ok, detail, cx, k = cross_check(adapter, GAME, opts, None, [
                (f"configuration {config}, with the special 3", pile),
                (f"configuration {config}, a plain 3 instead", image)], _scorer(m))
            n += k
            if not ok:
                return ok, detail, cx, n, ()
            said.append(f"{config}: {_fmt(expected_scores(m, pile))} on {list(pile)}, "
                        f"{_fmt(expected_scores(m, image))} with {plain3} for it")
        return True, "; ".join(said), {}, n, ()
    return timed(GAME, "z3 the special 3 matters only in configurations B and C (KJ-20, KJ-YAKU-5…8)", run)


def _jizo_piles(adapter: EngineAdapter, config: str, stack: bool) -> Outcome | None:
    """KJ-YAKU-9: each dekiyaku naming the Oni, formed by a z3 pile that also holds the Jizo (the Oni
    was subdued), scored by the reference as the table says; None if no row names the Oni."""
    rows, opts = dekiyaku_rows(config, stack), dekiyaku_options(config, stack, True)
    oni_rows = [y for y in rows if kj.ONI in y.required | y.pool]
    if not oni_rows:
        return None

    def piles(m: YakuModel) -> Iterator[tuple[str, tuple[int, ...]]]:
        for y in oni_rows:
            w = z.find([m.formed(y), m.has(kj.JIZO), *(~m.has(c) for c in m.deck
                                                       if c not in y.required | y.pool | {kj.JIZO})])
            if w is not None:
                yield f"{y.id} with the Jizo that subdued the Oni", m.pile_of(w)

    def run() -> Result:
        m = YakuModel(rows, kj.DECK_IDS[True])
        ok, detail, cx, n = cross_check(adapter, GAME, opts, None, piles(m), _scorer(m))
        return ok, detail if not ok else f"{n} piles with the Jizo agree ({', '.join(y.id for y in oni_rows)})", \
            cx, n, ()
    return timed(GAME, f"z3 Oni dekiyaku with the Jizo vs scorer (KJ-YAKU-9, KJ-24), "
                       f"{dekiyaku_label(config, stack, True)}", run, SAMPLED)


class DealModel:
    """The dealt field and the dealer's takes at the deal over one Boolean per card (KJ-DEAL-3…6):
    ``f<id>`` dealt to the field, ``o<id>`` the numbered card the dealer takes with a dealt Oni,
    ``d<id>`` one of the two taken from three of a number; ``pile`` is the dekiyaku table over the
    dealer's capture pile after the takes (prefix ``t_``)."""

    def __init__(self, rows: Sequence[YakuDef], jizo: bool) -> None:
        self.deck = kj.DECK_IDS[jizo]
        self.pile = YakuModel(rows, self.deck, "t_")
        self.f = {c: z.bool_var(f"f{c}") for c in self.deck}
        self.o = {c: z.bool_var(f"o{c}") for c in NUMBERED}
        self.d = {c: z.bool_var(f"d{c}") for c in NUMBERED}
        p, f = self.pile, self.f
        oni, jz = f[kj.ONI], f[kj.JIZO] if jizo else ~z.true()
        cons = [z.count(f.values()).eq(6),  # KJ-DEAL-2: six cards to the field
                *(z.count(f[c] for c in rank_cards(r)) <= 3 for r in RANKS),  # KJ-DEAL-3: four is a misdeal
                p.has(kj.ONI).iff(oni),
                # KJ-DEAL-4: a dealt Oni takes one numbered card; KJ-DEAL-5: not when the Jizo is dealt too
                z.count(self.o.values()).eq(z.ite(oni & ~jz, 1, 0))]
        if jizo:
            cons.append(p.has(kj.JIZO).iff(jz))  # KJ-DEAL-5: a dealt Jizo goes to the dealer
        for c in NUMBERED:
            cons += [self.o[c].implies(f[c]), self.d[c].implies(f[c] & ~self.o[c]),
                     p.has(c).iff(self.o[c] | self.d[c])]
        for r in RANKS:  # KJ-DEAL-6: two of three of a number left on the field
            left = z.count(f[c] & ~self.o[c] for c in rank_cards(r))
            cons.append(z.count(self.d[c] for c in rank_cards(r)).eq(z.ite(left.eq(3), 2, 0)))
        self.constraints = cons

    def field(self, m: z.Model) -> list[int]:
        return [c for c in self.deck if m.get(f"f{c}") is True]

    def takes(self, m: z.Model) -> list[list[int]]:
        """The dealer's choices: the Oni with its card, then two of each triple, lowest number first."""
        out = [[kj.ONI, c] for c in NUMBERED if m.get(f"o{c}") is True]
        for r in RANKS:
            two = [c for c in rank_cards(r) if m.get(f"d{c}") is True]
            if two:
                out.append(two)
        return out


def _card_ids(action: str) -> frozenset[int]:
    return frozenset(int(t) for t in action.split() if t.isdigit())


def deal_mismatch(adapter: EngineAdapter, options: Mapping[str, str], deck: Sequence[int],
                  takes: Sequence[Sequence[int]], want: Sequence[ScoredYaku]) -> tuple[str | None, list[str]]:
    """Deal ``deck``, make the dealer's ``takes`` and check that the round ends at once with ``want``
    for the dealer, paid by each of the two other participants (KJ-YAKU-1, KJ-YAKU-2, KJ-9): the
    mismatch (None if none) and the actions applied."""
    adapter.start(GAME, options, 0, deck)
    s = adapter.snapshot()
    outcomes = list(adapter.rounds_ended())
    actions: list[str] = []
    left = [frozenset(t) for t in takes]
    while not outcomes and adapter.snapshot().phase in DEAL_PHASES:
        legal = adapter.legal_actions()
        pick = next((a for a in legal if _card_ids(a) in left), None)
        if pick is None:
            return f"no deal action takes one of {[sorted(t) for t in left]} (legal: {list(legal)[:12]})", actions
        adapter.apply(pick)
        actions.append(pick)
        left.remove(_card_ids(pick))
        outcomes += adapter.rounds_ended()
    seats = int(kj.SPEC.value(options, kj.Players))
    dealer = s.dealer
    value = sum(y.points for y in want)
    paid = [0] * seats
    for i in range(kj.PLAYERS_PER_ROUND):
        paid[(dealer + i) % seats] = 2 * value if i == 0 else -value
    got = [o for o in outcomes if o.reason == "dekiyaku"]
    if len(got) != 1:
        return (f"after the takes {[sorted(t) for t in takes]} the reference ends {[o.reason for o in outcomes]}, "
                f"the dealer should have {_fmt(want)}"), actions
    o = got[0]
    mine = o.yaku[dealer] if dealer < len(o.yaku) else ()
    if sorted(mine) != sorted(want) or list(o.deltas) != paid:
        return (f"dekiyaku at the deal: the reference pays {_fmt(mine)} as {list(o.deltas)}, the spec says "
                f"{_fmt(want)} as {paid}"), actions
    return None, actions


def _deal_dekiyaku(adapter: EngineAdapter, config: str, stack: bool, jizo: bool) -> Outcome:
    """Which dekiyaku the dealer's takes can form at the deal (KJ-YAKU-1 with KJ-DEAL-3…6), each
    formed on a stacked deck by the reference; and no remaining card is confirmed at the deal."""
    rows, opts = dekiyaku_rows(config, stack), dekiyaku_options(config, stack, jizo)

    def run() -> Result:
        dm = DealModel(rows, jizo)
        three = z.prove("no three of a number", z.all_of(z.count(dm.pile.has(c) for c in rank_cards(r)) <= 2
                                                         for r in RANKS), dm.constraints)
        if not three.ok:
            return False, (f"{three.status}: the dealer's pile holds three of a number after the deal "
                           f"{dm.field(three.counterexample)}"), {"kind": "model", "game": GAME,
                                                                  **three.counterexample}, 0, ()
        layout = probe_layout(adapter, GAME, opts, lambda s: s.phase == "play" and not any(
            cards for name, cards in s.zones if name.startswith("captured.")))
        formed, never, n = [], [], 0
        for i, y in enumerate(rows):
            r = z.prove(f"{y.id} never at the deal", dm.pile.scores[i].eq(0), dm.constraints)
            if r.ok:
                never.append(y.id)
                continue
            if r.status != "refuted":
                return False, f"{y.id}: {r.status}", {}, n, ()
            field, takes = dm.field(r.counterexample), dm.takes(r.counterexample)
            want = expected_scores(dm.pile, dm.pile.pile_of(r.counterexample))
            deck = place(layout, {"field": field}, sorted(dm.deck))
            bad, actions = deal_mismatch(adapter, opts, deck, takes, want)
            n += 1
            if bad:
                return False, f"{y.id}, field {field}: {bad}", {
                    "kind": "play", "game": GAME, "options": dict(opts), "seed": 0, "deck": deck,
                    "actions": actions, "check": "kujuroku-deal-dekiyaku", "takes": takes,
                    "expected": [[x.id, x.points] for x in want]}, n, ()
            formed.append(f"{y.id} (field {field}, takes {takes})")
        best = z.maximize("most at the deal", dm.pile.total, dm.constraints)
        return True, (f"the dealer's takes can form {'; '.join(formed) or 'no dekiyaku'}"
                      f"{', each paid by the reference as KJ-YAKU-2 says' if formed else ''}; never "
                      f"{', '.join(never) or 'none'}; most at the deal {best.value}; no number has three cards in "
                      f"the dealer's pile, so no remaining card is confirmed at the deal (KJ-ONI-7)"), {}, n, ()
    return timed(GAME, f"z3 dekiyaku at the deal, stacked decks vs reference (KJ-YAKU-1, KJ-DEAL-3…6), "
                       f"{dekiyaku_label(config, stack, jizo)}", run, SAMPLED)


class StepModel:
    """One capture step of a round over one Boolean per card (KJ-YAKU-1, KJ-8): the pile before it
    (``b_``) forms no dekiyaku, or the round would be over; the step adds ``s<id>``; the pile after
    (``a_``) is their union, as the dekiyaku check sees it (the Oni-holder's confirmed remaining card
    counted, KJ-ONI-7). A step adds numbered cards of one number only:

    * a card and the one it captures (KJ-CAP-2/3), or the three it captures (KJ-CAP-4), four in all;
    * the Oni-holder's remaining card, confirmed by this capture or by another player's (one more);
    * the Oni and the card it captures (KJ-ONI-1/3, KJ-DEAL-4), with its remaining card at once if the
      other two of that number are already captured;
    * the jokers alone: the Jizo going to its player's pile, or the Jizo and the Oni (KJ-JIZO-1…4);
    * with ``after_draw`` (the Jizo variant under jizo_timing=after-draw, KJ-27), the turn in which the
      Oni captures from the hand, checked once after the draw: the Oni with one to four cards of its
      captured number (its capture, a drawn card of that number with its match, the remaining card),
      and none, two or four of one other number (the drawn card and what it captures).

    An Oni captured by the Jizo only ever loses its card (KJ-JIZO-2), which forms nothing new.
    """

    def __init__(self, rows: Sequence[YakuDef], jizo: bool, after_draw: bool = False) -> None:
        self.deck = kj.DECK_IDS[jizo]
        self.after_draw = after_draw
        self.before = YakuModel(rows, self.deck, "b_")
        self.after = YakuModel(rows, self.deck, "a_")
        self.s = {c: z.bool_var(f"s{c}") for c in self.deck}
        b, a, s = self.before, self.after, self.s
        cons = [a.has(c).iff(b.has(c) | s[c]) & ~(b.has(c) & s[c]) for c in self.deck]
        cons.append(~z.any_of(b.formed(y) for y in rows))
        oni, jz = s[kj.ONI], s[kj.JIZO] if jizo else ~z.true()
        shapes = []
        for r in RANKS:
            k = z.count(s[c] for c in rank_cards(r))
            only = z.all_of(~s[c] for c in NUMBERED if c // 10 != r)
            shapes += [z.all_of([only, ~oni, ~jz, k.eq(2) | k.eq(4)]),
                       z.all_of([only, ~oni, ~jz, k.eq(1) | k.eq(3), b.has(kj.ONI)]),
                       z.all_of([only, oni, ~jz, k.eq(1) | k.eq(2)])]
        if jizo:
            shapes.append(z.all_of([jz, *(~s[c] for c in NUMBERED)]))
        if after_draw:
            for r in RANKS:
                k = z.count(s[c] for c in rank_cards(r))
                for r2 in RANKS:
                    k2 = z.count(s[c] for c in rank_cards(r2)) if r2 != r else z.const(0)
                    only = z.all_of(~s[c] for c in NUMBERED if c // 10 not in (r, r2))
                    shapes.append(z.all_of([only, oni, ~jz, k >= 1, k2.eq(0) | k2.eq(2) | k2.eq(4)]))
        cons.append(z.any_of(shapes))
        self.constraints = cons
        #: the cards a row names, and the Oni: the only cards of the pile before that matter
        self.named = frozenset(c for y in rows for c in y.required | y.pool) | {kj.ONI}

    def tidy(self) -> list[z.Bool]:
        """Keep a witness readable and plain: nothing unnamed in the pile before (it changes no
        dekiyaku), and no capture of three (KJ-CAP-4 cannot happen after the deal, KJ-5)."""
        n = z.count(self.s.values())
        small = (n <= 3) | (self.s[kj.ONI] & (n <= 4)) if self.after_draw else n <= 3  # the Oni's turn: 4
        return [*(~self.before.has(c) for c in self.deck if c not in self.named), small]

    def witness(self, goal: z.Bool) -> z.Model | None:
        """A tidy step reaching ``goal`` with the smallest pile before it (None if there is none)."""
        best = z.maximize("smallest pile before", 0 - self.before.size(), [*self.constraints, *self.tidy(), goal])
        return best.model if best.value is not None else None


def _formation(adapter: EngineAdapter, config: str, stack: bool, jizo: bool) -> Outcome:
    """Which dekiyaku can end a round (KJ-YAKU-1, KJ-8): completed by the deal or by one capture step
    from a pile without one. The others are listed as cases; the most a dekiyaku round pays is found
    and scored by the reference, and every witness pile (before: nothing, after: the dekiyaku) too."""
    rows, opts = dekiyaku_rows(config, stack), dekiyaku_options(config, stack, jizo)

    def run() -> Result:
        after_draw = kj.SPEC.value(opts, kj.JizoTiming) is kj.JizoTiming.AFTER_DRAW
        sm, dm = StepModel(rows, jizo, after_draw and jizo), DealModel(rows, jizo)
        piles: list[tuple[str, tuple[int, ...]]] = []
        paid, never = [], []
        for i, y in enumerate(rows):
            step = z.prove(f"{y.id} never paid after a step", sm.after.scores[i].eq(0), sm.constraints)
            deal = z.prove(f"{y.id} never paid at the deal", dm.pile.scores[i].eq(0), dm.constraints)
            if not all(r.ok or r.status == "refuted" for r in (step, deal)):
                return False, f"{y.id}: {step.status}/{deal.status}", {}, 0, ()
            if step.ok and deal.ok:
                never.append(y)
                continue
            w = sm.witness(sm.after.scores[i] > 0) if not step.ok else None
            if w is None and not step.ok:
                w = step.counterexample
            if w is not None:
                before, after = sm.before.pile_of(w), sm.after.pile_of(w)
                piles += [(f"{y.id}: the pile before the step", before), (f"{y.id}: the pile after it", after)]
                paid.append(f"{y.id} ({list(before)} + {[c for c in after if c not in before]})")
            else:
                paid.append(f"{y.id} (at the deal)")
        ok, detail, cx, n = cross_check(adapter, GAME, opts, None, piles, _scorer(sm.after))
        if not ok:
            return ok, detail, cx, n, ()
        detail = f"the reference scores the {n} piles before and after as the table does"
        ok, top, cx, k = _maximum(adapter, sm.after, opts, [*sm.constraints, *sm.tidy()], "most after a step")[:4]
        n += k
        if not ok:
            return ok, top, cx, n, ()
        at_deal = z.maximize("most at the deal", dm.pile.total, dm.constraints).value
        cases = []
        if never:
            parts = strict_parts(YakuModel(rows, sm.deck))
            for y in never:
                j = rows.index(y)
                inside = [rows[i].name for i, jj in sorted(parts) if jj == j]
                cases.append(Case(
                    f"configuration {config} ({config_rule(config)}"
                    f"{', dekiyaku_count=stack' if stack else ''}): {y.name} ({y.points}) can never be paid: "
                    f"neither the deal nor any single capture step completes it from a pile without a dekiyaku, "
                    f"one of the smaller dekiyaku it contains ({', '.join(inside) or 'none found'}) always ends "
                    f"the round first (KJ-YAKU-1, KJ-8)", DECISIONS["dekiyaku-never-paid"]))
        return True, (f"paid: {'; '.join(paid)}; never: {', '.join(y.id for y in never) or 'none'}; "
                      f"{top}; most at the deal {at_deal}; {detail}"), {}, n, tuple(cases)
    return timed(GAME, f"z3 dekiyaku that can end a round, one capture step from none (KJ-YAKU-1, KJ-8, KJ-ONI-7), "
                       f"{dekiyaku_label(config, stack, jizo)}", run)


def _dekiyaku(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    """Every dekiyaku check: configuration A in a quick run (and one combined table check of each
    other configuration), every configuration with either count and either deck otherwise."""
    yield from _table_checks(adapter, quick)
    if not quick:
        yield _special_three(adapter)
    for config in CONFIGS:
        if quick and config != "A":
            continue
        for stack in (False, True):
            for jizo in (False, True):
                if jizo and not (quick and stack):
                    j = _jizo_piles(adapter, config, stack)
                    if j is not None:
                        yield j
                if not quick or not stack:
                    yield _deal_dekiyaku(adapter, config, stack, jizo)
                if not quick or not jizo:
                    yield _formation(adapter, config, stack, jizo)


def settlement_mismatch(last: RoundOutcome, final: Snapshot) -> str | None:
    """Whether a card-point settlement pays what the z3 tables say, given the final position."""
    parts = [i for i, d in enumerate(last.deltas) if d != 0]
    pts = {i: sum(kj.card_points(c, False) for c in final.zone(f"captured.{i}")) for i in parts}
    chips = {i: chips_of(p) for i, p in pts.items()}
    pos = [i for i in parts if chips[i] > 0]
    want = dict.fromkeys(range(len(last.deltas)), 0)
    odd = pos[0] if len(pos) == 1 else next((i for i in parts if chips[i] < 0), None)
    for i in parts:
        if i != odd:
            want[i] = chips[i]
    if odd is not None:
        want[odd] = -sum(want[i] for i in parts if i != odd)
    if dict(enumerate(last.deltas)) != want:
        return (f"card points {pts} → chips {chips}: the tables say {list(want.values())}, the reference "
                f"settled {list(last.deltas)}")
    return None


def replay_check(adapter: EngineAdapter, cx: Mapping[str, object], options: Mapping[str, str]) -> str | None:
    """Re-run a play counterexample of a proof: ``kujuroku-settlement`` (a whole match) or
    ``kujuroku-deal-dekiyaku`` (a stacked deal and the dealer's takes): the mismatch, or None."""
    seed, actions = cx.get("seed"), cx.get("actions")
    if not isinstance(seed, int) or not isinstance(actions, list):
        raise ValueError("counterexample: 'seed' must be an integer and 'actions' a list")
    if cx.get("check") == "kujuroku-deal-dekiyaku":
        deck, takes, expected = cx.get("deck"), cx.get("takes"), cx.get("expected")
        if not isinstance(deck, list) or not isinstance(takes, list) or not isinstance(expected, list):
            raise ValueError("counterexample: 'deck', 'takes' and 'expected' must be lists")
        want = [ScoredYaku(str(e[0]), int(e[1])) for e in expected if isinstance(e, list) and len(e) == 2]
        bad, _ = deal_mismatch(adapter, options, [int(c) for c in deck],
                               [[int(c) for c in t] for t in takes if isinstance(t, list)], want)
        return bad
    adapter.start(GAME, options, seed)
    last = None
    for act in actions:
        adapter.apply(str(act))
        for o in adapter.rounds_ended():
            last = o
    if last is None or last.reason != "card-points":
        return None
    return settlement_mismatch(last, adapter.snapshot())


def checks(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    """Every Kujuroku proof, in report order."""
    yield from _deal(adapter)
    yield from _parity()
    yield from _tables(adapter, quick)
    yield from _dekiyaku(adapter, quick)
