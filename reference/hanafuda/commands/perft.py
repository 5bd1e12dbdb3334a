"""``hanafuda perft GAME --seed S --depth D``: count legal action sequences (a move-generation check)."""

from __future__ import annotations

import argparse
from collections import Counter

from hanafuda_spec.perft import PerftCount

from hanafuda.cli import UsageError, parse_options
from hanafuda.commands._common import (
    GAMES_HELP,
    add_command,
    add_rules_arguments,
    add_seed_argument,
    count,
    game_name,
    print_json,
)
from hanafuda.engine import Action
from hanafuda.perft import divide, perft
from hanafuda.progress import add_progress_argument, progress
from hanafuda.registry import game

#: The deepest count the command accepts: the counts grow about sevenfold per action, and depth
#: 10 already takes hours on one core.
MAX_DEPTH = 12


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(
        sub, "perft", examples=["hanafuda perft koikoi --seed 1 --depth 4 --divide",
                                "hanafuda perft kujuroku -o jizo=on --depth 3 --json"],
        help="count the legal action sequences from a seeded deal",
        description="Count the sequences of exactly D legal actions from the deal of seed S (first dealer "
        "seat 0), by the kind of their last action, as chess engines' perft does. Sequences go on into later "
        "rounds; a sequence that ends the match early counts nothing. Another engine checks its move "
        "generation by reproducing these counts (the conformance corpus of 'hanafuda vectors' has tables).")
    p.add_argument("game", type=game_name, metavar="GAME", help=GAMES_HELP)
    add_seed_argument(p, text="the deal's seed, 0 to 2**64-1")
    p.add_argument("--depth", "-d", type=count(0, MAX_DEPTH, "a depth"), default=3, metavar="D",
                   help=f"actions per sequence, 0 to {MAX_DEPTH}")
    add_rules_arguments(p)
    p.add_argument("--divide", action="store_true", help="also the count below each legal first action")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_progress_argument(p)
    p.set_defaults(run=run)


def _total(game: str, seed: int, depth: int, split: list[tuple[Action, PerftCount]]) -> PerftCount:
    """The perft count at ``depth`` (2 or more) from the counts below each first action: the leaves
    of those subtrees are the leaves of the whole."""
    kinds: Counter[str] = Counter()
    for _, c in split:
        kinds.update(dict(c.by_kind))
    return PerftCount(game, seed, depth, sum(c.nodes for _, c in split), tuple(sorted(kinds.items())))


def run(args: argparse.Namespace) -> int:
    if args.divide and args.depth < 1:
        raise UsageError("--divide needs --depth 1 or more")
    g = game(args.game)
    rules = g.rules(args.ruleset, parse_options(args.option))
    with progress("perft, first actions", None, unit="action", no_progress=args.no_progress) as bar:
        if args.depth >= 2 and (args.divide or bar.shown):  # the count is the sum of the divided ones
            split = divide(g, rules, args.seed, args.depth, on_progress=bar)
            count = _total(g.spec.key, args.seed, args.depth, split)
        else:
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
