"""Musashino-Bana throughput, single core: random rounds/s (for each deal configuration) and pile
scorings/s.

Run: ``uv run python benchmarks/bench_musashino.py``. A measurement, never a test.
"""

from __future__ import annotations

from _bench import rounds_per_second, scorings_per_second
from hanafuda.games.musashino import GAME, score_mask
from hanafuda_spec.cards import HANAFUDA
from hanafuda_spec.games.musashino import DEALS

if __name__ == "__main__":
    for players in DEALS:
        rate = rounds_per_second(GAME, GAME.rules(None, {"players": players}), 2.0)
        print(f"musashino random rounds/s (players={players}): {rate:,.0f}")
    rules = GAME.rules()
    print(f"musashino pile scorings/s: {scorings_per_second(lambda p: score_mask(rules, p), HANAFUDA.cards, 2.0):,.0f}")
