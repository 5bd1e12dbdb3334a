"""``hanafuda simulate GAME``: full games of random legal play, with statistics."""

from __future__ import annotations

import argparse
import sys
import time

from hanafuda.cli import UsageError, parse_options
from hanafuda.commands._common import add_rules_arguments, print_json
from hanafuda.registry import game
from hanafuda.simulate import simulate


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("simulate", help="play random games and report statistics",
                       description="Play full games of random legal play. The same seed gives the same "
                       "statistics on every machine; --json leaves out the timing unless --timing is given.")
    p.add_argument("game")
    p.add_argument("--games", "-n", type=int, default=100, metavar="N")
    p.add_argument("--seed", "-s", type=int, default=0, metavar="S")
    add_rules_arguments(p)
    p.add_argument("--json", action="store_true")
    p.add_argument("--timing", action="store_true", help="include games/s in the JSON output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.games < 1 or args.games > 10_000_000:
        raise UsageError(f"--games {args.games}: must be 1 to 10000000")
    if args.seed < 0:
        raise UsageError(f"--seed {args.seed}: must be 0 or more")
    g = game(args.game)
    options = parse_options(args.option)
    g.rules(args.ruleset, options)  # validate before starting
    tty = sys.stderr.isatty()

    def progress(done: int) -> None:
        if tty and (done % max(1, args.games // 50) == 0 or done == args.games):
            bar = "#" * (30 * done // args.games)
            sys.stderr.write(f"\r[{bar:<30}] {done}/{args.games}")
            if done == args.games:
                sys.stderr.write("\n")
            sys.stderr.flush()

    t0 = time.perf_counter()
    stats = simulate(g, options, args.ruleset, args.games, args.seed, progress)
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
    print(f"  wins by seat: {j['wins_by_seat']}, drawn games: {stats.drawn_games}")
    print(f"  total score by seat: {stats.score_totals}")
    print(f"  game ends: {j['game_end_reasons']}")
    print(f"  round ends: {j['round_end_reasons']}")
    print(f"  actions per round: mean {j['mean_actions_per_round']}, max {stats.round_length_max}")
    print("  yaku formed (rounds):")
    for k, v in sorted(stats.yaku.items(), key=lambda kv: -kv[1]):
        print(f"    {k:32} {v}")
    print(f"  {rate:.1f} games/s ({stats.actions / dt if dt > 0 else 0:.0f} actions/s)")
    return 0
