"""A fixed workload for counting instructions (``valgrind --tool=callgrind``), the figure that stays the
same run after run where wall-clock timings on a shared two-core machine swing by a third.

``python benchmarks/workload.py GAME WHAT``, WHAT one of ``import`` (nothing: the baseline to subtract),
``play`` (200 random matches through ``play_match``), ``apply`` (100 through the public ``Match.apply``
loop) or ``validate`` (40 records made, then validated three times). See benchmarks/README.md for the
command that compares two checkouts.
"""

from __future__ import annotations

import io
import json
import sys

from hanafuda import engine
from hanafuda.engine import Match
from hanafuda.records import record_match, validate_stream
from hanafuda.registry import game
from hanafuda_spec.shuffle import SplitMix64


def main(key: str, what: str) -> None:
    g = game(key)
    rules = g.rules()
    rng = SplitMix64(1)
    if what == "play":
        for _ in range(200):
            engine.play_match(g, rules, rng.next(), lambda legal: legal[rng.below(len(legal))])
    elif what == "apply":
        for _ in range(100):
            m = Match.start(g, rules, rng.next())
            while not m.over:
                legal = m.legal_actions()
                m = m.apply(legal[rng.below(len(legal))])
    elif what == "validate":
        data = "".join(json.dumps(record_match(g, None, {}, s, s), separators=(",", ":")) + "\n"
                       for s in range(40)).encode()
        for _ in range(3):
            for rep in validate_stream(io.BytesIO(data)):
                assert rep.ok
    elif what != "import":
        raise SystemExit(f"unknown workload {what!r}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
