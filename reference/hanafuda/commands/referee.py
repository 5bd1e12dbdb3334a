"""``hanafuda referee GAME --engine "CMD"``: referee an external engine against the reference."""

from __future__ import annotations

import argparse
import json
import sys

from hanafuda_spec.adapter import EngineAdapter
from hanafuda_spec.games import profile_for
from hanafuda_spec.invariants import Violation, run_random
from hanafuda_spec.referee import EngineError, ProcessEngine, RefereeReport, referee_match

from hanafuda.adapter import ReferenceAdapter
from hanafuda.cli import UsageError, parse_options
from hanafuda.commands._common import (
    GAMES_HELP,
    add_command,
    add_games_argument,
    add_rules_arguments,
    add_seed_argument,
    check_seed_range,
    game_name,
    nonempty,
    positive_seconds,
)
from hanafuda.registry import game


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "referee", examples=['hanafuda referee koikoi --engine "python examples/engine.py"',
                                           'hanafuda referee kekoro -e "./my-engine" --games 100 --json'],
                    help="play an external engine against the reference (JSON lines protocol)",
                    description="Start CMD and drive it over the hanafuda-referee/1 protocol (JSON lines on "
                    "stdin/stdout; see hanafuda_spec.referee) in lockstep with the reference: we deal from a "
                    "seed, the engine reports its legal actions, applies ours, reports positions, round "
                    "results and pile scores. Every disagreement is reported with a rule id. Exit 0 no "
                    "disagreement, 1 disagreements, 2 the engine is unusable.")
    p.add_argument("game", type=game_name, metavar="GAME", help=GAMES_HELP)
    p.add_argument("--engine", "-e", required=True, metavar="CMD", type=nonempty("engine command"),
                   help="the engine's command line")
    add_games_argument(p, 10, "matches to play")
    add_seed_argument(p, text="match i uses seed S+i, 0 to 2**64-1")
    p.add_argument("--timeout", type=positive_seconds, default=10.0, metavar="SECONDS",
                   help="the longest wait for one reply, in seconds")
    p.add_argument("--invariants", action="store_true",
                   help="also run the spec's invariants on the engine alone (random play, every action)")
    add_rules_arguments(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_seed_range(args.seed, args.games + 1 if args.invariants else args.games)
    g = game(args.game)
    values = g.spec.resolve(args.ruleset, parse_options(args.option))
    report = RefereeReport()
    violations: list[Violation] = []

    def reference() -> EngineAdapter:
        return ReferenceAdapter()

    try:
        with ProcessEngine(args.engine, timeout=args.timeout) as engine:
            for i in range(args.games):
                referee_match(engine, reference, g.spec.key, values, args.seed + i, args.seed + i, report=report)
                if any(d.kind == "protocol" for d in report.disagreements):
                    break
            if args.invariants and report.ok:
                profile = profile_for(g.spec.key)
                for i in range(args.games):
                    run = run_random(engine, profile, values, args.seed + i, args.seed + i + 1)
                    violations.extend(run.violations)
    except EngineError as e:
        raise UsageError(f"engine: {e}") from None
    except ValueError as e:  # the engine refused to start a match
        raise UsageError(f"engine refused to start: {e}") from None
    proto = [d for d in report.disagreements if d.kind == "protocol"]
    if proto and report.actions == 0 and report.matches == 1:
        raise UsageError(f"engine unusable: {proto[0].message}")
    ok = report.ok and not violations
    if args.json:
        json.dump({"ok": ok, "game": g.spec.key, "matches": report.matches, "actions": report.actions,
                   "disagreements": [d.to_json() for d in report.disagreements],
                   "invariant_violations": [{"invariant": v.invariant, "message": v.message, "seed": v.seed,
                                          "policy_seed": v.policy_seed, "actions": list(v.actions)}
                                         for v in violations]}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for d in report.disagreements:
            print(d)
            if d.actions:
                print(f"    after: {' | '.join(d.actions[-8:])}" + (" (last 8)" if len(d.actions) > 8 else ""))
        for v in violations:
            print(f"invariant {v}")
        print(f"{g.spec.name}: {report.matches} match(es), {report.actions} actions in lockstep, "
              f"{len(report.disagreements)} disagreement(s)"
              + (f", {len(violations)} invariant violation(s)" if args.invariants else ""))
    return 0 if ok else 1
