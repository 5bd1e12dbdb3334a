"""``hanafuda record GAME``: records (``hanafuda-record/1``) of random games, as JSON Lines."""

from __future__ import annotations

import argparse
import json
import sys

from hanafuda.cli import UsageError, parse_options
from hanafuda.commands._common import (
    GAMES_HELP,
    add_command,
    add_games_argument,
    add_rules_arguments,
    add_seed_argument,
    check_seed_range,
    game_name,
)
from hanafuda.records import record_match
from hanafuda.registry import game


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "record", help="write game records of random games (JSON Lines)",
                    description="Play random legal games and write their records in the hanafuda-record/1 "
                    "format to standard output, one JSON object per line. Game i (from 0) uses seed S+i for the "
                    "deal and for the random choice of actions. See 'hanafuda validate'.",
                    examples=["hanafuda record koikoi --seed 5 > r.jsonl",
                              "hanafuda record kujuroku --games 10 -o jizo=on > jizo.jsonl",
                              "hanafuda record kekoro --pretty --snapshots"])
    p.add_argument("game", type=game_name, metavar="GAME", help=GAMES_HELP)
    add_seed_argument(p, text="seed of game 0 (game i uses S+i), 0 to 2**64-1")
    add_games_argument(p, 1, "games to record")
    add_rules_arguments(p)
    p.add_argument("--snapshots", action="store_true", help="add each action's seat and the position after it")
    p.add_argument("--pretty", action="store_true", help="indented JSON (one record per document)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_seed_range(args.seed, args.games)
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
