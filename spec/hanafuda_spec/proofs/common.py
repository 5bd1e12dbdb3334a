"""Proof machinery shared by every game: the outcome type, yaku tables over one Boolean per card,
abstract count models of a turn, and decision-table completeness.

Everything is built from the spec's data (``YakuDef`` rows, option values, deal sizes) with
:mod:`hanafuda_spec.z3layer`; nothing here reads the reference's scoring code. The reference is
only reached through the :class:`~hanafuda_spec.adapter.EngineAdapter` to cross-check it.
"""

from __future__ import annotations

import enum
import operator
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Generic, TypeVar

from hanafuda_spec import z3layer as z
from hanafuda_spec.adapter import EngineAdapter
from hanafuda_spec.catalogue import GameSpec
from hanafuda_spec.terms import Ops
from hanafuda_spec.yaku import ScoredYaku, YakuDef

__all__ = [
    "BOUNDED",
    "KINDS",
    "PROOF",
    "REPORT",
    "SAMPLED",
    "TERMS",
    "Case",
    "Codes",
    "CountModel",
    "DecisionRow",
    "Outcome",
    "ScoreFn",
    "YakuModel",
    "boundary_piles",
    "decision_table",
    "inductive",
    "names_only",
    "once",
    "only_checks",
    "timed",
    "vacuous_under",
    "yaku_checks",
    "yaku_model",
]

_T = TypeVar("_T")


@dataclass(frozen=True)
class Case:
    """A situation a proof found that needs a recorded decision (``gap``: the decision that closes
    it, ``None`` while it is open)."""

    text: str
    gap: str | None

    def __str__(self) -> str:
        return f"{self.text} [{self.gap or 'OPEN: no recorded decision'}]"


#: :class:`~hanafuda_spec.terms.Ops` on z3 terms: a rule the catalogue writes once over an ``Ops``
#: (``hanafuda_spec.games.musashino.settlement``) built as z3 terms, to be proved for all inputs.
TERMS: Ops[z.Int, z.Bool] = Ops(z.const, operator.add, operator.sub, operator.lt, lambda a, b: a.eq(b), operator.and_,
                                z.ite)


#: A proof for every state of its model (the default kind of ``timed``).
PROOF = "proof"
#: A proof up to a bound (``Outcome.bound``, e.g. piles of at most so many cards).
BOUNDED = "bounded"
#: A check of a sample (``Outcome.examples`` deals, piles, matches or rounds, most often played by the
#: implementation).
SAMPLED = "sampled"
#: A report: it computes and lists something but cannot fail. Reports are not counted as checks.
REPORT = "report"
#: The kinds of check, ``Outcome.kind``.
KINDS = (PROOF, BOUNDED, SAMPLED, REPORT)


@dataclass(frozen=True)
class Outcome:
    """One proof-backed check, as the report shows it: ``kind`` is one of ``KINDS`` (``bound``
    given for a bounded proof; a sampled check's sample is ``examples``)."""

    game: str
    check: str
    ok: bool
    seconds: float
    detail: str = ""
    counterexample: Mapping[str, object] = field(default_factory=dict)
    examples: int = 0
    cases: tuple[Case, ...] = ()
    kind: str = PROOF
    bound: int | None = None


_NAMES_ONLY: ContextVar[bool] = ContextVar("names_only", default=False)


@contextmanager
def names_only() -> Iterator[None]:
    """Within this block ``timed`` runs nothing and gives a passing outcome with the check's
    name: a game's checks are listed (and counted, for "check k of n") in a fraction of a second.
    Every proof-backed check goes through ``timed``, and which checks a game has depends only
    on the options and ``quick``, never on an outcome."""
    token = _NAMES_ONLY.set(True)
    try:
        yield
    finally:
        _NAMES_ONLY.reset(token)


#: The checks ``timed`` runs within :func:`only_checks` (``None``: every check).
_ONLY: ContextVar[frozenset[str] | None] = ContextVar("only_checks", default=None)


@contextmanager
def only_checks(names: Collection[str]) -> Iterator[None]:
    """Within this block ``timed`` runs only the checks named here; any other gives the
    passing placeholder of :func:`names_only` (for the caller to drop). ``verify`` runs a game's
    proofs as several units this way (:func:`hanafuda_spec.proofs.selected_proof_checks`): each
    check's function runs in exactly one unit, and what it computes depends only on the options and
    ``quick``, never on another check having run."""
    token = _ONLY.set(frozenset(names))
    try:
        yield
    finally:
        _ONLY.reset(token)


def once(make: Callable[[], _T]) -> Callable[[], _T]:
    """``make()`` at the first call and the same value at every later one: a model that several
    checks share, built by the first of them that runs (and not at all when :func:`names_only`
    lists the checks, or :func:`only_checks` skips them all)."""
    made: list[_T] = []

    def get() -> _T:
        if not made:
            made.append(make())
        return made[0]
    return get


def timed(game: str, check: str, fn: Callable[[], tuple[bool, str, Mapping[str, object], int, tuple[Case, ...]]],
          kind: str = PROOF, bound: int | None = None) -> Outcome:
    """Run one proof-backed check: ``fn`` gives (ok, detail, counterexample, examples, cases). Its
    ``kind`` (one of ``KINDS``, default ``PROOF``) says what a pass means: a new check that
    plays the implementation on some deals or piles is ``SAMPLED`` (its sample is the examples
    count ``fn`` gives), one that holds only up to a bound is ``BOUNDED`` (give ``bound``), and
    one that cannot fail is a ``REPORT``. A case with no recorded decision fails the check."""
    if kind not in KINDS or (kind == BOUNDED) != (bound is not None):
        raise ValueError(f"{check}: kind {kind!r} with bound {bound!r}")
    only = _ONLY.get()
    if _NAMES_ONLY.get() or (only is not None and check not in only):
        return Outcome(game, check, True, 0.0, kind=kind, bound=bound)
    t0 = time.perf_counter()
    with z.one_context():  # the check's z3 queries share one context
        ok, detail, cx, n, cases = fn()
    if any(c.gap is None for c in cases):
        ok = False
        detail = (detail + "; " if detail else "") + "open cases: " + "; ".join(str(c) for c in cases
                                                                                 if c.gap is None)
    return Outcome(game, check, ok, time.perf_counter() - t0, detail, cx, n, cases, kind, bound)


def vacuous_under(options: Mapping[str, str], declared: Mapping[str, Collection[str]]) -> bool:
    """Whether ``options`` are among those a claim declares it is vacuous under (each option named
    has one of the values given): what a proof passes as ``vacuous_ok`` to
    ``hanafuda_spec.z3layer.prove``. Every other vacuous claim fails.

    >>> vacuous_under({"sun": "off", "players": "3"}, {"sun": ("off",)})
    True
    >>> vacuous_under({"sun": "after"}, {"sun": ("off",)}), vacuous_under({"sun": "off"}, {})
    (False, False)
    """
    return bool(declared) and all(options.get(k) in vs for k, vs in declared.items())


# -- yaku tables over one Boolean per card ---------------------------------------------------


def card_var(c: int) -> str:
    return f"c{c}"


class YakuModel:
    """A yaku table encoded over Booleans ``c<id>`` (card ``id`` is in the pile).

    ``value(y)`` is the yaku's worth (0 if not formed), ``best(y)`` whether it scores after group
    exclusivity (the most valuable of its group, the first listed on a tie), ``total`` the
    pile's yaku total. Built from :class:`~hanafuda_spec.yaku.YakuDef` rows only.
    """

    def __init__(self, rows: Sequence[YakuDef], deck: Sequence[int], prefix: str = "") -> None:
        self.rows = tuple(rows)
        self.deck = tuple(deck)
        self.prefix = prefix
        self.x = {c: z.bool_var(prefix + card_var(c)) for c in self.deck}
        self.values = [self._value(y) for y in self.rows]
        self.scores = self._scores()
        self._size: z.Int | None = None

    def has(self, c: int) -> z.Bool:
        return self.x[c] if c in self.x else ~z.true()

    def weighted(self, cards: frozenset[int], doubled: frozenset[int]) -> z.Int:
        return z.sum_of(z.ite(self.has(c), 2 if c in doubled else 1, 0) for c in sorted(cards))

    def formed(self, y: YakuDef) -> z.Bool:
        return z.all_of([*(self.has(c) for c in sorted(y.required)), *(~self.has(c) for c in sorted(y.forbidden)),
                         self.weighted(y.pool, y.doubled) >= y.need])

    def _value(self, y: YakuDef) -> z.Int:
        bonus: z.Int | int = 0
        if y.extra_pool:
            over = self.weighted(y.extra_pool, y.doubled) - y.extra_from
            bonus = z.ite(over > 0, over * y.extra, 0)
        return z.ite(self.formed(y), z.const(y.points) + bonus, 0)

    def _scores(self) -> list[z.Int]:
        """Each row's scored value after exclusivity (0 if it does not score)."""
        out: list[z.Int] = []
        for i, y in enumerate(self.rows):
            v = self.values[i]
            if y.group is None:
                out.append(v)
                continue
            beats = []
            for j, o in enumerate(self.rows):
                if j == i or o.group != y.group:
                    continue
                beats.append(v > self.values[j] if j < i else v >= self.values[j])
            out.append(z.ite(z.all_of(beats), v, 0))
        return out

    @property
    def total(self) -> z.Int:
        return z.sum_of(self.scores)

    def size(self) -> z.Int:
        """How many cards the pile holds (one term, built once)."""
        if self._size is None:
            self._size = z.count(self.x.values())
        return self._size

    def pile_of(self, model: z.Model) -> tuple[int, ...]:
        return tuple(c for c in self.deck if model.get(self.prefix + card_var(c)) is True)

    def assign(self, pile: Iterable[int]) -> dict[str, int | bool]:
        p = set(pile)
        return {self.prefix + card_var(c): c in p for c in self.deck}


@lru_cache(maxsize=256)
def yaku_model(rows: tuple[YakuDef, ...], deck: tuple[int, ...], prefix: str = "") -> YakuModel:
    """The :class:`YakuModel` of a table, built once in a process and shared by the checks that use
    it: ``verify`` runs each check as a unit of its own, and building a table's formulas costs a
    few hundredths of a second each time. A model is never changed once built."""
    return YakuModel(rows, deck, prefix)


#: Scoring as the spec defines it, for a pile: the (id, points) list expected from the reference.
ScoreFn = Callable[[Sequence[int]], tuple[ScoredYaku, ...]]


def expected_scores(model: YakuModel, pile: Sequence[int]) -> tuple[ScoredYaku, ...]:
    """The scored yaku of a concrete pile, evaluated on the z3 encoding."""
    a = model.assign(pile)
    out = []
    for y, s in zip(model.rows, model.scores, strict=True):
        v = z.evaluate(s, a)
        if v > 0:
            out.append(ScoredYaku(y.id, v))
    return tuple(out)


def boundary_piles(model: YakuModel, bound: int, only: frozenset[str] | None = None,
                   ) -> Iterator[tuple[str, tuple[int, ...]]]:
    """For every yaku, z3-generated piles that just form it (alone, and among many other cards) and
    the same piles one card short, and piles one card past an increment threshold."""
    for y, formed in zip(model.rows, (model.formed(r) for r in model.rows), strict=True):
        if only is not None and y.id not in only:
            continue
        key = list(y.pool | y.required)
        weight = model.weighted(y.pool, y.doubled)
        tight = [formed, weight <= y.need + (1 if y.doubled else 0)]
        lone = z.all_of([~model.has(c) for c in model.deck if c not in y.pool | y.required])
        for label, extra in (("alone", [lone]), ("crowded", [model.size() >= min(bound, 24), model.size() <= bound])):
            m = z.find([*tight, *extra])
            if m is None:
                continue
            pile = model.pile_of(m)
            yield f"{y.id} just formed ({label})", pile
            for c in pile:
                if c in key:
                    yield f"{y.id} one card short ({label}, without {c})", tuple(x for x in pile if x != c)
                    break
        if y.extra_pool:
            m = z.find([formed, lone, model.weighted(y.extra_pool, y.doubled).eq(max(y.extra_from, y.need) + 1)])
            if m is not None:
                yield f"{y.id} one card past its increment threshold", model.pile_of(m)


def _fmt(ys: Iterable[ScoredYaku]) -> str:
    return ", ".join(f"{y.id} {y.points}" for y in ys) or "nothing"


def cross_check(adapter: EngineAdapter, game: str, options: Mapping[str, str], month: int | None,
                piles: Iterable[tuple[str, tuple[int, ...]]], expect: ScoreFn, compare_ids: bool = True,
                ) -> tuple[bool, str, Mapping[str, object], int]:
    """Score each pile with the reference (through the adapter) and compare with the spec."""
    n = 0
    for label, pile in piles:
        n += 1
        want = expect(pile)
        got, _ = adapter.score_pile(game, options, pile, month)
        same = (sorted(want) == sorted(got)) if compare_ids else (
            sum(y.points for y in want) == sum(y.points for y in got))
        if not same:
            cx: dict[str, object] = {"kind": "score", "game": game, "options": dict(options), "month": month,
                                     "pile": list(pile), "expected": [[y.id, y.points] for y in want],
                                     "label": label}
            return False, f"{label}: pile {list(pile)} scores {_fmt(got)}, the spec says {_fmt(want)}", cx, n
    return True, f"{n} boundary piles agree", {}, n


# -- generic claims about a yaku table ------------------------------------------------------------


def subsumptions(model: YakuModel) -> list[str]:
    """Pairs of yaku with identical or subsumed compositions (A formed ⇒ B formed)."""
    forms = [model.formed(y) for y in model.rows]
    rows = model.rows
    pairs = [(i, j) for i in range(len(rows)) for j in range(len(rows)) if i != j]
    res = z.prove_all([(f"{i}>{j}", forms[i].implies(forms[j])) for i, j in pairs], counterexamples=False)
    holds = {p for p, r in zip(pairs, res, strict=True) if r.ok}
    out = []
    for i, j in pairs:
        if i > j or ((i, j) not in holds and (j, i) not in holds):
            continue
        a, b = rows[i], rows[j]
        if (i, j) in holds and (j, i) in holds:
            out.append(f"{a.id} = {b.id} (identical compositions)")
        elif (i, j) in holds:
            out.append(f"{a.id} ⊂ {b.id} (forming {a.id} forms {b.id})")
        else:
            out.append(f"{b.id} ⊂ {a.id} (forming {b.id} forms {a.id})")
    return out


def strict_parts(model: YakuModel) -> set[tuple[int, int]]:
    """Index pairs (i, j): forming row j always forms row i, but not the other way (i is part of j)."""
    forms = [model.formed(y) for y in model.rows]
    n = len(model.rows)
    pairs = [(i, j) for i in range(n) for j in range(n) if i != j]
    res = z.prove_all([(f"{j}>{i}", forms[j].implies(forms[i])) for i, j in pairs], counterexamples=False)
    holds = {p for p, r in zip(pairs, res, strict=True) if r.ok}
    return {(i, j) for i, j in holds if (j, i) not in holds}


def rows_to_check(rows: Sequence[YakuDef], baseline: Sequence[YakuDef], quick: bool, first: bool
                  ) -> frozenset[str] | None:
    """Which rows the boundary piles cover: all of them (``None``) when thorough or for the first
    option set; in a quick run, only the rows that differ from the baseline's (none if the table is
    the same: then only the scoring semantics can differ, and the game passes ``None`` itself)."""
    if not quick or first:
        return None
    base = set(baseline)
    return frozenset(y.id for y in rows if y not in base)


def group_ties(model: YakuModel) -> list[str]:
    """Pairs of yaku of one group that can both be the group's most valuable at equal value (the
    first listed then scores)."""
    out = []
    for i, a in enumerate(model.rows):
        for j, b in enumerate(model.rows):
            if j <= i or a.group is None or a.group != b.group:
                continue
            top = [model.values[i] >= model.values[k] for k, o in enumerate(model.rows) if o.group == a.group]
            m = z.find([model.values[i] > 0, model.values[i].eq(model.values[j]), *top])
            if m is not None:
                out.append(f"{a.id} ties {b.id} on {list(model.pile_of(m))}")
    return out


def group_order(model: YakuModel) -> z.ProofResult:
    """Within a group, a yaku whose forming always forms another is always worth at least as much
    (so "the most valuable" is also "the largest")."""
    forms = [model.formed(y) for y in model.rows]
    pairs = [(i, j) for i, a in enumerate(model.rows) for j, b in enumerate(model.rows)
             if i != j and a.group is not None and a.group == b.group]
    contained = z.prove_all([("", forms[i].implies(forms[j])) for i, j in pairs], counterexamples=False)
    claims = [forms[i].implies(model.values[i] >= model.values[j])
              for (i, j), r in zip(pairs, contained, strict=True) if r.ok]
    return z.prove("group order", z.all_of(claims))


def yaku_checks(game: str, adapter: EngineAdapter, label: str, options: Mapping[str, str], month: int | None,
                rows: Sequence[YakuDef], deck: Sequence[int], bound: int,
                total: Callable[[YakuModel], z.Int] | None = None,
                expect: Callable[[YakuModel, Sequence[int]], tuple[ScoredYaku, ...]] | None = None,
                compare_ids: bool = True, claims: Sequence[tuple[str, Callable[[YakuModel], z.Bool]]] = (),
                ties_gap: str | None = None, quick: bool = False,
                only: frozenset[str] | None = None, first: bool = False) -> Iterator[Outcome]:
    """The generic z3 checks of one yaku table (one option set): claims, subsumption report,
    group ties, group order, the maximum score (reached by the reference) and the boundary-pile
    cross-check of the reference's scorer. ``total``/``expect`` refine the plain table semantics
    for a game's scoring options."""
    model_of = once(lambda: yaku_model(tuple(rows), tuple(deck)))  # built by the first check that runs
    tot = total or (lambda m: m.total)
    exp = expect or expected_scores
    tag = f"{label}"

    if claims:
        def run_claims() -> tuple[bool, str, Mapping[str, object], int, tuple[Case, ...]]:
            model = model_of()
            for nm, cl in claims:
                r = z.prove(nm, cl(model))
                if not r.ok:
                    pile = model.pile_of(r.counterexample)
                    return False, f"{nm}: {r.status}: pile {list(pile)}", {
                        "kind": "score", "game": game, "options": dict(options), "month": month,
                        "pile": list(pile), "claim": nm}, 0, ()
            return True, "proved: " + "; ".join(nm for nm, _ in claims), {}, 0, ()
        yield timed(game, f"z3 catalogue claims, {tag}", run_claims)

    def run_subs() -> tuple[bool, str, Mapping[str, object], int, tuple[Case, ...]]:
        s = subsumptions(model_of())
        return True, "; ".join(s) or "no yaku contains another", {}, 0, ()
    light = quick and only is not None  # a quick run of a further option set: its changes only
    if not light:
        yield timed(game, f"z3 identical/subsumed yaku, {tag}", run_subs, REPORT)

    grouped = any(y.group for y in rows)

    def run_ties() -> tuple[bool, str, Mapping[str, object], int, tuple[Case, ...]]:
        t = group_ties(model_of())
        return True, "; ".join(t) or "no ties within a group", {}, 0, tuple(Case(x, ties_gap) for x in t)
    if grouped:
        # with a recorded decision every tie found is closed: it lists them, and cannot fail
        yield timed(game, f"z3 group ties, {tag}", run_ties, REPORT if ties_gap else PROOF)

    def run_order() -> tuple[bool, str, Mapping[str, object], int, tuple[Case, ...]]:
        model = model_of()
        r = group_order(model)
        if r.ok:
            return True, "proved: a yaku containing another of its group is worth at least as much", {}, 0, ()
        pile = model.pile_of(r.counterexample)
        return False, f"{r.status}: pile {list(pile)}", {"kind": "score", "game": game, "options": dict(options),
                                                          "month": month, "pile": list(pile)}, 0, ()
    if grouped:
        yield timed(game, f"z3 group order, {tag}", run_order)

    def run_max(limit: int | None = None) -> tuple[bool, str, Mapping[str, object], int, tuple[Case, ...]]:
        model = model_of()
        best = z.maximize("max", tot(model), [model.size() <= limit] if limit is not None else [])
        if best.value is None:
            return False, "maximum not found (timeout)", {}, 0, ()
        pile = model.pile_of(best.model)
        got, _ = adapter.score_pile(game, options, pile, month)
        ref = sum(y.points for y in got)
        if ref != best.value:
            return False, (f"maximum {best.value} on {list(pile)} but the reference scores {ref}"), {
                "kind": "score", "game": game, "options": dict(options), "month": month, "pile": list(pile),
                "expected": [[y.id, y.points] for y in exp(model, pile)]}, 1, ()
        return True, f"maximum {best.value} (pile of {len(pile)} cards), reached by the reference", {}, 1, ()
    if not light or only:
        yield timed(game, f"z3 maximum yaku score, any pile, {tag}", run_max)
    if not quick and first and bound < len(deck):  # slow (a minute): the first option set only
        yield timed(game, f"z3 maximum yaku score, at most {bound} cards, {tag}", lambda: run_max(bound),
                    BOUNDED, bound)

    def run_boundary() -> tuple[bool, str, Mapping[str, object], int, tuple[Case, ...]]:
        model = model_of()
        ok, detail, cx, n = cross_check(adapter, game, options, month, boundary_piles(model, bound, only),
                                        lambda p: exp(model, p), compare_ids)
        return ok, detail, cx, n, ()
    if only is None or only:
        yield timed(game, f"z3 boundary piles vs scorer, {tag}", run_boundary, SAMPLED)


# -- abstract count models and inductive invariants ------------------------------------------------


@dataclass(frozen=True)
class CountModel:
    """An abstract model of a game's turn over zone sizes: variables, the initial condition, the
    step relation (``step(pre, post)``) and the invariant to prove inductive."""

    names: tuple[str, ...]
    init: Callable[[Mapping[str, z.Int]], z.Bool]
    step: Callable[[Mapping[str, z.Int], Mapping[str, z.Int]], z.Bool]
    inv: Callable[[Mapping[str, z.Int]], z.Bool]
    params: Callable[[Mapping[str, z.Int]], z.Bool] = lambda _v: z.true()


def inductive(model: CountModel) -> tuple[z.ProofResult, z.ProofResult]:
    """Prove init ⇒ inv and inv ∧ step ⇒ inv′ (the two halves of an inductive invariant), neither
    vacuous: the initial states exist, some state of the invariant has a step, and each case of the
    invariant (an implication's antecedent) is reached by an initial state or a step under some
    values of the model's parameters (a case of one option's turn is not dead under another's)."""
    pre = {n: z.int_var(n) for n in model.names}
    post = {n: z.int_var(n + "'") for n in model.names}
    base = z.prove("init ⇒ inv", model.inv(pre), [model.params(pre), model.init(pre)], antecedents=False)
    keep = z.all_of([pre[n].eq(post[n]) for n in model.names if n.startswith("param_")])
    ind = z.prove("inv ∧ step ⇒ inv′", model.inv(post),
                  [model.params(pre), keep, model.inv(pre), model.step(pre, post)], antecedents=False)
    if ind.ok:
        dead = z.dead_case(model.inv(pre), model.inv(post), [model.init(pre)],
                           [keep, model.inv(pre), model.step(pre, post)])
        if dead is not None:
            ind = z.ProofResult(ind.name, "vacuous", ind.seconds, detail=dead)
    return base, ind


def holds_on(model: CountModel, pre: Mapping[str, int], post: Mapping[str, int]) -> bool:
    """Whether a concrete transition of zone sizes is an instance of the model's step."""
    a = {**{n: pre[n] for n in model.names}, **{n + "'": post[n] for n in model.names}}
    pv = {n: z.int_var(n) for n in model.names}
    qv = {n: z.int_var(n + "'") for n in model.names}
    expr = z.ite(model.step(pv, qv), 1, 0)
    return z.evaluate(expr, a) == 1


# -- decision tables --------------------------------------------------------------------------------


@dataclass(frozen=True)
class DecisionRow:
    """One rule of a decision table: when ``guard`` holds, the result is ``value``."""

    rule: str
    guard: Callable[[Mapping[str, z.Int]], z.Bool]
    value: Callable[[Mapping[str, z.Int]], z.Int]



_E = TypeVar("_E", bound=enum.StrEnum)


class Codes(Generic[_E]):
    """An option's values as the integers a z3 model reads: one code per member of the option's enum
    (``kind``, from the catalogue), so that a model's domain, its rows and its messages follow the
    catalogue's declaration instead of repeating the values. ``codes[Kind.MEMBER]`` is a member's code,
    :meth:`of` a value's as resolved options spell it, :meth:`domain` every code."""

    def __init__(self, kind: type[_E]) -> None:
        self.kind = kind
        self.members: tuple[_E, ...] = tuple(kind)
        self._code = {m: i for i, m in enumerate(self.members)}

    def __getitem__(self, member: _E) -> int:
        return self._code[member]

    def of(self, value: str) -> int:
        """The code of a value spelled as a string (a resolved option's)."""
        return self._code[self.kind(value)]

    def name(self, code: int) -> str:
        """The value a code stands for (the code itself if it stands for none, in a counterexample)."""
        return self.members[code].value if 0 <= code < len(self.members) else str(code)

    def domain(self, x: z.Int) -> z.Bool:
        """``x`` is the code of one of the values."""
        return (x >= 0) & (x < len(self.members))


def decision_table(names: Sequence[str], domain: Callable[[Mapping[str, z.Int]], z.Bool],
                   rows: Sequence[DecisionRow], limit: int = 16) -> tuple[list[z.Model], list[z.Model]]:
    """Situations of the domain that no row covers, and situations two rows cover with different
    results (each list at most ``limit`` long; both empty means the table is complete and
    consistent)."""
    v = {n: z.int_var(n) for n in names}
    over = [v[n] for n in names]
    gaps = z.find_all([domain(v), *[~r.guard(v) for r in rows]], over, limit)
    clashes: list[z.Model] = []
    for i, a in enumerate(rows):
        for b in rows[i + 1:]:
            clashes += z.find_all([domain(v), a.guard(v), b.guard(v), a.value(v).ne(b.value(v))], over,
                                  limit - len(clashes))
            if len(clashes) >= limit:
                return gaps, clashes
    return gaps, clashes


# -- helpers for the game modules -------------------------------------------------------------------


# -- decision tables with several results ---------------------------------------------------------

#: The inputs of a decision table, by name.
V = Mapping[str, z.Int]
#: One result of a table row, as a function of the inputs.
Out = Callable[[V], "z.Int | int"]


@dataclass(frozen=True)
class TableRow:
    """One rule of a decision table with several results (``out``: result name → value), stated
    with its rule ids; ``gap`` is the recorded decision it rests on (None: the seed says it)."""

    text: str
    gap: str | None
    guard: Callable[[V], z.Bool]
    out: Mapping[str, Out]


def as_int(x: z.Int | int) -> z.Int:
    """A z3 integer (a Python int becomes a constant)."""
    return x if isinstance(x, z.Int) else z.const(x)


def decision_rows(rows: Sequence[TableRow], result: str) -> list[DecisionRow]:
    """The rows of one result, for :func:`decision_table`."""
    return [DecisionRow(r.text, r.guard, _result_of(r, result)) for r in rows]


def _result_of(row: TableRow, result: str) -> Callable[[V], z.Int]:
    return lambda v: as_int(row.out[result](v))


def table_value(rows: Sequence[TableRow], result: str, v: V) -> z.Int:
    """A result as one expression: the value of the first row whose guard holds (the tables are proved
    consistent, so any row that holds gives the same), -1 where none does (proved never, on the
    domain)."""
    out: z.Int = z.const(-1)
    for r in reversed(rows):
        out = z.ite(r.guard(v), as_int(r.out[result](v)), out)
    return out


_FIRST_SCORING_SET_ONLY: ContextVar[bool] = ContextVar("first_scoring_set_only", default=False)


@contextmanager
def first_scoring_set_only() -> Iterator[None]:
    """Within this block :func:`scoring_option_sets` gives only the first set (the first ruleset), so
    that every kind of proof runs once, on one yaku table: the test suite's run of the proofs (``verify``
    runs them on every set)."""
    token = _FIRST_SCORING_SET_ONLY.set(True)
    try:
        yield
    finally:
        _FIRST_SCORING_SET_ONLY.reset(token)


def scoring_option_sets(spec: GameSpec, keys: Sequence[str]) -> list[tuple[str, dict[str, str]]]:
    """Every ruleset, then each non-default value of an option among ``keys`` (the options that
    change how a pile scores); only the first ruleset inside :func:`first_scoring_set_only`."""
    out = [(f"ruleset {rs.name}", spec.resolve(rs.name)) for rs in spec.rulesets]
    if _FIRST_SCORING_SET_ONLY.get():
        return out[:1]
    base = spec.resolve()
    for o in spec.options:
        if o.key in keys:
            out += [(f"{o.key}={v}", spec.resolve(None, {o.key: v})) for v in o.choices if v != base[o.key]]
    return out


def deal_sizes(adapter: EngineAdapter, game: str, options: Mapping[str, str], want: Mapping[str, int],
               seeds: Sequence[int] = (1, 2, 3), phase: str = "play") -> tuple[str | None, dict[str, object], int]:
    """Deal with the reference and compare the first position's zone sizes with ``want``; the
    message and replay of the first difference (None if all agree), and the deals compared."""
    n = 0
    for seed in seeds:
        adapter.start(game, options, seed)
        s = adapter.snapshot()
        if s.phase != phase or s.round != 1:
            continue
        n += 1
        got = {z_: len(s.zone(z_)) for z_ in want}
        if got != dict(want):
            return (f"the reference deals {got}, the arithmetic says {dict(want)}",
                    {"kind": "play", "game": game, "options": dict(options), "seed": seed, "actions": []}, n)
    return None, {}, n


# -- the fishing turn as a count model, for any number of seats ------------------------------------

PLAY, DRAWN, TAKE, DONE = 0, 1, 2, 3


def _resolve(n_match: z.Int) -> tuple[z.Int, z.Int]:
    """(field change, captured change) of one card against ``n_match`` field cards: it stays, takes
    one (of one or two), or takes all three."""
    df = z.ite(n_match.eq(0), 1, z.ite(n_match.eq(3), -3, -1))
    dc = z.ite(n_match.eq(0), 0, z.ite(n_match.eq(3), 4, 2))
    return df, dc


def fishing_turn_model(seats: int, deck: int, field: int, hand: int) -> CountModel:
    """The shared fishing turn (FW-HA "Turn"): seat ``t`` plays a hand card, then turns the top of the
    draw pile (none once it is empty), a drawn card matching two field cards waits for the choice of
    one; then the turn passes to the next seat. Seat 0 leads. Variables: hands ``h<i>``, field ``f``,
    draw pile ``s``, all capture piles together ``c``, the waiting drawn card ``d``, turn ``t``,
    phase ``ph``. The invariant: the deck is conserved, capture piles grow by pairs or fours, the
    turn order holds, and the draws left equal the draws needed (plus the cards that stay undrawn)."""
    hs = [f"h{i}" for i in range(seats)]
    names = (*hs, "f", "s", "c", "d", "t", "ph")
    stock0 = deck - seats * hand - field
    undrawn = stock0 - seats * hand

    def init(v: Mapping[str, z.Int]) -> z.Bool:
        return z.all_of([*(v[h].eq(hand) for h in hs), v["f"].eq(field), v["s"].eq(stock0), v["c"].eq(0),
                         v["d"].eq(0), v["t"].eq(0), v["ph"].eq(PLAY)])

    def order(v: Mapping[str, z.Int]) -> z.Bool:
        rows = []
        for tv in range(seats):
            before = [v[hs[i]].eq(v[hs[0]]) for i in range(1, tv)]
            after = [v[hs[i]].eq(v[hs[0]] + (1 if tv > 0 else 0)) for i in range(max(tv, 1), seats)]
            played = [v[hs[i]].eq(v[hs[0]]) for i in range(1, tv + 1)] + \
                     [v[hs[i]].eq(v[hs[0]] + 1) for i in range(tv + 1, seats)]
            rows.append(v["t"].eq(tv).implies(v["ph"].eq(PLAY).implies(z.all_of(before + after))
                                              & (v["ph"] > PLAY).implies(z.all_of(played))))
        return z.all_of(rows)

    def inv(v: Mapping[str, z.Int]) -> z.Bool:
        held = z.sum_of(v[h] for h in hs)
        return z.all_of([
            (held + v["f"] + v["s"] + v["c"] + v["d"]).eq(deck),
            *(v[n] >= 0 for n in (*hs, "f", "s", "c", "d")),
            v["t"] >= 0, v["t"] < seats, v["ph"] >= PLAY, v["ph"] <= DONE,
            v["d"].eq(z.ite(v["ph"].eq(TAKE), 1, 0)), v["ph"].eq(TAKE).implies(v["f"] >= 2),
            (v["c"] % 2).eq(0),
            order(v),
            v["ph"].eq(PLAY).implies((v["s"] - held).eq(undrawn)),
            v["ph"].eq(DRAWN).implies((v["s"] - held).eq(undrawn + 1)),
            (v["ph"] >= TAKE).implies((v["s"] - held).eq(undrawn)),
        ])

    def step(v: Mapping[str, z.Int], w: Mapping[str, z.Int]) -> z.Bool:
        k, j = z.int_var("k"), z.int_var("j")
        df, dc = _resolve(k)
        dfj, dcj = _resolve(j)
        moves = []
        for seat in range(seats):
            h = hs[seat]
            rest = [x for x in hs if x != h]
            t = v["t"].eq(seat)
            moves += [
                z.all_of([t, v["ph"].eq(PLAY), v[h] >= 1, k >= 0, k <= 3, k <= v["f"], w[h].eq(v[h] - 1),
                          w["f"].eq(v["f"] + df), w["c"].eq(v["c"] + dc), w["ph"].eq(DRAWN),
                          _same(v, w, (*rest, "s", "d", "t"))]),
                z.all_of([t, v["ph"].eq(DRAWN), v["s"] >= 1, j >= 0, j <= 3, j <= v["f"], w["s"].eq(v["s"] - 1),
                          j.eq(2).implies(z.all_of([w["d"].eq(1), w["ph"].eq(TAKE), _same(v, w, ("f", "c"))])),
                          j.ne(2).implies(z.all_of([w["d"].eq(0), w["ph"].eq(DONE), w["f"].eq(v["f"] + dfj),
                                                    w["c"].eq(v["c"] + dcj)])),
                          _same(v, w, (*hs, "t"))]),
                z.all_of([t, v["ph"].eq(DRAWN), v["s"].eq(0), w["ph"].eq(DONE),
                          _same(v, w, (*hs, "f", "s", "c", "d", "t"))]),
                z.all_of([t, v["ph"].eq(TAKE), w["d"].eq(0), w["f"].eq(v["f"] - 1), w["c"].eq(v["c"] + 2),
                          w["ph"].eq(DONE), _same(v, w, (*hs, "s", "t"))]),
                z.all_of([t, v["ph"].eq(DONE), w["t"].eq((seat + 1) % seats), w["ph"].eq(PLAY),
                          _same(v, w, (*hs, "f", "s", "c", "d"))]),
            ]
        return z.any_of(moves)

    return CountModel(names, init, step, inv)


def _same(v: Mapping[str, z.Int], w: Mapping[str, z.Int], names: Sequence[str]) -> z.Bool:
    return z.all_of(v[n].eq(w[n]) for n in names)


def fishing_counts(game: str, label: str, seats: int, deck: int, field: int, hand: int) -> Outcome:
    """The inductive proof of :func:`fishing_turn_model` for one deal, as a report line."""
    def run() -> tuple[bool, str, Mapping[str, object], int, tuple[Case, ...]]:
        base, ind = inductive(fishing_turn_model(seats, deck, field, hand))
        for r in (base, ind):
            if not r.ok:
                return False, f"{r.name}: {r.status}", {"kind": "model", "game": game, **r.counterexample}, 0, ()
        undrawn = deck - seats * hand - field - seats * hand
        return True, (f"proved: {deck} cards conserved, captures by pairs or fours, turn order of {seats} seats, "
                      f"draws available = draws needed ({undrawn} undrawn)"), {}, 0, ()
    return timed(game, f"z3 inductive count invariants of the turn, {label}", run)


def replay_match(adapter: EngineAdapter, game: str, options: Mapping[str, str], cx: Mapping[str, object],
                 watch: Callable[[EngineAdapter], Callable[[str], str | None]]) -> str | None:
    """Re-run a counterexample that is a whole match (``seed`` and ``actions``) through a watcher:
    ``watch(adapter)`` gives the function that plays one action and returns the disagreement it
    finds, if any. The first disagreement, or None."""
    seed, actions = cx.get("seed"), cx.get("actions")
    if not isinstance(seed, int) or not isinstance(actions, list):
        raise ValueError("counterexample: 'seed' must be an integer and 'actions' a list")
    adapter.start(game, options, seed)
    step = watch(adapter)
    for act in actions:
        bad = step(str(act))
        if bad:
            return bad
    return None
