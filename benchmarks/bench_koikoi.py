"""Koi-Koi throughput, single core: random rounds/s and pile scorings/s.

Run: ``uv run python benchmarks/bench_koikoi.py``. A measurement, never a test.
Targets (issues 2 and 17): 10,000 random rounds/s and 1,000,000 pile scorings/s through the public
scorer (card lists in, yaku out).
"""

from __future__ import annotations

from _bench import public_scorings_per_second, rounds_per_second, scorings_per_second
from hanafuda.games.koikoi import GAME, score_mask
from hanafuda_spec.cards import HANAFUDA

if __name__ == "__main__":
    rules = GAME.rules()
    print(f"koikoi random rounds/s: {rounds_per_second(GAME, rules):,.0f} (play_match, the fast rounds)")
    print(f"koikoi random rounds/s: {rounds_per_second(GAME, rules, reference=True):,.0f} (the Match.apply loop)")
    print(f"koikoi pile scorings/s: {scorings_per_second(lambda p: score_mask(rules, p, 3), HANAFUDA.cards):,.0f}"
          " (bit masks, month 3)")
    print(f"koikoi pile scorings/s: {public_scorings_per_second(GAME, rules, HANAFUDA.cards):,.0f}"
          " (GAME.score of card lists)")
