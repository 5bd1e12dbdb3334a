"""``hanafuda diagnose`` on corpora of deviant engines, one or more per game (issue 27's goal): each engine plays
with several deviations of its game's library at once; the script prints, per corpus, each planted
deviation, the count diagnose gives it, the truth (the rounds that fail under the engine's rules without
it), whether any other change was offered, the rounds left unexplained, and the CPU time of the
diagnosis; every count is of the rounds the records hold (a deal the rules would go on to play after a
record's last round is not one: the last round, which ends the match in the record, fails instead).
With ``--unseen`` the last deviation of each corpus is kept out of the candidates: its rounds should be
left unexplained (about its truth), with no other change offered for them.

    uv run python benchmarks/bench_diagnose.py [--games N] [--corpus NAME ...] [--unseen]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from hanafuda import deviations_other as other
from hanafuda.deviations import Deviation, deviant_rules, deviation, library
from hanafuda.diagnose import Loaded, candidates, diagnose, failing_rounds
from hanafuda.games.koikoi import KoiKoi, KoiKoiRules
from hanafuda.records import record_match, replay
from hanafuda.registry import game
from hanafuda_spec.records import parse_record

#: Per corpus: its game, the deviations planted together, the options the records are written under, and how
#: many times ``--games`` records it has (a deviation seen in few rounds needs more).
PLANTED: dict[str, tuple[str, tuple[tuple[str, dict[str, str]], ...], dict[str, str], int]] = {
    "koikoi": ("koikoi", (("two-takes-both", {}), ("call-before-draw", {}), ("dealer-alternates", {})),
               {"length": "3"}, 1),
    "kusurigui": ("kusurigui", (("dealer-alternates", {}), ("settle-winner-total", {}),
                                ("yaku-points", {"yaku": "chaff", "points": "2"})), {}, 1),
    "kujuroku": ("kujuroku", (("deal-passes-left", {}), ("card-points", {"of": "5", "points": "6"})), {}, 1),
    "kujuroku-capture": ("kujuroku", (("two-takes-both", {}), ("dealt-oni-alone", {}),
                                      ("jizo-keeps-oni-capture", {})), {"jizo": "on"}, 4),
    "kujuroku-dekiyaku": ("kujuroku", (("dekiyaku-points", {"yaku": "shi-yaku", "points": "5"}),
                                       ("dekiyaku-card-out", {"yaku": "danjou", "card": "0"}),
                                       ("dekiyaku-card-in", {"yaku": "san-yaku", "card": "10"})), {}, 2),
    "musashino": ("musashino", (("dealer-passes", {}), ("yaku-points", {"yaku": "three-brights", "points": "3"})),
                  {}, 1),
    "kekoro": ("kekoro", (("two-takes-both", {}), ("card-value", {"card": "11", "value": "5"}),
                          ("reversed-stock", {})), {}, 1),
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
    """The records' failing rounds (under their own rules) that fail under the engine's rules without
    ``left_out`` too (:func:`failing_rounds`): the failing rounds it explains."""
    n = 0
    for ld in records:
        values = game(key).spec.resolve(ld.rec.ruleset, dict(ld.rec.options))
        rep = replay(ld.rec, rules=_rules(key, values, [d for d in devs if d != left_out]), again=True)
        n += len(failing_rounds(rep, ld.rec).keys() & failing_rounds(replay(ld.rec, again=True), ld.rec).keys())
    return n


def _drawn(seed: int) -> dict[str, tuple[str, tuple[tuple[str, dict[str, str]], ...], dict[str, str], int]]:
    """One corpus per game: three deviations of different kinds of its library, drawn by ``seed``."""
    rng = random.Random(seed)
    out: dict[str, tuple[str, tuple[tuple[str, dict[str, str]], ...], dict[str, str], int]] = {}
    for key in ("koikoi", *other.GAMES):
        by_kind: dict[str, list[Deviation]] = {}
        for d in (library() if key == "koikoi" else other.library(key)):
            by_kind.setdefault(d.id, []).append(d)
        picked: list[tuple[str, dict[str, str]]] = []
        rules: set[str] = set()
        # kinds breaking different rules (of two dealer rules at once, the one checked first wins)
        for k in rng.sample(sorted(by_kind), len(by_kind)):
            d = rng.choice(by_kind[k])
            if d.rule not in rules and len(picked) < 3:
                picked.append((k, dict(d.parameters)))
                rules.add(d.rule)
        out[f"{key}-draw{seed}"] = (key, tuple(picked), {"length": "3"} if key == "koikoi" else {}, 1)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--corpus", action="append", choices=sorted(PLANTED), help="only these corpora (repeatable)")
    ap.add_argument("--draw", type=int, metavar="SEED", help="instead of the corpora above, one corpus per game "
                    "of three deviations breaking different rules drawn from its library by SEED (combinations "
                    "not chosen by hand)")
    ap.add_argument("--unseen", action="store_true", help="diagnose each corpus again with its last planted "
                    "deviation kept out of the candidates (a mistake the library lacks)")
    args = ap.parse_args()
    corpora = PLANTED if args.draw is None else _drawn(args.draw)
    for name, (key, spec, options, times) in corpora.items():
        if args.corpus and name not in args.corpus:
            continue
        devs = tuple(deviation(k, **p) if key == "koikoi" else other.deviation(key, k, **p) for k, p in spec)
        eng = _engine(key, devs)
        records = []
        for seed in range(args.games * times):
            rec, _ = parse_record(record_match(eng, None, dict(options), seed=seed, policy_seed=seed))
            assert rec is not None
            records.append(Loaded(key, seed + 1, rec))
        truth = {d: _truth(key, records, devs, d) for d in devs}
        unseen = devs[-1] if args.unseen else None
        pool = [c for c in candidates(key) if c.deviation != unseen] if unseen is not None else None
        t = time.process_time()
        found = diagnose(records, pool)
        cpu = time.process_time() - t
        named = {e.candidate.deviation: len(e.explains) for e in found.explanations}
        rows = [{"deviation": str(d), "rule": d.rule, "explains": named.get(d), "truth": truth[d]}
                for d in devs if d != unseen]
        out: dict[str, Any] = {"corpus": name, "records": found.records, "rounds": found.rounds,
                               "failing": len(found.failing), "planted": rows,
                               "others_offered": [str(e.candidate.deviation or e.candidate.id)
                                                  for e in found.explanations if e.candidate.deviation not in devs],
                               "unexplained": len(found.unexplained)}
        if unseen is not None:
            out["unseen"] = {"deviation": str(unseen), "truth": truth[unseen]}
        print(json.dumps({**out, "replays": found.replays, "cpu_s": round(cpu, 1)}))


if __name__ == "__main__":
    main()
