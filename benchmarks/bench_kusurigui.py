"""Kusuri-gui throughput, single core: random rounds/s, random rounds/s with every invariant checked,
and pile scorings/s.

Run: ``uv run python benchmarks/bench_kusurigui.py``. A measurement, never a test.
"""

from __future__ import annotations

import time

from hanafuda.adapter import ReferenceAdapter
from hanafuda.engine import Match
from hanafuda.games.kusurigui import GAME, score_mask
from hanafuda_spec.cards import KUSURIGUI
from hanafuda_spec.games.kusurigui import PROFILE, SPEC
from hanafuda_spec.invariants import run_random
from hanafuda_spec.shuffle import SplitMix64, shuffled


def rounds_per_second(seconds: float = 3.0) -> float:
    rules = GAME.rules()
    rng = SplitMix64(1)
    rounds = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        m = Match.start(GAME, rules, rng.next())
        while not m.over:
            legal = m.legal_actions()
            m = m.apply(legal[rng.below(len(legal))])
        rounds += len(m.info.history)
    return rounds / (time.perf_counter() - t0)


def checked_rounds_per_second(seconds: float = 3.0) -> float:
    """Random play through the spec's harness: every invariant after every action."""
    values = SPEC.resolve()
    rng = SplitMix64(2)
    rounds = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        rep = run_random(ReferenceAdapter(), PROFILE, values, rng.next(), rng.next())
        if rep.violations:
            raise AssertionError(str(rep.violations[0]))
        rounds += rep.rounds
    return rounds / (time.perf_counter() - t0)


def scorings_per_second(seconds: float = 3.0) -> float:
    rules = GAME.rules()
    rng = SplitMix64(3)
    piles = []
    for _ in range(1000):
        cards = shuffled(KUSURIGUI.cards, rng)[: 4 + rng.below(20)]
        m = 0
        for c in cards:
            m |= c.mask
        piles.append(m)
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for p in piles:
            score_mask(rules, p)
        n += len(piles)
    return n / (time.perf_counter() - t0)


if __name__ == "__main__":
    print(f"kusurigui random rounds/s: {rounds_per_second():,.0f}")
    print(f"kusurigui checked rounds/s: {checked_rounds_per_second():,.0f}")
    print(f"kusurigui pile scorings/s: {scorings_per_second():,.0f}")
