"""z3 proofs for Koi-Koi: deal arithmetic, the count invariants of a round under every turn and deal
option (checked on the reference's play, from random and z3-chosen stacked deals), the yaku table, and
the decision tables of the round's score.

Everything is encoded from :mod:`hanafuda_spec.games.koikoi` (its yaku data and option values,
its rule texts); the reference is only reached through the adapter to cross-check it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import product

from hanafuda_spec import z3layer as z
from hanafuda_spec.adapter import EngineAdapter, RoundOutcome
from hanafuda_spec.games import koikoi as kk
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.proofs.common import (
    REPORT,
    SAMPLED,
    Case,
    Codes,
    CountModel,
    DecisionRow,
    Outcome,
    YakuModel,
    decision_table,
    inductive,
    once,
    rows_to_check,
    scoring_option_sets,
    timed,
    yaku_checks,
    yaku_model,
)
from hanafuda_spec.shuffle import SplitMix64
from hanafuda_spec.yaku import ScoredYaku, YakuDef

__all__ = ["RULE_GROUPS", "checks", "one_per_group"]

GAME = "koikoi"
DECK = tuple(sorted(kk.BRIGHTS | kk.ANIMALS | kk.RIBBONS | kk.CHAFF))
VIEWING = ("flower-viewing", "moon-viewing")
LIGHTNING = 113  #: the Willow Lightning, a wild card with lightning=wild (KK-WILD-1…5)
#: Options that change how a pile scores.
#: Options that change how the rows combine rather than the rows themselves.
SEMANTIC = ("sake_cup", "viewing", "yaku_count")
YAKU_KEYS = ("five_brights", "three_brights", "month_cards", "sake_cup", "viewing", "chaff_doubles", "yaku_system",
             "yaku_count", "rainy_four_brights")

Result = tuple[bool, str, Mapping[str, object], int, tuple[Case, ...]]

#: Cases the proofs find, and the gap id of the recorded decision that closes each (None: open,
#: the check fails until the catalogue records a decision and its id is entered here).
DECISIONS: dict[str, str | None] = {
    # field_teyaku=dealer-captures: table quads that keep forming from the replacement cards can
    # outnumber what the draw pile can replace (KK-DEAL-3's "four replacements"; KK-18 covers only
    # the draws of the turns).
    "dealer-captures-chain": "KK-20",
    # turn=draw-first with a wild Lightning: is the Lightning taken into the hand at the start of a turn
    # (KK-TURN-6) a hand card, or a drawn card that must take (KK-WILD-3) and, as the last card of the
    # pile, takes the whole table (KK-WILD-4)? The count proof takes the first reading (the second breaks
    # draws available = draws needed).
    "draw-first-wild-lightning": "KK-21",
    # turn=keep-unmatched with a wild Lightning drawn with no non-Willow card to take: into the hand
    # (KK-TURN-7) or onto the table (KK-WILD-3)? The count proof allows both.
    "keep-unmatched-wild-lightning": "KK-21",
}

#: The open readings behind the count model of each turn option (see DECISIONS).
TURN_CASES = {
    "draw-first": ("draw-first-wild-lightning",
                   "turn=draw-first with a wild Lightning: the Lightning taken into the hand at the start of a turn "
                   "(KK-TURN-6) is modelled as a hand card; read as a drawn card (KK-WILD-3 must take, KK-WILD-4 "
                   "takes the table as the last card) the hand would not grow and draws available = draws needed "
                   "fails"),
    "keep-unmatched": ("keep-unmatched-wild-lightning",
                       "turn=keep-unmatched with a wild Lightning drawn with no non-Willow card to take: into the hand "
                       "(KK-TURN-7) or onto the table (KK-WILD-3)? Both are modelled; the reference takes it into the "
                       "hand"),
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
        return [yaku_model(tuple(kk.yaku_table(values, month, s)), DECK, prefix) for s in ("animal", "chaff")]
    return [yaku_model(tuple(kk.yaku_table(values, month)), DECK, prefix)]


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

        out.append(("KK-YAKU-1 at most one yaku of a group scores", one_per_group))

    def stacks(m: YakuModel) -> z.Bool:
        # every ungrouped yaku and one yaku of every group can score on one pile (negated: none can)
        groups = sorted({y.group for y in m.rows if y.group})
        need = [s > 0 for y, s in zip(m.rows, m.scores, strict=True) if y.group is None]
        need += [z.any_of(s > 0 for y, s in zip(m.rows, m.scores, strict=True) if y.group == g) for g in groups]
        return z.all_of(need)
    out.append(("KK-YAKU-1 witness: one pile scores a yaku of every group and every Other yaku", stacks))
    return out


#: KK-YAKU-1's groups as the rule names them, by the kind of card a yaku is made of (a yaku of Brights
#: only, Animals only, Ribbons only); every other yaku is of the Other group.
RULE_GROUPS = (("Brights", kk.BRIGHTS), ("Animals", kk.ANIMALS), ("Ribbons", kk.RIBBONS))


def one_per_group(m: YakuModel) -> z.Bool:
    """KK-YAKU-1 over the table: in each of ``RULE_GROUPS`` at most one yaku scores, and what the
    group scores is the value of its most valuable formed yaku; every yaku of the Other group scores
    its value. The groups come from the cards, not from the rows' ``group`` field, and a tie may go to
    either yaku: so the claim fails if a row left its group (two yaku of a group scoring together),
    or if the encoding scored both of a tie, neither, or less than the best."""
    rows = list(zip(m.rows, m.values, m.scores, strict=True))
    claims: list[z.Bool] = []
    grouped: set[str] = set()
    for _, cards in RULE_GROUPS:
        mine = [(v, s) for y, v, s in rows if y.pool | y.required <= cards]
        grouped |= {y.id for y, _, _ in rows if y.pool | y.required <= cards}
        if mine:
            claims += [z.count(s > 0 for _, s in mine) <= 1,
                       z.sum_of(s for _, s in mine).eq(z.max_of([v for v, _ in mine]))]
    claims += [s.eq(v) for y, v, s in rows if y.id not in grouped]
    return z.all_of(claims)


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
    models = once(lambda: _readings(values, month, ""))  # built by the first claim that runs
    for name, fn in claims:
        def run(fn: Claim = fn, name: str = name) -> Result:
            for m in models():
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
            opts = spec.resolve(None, {"hand_size": str(hs), "teyaku": "off", "field_pairs": "play"})
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
    # every case found carries its recorded decision: it lists them, and cannot fail
    yield timed(GAME, "z3 deal arithmetic, field_teyaku=dealer-captures", dealer_captures, REPORT)


# -- the round as a count model ---------------------------------------------------------------------
#
# One abstract model of a Koi-Koi round over zone sizes covers every turn and deal option of the
# catalogue: the three turn structures (KK-TURN-2, KK-TURN-6, KK-TURN-7), draw-only turns once the
# hands are empty (KK-END-5), 8- or 10-card hands (KK-DEAL-1, KK-DEAL-7), the dealer capturing table
# quads with four replacements each, as often as they form (KK-DEAL-8), turns that find the draw
# pile empty (KK-TURN-5) and the wild Lightning (KK-WILD-1…4: only KK-WILD-4, the last card of the
# draw pile taking the whole table, changes the counts; the other wild plays capture one card, as a
# single match does). The options are parameters of the model (``param_*``), so one proof covers
# every combination.
#
# Two readings the catalogue leaves open are modelled as follows (open cases in DECISIONS):
# with turn=keep-unmatched a drawn wild Lightning with no non-Willow card to take may go to the
# hand (KK-TURN-7) or to the table (KK-WILD-3): the model allows both, the invariants hold either
# way. With turn=draw-first the card taken into the hand at the start of the turn is a hand card
# (KK-TURN-6), even the Lightning as the last card of the pile: KK-WILD-3/4 apply only to a card
# turned and played from the draw pile.

#: Phases of the model. PLAY, SECOND, TAKE, DONE and DRAW_ONLY are the visible phases ``play``,
#: ``play-second``, ``take``, ``call`` and ``draw``; DRAWN (the hand card is played, the draw is due),
#: DEAL (dealt, the table not yet checked) and DONE without a call pass inside one action.
PLAY, DRAWN, TAKE, DONE, SECOND, DRAW_ONLY, DEAL, OVER = range(8)
PHASES = ("play", "drawn", "take", "call", "play-second", "draw", "deal", "over")
VISIBLE = {"play": PLAY, "play-second": SECOND, "take": TAKE, "call": DONE, "draw": DRAW_ONLY}
#: How the round ended (``e``): not yet, shōbu (KK-TURN-3/4), exhaustive (KK-END-1/2/5), void at the
#: deal (KK-DEAL-3/4/8).
RUNNING, SHOBU, EXHAUSTIVE, VOID = range(4)
ENDS = {"shobu": SHOBU, "exhaustive": EXHAUSTIVE}
#: The turn option as the model's ``param_turn``: one code per value of the catalogue's enum.
TURN = Codes(kk.Turn)
TURNS = TURN.members
STANDARD, DRAW_FIRST, KEEP = (TURN[t] for t in (kk.Turn.STANDARD, kk.Turn.DRAW_FIRST, kk.Turn.KEEP_UNMATCHED))
#: Zone sizes (h0 the dealer's hand, h1 the other's; f table, s draw pile, c0/c1 capture piles, d a
#: drawn card waiting for its target), the mover (t: 0 the dealer), phase, end, and three ghost
#: counts: q table quads the dealer captured at the deal, x draw-only turns taken, sw KK-WILD-4
#: sweeps.
STATE = ("h0", "h1", "f", "s", "c0", "c1", "d", "t", "ph", "e", "q", "x", "sw")
#: hand size; turn option; after_hands=draw-pile; field_teyaku=dealer-captures; a wild Lightning.
PARAMS = ("param_h", "param_turn", "param_after", "param_dc", "param_w")
NAMES = STATE + PARAMS

Vars = Mapping[str, z.Int]
Num = z.Int | int


def _resolve(n_match: z.Int) -> tuple[z.Int, z.Int]:
    """(table change, capture change) of one card against ``n_match`` table cards of its month
    (KK-CAP-1…4; a wild capture, KK-WILD-1/2/3, takes one card like a single match)."""
    df = z.ite(n_match.eq(0), 1, z.ite(n_match.eq(3), -3, -1))
    dc = z.ite(n_match.eq(0), 0, z.ite(n_match.eq(3), 4, 2))
    return df, dc


def _post(v: Vars, w: Vars, **changes: Num) -> z.Bool:
    """The next state: ``changes`` where given, every other state variable unchanged."""
    return z.all_of(w[n].eq(changes[n]) if n in changes else w[n].eq(v[n]) for n in STATE)


def _pos(x: z.Int) -> z.Int:
    return z.ite(x > 0, x, 0)


def _at(v: Vars, *phases: int) -> z.Bool:
    return z.any_of(v["ph"].eq(p) for p in phases)


@dataclass(frozen=True)
class Move:
    """One move of the model: when it may be made (``guard``) and what it does (``effect``, with
    the choice variables suffixed by ``tag`` so that a path of several moves has its own)."""

    rules: str
    guard: Callable[[Vars], z.Bool]
    effect: Callable[[Vars, Vars, str], z.Bool]


def _deal_moves() -> list[Move]:
    def capture(v: Vars, w: Vars, _tag: str) -> z.Bool:
        return _post(v, w, s=v["s"] - 4, c0=v["c0"] + 4, q=v["q"] + 1)

    def void(v: Vars, w: Vars, _tag: str) -> z.Bool:
        return _post(v, w, ph=OVER, e=VOID)

    def start(v: Vars, w: Vars, _tag: str) -> z.Bool:
        draw = z.ite(v["param_turn"].eq(DRAW_FIRST) & (v["s"] >= 1), 1, 0)  # KK-TURN-6
        return _post(v, w, ph=PLAY, t=0, h0=v["h0"] + draw, s=v["s"] - draw)

    def at_deal(v: Vars) -> z.Bool:
        return v["ph"].eq(DEAL)

    return [
        Move("KK-DEAL-8 the dealer captures a table quad; four replacements from the draw pile",
             lambda v: at_deal(v) & v["param_dc"].eq(1) & (v["s"] >= 4), capture),
        Move("KK-DEAL-3/4/8 the deal is void or decided (misdeal, lucky hand)", at_deal, void),
        Move("KK-TURN-1 the dealer leads (KK-TURN-6: drawing first)", at_deal, start),
    ]


def _seat_moves(seat: int) -> list[Move]:
    h, c, o = ("h0", "c0", "h1") if seat == 0 else ("h1", "c1", "h0")

    def mine(v: Vars, *phases: int) -> z.Bool:
        return v["t"].eq(seat) & _at(v, *phases)

    def choice(v: Vars, name: str) -> tuple[z.Int, z.Bool]:
        k = z.int_var(name)
        return k, z.all_of([k >= 0, k <= 3, k <= v["f"]])

    def play(v: Vars, w: Vars, tag: str) -> z.Bool:
        k, ok = choice(v, "k" + tag)
        df, dc = _resolve(k)
        first = v["ph"].eq(PLAY)
        # KK-TURN-6: draw-first plays two hand cards (one if the hand runs out); the standard and
        # keep-unmatched turns draw after the first (KK-TURN-2)
        nxt = z.ite(first & v["param_turn"].ne(DRAW_FIRST), DRAWN,
                    z.ite(first & (v[h] >= 2), SECOND, DONE))
        return ok & _post(v, w, **{h: v[h] - 1, c: v[c] + dc}, f=v["f"] + df, ph=nxt)

    def drawn(v: Vars, w: Vars, tag: str) -> z.Bool:
        j, ok = choice(v, "j" + tag)
        df, dc = _resolve(j)
        only = v["ph"].eq(DRAW_ONLY)
        x = v["x"] + z.ite(only, 1, 0)
        keep = v["param_turn"].eq(KEEP) & ~only
        return ok & z.all_of([
            j.eq(2).implies(_post(v, w, s=v["s"] - 1, d=1, x=x, ph=TAKE)),  # KK-CAP-2/6: choose
            (j.eq(1) | j.eq(3)).implies(_post(v, w, **{c: v[c] + dc}, s=v["s"] - 1, f=v["f"] + df, x=x, ph=DONE)),
            (j.eq(0) & keep).implies(_post(v, w, **{h: v[h] + 1}, s=v["s"] - 1, ph=SECOND)),  # KK-TURN-7
            (j.eq(0) & ~keep).implies(_post(v, w, s=v["s"] - 1, f=v["f"] + 1, x=x, ph=DONE)),  # KK-CAP-4
        ])

    def to_table(v: Vars, w: Vars, _tag: str) -> z.Bool:
        return _post(v, w, s=v["s"] - 1, f=v["f"] + 1, ph=DONE)

    def sweep(v: Vars, w: Vars, _tag: str) -> z.Bool:
        x = v["x"] + z.ite(v["ph"].eq(DRAW_ONLY), 1, 0)
        return _post(v, w, **{c: v[c] + v["f"] + 1}, s=0, f=0, sw=v["sw"] + 1, x=x, ph=DONE)

    def no_draw(v: Vars, w: Vars, _tag: str) -> z.Bool:
        return _post(v, w, ph=DONE)

    def take(v: Vars, w: Vars, _tag: str) -> z.Bool:
        return _post(v, w, **{c: v[c] + 2}, d=0, f=v["f"] - 1, ph=DONE)

    def shobu(v: Vars, w: Vars, _tag: str) -> z.Bool:
        return _post(v, w, ph=OVER, e=SHOBU)

    def pass_turn(v: Vars, w: Vars, _tag: str) -> z.Bool:
        s = v["s"]
        plays = v[o] >= 1
        draw_only = v[o].eq(0) & v[h].eq(0) & v["param_after"].eq(1) & (s >= 1)  # KK-END-5
        draw = z.ite(v["param_turn"].eq(DRAW_FIRST) & (s >= 1), 1, 0)  # KK-TURN-6
        return z.all_of([
            plays.implies(_post(v, w, **{o: v[o] + draw}, s=s - draw, t=1 - seat, ph=PLAY)),
            draw_only.implies(_post(v, w, t=1 - seat, ph=DRAW_ONLY)),
            (~plays & ~draw_only).implies(_post(v, w, ph=OVER, e=EXHAUSTIVE)),  # KK-END-1/2
        ])

    def wild(v: Vars) -> z.Bool:
        return v["param_w"].eq(1)

    return [
        Move(f"seat {seat}: KK-TURN-2/6/7 plays a hand card (KK-CAP-1…5, KK-WILD-1)",
             lambda v: mine(v, PLAY, SECOND) & (v[h] >= 1), play),
        Move(f"seat {seat}: KK-TURN-2 turns the draw pile's top card (KK-CAP-6, KK-TURN-7, KK-WILD-2/3); "
             "KK-END-5 a draw-only turn", lambda v: mine(v, DRAWN, DRAW_ONLY) & (v["s"] >= 1), drawn),
        Move(f"seat {seat}: KK-WILD-3 with keep-unmatched, a drawn wild Lightning with nothing to take goes to "
             "the table", lambda v: mine(v, DRAWN) & (v["s"] >= 1) & wild(v) & v["param_turn"].eq(KEEP), to_table),
        Move(f"seat {seat}: KK-WILD-4 the Lightning drawn last takes the whole table",
             lambda v: mine(v, DRAWN, DRAW_ONLY) & v["s"].eq(1) & wild(v), sweep),
        Move(f"seat {seat}: KK-TURN-5 the draw pile is empty: no draw", lambda v: mine(v, DRAWN) & v["s"].eq(0),
             no_draw),
        Move(f"seat {seat}: KK-CAP-2/6 (KK-WILD-3) the drawn card takes its chosen target",
             lambda v: mine(v, TAKE) & (v["f"] >= 1), take),
        Move(f"seat {seat}: KK-TURN-3/4 shōbu", lambda v: mine(v, DONE), shobu),
        Move(f"seat {seat}: KK-TURN-1 the turn passes (KK-TURN-6 draws first); KK-END-1/2/5 or the round ends",
             lambda v: mine(v, DONE), pass_turn),
    ]


MOVES: tuple[Move, ...] = (*_deal_moves(), *_seat_moves(0), *_seat_moves(1))


def _step(tag: str = "") -> Callable[[Vars, Vars], z.Bool]:
    def step(v: Vars, w: Vars) -> z.Bool:
        return z.any_of(m.guard(v) & m.effect(v, w, tag) for m in MOVES)
    return step


def _params(turn: int | None) -> Callable[[Vars], z.Bool]:
    def params(v: Vars) -> z.Bool:
        return z.all_of([
            v["param_h"].eq(8) | v["param_h"].eq(10),
            v["param_turn"].eq(turn) if turn is not None else TURN.domain(v["param_turn"]),
            *((v[p] >= 0) & (v[p] <= 1) for p in ("param_after", "param_dc", "param_w")),
        ])
    return params


def _init(v: Vars) -> z.Bool:
    h = v["param_h"]
    return _post({**{n: z.const(0) for n in STATE}, "h0": h, "h1": h, "f": z.const(8), "s": 40 - 2 * h,
                  "ph": z.const(DEAL)}, v)


def surplus(v: Vars) -> z.Int:
    """Draw cards beyond one per turn: ``40 - 4·hand - 4·quads`` (KK-DEAL-1/7/8). Negative: turns
    without a draw (KK-TURN-5)."""
    return 40 - 4 * v["param_h"] - 4 * v["q"]


def invariant_parts(v: Vars) -> list[tuple[str, z.Bool]]:
    """The invariant of the round, as named parts (a counterexample names the parts it breaks)."""
    h, turn, after, _dc, wild = (v[n] for n in PARAMS)
    h0, h1, f, s, c0, c1, d, t, ph, e, q, x, sw = (v[n] for n in STATE)
    hands, u = h0 + h1, surplus(v)
    mine = z.ite(t.eq(0), h0, h1)
    # how far the mover's hand is ahead of the other's, the dealer having led (KK-TURN-1)
    lead = mine - z.ite(t.eq(0), h1, h0) - t
    hand_stage = x.eq(0) & ph.ne(DRAW_ONLY)
    first = turn.eq(DRAW_FIRST)

    def at(*phases: int) -> z.Bool:
        return _at(v, *phases)

    def one_of(a: z.Int, *vals: int) -> z.Bool:
        return z.any_of(a.eq(n) for n in vals)

    turn_order = z.all_of([
        (~first & at(PLAY, SECOND)).implies(lead.eq(0)),
        (~first & hand_stage & at(DRAWN, TAKE, DONE)).implies(lead.eq(-1)),
        (first & at(PLAY)).implies(one_of(lead, 0, 1)),
        (first & at(SECOND)).implies(one_of(lead, -1, 0)),
        (first & hand_stage & at(DONE)).implies(one_of(lead, -2, -1, 0)
                                                & lead.eq(0).implies(t.eq(0) & hands.eq(0))),
        # KK-END-5: draw-only turns alternate, the dealer first
        at(DRAW_ONLY).implies(((t + x) % 2).eq(0)),
        ((x >= 1) & at(TAKE, DONE)).implies(((t + x) % 2).eq(1)),
        (hand_stage & at(DONE) & hands.eq(0) & (s >= 1)).implies(t.eq(1)),
    ])
    draws = z.all_of([
        # standard and keep-unmatched: one draw per turn while the pile lasts
        (~first & hand_stage & at(PLAY, TAKE, DONE)).implies(s.eq(_pos(u + hands))),
        (~first & hand_stage & at(DRAWN)).implies(s.eq(_pos(u + hands + 1))),
        (~first & at(SECOND)).implies(s.eq(u + hands - 1)),  # KK-TURN-7: the turn has drawn
        # draw-first: the turn's draw is in the hand (lead 1), or the pile was empty
        (first & at(PLAY)).implies((lead.eq(1) & (mine >= 2) & s.eq(u + hands - 2))
                                   | (s.eq(0) & (u + hands <= 0))),
        (first & at(SECOND)).implies((lead.eq(0) & s.eq(u + hands - 1)) | (s.eq(0) & (u + hands <= -1))),
        (first & hand_stage & at(DONE)).implies(s.eq(_pos(u + hands)) & lead.eq(-2).implies(u + hands <= -2)
                                                & lead.eq(0).implies(u + hands <= -1)),
        # once both hands are empty: draw-only turns (KK-END-5) use up what is left
        (~hand_stage | e.eq(EXHAUSTIVE)).implies((s + x).eq(_pos(u))),
    ])
    return [
        ("KK-EQ-1 the 48 cards are conserved", (hands + f + s + c0 + c1 + d).eq(48)),
        ("no zone is negative", z.all_of(n >= 0 for n in (h0, h1, f, s, c0, c1, d, q, x, sw))),
        ("codes in range", z.all_of([one_of(t, 0, 1), ph >= 0, ph <= OVER, e >= RUNNING, e <= VOID,
                                     ph.eq(OVER).iff(e.ne(RUNNING)), sw <= 1,
                                     v["param_dc"].eq(0).implies(q.eq(0))])),
        ("KK-CAP-2/6, KK-WILD-3 a drawn card waits only for a choice among two or more",
         d.eq(z.ite(at(TAKE), 1, 0)) & at(TAKE).implies(f >= 2)),
        ("KK-TURN-2/6/7 the phases of the turn option", z.all_of([
            at(DRAWN).implies(~first), at(SECOND).implies(turn.ne(STANDARD)), (first & at(TAKE)).implies(~hand_stage),
            at(PLAY, SECOND).implies(mine >= 1)])),
        ("KK-DEAL-1/7/8 the deal: hands, 8 on the table, the dealer's quads replaced from the draw pile",
         (at(DEAL) | e.eq(VOID)).implies(z.all_of([
             h0.eq(h), h1.eq(h), f.eq(8), c1.eq(0), c0.eq(4 * q), s.eq(40 - 2 * h - 4 * q), t.eq(0), x.eq(0),
             sw.eq(0)]))),
        ("KK-CAP-1…6 capture piles grow by pairs or fours (KK-WILD-4: one sweep, emptying the draw pile)",
         z.all_of([c0 >= 4 * q, sw.eq(0).implies((c0 % 2).eq(0) & (c1 % 2).eq(0)),
                   sw.eq(1).implies(wild.eq(1) & s.eq(0))])),
        ("KK-TURN-1 whose turn: the dealer leads, turns alternate", turn_order),
        ("KK-TURN-2/5/6/7 draws available = draws needed (one per turn; none once the pile is empty)", draws),
        ("KK-END-5 draw-only turns only with both hands empty and a card to draw",
         z.all_of([at(DRAW_ONLY).implies(after.eq(1) & hands.eq(0) & (s >= 1)),
                   (x >= 1).implies(after.eq(1) & hands.eq(0) & at(DRAW_ONLY, TAKE, DONE, OVER))])),
        ("KK-END-1/2/5 an exhaustive end: both hands empty, and the draw pile too with after_hands=draw-pile",
         e.eq(EXHAUSTIVE).implies(hands.eq(0) & d.eq(0) & (after.eq(0) | s.eq(0)))),
    ]


def _inv(v: Vars) -> z.Bool:
    return z.all_of(p for _, p in invariant_parts(v))


def turn_model(turn: str | None = None) -> CountModel:
    """The round as a count model, for one ``turn`` option or (None) all three; hand size,
    after_hands, field_teyaku=dealer-captures and the wild Lightning are free parameters."""
    return CountModel(NAMES, _init, _step(), _inv, _params(None if turn is None else TURN.of(turn)))


def rank(v: Vars) -> z.Int:
    """A measure every move lowers (so every round ends): the cards still to play or draw, then the
    phase."""
    weight = z.ite(_at(v, DEAL), 4, z.ite(_at(v, DRAWN, TAKE), 3, z.ite(_at(v, DONE), 2,
                                                                         z.ite(_at(v, OVER), 0, 1))))
    return 10 * (2 * (v["h0"] + v["h1"]) + 3 * v["s"]) + weight


def _layer(suffix: str = "") -> dict[str, z.Int]:
    return {n: z.int_var(n + suffix) for n in NAMES}


def _broken(model: CountModel, cx: Mapping[str, int | bool], suffix: str) -> list[str]:
    """The invariant parts a counterexample's state (variables ending in ``suffix``) breaks."""
    a = {n: int(cx.get(n + suffix, 0)) for n in NAMES}
    return [name for name, part in invariant_parts(_layer()) if z.evaluate(z.ite(part, 1, 0), a) != 1]


def _show(cx: Mapping[str, int | bool], suffix: str) -> str:
    a = {n: int(cx.get(n + suffix, 0)) for n in NAMES}
    return (f"hands {a['h0']}/{a['h1']}, table {a['f']}, draw pile {a['s']}, captured {a['c0']}/{a['c1']}, "
            f"drawn {a['d']}, seat {a['t']} in {PHASES[a['ph']] if 0 <= a['ph'] < len(PHASES) else a['ph']}, "
            f"end {a['e']}, quads {a['q']}, draw-only {a['x']}, sweeps {a['sw']}; hand_size {a['param_h']}, "
            f"turn {TURN.name(a['param_turn'])}, after_hands "
            f"{'draw-pile' if a['param_after'] else 'stop'}, dealer-captures {a['param_dc']}, wild {a['param_w']}")


def prove_round(model: CountModel) -> Result:
    """init ⇒ inv and inv ∧ step ⇒ inv′, with a counterexample that names the broken parts."""
    base, ind = inductive(model)
    for r in (base, ind):
        if r.status == "vacuous":
            return False, f"{r.name}: vacuous: {r.detail}", {}, 0, ()
    if not base.ok:
        cx = base.counterexample
        return False, f"{base.name}: {base.status}: breaks {_broken(model, cx, '')} at {_show(cx, '')}", {
            "kind": "model", "game": GAME, **cx}, 0, ()
    if not ind.ok:
        cx = ind.counterexample
        return False, (f"{ind.name}: {ind.status}: from {_show(cx, '')} a move reaches {_show(cx, chr(39))}, "
                       f"breaking {_broken(model, cx, chr(39))}"), {"kind": "model", "game": GAME, **cx}, 0, ()
    return True, (f"proved (init {base.seconds:.2f}s, step {ind.seconds:.2f}s): " + "; ".join(
        n for n, _ in invariant_parts(_layer()))), {}, 0, ()


def prove_ends(model: CountModel) -> Result:
    """The round ends, and only when it should: no reachable position is stuck (some move is always
    possible before the end), every move lowers :func:`rank`, and an exhaustive end leaves
    ``max(0, 40 - 4·hand - 4·quads)`` cards undrawn unless draw-only turns used them (KK-END-2/5)."""
    pre, post = _layer(), _layer("'")
    keep = z.all_of(pre[p].eq(post[p]) for p in PARAMS)
    assume = [model.params(pre), model.inv(pre)]
    claims = [
        ("no deadlock: before the end some move is possible",
         pre["ph"].ne(OVER).implies(z.any_of(m.guard(pre) for m in MOVES))),
        ("KK-END-2 an exhaustive end without draw-only turns leaves max(0, 40 - 4·hand - 4·quads) cards undrawn",
         (pre["e"].eq(EXHAUSTIVE) & pre["param_after"].eq(0)).implies(pre["s"].eq(_pos(surplus(pre))))),
    ]
    for r in z.prove_all(claims, assume):
        if not r.ok:
            return False, f"{r.name}: {r.status} at {_show(r.counterexample, '')}", {
                "kind": "model", "game": GAME, **r.counterexample}, 0, ()
    r = z.prove("every move lowers the rank", (rank(post) < rank(pre)) & (rank(pre) >= 0),
                [*assume, keep, model.step(pre, post)])
    if not r.ok:
        cx = r.counterexample
        return False, f"{r.name}: {r.status}: {_show(cx, '')} → {_show(cx, chr(39))}", {
            "kind": "model", "game": GAME, **cx}, 0, ()
    return True, ("proved: no deadlock before the end; every move lowers 20·hands + 30·draw pile + phase "
                  "(the round ends); an exhaustive end leaves max(0, 40 − 4·hand − 4·quads) undrawn"), {}, 0, ()


def prove_empty_pile(model: CountModel) -> Result:
    """KK-TURN-5: a turn finds the draw pile empty only when the dealer captured more quads than the
    draw pile's surplus (negative :func:`surplus`), which needs field_teyaku=dealer-captures; no
    draw-only turn finds it empty; and the last card of the draw pile is always drawn by the
    non-dealer (the pile holds an even number of cards and the dealer draws first), so a KK-WILD-4
    sweep is always theirs. The (hand size, quads) that leave turns without a draw are listed."""
    v = _layer()
    first = v["param_turn"].eq(DRAW_FIRST)
    hands = v["h0"] + v["h1"]
    other = z.ite(v["t"].eq(0), v["h1"], v["h0"])
    short = ((~first & _at(v, DRAWN) & v["s"].eq(0))
             | (first & _at(v, PLAY) & v["s"].eq(0) & (surplus(v) + hands <= 0)))
    claims = [
        ("KK-TURN-5 a turn without its draw only when quads outnumber the surplus",
         short.implies((surplus(v) < 0) & v["param_dc"].eq(1))),
        ("KK-END-5 no draw-only turn on an empty pile", _at(v, DRAW_ONLY).implies(v["s"] >= 1)),
        ("KK-WILD-4 the non-dealer draws the last card of the draw pile", z.all_of([
            (_at(v, DRAWN, DRAW_ONLY) & v["s"].eq(1)).implies(v["t"].eq(1)),
            # draw-first: the card is drawn when the turn passes to the player who has cards
            (first & _at(v, DONE) & v["x"].eq(0) & v["s"].eq(1) & (other >= 1)).implies(v["t"].eq(0))])),
    ]
    for r in z.prove_all(claims, [model.params(v), model.inv(v)]):
        if not r.ok:
            return False, f"{r.name}: {r.status} at {_show(r.counterexample, '')}", {
                "kind": "model", "game": GAME, **r.counterexample}, 0, ()
    cases = short_deals()
    shown = ", ".join(f"{hh}-card hands with {qq} quad(s)" for hh, qq in cases)
    return True, (f"proved: no draw from an empty pile; the non-dealer always draws its last card; turns "
                  f"without a draw are possible with {shown} (KK-18)"), {}, 0, ()


def short_deals(limit: int = 32) -> list[tuple[int, int]]:
    """(hand size, quads captured at the deal) whose draw pile cannot give every turn a draw
    (negative surplus), the deal being possible (the replacements come from the draw pile)."""
    v = _layer()
    found = z.find_all([_params(None)(v), v["q"] >= 1, 4 * v["q"] <= 40 - 2 * v["param_h"], surplus(v) < 0],
                       [v["param_h"], v["q"]], limit)
    return sorted((int(m["param_h"]), int(m["q"])) for m in found)


# -- the count model against the reference ----------------------------------------------------------

COUNT_CHECK = "koikoi-count-model"


def model_params(opts: Mapping[str, str]) -> dict[str, int]:
    """The model's parameters for resolved options (any Lightning option but normal may be wild)."""
    o = kk.SPEC.value
    return {"param_h": int(o(opts, kk.HandSize)), "param_turn": TURN.of(opts["turn"]),
            "param_after": int(o(opts, kk.AfterHands) is kk.AfterHands.DRAW_PILE),
            "param_dc": int(o(opts, kk.FieldTeyaku) is kk.FieldTeyaku.DEALER_CAPTURES),
            "param_w": int(o(opts, kk.Lightning) is not kk.Lightning.NORMAL)}


class CountWatch:
    """Follows a match through the adapter and maps each position to the count model (the dealer is
    the model's seat 0), keeping the ghost counts: the quads the dealer captured at the deal (read from
    their capture pile when the round starts), draw-only turns taken, and KK-WILD-4 sweeps (a wild
    Lightning, the last card of the draw pile, going to the mover's capture pile). Records, with the
    number of actions played so far: every position, every transition within a round, every end of a
    round in play, and every start of a round.

    With lightning=wild-if-susuki the Lightning counts as wild when a Susuki card is on the table or among
    the dealer's quads when play starts (KK-WILD-5 looks at the dealt table; a Susuki card that came
    only with the replacements of KK-DEAL-8 would mislead the watch)."""

    def __init__(self, opts: Mapping[str, str]) -> None:
        self.opts = opts
        self.params = model_params(opts)
        self.cur: dict[str, int] | None = None
        self.q = self.x = self.sw = 0
        self.wild = False
        self.stock: tuple[int, ...] = ()
        self.mover = 0
        self.sweeps = 0  # over all rounds (coverage)
        self.dealers: list[int] = []  # the dealer of each round seen
        self.positions: list[tuple[int, dict[str, int]]] = []
        self.steps: list[tuple[int, dict[str, int], dict[str, int]]] = []
        self.ends: list[tuple[int, dict[str, int], int]] = []
        self.starts: list[tuple[int, dict[str, int]]] = []
        self.unknown: list[tuple[int, str]] = []  # positions in a phase the model does not have

    def state(self, snap: Snapshot, done: int = 0) -> dict[str, int] | None:
        ph = VISIBLE.get(snap.phase)
        if snap.to_move is None:
            return None
        if ph is None:
            self.unknown.append((done, f"seat {snap.to_move} to move in phase {snap.phase!r}, which the count model "
                                       f"does not have (it has {sorted(VISIBLE)})"))
            return None
        dl = snap.dealer

        def n(zone: str) -> int:
            return len(snap.zone(zone))
        return {"h0": n(f"hand.{dl}"), "h1": n(f"hand.{1 - dl}"), "f": n("field"), "s": n("stock"),
                "c0": n(f"captured.{dl}"), "c1": n(f"captured.{1 - dl}"), "d": n("drawn"), "t": (snap.to_move - dl) % 2,
                "ph": ph, "e": RUNNING, "q": self.q, "x": self.x, "sw": self.sw, **self.params}

    def begin(self, snap: Snapshot, done: int) -> None:
        """A round starts (``done`` actions played so far)."""
        self.q, self.x, self.sw = len(snap.zone(f"captured.{snap.dealer}")) // 4, 0, 0
        susuki = any(c // 10 == 8 for c in (*snap.zone("field"), *snap.zone(f"captured.{snap.dealer}")))
        self.wild = self.opts["lightning"] == "wild" or (self.opts["lightning"] == "wild-if-susuki" and susuki)
        self.stock, self.mover = snap.zone("stock"), snap.to_move or 0
        self.cur = self.state(snap, done)
        if self.cur is not None:
            self.dealers.append(snap.dealer)
            self.starts.append((done, self.cur))
            self.positions.append((done, self.cur))

    def after(self, action: str, snap: Snapshot, ended: Sequence[RoundOutcome], done: int) -> None:
        if self.cur is None:
            return
        if ended:
            code = ENDS.get(ended[0].reason)
            if code is not None:
                self.ends.append((done, self.cur, code))
            self.begin(snap, done)
            return
        if action == "draw":
            self.x += 1
        if self.wild and self.stock == (LIGHTNING,) and not snap.zone("stock") and \
                LIGHTNING in snap.zone(f"captured.{self.mover}"):
            self.sw += 1
            self.sweeps += 1
        self.stock, self.mover = snap.zone("stock"), snap.to_move if snap.to_move is not None else self.mover
        new = self.state(snap, done)
        if new is None:
            self.cur = None
            return
        self.steps.append((done, self.cur, new))
        self.positions.append((done, new))
        self.cur = new


def _is(layer: Vars, a: Mapping[str, int]) -> z.Bool:
    return z.all_of(layer[n].eq(a[n]) for n in NAMES if n in a)


@functools.cache
def _path(n: int, from_deal: bool) -> tuple[tuple[z.Bool, ...], dict[str, z.Int], dict[str, z.Int]]:
    """At most ``n`` moves of the model (at least one unless ``from_deal``), from a fresh deal if
    ``from_deal``: the constraints, and the first and last states (built once)."""
    layers = [_layer(f"@{i}") for i in range(n + 1)]
    rel = [_params(None)(layers[0])]
    if from_deal:
        rel.append(_init(layers[0]))
    for i in range(n):
        a, b = layers[i], layers[i + 1]
        rel.append(z.all_of(a[p].eq(b[p]) for p in PARAMS))
        moved = _step(f"@{i}")(a, b)
        rel.append(moved if i == 0 and not from_deal else moved | _post(a, b))
    return tuple(rel), layers[0], layers[-1]


#: The most model moves one action makes (a hand card, the draw, and the pass or the end).
MOVES_PER_ACTION = 3
#: The most model moves of a deal: six quads captured and the start (KK-DEAL-8).
MOVES_PER_DEAL = 7


def check_watch(w: CountWatch) -> tuple[int, str] | None:
    """Check what a :class:`CountWatch` saw against the model: every position satisfies the proved
    invariant, every start of a round is a deal of the model, every transition is at most
    :data:`MOVES_PER_ACTION` moves of the model, and every end of a round in play is one the model
    allows there. The first failure (actions played, message), or None."""
    fails: list[tuple[int, str]] = list(w.unknown[:1])
    pv = _layer()
    parts = [(name, z.ite(p, 1, 0)) for name, p in invariant_parts(pv)]
    whole = z.ite(_inv(pv), 1, 0)
    for done, a in w.positions:
        if z.evaluate(whole, a) != 1:
            broken = [name for name, p in parts if z.evaluate(p, a) != 1]
            fails.append((done, f"position outside the proved invariant, breaking {broken}: {_show(a, '')}"))
            break
    rel, first, last = _path(MOVES_PER_ACTION, False)
    fixed = [first[k].eq(val) for k, val in w.params.items()]  # the match's options, for the solver
    items: list[tuple[int, str]] = []
    claims: list[tuple[str, z.Bool]] = []
    for done, a, b in w.steps:
        items.append((done, f"the reference goes from {_show(a, '')} to {_show(b, '')}: no {MOVES_PER_ACTION} "
                            "moves of the model do that"))
        claims.append((str(len(claims)), ~(_is(first, a) & _is(last, b))))
    for done, a, code in w.ends:
        items.append((done, f"the round ends ({'shōbu' if code == SHOBU else 'exhaustive'}) from {_show(a, '')}: "
                            "the model cannot end it there"))
        claims.append((str(len(claims)), ~(_is(first, a) & last["ph"].eq(OVER) & last["e"].eq(code))))
    found = z.prove_all(claims, [*rel, *fixed], counterexamples=False)
    for (done, msg), r in zip(items, found, strict=True):
        if r.status != "refuted":  # refuted: a path of the model exists
            fails.append((done, msg if r.status == "proved" else f"undecided ({r.status}): {msg}"))
            break
    rel, first, last = _path(MOVES_PER_DEAL, True)
    fixed = [first[k].eq(val) for k, val in w.params.items()]
    starts = [(str(i), ~_is(last, a)) for i, (_, a) in enumerate(w.starts)]
    found = z.prove_all(starts, [*rel, *fixed], counterexamples=False)
    for (done, a), r in zip(w.starts, found, strict=True):
        if r.status != "refuted":
            fails.append((done, f"a round starts at {_show(a, '')}: not a deal of the model (KK-DEAL-1/7/8, "
                                "KK-TURN-1/6)"))
            break
    return min(fails, key=lambda f: f[0]) if fails else None  # the earliest; on a tie, the invariant


def play_match(adapter: EngineAdapter, opts: Mapping[str, str], seed: int, deck: Sequence[int] | None,
               rng: SplitMix64, rounds: int, eager: bool) -> tuple[CountWatch, list[str], str | None]:
    """Play ``rounds`` rounds of random legal actions (always koi-koi when ``eager``, so that rounds
    run to their end), watching the counts. The watch, the actions, and an error the engine raised."""
    adapter.start(GAME, opts, seed, deck)
    w = CountWatch(opts)
    w.begin(adapter.snapshot(), 0)
    actions: list[str] = []
    ended = 0
    while ended < rounds and not adapter.match_over() and len(actions) < 2000:
        legal = adapter.legal_actions()
        if not legal:
            return w, actions, "no legal action before the end of the match"
        act = "koikoi" if eager and "koikoi" in legal else legal[rng.below(len(legal))]
        try:
            adapter.apply(act)
        except Exception as ex:  # an engine failing on its own legal action (e.g. a draw from an empty pile)
            return w, [*actions, act], f"the engine fails on its legal action {act!r}: {ex!r}"
        actions.append(act)
        out = adapter.rounds_ended()
        ended += len(out)
        w.after(act, adapter.snapshot(), out, len(actions))
    return w, actions, None


def count_option_sets(quick: bool) -> list[dict[str, str]]:
    """Every turn option × after_hands × hand size × field_teyaku (default or dealer-captures) ×
    Lightning (normal or wild), and wild-if-susuki once per turn option; in a quick run, one set per turn
    option × after_hands, the other three options taking each of their values. The deal passes after a
    drawn round (draw_dealer=pass), so that the second round of a match is mostly dealt by seat 1."""
    out = []
    for i, (turn, after) in enumerate(product(TURNS, kk.AfterHands)):
        for hs, ft, light in product(("8", "10"), ("misdeal", "dealer-captures"), ("normal", "wild")):
            if quick and (hs, ft, light) != (("8", "10")[i // 2 % 2], ("misdeal", "dealer-captures")[(i + 1) // 2 % 2],
                                             ("normal", "wild")[i // 3]):
                continue
            out.append(kk.SPEC.resolve(None, {"turn": turn, "after_hands": after, "lightning": light,
                                              "hand_size": hs, "field_teyaku": ft, "field_pairs": "play",
                                              "draw_dealer": "pass"}))
    if not quick:  # KK-WILD-5, once per turn option
        out += [kk.SPEC.resolve(None, {"turn": turn, "lightning": "wild-if-susuki", "after_hands": "draw-pile",
                                       "draw_dealer": "pass"}) for turn in TURNS]
    return out


def deal_layout(hand: int, packet: int = 4) -> list[str]:
    """Who receives each card of the deck, top first (KK-DEAL-1: packets to the opponent, the table and
    the dealer in turn until the hands and the table are full; then the draw pile)."""
    want = {"ko": hand, "field": 8, "dealer": hand}
    got = dict.fromkeys(want, 0)
    out: list[str] = []
    while any(got[k] < want[k] for k in want):
        for who, full in want.items():
            n = min(packet, full - got[who])
            out += [who] * n
            got[who] += n
    return out + ["stock"] * (48 - len(out))


def stacked_deal(hand: int, quads: int) -> list[int]:
    """A deck order (top first) whose deal puts a quad on the table and ``quads - 1`` more on top of
    the draw pile, so that the dealer captures ``quads`` quads in a chain (KK-DEAL-8), the last
    replacements forming none; the Lightning is the last card of the draw pile (KK-WILD-4)."""
    months = [m for m in range(1, 13) if m != 11]  # the Willows stay out of the quads and the table
    quad = [[10 * m + i for i in range(4)] for m in months[:quads]]
    singles = [10 * m for m in months[quads:quads + 8 - (4 if quads else 0)]]
    table = (quad[0] if quads else []) + singles
    chain = [c for qd in quad[1:] for c in qd] + ([c + 1 for c in singles] if quads else [])
    last = [LIGHTNING] if len(chain) < 40 - 2 * hand else []  # no room when the chain takes the whole pile
    used = {*table, *chain, *last}
    rest = [c for c in DECK if c not in used]
    hands, tail = iter(rest[:2 * hand]), rest[2 * hand:]
    tiles = iter(table)
    dealt = [next(tiles) if who == "field" else next(hands) for who in deal_layout(hand)[:2 * hand + 8]]
    return dealt + chain + tail + last


def deal_cases(quick: bool) -> list[tuple[int, int]]:
    """The (hand size, quads) of the stacked deals: z3 picks, from the model's deal arithmetic, those
    whose draw pile runs out exactly at the last turn or before (surplus ≤ 0: KK-TURN-5, and KK-WILD-4
    before the last turn, where play goes on after the sweep); an 8-card deal without quads (draw-only
    turns, KK-END-5) is added. A quick run takes every third of z3's cases."""
    v = _layer()
    found = z.find_all([_params(None)(v), v["q"] >= 0, 4 * v["q"] <= 40 - 2 * v["param_h"], surplus(v) <= 0],
                       [v["param_h"], v["q"]], 32)
    cases = sorted({(int(m["param_h"]), int(m["q"])) for m in found})
    return [(8, 0), *(cases[::3] if quick else cases)]


def replay_counts(adapter: EngineAdapter, opts: Mapping[str, str], seed: int, deck: Sequence[int] | None,
                  actions: Sequence[str]) -> str | None:
    """Replay a match's actions, watching the counts, and check them against the model: the first
    mismatch, or None."""
    adapter.start(GAME, opts, seed, deck)
    w = CountWatch(opts)
    w.begin(adapter.snapshot(), 0)
    for i, act in enumerate(actions):
        try:
            adapter.apply(act)
        except Exception as ex:  # the failure was the engine's own error on this action
            return f"after {i} actions: the engine fails on {act!r}: {ex!r}"
        w.after(act, adapter.snapshot(), adapter.rounds_ended(), i + 1)
    bad = check_watch(w)
    return None if bad is None else f"after {bad[0]} actions: {bad[1]}"


def _label(opts: Mapping[str, str]) -> str:
    return ", ".join(f"{k}={opts[k]}" for k in ("turn", "after_hands", "hand_size", "field_teyaku", "lightning"))


def _play_cx(opts: Mapping[str, str], seed: int, deck: Sequence[int] | None, actions: Sequence[str]
             ) -> dict[str, object]:
    cx: dict[str, object] = {"kind": "play", "game": GAME, "options": dict(opts), "seed": seed,
                             "actions": list(actions), "check": COUNT_CHECK}
    if deck is not None:
        cx["deck"] = list(deck)
    return cx


def _watch_play(adapter: EngineAdapter, runs: Sequence[tuple[dict[str, str], Sequence[int] | None, int, bool]],
                rng: SplitMix64, rounds: int) -> tuple[Result | None, list[CountWatch]]:
    """Play and check each (options, deck, quads expected at the deal, eager) run: the first failure
    as a result, and the watches."""
    watches = []
    for opts, deck, quads, eager in runs:
        seed = rng.next()
        w, actions, err = play_match(adapter, opts, seed, deck, rng, rounds, eager)
        watches.append(w)
        seen = sum(len(x.positions) for x in watches)
        bad: tuple[int, str] | None = (len(actions), err) if err else None
        if bad is None and deck is not None and w.starts and w.starts[0][0] == 0 and w.starts[0][1]["q"] != quads:
            bad = (0, f"the stacked deal chains {quads} quad(s) on the table, the reference's dealer captured "
                      f"{w.starts[0][1]['q']} (KK-DEAL-8)")
        bad = bad or check_watch(w)
        if bad is not None:
            done, msg = bad
            return (False, f"{_label(opts)}: after {done} actions: {msg}", _play_cx(opts, seed, deck, actions[:done]),
                    seen, ()), watches
    return None, watches


def _coverage(watches: Sequence[CountWatch]) -> str:
    def matches(pred: Callable[[Mapping[str, int]], bool]) -> int:
        return sum(1 for w in watches if any(pred(a) for _, a in w.positions))
    return (f"{sum(len(w.positions) for w in watches)} positions, {sum(len(w.steps) for w in watches)} actions, "
            f"{sum(len(w.ends) for w in watches)} round ends; matches with: draw-only turns "
            f"{matches(lambda a: a['x'] > 0)}, KK-WILD-4 sweeps {sum(1 for w in watches if w.sweeps)}, hands left "
            f"and the draw pile empty {matches(lambda a: a['s'] == 0 and a['h0'] + a['h1'] > 0)}, dealer-captured "
            f"quads {matches(lambda a: a['q'] > 0)}")


TURN_RULES = {kk.Turn.STANDARD: "KK-TURN-1/2/3/5, KK-CAP-1…6", kk.Turn.DRAW_FIRST: "KK-TURN-6",
              kk.Turn.KEEP_UNMATCHED: "KK-TURN-7"}


def _counts(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    for turn in TURNS:
        def proof(t: str = turn) -> Result:
            ok, detail, cx, n, _ = prove_round(turn_model(t))
            key, text = TURN_CASES.get(t, ("", ""))
            return ok, detail, cx, n, (Case(text, DECISIONS[key]),) if key else ()
        yield timed(GAME, f"z3 inductive count invariants of the round, turn={turn} ({TURN_RULES[turn]}; every "
                    "hand_size, after_hands, KK-DEAL-8 quad chain, KK-WILD-1…4)", proof)
    every = turn_model()
    yield timed(GAME, "z3 the round ends, and only when it should (KK-END-1/2/5): no deadlock, decreasing rank",
                lambda: prove_ends(every))
    yield timed(GAME, "z3 the end of the draw pile: KK-TURN-5 only after KK-DEAL-8 quads, KK-WILD-4 always the "
                "non-dealer's", lambda: prove_empty_pile(every))

    def random_play() -> Result:
        rng = SplitMix64(7)
        sets = count_option_sets(quick)
        runs = [(o, None, 0, i % 3 != 0) for i, o in enumerate(sets)]  # a third of the matches may stop early
        bad, watches = _watch_play(adapter, runs, rng, 2)
        if bad is not None:
            return bad
        n = sum(len(w.positions) for w in watches)
        seat1 = sum(w.dealers.count(1) for w in watches)
        return True, (f"{len(sets)} option sets: {_coverage(watches)}; {seat1} rounds dealt by seat 1; all in the "
                      "model"), {}, n, ()
    yield timed(GAME, "count model vs reference play: every turn option × after_hands × hand_size × "
                "dealer-captures × wild Lightning", random_play, SAMPLED)

    def stacked() -> Result:
        rng = SplitMix64(13)
        cases = deal_cases(quick)
        combos = list(product(TURNS, kk.AfterHands))
        runs = []
        for i, (hh, qq) in enumerate(cases):
            for j, (turn, after) in enumerate(combos):
                if quick and j != (i + 1) % len(combos):  # one deal per case, every option in turn
                    continue
                opts = kk.SPEC.resolve(None, {"hand_size": str(hh), "field_teyaku": "dealer-captures",
                                              "field_pairs": "play", "teyaku": "off",
                                              "lightning": "wild", "turn": turn, "after_hands": after})
                runs.append((opts, stacked_deal(hh, qq), qq, True))
        bad, watches = _watch_play(adapter, runs, rng, 1)
        if bad is not None:
            return bad
        n = sum(len(w.positions) for w in watches)
        shown = ", ".join(f"{hh}-card hands with {qq} quad(s)" for hh, qq in cases)
        return True, f"{len(runs)} stacked deals ({shown}): {_coverage(watches)}; all in the model", {}, n, ()
    yield timed(GAME, "count model vs reference, z3-chosen stacked deals (KK-DEAL-8 chains, KK-TURN-5, KK-WILD-4, "
                "KK-END-5)", stacked, SAMPLED)


# -- decision tables --------------------------------------------------------------------------------

#: The multiplier option as the decision table's ``mode``: one code per value of the catalogue's enum.
MODE = Codes(kk.Multiplier)


def multiplier_rows() -> list[DecisionRow]:
    """The koi-koi multiplier, one row per situation, read from the option's description."""
    def mode(m: kk.Multiplier) -> Callable[[Mapping[str, z.Int]], z.Bool]:
        return lambda v: v["mode"].eq(MODE[m])

    opponent, self_, anyone = mode(kk.Multiplier.OPPONENT), mode(kk.Multiplier.SELF), mode(kk.Multiplier.ANYONE)
    rows = [
        DecisionRow("opponent: the opponent called", lambda v: opponent(v) & (v["other"] > 0), lambda v: z.const(2)),
        DecisionRow("opponent: no call by the opponent", lambda v: opponent(v) & v["other"].eq(0),
                    lambda v: z.const(1)),
        DecisionRow("self: the scorer called", lambda v: self_(v) & (v["own"] > 0), lambda v: z.const(2)),
        DecisionRow("self: no call by the scorer", lambda v: self_(v) & v["own"].eq(0), lambda v: z.const(1)),
        DecisionRow("anyone: a call", lambda v: anyone(v) & ((v["own"] + v["other"]) > 0), lambda v: z.const(2)),
        DecisionRow("anyone: no call", lambda v: anyone(v) & (v["own"] + v["other"]).eq(0), lambda v: z.const(1)),
        DecisionRow("count: opponent's calls + 1 (KK-11)", mode(kk.Multiplier.COUNT), lambda v: v["other"] + 1),
        DecisionRow("none", mode(kk.Multiplier.NONE), lambda v: z.const(1)),
        DecisionRow("additive: no factor, the bonus is added (bonus_rows, KK-SCORE-6)", mode(kk.Multiplier.ADDITIVE),
                    lambda v: z.const(1)),
    ]
    return rows


def bonus_rows() -> list[DecisionRow]:
    """multiplier=additive (KK-SCORE-6): the round score from the base (after the 7-point doubling) and the
    scorer's own calls."""
    return [
        DecisionRow("no call", lambda v: v["own"].eq(0), lambda v: v["base"]),
        DecisionRow("1-3 calls: + calls", lambda v: (v["own"] >= 1) & (v["own"] <= 3), lambda v: v["base"] + v["own"]),
        DecisionRow("4+ calls: x (calls - 2)", lambda v: v["own"] >= 4, lambda v: v["base"] * (v["own"] - 2)),
    ]


# -- the settlement of a round ----------------------------------------------------------------------

#: How a Koi-Koi round ends, for the settlement: a shōbu (KK-SCORE-1), an exhaustive round won by the
#: last player to form or improve a yaku (exhaustive=last-yaku), a drawn round (KK-END-2: the dealer's
#: privilege, oyaken), a lucky hand (KK-DEAL-4) and a misdeal (KK-DEAL-3).
KK_ENDS = ("shobu", "last-yaku", "drawn", "lucky-hand", "misdeal")
#: The ends of :data:`KK_ENDS` as the settlement model's ``end``.
END_SHOBU, END_LAST_YAKU, END_DRAWN, END_LUCKY, END_MISDEAL = range(len(KK_ENDS))
#: The field_multiplier option as the settlement model's ``fmk``.
FIELD_MULTIPLIER = Codes(kk.FieldMultiplier)


@dataclass(frozen=True)
class KoiKoiSettlement:
    """The variables of Koi-Koi's settlement model and the round's deltas (seats 0 and 1) over them."""

    v: Mapping[str, z.Int]
    deltas: tuple[z.Int, z.Int]
    points: z.Int
    domain: z.Bool
    koi_row: z.Int  # the row of the multiplier table that applies (its index)
    bonus_row: z.Int  # the row of the additive bonus table that applies


def koikoi_settlement() -> KoiKoiSettlement:
    """One round's deltas: ``end`` (:data:`KK_ENDS`), the winner ``w`` (the dealer ``d`` of a drawn round),
    ``base`` the yaku points counted (KK-SCORE-5's yaku_count already applied), ``own`` and ``other``
    the winner's and the opponent's koi-koi calls, ``nb`` the Brights dealt to the table, ``tp`` a lucky
    hand's points; the options ``mode`` (an index of multiplier's values), ``seven`` (seven_double=on),
    ``fmk`` (field_multiplier), ``zero`` (zero_sum=on) and ``priv`` (oyaken)."""
    names = ("end", "w", "d", "base", "own", "other", "nb", "tp", "mode", "seven", "fmk", "zero", "priv")
    v = {n: z.int_var(f"kk_{n}") for n in names}
    domain = z.all_of([
        v["end"] >= 0, v["end"] < len(KK_ENDS), v["w"] >= 0, v["w"] <= 1, v["d"] >= 0, v["d"] <= 1,
        v["base"] >= 0, v["own"] >= 0, v["other"] >= 0, v["nb"] >= 0, v["nb"] <= len(kk.BRIGHTS), v["tp"] >= 0,
        MODE.domain(v["mode"]), v["seven"] >= 0, v["seven"] <= 1, FIELD_MULTIPLIER.domain(v["fmk"]),
        v["zero"] >= 0, v["zero"] <= 1,
        z.any_of(v["priv"].eq(int(p)) for p in kk.Oyaken)])
    base = v["base"] * z.ite((v["seven"].eq(1)) & (v["base"] >= 7), 2, 1)  # KK-SCORE-1, KK-SCORE-4
    koi_v, bonus_v = {"mode": v["mode"], "own": v["own"], "other": v["other"]}, {"base": base, "own": v["own"]}
    koi = _table(multiplier_rows(), koi_v)
    added = _table(bonus_rows(), bonus_v)  # KK-SCORE-6
    fmk, fmv = v["fmk"], kk.FieldMultiplier
    fm = z.ite(fmk.eq(FIELD_MULTIPLIER[fmv.OFF]), 1, z.ite(fmk.eq(FIELD_MULTIPLIER[fmv.DOUBLE]),
                                                           z.ite(v["nb"] > 0, 2, 1), v["nb"] + 1))  # KK-SCORE-3
    additive = MODE[kk.Multiplier.ADDITIVE]
    shobu = z.ite(v["mode"].eq(additive), added * fm, base * koi * fm)
    end = v["end"]
    points = z.ite(end.eq(END_SHOBU) | end.eq(END_LAST_YAKU), shobu,
                   z.ite(end.eq(END_LUCKY), v["tp"], z.ite(end.eq(END_DRAWN), v["priv"], 0)))
    gains = z.ite(end.eq(END_DRAWN), v["d"], v["w"])
    loss = z.ite(v["zero"].eq(1), -points, 0)  # KK-SCORE-2
    deltas = (z.ite(gains.eq(0), points, loss), z.ite(gains.eq(1), points, loss))
    return KoiKoiSettlement(v, deltas, points, domain, _row(multiplier_rows(), koi_v),
                            _row(bonus_rows(), bonus_v))


def _table(rows: Sequence[DecisionRow], v: Mapping[str, z.Int]) -> z.Int:
    """A decision table as one term: the value of the first row whose guard holds (the tables are
    proved complete and consistent, so the order does not matter); 0 outside them."""
    out: z.Int = z.const(0)
    for r in reversed(rows):
        out = z.ite(r.guard(v), r.value(v), out)
    return out


def _row(rows: Sequence[DecisionRow], v: Mapping[str, z.Int]) -> z.Int:
    """The index of the first row of a decision table whose guard holds (-1: none)."""
    out: z.Int = z.const(-1)
    for i in reversed(range(len(rows))):
        out = z.ite(rows[i].guard(v), i, out)
    return out


def koikoi_inputs(opts: Mapping[str, str], end: int, winner: int, dealer: int, base: int, calls: Sequence[int],
                  brights: int, lucky: int) -> dict[str, int]:
    """The model's variables for a round played under ``opts``."""
    o = kk.SPEC.value
    return {"kk_end": end, "kk_w": winner, "kk_d": dealer, "kk_base": base, "kk_own": calls[winner],
            "kk_other": calls[1 - winner], "kk_nb": brights, "kk_tp": lucky,
            "kk_mode": MODE[o(opts, kk.Multiplier)], "kk_seven": int(o(opts, kk.SevenDouble) is kk.SevenDouble.ON),
            "kk_fmk": FIELD_MULTIPLIER[o(opts, kk.FieldMultiplier)],
            "kk_zero": int(o(opts, kk.ZeroSum) is kk.ZeroSum.ON), "kk_priv": int(o(opts, kk.Oyaken))}


def _decisions(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    def multiplier() -> Result:
        names = ("mode", "own", "other")
        gaps, clashes = decision_table(
            names, lambda v: z.all_of([MODE.domain(v["mode"]), v["own"] >= 0, v["other"] >= 0]),
            multiplier_rows())
        cases = [Case(f"multiplier={MODE.name(g['mode'])}, own calls {g['own']}, opponent's {g['other']}: "
                      "no rule", None) for g in gaps]
        cases += [Case(f"multiplier={MODE.name(g['mode'])}, own {g['own']}, other {g['other']}: two rules differ",
                       None) for g in clashes]
        return True, "complete and consistent" if not cases else "", {}, 0, tuple(cases)
    yield timed(GAME, "z3 decision table: koi-koi multiplier modes (KK-SCORE-1, KK-11)", multiplier)

    def bonus() -> Result:
        gaps, clashes = decision_table(("base", "own"), lambda v: z.all_of([v["base"] >= 1, v["own"] >= 0,
                                                                              v["own"] <= 8]), bonus_rows())
        cases = [Case(f"additive bonus, base {g['base']}, calls {g['own']}: no rule", None) for g in gaps]
        cases += [Case(f"additive bonus, base {g['base']}, calls {g['own']}: two rules differ", None) for g in clashes]
        # KK-22: a fourth call can score less than the third (recorded, not a failure)
        b = z.int_var("base")
        lower = z.find([b >= 1, b * 2 < b + 3])
        note = f"; a fourth call scores less than a third with a base of {lower['base']} (KK-22)" if lower else ""
        return True, ("complete and consistent" + note) if not cases else "", {}, 0, tuple(cases)
    yield timed(GAME, "z3 decision table: additive koi-koi bonus (KK-SCORE-6, KK-22)", bonus)

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
        sets: list[dict[str, str]] = [kk.SPEC.resolve(None, {"multiplier": md}) for md in kk.Multiplier]
        sets += [kk.SPEC.resolve(profile) for profile in ("battle-hanafuda", "koikoi-japan")]
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
    yield timed(GAME, "decision table vs reference play (KK-SCORE-1, KK-SCORE-3)", against_play, SAMPLED)


class ShobuWatch:
    """Follows a match action by action and checks every shōbu against the settlement model
    (:func:`koikoi_settlement`, the one the zero-sum proof is about): base (×2 at 7 or more) ×
    koi-koi multiplier (:func:`multiplier_rows`) × field multiplier, or the additive bonus."""

    def __init__(self, opts: Mapping[str, str]) -> None:
        self.opts = opts
        self.model = koikoi_settlement()
        self.calls = [0, 0]
        self.field_brights: int | None = None
        self.checked = 0

    def before(self, snap: Snapshot, action: str) -> None:
        if self.field_brights is None:
            self.field_brights = sum(1 for c in snap.zone("field") if c in kk.BRIGHTS)
        if action == "koikoi" and snap.to_move is not None:
            self.calls[snap.to_move] += 1

    def after(self, outcomes: Sequence[RoundOutcome]) -> str | None:
        for o in outcomes:
            if o.reason == "shobu":
                w = max((0, 1), key=lambda i: o.deltas[i])
                base = sum(y.points for y in o.yaku[w])
                a = koikoi_inputs(self.opts, END_SHOBU, w, 0, base, self.calls, self.field_brights or 0, 0)
                want = z.evaluate(self.model.points, a)
                self.checked += 1
                if o.deltas[w] != want:
                    return (f"shōbu scored {o.deltas[w]}, the settlement model says {want} (base {base}, calls "
                            f"{self.calls}, {self.field_brights or 0} Brights on the table)")
            self.calls, self.field_brights = [0, 0], None
        return None


def replay_check(adapter: EngineAdapter, cx: Mapping[str, object], options: Mapping[str, str]) -> str | None:
    """Re-run a ``koikoi-shobu-score`` or ``koikoi-count-model`` counterexample: the mismatch found, or
    None."""
    seed, actions = cx.get("seed"), cx.get("actions")
    if not isinstance(seed, int) or not isinstance(actions, list):
        raise ValueError("counterexample: 'seed' must be an integer and 'actions' a list")
    if cx.get("check") == COUNT_CHECK:
        deck = cx.get("deck")
        if deck is not None and not (isinstance(deck, list) and all(isinstance(c, int) for c in deck)):
            raise ValueError("counterexample: 'deck' must be a list of card ids")
        return replay_counts(adapter, options, seed, deck, [str(a) for a in actions])
    adapter.start(GAME, options, seed)
    watch = ShobuWatch(options)
    for act in actions:
        watch.before(adapter.snapshot(), str(act))
        adapter.apply(str(act))
        bad = watch.after(adapter.rounds_ended())
        if bad:
            return bad
    return None


def checks(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    """Every Koi-Koi proof, in report order."""
    yield from _deal(adapter)
    yield from _counts(adapter, quick)
    yield from _decisions(adapter, quick)
    yield from _yaku(adapter, quick)
