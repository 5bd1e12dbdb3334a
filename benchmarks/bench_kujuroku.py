"""Kujuroku throughput, single core: random rounds/s (41 and 42 cards) and pile scorings/s.

Run: ``uv run python benchmarks/bench_kujuroku.py``. A measurement, never a test.
"""

from __future__ import annotations

from _bench import rounds_per_second, scorings_per_second
from hanafuda.games.kujuroku import GAME, score_mask
from hanafuda_spec.cards import DAINI

if __name__ == "__main__":
    for jizo, n in (("off", 41), ("on", 42)):
        print(f"kujuroku random rounds/s ({n} cards): {rounds_per_second(GAME, GAME.rules(None, {'jizo': jizo})):,.0f}")
    rules = GAME.rules()
    rate = scorings_per_second(lambda p: score_mask(rules, p), DAINI.cards, largest=20)
    print(f"kujuroku pile scorings/s: {rate:,.0f}")
