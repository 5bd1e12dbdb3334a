"""``hanafuda diagnose`` on corpora of deviant engines, one per game (issue 27's goal): each engine plays
with several deviations of its game's library at once; the script prints, per game, each planted
deviation, the count diagnose gives it, the truth (the rounds that fail under the engine's rules without
it), whether any other change was offered, the rounds left unexplained, and the CPU time of the
diagnosis; every count is of the rounds the records hold (a deal the rules would go on to play after a
record's last round is not one: the last round, which ends the match in the record, fails instead).

    uv run python benchmarks/bench_diagnose.py [--games N] [--game GAME ...]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from hanafuda import deviations_other as other
from hanafuda.deviations import Deviation, deviant_rules, deviation
from hanafuda.diagnose import Loaded, diagnose, failing_rounds
from hanafuda.games.koikoi import KoiKoi, KoiKoiRules
from hanafuda.records import record_match, replay
from hanafuda.registry import game
from hanafuda_spec.records import parse_record

#: Per game: the deviations planted together, and the options the records are written under.
PLANTED: dict[str, tuple[tuple[tuple[str, dict[str, str]], ...], dict[str, str]]] = {
    "koikoi": ((("two-takes-both", {}), ("call-before-draw", {}), ("dealer-alternates", {})), {"length": "3"}),
    "kusurigui": ((("dealer-alternates", {}), ("settle-winner-total", {}), ("yaku-points", {"yaku": "chaff",
                                                                                          "points": "2"})), {}),
    "kujuroku": ((("deal-passes-left", {}), ("card-points", {"of": "5", "points": "6"})), {}),
    "musashino": ((("dealer-passes", {}), ("yaku-points", {"yaku": "three-brights", "points": "3"})), {}),
    "kekoro": ((("two-takes-both", {}), ("card-value", {"card": "11", "value": "5"}), ("reversed-stock", {})), {}),
}


def _rules(key: str, values: Mapping[str, str], devs: Sequence[Deviation]) -> Any:
    return deviant_rules(values, devs) if key == "koikoi" else other.deviant_rules(key, values, devs)


def _engine(key: str, devs: Sequence[Deviation]) -> Any:
    base = KoiKoi if key == "koikoi" else type(other.GAMES[key])

    class Deviant(base):  # type: ignore[valid-type, misc]
        def make_rules(self, values: Mapping[str, str]) -> KoiKoiRules:
            return _rules(key, values, devs)  # type: ignore[no-any-return]

    return Deviant()


def _truth(key: str, records: list[Loaded], devs: Sequence[Deviation], left_out: Deviation) -> int:
    """The records' rounds that fail under the engine's rules without ``left_out`` (:func:`failing_rounds`)."""
    n = 0
    for ld in records:
        values = game(key).spec.resolve(ld.rec.ruleset, dict(ld.rec.options))
        rep = replay(ld.rec, rules=_rules(key, values, [d for d in devs if d != left_out]), again=True)
        n += len(failing_rounds(rep, ld.rec))
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--game", action="append", choices=sorted(PLANTED), help="only these games (repeatable)")
    args = ap.parse_args()
    for key, (spec, options) in PLANTED.items():
        if args.game and key not in args.game:
            continue
        devs = tuple(deviation(k, **p) if key == "koikoi" else other.deviation(key, k, **p) for k, p in spec)
        eng = _engine(key, devs)
        records = []
        for seed in range(args.games):
            rec, _ = parse_record(record_match(eng, None, dict(options), seed=seed, policy_seed=seed))
            assert rec is not None
            records.append(Loaded(key, seed + 1, rec))
        t = time.process_time()
        found = diagnose(records)
        cpu = time.process_time() - t
        named = {e.candidate.deviation: len(e.explains) for e in found.explanations}
        rows = [{"deviation": str(d), "rule": d.rule, "explains": named.get(d),
                 "truth": _truth(key, records, devs, d)} for d in devs]
        print(json.dumps({"game": key, "records": found.records, "rounds": found.rounds,
                          "failing": len(found.failing), "planted": rows,
                          "others_offered": [str(e.candidate.deviation or e.candidate.id) for e in found.explanations
                                             if e.candidate.deviation not in devs],
                          "unexplained": len(found.unexplained), "replays": found.replays,
                          "cpu_s": round(cpu, 1)}))


if __name__ == "__main__":
    main()
