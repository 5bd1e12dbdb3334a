"""Kekoro throughput, single core: random rounds/s, random games/s and pile scorings/s.

Run: ``uv run python benchmarks/bench_kekoro.py``. A measurement, never a test.
Targets (as for Koi-Koi, issue 2): 10,000 random rounds/s and 1,000,000 pile scorings/s.
A scoring here is the 26 yaku plus the card values of one pile.
"""

from __future__ import annotations

import time

from hanafuda.engine import Match
from hanafuda.games.kekoro import GAME
from hanafuda_spec.cards import HANAFUDA
from hanafuda_spec.shuffle import SplitMix64, shuffled


def rounds_and_games_per_second(seconds: float = 3.0) -> tuple[float, float]:
    rules = GAME.rules()
    rng = SplitMix64(1)
    rounds = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        m = Match.start(GAME, rules, rng.next())
        while not m.over:
            legal = m.legal_actions()
            m = m.apply(legal[rng.below(len(legal))])
        rounds += len(m.info.history)
        games += 1
    dt = time.perf_counter() - t0
    return rounds / dt, games / dt


def scorings_per_second(seconds: float = 3.0) -> float:
    scorer = GAME.rules().scorer
    rng = SplitMix64(2)
    piles = []
    for _ in range(1000):
        cards = shuffled(HANAFUDA.cards, rng)[: 4 + rng.below(20)]
        m = 0
        for c in cards:
            m |= c.mask
        piles.append(m)
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for p in piles:
            scorer.yaku_of(p)
            scorer.card_points(p)
        n += len(piles)
    return n / (time.perf_counter() - t0)


if __name__ == "__main__":
    rps, gps = rounds_and_games_per_second()
    print(f"kekoro random rounds/s: {rps:,.0f} ({gps:,.0f} games/s)")
    print(f"kekoro pile scorings/s: {scorings_per_second():,.0f}")
