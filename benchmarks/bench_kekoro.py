"""Kekoro throughput, single core: random rounds/s, random games/s and pile scorings/s.

Run: ``uv run python benchmarks/bench_kekoro.py``. A measurement, never a test.
Targets (as for Koi-Koi, issue 2): 10,000 random rounds/s and 1,000,000 pile scorings/s.
A scoring here is the 26 yaku plus the card values of one pile.
"""

from __future__ import annotations

from _bench import rounds_and_games_per_second, scorings_per_second
from hanafuda.games.kekoro import GAME
from hanafuda_spec.cards import HANAFUDA

if __name__ == "__main__":
    rps, gps = rounds_and_games_per_second(GAME, GAME.rules())
    print(f"kekoro random rounds/s: {rps:,.0f} ({gps:,.0f} games/s)")
    scorer = GAME.rules().scorer
    rate = scorings_per_second(lambda p: (scorer.yaku_of(p), scorer.card_points(p)), HANAFUDA.cards)
    print(f"kekoro pile scorings/s: {rate:,.0f}")
