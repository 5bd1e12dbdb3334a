"""z3 proofs for Kekoro: deal arithmetic (8 undrawn cards) and the 26 yaku over one Boolean per
card (every yaku stacks, KE-YAKU-2), cross-checked against the reference's scorer.

The instant victory (KE-IV-1…3) is a transition system over yaku and card counts: the offer comes
exactly at the end of a turn with a lead of 3, a declaration ends the round with the declarer winning,
continuing loses nothing and no lead of 3 goes unoffered (inductive invariant and step properties,
with bounded runs showing the offer again after a decline and at the last turn). The round's scores,
the next dealer and the end of the game (KE-SCORE-1, KE-END-2/3, KE-GAME-1…3) are decision tables.
Random matches are checked step by step against both, through the adapter.

Encoded from :mod:`hanafuda_spec.games.kekoro`; the reference is reached only through the adapter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial

from hanafuda_spec import z3layer as z
from hanafuda_spec.adapter import EngineAdapter, RoundOutcome
from hanafuda_spec.games import kekoro as ke
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.proofs.common import (
    SAMPLED,
    Case,
    CountModel,
    Outcome,
    TableRow,
    V,
    YakuModel,
    deal_sizes,
    decision_rows,
    decision_table,
    fishing_counts,
    inductive,
    replay_match,
    rows_to_check,
    scoring_option_sets,
    table_value,
    timed,
    yaku_checks,
)
from hanafuda_spec.shuffle import SplitMix64

__all__ = ["checks", "iv_model", "replay_check"]

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
        opts = ke.SPEC.resolve(None, {"misdeal": ke.Misdeal.OFF})
        msg, cx, n = deal_sizes(adapter, GAME, opts, {"hand.0": 8, "hand.1": 8, "field": 8, "stock": 24})
        if msg:
            return False, msg, cx, n, ()
        return True, (f"the catalogue's sizes add up (8 + 8 + 8 + 24 = 48, 16 draws, {ke.UNDRAWN} undrawn: "
                      f"constants, no variable left free); {n} reference deals agree"), {}, n, ()
    yield timed(GAME, "deal arithmetic of the catalogue's sizes, reference deals (KE-DEAL, KE-END-1)", arithmetic,
                SAMPLED)


def _stack(m: YakuModel) -> z.Bool:
    return m.total.eq(ke.YAKU_POINTS * z.count(m.formed(y) for y in m.rows))


# -- the instant victory (KE-IV-1…3) as a transition system ------------------------------------------


#: Phases of the model, in the neutral form's words (``Snapshot.phase``).
PHASES = ("play", "take", "declare", "over")
PLAY, TAKE, DECLARE, OVER = range(4)
HAND = 8  #: cards in each hand at the deal (KE-DEAL-1)
DECLARE_ACTION = f"{ke.DECLARE} {ke.INSTANT_VICTORY}"

#: The model's variables: yaku ``y<s>`` and captured cards ``c<s>`` per seat, hand sizes ``h<s>``, the
#: seat to move ``t``, the phase ``ph``, ``iv`` 1 once an instant victory is declared (the declarer is
#: then ``t``), ``l<s>`` the yaku lead seat ``s`` had at the end of its last own turn (a ghost: what the
#: offer was judged on), and the dealer ``param_d``.
IV_NAMES = ("y0", "y1", "c0", "c1", "h0", "h1", "t", "ph", "iv", "l0", "l1", "param_d")


def _lead(v: V, seat: int) -> z.Int:
    return v[f"y{seat}"] - v[f"y{1 - seat}"]


def lead_of_mover(v: V) -> z.Int:
    return z.ite(v["t"].eq(0), _lead(v, 0), _lead(v, 1))


def iv_init(v: V) -> z.Bool:
    return z.all_of([*(v[f"{x}{s}"].eq(0) for x in "ycl" for s in (0, 1)), v["h0"].eq(HAND), v["h1"].eq(HAND),
                     v["t"].eq(v["param_d"]), v["ph"].eq(PLAY), v["iv"].eq(0)])


def iv_params(v: V) -> z.Bool:
    return (v["param_d"] >= 0) & (v["param_d"] <= 1)


def _same(v: V, w: V, names: Sequence[str]) -> z.Bool:
    return z.all_of(w[n].eq(v[n]) for n in names)


def iv_step(v: V, w: V) -> z.Bool:
    """One action of a Kekoro round, abstracted to yaku and card counts (KE-TURN-1/2, KE-CAP-1…6, KE-END-1,
    KE-IV-1…3). Yaku only grow, and only with new cards (:func:`_monotone` proves it of the yaku table);
    the opponent's pile does not change during one's turn.

    * a hand card is played and the drawn card waits for the choice of one of two (0, 2 or 4 cards taken);
    * a hand card and the drawn card are played (0 to 8 cards taken): the turn ends;
    * the waiting drawn card takes the chosen card (2 cards): the turn ends;
    * at the end of a turn, a yaku lead of 3 or more makes the mover choose (phase ``declare``);
      otherwise the turn passes, or the round is played out when the other hand is empty;
    * ``declare instant-victory`` ends the round, the declarer winning; ``continue`` passes the turn
      (or ends the round), changing nothing else.
    """
    moves = []
    for s in (0, 1):
        o = 1 - s
        ys, yo, cs, co, hs, ho = f"y{s}", f"y{o}", f"c{s}", f"c{o}", f"h{s}", f"h{o}"

        def grow(most: int, ys: str = ys, yo: str = yo, cs: str = cs, co: str = co) -> z.Bool:
            dc = w[cs] - v[cs]
            return z.all_of([dc >= 0, dc <= most, (dc % 2).eq(0), w[ys] >= v[ys], (w[ys] > v[ys]).implies(dc > 0),
                             w[yo].eq(v[yo]), w[co].eq(v[co])])

        def passes(s: int = s, o: int = o, ho: str = ho) -> z.Bool:
            return z.all_of([v[ho].eq(0).implies(w["ph"].eq(OVER) & w["t"].eq(s)),
                             (v[ho] >= 1).implies(w["ph"].eq(PLAY) & w["t"].eq(o)), w["iv"].eq(0)])

        def end_turn(s: int = s, o: int = o) -> z.Bool:
            lead = _lead(w, s)
            return z.all_of([w[f"l{s}"].eq(lead), w[f"l{o}"].eq(v[f"l{o}"]),
                             (lead >= ke.YAKU_LEAD).implies(w["ph"].eq(DECLARE) & w["t"].eq(s) & w["iv"].eq(0)),
                             (lead < ke.YAKU_LEAD).implies(passes())])

        me = v["t"].eq(s)
        played = w[hs].eq(v[hs] - 1) & w[ho].eq(v[ho]) & (v[hs] >= 1)
        moves += [
            z.all_of([me, v["ph"].eq(PLAY), played, grow(4), w["ph"].eq(TAKE), w["t"].eq(s), w["iv"].eq(0),
                      _same(v, w, ("l0", "l1"))]),
            z.all_of([me, v["ph"].eq(PLAY), played, grow(8), end_turn()]),
            z.all_of([me, v["ph"].eq(TAKE), _same(v, w, ("h0", "h1")), grow(2), (w[cs] - v[cs]).eq(2), end_turn()]),
            z.all_of([me, v["ph"].eq(DECLARE), w["ph"].eq(OVER), w["iv"].eq(1), w["t"].eq(s),
                      _same(v, w, ("y0", "y1", "c0", "c1", "h0", "h1", "l0", "l1"))]),
            z.all_of([me, v["ph"].eq(DECLARE), _same(v, w, ("y0", "y1", "c0", "c1", "h0", "h1", "l0", "l1")),
                      passes()]),
        ]
    return z.any_of(moves)


def iv_inv(v: V) -> z.Bool:
    """What every reachable position satisfies: the dealer leads (hands), the offer only with a lead of
    3 that is the mover's end-of-turn lead, a declared victory with the declarer 3 ahead, a round over
    without a declaration only when played out; and, for each seat, outside its own turn its lead never
    exceeds the lead it had at the end of its last turn (the no-lost-offer lemma)."""
    t, d, ph = v["t"], v["param_d"], v["ph"]
    mine = z.ite(t.eq(0), v["h0"], v["h1"])
    other = z.ite(t.eq(0), v["h1"], v["h0"])
    ld = lead_of_mover(v)
    rows = [t >= 0, t <= 1, ph >= PLAY, ph <= OVER, v["iv"] >= 0, v["iv"] <= 1, d >= 0, d <= 1,
            ph.eq(PLAY).implies((mine >= 1) & t.eq(d).implies(mine.eq(other)) & t.ne(d).implies(mine.eq(other + 1))),
            (ph.eq(TAKE) | ph.eq(DECLARE) | v["iv"].eq(1)).implies(
                (mine < HAND) & t.eq(d).implies((mine + 1).eq(other)) & t.ne(d).implies(mine.eq(other))),
            ph.eq(DECLARE).implies((ld >= ke.YAKU_LEAD) & ld.eq(z.ite(t.eq(0), v["l0"], v["l1"]))),
            v["iv"].eq(1).implies(ph.eq(OVER) & (ld >= ke.YAKU_LEAD)),
            (ph.eq(OVER) & v["iv"].eq(0)).implies(v["h0"].eq(0) & v["h1"].eq(0))]
    for s in (0, 1):
        rows += [v[f"h{s}"] >= 0, v[f"h{s}"] <= HAND, v[f"y{s}"] >= 0, v[f"c{s}"] >= 0, (v[f"c{s}"] % 2).eq(0),
                 v[f"h{s}"].eq(HAND).implies(v[f"y{s}"].eq(0) & v[f"c{s}"].eq(0) & v[f"l{s}"].eq(0)),
                 (ph.ne(OVER) & (t.ne(s) | ph.eq(DECLARE))).implies(_lead(v, s) <= v[f"l{s}"])]
    return z.all_of(rows)


def iv_model() -> CountModel:
    return CountModel(IV_NAMES, iv_init, iv_step, iv_inv, iv_params)


def _pair() -> tuple[dict[str, z.Int], dict[str, z.Int]]:
    return ({n: z.int_var(n) for n in IV_NAMES},
            {n: z.int_var(n if n.startswith("param_") else n + "'") for n in IV_NAMES})


def iv_claims(step_of: Callable[[V, V], z.Bool] = iv_step) -> list[tuple[str, z.Bool, list[z.Bool]]]:
    """The properties of the instant victory, each to prove over any reachable position (the inductive
    invariant) and any step (``step_of``, :func:`iv_step` unless a test passes a wrong one) from it."""
    v, w = _pair()
    pre = [iv_params(v), iv_inv(v)]
    step = [*pre, step_of(v, w)]
    t = v["t"]
    ended = (v["ph"].eq(PLAY) & w["ph"].ne(TAKE)) | v["ph"].eq(TAKE)
    lead_after = z.ite(t.eq(0), _lead(w, 0), _lead(w, 1))
    grows = z.all_of([(w[f"{x}{s}"] >= v[f"{x}{s}"]) for x in "yc" for s in (0, 1)])
    out = [
        ("KE-IV-1 the choice is offered exactly at the end of a turn whose mover then leads by 3 or more",
         w["ph"].eq(DECLARE).iff(ended & (lead_after >= ke.YAKU_LEAD)) & w["ph"].eq(DECLARE).implies(w["t"].eq(t)),
         step),
        ("KE-IV-1, KE-GAME-2 a declaration ends the round, the declarer winning with a lead of 3 or more",
         w["iv"].eq(1).implies(v["ph"].eq(DECLARE) & w["ph"].eq(OVER) & w["t"].eq(t) & (lead_after >= ke.YAKU_LEAD)),
         step),
        ("KE-IV-1 nothing follows the end of the round", ~step_of(v, w), [*pre, v["ph"].eq(OVER)]),
        ("KE-IV-3 continuing keeps every card and yaku, passes the turn and is not offered again that turn",
         (v["ph"].eq(DECLARE) & w["iv"].eq(0)).implies(
             _same(v, w, ("y0", "y1", "c0", "c1")) & ((w["ph"].eq(PLAY) & w["t"].eq(1 - t)) | w["ph"].eq(OVER))),
         step),
        ("KE-IV-2 yaku and captured cards are never lost", grows, step),
        ("KE-4 a lead never drops during one's own turn (its end is the first moment it is reached)",
         (v["ph"].eq(PLAY) | v["ph"].eq(TAKE)).implies(lead_after >= lead_of_mover(v)), step),
    ]
    for s in (0, 1):
        out.append((f"KE-IV-3 no offer is lost: seat {s} leading by 3 outside its own turn was offered the choice at "
                    f"the end of its last turn", (v[f"l{s}"] >= ke.YAKU_LEAD),
                    [*pre, v["ph"].ne(OVER), t.ne(s), _lead(v, s) >= ke.YAKU_LEAD]))
    out.append(("KE-END-1 a round not declared ends played out, both hands empty",
                v["h0"].eq(0) & v["h1"].eq(0), [*pre, v["ph"].eq(OVER), v["iv"].eq(0)]))
    return out


def _shown(cx: z.Model) -> str:
    """A counterexample of the transition system as two positions."""
    def pos(suffix: str) -> str:
        ph = cx.get("ph" + suffix)
        name = PHASES[ph] if isinstance(ph, int) and 0 <= ph < len(PHASES) else ph
        return (f"seat {cx.get('t' + suffix)} to move, phase {name}, "
                f"yaku {cx.get('y0' + suffix)}-{cx.get('y1' + suffix)}, hands {cx.get('h0' + suffix)}-"
                f"{cx.get('h1' + suffix)}, declared {cx.get('iv' + suffix)}")
    return f"before: {pos('')}; after: {pos(chr(39))}"


def unroll(steps: int, goal: Callable[[Sequence[V]], z.Bool]) -> z.Model | None:
    """A run of :func:`iv_model` of ``steps`` actions from the deal satisfying ``goal`` (bounded model
    checking), or None; the state after action ``i`` is named ``<name>@<i>``."""
    states = [{n: z.int_var(n if n.startswith("param_") else f"{n}@{i}") for n in IV_NAMES} for i in range(steps + 1)]
    return z.find([iv_params(states[0]), iv_init(states[0]),
                   *(iv_step(states[i], states[i + 1]) for i in range(steps)), goal(states)])


def _witnesses() -> list[tuple[str, z.Model | None]]:
    """Runs showing the offer is not vacuous: declined and offered again at the mover's next turn, and
    offered at the round's very last turn."""
    def again(s: Sequence[V]) -> z.Bool:
        return s[1]["ph"].eq(DECLARE) & s[2]["ph"].eq(PLAY) & s[4]["ph"].eq(DECLARE) & s[4]["t"].eq(s[1]["t"])

    def last(s: Sequence[V]) -> z.Bool:
        return s[-1]["ph"].eq(DECLARE) & s[-1]["h0"].eq(0) & s[-1]["h1"].eq(0)
    return [("declined, then offered again at the next own turn (KE-IV-3)", unroll(4, again)),
            ("offered at the round's last turn (KE-4)", unroll(2 * HAND, last))]


def _iv_proof(step_of: Callable[[V, V], z.Bool] = iv_step) -> Result:
    for r in inductive(CountModel(IV_NAMES, iv_init, step_of, iv_inv, iv_params)):
        if not r.ok:
            return False, f"{r.name}: {r.status}", {"kind": "model", "game": GAME, **r.counterexample}, 0, ()
    for name, claim, assume in iv_claims(step_of):
        r = z.prove(name, claim, assume)
        if not r.ok:
            return False, f"{name}: {r.status} ({_shown(r.counterexample)})", {
                "kind": "model", "game": GAME, **r.counterexample}, 0, ()
    for name, m in _witnesses():
        if m is None:
            return False, f"no run of the model is {name}: the offer is vacuous there", {}, 0, ()
    return True, ("proved: the choice comes exactly at the end of a turn with a lead of 3, never twice in a turn; "
                  "a declaration ends the round with the declarer 3 ahead; continuing keeps every card and yaku; "
                  "no lead of 3 goes unoffered; a round not declared is played out. Runs exist that decline and "
                  "are offered again, and that are offered at the last turn"), {}, 0, ()


def _monotone(values: Mapping[str, str]) -> Result:
    """KE-IV-2 over one Boolean per card: a yaku, once formed, stays formed when cards are added, so a
    pile's yaku count never falls (what lets the transition system count yaku only); and the fewest
    captured cards that carry a lead of 3. Yaku of the same three cards count twice (KE-9)."""
    rows = ke.yaku_table(values)
    a, b = YakuModel(rows, DECK, "a_"), YakuModel(rows, DECK, "b_")
    sub = z.all_of([a.has(c).implies(b.has(c)) for c in DECK])
    for y, r in zip(rows, z.prove_all([(y.id, a.formed(y).implies(b.formed(y))) for y in rows], [sub]), strict=True):
        if not r.ok:
            return False, (f"{y.id}: formed by {list(a.pile_of(r.counterexample))} but not by the bigger pile "
                           f"{list(b.pile_of(r.counterexample))}"), {"kind": "model", "game": GAME}, 0, ()
    count = z.count(a.formed(y) for y in rows)
    pile: tuple[int, ...] = ()
    for k in range(ke.YAKU_LEAD, len(DECK) + 1):
        m = z.find([count >= ke.YAKU_LEAD, a.size() <= k])
        if m is not None:
            pile = a.pile_of(m)
            break
    cases = tuple(Case(f"{x.id} and {y.id} are the same cards {sorted(x.pool)}: two yaku towards the lead of "
                       f"{ke.YAKU_LEAD} (KE-IV-2)", "KE-9")
                  for i, x in enumerate(rows) for y in rows[i + 1:] if x.pool == y.pool)
    return True, (f"proved: every yaku stays formed when cards are added, so the count never falls; a lead of "
                  f"{ke.YAKU_LEAD} needs at least {len(pile)} captured cards (e.g. {list(pile)})"), {}, 0, cases


# -- the round's result and the end of the game (KE-SCORE-1, KE-END-2/3, KE-GAME-1…3) -----------------










#: Inputs: ``r`` how the round ended (0 misdeal, 1 played out, 2 instant victory), ``a0``/``a1`` each
#: side's card values plus 30 per yaku, ``s0``/``s1`` the scores before the round, ``w`` the declarer,
#: ``d`` the dealer, options ``pass`` (tie_dealer=pass), ``more`` (lead_test=more-than), ``lim`` the
#: round limit (0: none) and ``n`` the counted rounds with this one.
RESULT_NAMES = ("r", "a0", "a1", "s0", "s1", "w", "d", "pass", "more", "lim", "n")
MISDEAL, PLAYED_OUT, INSTANT = 0, 1, 2


def result_domain(v: V) -> z.Bool:
    return z.all_of([v["r"] >= 0, v["r"] <= 2, v["a0"] >= 0, v["a1"] >= 0, v["s0"] >= 0, v["s1"] >= 0,
                     *((v[n] >= 0) & (v[n] <= 1) for n in ("w", "d", "pass", "more")),
                     z.any_of(v["lim"].eq(x) for x in (0, 3, 6, 12)), v["n"] >= 0,
                     v["r"].ne(MISDEAL).implies(v["n"] >= 1)])


def _diff(v: V) -> z.Int:
    """Seat 0's cumulative lead after the round's scores are added."""
    return (v["s0"] + v["a0"]) - (v["s1"] + v["a1"])


def _reached(v: V) -> z.Bool:
    """KE-GAME-1: a lead of at least 90 (more than 90 with lead_test=more-than)."""
    d = _diff(v)
    gap = z.ite(d >= 0, d, -d)
    return (v["more"].eq(1) & (gap > ke.LEAD)) | (v["more"].eq(0) & (gap >= ke.LEAD))


def _limit(v: V) -> z.Bool:
    return (v["lim"] > 0) & (v["n"] >= v["lim"])


def _played(v: V) -> z.Bool:
    return v["r"].eq(PLAYED_OUT)


SCORE_ROWS = (
    TableRow("KE-DEAL-3 a misdeal scores nothing", "KE-6", lambda v: v["r"].eq(MISDEAL),
             {"delta0": lambda v: 0, "delta1": lambda v: 0}),
    TableRow("KE-IV-3 the round an instant victory interrupts is not scored", "KE-4", lambda v: v["r"].eq(INSTANT),
             {"delta0": lambda v: 0, "delta1": lambda v: 0}),
    TableRow("KE-SCORE-1 a played-out round: each side adds its card values plus 30 per yaku", "KE-2", _played,
             {"delta0": lambda v: v["a0"], "delta1": lambda v: v["a1"]}),
)

NEXT_ROWS = (
    TableRow("KE-DEAL-3 after a misdeal the same dealer deals again", "KE-6", lambda v: v["r"].eq(MISDEAL),
             {"next": lambda v: v["d"]}),
    TableRow("KE-GAME-2 an instant victory ends the game: no next round, the dealer is unchanged", "KE-4",
             lambda v: v["r"].eq(INSTANT), {"next": lambda v: v["d"]}),
    TableRow("KE-END-2 seat 0's round score is greater: it deals next", "KE-3",
             lambda v: _played(v) & (v["a0"] > v["a1"]), {"next": lambda v: 0}),
    TableRow("KE-END-2 seat 1's round score is greater: it deals next", "KE-3",
             lambda v: _played(v) & (v["a1"] > v["a0"]), {"next": lambda v: 1}),
    TableRow("KE-END-3 equal round scores: the dealer stays", "KE-3",
             lambda v: _played(v) & v["a0"].eq(v["a1"]) & v["pass"].eq(0), {"next": lambda v: v["d"]}),
    TableRow("KE-END-3 equal round scores with tie_dealer=pass: the other player deals", "KE-3",
             lambda v: _played(v) & v["a0"].eq(v["a1"]) & v["pass"].eq(1), {"next": lambda v: 1 - v["d"]}),
)


def _leader(v: V) -> z.Int:
    d = _diff(v)
    return z.ite(d > 0, 0, z.ite(d < 0, 1, -1))


END_ROWS = (
    TableRow("KE-DEAL-3 a misdeal: the game goes on", "KE-6", lambda v: v["r"].eq(MISDEAL),
             {"over": lambda v: 0, "winner": lambda v: -1}),
    TableRow("KE-GAME-2 an instant victory: the game ends and the declarer wins, whatever the scores", "KE-4",
             lambda v: v["r"].eq(INSTANT), {"over": lambda v: 1, "winner": lambda v: v["w"]}),
    TableRow("KE-GAME-1 a lead of 90 (lead_test): the game ends and the leader wins", "KE-1",
             lambda v: _played(v) & _reached(v), {"over": lambda v: 1, "winner": _leader}),
    TableRow("KE-GAME-3 the round limit is reached: the leader wins, equal scores are a drawn game", "KE-1",
             lambda v: _played(v) & _limit(v), {"over": lambda v: 1, "winner": _leader}),
    TableRow("KE-GAME-1 no lead of 90 and no limit reached: the game goes on", "KE-1",
             lambda v: _played(v) & ~_reached(v) & ~_limit(v), {"over": lambda v: 0, "winner": lambda v: -1}),
)

TABLES = (("scores", SCORE_ROWS), ("next dealer", NEXT_ROWS), ("end of the game", END_ROWS))


def _result_tables() -> Result:
    cases: list[Case] = []
    for _, rows in TABLES:
        for result in rows[0].out:
            gaps, clashes = decision_table(RESULT_NAMES, result_domain,
                                           decision_rows(rows, result))
            cases += [Case(f"{result}: no rule for {dict(g)}", None) for g in gaps]
            cases += [Case(f"{result}: two rules differ on {dict(g)}", None) for g in clashes]
    if cases:
        return True, "", {}, 0, tuple(cases)
    v = {n: z.int_var(n) for n in RESULT_NAMES}
    k = z.int_var("k")
    val = {res: table_value(rows, res, v) for _, rows in TABLES for res in rows[0].out}

    def shifted(res: str, **new: z.Int) -> z.Int:
        return table_value(END_ROWS, res, {**v, **new})
    same_end = z.all_of([val[res].eq(shifted(res, s0=v["s0"] + k, s1=v["s1"] + k)) &
                         val[res].eq(shifted(res, a0=v["a0"] + k, a1=v["a1"] + k)) for res in ("over", "winner")])
    limit_free = (v["lim"].eq(0) | (v["n"] < v["lim"]))
    claims = [
        ("KE-SCORE-1 scores never go down", (val["delta0"] >= 0) & (val["delta1"] >= 0), []),
        ("KE-2 only the difference of the scores decides the game (adding the same to both changes nothing, so "
         "a zero-sum reading decides alike)", same_end,
         [v["s0"] + k >= 0, v["s1"] + k >= 0, v["a0"] + k >= 0, v["a1"] + k >= 0]),
        ("KE-GAME-1 a game ended by the lead always has a winner",
         (_played(v) & val["over"].eq(1) & limit_free).implies(val["winner"].ne(-1)), []),
        ("KE-GAME-2 an instant victory ends the game and the declarer wins, whatever the scores",
         v["r"].eq(INSTANT).implies(val["over"].eq(1) & val["winner"].eq(v["w"])), []),
        ("KE-END-2 the greater round score deals next", (_played(v) & v["a0"].ne(v["a1"])).implies(
            val["next"].eq(z.ite(v["a0"] > v["a1"], 0, 1))), []),
    ]
    for name, claim, extra in claims:
        r = z.prove(name, claim, [result_domain(v), *extra])
        if not r.ok:
            return False, f"{name}: {r.status} at {dict(r.counterexample)}", {"kind": "model", "game": GAME}, 0, ()
    cases = [Case(r.text, r.gap or r.text.split()[0]) for _, rows in TABLES for r in rows]
    return True, ("complete and consistent; scores never go down, only their difference decides the game, a lead "
                  "of 90 always names a winner, the declarer wins whatever the scores"), {}, 0, tuple(cases)


SCORES = {res: (rows, table_value(rows, res, {n: z.int_var(n) for n in RESULT_NAMES}))
          for _, rows in TABLES for res in rows[0].out}
#: Each row of the result tables with its guard as a 0/1 expression (to name the rule that applied).
ROW_HITS = tuple((r.text, z.ite(r.guard({n: z.int_var(n) for n in RESULT_NAMES}), 1, 0))
                 for _, rows in TABLES for r in rows)
REASONS = {"misdeal": MISDEAL, "played-out": PLAYED_OUT, ke.INSTANT_VICTORY: INSTANT}


class _Memo:
    """z3 expressions evaluated on concrete values, memoised (play repeats the same few cases)."""

    def __init__(self) -> None:
        self.cache: dict[tuple[str, tuple[tuple[str, int], ...]], int] = {}
        v, w = _pair()
        self.step = z.ite(iv_step(v, w), 1, 0)

    def __call__(self, name: str, expr: z.Int, values: Mapping[str, int]) -> int:
        key = (name, tuple(sorted(values.items())))
        hit = self.cache.get(key)
        if hit is None:
            hit = self.cache[key] = z.evaluate(expr, values)
        return hit


_MEMO: list[_Memo] = []


def _memo() -> _Memo:
    if not _MEMO:
        _MEMO.append(_Memo())
    return _MEMO[0]


def _resolve(field: list[int], card: int, target: int | None) -> tuple[list[int], list[int]] | None:
    """KE-CAP-1…4 on the neutral form: the field after ``card`` is played to it and the cards taken
    (None when two cards match and ``target`` is not one of them)."""
    m = [f for f in field if f // 10 == card // 10]
    if not m:
        return [*field, card], []
    if len(m) == 2:
        if target not in m:
            return None
        m = [target]
    return [f for f in field if f not in m], [*m, card]


class OfferWatch:
    """Follows a match through the adapter and checks every action against the transition system
    (:func:`iv_step`: each observed step, abstracted to yaku and card counts, must be one of the
    model's steps) and every round against the result tables; ``declare instant-victory`` must be
    legal exactly in phase ``declare``, together with ``continue`` only."""

    def __init__(self, adapter: EngineAdapter, values: Mapping[str, str]) -> None:
        self.adapter = adapter
        self.values = values
        self.table = ke.yaku_table(values)
        o = ke.SPEC.value
        limit = o(values, ke.RoundLimit)
        #: the result tables' option inputs: tie_dealer=pass, lead_test=more-than, the round limit (0: none)
        self.params = {"pass": int(o(values, ke.TieDealer) is ke.TieDealer.PASS),
                       "more": int(o(values, ke.LeadTest) is ke.LeadTest.MORE_THAN),
                       "lim": 0 if limit is ke.RoundLimit.NONE else int(limit)}
        self.memo = _memo()
        self.counted = 0
        self.stats = {"offers": 0, "again": 0, "last turn": 0, "declared": 0, "rounds": 0, "ties": 0}
        self._new_round()

    def _new_round(self) -> None:
        self.ghost = [0, 0]
        self.declined = [False, False]

    def _state(self, s: Snapshot, piles: Sequence[Sequence[int]], hands: Sequence[int], ph: int, t: int,
               iv: int = 0) -> dict[str, int]:
        out = {"ph": ph, "t": t, "iv": iv, "param_d": s.dealer, "l0": self.ghost[0], "l1": self.ghost[1]}
        for i in (0, 1):
            out[f"y{i}"] = ke.yaku_count(self.table, piles[i])
            out[f"c{i}"] = len(piles[i])
            out[f"h{i}"] = hands[i]
        return out

    def _final(self, b: Snapshot, action: str) -> tuple[list[list[int]], list[int]] | str:
        """The capture piles and hand sizes the round ended with (the snapshot after shows the next deal)."""
        piles = [list(b.zone("captured.0")), list(b.zone("captured.1"))]
        hands = [len(b.zone("hand.0")), len(b.zone("hand.1"))]
        mover = b.to_move
        words = action.split()
        if mover is None or words[0] not in ("play", "take") or not all(w.isdigit() for w in words[1:]):
            return piles, hands
        field = list(b.zone("field"))
        got: list[int] = []
        if words[0] == "take":
            drawn = b.zone("drawn")
            if len(words) != 2 or len(drawn) != 1:
                return f"{action!r} with the drawn card {list(drawn)}"
            got = [drawn[0], int(words[1])]
        else:
            c = int(words[1])
            first = _resolve(field, c, int(words[2]) if len(words) > 2 else None)
            stock = b.zone("stock")
            if first is None or not stock:
                return f"{action!r} cannot be played on the field {field}"
            field, got = first
            if sum(1 for f in field if f // 10 == stock[0] // 10) == 2:
                return f"the round ended after {action!r} while the drawn card {stock[0]} waits for its choice"
            second = _resolve(field, stock[0], None)
            assert second is not None
            got += second[1]
            hands[mover] -= 1
        piles[mover] += got
        return piles, hands

    def act(self, action: str) -> str | None:
        """Apply ``action`` through the adapter; the first disagreement with the models, or None."""
        a = self.adapter
        b = a.snapshot()
        legal = list(a.legal_actions())
        offered = DECLARE_ACTION in legal
        if offered != (b.phase == "declare") or (offered and sorted(legal) != ["continue", DECLARE_ACTION]):
            return f"KE-IV-1: in phase {b.phase} the legal actions are {legal}"
        mover = b.to_move
        if mover is None or b.phase not in PHASES:
            a.apply(action)
            return None
        hands_b = [len(b.zone("hand.0")), len(b.zone("hand.1"))]
        pre = self._state(b, (b.zone("captured.0"), b.zone("captured.1")), hands_b, PHASES.index(b.phase), mover)
        a.apply(action)
        outs = a.rounds_ended()
        if outs:
            final = self._final(b, action)
            if isinstance(final, str):
                return final
            piles, hands = final
            post = self._state(b, piles, hands, OVER, mover, int(outs[0].reason == ke.INSTANT_VICTORY))
        else:
            s = a.snapshot()
            piles = [list(s.zone("captured.0")), list(s.zone("captured.1"))]
            post = self._state(s, piles, [len(s.zone("hand.0")), len(s.zone("hand.1"))],
                               PHASES.index(s.phase) if s.phase in PHASES else -1,
                               mover if s.to_move is None else s.to_move)
        if (pre["ph"] == PLAY and post["ph"] != TAKE) or pre["ph"] == TAKE:  # the mover's turn ended
            self.ghost[mover] = post[f"y{mover}"] - post[f"y{1 - mover}"]
            post[f"l{mover}"] = self.ghost[mover]
        got = self.memo("step", self.memo.step, {**pre, **{k + ("" if k.startswith("param_") else "'"): x
                                                           for k, x in post.items()}})
        if got != 1:
            return self._explain(action, pre, post)
        self._count(action, mover, post)
        if not outs:
            return None
        pts = [ke.card_points(self.values, piles[i]) + ke.YAKU_POINTS * post[f"y{i}"] for i in (0, 1)]
        return self._round_end(b, post, pts, outs)

    def _count(self, action: str, mover: int, post: Mapping[str, int]) -> None:
        if post["ph"] == DECLARE:
            self.stats["offers"] += 1
            self.stats["again"] += int(self.declined[mover])
            self.stats["last turn"] += int(post["h0"] == post["h1"] == 0)
        if action == "continue":
            self.declined[mover] = True
        self.stats["declared"] += int(action == DECLARE_ACTION)

    @staticmethod
    def _explain(action: str, pre: Mapping[str, int], post: Mapping[str, int]) -> str:
        t = pre["t"]
        lead = post[f"y{t}"] - post[f"y{1 - t}"]
        where = (f"seat {t} ({pre[f'y{t}']} yaku to {pre[f'y{1 - t}']}, phase {PHASES[pre['ph']]}) played "
                 f"{action!r}: {post[f'y{t}']} yaku to {post[f'y{1 - t}']}, phase "
                 f"{PHASES[post['ph']] if 0 <= post['ph'] < len(PHASES) else post['ph']}")
        ended = (pre["ph"] == PLAY and post["ph"] != TAKE) or pre["ph"] == TAKE
        if ended and lead >= ke.YAKU_LEAD and post["ph"] != DECLARE:
            return f"KE-IV-1: {where}; a lead of {lead} at the end of the turn must offer the instant victory"
        if post["ph"] == DECLARE and (not ended or lead < ke.YAKU_LEAD):
            return f"KE-IV-1: {where}; the instant victory is offered only at the end of a turn with a lead of 3"
        if pre["ph"] == DECLARE and action == "continue":
            return f"KE-IV-3: {where}; continuing keeps every card and passes the turn"
        if action == DECLARE_ACTION:
            return f"KE-IV-1, KE-GAME-2: {where}; a declaration ends the round with the declarer winning"
        return f"{where}: not a step of the instant-victory transition system (before {dict(pre)}, after {dict(post)})"

    def _round_end(self, b: Snapshot, post: Mapping[str, int], pts: Sequence[int],
                   outs: Sequence[RoundOutcome]) -> str | None:
        a = self.adapter
        scores = list(b.scores)
        dealer = b.dealer
        over = 0
        lead = post[f"y{post['t']}"] - post[f"y{1 - post['t']}"]
        for i, o in enumerate(outs):
            self.stats["rounds"] += 1
            r = REASONS.get(o.reason)
            if r is None or (i > 0 and r != MISDEAL):
                return f"unexpected round end {o.reason!r}"
            if o.counts != (r != MISDEAL):
                return f"{o.reason}: counts={o.counts} (KE-DEAL-3, KE-GAME-3: only a misdeal is not a round)"
            self.counted += int(o.counts)
            played = i == 0 and r == PLAYED_OUT
            self.stats["ties"] += int(played and pts[0] == pts[1])
            inp = {"r": r, "a0": pts[0] if played else 0, "a1": pts[1] if played else 0, "s0": scores[0],
                   "s1": scores[1], "w": post["t"], "d": dealer, **self.params, "n": self.counted}
            want = {res: self.memo(res, expr, inp) for res, (_, expr) in SCORES.items()}
            rule = next((text for text, hit in ROW_HITS if self.memo(text, hit, inp)), "no rule")
            if tuple(o.deltas) != (want["delta0"], want["delta1"]):
                return (f"{rule}: the round scores {tuple(o.deltas)}, the table says "
                        f"{(want['delta0'], want['delta1'])} (final piles worth {list(pts)})")
            if r == INSTANT and dict(o.notes).get("yaku_lead", lead) != lead:
                return f"KE-IV-2: the instant victory reports a yaku lead of {dict(o.notes)['yaku_lead']}, not {lead}"
            scores = [scores[0] + want["delta0"], scores[1] + want["delta1"]]
            dealer, over = want["next"], want["over"]
        s = a.snapshot()
        if list(s.scores) != scores:
            return f"KE-SCORE-1: the scores are {list(s.scores)} after the round, the tables say {scores}"
        if a.match_over() != bool(over):
            lead_test, limit = ke.SPEC.value(self.values, ke.LeadTest), ke.SPEC.value(self.values, ke.RoundLimit)
            return (f"KE-GAME-1…3: at {scores} after {self.counted} rounds (lead_test={lead_test}, "
                    f"round_limit={limit}) the tables say the game is "
                    f"{'over' if over else 'not over'}")
        if not over and s.dealer != dealer:
            return f"KE-END-2/3: seat {s.dealer} deals next, the table says seat {dealer}"
        self._new_round()
        return None


#: Option sets the play check covers (quick: the first three), and how often a player offered the
#: instant victory declines it (so that offers come again, and at the last turn).
PLAY_OPTIONS: tuple[dict[str, str], ...] = (
    {}, {"tie_dealer": "pass", "round_limit": "3"}, {"lead_test": "more-than", "gundari_ribbons": "teikei",
                                                     "eight_islands": "teikei"},
    {"values": "kusaba", "round_limit": "6"}, {"misdeal": "field-or-hand", "packets": "2"}, {"round_limit": "12"},
)
DECLINE = 0.85


def _against_play(adapter: EngineAdapter, quick: bool) -> Result:
    rng = SplitMix64(90)
    stats = dict.fromkeys(("offers", "again", "last turn", "declared", "rounds", "ties"), 0)
    for extra in PLAY_OPTIONS[:3] if quick else PLAY_OPTIONS:
        opts = ke.SPEC.resolve(None, extra)
        for _ in range(20 if quick else 50):
            seed = rng.next()
            adapter.start(GAME, opts, seed)
            watch = OfferWatch(adapter, opts)
            actions: list[str] = []
            for _ in range(5000):
                if adapter.match_over():
                    break
                legal = adapter.legal_actions()
                if "continue" in legal and rng.below(100) < DECLINE * 100:
                    act = "continue"
                else:
                    act = legal[rng.below(len(legal))]
                actions.append(act)
                bad = watch.act(act)
                if bad:
                    return False, bad, {"kind": "play", "game": GAME, "options": opts, "seed": seed,
                                        "actions": actions, "check": "kekoro-instant-victory"}, stats["rounds"], ()
            for k, n in watch.stats.items():
                stats[k] += n
    return True, (f"{stats['rounds']} rounds: {stats['offers']} offers ({stats['again']} after a declined one, "
                  f"{stats['last turn']} at the last turn), {stats['declared']} declared, {stats['ties']} equal round "
                  f"scores; every step one of the transition system's, every round scored and ended as the tables "
                  f"say"), {}, stats["rounds"], ()


def replay_check(adapter: EngineAdapter, cx: Mapping[str, object], options: Mapping[str, str]) -> str | None:
    """Re-run a ``kekoro-instant-victory`` counterexample (a match): the disagreement, or None."""
    return replay_match(adapter, GAME, options, cx, lambda a: OfferWatch(a, options).act)


def _instant_victory(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    seen: set[tuple[object, ...]] = set()
    for label, values in scoring_option_sets(ke.SPEC, YAKU_KEYS):
        key = tuple(y.pool for y in ke.yaku_table(values))
        if key in seen:
            continue
        seen.add(key)
        yield timed(GAME, f"z3 yaku count monotone (KE-IV-2), {label}",
                    partial(_monotone, values))
    yield timed(GAME, "z3 instant-victory transition system (KE-IV-1…3, KE-GAME-2)", _iv_proof)
    yield timed(GAME, "z3 decision tables: round result, game end (KE-SCORE-1, KE-GAME)", _result_tables)
    yield timed(GAME, "instant victory, round results vs reference play (KE-IV-1…3)",
                lambda: _against_play(adapter, quick), SAMPLED)


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
    yield from _instant_victory(adapter, quick)
