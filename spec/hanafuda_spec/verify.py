"""``verify``: every invariant on random games of every ruleset, and every proof, in one report.

It runs against any :class:`~hanafuda_spec.adapter.EngineAdapter`; ``hanafuda verify`` passes
the reference's. A check is a named unit with a result: examples run (random matches, with the
invariants after every action) or a proof (z3), each with its time.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from hanafuda_spec.adapter import EngineAdapter
from hanafuda_spec.games import GAME_KEYS, profile_for, spec_for
from hanafuda_spec.invariants import Violation, run_random
from hanafuda_spec.shuffle import SplitMix64

__all__ = ["CheckResult", "Level", "option_sets", "run_checks"]


@dataclass(frozen=True)
class Level:
    """How hard to try: matches per option set."""

    name: str
    matches: int


QUICK = Level("quick", 8)
THOROUGH = Level("thorough", 60)


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

    def to_json(self) -> dict[str, object]:
        return {"game": self.game, "check": self.check, "kind": self.kind, "examples": self.examples,
                "seconds": round(self.seconds, 3), "ok": self.ok, "detail": self.detail,
                "counterexample": dict(self.counterexample)}


def option_sets(game: str) -> list[tuple[str, dict[str, str]]]:
    """The option sets ``verify`` covers: every ruleset, then every non-default value of each
    option on the default ruleset."""
    spec = spec_for(game)
    out: list[tuple[str, dict[str, str]]] = []
    for rs in spec.rulesets:
        out.append((f"ruleset {rs.name}", spec.resolve(rs.name)))
    base = spec.resolve()
    for o in spec.options:
        for v in o.choices:
            if v != base[o.key]:
                out.append((f"{o.key}={v}", spec.resolve(None, {o.key: v})))
    return out


def _violation_json(v: Violation) -> dict[str, object]:
    return {"seed": v.seed, "policy_seed": v.policy_seed, "options": dict(v.options),
            "invariant": v.invariant, "message": v.message, "actions": list(v.actions)}


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


ProofSource = Callable[[str, Level], Iterator[CheckResult]]


def run_checks(adapter: EngineAdapter, games: Sequence[str] | None, level: Level, seed: int,
               extra: Sequence[ProofSource] = ()) -> Iterator[CheckResult]:
    """Every check for every game (or those named), as results stream in."""
    for g in games or GAME_KEYS:
        try:
            profile_for(g)
        except ModuleNotFoundError:
            continue
        yield from random_play_checks(adapter, g, level, seed)
        for src in extra:
            yield from src(g, level)
