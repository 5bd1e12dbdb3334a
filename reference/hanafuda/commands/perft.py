"""``hanafuda perft GAME --seed S --depth D``: count legal action sequences (a move-generation check)."""

from __future__ import annotations

import argparse

from hanafuda.cli import UsageError, parse_options
from hanafuda.commands._common import add_rules_arguments, print_json
from hanafuda.perft import divide, perft
from hanafuda.registry import game

#: The deepest count the command accepts: the counts grow about sevenfold per action, and depth
#: 10 already takes hours on one core.
MAX_DEPTH = 12


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "perft", help="count the legal action sequences from a seeded deal",
        description="Count the sequences of exactly D legal actions from the deal of seed S (first dealer "
        "seat 0), by the kind of their last action, as chess engines' perft does. Sequences go on into later "
        "rounds; a sequence that ends the match early counts nothing. Another engine checks its move "
        "generation by reproducing these counts (the conformance corpus of 'hanafuda vectors' has tables).",
        epilog="example: hanafuda perft koikoi --seed 1 --depth 4 --divide")
    p.add_argument("game", help="koikoi, kusurigui, kujuroku, musashino or kekoro")
    p.add_argument("--seed", "-s", type=int, default=0, metavar="S", help="the deal's seed, 0 to 2**64-1 (default 0)")
    p.add_argument("--depth", "-d", type=int, default=3, metavar="D",
                   help=f"actions per sequence, 0 to {MAX_DEPTH} (default 3)")
    add_rules_arguments(p)
    p.add_argument("--divide", action="store_true", help="also the count below each legal first action")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.seed < 2**64:
        raise UsageError(f"--seed {args.seed}: must be 0 to 2**64-1")
    if not 0 <= args.depth <= MAX_DEPTH:
        raise UsageError(f"--depth {args.depth}: must be 0 to {MAX_DEPTH}")
    if args.divide and args.depth < 1:
        raise UsageError("--divide needs --depth 1 or more")
    g = game(args.game)
    rules = g.rules(args.ruleset, parse_options(args.option))
    count = perft(g, rules, args.seed, args.depth)
    split = divide(g, rules, args.seed, args.depth) if args.divide else []
    if args.json:
        out = count.to_json()
        if args.divide:
            out["divide"] = {str(a): c.nodes for a, c in split}
        print_json(out)
        return 0
    print(f"{g.spec.name}: seed {args.seed}, depth {args.depth}: {count.nodes} sequences")
    for kind, n in count.by_kind:
        print(f"  {kind:12} {n:>12}")
    if split:
        print("  divide (sequences below each first action):")
    for a, c in split:
        print(f"    {a!s:22} {c.nodes:>12}")
    return 0
