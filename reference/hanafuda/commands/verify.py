"""``hanafuda verify``: run every invariant check and proof of the spec against the reference."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING

from hanafuda_spec.games import GAME_KEYS

from hanafuda.adapter import ReferenceAdapter
from hanafuda.cli import UsageError
from hanafuda.commands._common import (
    GAMES_HELP,
    add_command,
    add_jobs_argument,
    game_name,
    parse_json,
    read_json,
    seed,
)
from hanafuda.parallel import Executor, add_cluster_argument, executor_for
from hanafuda.progress import add_progress_argument, progress
from hanafuda.registry import game

if TYPE_CHECKING:  # the verifier itself (Hypothesis, z3: about 0.3 s) is imported when a check runs,
    # not when the command line is built for every other command
    from hanafuda_spec.verify import CheckResult, Level


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "verify", help="run every invariant check and proof (the main job)",
                    description="Check the reference against the executable spec: invariants after every action "
                    "of random games under every ruleset and option value, and the z3 proofs. One line per "
                    "check as it finishes. The thorough default takes about four minutes on two idle cores (8 minutes "
                    "of CPU time when last measured, so longer on a busy machine); --quick about a minute. Exit 1 "
                    "if a check fails.",
                    examples=["hanafuda verify --quick", "hanafuda verify --game kekoro",
                              "hanafuda verify --json > report.json",
                              "hanafuda verify --replay counterexample.json"])
    p.add_argument("--game", "-g", action="append", metavar="GAME", type=game_name,
                   help="only this game (repeatable); " + GAMES_HELP + "; default: every game")
    p.add_argument("--quick", action="store_true", help="fewer examples (for CI, about a minute)")
    p.add_argument("--seed", type=seed, default=20261121, metavar="S",
                   help="seed for the random games, 0 to 2**64-1")
    p.add_argument("--json", action="store_true", help="machine-readable output (the report 'rulebook --report' reads)")
    p.add_argument("--replay", metavar="FILE_OR_JSON",
                   help="reproduce a counterexample printed by a failed run (a file, '-' for stdin, or the JSON "
                   "object itself, starting with '{'); exits 1 if the failure shows again")
    add_jobs_argument(p, same="every check and its result (not its time)")
    add_cluster_argument(p)
    add_progress_argument(p)
    p.set_defaults(run=run)


def _load(arg: str) -> dict[str, object]:
    stripped = arg.strip()
    if arg != "-" and not os.path.exists(arg) and (stripped.startswith(("{", "[", '"')) or stripped[:1].isdigit()
                                                   or stripped in ("null", "true", "false")):
        obj = parse_json(arg, "(the JSON given)", "--replay")
    else:
        obj = read_json(arg, "--replay")
    if isinstance(obj, dict) and "counterexample" in obj and isinstance(obj["counterexample"], dict):
        obj = obj["counterexample"]  # a check from --json output
    if not isinstance(obj, dict):
        raise UsageError(f"--replay: a counterexample is a JSON object, not {_kind(obj)}")
    return obj


def _kind(v: object) -> str:
    return {list: "a list", str: "a string", bool: "a boolean", int: "a number", float: "a number",
            type(None): "null"}.get(type(v), type(v).__name__)


def run_replay(args: argparse.Namespace) -> int:
    from hanafuda_spec.verify import replay

    cx = _load(args.replay)
    try:
        r = replay(ReferenceAdapter(), cx)
    except (ValueError, KeyError, TypeError) as e:
        raise UsageError(f"--replay: cannot replay this counterexample: {e}") from None
    if args.json:
        print(json.dumps({"reproduced": r.reproduced, "message": r.message}))
    else:
        print(("reproduced: " if r.reproduced else "not reproduced: ") + r.message)
    return 1 if r.reproduced else 0


def _amount(r: CheckResult) -> str:
    """A check's kind and figures: ``sampled 60 in 1.2s``, ``proof 0.12s``, ``bounded ≤40 0.12s``,
    ``report 0.12s``."""
    if r.kind == "sampled":
        return f"sampled {r.examples} in {r.seconds:.1f}s"
    if r.kind == "bounded":
        return f"bounded ≤{r.bound} {r.seconds:.2f}s"
    return f"{r.kind} {r.seconds:.2f}s"


def _print_check(r: CheckResult, number: str) -> None:
    """One check's lines: ``[k/n]``, the game, the check, its kind, figures and result, then what
    failed and the cases a proof found."""
    amount = _amount(r)
    name = r.check
    if len(name) > 64:  # the whole name on its own line, the figures under it
        print(f"{number} {r.game:10} {name}")
        name = ""
        number = " " * len(number)
    print(f"{number} {r.game:10} {name:64} {amount:>22}  {'ok' if r.ok else 'FAIL'}")
    if not r.ok:
        print(f"    {r.detail}")
        if r.counterexample:
            print(f"    counterexample (hanafuda verify --replay '<json>'): {json.dumps(r.counterexample)}")
    if r.cases:
        for text, gap in r.cases:
            print(f"    case: {text} [{gap or 'OPEN: no recorded decision'}]")
    sys.stdout.flush()


def run(args: argparse.Namespace) -> int:
    if args.replay is not None:
        return run_replay(args)
    games = None
    if args.game:
        games = [game(g).spec.key for g in args.game]
    from hanafuda_spec.verify import QUICK, THOROUGH

    level = QUICK if args.quick else THOROUGH
    with executor_for(args) as ex:
        return _run(args, games, level, ex)


def _run(args: argparse.Namespace, games: list[str] | None, level: Level, ex: Executor) -> int:
    from hanafuda_spec.verify import count_checks, run_checks_in_parallel, summary_line

    results: list[CheckResult] = []
    total = count_checks(games, level)
    k = f"[{{:>{len(str(total))}}}/{total}]"  # check k of n
    if not args.json:
        print(f"{'':{len(k.format(total))}} {'game':10} {'check':64} {'kind, examples/time':>22}  result")
    with progress("verify", total, unit="check", no_progress=args.no_progress) as bar:
        for r in run_checks_in_parallel(ReferenceAdapter, games, level, args.seed, ex.workers, ex.map):
            results.append(r)
            if not args.json:
                with bar.printing():
                    _print_check(r, k.format(len(results)))
            bar(len(results), total)
    if not results:
        raise UsageError(f"no checks to run (games: {', '.join(games or GAME_KEYS)})")
    failed = [r for r in results if not r.ok]
    if args.json:
        print(json.dumps({"ok": not failed, "level": level.name, "seed": args.seed,
                          "checks": [r.to_json() for r in results]}, indent=2))
    else:
        print(summary_line((r.kind, r.ok) for r in results))
    return 1 if failed else 0
