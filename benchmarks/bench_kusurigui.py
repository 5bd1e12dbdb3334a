"""Kusuri-gui throughput, single core: random rounds/s, random rounds/s with every invariant checked,
and pile scorings/s.

Run: ``uv run python benchmarks/bench_kusurigui.py``. A measurement, never a test.
"""

from __future__ import annotations

import time

from _bench import rounds_per_second, scorings_per_second
from hanafuda.adapter import ReferenceAdapter
from hanafuda.games.kusurigui import GAME, score_mask
from hanafuda_spec.cards import KUSURIGUI
from hanafuda_spec.games.kusurigui import PROFILE, SPEC
from hanafuda_spec.invariants import run_random
from hanafuda_spec.shuffle import SplitMix64


def checked_rounds_per_second(seconds: float = 3.0) -> float:
    """Random play through the spec's harness: every invariant after every action."""
    values = SPEC.resolve()
    rng = SplitMix64(2)
    rounds = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        rep = run_random(ReferenceAdapter(), PROFILE, values, rng.next(), rng.next())
        if rep.violations:
            raise AssertionError(str(rep.violations[0]))
        rounds += rep.rounds
    return rounds / (time.process_time() - t0)


if __name__ == "__main__":
    rules = GAME.rules()
    print(f"kusurigui random rounds/s: {rounds_per_second(GAME, rules):,.0f}")
    print(f"kusurigui checked rounds/s: {checked_rounds_per_second():,.0f}")
    print(f"kusurigui pile scorings/s: {scorings_per_second(lambda p: score_mask(rules, p), KUSURIGUI.cards):,.0f}")
