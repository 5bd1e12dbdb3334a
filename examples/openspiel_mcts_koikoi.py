"""OpenSpiel's MCTS bot against a uniformly random bot in Koi-Koi (one round per episode).

    uv sync --extra openspiel
    uv run python examples/openspiel_mcts_koikoi.py [EPISODES] [SIMULATIONS]

The MCTS bot searches the true state (OpenSpiel's MCTS is a perfect-information search: it sees the
opponent's hand and the stock), so this shows the view at work, not a fair player.
"""

from __future__ import annotations

import random
import sys

import numpy as np
import pyspiel
from hanafuda import openspiel as ho
from open_spiel.python.algorithms import mcts
from open_spiel.python.bots import uniform_random


def main(episodes: int = 4, simulations: int = 40) -> None:
    game = pyspiel.load_game(ho.short_name("koikoi"), {ho.ROUNDS: 1})
    rng = random.Random(0)
    totals = [0.0, 0.0]
    for episode in range(episodes):
        mcts_seat = episode % 2  # alternate seats: seat 0 deals the first round
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(episode))
        bots = {mcts_seat: mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=np.random.RandomState(episode)),
                1 - mcts_seat: uniform_random.UniformRandomBot(1 - mcts_seat, np.random.RandomState(episode))}
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(bots[state.current_player()].step(state))
        returns = state.returns()
        totals[0] += returns[mcts_seat]
        totals[1] += returns[1 - mcts_seat]
        print(f"episode {episode + 1}: MCTS (seat {mcts_seat}) {returns[mcts_seat]:+.0f}, "
              f"random {returns[1 - mcts_seat]:+.0f}")
    print(f"total over {episodes} episodes: MCTS {totals[0]:+.0f}, random {totals[1]:+.0f}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
