"""``hanafuda referee GAME --engine "CMD"``: referee an external engine against the reference."""

from __future__ import annotations

import argparse
import json
import sys

from hanafuda_spec.adapter import EngineAdapter
from hanafuda_spec.games import profile_for
from hanafuda_spec.invariants import Violation, run_random
from hanafuda_spec.referee import EngineError, ProcessEngine, RefereeReport, group_disagreements, referee_match

from hanafuda.adapter import ReferenceAdapter
from hanafuda.cli import UsageError, parse_options
from hanafuda.commands._common import add_rules_arguments
from hanafuda.records import match_deal_zones
from hanafuda.registry import game


class DealingReference(ReferenceAdapter):
    """The reference adapter, able to give the deal in play as zones (for ``--send-deals``)."""

    def deal_zones(self) -> dict[str, object]:
        return dict(match_deal_zones(self.match))


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("referee", help="play an external engine against the reference (JSON lines protocol)",
                       description="Start CMD and drive it over the hanafuda-referee/1 protocol (JSON lines on "
                       "stdin/stdout; see hanafuda_spec.referee) in lockstep with the reference: we deal from a "
                       "seed, the engine reports its legal actions, applies ours, reports positions, round "
                       "results and pile scores. Every disagreement is reported with a rule id. Exit 0 no "
                       "disagreement, 1 disagreements, 2 the engine is unusable (with its last stderr lines).",
                       epilog="Limits: a match stops at a difference of position or deal, and after 20 "
                       "disagreements; option values that explain a difference are tried once per cause of a "
                       "round or legal-action difference, and for the first 10 position or deal differences "
                       "of a run; identical causes are grouped (--all lists each).")
    p.add_argument("game")
    p.add_argument("--engine", "-e", required=True, metavar="CMD", help="the engine's command line")
    p.add_argument("--games", "-n", type=int, default=10, metavar="N")
    p.add_argument("--seed", "-s", type=int, default=0, metavar="S", help="match i uses seed S+i")
    p.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS", help="per reply")
    p.add_argument("--invariants", action="store_true",
                   help="also run the spec's invariants on the engine alone (random play, every action)")
    p.add_argument("--stop-at-round", action="store_true",
                   help="stop a match at its first round disagreement (by default play goes on, the scores "
                   "being ignored from there, so that later rounds are checked too)")
    p.add_argument("--all", action="store_true", help="list every disagreement instead of grouping repeats")
    p.add_argument("--send-deals", action="store_true",
                   help="hand the engine every deal as zones (the 'deal' request), for an engine with its own "
                   "shuffle")
    add_rules_arguments(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.games <= 1_000_000 or args.seed < 0 or args.timeout <= 0:
        raise UsageError("--games must be 1 to 1000000, --seed 0 or more, --timeout positive")
    g = game(args.game)
    values = g.spec.resolve(args.ruleset, parse_options(args.option))
    report = RefereeReport()
    violations: list[Violation] = []

    def reference() -> EngineAdapter:
        return DealingReference()

    try:
        with ProcessEngine(args.engine, timeout=args.timeout) as engine:
            for i in range(args.games):
                referee_match(engine, reference, g.spec.key, values, args.seed + i, args.seed + i, report=report,
                              go_on=not args.stop_at_round, send_deals=args.send_deals)
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
                   "groups": [{"kind": k, "rule": r, "cause": c, "count": len(ds)}
                              for (k, r, c), ds in group_disagreements(report.disagreements)],
                   "invariant_violations": [{"invariant": v.invariant, "message": v.message, "seed": v.seed,
                                             "policy_seed": v.policy_seed, "actions": list(v.actions)}
                                            for v in violations]}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for (_kind, _rule, cause), ds in group_disagreements(report.disagreements):
            for d in ds if args.all else ds[:1]:
                print(d)
                if d.actions:
                    print(f"    after: {' | '.join(d.actions[-8:])}" + (" (last 8)" if len(d.actions) > 8 else ""))
            if len(ds) > 1 and not args.all:
                seeds = sorted({d.seed for d in ds})
                print(f"    ... {len(ds)} times in all ({cause}; seeds {', '.join(map(str, seeds[:10]))}"
                      + (", ..." if len(seeds) > 10 else "") + "; --all lists them)")
        for v in violations:
            print(f"invariant {v}")
        print(f"{g.spec.name}: {report.matches} match(es), {report.actions} actions in lockstep, "
              f"{len(report.disagreements)} disagreement(s)"
              + (f", {len(violations)} invariant violation(s)" if args.invariants else ""))
    return 0 if ok else 1
