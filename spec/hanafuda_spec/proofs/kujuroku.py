"""z3 proofs for Kujuroku: deal arithmetic (41 and 42 cards), the chip bands and the settlement
cases as decision tables, and the reference's card-point settlements checked against them.

Encoded from :mod:`hanafuda_spec.games.kujuroku` (CHIP_TABLE, card points, deal sizes); the
reference is reached only through the adapter.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from hanafuda_spec import z3layer as z
from hanafuda_spec.adapter import EngineAdapter, RoundOutcome
from hanafuda_spec.games import kujuroku as kj
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.proofs.common import Case, CountModel, DecisionRow, Outcome, decision_table, inductive, timed
from hanafuda_spec.shuffle import SplitMix64

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
            opts = kj.SPEC.resolve(None, {"jizo": "on" if jizo else "off"})
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
        return True, f"proved: 18 + 6 + 17 = 41 with 17 draws, 18 + 6 + 18 = 42 with 18; {n} deals agree", {}, n, ()
    yield timed(GAME, "z3 deal arithmetic (KJ-DEAL, KJ-TURN-3)", arithmetic)


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
        for players in ("4", "3"):
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
    yield timed(GAME, "chip bands and settlement vs reference play (KJ-SCORE-2…5)", against_play)


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
        return ok, "proved: exactly one card of the Oni's rank is left when the round is played out" if ok else \
            "refuted", {}, 0, ()
    yield timed(GAME, "z3 inductive: one remaining card of the Oni's rank (KJ-11)", remaining)


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
    """Re-run a ``kujuroku-settlement`` counterexample (a whole match): the mismatch, or None."""
    seed, actions = cx.get("seed"), cx.get("actions")
    if not isinstance(seed, int) or not isinstance(actions, list):
        raise ValueError("counterexample: 'seed' must be an integer and 'actions' a list")
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
