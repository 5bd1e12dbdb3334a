"""A fixed workload for counting instructions (``valgrind --tool=callgrind``), the figure that stays the
same run after run where wall-clock timings on a shared two-core machine swing by a third.

``python benchmarks/workload.py GAME WHAT [MATCHES]``, WHAT one of ``import`` (nothing: the baseline to
subtract), ``play`` (200 random matches through ``play_match``), ``apply`` (100 through the public
``Match.apply`` loop) or ``validate`` (40 records made, then validated three times); ``MATCHES`` changes the
number of matches of ``play`` and ``apply``, and the rounds and actions played are printed, so that the
difference of two runs (say 1 and 16 matches) divided by the difference of their rounds is the count of one
round, start-up cancelled. Run it with ``PYTHONHASHSEED=0`` after one run outside valgrind (which writes the
byte-code caches): see benchmarks/README.md for the commands.
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


def main(key: str, what: str, matches: int | None = None) -> None:
    g = game(key)
    rules = g.rules()
    rng = SplitMix64(1)
    rounds = actions = 0
    if what == "play":
        for _ in range(200 if matches is None else matches):
            info, deals = engine.play_match(g, rules, rng.next(), lambda legal: legal[rng.below(len(legal))])
            rounds, actions = rounds + len(info.history), actions + sum(map(len, deals))
    elif what == "apply":
        for _ in range(100 if matches is None else matches):
            m = Match.start(g, rules, rng.next())
            while not m.over:
                legal = m.legal_actions()
                m = m.apply(legal[rng.below(len(legal))])
                actions += 1
            rounds += len(m.info.history)
    elif what == "validate":
        data = "".join(json.dumps(record_match(g, None, {}, s, s), separators=(",", ":")) + "\n"
                       for s in range(40)).encode()
        for _ in range(3):
            for rep in validate_stream(io.BytesIO(data)):
                assert rep.ok
    elif what != "import":
        raise SystemExit(f"unknown workload {what!r}")
    if rounds:
        print(f"rounds {rounds} actions {actions}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else None)
