"""``hanafuda referee GAME --engine "CMD"``: referee an external engine against the reference."""

from __future__ import annotations

import argparse
import json
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from hanafuda_spec.adapter import EngineAdapter
from hanafuda_spec.games import profile_for
from hanafuda_spec.invariants import Violation, run_random
from hanafuda_spec.referee import (
    Disagreement,
    EngineError,
    Limits,
    ProcessEngine,
    RefereeReport,
    escaped,
    group_disagreements,
    referee_match,
)

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
from hanafuda.records import match_deal_zones
from hanafuda.registry import game


class DealingReference(ReferenceAdapter):
    """The reference adapter, able to give the deal in play as zones (for ``--send-deals``)."""

    def deal_zones(self) -> dict[str, object]:
        return dict(match_deal_zones(self.match))


D = Limits()  # the defaults


def _cap(text: str) -> int:
    """A cap: a whole number from 1 to 2**31."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if not 1 <= n <= 1 << 31:
        raise argparse.ArgumentTypeError(f"{escaped(text, 40)!r} is not a whole number from 1 to {1 << 31}")
    return n


@contextmanager
def _terminated_as_interrupt() -> Iterator[None]:
    """SIGTERM to the referee raises KeyboardInterrupt while refereeing, so that the engine's
    processes are ended on that exit path too."""
    def stop(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    try:
        old = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread: leave the handler alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "referee", examples=['hanafuda referee koikoi --engine "python examples/engine.py"',
                                              'hanafuda referee kekoro -e "./my-engine" --games 100 --json'],
                    help="play an external engine against the reference (JSON lines protocol)",
                    description="Start CMD and drive it over the hanafuda-referee/1 protocol (JSON lines on "
                    "stdin/stdout; see hanafuda_spec.referee) in lockstep with the reference: we deal from a "
                    "seed, the engine reports its legal actions, applies ours, reports positions, round "
                    "results and pile scores. Every disagreement is reported with a rule id. Exit 0 no "
                    "disagreement, 1 disagreements, 2 the engine is unusable (with its last stderr lines).",
                    notes="Limits: a match stops at a difference of position or deal, and after 20 "
                    "disagreements; option values that explain a difference are tried once per cause of a "
                    "round or legal-action difference, and for the first 10 position or deal differences "
                    "of a run; identical causes are grouped (--all lists each).\n\n"
                    "Supervision: the engine runs in a process group of its own and is started afresh for "
                    "every match; at the end of each match, and on every exit (errors and Ctrl-C included), "
                    "it is asked to quit, then its group and every process it started (setsid ones too) get "
                    f"SIGTERM, then SIGKILL, {D.grace:g} s apart. A reply must be complete within --timeout "
                    f"(default {D.reply_timeout:g} s; writing the request included), a match within "
                    f"--match-timeout (default {D.match_timeout:g} s); a reply is at most --max-reply-bytes "
                    f"(default {D.reply_bytes:,}) and lists at most --max-reply-actions actions (default "
                    f"{D.reply_actions:,}); the last {D.stderr_lines} lines of the engine's stderr are kept "
                    f"(nothing is written to disk). A breach ends refereeing with a protocol error id "
                    "(REF-...; see hanafuda_spec.referee.PROTOCOL_RULES): the matches before are reported on "
                    "stdout, the failure is one line on stderr naming the match and the request, exit 2.")
    p.add_argument("game", type=game_name, metavar="GAME", help=GAMES_HELP)
    p.add_argument("--engine", "-e", required=True, metavar="CMD", type=nonempty("engine command"),
                   help="the engine's command line")
    add_games_argument(p, 10, "matches to play")
    add_seed_argument(p, text="match i uses seed S+i, 0 to 2**64-1")
    p.add_argument("--timeout", type=positive_seconds, default=D.reply_timeout, metavar="SECONDS",
                   help="the longest time for a whole reply (writing the request, reading up to the reply's "
                   "newline), in seconds")
    p.add_argument("--match-timeout", type=positive_seconds, default=D.match_timeout, metavar="SECONDS",
                   help="the longest time for a whole match, from its start request, in seconds")
    p.add_argument("--max-reply-bytes", type=_cap, default=D.reply_bytes, metavar="BYTES",
                   help="the longest reply line, in bytes")
    p.add_argument("--max-reply-actions", type=_cap, default=D.reply_actions, metavar="N",
                   help="the most actions one 'legal' reply may list")
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
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_seed_range(args.seed, args.games + 1 if args.invariants else args.games)
    g = game(args.game)
    values = g.spec.resolve(args.ruleset, parse_options(args.option))
    limits = Limits(reply_timeout=args.timeout, match_timeout=args.match_timeout,
                    reply_bytes=args.max_reply_bytes, reply_actions=args.max_reply_actions)
    report = RefereeReport()
    violations: list[Violation] = []
    failure = ""

    def reference() -> EngineAdapter:
        return DealingReference()

    try:
        supervised = ProcessEngine(args.engine, limits=limits)
    except EngineError as e:
        raise UsageError(f"engine unusable: [{e.code}] {e}") from None
    with _terminated_as_interrupt(), supervised as engine:
        for i in range(args.games):
            try:
                referee_match(engine, reference, g.spec.key, values, args.seed + i, args.seed + i, report=report,
                              go_on=not args.stop_at_round, send_deals=args.send_deals)
            finally:
                engine.close()  # one engine process per match: nothing of it outlives the match
            if report.failure is not None:
                failure = _failed_in(report, report.failure)
                break
        if args.invariants and report.ok:
            profile = profile_for(g.spec.key)
            for i in range(args.games):
                try:
                    run = run_random(engine, profile, values, args.seed + i, args.seed + i + 1)
                except (EngineError, ValueError) as e:
                    code = f"[{e.code}] " if isinstance(e, EngineError) else ""
                    where = f" at {e.request}" if isinstance(e, EngineError) and e.request else ""
                    failure = f"engine failed in invariant run {i + 1} (seed {args.seed + i}){where}: {code}{e}"
                    break
                finally:
                    engine.close()
                violations.extend(run.violations)
    ok = report.ok and not violations and not failure
    shown = [d for d in report.disagreements if d.kind != "protocol"]
    first = report.failure
    if first is not None and report.matches == 1 and report.actions == 0 and not shown:
        at = f" at {first.request}" if first.request else ""
        raise UsageError(f"engine unusable{at}: [{first.rule_id}] {first.message}")
    if args.json:
        json.dump({"ok": ok, "game": g.spec.key, "matches": report.matches, "actions": report.actions,
                   "failure": failure or None,
                   "disagreements": [d.to_json() for d in report.disagreements],
                   "groups": [{"kind": k, "rule": r or None, "cause": c, "count": len(ds)}
                              for (k, r, c), ds in group_disagreements(report.disagreements)],
                   "invariant_violations": [{"invariant": v.invariant, "message": v.message, "seed": v.seed,
                                          "policy_seed": v.policy_seed, "actions": list(v.actions)}
                                         for v in violations]}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for (_kind, _rule, cause), ds in group_disagreements(shown):
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
              f"{len(shown)} disagreement(s)"
              + (f", {len(violations)} invariant violation(s)" if args.invariants else "")
              + (f"; the engine failed in match {report.matches}" if failure and report.failure else ""))
    if failure:
        sys.stdout.flush()
        raise UsageError(failure)
    return 0 if ok else 1


def _failed_in(report: RefereeReport, d: Disagreement) -> str:
    """The verdict on an engine that broke the protocol: which match, which request, which rule."""
    before = report.matches - 1
    done = f"; match(es) 1 to {before} reported above" if before > 1 else "; match 1 reported above" if before else ""
    at = f" at {d.request}" if d.request else ""
    return (f"engine failed in match {report.matches} (seed {d.seed}){at}, after {d.action_index} action(s) "
            f"in lockstep: [{d.rule_id}] {d.message}{done}")
