"""Environment steps per second for Koi-Koi through the game-AI views (issue 29): PettingZoo's AEC loop
(``env.last()`` with its observation and mask, then ``env.step``) and OpenSpiel's state API
(``legal_actions``, ``apply_action``; chance nodes through ``chance_outcomes``). Random legal play,
one core, CPU seconds of this process. A step is one player action; chance nodes (one per card dealt)
are counted apart. Needs the extras: ``uv sync --extra pettingzoo --extra openspiel``.

``--episodes N`` plays a fixed workload instead (N matches of each view, the same every run) and prints
its step counts only: for instruction counts, which the machine's load does not change. The count of
one step is the difference between two such runs divided by the difference of their steps::

    valgrind --tool=callgrind --callgrind-out-file=/dev/null uv run python benchmarks/bench_ai.py \\
        --episodes 2 --only pettingzoo
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np


def bench_pettingzoo(seconds: float, episodes: int | None = None) -> tuple[int, float]:
    from hanafuda import pettingzoo as hp

    e = hp.env("koikoi")
    rng = random.Random(1)
    steps, seed = 0, 0
    start = time.process_time()
    while (time.process_time() - start < seconds) if episodes is None else seed < episodes:
        e.reset(seed=seed)
        seed += 1
        for _ in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps, time.process_time() - start


def bench_openspiel(seconds: float, episodes: int | None = None) -> tuple[int, int, float]:
    import pyspiel
    from hanafuda import openspiel as ho

    game = pyspiel.load_game(ho.short_name("koikoi"))
    rng = random.Random(1)
    steps = chance = played = 0
    start = time.process_time()
    while (time.process_time() - start < seconds) if episodes is None else played < episodes:
        state = game.new_initial_state()
        played += 1
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                chance += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
    return steps, chance, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per view (default 5)")
    parser.add_argument("--episodes", type=int, help="a fixed workload: this many matches per view")
    parser.add_argument("--only", choices=("pettingzoo", "openspiel"), help="one view only")
    args = parser.parse_args()
    if args.only != "openspiel":
        steps, t = bench_pettingzoo(args.seconds, args.episodes)
        print(f"pettingzoo AEC loop: {steps / t:,.0f} steps/s ({steps} steps, {t:.1f} s CPU)")
    if args.only != "pettingzoo":
        steps, chance, t = bench_openspiel(args.seconds, args.episodes)
        print(f"openspiel state API: {steps / t:,.0f} player steps/s, {(steps + chance) / t:,.0f} with the "
              f"{chance} chance nodes ({steps} steps, {t:.1f} s CPU)")


if __name__ == "__main__":
    main()
