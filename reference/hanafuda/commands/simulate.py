"""``hanafuda simulate GAME``: full games of random legal play, with statistics."""

from __future__ import annotations

import argparse
import time
from collections.abc import Mapping
from typing import Any

from hanafuda.cli import parse_options
from hanafuda.commands._common import (
    GAMES_HELP,
    add_command,
    add_games_argument,
    add_jobs_argument,
    add_rules_arguments,
    add_seed_argument,
    game_name,
    print_json,
)
from hanafuda.parallel import add_cluster_argument, executor_for
from hanafuda.progress import add_progress_argument, progress
from hanafuda.registry import game
from hanafuda.simulate import simulate

#: Below this many games, starting worker processes costs more than it saves.
MIN_PARALLEL_GAMES = 50


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "simulate", help="play random games and report statistics",
                    description="Play full games of random legal play and report statistics: wins, scores, how "
                    "games and rounds end, the yaku formed. The same seed gives the same statistics on every "
                    "machine; --json leaves out the timing unless --timing is given.",
                    examples=["hanafuda simulate koikoi",
                              "hanafuda simulate musashino --games 300 --seed 4 -o players=4 --json"])
    p.add_argument("game", type=game_name, metavar="GAME", help=GAMES_HELP)
    add_games_argument(p, 100, "games to play")
    add_seed_argument(p, text="seed of the master generator (it draws each game's seeds), 0 to 2**64-1")
    add_rules_arguments(p)
    add_jobs_argument(p, f"runs of fewer than {MIN_PARALLEL_GAMES} games")
    add_cluster_argument(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--timing", action="store_true", help="include games/s in the JSON output")
    add_progress_argument(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    g = game(args.game)
    options = parse_options(args.option)
    g.rules(args.ruleset, options)  # validate before starting
    jobs = args.jobs if args.games >= MIN_PARALLEL_GAMES else 1
    with executor_for(args, jobs) as ex:
        t0 = time.perf_counter()
        with progress("simulate", args.games, unit="game", no_progress=args.no_progress) as bar:
            stats = simulate(g, options, args.ruleset, args.games, args.seed, lambda done: bar(done, args.games),
                             executor=ex)
        dt = time.perf_counter() - t0
    rate = stats.games / dt if dt > 0 else 0.0
    if args.json:
        out = stats.to_json()
        out["seed"] = args.seed
        if args.timing:
            out["games_per_second"] = round(rate, 1)
        print_json(out)
        return 0
    j = stats.to_json()
    print(f"{g.spec.name}: {stats.games} games, {stats.rounds} rounds ({stats.deals} deals), seed {args.seed}")
    print(f"  wins: {_pairs(j['wins_by_seat'], 'seat ')}; drawn games: {stats.drawn_games}")
    print(f"  total scores: {_pairs(dict(enumerate(stats.score_totals)), 'seat ')}")
    print(f"  game ends: {_pairs(j['game_end_reasons'])}")
    print(f"  round ends: {_pairs(j['round_end_reasons'])}")
    print(f"  actions per round: mean {j['mean_actions_per_round']}, max {stats.round_length_max}")
    print("  yaku formed (rounds):")
    for k, v in sorted(stats.yaku.items(), key=lambda kv: -kv[1]):
        print(f"    {k:32} {v}")
    print(f"  {rate:.1f} games/s ({stats.actions / dt if dt > 0 else 0:.0f} actions/s)")
    return 0


def _pairs(counts: Mapping[Any, Any], prefix: str = "") -> str:
    """``seat 0: 16, seat 1: 14``: each key (after ``prefix``), a colon and its count."""
    return ", ".join(f"{prefix}{k}: {v}" for k, v in counts.items()) or "none"
