"""``hanafuda record GAME``: records (``hanafuda-record/1``) of random games, as JSON Lines."""

from __future__ import annotations

import argparse
import json
import sys

from hanafuda.cli import UsageError, parse_options
from hanafuda.commands._common import add_rules_arguments
from hanafuda.records import record_match
from hanafuda.registry import game


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("record", help="write game records of random games (JSON Lines)",
                       description="Play random legal games and write their records in the hanafuda-record/1 "
                       "format, one JSON object per line. Game i (from 0) uses seed S+i for the deal and "
                       "for the random choice of actions. See 'hanafuda validate'.")
    p.add_argument("game")
    p.add_argument("--seed", "-s", type=int, default=0, metavar="S")
    p.add_argument("--games", "-n", type=int, default=1, metavar="N")
    add_rules_arguments(p)
    p.add_argument("--snapshots", action="store_true", help="add each action's seat and the position after it")
    p.add_argument("--pretty", action="store_true", help="indented JSON (one record per document)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.games <= 1_000_000:
        raise UsageError(f"--games {args.games}: must be 1 to 1000000")
    if not 0 <= args.seed < 2**64 - args.games:
        raise UsageError(f"--seed {args.seed}: must be 0 to 2**64-1")
    if args.pretty and args.games != 1:
        raise UsageError("--pretty writes one record: use it with --games 1")
    g = game(args.game)
    options = parse_options(args.option)
    g.rules(args.ruleset, options)  # validate before playing
    out = sys.stdout
    for i in range(args.games):
        doc = record_match(g, args.ruleset, options, args.seed + i, args.seed + i, snapshots=args.snapshots)
        out.write(json.dumps(doc, ensure_ascii=False, indent=2 if args.pretty else None,
                             separators=None if args.pretty else (",", ":")))
        out.write("\n")
    return 0
