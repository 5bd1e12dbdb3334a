"""The one module behind which z3 lives: a small typed expression language and proof helpers.

Every proof in :mod:`hanafuda_spec.proofs` is written with :class:`Bool` (Boolean) and :class:`Int`
(integer) expressions built here; nothing of z3's untyped API leaks out. The solver runs with a
fixed random seed and a timeout, so results are reproducible, and every failed proof comes back
with a concrete counterexample (a model: variable name → value).

A proof is also checked for **vacuity**: its assumptions must be satisfiable, and so must the
antecedent of each implication of the claim (under the assumptions and the antecedents of the
implications it sits in, through conjunctions). A vacuous claim is not proved (status ``vacuous``)
unless it is declared to be vacuous there (``vacuous_ok``: a proof module passes it for the option
values under which it expects it, see ``hanafuda_spec.proofs.common.vacuous_under``).

>>> x, y = int_var("x"), int_var("y")
>>> prove("addition commutes", (x + y).eq(y + x)).ok
True
>>> r = prove("x is small", x <= 3, [x >= 0])
>>> r.ok, r.counterexample["x"] > 3
(False, True)
>>> r = prove("a big x is big", (x > 5).implies(x > 4), [x <= 3])
>>> r.status, r.detail
('vacuous', 'the antecedent 5 < x is never true')
>>> prove("a big x is big", (x > 5).implies(x > 4), [x <= 3], vacuous_ok=True).ok
True
>>> best = maximize("largest", x + y, [x <= 3, y <= 4])
>>> best.value
7
"""

from __future__ import annotations

import time
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import z3

__all__ = [
    "SEED",
    "TIMEOUT_MS",
    "Bool",
    "Int",
    "Model",
    "Optimum",
    "ProofResult",
    "Session",
    "all_of",
    "any_of",
    "bool_var",
    "const",
    "count",
    "dead_case",
    "evaluate",
    "find",
    "find_all",
    "fix",
    "int_var",
    "ite",
    "max_of",
    "maximize",
    "one_context",
    "prove",
    "prove_all",
    "sum_of",
    "true",
]

#: The solver's random seed: proofs are reproducible.
SEED = 20261121
#: Per-query timeout in milliseconds; a timeout is reported as an unknown (failed) result.
TIMEOUT_MS = 30_000

#: A model or counterexample: each named variable with its value.
Model = Mapping[str, int | bool]


def _configure() -> None:
    z3.set_param("smt.random_seed", SEED)
    z3.set_param("sat.random_seed", SEED)


_configure()


class Bool:
    """A Boolean expression."""

    __slots__ = ("_e",)

    def __init__(self, e: Any) -> None:
        self._e = e

    def __and__(self, o: Bool) -> Bool:
        return Bool(z3.And(self._e, o._e))

    def __or__(self, o: Bool) -> Bool:
        return Bool(z3.Or(self._e, o._e))

    def __invert__(self) -> Bool:
        return Bool(z3.Not(self._e))

    def implies(self, o: Bool) -> Bool:
        return Bool(z3.Implies(self._e, o._e))

    def iff(self, o: Bool) -> Bool:
        return Bool(self._e == o._e)

    def then(self, a: Int | int, b: Int | int) -> Int:
        """``a`` if this holds, else ``b``."""
        return ite(self, a, b)

    def __repr__(self) -> str:
        return f"Bool({self._e})"


class Int:
    """An integer expression (``==`` is :meth:`eq`, so that expressions stay hashable)."""

    __slots__ = ("_e",)

    def __init__(self, e: Any) -> None:
        self._e = e

    @staticmethod
    def _of(o: Int | int) -> Any:
        return o._e if isinstance(o, Int) else z3.IntVal(o)

    def __add__(self, o: Int | int) -> Int:
        return Int(self._e + Int._of(o))

    def __radd__(self, o: int) -> Int:
        return Int(z3.IntVal(o) + self._e)

    def __sub__(self, o: Int | int) -> Int:
        return Int(self._e - Int._of(o))

    def __rsub__(self, o: int) -> Int:
        return Int(z3.IntVal(o) - self._e)

    def __mul__(self, o: Int | int) -> Int:
        return Int(self._e * Int._of(o))

    def __rmul__(self, o: int) -> Int:
        return Int(z3.IntVal(o) * self._e)

    def __mod__(self, o: int) -> Int:
        return Int(self._e % z3.IntVal(o))

    def __neg__(self) -> Int:
        return Int(-self._e)

    def __ge__(self, o: Int | int) -> Bool:
        return Bool(self._e >= Int._of(o))

    def __gt__(self, o: Int | int) -> Bool:
        return Bool(self._e > Int._of(o))

    def __le__(self, o: Int | int) -> Bool:
        return Bool(self._e <= Int._of(o))

    def __lt__(self, o: Int | int) -> Bool:
        return Bool(self._e < Int._of(o))

    def eq(self, o: Int | int) -> Bool:
        return Bool(self._e == Int._of(o))

    def ne(self, o: Int | int) -> Bool:
        return Bool(self._e != Int._of(o))

    def __repr__(self) -> str:
        return f"Int({self._e})"


def bool_var(name: str) -> Bool:
    return Bool(z3.Bool(name))


def int_var(name: str) -> Int:
    return Int(z3.Int(name))


def const(n: int) -> Int:
    return Int(z3.IntVal(n))


def true() -> Bool:
    return Bool(z3.BoolVal(True))


def ite(c: Bool, a: Int | int, b: Int | int) -> Int:
    return Int(z3.If(c._e, Int._of(a), Int._of(b)))


def all_of(bs: Iterable[Bool]) -> Bool:
    es = [b._e for b in bs]
    return Bool(z3.And(*es)) if es else true()


def any_of(bs: Iterable[Bool]) -> Bool:
    es = [b._e for b in bs]
    return Bool(z3.Or(*es)) if es else ~true()


def sum_of(xs: Iterable[Int | int]) -> Int:
    es = [Int._of(x) for x in xs]
    return Int(z3.Sum(*es)) if es else const(0)


def count(bs: Iterable[Bool]) -> Int:
    """How many of ``bs`` hold."""
    return sum_of(ite(b, 1, 0) for b in bs)


def max_of(xs: Sequence[Int | int]) -> Int:
    if not xs:
        return const(0)
    out = xs[0] if isinstance(xs[0], Int) else const(xs[0])
    for x in xs[1:]:
        xi = x if isinstance(x, Int) else const(x)
        out = ite(xi > out, xi, out)
    return out


#: The context the queries of one check share (see :func:`one_context`); None: a context per query.
_CONTEXT: ContextVar[Any | None] = ContextVar("z3_context", default=None)


@contextmanager
def one_context() -> Iterator[None]:
    """Every query inside shares one fresh z3 context, dropped at the end: what a check runs in
    (``hanafuda_spec.proofs.common.timed``). A query's result still depends only on the check it
    belongs to and the queries before it in that check, never on other checks; and a context costs
    milliseconds to make, more than most queries take, so one per check rather than one per query."""
    token = _CONTEXT.set(z3.Context())
    try:
        yield
    finally:
        _CONTEXT.reset(token)


def _solver(constraints: Iterable[Bool] = ()) -> tuple[Any, Any]:
    """A fresh solver with ``constraints`` added, and its context: the check's own context inside
    :func:`one_context`, else a fresh one. Either way the context is not the one the terms are built
    in, so that a query's result and its time do not depend on what other checks built before it
    (z3's search is steered by the terms a context already holds)."""
    ctx = _CONTEXT.get() or z3.Context()
    s = z3.Solver(ctx=ctx)
    s.set("timeout", TIMEOUT_MS)
    s.set("random_seed", SEED)
    for c in constraints:
        s.add(c._e.translate(ctx))
    return s, ctx


def _model_dict(m: Any) -> dict[str, int | bool]:
    out: dict[str, int | bool] = {}
    for d in m.decls():
        v = m[d]
        if z3.is_true(v):
            out[d.name()] = True
        elif z3.is_false(v):
            out[d.name()] = False
        elif z3.is_int_value(v):
            out[d.name()] = int(v.as_long())
    return dict(sorted(out.items()))


@dataclass(frozen=True)
class ProofResult:
    """The outcome of one proof: ``status`` is ``proved``, ``refuted`` (with a counterexample),
    ``vacuous`` (true only because nothing satisfies its assumptions or an antecedent: ``detail``
    says which) or ``unknown`` (timeout); only ``proved`` is ok. ``detail`` also notes a declared
    vacuity."""

    name: str
    status: str
    seconds: float
    counterexample: Model = field(default_factory=dict)
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "proved"


def _antecedents(e: Any, inside: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Each implication's antecedent in ``e`` (through conjunctions and consequents), with the
    antecedents of the implications it sits in."""
    if z3.is_and(e):
        for c in e.children():
            yield from _antecedents(c, inside)
    elif z3.is_implies(e):
        a, b = e.children()
        yield inside, a
        yield from _antecedents(b, (*inside, a))


def _vacuity(s: Any, claim: Any, premises: bool, antecedents: bool = True) -> str | None:
    """Why a claim proved on solver ``s`` (its assumptions added, nothing else) is vacuous, or None.
    A check that times out shows nothing vacuous."""
    if premises and s.check() == z3.unsat:
        return "its assumptions are unsatisfiable"
    seen: set[tuple[int, ...]] = set()
    for inside, a in _antecedents(claim) if antecedents else ():
        key = (*(x.get_id() for x in inside), a.get_id())
        if key in seen:
            continue
        seen.add(key)
        s.push()
        s.add(*inside, a)
        r = s.check()
        s.pop()
        if r == z3.unsat:
            text = " ".join(str(a).split())
            return f"the antecedent {text if len(text) <= 160 else text[:157] + '...'} is never true"
    return None


def dead_case(inv_pre: Bool, inv_post: Bool, init: Iterable[Bool], step: Iterable[Bool]) -> str | None:
    """The first case of an invariant (an implication's antecedent, through conjunctions, as in a
    proof's vacuity check) that no initial state and no step reaches, or None: ``inv_pre`` and
    ``inv_post`` are the invariant over the variables before and after a step (the same formula, so
    their cases pair up), ``init`` the initial states (before) and ``step`` a step (to after). A
    check that times out shows nothing dead."""
    s0, c0 = _solver(init)
    s1, c1 = _solver(step)
    pairs = zip(_antecedents(inv_pre._e.translate(c0)), _antecedents(inv_post._e.translate(c1)), strict=True)
    for (in0, a0), (in1, a1) in pairs:
        reached = False
        for s, inside, a in ((s0, in0, a0), (s1, in1, a1)):
            s.push()
            s.add(*inside, a)
            reached = s.check() != z3.unsat
            s.pop()
            if reached:
                break
        if not reached:
            text = " ".join(str(a1).split())
            return f"the case {text if len(text) <= 160 else text[:157] + '...'} is never reached"
    return None


def _proved(s: Any, name: str, claim: Any, premises: bool, vacuous_ok: bool, t0: float,
            antecedents: bool = True) -> ProofResult:
    why = _vacuity(s, claim, premises, antecedents)
    dt = time.perf_counter() - t0
    if why is None:
        return ProofResult(name, "proved", dt)
    if vacuous_ok:
        return ProofResult(name, "proved", dt, detail=f"vacuous, as declared: {why}")
    return ProofResult(name, "vacuous", dt, detail=why)


def prove(name: str, claim: Bool, assumptions: Iterable[Bool] = (), vacuous_ok: bool = False,
          antecedents: bool = True) -> ProofResult:
    """Prove ``assumptions ⇒ claim`` for every value of the variables, and that it is not vacuous
    (see the module docstring; ``vacuous_ok``: declared vacuous here). ``antecedents=False`` checks
    only the assumptions: for a claim whose implications are a case split that the assumptions
    settle, such as an invariant at the initial state."""
    t0 = time.perf_counter()
    given = list(assumptions)
    s, ctx = _solver(given)
    s.add(z3.Not(claim._e.translate(ctx)))
    r = s.check()
    if r == z3.unsat:  # a solver of its own for the vacuity checks: pushing a scope first slows z3 down
        v, vctx = _solver(given)
        return _proved(v, name, claim._e.translate(vctx), bool(given), vacuous_ok, t0, antecedents)
    dt = time.perf_counter() - t0
    if r == z3.sat:
        return ProofResult(name, "refuted", dt, _model_dict(s.model()))
    return ProofResult(name, "unknown", dt)


def prove_all(claims: Sequence[tuple[str, Bool]], assumptions: Iterable[Bool] = (),
              vacuous_ok: Collection[str] = (), counterexamples: bool = True) -> list[ProofResult]:
    """:func:`prove` for many claims under the same assumptions, on one solver (``vacuous_ok``:
    the names of the claims declared vacuous here; ``counterexamples=False``: a refuted claim comes
    without its counterexample, for a caller that asks only whether each claim holds)."""
    given = list(assumptions)
    s, ctx = _solver(given)
    if given and s.check() == z3.unsat:  # every claim would hold: none is proved
        return [ProofResult(name, "vacuous", 0.0, detail="its assumptions are unsatisfiable")
                if name not in vacuous_ok else ProofResult(name, "proved", 0.0, detail="vacuous, as declared")
                for name, _ in claims]
    out = []
    for name, claim in claims:
        t0 = time.perf_counter()
        e = claim._e.translate(ctx)
        s.push()
        s.add(z3.Not(e))
        r = s.check()
        if r == z3.unsat:
            s.pop()
            out.append(_proved(s, name, e, False, name in vacuous_ok, t0))
            continue
        dt = time.perf_counter() - t0
        if r == z3.sat:
            out.append(ProofResult(name, "refuted", dt, _model_dict(s.model()) if counterexamples else {}))
        else:
            out.append(ProofResult(name, "unknown", dt))
        s.pop()
    return out


def find(constraints: Iterable[Bool]) -> Model | None:
    """A model of the constraints, or ``None`` if there is none (or the solver timed out)."""
    s, _ = _solver(constraints)
    if s.check() == z3.sat:
        return _model_dict(s.model())
    return None


def find_all(constraints: Iterable[Bool], over: Sequence[Int | Bool], limit: int = 64) -> list[Model]:
    """Up to ``limit`` models of the constraints that differ in the values of ``over``
    (each solution is blocked before looking for the next)."""
    s, ctx = _solver(constraints)
    xs = [x._e.translate(ctx) for x in over]
    out: list[Model] = []
    while len(out) < limit and s.check() == z3.sat:
        m = s.model()
        out.append(_model_dict(m))
        s.add(z3.Or(*[x != m.eval(x, model_completion=True) for x in xs]))
    return out


@dataclass(frozen=True)
class Optimum:
    """The result of :func:`maximize`: the best value and a model reaching it."""

    name: str
    value: int | None
    model: Model
    seconds: float


def maximize(name: str, objective: Int, constraints: Iterable[Bool] = (), limit: int = 1 << 20) -> Optimum:
    """The largest value of ``objective`` under the constraints (``value`` None if infeasible, at least
    ``limit``, or timed out): on one solver, each model found is followed by a query for a larger value,
    until none exists (the solver keeps what it learnt from one query to the next)."""
    t0 = time.perf_counter()
    s, ctx = _solver(constraints)
    goal = objective._e.translate(ctx)
    best: Model = {}
    value: int | None = None
    while True:
        r = s.check()
        if r == z3.unsat:
            break
        if r != z3.sat:  # timed out: the best so far is not known to be the largest
            return Optimum(name, None, {}, time.perf_counter() - t0)
        m = s.model()
        value = int(m.eval(goal, model_completion=True).as_long())
        best = _model_dict(m)
        if value >= limit:
            return Optimum(name, None, {}, time.perf_counter() - t0)
        s.add(goal > value)
    return Optimum(name, value, best, time.perf_counter() - t0)


def fix(x: Int, values: Mapping[str, bool]) -> Int:
    """``x`` with the named Boolean variables replaced by constants."""
    subs = [(z3.Bool(k), z3.BoolVal(v)) for k, v in values.items()]
    return Int(z3.substitute(x._e, *subs)) if subs else x


def evaluate(x: Int, model: Model) -> int:
    """The value of ``x`` under a model (variables the model lacks count as 0 / false)."""
    fn = _compiled(x._e)
    if fn is not None:
        return int(fn(model))
    subs = [(z3.Bool(k), z3.BoolVal(v)) if isinstance(v, bool) else (z3.Int(k), z3.IntVal(v))
            for k, v in model.items()]
    e = z3.simplify(z3.substitute(x._e, *subs) if subs else x._e)
    if not z3.is_int_value(e):  # variables the model does not fix: complete with defaults
        s = z3.Solver()
        s.check()
        e = s.model().eval(e, model_completion=True)
    return int(e.as_long())


def _ediv(a: int, b: int) -> int:
    """z3's integer division (Euclidean: the remainder is never negative)."""
    q = a // b
    return q + 1 if b < 0 and a - b * q != 0 else q


def _emod(a: int, b: int) -> int:
    return a - b * _ediv(a, b)


_NARY = {z3.Z3_OP_AND: " and ", z3.Z3_OP_OR: " or ", z3.Z3_OP_ADD: " + ", z3.Z3_OP_SUB: " - ",
         z3.Z3_OP_MUL: " * "}
_BINARY = {z3.Z3_OP_LE: "<=", z3.Z3_OP_LT: "<", z3.Z3_OP_GE: ">=", z3.Z3_OP_GT: ">", z3.Z3_OP_EQ: "==",
           z3.Z3_OP_IFF: "=="}
#: Compiled expressions, by context and expression id (each kept with its expression, so the id stays
#: its own): an expression evaluated again, such as a yaku table's score on many piles, is compiled once.
_PROGRAMS: dict[tuple[Any, int], tuple[Any, Any]] = {}


def _line(n: Any, args: list[str], names: list[str]) -> str | None:
    """The Python expression of one node over its children's ``args`` (None: not translated)."""
    if not z3.is_app(n):
        return None
    if z3.is_int_value(n):
        return str(n.as_long())
    if z3.is_true(n) or z3.is_false(n):
        return str(z3.is_true(n))
    k = n.decl().kind()
    if not args:
        if k != z3.Z3_OP_UNINTERPRETED or not (z3.is_bool(n) or z3.is_int(n)):
            return None
        names.append(n.decl().name())
        return f"m.get(_n[{len(names) - 1}], {'False' if z3.is_bool(n) else '0'})"
    if k in _NARY:
        return _NARY[k].join(args)
    if k in _BINARY and len(args) == 2:
        return f"{args[0]} {_BINARY[k]} {args[1]}"
    if k == z3.Z3_OP_NOT:
        return f"not {args[0]}"
    if k == z3.Z3_OP_IMPLIES:
        return f"(not {args[0]}) or {args[1]}"
    if k == z3.Z3_OP_ITE:
        return f"{args[1]} if {args[0]} else {args[2]}"
    if k == z3.Z3_OP_UMINUS:
        return f"-{args[0]}"
    if k == z3.Z3_OP_DISTINCT:
        return f"len({{{', '.join(args)}}}) == {len(args)}"
    divisor = n.children()[-1]
    if k in (z3.Z3_OP_MOD, z3.Z3_OP_IDIV) and z3.is_int_value(divisor) and divisor.as_long() != 0:
        return f"{'_emod' if k == z3.Z3_OP_MOD else '_ediv'}({args[0]}, {args[1]})"
    return None


def _compiled(e: Any) -> Any:
    """``e`` as a Python function of a model: each node of the expression's graph one line of straight-line
    code (shared subterms computed once), variables the model lacks read as 0 / false, as
    :func:`evaluate` defines; None if ``e`` has an operator this does not translate."""
    key = (e.ctx, e.get_id())  # an expression's id is unique within its context
    hit = _PROGRAMS.get(key)
    if hit is not None:
        return hit[1]
    slot: dict[int, str] = {}
    lines: list[str] = []
    names: list[str] = []
    stack = [(e, False)]
    while stack:  # each node after its children (iterative: the graphs can be deep)
        n, ready = stack.pop()
        i = n.get_id()
        if i in slot:
            continue
        kids = n.children() if z3.is_app(n) and not z3.is_const(n) else []
        if not ready and kids:
            stack.append((n, True))
            stack.extend((c, False) for c in reversed(kids) if c.get_id() not in slot)
            continue
        text = _line(n, [slot[c.get_id()] for c in kids], names)
        if text is None:
            _PROGRAMS[key] = (e, None)
            return None
        slot[i] = f"v{len(lines)}"
        lines.append(f"    {slot[i]} = {text}")
    env: dict[str, Any] = {"_n": tuple(names), "_ediv": _ediv, "_emod": _emod}
    source = "def f(m):\n" + "\n".join(lines) + f"\n    return {slot[e.get_id()]}\n"
    exec(source, env)  # straight-line code generated above from the expression
    if len(_PROGRAMS) > 4096:
        _PROGRAMS.clear()
    _PROGRAMS[key] = (e, env["f"])
    return env["f"]


class Session:
    """A solver that holds ``constraints`` and answers many queries under further ones (each query
    pushed and popped): checking one transition system against many concrete steps without
    rebuilding it each time. Its context is its own, as for every other query."""

    def __init__(self, constraints: Iterable[Bool]) -> None:
        self._s, self._ctx = _solver(constraints)

    def find_all(self, extra: Iterable[Bool], over: Sequence[Int | Bool], limit: int = 64) -> list[Model]:
        """:func:`~hanafuda_spec.z3layer.find_all` of the held constraints and ``extra``, each model given
        on ``over`` only."""
        s, ctx = self._s, self._ctx
        s.push()
        try:
            for c in extra:
                s.add(c._e.translate(ctx))
            xs = [x._e.translate(ctx) for x in over]
            out: list[Model] = []
            while len(out) < limit and s.check() == z3.sat:
                m = s.model()
                values = [m.eval(x, model_completion=True) for x in xs]
                out.append({str(x): (z3.is_true(v) if z3.is_bool(v) else int(v.as_long())) for x, v in zip(xs, values,
                                                                                                          strict=True)})
                s.add(z3.Or(*[x != v for x, v in zip(xs, values, strict=True)]))
            return out
        finally:
            s.pop()
