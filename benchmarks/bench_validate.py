"""Record validation throughput, single core: records/s and actions/s for every game.

Run: ``uv run python benchmarks/bench_validate.py``. A measurement, never a test.
Targets: at least 50,000 actions/s (issue 9), 150,000 per core (issue 17). The records are
written first (not timed), then parsed from JSON Lines and replayed through the reference (timed),
as ``hanafuda validate`` does. Times are CPU seconds of this process.
"""

from __future__ import annotations

import io
import json
import time

from hanafuda.records import read_documents, record_match, validate_stream
from hanafuda.registry import available
from hanafuda_spec.records import parse_record
from hanafuda_spec.shuffle import SplitMix64


def parse_only(data: bytes, seconds: float = 1.0) -> float:
    """Actions/s of reading and parsing alone (JSON Lines -> GameRecord), without the replay."""
    n_actions = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        for src in read_documents(io.BytesIO(data)):
            rec, _ = parse_record(src.value)
            assert rec is not None
            n_actions += len(rec.actions)
    return n_actions / (time.process_time() - t0)


def random_play(key: str, seconds: float = 1.0) -> float:
    """Actions/s of the engine alone under random play (the Match.apply loop), for comparison."""
    from hanafuda.engine import Match
    from hanafuda.registry import game

    g = game(key)
    rules = g.rules()
    rng = SplitMix64(7)
    n = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        m = Match.start(g, rules, rng.next())
        while not m.over:
            legal = m.legal_actions()
            m = m.apply(legal[rng.below(len(legal))])
            n += 1
    return n / (time.process_time() - t0)


def measure(key: str, records: int = 40, seconds: float = 2.0) -> tuple[float, float, float]:
    from hanafuda.registry import game

    g = game(key)
    data = "".join(json.dumps(record_match(g, None, {}, s, s), separators=(",", ":")) + "\n"
                   for s in range(records)).encode()
    n_records = n_actions = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        for rep in validate_stream(io.BytesIO(data)):
            assert rep.ok, rep.problems[:1]
            n_records += 1
            n_actions += rep.actions
    dt = time.process_time() - t0
    return n_records / dt, n_actions / dt, parse_only(data)


def main() -> None:
    print("validation = read + parse + replay; parse = read + parse only; engine = random play alone")
    print(f"{'game':10} {'records/s':>10} {'actions/s':>10} {'parse a/s':>10} {'engine a/s':>10}")
    for g in available():
        rps, aps, pps = measure(g.spec.key)
        eps = random_play(g.spec.key)
        flag = "" if aps >= 150_000 else "  (below the 150,000 actions/s goal of issue 17)"
        print(f"{g.spec.key:10} {rps:10.0f} {aps:10.0f} {pps:10.0f} {eps:10.0f}{flag}")


if __name__ == "__main__":
    main()
