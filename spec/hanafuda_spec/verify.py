"""``verify``: every invariant on random games of every ruleset, and every proof, in one report.

It runs against any :class:`~hanafuda_spec.adapter.EngineAdapter`; ``hanafuda verify`` passes
the reference's. A check is a named unit with a result: examples run (random matches and
Hypothesis state machines, with the invariants after every action) or a proof (z3, from
:mod:`hanafuda_spec.proofs`), each with its time. A failed check carries a counterexample that
:func:`replay` reproduces (``hanafuda verify --replay``):

* ``{"kind": "play", "game", "options", "seed", "deck"?, "actions"}`` – a match (from a stacked
  first deal if ``deck`` is given) and the actions up to the broken invariant;
* ``{"kind": "score", "game", "options", "month", "pile", "expected"?}`` – a capture pile the
  reference scores differently from the spec;
* ``{"kind": "model", ...}`` – a counterexample of a proof about the spec's own model (the values
  of its variables); there is no implementation to replay it against.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Protocol, TypeVar

from hanafuda_spec.adapter import EngineAdapter
from hanafuda_spec.catalogue import OptionError
from hanafuda_spec.games import GAME_KEYS, profile_for, spec_for
from hanafuda_spec.invariants import Violation, run_random
from hanafuda_spec.machines import Stepper, counterexample, run_machine
from hanafuda_spec.proofs import proof_check_names, proof_checks, replay_check
from hanafuda_spec.shuffle import SplitMix64
from hanafuda_spec.yaku import ScoredYaku

__all__ = ["PARTS", "QUICK", "THOROUGH", "CheckResult", "Level", "Replay", "count_checks", "option_sets", "replay",
           "run_checks", "run_checks_in_parallel", "run_part"]


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
    game: str
    check: str
    kind: str  # "examples" or "proof"
    examples: int
    seconds: float
    ok: bool
    detail: str = ""
    counterexample: Mapping[str, object] = field(default_factory=dict)
    #: Situations a proof found, each with the gap id of the decision that closes it (None: open).
    cases: tuple[tuple[str, str | None], ...] = ()

    def to_json(self) -> dict[str, object]:
        return {"game": self.game, "check": self.check, "kind": self.kind, "examples": self.examples,
                "seconds": round(self.seconds, 3), "ok": self.ok, "detail": self.detail,
                "counterexample": dict(self.counterexample),
                "cases": [{"text": t, "gap": g} for t, g in self.cases]}


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


def _violation_json(v: Violation) -> dict[str, object]:
    return counterexample(v)


def random_play_checks(adapter: EngineAdapter, game: str, level: Level, seed: int) -> Iterator[CheckResult]:
    profile = profile_for(game)
    master = SplitMix64(seed)
    for label, opts in option_sets(game):
        t0 = time.perf_counter()
        actions = 0
        bad: Violation | None = None
        n = level.matches
        for _ in range(n):
            rep = run_random(adapter, profile, opts, master.next(), master.next())
            actions += rep.actions
            if rep.violations:
                bad = rep.violations[0]
                break
        dt = time.perf_counter() - t0
        if bad is None:
            yield CheckResult(game, f"invariants, random play, {label}", "examples", n, dt, True,
                              f"{actions} actions")
        else:
            yield CheckResult(game, f"invariants, random play, {label}", "examples", n, dt, False,
                              f"{bad.invariant}: {bad.message}", _violation_json(bad))


#: Option sets the state machines run besides the default rules (rare rules worth a machine of their own).
MACHINE_OPTIONS: dict[str, tuple[dict[str, str], ...]] = {
    "koikoi": ({"field_teyaku": "dealer-captures", "hand_size": "10"}, {"teyaku": "misdeal"}),
    "kujuroku": ({"jizo": "on"},),
    "musashino": ({"players": "4"},),
}


def machine_checks(adapter: EngineAdapter, game: str, level: Level) -> Iterator[CheckResult]:
    """The game's Hypothesis state machine on the default rules and :data:`MACHINE_OPTIONS`
    (stacked decks included)."""
    spec = spec_for(game)
    for extra in ({}, *MACHINE_OPTIONS.get(game, ())):
        t0 = time.perf_counter()
        opts = spec.resolve(None, extra)
        cx = run_machine(lambda: adapter, game, opts, level.machine_examples)
        dt = time.perf_counter() - t0
        label = ", ".join(f"{k}={v}" for k, v in extra.items()) or "default rules"
        name = f"state machine, stacked decks, {label}"
        if cx is None:
            yield CheckResult(game, name, "examples", level.machine_examples, dt, True)
        else:
            yield CheckResult(game, name, "examples", level.machine_examples, dt, False,
                              f"{cx.get('invariant')}: {cx.get('message')}", cx)


def z3_checks(adapter: EngineAdapter, game: str, level: Level) -> Iterator[CheckResult]:
    """The game's proofs (:mod:`hanafuda_spec.proofs`)."""
    for o in proof_checks(adapter, game, level.quick):
        yield CheckResult(o.game, o.check, "proof", o.examples, o.seconds, o.ok, o.detail, o.counterexample,
                          tuple((c.text, c.gap) for c in o.cases))


def run_checks(adapter: EngineAdapter, games: Sequence[str] | None, level: Level, seed: int) -> Iterator[CheckResult]:
    """Every check for every game (or those named), in this process, as results stream in."""
    return run_checks_in_parallel(lambda: adapter, games, level, seed, 1)


#: The parts of a game's checks, each run as one unit by :func:`run_checks_in_parallel`.
PARTS = ("random play", "state machines", "proofs")


def run_part(make_adapter: Callable[[], EngineAdapter], game: str, part: str, level: Level,
             seed: int) -> list[CheckResult]:
    """One part of one game's checks (what a worker process runs), with an adapter of its own."""
    adapter = make_adapter()
    if part == "random play":
        return list(random_play_checks(adapter, game, level, seed))
    if part == "state machines":
        return list(machine_checks(adapter, game, level))
    return list(z3_checks(adapter, game, level))


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
    times, with each game's random play, state machines and proofs run as units by ``jobs``
    worker processes, or by ``ordered_map`` when it is given (``make_adapter`` must be picklable,
    a class for instance)."""
    units: list[tuple[str, str]] = []
    for g in games or GAME_KEYS:
        try:
            profile_for(g)
        except ModuleNotFoundError:
            continue
        units.extend((g, part) for part in PARTS)
    work = partial(_run_unit, make_adapter, level, seed)
    if ordered_map is not None:
        for results in ordered_map(work, units):
            yield from results
        return
    if jobs <= 1:
        for unit in units:
            yield from work(unit)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for results in pool.map(work, units):
            yield from results


def _run_unit(make_adapter: Callable[[], EngineAdapter], level: Level, seed: int,
              unit: tuple[str, str]) -> list[CheckResult]:
    return run_part(make_adapter, unit[0], unit[1], level, seed)


def count_checks(games: Sequence[str] | None, level: Level) -> int:
    """How many checks :func:`run_checks_in_parallel` gives for these games at this level, found
    without running any (a fraction of a second: the proofs are listed by name only), so that a
    report can say "check k of n" from the first check on."""
    n = 0
    for g in games or GAME_KEYS:
        try:
            profile_for(g)
        except ModuleNotFoundError:
            continue
        n += len(option_sets(g)) + 1 + len(MACHINE_OPTIONS.get(g, ()))
        n += len(proof_check_names(g, level.quick))
    return n


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
