"""``hanafuda verify``: run every invariant check and proof of the spec against the reference."""

from __future__ import annotations

import argparse
import json
import sys

from hanafuda_spec.games import GAME_KEYS
from hanafuda_spec.verify import QUICK, THOROUGH, CheckResult, run_checks

from hanafuda.adapter import ReferenceAdapter
from hanafuda.cli import UsageError
from hanafuda.registry import game


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("verify", help="run every invariant check and proof (the main job)",
                       description="Check the reference against the executable spec: invariants after "
                       "every action of random games under every ruleset and option, and the z3 proofs.")
    p.add_argument("--game", "-g", action="append", metavar="G", help="only this game (repeatable)")
    p.add_argument("--quick", action="store_true", help="fewer examples (for CI, about a minute)")
    p.add_argument("--seed", type=int, default=20261121, help="seed for the random games")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    games = None
    if args.game:
        games = [game(g).spec.key for g in args.game]
    level = QUICK if args.quick else THOROUGH
    results: list[CheckResult] = []
    if not args.json:
        print(f"{'game':10} {'check':64} {'examples/time':>18}  result")
    for r in run_checks(ReferenceAdapter(), games, level, args.seed):
        results.append(r)
        if not args.json:
            amount = f"{r.examples} in {r.seconds:.1f}s" if r.kind == "examples" else f"proof {r.seconds:.2f}s"
            print(f"{r.game:10} {r.check[:64]:64} {amount:>18}  {'ok' if r.ok else 'FAIL'}")
            if not r.ok:
                print(f"    {r.detail}")
                print(f"    counterexample: {json.dumps(r.counterexample)[:2000]}")
            sys.stdout.flush()
    if not results:
        raise UsageError(f"no checks to run (games: {', '.join(games or GAME_KEYS)})")
    failed = [r for r in results if not r.ok]
    if args.json:
        print(json.dumps({"ok": not failed, "level": level.name, "seed": args.seed,
                          "checks": [r.to_json() for r in results]}, indent=2))
    else:
        print(f"{len(results)} checks, {len(failed)} failed")
    return 1 if failed else 0
