"""Kujuroku throughput, single core: random rounds/s (41 and 42 cards) and pile scorings/s.

Run: ``uv run python benchmarks/bench_kujuroku.py``. A measurement, never a test.
"""

from __future__ import annotations

import time

from hanafuda.engine import Match
from hanafuda.games.kujuroku import GAME, score_mask
from hanafuda_spec.cards import DAINI
from hanafuda_spec.shuffle import SplitMix64, shuffled


def rounds_per_second(jizo: str, seconds: float = 3.0) -> float:
    rules = GAME.rules(None, {"jizo": jizo})
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


def scorings_per_second(seconds: float = 3.0) -> float:
    rules = GAME.rules()
    rng = SplitMix64(2)
    piles = []
    for _ in range(1000):
        m = 0
        for c in shuffled(DAINI.cards, rng)[: 4 + rng.below(16)]:
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
    print(f"kujuroku random rounds/s (41 cards): {rounds_per_second('off'):,.0f}")
    print(f"kujuroku random rounds/s (42 cards): {rounds_per_second('on'):,.0f}")
    print(f"kujuroku pile scorings/s: {scorings_per_second():,.0f}")
