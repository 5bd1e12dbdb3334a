"""z3 proofs for Koi-Koi: deal arithmetic, the turn's count invariants, the yaku table, and the
decision tables of the round's score.

Everything is encoded from :mod:`hanafuda_spec.games.koikoi` (its yaku data and option values,
its rule texts); the reference is only reached through the adapter to cross-check it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

from hanafuda_spec import z3layer as z
from hanafuda_spec.adapter import EngineAdapter, RoundOutcome
from hanafuda_spec.games import koikoi as kk
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.proofs.common import (
    Case,
    CountModel,
    DecisionRow,
    Outcome,
    YakuModel,
    decision_table,
    inductive,
    rows_to_check,
    scoring_option_sets,
    timed,
    yaku_checks,
)
from hanafuda_spec.shuffle import SplitMix64
from hanafuda_spec.yaku import ScoredYaku, YakuDef

__all__ = ["checks"]

GAME = "koikoi"
DECK = tuple(sorted(kk.BRIGHTS | kk.ANIMALS | kk.RIBBONS | kk.CHAFF))
VIEWING = ("flower-viewing", "moon-viewing")
#: Options that change how a pile scores.
#: Options that change how the rows combine rather than the rows themselves.
SEMANTIC = ("sake_cup", "viewing", "yaku_count")
YAKU_KEYS = ("five_brights", "three_brights", "month_cards", "sake_cup", "viewing", "chaff_doubles", "yaku_system",
             "yaku_count")

Result = tuple[bool, str, Mapping[str, object], int, tuple[Case, ...]]

#: Cases the proofs find, and the gap id of the recorded decision that closes each (None: open,
#: the check fails until the catalogue records a decision and its id is entered here).
DECISIONS: dict[str, str | None] = {
    # field_teyaku=dealer-captures: table quads that keep forming from the replacement cards can
    # outnumber what the draw pile can replace (KK-DEAL-3's "four replacements"; KK-18 covers only
    # the draws of the turns).
    "dealer-captures-chain": "KK-20",
}


# -- Koi-Koi's scoring options over the plain table -------------------------------------------------


def _filtered(values: Mapping[str, str], m: YakuModel) -> list[tuple[YakuDef, z.Int]]:
    """Scored value per row after the viewing option (need-other drops the viewing yaku when
    nothing else scores; weather needs the field, which a pile alone does not have)."""
    rows = list(zip(m.rows, m.scores, strict=True))
    if values["viewing"] != "need-other":
        return rows
    other = z.sum_of(s for y, s in rows if y.id not in VIEWING)
    return [(y, s if y.id not in VIEWING else z.ite(other > 0, s, 0)) for y, s in rows]


def _total_of(values: Mapping[str, str], rows: list[tuple[YakuDef, z.Int]]) -> z.Int:
    if values["yaku_count"] == "best":
        return z.max_of([s for _, s in rows])
    return z.sum_of(s for _, s in rows)


def _readings(values: Mapping[str, str], month: int | None, prefix: str) -> list[YakuModel]:
    if values["sake_cup"] == "either":  # KK-15: both readings, the better one counts
        return [YakuModel(kk.yaku_table(values, month, s), DECK, prefix) for s in ("animal", "chaff")]
    return [YakuModel(kk.yaku_table(values, month), DECK, prefix)]


def make_total(values: Mapping[str, str], month: int | None) -> Callable[[YakuModel], z.Int]:
    def total(m: YakuModel) -> z.Int:
        rs = _readings(values, month, m.prefix)
        if len(rs) == 1:
            return _total_of(values, _filtered(values, rs[0]))
        fa, fc = _filtered(values, rs[0]), _filtered(values, rs[1])
        sa, sc = z.sum_of(s for _, s in fa), z.sum_of(s for _, s in fc)
        return z.ite(sa >= sc, _total_of(values, fa), _total_of(values, fc))
    return total


ExpectFn = Callable[[YakuModel, Sequence[int]], tuple[ScoredYaku, ...]]


def make_expect(values: Mapping[str, str], month: int | None) -> ExpectFn:
    def expect(m: YakuModel, pile: Sequence[int]) -> tuple[ScoredYaku, ...]:
        a = m.assign(pile)
        found: list[list[ScoredYaku]] = []
        for r in _readings(values, month, m.prefix):
            found.append([ScoredYaku(y.id, v) for y, s in _filtered(values, r) if (v := z.evaluate(s, a)) > 0])
        best = found[0]
        if len(found) == 2 and sum(y.points for y in found[1]) > sum(y.points for y in best):
            best = found[1]
        if values["yaku_count"] == "best" and best:
            best = [max(best, key=lambda y: y.points)]
        return tuple(best)
    return expect


Claim = Callable[[YakuModel], z.Bool]


def _claims(values: Mapping[str, str]) -> list[tuple[str, Claim]]:
    out: list[tuple[str, Claim]] = []
    dry = sorted(kk.DRY_BRIGHTS)

    def brights(m: YakuModel) -> z.Bool:
        rows = [y for y in m.rows if y.group == "brights"]
        return z.any_of(m.formed(y) for y in rows).iff(z.count(m.has(c) for c in dry) >= 3)
    out.append(("KK-YAKU-3/4/5 a Brights yaku forms iff three Brights other than the Rain Man", brights))

    if values["yaku_system"] == "modern":
        def poetry_blue(m: YakuModel) -> z.Bool:
            f = {y.id: m.formed(y) for y in m.rows}
            return f["poetry-blue-ribbons"].iff(f["poetry-ribbons"] & f["blue-ribbons"])
        out.append(("KK-YAKU-8 Poetry+Blue forms iff Poetry and Blue both form", poetry_blue))

        def one_per_group(m: YakuModel) -> z.Bool:
            groups = {y.group for y in m.rows if y.group}
            return z.all_of(z.count(s > 0 for y, s in zip(m.rows, m.scores, strict=True) if y.group == g) <= 1
                            for g in groups)
        out.append(("KK-YAKU-1 at most one yaku of a group scores", one_per_group))

    def stacks(m: YakuModel) -> z.Bool:
        # every ungrouped yaku and one yaku of every group can score on one pile (negated: none can)
        groups = sorted({y.group for y in m.rows if y.group})
        need = [s > 0 for y, s in zip(m.rows, m.scores, strict=True) if y.group is None]
        need += [z.any_of(s > 0 for y, s in zip(m.rows, m.scores, strict=True) if y.group == g) for g in groups]
        return z.all_of(need)
    out.append(("KK-YAKU-1 witness: one pile scores a yaku of every group and every Other yaku", stacks))
    return out


def _yaku(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    sets = scoring_option_sets(kk.SPEC, YAKU_KEYS)
    default_rows = kk.yaku_table(kk.SPEC.resolve(), 1)
    for k, (label, values) in enumerate(sets):
        month = 1 if values["month_cards"] == "on" else None
        rows = kk.yaku_table(values, month, "animal" if values["sake_cup"] == "either" else None)
        # quick: an option that changes rows is cross-checked on those rows only
        only = rows_to_check(rows, default_rows, quick, k == 0)
        if only is not None and not only and label.split("=")[0] in SEMANTIC:
            only = frozenset(y.id for y in rows)  # same rows, different scoring: check them all
        bound = 48 - 8 if values["hand_size"] == "8" else 48  # 8 cards stay undrawn (KK-END-2)
        yield from _run_claims(values, month, _claims(values), label)
        yield from yaku_checks(GAME, adapter, label, values, month, rows, DECK, bound,
                               total=make_total(values, month), expect=make_expect(values, month),
                               compare_ids=values["yaku_count"] != "best", ties_gap="KK-YAKU-1", quick=quick,
                               only=only, first=k == 0)
    if not quick:
        base = kk.SPEC.resolve()
        for month in range(2, 13):
            rows = kk.yaku_table(base, month)
            yield from (o for o in yaku_checks(GAME, adapter, f"month {month}", base, month, rows, DECK, 40,
                                               ties_gap="KK-YAKU-1", quick=True)
                        if "boundary" in o.check or "maximum" in o.check)


def _run_claims(values: Mapping[str, str], month: int | None, claims: list[tuple[str, Claim]],
                label: str) -> Iterator[Outcome]:
    models = _readings(values, month, "")
    for name, fn in claims:
        def run(fn: Claim = fn, name: str = name) -> Result:
            for m in models:
                if "witness" in name:
                    w = z.find([fn(m)])
                    if w is None:
                        return False, "no pile has it", {}, 0, ()
                    return True, f"pile {list(m.pile_of(w))}", {}, 0, ()
                r = z.prove(name, fn(m))
                if not r.ok:
                    return False, f"{r.status}: pile {list(m.pile_of(r.counterexample))}", {
                        "kind": "score", "game": GAME, "options": dict(values), "month": month,
                        "pile": list(m.pile_of(r.counterexample)), "claim": name}, 0, ()
            return True, "proved", {}, 0, ()
        yield timed(GAME, f"z3 {name}, {label}", run)


# -- deal arithmetic --------------------------------------------------------------------------------


def _deal(adapter: EngineAdapter) -> Iterator[Outcome]:
    spec = kk.SPEC
    sizes = [int(v) for v in next(o for o in spec.options if o.key == "hand_size").choices]

    def arithmetic() -> Result:
        h, stock = z.int_var("hand_size"), z.int_var("stock")
        dom = [z.any_of(h.eq(s) for s in sizes), stock.eq(48 - 2 * h - 8)]
        # KK-DEAL-1: two hands, 8 on the table, the rest is the draw pile; every turn draws once
        # (KK-TURN-2), so the 2h turns need 2h draws; the rest stays undrawn (KK-END-2).
        claim = (2 * h + 8 + stock).eq(48) & (stock >= 2 * h) & (h.eq(8)).implies((stock - 2 * h).eq(8))
        r = z.prove("deal", claim, dom)
        if not r.ok:
            return False, f"{r.status}: {dict(r.counterexample)}", {"kind": "model", **r.counterexample}, 0, ()
        # the reference deals what the arithmetic says
        n = 0
        for hs in sizes:
            opts = spec.resolve(None, {"hand_size": str(hs), "teyaku": "off", "field_teyaku": "four-kind-only"})
            for seed in range(1, 6):
                adapter.start(GAME, opts, seed)
                s = adapter.snapshot()
                if s.phase != "play":
                    continue
                n += 1
                got = (len(s.zone("hand.0")), len(s.zone("hand.1")), len(s.zone("field")), len(s.zone("stock")))
                if got != (hs, hs, 8, 48 - 2 * hs - 8):
                    return False, f"hand_size={hs}: the reference deals {got}", {
                        "kind": "play", "game": GAME, "options": opts, "seed": seed, "actions": []}, n, ()
        return True, f"proved for hand sizes {sizes}; {n} reference deals agree", {}, n, ()
    yield timed(GAME, "z3 deal arithmetic (KK-DEAL-1, KK-END-2)", arithmetic)

    def dealer_captures() -> Result:
        # field_teyaku=dealer-captures: k captured table quads, each replaced by 4 draw cards.
        h, k = z.int_var("hand_size"), z.int_var("quads")
        stock0 = 48 - 2 * h - 8
        dom = [z.any_of(h.eq(s) for s in sizes), k >= 1, k <= 8,
               4 * k <= 8 + stock0]  # the quads come from the table and the replacements
        short_draw = 4 * k <= stock0
        cases: list[Case] = []
        for m in z.find_all([*dom, short_draw, (stock0 - 4 * k) < 2 * h], [h, k]):
            cases.append(Case(f"hand_size={m['hand_size']}, {m['quads']} table quad(s): "
                              f"{48 - 2 * m['hand_size'] - 8 - 4 * m['quads']} draw cards for "
                              f"{2 * m['hand_size']} turns", "KK-18"))
        chained = z.find_all([*dom, ~short_draw], [h, k])
        for m in chained:
            cases.append(Case(f"hand_size={m['hand_size']}, {m['quads']} chained table quads: the draw pile "
                              f"cannot replace them all, the table is left with fewer than 8 cards",
                              DECISIONS["dealer-captures-chain"]))
        cases.sort(key=lambda c: c.text)
        cx: dict[str, object] = {"kind": "model", "game": GAME, **chained[0]} if chained else {}
        return True, f"{len(cases)} case(s)", cx, 0, tuple(cases)
    yield timed(GAME, "z3 deal arithmetic, field_teyaku=dealer-captures", dealer_captures)


# -- the turn as a count model ----------------------------------------------------------------------

PLAY, DRAWN, TAKE, DONE = 0, 1, 2, 3
NAMES = ("h0", "h1", "f", "s", "c0", "c1", "d", "t", "ph", "param_h")


def _resolve(n_match: z.Int, f: z.Int) -> tuple[z.Int, z.Int]:
    """(field change, captured change) of one card against ``n_match`` field cards (KK-CAP-1…4)."""
    df = z.ite(n_match.eq(0), 1, z.ite(n_match.eq(3), -3, -1))
    dc = z.ite(n_match.eq(0), 0, z.ite(n_match.eq(3), 4, 2))
    del f
    return df, dc


def _same(v: Mapping[str, z.Int], w: Mapping[str, z.Int], names: Sequence[str]) -> z.Bool:
    return z.all_of(v[n].eq(w[n]) for n in names)


def turn_model() -> CountModel:
    def params(v: Mapping[str, z.Int]) -> z.Bool:
        return v["param_h"].eq(8) | v["param_h"].eq(10)

    def init(v: Mapping[str, z.Int]) -> z.Bool:
        h = v["param_h"]
        return z.all_of([v["h0"].eq(h), v["h1"].eq(h), v["f"].eq(8), v["s"].eq(48 - 2 * h - 8), v["c0"].eq(0),
                         v["c1"].eq(0), v["d"].eq(0), v["t"].eq(0), v["ph"].eq(PLAY)])

    def inv(v: Mapping[str, z.Int]) -> z.Bool:
        h0, h1, f, s, c0, c1, d, t, ph = (v[n] for n in NAMES[:9])
        undrawn = 48 - 8 - 4 * v["param_h"]
        hands = h0 + h1
        return z.all_of([
            (h0 + h1 + f + s + c0 + c1 + d).eq(48),  # card conservation
            *(x >= 0 for x in (h0, h1, f, s, c0, c1, d)),
            (t.eq(0) | t.eq(1)), ph >= PLAY, ph <= DONE,
            d.eq(z.ite(ph.eq(TAKE), 1, 0)),
            ph.eq(TAKE).implies(f >= 2),
            # capture piles grow by pairs or fours
            (c0 % 2).eq(0), (c1 % 2).eq(0),
            # KK-TURN-1: the dealer (seat 0) leads, turns alternate
            ph.eq(PLAY).implies(z.ite(t.eq(0), h0 - h1, h1 - h0 - 1).eq(0)),
            (ph > PLAY).implies(z.ite(t.eq(0), h0 + 1 - h1, h0 - h1).eq(0)),
            # draws available = draws needed: one per turn, the rest undrawn
            ph.eq(PLAY).implies((s - hands).eq(undrawn)),
            ph.eq(DRAWN).implies((s - hands).eq(undrawn + 1)),
            (ph >= TAKE).implies((s - hands).eq(undrawn)),
        ])

    def step(v: Mapping[str, z.Int], w: Mapping[str, z.Int]) -> z.Bool:
        k, j = z.int_var("k"), z.int_var("j")
        t = v["t"]
        hand_t = {0: ("h0", "c0"), 1: ("h1", "c1")}
        df, dc = _resolve(k, v["f"])
        moves = []
        for seat in (0, 1):
            h, c = hand_t[seat]
            oh, oc = hand_t[1 - seat]
            play = z.all_of([t.eq(seat), v["ph"].eq(PLAY), v[h] >= 1, k >= 0, k <= 3, k <= v["f"],
                             w[h].eq(v[h] - 1), w["f"].eq(v["f"] + df), w[c].eq(v[c] + dc), w["ph"].eq(DRAWN),
                             _same(v, w, (oh, oc, "s", "d", "t"))])
            dfj, dcj = _resolve(j, v["f"])
            draw = z.all_of([t.eq(seat), v["ph"].eq(DRAWN), v["s"] >= 1, j >= 0, j <= 3, j <= v["f"],
                             w["s"].eq(v["s"] - 1),
                             z.ite(j.eq(2), 1, 0).eq(1).implies(
                                 z.all_of([w["d"].eq(1), w["ph"].eq(TAKE), _same(v, w, ("f", c))])),
                             z.ite(j.eq(2), 1, 0).eq(0).implies(
                                 z.all_of([w["d"].eq(0), w["ph"].eq(DONE), w["f"].eq(v["f"] + dfj),
                                           w[c].eq(v[c] + dcj)])),
                             _same(v, w, (h, oh, oc, "t"))])
            no_draw = z.all_of([t.eq(seat), v["ph"].eq(DRAWN), v["s"].eq(0), w["ph"].eq(DONE),
                                _same(v, w, ("h0", "h1", "f", "s", "c0", "c1", "d", "t"))])  # KK-18
            take = z.all_of([t.eq(seat), v["ph"].eq(TAKE), w["d"].eq(0), w["f"].eq(v["f"] - 1), w[c].eq(v[c] + 2),
                             w["ph"].eq(DONE), _same(v, w, (h, oh, oc, "s", "t"))])
            pas = z.all_of([t.eq(seat), v["ph"].eq(DONE), w["t"].eq(1 - seat), w["ph"].eq(PLAY),
                            _same(v, w, ("h0", "h1", "f", "s", "c0", "c1", "d"))])
            moves += [play, draw, no_draw, take, pas]
        return z.any_of(moves)

    return CountModel(NAMES, init, step, inv, params)


def _counts(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    model = turn_model()

    def proof() -> Result:
        base, ind = inductive(model)
        for r in (base, ind):
            if not r.ok:
                return False, f"{r.name}: {r.status}", {"kind": "model", **r.counterexample}, 0, ()
        return True, (f"proved: conservation (48), turn order, draws available = draws needed "
                      f"(init {base.seconds:.2f}s, step {ind.seconds:.2f}s)"), {}, 0, ()
    yield timed(GAME, "z3 inductive count invariants of the turn (KK-TURN-1/2, KK-CAP-1…6)", proof)

    def refinement() -> Result:
        """Every position of random play (standard turn) satisfies the proved invariant."""
        opts = kk.SPEC.resolve()
        pv = {n: z.int_var(n) for n in NAMES}
        inv = z.ite(model.inv(pv), 1, 0)
        rng = SplitMix64(7)
        n = 0
        for _ in range(2 if quick else 10):
            seed = rng.next()
            adapter.start(GAME, opts, seed)
            actions: list[str] = []
            phase_of = {"play": PLAY, "take": TAKE, "call": DONE}
            for _ in range(400):
                if adapter.match_over():
                    break
                s = adapter.snapshot()
                if s.phase in phase_of and s.to_move is not None:
                    d = s.dealer
                    a = {"h0": len(s.zone(f"hand.{d}")), "h1": len(s.zone(f"hand.{1 - d}")),
                         "f": len(s.zone("field")), "s": len(s.zone("stock")),
                         "c0": len(s.zone(f"captured.{d}")), "c1": len(s.zone(f"captured.{1 - d}")),
                         "d": len(s.zone("drawn")), "t": (s.to_move - d) % 2, "ph": phase_of[s.phase], "param_h": 8}
                    n += 1
                    if z.evaluate(inv, a) != 1:
                        return False, f"position outside the proved invariant: {a}", {
                            "kind": "play", "game": GAME, "options": opts, "seed": seed, "actions": actions}, n, ()
                legal = adapter.legal_actions()
                act = legal[rng.below(len(legal))]
                adapter.apply(act)
                actions.append(act)
                if adapter.rounds_ended():
                    break
        return True, f"{n} reference positions satisfy the invariant", {}, n, ()
    yield timed(GAME, "invariant of the count model on reference positions", refinement)


# -- decision tables --------------------------------------------------------------------------------

MODES = ("opponent", "self", "anyone", "count", "none")


def multiplier_rows() -> list[DecisionRow]:
    """The koi-koi multiplier, one row per situation, read from the option's description."""
    rows = [
        DecisionRow("opponent: the opponent called", lambda v: v["mode"].eq(0) & (v["other"] > 0),
                    lambda v: z.const(2)),
        DecisionRow("opponent: no call by the opponent", lambda v: v["mode"].eq(0) & v["other"].eq(0),
                    lambda v: z.const(1)),
        DecisionRow("self: the scorer called", lambda v: v["mode"].eq(1) & (v["own"] > 0), lambda v: z.const(2)),
        DecisionRow("self: no call by the scorer", lambda v: v["mode"].eq(1) & v["own"].eq(0), lambda v: z.const(1)),
        DecisionRow("anyone: a call", lambda v: v["mode"].eq(2) & ((v["own"] + v["other"]) > 0), lambda v: z.const(2)),
        DecisionRow("anyone: no call", lambda v: v["mode"].eq(2) & (v["own"] + v["other"]).eq(0), lambda v: z.const(1)),
        DecisionRow("count: opponent's calls + 1 (KK-11)", lambda v: v["mode"].eq(3), lambda v: v["other"] + 1),
        DecisionRow("none", lambda v: v["mode"].eq(4), lambda v: z.const(1)),
    ]
    return rows


def _decisions(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    def multiplier() -> Result:
        names = ("mode", "own", "other")
        gaps, clashes = decision_table(
            names, lambda v: z.all_of([v["mode"] >= 0, v["mode"] <= 4, v["own"] >= 0, v["other"] >= 0]),
            multiplier_rows())
        cases = [Case(f"multiplier={MODES[g['mode']]}, own calls {g['own']}, opponent's {g['other']}: "
                      "no rule", None) for g in gaps]
        cases += [Case(f"multiplier={MODES[g['mode']]}, own {g['own']}, other {g['other']}: two rules differ",
                       None) for g in clashes]
        return True, "complete and consistent" if not cases else "", {}, 0, tuple(cases)
    yield timed(GAME, "z3 decision table: koi-koi multiplier modes (KK-SCORE-1, KK-11)", multiplier)

    def round_end() -> Result:
        # end: 0 shōbu, 1 exhaustive draw, 2 one lucky hand, 3 two lucky hands, 4 misdeal;
        # exh: exhaustive=nobody (0) / last-yaku (1); imp: a yaku was formed or improved (1) or not (0).
        # result: 1 the winner scores, 2 the last improver scores, 0 nobody (dealer's privilege only)
        rows = [
            DecisionRow("KK-SCORE-1 shōbu", lambda v: v["end"].eq(0), lambda v: z.const(1)),
            DecisionRow("KK-END-2 exhaustive draw", lambda v: v["end"].eq(1) & (v["exh"].eq(0) | v["imp"].eq(0)),
                        lambda v: z.const(0)),
            DecisionRow("exhaustive=last-yaku", lambda v: v["end"].eq(1) & v["exh"].eq(1) & v["imp"].eq(1),
                        lambda v: z.const(2)),
            DecisionRow("KK-DEAL-4 one lucky hand", lambda v: v["end"].eq(2), lambda v: z.const(1)),
            DecisionRow("KK-DEAL-4 both lucky hands: drawn", lambda v: v["end"].eq(3), lambda v: z.const(0)),
            DecisionRow("KK-DEAL-3 misdeal", lambda v: v["end"].eq(4), lambda v: z.const(0)),
        ]
        gaps, clashes = decision_table(
            ("end", "exh", "imp"),
            lambda v: z.all_of([v["end"] >= 0, v["end"] <= 4, v["exh"] >= 0, v["exh"] <= 1, v["imp"] >= 0,
                                v["imp"] <= 1]), rows)
        cases = [Case(f"uncovered {g}", None) for g in gaps] + [Case(f"conflict {g}", None) for g in clashes]
        return True, "complete and consistent" if not cases else "", {}, 0, tuple(cases)
    yield timed(GAME, "z3 decision table: who scores a round (KK-SCORE-1, KK-END-2, KK-DEAL-3/4)", round_end)

    def against_play() -> Result:
        """Every shōbu of random play is scored as the table says: base (×2 at 7+) × koi-koi multiplier
        × field multiplier."""
        sets: list[dict[str, str]] = [kk.SPEC.resolve(None, {"multiplier": md}) for md in MODES]
        sets += [kk.SPEC.resolve(None, {"seven_double": "off"}),
                 kk.SPEC.resolve(None, {"field_multiplier": "count"}),
                 kk.SPEC.resolve(None, {"field_multiplier": "double"}),
                 kk.SPEC.resolve(None, {"zero_sum": "on"})]
        rng = SplitMix64(11)
        checked = 0
        for opts in sets:
            for _ in range(1 if quick else 4):
                seed = rng.next()
                adapter.start(GAME, opts, seed)
                watch = ShobuWatch(opts)
                actions: list[str] = []
                for _ in range(3000):
                    if adapter.match_over():
                        break
                    legal = adapter.legal_actions()
                    act = legal[rng.below(len(legal))]
                    watch.before(adapter.snapshot(), act)
                    adapter.apply(act)
                    actions.append(act)
                    bad = watch.after(adapter.rounds_ended())
                    if bad:
                        return False, bad, {"kind": "play", "game": GAME, "options": opts, "seed": seed,
                                            "actions": actions, "check": "koikoi-shobu-score"}, watch.checked, ()
                checked += watch.checked
        return True, f"{checked} shōbu rounds scored as the table says", {}, checked, ()
    yield timed(GAME, "decision table vs reference play (KK-SCORE-1, KK-SCORE-3)", against_play)


class ShobuWatch:
    """Follows a match action by action and checks every shōbu against the decision tables:
    base (×2 at 7 or more) × koi-koi multiplier (:func:`multiplier_rows`) × field multiplier."""

    def __init__(self, opts: Mapping[str, str]) -> None:
        self.opts = opts
        self.rows = multiplier_rows()
        self.calls = [0, 0]
        self.field_brights: int | None = None
        self.checked = 0

    def before(self, snap: Snapshot, action: str) -> None:
        if self.field_brights is None:
            self.field_brights = sum(1 for c in snap.zone("field") if c in kk.BRIGHTS)
        if action == "koikoi" and snap.to_move is not None:
            self.calls[snap.to_move] += 1

    def after(self, outcomes: Sequence[RoundOutcome]) -> str | None:
        opts = self.opts
        for o in outcomes:
            if o.reason == "shobu":
                w = max((0, 1), key=lambda i: o.deltas[i])
                base = sum(y.points for y in o.yaku[w])
                seven = 2 if opts["seven_double"] == "on" and base >= 7 else 1
                a = {"mode": MODES.index(opts["multiplier"]), "own": self.calls[w], "other": self.calls[1 - w]}
                koi = next(z.evaluate(r.value(_vars()), a) for r in self.rows
                           if z.evaluate(z.ite(r.guard(_vars()), 1, 0), a) == 1)
                nb = self.field_brights or 0
                fm = {"off": 1, "double": 2 if nb else 1, "count": nb + 1}[opts["field_multiplier"]]
                want = base * seven * koi * fm
                self.checked += 1
                if o.deltas[w] != want:
                    return f"shōbu scored {o.deltas[w]}, the table says {base}×{seven}×{koi}×{fm} = {want}"
            self.calls, self.field_brights = [0, 0], None
        return None


def replay_check(adapter: EngineAdapter, cx: Mapping[str, object], options: Mapping[str, str]) -> str | None:
    """Re-run a ``koikoi-shobu-score`` counterexample: the mismatch found, or None."""
    seed, actions = cx.get("seed"), cx.get("actions")
    if not isinstance(seed, int) or not isinstance(actions, list):
        raise ValueError("counterexample: 'seed' must be an integer and 'actions' a list")
    adapter.start(GAME, options, seed)
    watch = ShobuWatch(options)
    for act in actions:
        watch.before(adapter.snapshot(), str(act))
        adapter.apply(str(act))
        bad = watch.after(adapter.rounds_ended())
        if bad:
            return bad
    return None


def _vars() -> dict[str, z.Int]:
    return {n: z.int_var(n) for n in ("mode", "own", "other")}


def checks(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    """Every Koi-Koi proof, in report order."""
    yield from _deal(adapter)
    yield from _counts(adapter, quick)
    yield from _decisions(adapter, quick)
    yield from _yaku(adapter, quick)
