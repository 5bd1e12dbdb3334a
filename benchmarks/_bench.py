"""Shared measuring loops for the benchmarks (single core; CPU seconds of this process, so that other
work on a shared machine weighs less on the figures; never tests)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from hanafuda.engine import Action, Game, Match, play_match
from hanafuda_spec.cards import BaseCard
from hanafuda_spec.shuffle import SplitMix64, shuffled


def rounds_and_games_per_second(game: Game[Any, Any], rules: Any, seconds: float = 3.0,
                                reference: bool = False) -> tuple[float, float]:
    """Whole matches of random legal play: (rounds/s, matches/s); misdeals count as rounds dealt.
    Through :func:`hanafuda.engine.play_match` (the game's fast rounds where it has them, as
    ``simulate`` and ``record`` play), or with ``reference`` the plain ``Match.apply`` loop."""
    rng = SplitMix64(1)
    rounds = games = 0

    def choose(legal: Sequence[Action]) -> Action:
        return legal[rng.below(len(legal))]

    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        if reference:
            m = Match.start(game, rules, rng.next())
            while not m.over:
                legal = m.legal_actions()
                m = m.apply(legal[rng.below(len(legal))])
            info = m.info
        else:
            info, _ = play_match(game, rules, rng.next(), choose)
        rounds += len(info.history)
        games += 1
    dt = time.process_time() - t0
    return rounds / dt, games / dt


def rounds_per_second(game: Game[Any, Any], rules: Any, seconds: float = 3.0, reference: bool = False) -> float:
    return rounds_and_games_per_second(game, rules, seconds, reference)[0]


def public_scorings_per_second(game: Game[Any, Any], rules: Any, cards: Sequence[BaseCard], seconds: float = 3.0,
                               largest: int = 24) -> float:
    """``game.score(rules, cards)`` (the engine contract's scorer: a list of cards in, yaku out) on the
    same 1,000 random piles as :func:`scorings_per_second`, given as lists of cards."""
    rng = SplitMix64(2)
    piles = [shuffled(cards, rng)[: 4 + rng.below(largest - 4)] for _ in range(1000)]
    n = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        for p in piles:
            game.score(rules, p)
        n += len(piles)
    return n / (time.process_time() - t0)


def scorings_per_second(score: Callable[[int], object], cards: Sequence[BaseCard], seconds: float = 3.0,
                        largest: int = 24) -> float:
    """Score 1,000 random piles of 4 to ``largest - 1`` cards (as bit masks) over and over."""
    rng = SplitMix64(2)
    piles = []
    for _ in range(1000):
        m = 0
        for c in shuffled(cards, rng)[: 4 + rng.below(largest - 4)]:
            m |= c.mask
        piles.append(m)
    n = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        for p in piles:
            score(p)
        n += len(piles)
    return n / (time.process_time() - t0)
