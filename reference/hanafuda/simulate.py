"""Full matches of random legal play, with statistics.

Randomness: a master :class:`~hanafuda_spec.shuffle.SplitMix64` seeded with the ``--seed``
gives, for each match in turn, two outputs: the match seed (which drives the shuffles) and the
policy seed (which picks among the legal actions with ``below``). The same seed gives the same
matches and so the same statistics on every machine.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hanafuda_spec.shuffle import SplitMix64

from hanafuda.engine import Match

__all__ = ["SimulationStats", "simulate"]


@dataclass
class SimulationStats:
    """Aggregated statistics over simulated matches (all integers, so they compare exactly)."""

    game: str
    options: dict[str, str]
    games: int = 0
    actions: int = 0
    rounds: int = 0
    deals: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    drawn_games: int = 0
    end_reasons: Counter[str] = field(default_factory=Counter)
    round_reasons: Counter[str] = field(default_factory=Counter)
    yaku: Counter[str] = field(default_factory=Counter)
    round_length_max: int = 0
    score_totals: list[int] = field(default_factory=list)
    extra: Counter[str] = field(default_factory=Counter)
    notes: Counter[str] = field(default_factory=Counter)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": dict(sorted(self.options.items())),
            "games": self.games,
            "rounds": self.rounds,
            "deals": self.deals,
            "actions": self.actions,
            "wins_by_seat": dict(sorted(self.wins.items())),  # shared wins count for every winner
            "drawn_games": self.drawn_games,
            "game_end_reasons": dict(sorted(self.end_reasons.items())),
            "round_end_reasons": dict(sorted(self.round_reasons.items())),
            "yaku_frequency": dict(sorted(self.yaku.items())),
            "mean_actions_per_round": round(self.actions / self.rounds, 3) if self.rounds else 0,
            "max_actions_per_round": self.round_length_max,
            "total_score_by_seat": self.score_totals,
            "score_transfers": dict(sorted(self.extra.items())),
            "round_note_totals": dict(sorted(self.notes.items())),
        }


def simulate(game: Any, options: Mapping[str, str], ruleset: str | None, games: int, seed: int,
             progress: Callable[[int], None] | None = None) -> SimulationStats:
    """Play ``games`` matches of random legal play and gather statistics."""
    rules = game.rules(ruleset, options)
    stats = SimulationStats(game.spec.key, game.spec.resolve(ruleset, options))
    stats.score_totals = [0] * game.seats(rules)
    master = SplitMix64(seed)
    for i in range(games):
        m: Match[Any, Any] = Match.start(game, rules, master.next())
        policy = SplitMix64(master.next())
        n_round = 0
        seen = 0
        while not m.over:
            legal = m.legal_actions()
            m = m.apply(legal[policy.below(len(legal))])
            stats.actions += 1
            n_round += 1
            hist = m.info.history
            if len(hist) > seen:
                stats.round_length_max = max(stats.round_length_max, n_round)
                n_round = 0
                seen = len(hist)
        for r in m.info.history:
            stats.deals += 1
            stats.round_reasons[r.reason] += 1
            if r.counts:
                stats.rounds += 1
            for side in r.yaku:
                for y in side:
                    stats.yaku[y.id] += 1
            if any(d < 0 for d in r.deltas):
                stats.extra["rounds_with_payments"] += 1
            for key, value in r.notes:
                stats.notes[key] += value
        stats.games += 1
        stats.end_reasons[m.info.end_reason or "over"] += 1
        winners = m.info.winners
        if winners and len(winners) < len(m.info.scores):
            for w in winners:  # a team's win counts for both partners
                stats.wins[str(w)] += 1
        else:
            stats.drawn_games += 1
        for s, v in enumerate(m.info.scores):
            stats.score_totals[s] += v
        if progress is not None:
            progress(i + 1)
    return stats
