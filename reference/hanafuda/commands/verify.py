"""``hanafuda verify``: run every invariant check and proof of the spec against the reference."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from hanafuda_spec.games import GAME_KEYS
from hanafuda_spec.verify import QUICK, THOROUGH, CheckResult, replay, run_checks

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
    p.add_argument("--replay", metavar="FILE_OR_JSON",
                   help="reproduce a counterexample printed by a failed run (a file, '-' for stdin, or the JSON "
                   "itself); exits 1 if the failure shows again")
    p.set_defaults(run=run)


def _load(arg: str) -> dict[str, object]:
    text = arg
    if arg == "-":
        text = sys.stdin.read()
    elif not arg.lstrip().startswith("{"):
        try:
            text = Path(arg).read_text(encoding="utf-8")
        except OSError as e:
            raise UsageError(f"cannot read counterexample file {arg!r}: {e.strerror}") from None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(f"counterexample is not valid JSON: {e.msg} (line {e.lineno})") from None
    if isinstance(obj, dict) and "counterexample" in obj and isinstance(obj["counterexample"], dict):
        obj = obj["counterexample"]  # a check from --json output
    if not isinstance(obj, dict):
        raise UsageError("counterexample must be a JSON object")
    return obj


def run_replay(args: argparse.Namespace) -> int:
    cx = _load(args.replay)
    try:
        r = replay(ReferenceAdapter(), cx)
    except (ValueError, KeyError) as e:
        raise UsageError(f"cannot replay: {e}") from None
    if args.json:
        print(json.dumps({"reproduced": r.reproduced, "message": r.message}))
    else:
        print(("reproduced: " if r.reproduced else "not reproduced: ") + r.message)
    return 1 if r.reproduced else 0


def run(args: argparse.Namespace) -> int:
    if args.replay:
        return run_replay(args)
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
            name = r.check
            if len(name) > 64:  # the whole name on its own line, the figures under it
                print(f"{r.game:10} {name}")
                name = ""
            print(f"{r.game:10} {name:64} {amount:>18}  {'ok' if r.ok else 'FAIL'}")
            if not r.ok:
                print(f"    {r.detail}")
                if r.counterexample:
                    print(f"    counterexample (hanafuda verify --replay '<json>'): {json.dumps(r.counterexample)}")
            if r.cases:
                for text, gap in r.cases:
                    print(f"    case: {text} [{gap or 'OPEN: no recorded decision'}]")
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
