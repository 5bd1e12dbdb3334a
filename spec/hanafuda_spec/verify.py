"""``verify``: every invariant on random games of every ruleset, and every proof, in one report.

It runs against any :class:`~hanafuda_spec.adapter.EngineAdapter`; ``hanafuda verify`` passes
the reference's. A check is a named unit with a result: examples run (random matches and
Hypothesis state machines, with the invariants after every action) or a proof (z3, from
:mod:`hanafuda_spec.proofs`), each with its time. Each says what a pass means, its ``kind``
(``hanafuda_spec.proofs.common.KINDS``): ``proof`` (for every state of its model), ``bounded``
(with its ``bound``), ``sampled`` (with its ``sample``: the matches, examples, deals or piles run)
or ``report``, which lists what it found and cannot fail: reports are not counted as checks
(``summary_line``). A new proof gives its kind to ``hanafuda_spec.proofs.common.timed``.
A failed check carries a counterexample that :func:`replay` reproduces (``hanafuda verify --replay``):

* ``{"kind": "play", "game", "options", "seed", "deck"?, "actions"}`` – a match (from a stacked
  first deal if ``deck`` is given) and the actions up to the broken invariant;
* ``{"kind": "score", "game", "options", "month", "pile", "expected"?}`` – a capture pile the
  reference scores differently from the spec;
* ``{"kind": "model", ...}`` – a counterexample of a proof about the spec's own model (the values
  of its variables); there is no implementation to replay it against.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Protocol, TypeVar

from hanafuda_spec.adapter import EngineAdapter
from hanafuda_spec.catalogue import OptionError
from hanafuda_spec.games import GAME_KEYS, profile_for, spec_for
from hanafuda_spec.invariants import Violation, run_random
from hanafuda_spec.machines import Stepper, counterexample, run_machine
from hanafuda_spec.proofs import proof_check_kinds, proof_check_names, replay_check, selected_proof_checks
from hanafuda_spec.proofs.common import BOUNDED, KINDS, PROOF, REPORT, SAMPLED
from hanafuda_spec.shuffle import GOLDEN, MASK64, SplitMix64
from hanafuda_spec.yaku import ScoredYaku

__all__ = ["PARTS", "QUICK", "THOROUGH", "CheckResult", "Level", "Replay", "Unit", "count_checks", "option_sets",
           "plan_units", "random_play_checks", "random_play_name", "replay", "run_checks", "run_checks_in_parallel",
           "run_unit", "schedule", "summary_line"]


@dataclass(frozen=True)
class Level:
    """How hard to try: matches per option set."""

    name: str
    matches: int
    machine_examples: int = 10

    @property
    def quick(self) -> bool:
        return self.name == "quick"


QUICK = Level("quick", 8, 10)
THOROUGH = Level("thorough", 60, 60)


@dataclass(frozen=True)
class CheckResult:
    """One check's result: ``kind`` is ``proof``, ``bounded`` (``bound`` given), ``sampled`` (its
    sample is ``examples``) or ``report`` (cannot fail, not counted as a check); ``part`` is the
    part of :data:`PARTS` it belongs to."""

    game: str
    check: str
    kind: str
    examples: int
    seconds: float
    ok: bool
    detail: str = ""
    counterexample: Mapping[str, object] = field(default_factory=dict)
    #: Situations a proof found, each with the gap id of the decision that closes it (None: open).
    cases: tuple[tuple[str, str | None], ...] = ()
    bound: int | None = None
    part: str = "proofs"

    @property
    def sample(self) -> int | None:
        """A sampled check's sample size (its examples), None for any other kind."""
        return self.examples if self.kind == SAMPLED else None

    def to_json(self) -> dict[str, object]:
        return {"game": self.game, "check": self.check, "kind": self.kind, "bound": self.bound,
                "sample": self.sample, "part": self.part, "examples": self.examples,
                "seconds": round(self.seconds, 3), "ok": self.ok, "detail": self.detail,
                "counterexample": dict(self.counterexample),
                "cases": [{"text": t, "gap": g} for t, g in self.cases]}


def summary_line(results: Iterable[tuple[str, bool]]) -> str:
    """The closing line of a run from each result's (kind, ok): "N checks (P proofs, B bounded,
    S sampled), M failed; R reports". Reports are not counted as checks; a report that failed
    anyway (a timeout) is counted among the failed.

    >>> summary_line([("proof", True), ("sampled", False), ("report", True)])
    '2 checks (1 proofs, 0 bounded, 1 sampled), 1 failed; 1 reports'
    """
    n = dict.fromkeys(KINDS, 0)
    failed = 0
    for kind, ok in results:
        if kind not in n:
            raise ValueError(f"unknown kind of check {kind!r}")
        n[kind] += 1
        failed += not ok
    checks = n[PROOF] + n[BOUNDED] + n[SAMPLED]
    return (f"{checks} checks ({n[PROOF]} proofs, {n[BOUNDED]} bounded, {n[SAMPLED]} sampled), {failed} failed; "
            f"{n[REPORT]} reports")


def option_sets(game: str) -> list[tuple[str, dict[str, str]]]:
    """The option sets ``verify`` covers: every ruleset, then every non-default value of each
    option on the default ruleset; and the same again on top of each base configuration the
    game's profile names in ``option_sets`` (Musashino-Bana's three deals), without repeats."""
    spec = spec_for(game)
    out: list[tuple[str, dict[str, str]]] = []
    seen: set[tuple[tuple[str, str], ...]] = set()

    def add(label: str, values: dict[str, str]) -> None:
        key = tuple(sorted(values.items()))
        if key not in seen:
            seen.add(key)
            out.append((label, values))

    bases = [b for b in profile_for(game).option_sets if b] or []
    for base_opts in [{}, *bases]:
        prefix = "".join(f"{k}={v}, " for k, v in sorted(base_opts.items()))
        for rs in spec.rulesets:
            add(f"{prefix}ruleset {rs.name}", spec.resolve(rs.name, base_opts))
        base = spec.resolve(None, base_opts)
        for o in spec.options:
            for v in o.choices:
                if v != base[o.key] and o.key not in base_opts:
                    try:
                        values = spec.resolve(None, {**base_opts, o.key: v})
                    except OptionError:  # a value another option's value excludes (OptionLink)
                        continue
                    add(f"{prefix}{o.key}={v}", values)
    return out


def option_sets_beyond_rulesets(game: str) -> list[tuple[int, dict[str, str]]]:
    """The option sets of :func:`option_sets` that no ruleset resolves to, each with its index there (the
    options suites of the conformance corpus play seed ``index`` under each)."""
    spec = spec_for(game)
    rulesets = [spec.resolve(rs.name) for rs in spec.rulesets]
    return [(i, values) for i, (_, values) in enumerate(option_sets(game)) if values not in rulesets]


def _violation_json(v: Violation) -> dict[str, object]:
    return counterexample(v)


def random_play_name(label: str) -> str:
    """The name of the random-play check of one option set (``label`` of :func:`option_sets`)."""
    return f"invariants, random play, {label}"


def random_play_checks(adapter: EngineAdapter, game: str, level: Level, seed: int,
                       only: Collection[str] | None = None) -> Iterator[CheckResult]:
    """Random matches under each option set (those whose check is named in ``only``, if given),
    with the invariants after every action. The matches of the ``i``-th option set take the master
    generator's outputs from ``2 i level.matches`` on (two per match), whichever others run: each
    option set is a unit of its own for :func:`run_checks_in_parallel`."""
    profile = profile_for(game)
    n = level.matches
    for i, (label, opts) in enumerate(option_sets(game)):
        name = random_play_name(label)
        if only is not None and name not in only:
            continue
        master = SplitMix64((seed + 2 * n * i * GOLDEN) & MASK64)  # jumped past the earlier option sets
        t0 = time.perf_counter()
        actions = 0
        bad: Violation | None = None
        for _ in range(n):
            rep = run_random(adapter, profile, opts, master.next(), master.next())
            actions += rep.actions
            if rep.violations:
                bad = rep.violations[0]
                break
        dt = time.perf_counter() - t0
        if bad is None:
            yield CheckResult(game, name, SAMPLED, n, dt, True, f"{actions} actions", part=PARTS[0])
        else:
            yield CheckResult(game, name, SAMPLED, n, dt, False, f"{bad.invariant}: {bad.message}",
                              _violation_json(bad), part=PARTS[0])


#: Option sets the state machines run besides the default rules (rare rules worth a machine of their own).
MACHINE_OPTIONS: dict[str, tuple[dict[str, str], ...]] = {
    "koikoi": ({"field_teyaku": "dealer-captures", "hand_size": "10"}, {"teyaku": "misdeal"}),
    "kujuroku": ({"jizo": "on"},),
    "musashino": ({"players": "4"},),
}


def _machines(game: str) -> list[tuple[str, dict[str, str]]]:
    """Each state machine of a game: its check's name and its options besides the defaults."""
    out = []
    for extra in ({}, *MACHINE_OPTIONS.get(game, ())):
        label = ", ".join(f"{k}={v}" for k, v in extra.items()) or "default rules"
        out.append((f"state machine, stacked decks, {label}", extra))
    return out


def machine_checks(adapter: EngineAdapter, game: str, level: Level,
                   only: Collection[str] | None = None) -> Iterator[CheckResult]:
    """The game's Hypothesis state machine on the default rules and :data:`MACHINE_OPTIONS`
    (stacked decks included); those named in ``only``, if given."""
    spec = spec_for(game)
    for name, extra in _machines(game):
        if only is not None and name not in only:
            continue
        t0 = time.perf_counter()
        opts = spec.resolve(None, extra)
        cx = run_machine(lambda: adapter, game, opts, level.machine_examples)
        dt = time.perf_counter() - t0
        if cx is None:
            yield CheckResult(game, name, SAMPLED, level.machine_examples, dt, True, part=PARTS[1])
        else:
            yield CheckResult(game, name, SAMPLED, level.machine_examples, dt, False,
                              f"{cx.get('invariant')}: {cx.get('message')}", cx, part=PARTS[1])


def z3_checks(adapter: EngineAdapter, game: str, level: Level,
              only: Sequence[str] | None = None) -> Iterator[CheckResult]:
    """The game's proofs (:mod:`hanafuda_spec.proofs`): those named in ``only`` (in the order of
    :func:`~hanafuda_spec.proofs.proof_check_names`), or every one."""
    names = proof_check_names(game, level.quick) if only is None else only
    for o in selected_proof_checks(adapter, game, level.quick, names):
        yield CheckResult(o.game, o.check, o.kind, o.examples, o.seconds, o.ok, o.detail, o.counterexample,
                          tuple((c.text, c.gap) for c in o.cases), o.bound, PARTS[2])


def run_checks(adapter: EngineAdapter, games: Sequence[str] | None, level: Level, seed: int) -> Iterator[CheckResult]:
    """Every check for every game (or those named), in this process, as results stream in."""
    return run_checks_in_parallel(lambda: adapter, games, level, seed, 1)


#: The parts of a game's checks: the random play of each option set, the state machines and the
#: proofs. :func:`plan_units` splits each part into units.
PARTS = ("random play", "state machines", "proofs")


@dataclass(frozen=True)
class Unit:
    """A piece of one game's checks that one worker runs with an adapter of its own: the checks
    named, in report order, all of one part (:data:`PARTS`). Each check runs in exactly one
    unit, and its result depends only on the game, the level, the seed and its name, never on the
    other checks of its unit or on the worker: so the report is the same however the units are
    spread over processes or machines."""

    game: str
    part: str
    checks: tuple[str, ...]
    #: What its checks are (``hanafuda_spec.proofs.common.KINDS``, the first check's): what
    #: :func:`schedule` orders the units by.
    kind: str = SAMPLED


#: The order in which units of each kind are handed to the workers (:func:`schedule`): the longest
#: first, so that no long unit starts last while the other worker idles. A bounded proof searches up
#: to its bound; a sampled proof plays the implementation; a state machine plays stacked decks; the
#: random play of one option set takes a fraction of a second; most proofs and reports take less.
_START = {(PARTS[2], BOUNDED): 0, (PARTS[2], SAMPLED): 1, (PARTS[1], SAMPLED): 1, (PARTS[0], SAMPLED): 2}


def schedule(units: Sequence[Unit]) -> list[int]:
    """The order to run ``units`` in (indices into it): by kind as :data:`_START` says, the rest last,
    report order within a kind. Only when each unit runs changes, never its result."""
    return sorted(range(len(units)), key=lambda i: (_START.get((units[i].part, units[i].kind), 3), i))


#: How many proofs make one unit at most. One each: the longest takes about 3 % of a quick run,
#: and listing a game's proofs again in a worker (to pick out its own) costs a millisecond.
PROOFS_PER_UNIT = 1


def plan_units(games: Sequence[str] | None, level: Level) -> list[Unit]:
    """The units of every check of these games (every game by default), in report order: for each
    game, the random play of each option set, each state machine, then its proofs in groups of
    :data:`PROOFS_PER_UNIT`. Found without running any check (a fraction of a second)."""
    units: list[Unit] = []
    for g in games or GAME_KEYS:
        try:
            profile_for(g)
        except ModuleNotFoundError:
            continue
        units.extend(Unit(g, PARTS[0], (random_play_name(label),)) for label, _ in option_sets(g))
        units.extend(Unit(g, PARTS[1], (name,)) for name, _ in _machines(g))
        proofs = proof_check_kinds(g, level.quick)
        units.extend(Unit(g, PARTS[2], tuple(name for name, _ in proofs[i:i + PROOFS_PER_UNIT]), proofs[i][1])
                     for i in range(0, len(proofs), PROOFS_PER_UNIT))
    return units


def run_unit(make_adapter: Callable[[], EngineAdapter], level: Level, seed: int, unit: Unit) -> list[CheckResult]:
    """The results of one unit's checks, in order (what a worker runs), with an adapter of its own."""
    adapter = make_adapter()
    if unit.part == PARTS[0]:
        results = list(random_play_checks(adapter, unit.game, level, seed, set(unit.checks)))
    elif unit.part == PARTS[1]:
        results = list(machine_checks(adapter, unit.game, level, set(unit.checks)))
    else:
        results = list(z3_checks(adapter, unit.game, level, unit.checks))
    if tuple(r.check for r in results) != unit.checks:
        raise ValueError(f"{unit.game}, {unit.part}: no such checks, or not in this order: {list(unit.checks)}")
    return results


_T = TypeVar("_T")
_R = TypeVar("_R")


class OrderedMap(Protocol):
    """Where :func:`run_checks_in_parallel` runs its units: anything that gives ``fn(item)`` for
    each item, in item order (the built-in ``map`` is one; the reference passes a process pool's or
    a Dask cluster's, see ``hanafuda.parallel``). ``fn`` is a :func:`functools.partial` of a
    module-level function, so it can be sent to other processes."""

    def __call__(self, fn: Callable[[_T], _R], items: Sequence[_T], /) -> Iterable[_R]: ...


def run_checks_in_parallel(make_adapter: Callable[[], EngineAdapter], games: Sequence[str] | None, level: Level,
                           seed: int, jobs: int, ordered_map: OrderedMap | None = None) -> Iterator[CheckResult]:
    """The checks of :func:`run_checks`, in the same order and with the same results but for their
    times, run as the units of :func:`plan_units` by ``jobs`` worker processes, or by
    ``ordered_map`` when it is given (``make_adapter`` must be picklable, a class for instance).
    With more than one job the units are handed out in the order of :func:`schedule` (the longest
    first); the results are given in report order as soon as every earlier one is in."""
    units = plan_units(games, level)
    work = partial(run_unit, make_adapter, level, seed)
    if ordered_map is None and jobs <= 1:
        for unit in units:
            yield from work(unit)
        return
    order = schedule(units) if jobs > 1 else list(range(len(units)))  # one worker: nobody waits
    todo = [units[i] for i in order]
    done: dict[int, list[CheckResult]] = {}
    shown = 0
    with contextlib.ExitStack() as stack:
        if ordered_map is None:
            ordered_map = stack.enter_context(ProcessPoolExecutor(max_workers=jobs)).map
        for i, results in zip(order, ordered_map(work, todo), strict=True):
            done[i] = results
            while shown in done:
                yield from done.pop(shown)
                shown += 1


def count_checks(games: Sequence[str] | None, level: Level) -> int:
    """How many checks :func:`run_checks_in_parallel` gives for these games at this level, found
    without running any (a fraction of a second: the proofs are listed by name only), so that a
    report can say "check k of n" from the first check on."""
    return sum(len(u.checks) for u in plan_units(games, level))


# -- replay -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Replay:
    """The result of replaying a counterexample: ``reproduced`` if the failure shows again."""

    reproduced: bool
    message: str


def _options(cx: Mapping[str, object]) -> dict[str, str]:
    opts = cx.get("options", {})
    if not isinstance(opts, Mapping):
        raise ValueError("counterexample: 'options' must be an object")
    return {str(k): str(v) for k, v in opts.items()}


def _ints(cx: Mapping[str, object], key: str) -> list[int] | None:
    v = cx.get(key)
    if v is None:
        return None
    if not isinstance(v, list) or not all(isinstance(x, int) for x in v):
        raise ValueError(f"counterexample: {key!r} must be a list of integers")
    return [x for x in v if isinstance(x, int)]


def replay(adapter: EngineAdapter, cx: Mapping[str, object]) -> Replay:
    """Reproduce a counterexample (see the module docstring) against an implementation; raises
    ``ValueError`` on a malformed one."""
    kind = cx.get("kind", "play")
    if kind == "model":
        return Replay(True, "a counterexample to a proof about the spec's model: " + ", ".join(
            f"{k}={v}" for k, v in cx.items() if k not in ("kind", "game")))
    game = cx.get("game")
    if not isinstance(game, str):
        raise ValueError("counterexample: 'game' must be a string")
    opts = _options(cx)
    if kind == "play":
        seed = cx.get("seed", 0)
        actions = cx.get("actions", [])
        if not isinstance(seed, int) or not isinstance(actions, list):
            raise ValueError("counterexample: 'seed' must be an integer and 'actions' a list")
        full = spec_for(game).resolve(None, opts)
        if "check" in cx:  # a property of a proof, checked on play
            bad = replay_check(adapter, cx, full)
            return Replay(bad is not None, bad or f"{cx['check']} holds after {len(actions)} actions")
        st = Stepper(adapter, game, full, seed, _ints(cx, "deck"))
        v = st.start()
        for a in actions:
            if v is not None:
                break
            v = st.step(str(a))
        if v is None:
            return Replay(False, f"no invariant broken after {len(actions)} actions")
        if v.invariant == "replay":
            return Replay(False, f"the action list does not apply here: {v.message}")
        return Replay(True, f"{v.invariant}: {v.message} (after {len(v.actions)} actions)")
    if kind == "score":
        pile = _ints(cx, "pile") or []
        month = cx.get("month")
        if month is not None and not isinstance(month, int):
            raise ValueError("counterexample: 'month' must be an integer or null")
        full = spec_for(game).resolve(None, opts)
        got, _ = adapter.score_pile(game, full, pile, month)
        shown = ", ".join(f"{y.id} {y.points}" for y in got) or "nothing"
        exp = cx.get("expected")
        if not isinstance(exp, list):
            return Replay(True, f"pile {pile} scores {shown} (no expected scoring recorded)")
        want = sorted(ScoredYaku(str(e[0]), int(e[1])) for e in exp if isinstance(e, list) and len(e) == 2)
        if sorted(got) == want:
            return Replay(False, f"pile {pile} scores {shown}, as the spec says")
        return Replay(True, f"pile {pile} scores {shown}; the spec says "
                      f"{', '.join(f'{y.id} {y.points}' for y in want) or 'nothing'}")
    raise ValueError(f"counterexample: unknown kind {kind!r}")
