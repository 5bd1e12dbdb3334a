"""z3 proofs for Musashino-Bana: deal arithmetic of the three deals (hands and draw pile run out
together), the dekiyaku table over one Boolean per card (every dekiyaku stacks except the
absorbed ones; an insta-win leaves only the insta-win dekiyaku), ties as a decision table
(MB-7), and the optional Storm and Sun Rules (MB-STORM-1…4) over one Boolean per card per side.

The Storm and Sun model (:class:`_Storm`) adds, for every side, the turn in which the Crane and the
two storm cards were taken. The proofs state what a stormed side can and cannot count in either
version of the Storm, that the Storm raises a side's total only by breaking an insta-win, what the
Crane lifts, and how the Storm behaves between two checks of one round (decision MB-12). z3 then
generates end-of-round positions at the edges (a side just stormed, just lifted, the Crane a turn too
early, an insta-win broken or freed by the Sun), :func:`schedule` finds a round that reaches each,
and the engine plays it through the adapter while :class:`StormWatch` checks every turn.

Encoded from :mod:`hanafuda_spec.games.musashino`; the reference is reached only through the adapter.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial

from hanafuda_spec import z3layer as z
from hanafuda_spec.adapter import EngineAdapter, RoundOutcome
from hanafuda_spec.games import musashino as mb
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.proofs.common import (
    SAMPLED,
    Case,
    DecisionRow,
    Outcome,
    card_var,
    cross_check,
    deal_sizes,
    decision_table,
    fishing_counts,
    once,
    scoring_option_sets,
    timed,
    vacuous_under,
)
from hanafuda_spec.shuffle import SplitMix64, shuffled
from hanafuda_spec.yaku import ScoredYaku

__all__ = ["DECISIONS", "SCENARIOS", "StormWatch", "checks", "replay_check", "schedule", "storm_dekiyaku",
           "storm_stormed"]

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
        return True, ("the catalogue's sizes add up (3 × 7 + 6 + 21, 4 × 5 + 8 + 20, 4 × 6 + 0 + 24: constants, no "
                      f"variable left free); {n} reference deals agree"), {}, n, ()
    yield timed(GAME, "deal arithmetic of the catalogue's sizes, reference deals (MB-DEAL, the three deals)",
                arithmetic, SAMPLED)


def _judge(rows: Sequence[mb.Dekiyaku], has: Callable[[int], z.Bool], void: z.Bool | None = None,
           ) -> tuple[list[z.Bool], list[z.Int]]:
    """Each row's formula (formed) and score for the pile ``has`` describes (MB-YAKU-1: only the
    insta-win dekiyaku when one is formed, otherwise every formed row that no formed row absorbs);
    ``void`` (Storm Rule, second version) drops the Moon and Flower Banquets when it holds."""
    formed = [z.all_of(z.any_of(has(c) for c in sorted(part)) for part in y.parts) for y in rows]
    insta = z.any_of(f for y, f in zip(rows, formed, strict=True) if y.stops_round)
    scores = []
    for y, f in zip(rows, formed, strict=True):
        absorbed = z.any_of(g for o, g in zip(rows, formed, strict=True) if y.id in o.absorbs)
        ok = f & (insta if y.stops_round else ~insta) & ~absorbed
        if void is not None and y.id in mb.BANQUETS:
            ok = ok & ~void
        scores.append(z.ite(ok, y.points, 0))
    return formed, scores


class _Model:
    """The dekiyaku table over Booleans ``c<id>``."""

    def __init__(self, rows: Sequence[mb.Dekiyaku]) -> None:
        self.rows = tuple(rows)
        self.x = {c: z.bool_var(card_var(c)) for c in DECK}
        self.formed, self.scores = _judge(self.rows, lambda c: self.x[c])
        self.total = z.sum_of(self.scores)

    def pile(self, m: z.Model) -> tuple[int, ...]:
        return tuple(c for c in DECK if m.get(card_var(c)) is True)

    def expect(self, pile: Sequence[int]) -> tuple[ScoredYaku, ...]:
        a = {card_var(c): c in set(pile) for c in DECK}
        return tuple(ScoredYaku(y.id, v) for y, s in zip(self.rows, self.scores, strict=True)
                     if (v := z.evaluate(s, a)) > 0)


@lru_cache(maxsize=64)
def _model(rows: tuple[mb.Dekiyaku, ...]) -> _Model:
    """A table's model, built once in a process: ``verify`` runs each check as a unit of its own,
    and the checks of one table share it."""
    return _Model(rows)


def _yaku(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    base = set(mb.yaku_table(mb.SPEC.resolve()))
    for k, (label, values) in enumerate(scoring_option_sets(mb.SPEC, YAKU_KEYS)):
        rows = mb.yaku_table(values)
        model = once(partial(_model, tuple(rows)))  # built by the first check that runs
        full = not quick or k == 0
        only = None if full else {y.id for y in rows if y not in base}
        if only is not None and not only:
            continue  # a quick run: the same table as the first ruleset's

        def claims(model: Callable[[], _Model] = model) -> Result:
            m = model()
            ids = [y.id for y in m.rows]
            out = []
            for y, f in zip(m.rows, m.formed, strict=True):
                for a in y.absorbs:  # MB-11: absorbing only ever happens to a dekiyaku contained in the bigger one
                    r = z.prove(f"{y.id} absorbs {a}", f.implies(m.formed[ids.index(a)]))
                    if not r.ok:
                        return False, f"{y.id} can form without {a}: pile {list(m.pile(r.counterexample))}", {}, 0, ()
                    out.append(f"{y.id} contains {a}")
            pairs = [(i, j) for i in range(len(ids)) for j in range(len(ids)) if i < j]
            res = z.prove_all([(f"{i}={j}", m.formed[i].iff(m.formed[j])) for i, j in pairs], counterexamples=False)
            same = [Case(f"{ids[i]} = {ids[j]} (identical compositions)", None)
                    for (i, j), r in zip(pairs, res, strict=True) if r.ok]
            return True, "proved: " + "; ".join(out), {}, 0, tuple(same)
        yield timed(GAME, f"z3 absorption and identical compositions (MB-3, MB-11), {label}", claims)

        def maximum(model: Callable[[], _Model] = model, values: Mapping[str, str] = values) -> Result:
            m = model()
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

        def boundary(model: Callable[[], _Model] = model, values: Mapping[str, str] = values,
                     only: set[str] | None = only, full: bool = full) -> Result:
            m = model()
            ok, detail, cx, n = cross_check(adapter, GAME, values, None, _piles(m, full, only), m.expect)
            return ok, detail, cx, n, ()
        yield timed(GAME, f"z3 boundary piles vs scorer, {label}", boundary, SAMPLED)


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


# -- the Storm and the Sun (MB-STORM-1…4; decisions MB-12, MB-13, MB-14) --------------------------

SUN = mb.SUN_CARD
STORM = tuple(sorted(mb.STORM_CARDS))
VICTIMS = tuple(sorted(mb.STORM_VICTIMS))
#: The cards whose capture turn the Sun Rule reads: the Crane and the two storm cards.
SPECIAL = (SUN, *STORM)
#: How a consequence of the Storm found by the proofs is decided (the gap whose decision covers it).
DECISIONS: Mapping[str, str | None] = {
    # MB-12: a stormed card cannot complete an insta-win, so a stormed side whose own pile holds an
    # insta-win dekiyaku scores its ordinary dekiyaku instead, which can be worth more.
    "storm-breaks-insta-win": "MB-12",
}


def _lost(y: mb.Dekiyaku) -> bool:
    """Whether a dekiyaku needs a Storm victim (one of its parts has only victim cards)."""
    return any(part <= mb.STORM_VICTIMS for part in y.parts)


def storm_stormed(values: Mapping[str, str], piles: Sequence[Iterable[int]], turns: Mapping[int, int],
                  side: int) -> bool:
    """Whether ``side`` is stormed, in the catalogue's words (MB-STORM-1…4): an opponent's side (any
    other side) holds a storm card that the Sun has not cancelled; the Sun cancels a storm card when an
    opponent of its holder has the Crane, taken in a later turn (``sun=after``) or at any time
    (``sun=any-order``). ``turns`` gives the turn each of the Crane and storm cards was taken in.

    >>> v = {"storm": "cards", "sun": "after"}
    >>> piles = [[80], [113], [10]]
    >>> storm_stormed(v, piles, {113: 2, 10: 3}, 0), storm_stormed(v, piles, {113: 2, 10: 1}, 0)
    (False, True)
    """
    storm, sun = mb.SPEC.value(values, mb.Storm), mb.SPEC.value(values, mb.Sun)
    if storm is mb.Storm.OFF:
        return False
    holder = {c: s for s, p in enumerate(piles) for c in p if c in SPECIAL}
    crane = holder.get(SUN)
    for k in STORM:
        h = holder.get(k)
        if h is None or h == side:
            continue
        lifted = (sun is not mb.Sun.OFF and crane is not None and crane != h
                  and (sun is mb.Sun.ANY_ORDER or turns[SUN] > turns[k]))
        if not lifted:
            return True
    return False


def storm_dekiyaku(values: Mapping[str, str], piles: Sequence[Iterable[int]], turns: Mapping[int, int],
                   side: int) -> tuple[ScoredYaku, ...]:
    """The dekiyaku ``side`` scores with the Storm and the Sun (the obvious definition): a stormed
    side's pile loses the Moon, Curtain and Cherry Poetry Ribbon (``storm=cards``) or its Moon and Flower
    Banquets (``storm=banquets``); then MB-YAKU-1.

    >>> v = {"storm": "cards", "sun": "off", "insta_win_value": "8", "four_brights": "lightning"}
    >>> storm_dekiyaku(v, [[10, 80, 120, 90], [110], []], {110: 1}, 0)
    (ScoredYaku(id='coat-of-arms', points=1),)
    """
    pile = set(piles[side])
    hit = storm_stormed(values, piles, turns, side)
    storm = mb.SPEC.value(values, mb.Storm)
    if hit and storm is mb.Storm.CARDS:
        pile -= mb.STORM_VICTIMS
    out = mb.score_pile(mb.yaku_table(values), pile)
    if hit and storm is mb.Storm.BANQUETS:
        out = tuple(y for y in out if y.id not in mb.BANQUETS)
    return out


class _Storm:
    """Every side's capture pile over Booleans ``<tag>s<side>_c<id>`` and the turn each of the Crane
    and the storm cards was taken in (``<tag>t<id>``), with the catalogue's Storm (``storm``: off,
    cards, banquets) and Sun (``sun``: off, after, any-order). Models sharing a ``tag`` share their
    variables, so the same position can be judged under several options."""

    def __init__(self, rows: Sequence[mb.Dekiyaku], sides: int, storm: str, sun: str, tag: str = "") -> None:
        self.rows, self.sides, self.tag = tuple(rows), sides, tag
        self.storm, self.sun = mb.Storm(storm), mb.Sun(sun)
        self.x = [{c: z.bool_var(f"{tag}s{s}_{card_var(c)}") for c in DECK} for s in range(sides)]
        self.t = {k: z.int_var(f"{tag}t{k}") for k in SPECIAL}
        self.stormed = [self._stormed(s) for s in range(sides)]
        self.scores: list[list[z.Int]] = []
        self.raw_scores: list[list[z.Int]] = []
        self.insta: list[z.Bool] = []
        self.raw_insta: list[z.Bool] = []
        self.raw_formed: list[list[z.Bool]] = []
        stop = [y.stops_round for y in self.rows]
        for s in range(sides):
            banquets = self.storm is mb.Storm.BANQUETS
            f, sc = _judge(self.rows, partial(self.has, s), self.stormed[s] if banquets else None)
            rf, rs = _judge(self.rows, self.x[s].__getitem__)
            self.scores.append(sc)
            self.raw_scores.append(rs)
            self.raw_formed.append(rf)
            self.insta.append(z.any_of(g for g, st in zip(f, stop, strict=True) if st))
            self.raw_insta.append(z.any_of(g for g, st in zip(rf, stop, strict=True) if st))
        self.total = [z.sum_of(sc) for sc in self.scores]
        self.raw_total = [z.sum_of(sc) for sc in self.raw_scores]
        self._packed: dict[int, z.Int] = {}

    def has(self, s: int, c: int) -> z.Bool:
        """Card ``c`` counts for side ``s``'s dekiyaku (MB-STORM-1: not a victim of a storm)."""
        if self.storm is mb.Storm.CARDS and c in mb.STORM_VICTIMS:
            return self.x[s][c] & ~self.stormed[s]
        return self.x[s][c]

    def lifted(self, k: int, h: int) -> z.Bool:
        """MB-STORM-4: the Sun cancels storm card ``k`` held by side ``h``."""
        if self.sun is mb.Sun.OFF:
            return ~z.true()
        later = z.true() if self.sun is mb.Sun.ANY_ORDER else self.t[SUN] > self.t[k]
        return z.any_of(self.x[g][SUN] & later for g in range(self.sides) if g != h)

    def active(self, k: int, h: int) -> z.Bool:
        return self.x[h][k] & ~self.lifted(k, h)

    def _stormed(self, s: int) -> z.Bool:
        if self.storm is mb.Storm.OFF:
            return ~z.true()
        return z.any_of(self.active(k, h) for k in STORM for h in range(self.sides) if h != s)

    def holds_storm(self, s: int) -> z.Bool:
        return z.any_of(self.x[s][k] for k in STORM)

    def well_formed(self) -> list[z.Bool]:
        """A card is in one pile at most; turns count from 1; two sides never take cards in one turn
        (a turn's captures go to the mover's side, MB-CAP-7)."""
        out = [~(self.x[a][c] & self.x[b][c]) for c in DECK for a in range(self.sides)
               for b in range(a + 1, self.sides)]
        out += [self.t[k] >= 1 for k in SPECIAL]
        for i, a in enumerate(SPECIAL):
            for b in SPECIAL[i + 1:]:
                out += [(self.x[p][a] & self.x[q][b]).implies(self.t[a].ne(self.t[b]))
                        for p in range(self.sides) for q in range(self.sides) if p != q]
        return out

    def round_over(self, cap: int, turns: int) -> list[z.Bool]:
        """The piles at the end of a round played to empty hands: every card is captured (the field
        keeps at most one card of a month, and captures take two or four), a side holds 0, 2 or 4 cards
        of each month, at most ``cap`` cards, and the special cards were taken in turns 1 to ``turns``."""
        out = [z.any_of(self.x[s][c] for s in range(self.sides)) for c in DECK]
        for s in range(self.sides):
            for m in range(1, 13):
                out.append((z.count(self.x[s][c] for c in DECK if c // 10 == m) % 2).eq(0))
            out.append(z.count(self.x[s].values()) <= cap)
        out += [self.t[k] <= turns for k in SPECIAL]
        return out

    def piles(self, m: z.Model) -> list[tuple[int, ...]]:
        return [tuple(c for c in DECK if m.get(f"{self.tag}s{s}_{card_var(c)}") is True) for s in range(self.sides)]

    def turns(self, m: z.Model) -> dict[int, int]:
        return {k: int(m.get(f"{self.tag}t{k}", 1)) for k in SPECIAL}

    def assign(self, piles: Sequence[Iterable[int]], turns: Mapping[int, int]) -> dict[str, int | bool]:
        a: dict[str, int | bool] = {}
        for s, p in enumerate(piles):
            held = set(p)
            a.update({f"{self.tag}s{s}_{card_var(c)}": c in held for c in DECK})
        a.update({f"{self.tag}t{k}": turns.get(k, 1) for k in SPECIAL})
        return a

    def expect(self, piles: Sequence[Iterable[int]], turns: Mapping[int, int], side: int,
               ) -> tuple[ScoredYaku, ...]:
        """The dekiyaku ``side`` scores in a concrete position, evaluated on this encoding (the row
        scores packed into one integer, one base-64 digit per row, so that z3 evaluates once)."""
        if side not in self._packed:
            self._packed[side] = z.sum_of(sc * (64 ** i) for i, sc in enumerate(self.scores[side]))
        packed = z.evaluate(self._packed[side], self.assign(piles, turns))
        return tuple(ScoredYaku(y.id, v) for i, y in enumerate(self.rows) if (v := packed // 64 ** i % 64) > 0)


def _ids(ys: Iterable[mb.Dekiyaku]) -> str:
    return ", ".join(y.id for y in ys) or "none"


def _model_cx(m: _Storm, w: z.Model, claim: str) -> dict[str, object]:
    return {"kind": "model", "game": GAME, "claim": claim, "piles": [list(p) for p in m.piles(w)],
            "turns": m.turns(w)}


def _groups(claims: Sequence[tuple[str, z.Bool]]) -> str:
    """The claims' names without the side each is about ("group: side 1" → "group"), once each."""
    return "; ".join(dict.fromkeys(nm.split(":")[0] for nm, _ in claims))


def _first_refuted(m: _Storm, claims: Sequence[tuple[str, z.Bool]]) -> Result | None:
    """Prove every claim under well-formedness; the first refuted one as a failed result."""
    for r in z.prove_all(claims, m.well_formed()):
        if not r.ok:
            piles = m.piles(r.counterexample) if r.counterexample else []
            where = f"piles {[list(p) for p in piles]}, turns {m.turns(r.counterexample)}"
            return False, f"{r.name}: {r.status}; {where}", _model_cx(m, r.counterexample, r.name), 0, ()
    return None


def _storm_cards(values: Mapping[str, str], sides: int) -> Result:
    """MB-STORM-1 / MB-12, storm=cards: a stormed side counts exactly the dekiyaku it can form without
    the Moon, Curtain and Cherry Poetry Ribbon; never an insta-win; an unstormed side is untouched."""
    m = _Storm(mb.yaku_table(values), sides, mb.Storm.CARDS, mb.SPEC.value(values, mb.Sun))
    every = range(sides)
    lost = [y for y in m.rows if _lost(y)]
    kept = [y for y in m.rows if not _lost(y)]
    claims = [(f"stormed, side {s} never counts {y.id}", m.stormed[s].implies(m.scores[s][i].eq(0)))
              for i, y in enumerate(m.rows) if _lost(y) for s in every]
    claims += [(f"stormed, side {s} makes no insta-win (MB-12)", m.stormed[s].implies(~m.insta[s])) for s in every]
    claims += [(f"unstormed, side {s} scores as without the Storm", (~m.stormed[s]).implies(
        z.all_of(a.eq(b) for a, b in zip(m.scores[s], m.raw_scores[s], strict=True)))) for s in every]
    ids = [y.id for y in m.rows]
    claims += [(f"MB-11: the Storm never frees {a} from {y.id}, side {s}", m.raw_formed[s][i].implies(
        m.scores[s][ids.index(a)].eq(0))) for i, y in enumerate(m.rows) for a in y.absorbs for s in every]
    claims += [(f"side {s} is stormed only while an opponent holds 110 or 113", m.stormed[s].implies(
        z.any_of(m.holds_storm(h) for h in every if h != s))) for s in every]
    bad = _first_refuted(m, claims)
    if bad:
        return bad
    wf = m.well_formed()
    crane = []  # sun=any-order: a side holding the Crane is never stormed, so these never arise stormed
    for i, y in enumerate(m.rows):  # the rest can still count: a z3 witness each
        if _lost(y) or z.find([*wf, m.stormed[0], m.scores[0][i] > 0]) is not None:
            continue
        if m.sun is mb.Sun.ANY_ORDER and {SUN} in y.parts and z.prove("", m.stormed[0].implies(~m.x[0][SUN]), wf).ok:
            crane.append(y)
            continue
        return False, f"stormed, side 0 can never count {y.id}, which needs no victim card", {}, 0, ()
    kept = [y for y in kept if y not in crane]
    also = (f"; with sun=any-order a stormed side never holds the Crane, so never has {_ids(crane)}"
            if crane else "")
    freed = "; ".join(f"the Storm never frees {a} from {y.id}" for y in m.rows for a in y.absorbs)
    return True, (f"proved for {sides} sides, sun={m.sun}: a stormed side never counts {_ids(lost)} (each needs "
                  f"80, 30 or 31), so never an insta-win; it still counts {_ids(kept)} (z3 witnesses){also}; "
                  f"{freed}; an unstormed side scores as without the Storm; only an opponent's 110 or 113 storms"
                  ), {}, 0, ()


def _storm_banquets(values: Mapping[str, str], sides: int) -> Result:
    """MB-STORM-2 / MB-13, storm=banquets: a stormed side loses its Moon and Flower Banquets and nothing
    else (insta-wins included)."""
    m = _Storm(mb.yaku_table(values), sides, mb.Storm.BANQUETS, mb.SPEC.value(values, mb.Sun))
    claims = []
    for s in range(sides):
        for i, y in enumerate(m.rows):
            raw, got = m.raw_scores[s][i], m.scores[s][i]
            want = z.ite(m.stormed[s], 0, raw) if y.id in mb.BANQUETS else raw
            claims.append((f"side {s}, {y.id}", got.eq(want)))
        claims.append((f"side {s}: insta-wins as without the Storm", m.insta[s].iff(m.raw_insta[s])))
    bad = _first_refuted(m, claims)
    if bad:
        return bad
    wf = m.well_formed()
    for y in m.rows:
        if y.id in mb.BANQUETS and z.find([*wf, m.stormed[0], m.raw_scores[0][m.rows.index(y)] > 0]) is None:
            return False, f"a stormed side can never have formed {y.id}: the version voids nothing", {}, 0, ()
    return True, (f"proved for {sides} sides: a stormed side loses {', '.join(mb.BANQUETS)} (z3 witnesses), every "
                  "other dekiyaku and every insta-win count as without the Storm"), {}, 0, ()


def _storm_gain(values: Mapping[str, str], quick: bool = False) -> Result:
    """Does the Storm ever raise a side's total? Proved not for storm=banquets; for storm=cards z3
    finds the case and proves it is the only one: the side's own pile forms an insta-win dekiyaku,
    which a stormed card cannot complete (MB-12), so its ordinary dekiyaku count instead."""
    storm = mb.SPEC.value(values, mb.Storm)
    m = _Storm(mb.yaku_table(values), 3, storm, mb.SPEC.value(values, mb.Sun))
    wf = m.well_formed()
    gain = m.total[0] - m.raw_total[0]
    r = z.prove("the Storm never raises a side's total", gain <= 0, wf)
    if r.ok:
        return True, f"proved (storm={storm}): a side never scores more stormed than unstormed", {}, 0, ()
    if r.status != "refuted":
        return False, f"{r.name}: {r.status}", {}, 0, ()
    # row by row: without an insta-win in the side's own pile no row scores more stormed, so neither
    # does the total; and a gain needs the side stormed and its insta-win broken
    claims = [(f"no insta-win in its pile, {y.id} scores no more stormed", m.scores[0][i] <= m.raw_scores[0][i])
              for i, y in enumerate(m.rows)]
    for r in z.prove_all(claims, [*wf, ~m.raw_insta[0]]):
        if not r.ok:
            return False, f"{r.name}: {r.status}", _model_cx(m, r.counterexample, r.name), 0, ()
    for r in z.prove_all([("a gain needs the side stormed", (gain > 0).implies(m.stormed[0])),
                          ("a gain needs its insta-win broken", (gain > 0).implies(~m.insta[0]))], wf):
        if not r.ok:
            return False, f"{r.name}: {r.status}", _model_cx(m, r.counterexample, r.name), 0, ()
    size = z.count(m.x[0].values())
    if quick:  # an example of at most 10 cards (the smallest there is, by the thorough run)
        w, most = z.find([*wf, m.stormed[0], m.raw_insta[0], gain > 0, size <= 10]), ""
    else:
        best = z.maximize("largest gain", gain, wf)
        played = z.maximize("largest gain, a three-player round played out", gain, [*wf, *m.round_over(28, 21)])
        small = z.maximize("fewest cards", -size, [*wf, gain > 0])
        w = small.model if small.value is not None else None
        most = (f", by up to {best.value} points over any piles ({played.value} at the end of a three-player "
                "round played out)")
    if w is None:
        return False, "no example of a raised total found (timeout)", {}, 0, ()
    a, turns = m.piles(w), m.turns(w)
    holds = {c: s for s, p in enumerate(a) for c in p if c in SPECIAL}
    text = (f"storm={storm}: a stormed side whose own pile forms an insta-win dekiyaku scores its ordinary dekiyaku "
            f"instead, as a stormed card cannot complete an insta-win{most}: e.g. side 0 with {list(a[0])}, "
            f"{', '.join(f'{k} held by side {s}' for k, s in sorted(holds.items()))}, scores "
            f"{_fmt(storm_dekiyaku(values, a, turns, 0))} instead of {_fmt(mb.score_pile(m.rows, a[0]))}")
    return True, ("refuted, and proved that this is the only way: the Storm raises a side's total only by breaking "
                  "an insta-win of its own pile"), {}, 0, (Case(text, DECISIONS["storm-breaks-insta-win"]),)


def _sun(values: Mapping[str, str], sides: int) -> Result:
    """MB-STORM-4 / MB-14: what the Crane lifts, for sun=after and sun=any-order."""
    rows = mb.yaku_table(values)
    off, after, anyo = (_Storm(rows, sides, mb.Storm.CARDS, sun) for sun in mb.Sun)
    m = after if mb.SPEC.value(values, mb.Sun) is mb.Sun.AFTER else anyo
    every = range(sides)
    x, t = m.x, m.t
    held = [(k, h) for k in STORM for h in every]
    claims = [(f"the Sun never storms: side {s}", m.stormed[s].implies(off.stormed[s])) for s in every]
    claims += [(f"sun=any-order lifts all that sun=after lifts: side {s}", anyo.stormed[s].implies(after.stormed[s]))
               for s in every]
    claims += [(f"the holder's own Crane lifts nothing: {k} of side {h}",
                (x[h][k] & x[h][SUN]).implies(~m.lifted(k, h))) for k, h in held]
    claims += [(f"a lifted storm card storms nobody: side {s}", z.all_of(
        x[h][k].implies(m.lifted(k, h)) for k, h in held).implies(~m.stormed[s])) for s in every]
    claims += [(f"only the Crane of an opponent of a storm card's holder lifts: side {s}",
                (off.stormed[s] & ~m.stormed[s]).implies(z.any_of(
                    x[h][k] & x[g][SUN] for k, h in held for g in every if g != h))) for s in every]
    if sides == 2:
        claims += [(f"in the team game only the stormed team's own Crane lifts its Storm: side {s}",
                    (off.stormed[s] & ~m.stormed[s]).implies(x[s][SUN])) for s in every]
    if m.sun is mb.Sun.ANY_ORDER:
        claims += [(f"a side holding the Crane is never stormed: side {s}", x[s][SUN].implies(~m.stormed[s]))
                   for s in every]
    else:
        claims += [(f"a side that took the Crane after every opponent's storm card is not stormed: side {s}",
                    (x[s][SUN] & z.all_of(x[h][k].implies(t[SUN] > t[k]) for k, h in held if h != s)).implies(
                        ~m.stormed[s])) for s in every]
        claims += [(f"a Crane taken no later than the storm cards lifts nothing: side {s}",
                    z.all_of(t[SUN] <= t[k] for k in STORM).implies(m.stormed[s].iff(off.stormed[s]))) for s in every]
    bad = _first_refuted(m, claims)
    if bad:
        return bad
    wf = m.well_formed()
    witnesses = [("a side lifted", off.stormed[0] & ~m.stormed[0]),
                 ("one storm card lifted, the other still storming", m.stormed[0] & z.any_of(
                     x[h][k] & m.lifted(k, h) for k, h in held))]
    if sides == 3:
        witnesses.append(("a third side's Crane lifts the Storm for both others", x[2][SUN] & z.any_of(
            x[1][k] for k in STORM) & off.stormed[0] & ~m.stormed[0] & ~m.stormed[2] & ~z.any_of(
            x[0][k] | x[2][k] for k in STORM)))
    if m.sun is mb.Sun.AFTER:
        witnesses.append(("an opponent's Crane taken too early lifts nothing", off.stormed[0] & m.stormed[0] &
                          ~anyo.stormed[0]))
    for nm, w in witnesses:
        if z.find([*wf, w]) is None:
            return False, f"no position where {nm}: the claims are vacuous", {}, 0, ()
    return True, (f"proved for {sides} sides, sun={m.sun}: " + _groups(claims)
                  + "; z3 witnesses: " + "; ".join(nm for nm, _ in witnesses)), {}, 0, ()


#: A claim of :func:`_timing`, and where it is vacuous: without the Sun nothing lifts a Storm.
LIFTED_STAYS = "a lifted storm card stays lifted"
LIFTED_VACUOUS: Mapping[str, Collection[str]] = {"sun": ("off",)}


def _timing(values: Mapping[str, str], sides: int) -> Result:
    """MB-STORM-3 / MB-12: the Storm is judged on the piles as they are at each check. Two checks of
    one round: piles only grow, a card keeps the turn it was taken in, and a card taken between the
    checks was taken after every card held at the first."""
    rows = mb.yaku_table(values)
    sun = mb.SPEC.value(values, mb.Sun)
    a, b = _Storm(rows, sides, mb.Storm.CARDS, sun, "a_"), _Storm(rows, sides, mb.Storm.CARDS, sun, "b_")
    every = range(sides)
    step = [*a.well_formed(), *b.well_formed()]
    for s in every:
        step += [a.x[s][c].implies(b.x[s][c]) for c in DECK]
    for k in SPECIAL:
        was = z.any_of(a.x[s][k] for s in every)
        now = z.any_of(b.x[s][k] for s in every)
        step += [was.implies(b.t[k].eq(a.t[k])),
                 (now & ~was).implies(z.all_of(z.any_of(a.x[s][j] for s in every).implies(b.t[k] > a.t[j])
                                               for j in SPECIAL if j != k))]
    claims = [(f"{LIFTED_STAYS}: {k} of side {h}",
               (a.x[h][k] & a.lifted(k, h)).implies(b.lifted(k, h))) for k in STORM for h in every]
    if sun is mb.Sun.OFF:
        claims += [(f"without the Sun, a stormed side stays stormed to the end of the round: side {s}",
                    a.stormed[s].implies(b.stormed[s])) for s in every]
    claims += [(f"a stormed side has no insta-win at any check: side {s}", b.stormed[s].implies(~b.insta[s]))
               for s in every]
    declared = [nm for nm, _ in claims if nm.startswith(LIFTED_STAYS) and vacuous_under(values, LIFTED_VACUOUS)]
    for r in z.prove_all(claims, step, declared):
        if not r.ok:
            return False, f"{r.name}: {r.status} {r.detail}".rstrip(), {"kind": "model", "game": GAME, "claim": r.name,
                                                     "before": [list(p) for p in a.piles(r.counterexample)],
                                                     "after": [list(p) for p in b.piles(r.counterexample)]}, 0, ()
    same0 = z.all_of(a.x[0][c].iff(b.x[0][c]) for c in DECK)
    witnesses = [("a side stormed later in the round, by a storm card taken after its victims", ~a.stormed[0] &
                  b.stormed[0] & z.any_of(a.x[0][c] for c in VICTIMS))]
    if sun is not mb.Sun.OFF:
        witnesses += [("a storm lifted between two checks", a.stormed[0] & ~b.stormed[0]),
                      ("lifted by another side's capture, a side's unchanged pile becomes an insta-win (MB-10 checks "
                       "every side)", same0 & ~a.insta[0] & b.insta[0])]
    for nm, w in witnesses:
        if z.find([*step, w]) is None:
            return False, f"no two checks where {nm}", {}, 0, ()
    return True, (f"proved for {sides} sides, sun={sun}: " + _groups(claims)
                  + "; z3 witnesses: " + "; ".join(nm for nm, _ in witnesses)), {}, 0, ()


# -- Storm and Sun positions played through the engine ---------------------------------------------

Precede = Sequence[tuple[int, int]]  # (a, b): card a is taken in an earlier turn than card b


@dataclass(frozen=True)
class _Turn:
    seat: int
    hand: int  #: the card the seat plays from its hand
    drawn: int  #: the card it turns from the draw pile


@dataclass(frozen=True)
class _Plan:
    """A round that ends with given capture piles: the field dealt, then every turn's two cards."""

    field: tuple[int, ...]
    turns: tuple[_Turn, ...]


def _pairs(piles: Sequence[Sequence[int]]) -> list[tuple[int, int, int]]:
    """Each pile as captures of two cards of a month: (side, card left on the field, card taking it)."""
    out = []
    for s, p in enumerate(piles):
        for m in range(1, 13):
            cs = sorted(c for c in p if c // 10 == m)
            out += [(s, cs[i], cs[i + 1]) for i in range(0, len(cs) - 1, 2)]
    return out


def schedule(piles: Sequence[Sequence[int]], players: str, first: int = 0, precede: Precede = (),
             limit: int = 20_000) -> _Plan | None:
    """A round (field, then each turn's hand card and drawn card) after which side ``s`` has captured
    exactly ``piles[s]`` (a partition of the deck, 0, 2 or 4 cards of a month per side), every capture
    taking one card of a month, the only one of its month then on the field (MB-CAP-1), and each pair
    ``(a, b)`` of ``precede`` taken in turns a before b. A depth-first search over the plays, the dealt
    field first; None if it finds nothing within ``limit`` steps."""
    plan = mb.DEALS[players]
    seats, n_field = plan.players, plan.field
    pairs = _pairs(piles)
    if sorted(c for p in piles for c in p) != list(DECK) or 2 * len(pairs) != len(DECK):
        raise ValueError("the piles must hold every card once, and 0, 2 or 4 cards of a month each")
    n_turns = (len(DECK) - n_field) // 2
    slots: list[tuple[int, int | None]] = [(-1, None)] * n_field  # (turn, side): the field, then the plays
    slots += [(t, mb.side_of(players, (first + t) % seats)) for t in range(n_turns) for _ in (0, 1)]
    pair_of = {c: i for i, (_, a, b) in enumerate(pairs) for c in (a, b)}
    after: dict[int, set[int]] = {}
    for a, b in precede:
        after.setdefault(pair_of[b], set()).add(pair_of[a])
    sides_ = sorted({s for _, s in slots if s is not None})
    room = {s: sum(1 for _, x in slots if x == s) for s in sides_}  # plays left per side
    due = {s: sum(1 for p in pairs if p[0] == s) for s in sides_}  # captures left per side
    state = [0] * len(pairs)  # 0 not started, 1 on the field, 2 taken
    taken_in: dict[int, int] = {}  # pair → the turn it was taken in
    busy: set[int] = set()
    events: list[tuple[str, int]] = []
    steps = [0]

    def ready(i: int, t: int) -> bool:
        return all(j in taken_in and taken_in[j] < t for j in after.get(i, ()))

    def hunger(i: int, pos: int) -> tuple[int, int]:
        s = pairs[i][0]
        waiting = sum(1 for j in range(len(pairs)) if state[j] == 1 and pairs[j][0] == s)
        soon = next((q - pos for q in range(pos + 1, len(slots)) if slots[q][1] == s), 99)
        return waiting - due[s], soon

    def go(pos: int) -> bool:
        steps[0] += 1
        if steps[0] > limit:
            return False
        if pos == len(slots):
            return True
        t, side = slots[pos]
        opts: list[tuple[str, int]] = []
        if side is not None:
            opts += [("take", i) for i in range(len(pairs))
                     if state[i] == 1 and pairs[i][0] == side and ready(i, t)]
        if side is None or room[side] > due[side]:
            free = [i for i in range(len(pairs)) if state[i] == 0 and pairs[i][1] // 10 not in busy]
            opts += [("lay", i) for i in sorted(free, key=lambda i: hunger(i, pos))]
        for kind, i in opts:
            month = pairs[i][1] // 10
            if side is not None:
                room[side] -= 1
            if kind == "take":
                assert side is not None
                state[i], taken_in[i] = 2, t
                due[side] -= 1
                busy.discard(month)
            else:
                state[i] = 1
                busy.add(month)
            events.append((kind, i))
            if all(due[s] <= room[s] for s in sides_) and go(pos + 1):
                return True
            events.pop()
            if kind == "take":
                assert side is not None
                state[i] = 1
                del taken_in[i]
                due[side] += 1
                busy.add(month)
            else:
                state[i] = 0
                busy.discard(month)
            if side is not None:
                room[side] += 1
        return False

    if not go(0):
        return None
    cards = [pairs[i][1] if kind == "lay" else pairs[i][2] for kind, i in events]
    plays = cards[n_field:]
    return _Plan(tuple(cards[:n_field]), tuple(_Turn((first + t) % seats, plays[2 * t], plays[2 * t + 1])
                                               for t in range(n_turns)))


def _layout(adapter: EngineAdapter, values: Mapping[str, str]) -> tuple[dict[str, list[int]], int]:
    """Where each position of a stacked deck is dealt (zone → deck positions, the draw pile top first)
    and who deals, learnt by dealing shuffled decks through the adapter."""
    rng = SplitMix64(20261121)
    for _ in range(100):
        order = shuffled(DECK, rng)
        adapter.start(GAME, values, 0, order)
        snap = adapter.snapshot()
        if snap.round == 1 and snap.phase == "play":
            pos = {c: i for i, c in enumerate(order)}
            return {name: [pos[c] for c in cards] for name, cards in snap.zones if cards}, snap.dealer
    raise ValueError("no clean deal found to learn the deal's layout")


def _deck(layout: Mapping[str, Sequence[int]], plan: _Plan) -> list[int]:
    order: list[int | None] = [None] * len(DECK)
    hands: dict[int, list[int]] = {}
    for t in plan.turns:
        hands.setdefault(t.seat, []).append(t.hand)
    places = [("field", list(plan.field)), ("stock", [t.drawn for t in plan.turns])]
    places += [(f"hand.{s}", cs) for s, cs in hands.items()]
    for zone, cards in places:
        slots = layout.get(zone, [])
        if len(slots) != len(cards):
            raise ValueError(f"{zone}: {len(cards)} cards planned, the deal gives {len(slots)}")
        for i, c in zip(slots, cards, strict=True):
            order[i] = c
    if any(c is None for c in order):
        raise ValueError("the plan leaves deck positions empty")
    return [c for c in order if c is not None]


def _take(field: set[int], card: int, target: int | None) -> set[int]:
    """MB-CAP-1…4: what a card played to the field captures (it included), the field changed in place."""
    match = {f for f in field if f // 10 == card // 10}
    if not match:
        field.add(card)
        return set()
    if len(match) == 2:
        if target not in match:
            raise ValueError(f"card {card} matches {sorted(match)}: a target must be named")
        match = {target}
    field -= match
    return {card, *match}


@lru_cache(maxsize=32)
def _watch_model(values: tuple[tuple[str, str], ...]) -> _Storm:
    v = dict(values)
    return _Storm(mb.yaku_table(v), mb.sides(mb.SPEC.value(v, mb.Players)), mb.SPEC.value(v, mb.Storm),
                  mb.SPEC.value(v, mb.Sun), "w_")


class StormWatch:
    """Follows one Musashino-Bana round action by action. It works out each play's captures by the
    capture rules (MB-CAP-1…7) from the position the engine shows, notes the turn the Crane and the
    storm cards are taken in, and at the end of every turn checks the engine against the Storm and
    Sun: the round stops for an insta-win exactly when a side's counting cards form one, the first such
    side from the mover's winning (MB-END-1, MB-10, MB-12); a round played out reports every side's
    dekiyaku as the model scores them (MB-STORM-1…4)."""

    def __init__(self, values: Mapping[str, str]) -> None:
        self.values = dict(values)
        self.players = mb.SPEC.value(values, mb.Players)
        self.seats = mb.DEALS[self.players].players
        self.n_sides = mb.sides(self.players)
        self.model = _watch_model(tuple(sorted(self.values.items())))
        self.turn = 0
        self.taken: dict[int, int] = {}
        self.piles: list[set[int]] = [set() for _ in range(self.n_sides)]
        self.hands_left = 1
        self.mover = 0
        self.done = False
        self.ended = False
        self.winner: int | None = None
        self.checked = 0

    def before(self, snap: Snapshot, action: str) -> None:
        words = action.split()
        cards = [int(w) for w in words[1:] if w.isdigit()]
        self.mover = snap.to_move if snap.to_move is not None else 0
        self.piles = [set(snap.zone(f"captured.{s}")) for s in range(self.n_sides)]
        field = set(snap.zone("field"))
        got: set[int] = set()
        if words[0] == "play":
            self.turn += 1
            got |= _take(field, cards[0], cards[1] if len(cards) > 1 else None)
            stock = snap.zone("stock")
            self.done = not stock or len({f for f in field if f // 10 == stock[0] // 10}) != 2
            if stock and self.done:
                got |= _take(field, stock[0], None)
            self.hands_left = sum(len(snap.zone(f"hand.{s}")) for s in range(self.seats)) - 1
        elif words[0] == "take":
            got |= _take(field, snap.zone("drawn")[0], cards[0])
            self.done = True
        self.piles[mb.side_of(self.players, self.mover)] |= got
        for k in SPECIAL:
            if k in got:
                self.taken[k] = self.turn

    def _order(self) -> list[int]:
        return list(dict.fromkeys(mb.side_of(self.players, (self.mover + i) % self.seats) for i in range(self.seats)))

    def after(self, outcomes: Sequence[RoundOutcome], snap: Snapshot | None) -> str | None:
        """The first difference between the engine and the model after an action, or None."""
        v, piles, turns = self.values, self.piles, self.taken
        if snap is not None and not outcomes:
            shown = [set(snap.zone(f"captured.{s}")) for s in range(self.n_sides)]
            if shown != piles:
                return (f"turn {self.turn}: the capture piles are {[sorted(p) for p in shown]}, the capture rules "
                        f"give {[sorted(p) for p in piles]}")
        if not self.done:
            return "the round ended in the middle of a turn" if outcomes else None
        winner = next((s for s in self._order() if any(
            y.id in mb.INSTA_WIN for y in storm_dekiyaku(v, piles, turns, s))), None)
        over = winner is not None or self.hands_left == 0
        where = (f"turn {self.turn}, piles {[sorted(p) for p in piles]}, "
                 f"taken in turns {dict(sorted(turns.items()))}")
        if not over:
            if outcomes:
                return f"{where}: the engine ends the round ({outcomes[0].reason}); no side has an insta-win"
            return None
        if not outcomes:
            return f"{where}: side {winner} has an insta-win but the round goes on"
        o = outcomes[0]
        self.ended, self.winner = True, winner
        self.checked += 1
        want_reason = "insta-win" if winner is not None else "hands-empty"
        if o.reason != want_reason:
            return f"{where}: the round ends by {o.reason}, the rules say {want_reason}"
        for s in range(self.n_sides):
            want = self.model.expect(piles, turns, s) if winner in (None, s) else ()
            plain = storm_dekiyaku(v, piles, turns, s) if winner in (None, s) else ()
            if sorted(want) != sorted(plain):
                return (f"{where}: the spec disagrees with itself on side {s}: z3 {_fmt(want)}, set arithmetic "
                        f"{_fmt(plain)}")
            got = o.yaku[s] if s < len(o.yaku) else ()
            if sorted(got) != sorted(want):
                storm = "stormed" if storm_stormed(v, piles, turns, s) else "not stormed"
                return f"{where}: side {s} ({storm}) scores {_fmt(got)}, the Storm model says {_fmt(want)}"
        return None


@dataclass(frozen=True)
class _Scenario:
    """A kind of Storm/Sun position: its constraints on the piles at the end of a round (side 0
    watched) and the capture order it needs besides the Crane's and storm cards' turns."""

    label: str
    applies: Callable[[mb.Storm, mb.Sun], bool]  # (storm, sun)
    #: (the model, the same position under each value of sun, the rows the Storm takes) → constraints
    where: Callable[[_Storm, Mapping[mb.Sun, _Storm], list[int]], list[z.Bool]]
    order: Callable[[Sequence[Sequence[int]], Mapping[str, str]], list[tuple[int, int]]] = lambda _p, _v: []
    #: how the round must end: "" played out; "own": side 0 wins by an insta-win while stormed; "lift": side 0
    #: wins by an insta-win in another side's turn
    insta: str = ""
    #: whether the turns z3 gives the Crane and storm cards matter even with sun=any-order
    stamps: bool = False


def _opp_storm(piles: Sequence[Sequence[int]]) -> list[int]:
    return [k for k in STORM if k not in piles[0] and any(k in p for p in piles)]


def _victims_then_storm(piles: Sequence[Sequence[int]], _v: Mapping[str, str]) -> list[tuple[int, int]]:
    return [(c, k) for c in VICTIMS if c in piles[0] for k in _opp_storm(piles)]


def _storm_then_victims(piles: Sequence[Sequence[int]], _v: Mapping[str, str]) -> list[tuple[int, int]]:
    return [(k, c) for c in VICTIMS if c in piles[0] for k in _opp_storm(piles)]


def _insta_then_crane(piles: Sequence[Sequence[int]], v: Mapping[str, str]) -> list[tuple[int, int]]:
    rows = [y for y in mb.yaku_table(v) if y.stops_round and y.formed(set(piles[0]))]
    return [*_storm_then_victims(piles, v), *((c, SUN) for y in rows for c in sorted(y.cards) if c in piles[0])]


SCENARIOS = (
    _Scenario("stormed, its victims taken before the storm card (MB-STORM-1/2, MB-12: whenever they were taken)",
              lambda st, _s: True,
              lambda m, _ms, hit: [m.stormed[0], m.total[0] < m.raw_total[0]], _victims_then_storm),
    _Scenario("not stormed: it holds a storm card itself, the others are stormed (MB-STORM-1/2)",
              lambda st, _s: True,
              lambda m, _ms, hit: [m.holds_storm(0), ~m.stormed[0], z.any_of(m.raw_scores[0][i] > 0 for i in hit)]),
    _Scenario("just lifted: an opponent of the storm card's holder took the Crane after it (MB-STORM-4)",
              lambda st, sun: sun is not mb.Sun.OFF,
              lambda m, ms, hit: [ms[mb.Sun.OFF].stormed[0], ~ms[mb.Sun.AFTER].stormed[0], ~m.stormed[0],
                                  z.any_of(m.raw_scores[0][i] > 0 for i in hit)], stamps=True),
    _Scenario("the Crane taken before the storm card: lifts under sun=any-order only (MB-14)",
              lambda st, sun: sun is not mb.Sun.OFF,
              lambda m, ms, hit: [ms[mb.Sun.AFTER].stormed[0], ~ms[mb.Sun.ANY_ORDER].stormed[0],
                                  z.any_of(m.raw_scores[0][i] > 0 for i in hit)], stamps=True),
    _Scenario("the storm card's holder has the Crane: nothing lifted (MB-STORM-4)",
              lambda st, sun: sun is not mb.Sun.OFF,
              lambda m, _ms, hit: [m.stormed[0], z.any_of(m.x[h][SUN] & z.all_of(
                  m.x[h][k] | m.x[0][k] for k in STORM) for h in range(1, m.sides)),
                  z.any_of(m.raw_scores[0][i] > 0 for i in hit)]),
    _Scenario("stormed, its own pile forms an insta-win: the Storm breaks it (MB-12)",
              lambda st, _s: st is mb.Storm.CARDS,
              lambda m, _ms, hit: [m.stormed[0], m.raw_insta[0], m.total[0] > m.raw_total[0]], _storm_then_victims),
    _Scenario("lifted into an insta-win by another side's capture of the Crane (MB-10, MB-STORM-4)",
              lambda st, sun: st is mb.Storm.CARDS and sun is not mb.Sun.OFF,
              lambda m, ms, _hit: [ms[mb.Sun.OFF].stormed[0], ~m.stormed[0], m.raw_insta[0], ~m.x[0][SUN]],
              _insta_then_crane, "lift"),
    _Scenario("stormed, yet it wins by an insta-win of its own (MB-STORM-2: insta-wins untouched)",
              lambda st, _s: st is mb.Storm.BANQUETS,
              lambda m, _ms, _hit: [m.stormed[0], m.raw_insta[0]], _storm_then_victims, "own"),
)


def _storm_play_sets(quick: bool) -> list[tuple[str, dict[str, str]]]:
    """The option sets whose Storm/Sun positions are played through the engine."""
    combos = [(mb.Storm.CARDS, mb.Sun.AFTER, mb.Players.N3), (mb.Storm.BANQUETS, mb.Sun.ANY_ORDER, mb.Players.N4)
              ] if quick else [(st, sun, mb.Players(p)) for p in mb.DEALS for st in (mb.Storm.CARDS, mb.Storm.BANQUETS)
                               for sun in mb.Sun]
    return [(f"storm={st} sun={sun} players={p}", mb.SPEC.resolve(None, {"storm": st, "sun": sun, "players": p,
                                                                        "insta_win_check": "turn"}))
            for st, sun, p in combos]


def _positions(values: Mapping[str, str], first: int,
               ) -> Iterator[tuple[_Scenario, list[tuple[int, ...]], dict[int, int], _Plan | None]]:
    """For every scenario that applies: a z3-generated end-of-round position (side 0 watched; no piles
    if z3 finds none), the turns its special cards were taken in, and a round that reaches it (None if
    none was found)."""
    players = mb.SPEC.value(values, mb.Players)
    storm, sun = mb.SPEC.value(values, mb.Storm), mb.SPEC.value(values, mb.Sun)
    n_sides = mb.sides(players)
    n_turns = (len(DECK) - mb.DEALS[players].field) // 2
    cap = 24 if n_sides == 3 else 30  # keeps the round easy to schedule
    rows = mb.yaku_table(values)
    by_sun = {s: _Storm(rows, n_sides, storm, s, "p_") for s in mb.Sun}
    m = by_sun[sun]
    hit = [i for i, y in enumerate(rows) if not y.stops_round and (
        _lost(y) if storm is mb.Storm.CARDS else y.id in mb.BANQUETS)]
    base = [*m.well_formed(), *m.round_over(cap, n_turns)]
    for sc in SCENARIOS:
        if not sc.applies(storm, sun):
            continue
        extra = sc.where(m, by_sun, hit)
        insta_ok = any(e is m.raw_insta[0] for e in extra)
        calm = [~m.raw_insta[s] for s in range(n_sides) if s or not insta_ok]
        cons = [*base, *calm, *extra]
        plan = None
        piles: list[tuple[int, ...]] = []
        turns: dict[int, int] = {}
        for _ in range(5):
            w = z.find(cons)
            if w is None:
                break
            piles, turns = m.piles(w), m.turns(w)
            held = {c: s for s, p in enumerate(piles) for c in p}
            # sun=after (or a scenario on the order): the Crane's turn against each storm card that storms side 0
            precede = [(j, k) for k in STORM if held[k] != 0 and held[SUN] != held[k]
                       for j, k in [(SUN, k) if turns[SUN] < turns[k] else (k, SUN)]
                       if sun is mb.Sun.AFTER or sc.stamps]
            plan = schedule(piles, players, first, [*precede, *sc.order(piles, values)])
            if plan is not None:
                break
            cons.append(~z.all_of(m.x[s][c] if c in piles[s] else ~m.x[s][c] for s in range(n_sides) for c in DECK))
        yield sc, piles, turns, plan


def _random_rounds(adapter: EngineAdapter, label: str, values: Mapping[str, str], rounds: int,
                   ) -> tuple[str, dict[str, object], int]:
    """StormWatch on the first round of shuffled deals played at random (two-way choices, captures of
    three and insta-wins as they come): the first difference, its replay, and the rounds checked."""
    rng = SplitMix64(20261122)
    n = 0
    for _ in range(4 * rounds):
        if n == rounds:
            break
        seed = rng.next() % (1 << 32)
        adapter.start(GAME, values, seed)
        if adapter.snapshot().phase != "play":
            continue  # a misdeal
        watch = StormWatch(values)
        actions: list[str] = []
        while not watch.ended:
            legal = adapter.legal_actions()
            act = legal[rng.below(len(legal))]
            watch.before(adapter.snapshot(), act)
            adapter.apply(act)
            actions.append(act)
            ended = adapter.rounds_ended()
            bad = watch.after(ended, None if ended else adapter.snapshot())
            if bad:
                return f"{label}, random round (seed {seed}): {bad}", {
                    "kind": "play", "check": "musashino-storm", "game": GAME, "options": dict(values), "seed": seed,
                    "actions": actions}, n
            if ended and not watch.ended:
                return f"{label}, random round (seed {seed}): the round ended before the watch expected it", {}, n
        n += 1
    return "", {}, n


def _play_storm(adapter: EngineAdapter, label: str, values: Mapping[str, str], rounds: int = 0) -> Result:
    """Play z3-generated Storm/Sun positions through the engine, then ``rounds`` random rounds, and check
    every turn with StormWatch."""
    layout, first = _layout(adapter, values)
    n = 0
    seen: list[str] = []
    none: list[str] = []
    for sc, piles, turns, plan in _positions(values, first):
        what = sc.label
        if not piles:
            none.append(what.split(" (")[0])
            continue
        if plan is None:
            return False, f"{label}: no round found that reaches '{what}' with piles {[list(p) for p in piles]}", \
                {}, n, ()
        deck = _deck(layout, plan)
        adapter.start(GAME, values, 0, deck)
        watch = StormWatch(values)
        actions: list[str] = []
        for t in plan.turns:
            snap = adapter.snapshot()
            act = f"play {t.hand}"
            if snap.to_move != t.seat or act not in adapter.legal_actions():
                bad = f"turn {watch.turn + 1}: expected seat {t.seat} to be able to '{act}'; seat {snap.to_move} " \
                      f"may {list(adapter.legal_actions())}"
            else:
                watch.before(snap, act)
                adapter.apply(act)
                actions.append(act)
                ended = adapter.rounds_ended()
                bad = watch.after(ended, None if ended else adapter.snapshot()) or ""
            if bad:
                return False, f"{label}, {what}: {bad}", {
                    "kind": "play", "check": "musashino-storm", "game": GAME, "options": dict(values), "seed": 0,
                    "deck": deck, "actions": actions}, n, ()
            if watch.ended:
                break
        miss = _missed(sc, values, piles, turns, watch)
        if miss:
            return False, f"{label}, {what}: the round played does not reach the position: {miss}", {}, n, ()
        n += 1
        seen.append(what.split(" (")[0])
    bad, cx, k = _random_rounds(adapter, label, values, rounds)
    if bad:
        return False, bad, cx, n + k, ()
    also = f"; and {k} random rounds" if k else ""
    also += f"; z3 finds no such position: {'; '.join(none)}" if none else ""
    return True, f"{n} rounds agree: " + "; ".join(seen) + also, {}, n + k, ()


def _missed(sc: _Scenario, values: Mapping[str, str], piles: Sequence[Sequence[int]], turns: Mapping[int, int],
            watch: StormWatch) -> str:
    """Why a round played did not reach the scenario's position ("" if it did), so that no check is vacuous."""
    if not watch.ended:
        return "the round did not end after the planned turns"
    hit = storm_stormed(values, watch.piles, watch.taken, 0)
    if sc.insta:
        if watch.winner != 0:
            return f"side 0 was to win by an insta-win, the winner is {watch.winner}"
        if sc.insta == "own" and not hit:
            return "side 0 was to win while stormed"
        if sc.insta == "lift" and mb.side_of(mb.SPEC.value(values, mb.Players), watch.mover) == 0:
            return "side 0 was to be lifted into its insta-win in another side's turn"
        return ""
    if watch.winner is not None or [set(p) for p in piles] != watch.piles:
        return f"the round ends with piles {[sorted(p) for p in watch.piles]}"
    if hit != storm_stormed(values, piles, turns, 0):
        return f"the cards were taken in other turns ({watch.taken}) than planned ({dict(turns)})"
    return ""


def replay_check(adapter: EngineAdapter, cx: Mapping[str, object], options: Mapping[str, str]) -> str | None:
    """Re-run a ``musashino-storm`` counterexample: the first difference StormWatch finds, or None."""
    deck, actions, seed = cx.get("deck"), cx.get("actions"), cx.get("seed", 0)
    if (deck is not None and not isinstance(deck, list)) or not isinstance(actions, list) or not isinstance(seed, int):
        raise ValueError("counterexample: 'deck' and 'actions' must be lists, 'seed' an integer")
    adapter.start(GAME, options, seed, None if deck is None else [int(c) for c in deck])
    watch = StormWatch(options)
    for act in actions:
        watch.before(adapter.snapshot(), str(act))
        adapter.apply(str(act))
        ended = adapter.rounds_ended()
        bad = watch.after(ended, None if ended else adapter.snapshot())
        if bad:
            return bad
    return None


def _storm_checks(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    """The Storm and Sun proofs and their cross-check against the engine's play (quick: the default
    table, three players, one Sun per claim, two option sets played)."""
    who = {3: "3 players", 2: "2 teams"}
    teams = (3,) if quick else (3, 2)
    tables = [{}] if quick else [{}, {"four_brights": "curtain"}]
    for extra in tables:
        for sun in (("after",) if quick else ("off", "after", "any-order")):
            for n in teams:
                v = mb.SPEC.resolve(None, {"storm": "cards", "sun": sun, **extra})
                yield timed(GAME, f"z3 Storm=cards: what a stormed side counts, {who[n]}, sun={sun}{_opts(extra)} "
                            "(MB-STORM-1, MB-12)", partial(_storm_cards, v, n))
    for n in teams:
        v = mb.SPEC.resolve(None, {"storm": "banquets", "sun": "after"})
        yield timed(GAME, f"z3 Storm=banquets: what a stormed side counts, {who[n]} (MB-STORM-2, MB-13)",
                    partial(_storm_banquets, v, n))
    for storm, value in [("cards", "8"), ("banquets", "8")] + ([] if quick else [("cards", "4"), ("cards", "16")]):
        extra = {} if value == "8" else {"insta_win_value": value}
        v = mb.SPEC.resolve(None, {"storm": storm, **extra})
        yield timed(GAME, f"z3 Storm={storm}: when it raises a side's total{_opts(extra)} (MB-12, MB-13)",
                    partial(_storm_gain, v, quick))
    for sun in ("after", "any-order"):
        for n in teams:
            v = mb.SPEC.resolve(None, {"storm": "cards", "sun": sun})
            yield timed(GAME, f"z3 Sun={sun}: what the Crane lifts, {who[n]} (MB-STORM-4, MB-14)",
                        partial(_sun, v, n))
    for sun in (("off", "after") if quick else ("off", "after", "any-order")):
        v = mb.SPEC.resolve(None, {"storm": "cards", "sun": sun})
        yield timed(GAME, f"z3 Storm timing, sun={sun}: judged on the piles at every check (MB-STORM-3, MB-12)",
                    partial(_timing, v, 3))
    for label, v in _storm_play_sets(quick):
        yield timed(GAME, f"z3 Storm/Sun rounds played by the engine: {label} (MB-STORM-1, MB-STORM-4)",
                    partial(_play_storm, adapter, label, v, 2 if quick else 10), SAMPLED)


def _opts(extra: Mapping[str, str]) -> str:
    return "".join(f", {k}={v}" for k, v in extra.items())


def checks(adapter: EngineAdapter, quick: bool) -> Iterator[Outcome]:
    """Every Musashino-Bana proof, in report order."""
    yield from _deal(adapter)
    for key, plan in mb.DEALS.items():
        yield fishing_counts(GAME, f"players={key}", plan.players, 48, plan.field, plan.hand)
    yield from _ties()
    yield from _storm_checks(adapter, quick)
    yield from _yaku(adapter, quick)
