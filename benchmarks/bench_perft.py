"""Move generation, single core: perft nodes/s for every game (``hanafuda.perft``).

Run: ``uv run python benchmarks/bench_perft.py``. A measurement, never a test. Nodes are the leaf
sequences counted (bulk-counted at the last ply, as chess engines count them); applied actions are
the interior moves actually made, which is where the time goes.
"""

from __future__ import annotations

import time

from hanafuda.perft import perft
from hanafuda.registry import available

#: Per game, the depth of a count that runs for a second or more from seed 1.
DEPTHS = {"koikoi": 6, "kusurigui": 12, "kujuroku": 7, "musashino": 6, "kekoro": 6}

if __name__ == "__main__":
    for g in available():
        depth = DEPTHS[g.spec.key]
        rules = g.rules()
        applied = sum(perft(g, rules, 1, d).nodes for d in range(1, depth))  # the interior nodes
        t0 = time.process_time()
        count = perft(g, rules, 1, depth)
        dt = time.process_time() - t0
        print(f"{g.spec.key:10} depth {depth:2}: {count.nodes:>10,} nodes in {dt:5.2f} s = {count.nodes / dt:>10,.0f} "
              f"nodes/s ({applied / dt:,.0f} actions applied/s)")
