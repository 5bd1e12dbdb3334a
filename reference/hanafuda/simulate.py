"""Full matches of random legal play, with statistics.

Randomness: a master :class:`~hanafuda_spec.shuffle.SplitMix64` seeded with the ``--seed``
gives, for each match in turn, two outputs: the match seed (which drives the shuffles) and the
policy seed (which picks among the legal actions with ``below``). The same seed gives the same
matches and so the same statistics on every machine.

Parallel runs (``jobs`` > 1, or an executor of :mod:`hanafuda.parallel`: worker processes or a
Dask cluster) split the matches into consecutive ranges, one worker per range at a time.
SplitMix64's state moves by a fixed step per output, so a range starting at match ``i`` starts
its master generator at ``seed + 2 i GOLDEN`` and plays exactly the matches a single process
would; the statistics are sums, maxima and counts, merged in range order. The result is
the same for every number of jobs.

>>> from hanafuda.registry import game
>>> one = simulate(game("koikoi"), {}, None, 6, 3)
>>> one == simulate(game("koikoi"), {}, None, 6, 3, jobs=2)
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from hanafuda_spec.shuffle import GOLDEN, MASK64, SplitMix64

from hanafuda.engine import play_match
from hanafuda.parallel import Executor, open_executor
from hanafuda.registry import game as game_by_key

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

    def add(self, other: SimulationStats) -> None:
        """Add the statistics of other matches of the same game and options."""
        if (other.game, other.options) != (self.game, self.options):
            raise ValueError("statistics of different games or options cannot be added")
        self.games += other.games
        self.actions += other.actions
        self.rounds += other.rounds
        self.deals += other.deals
        self.wins.update(other.wins)
        self.drawn_games += other.drawn_games
        self.end_reasons.update(other.end_reasons)
        self.round_reasons.update(other.round_reasons)
        self.yaku.update(other.yaku)
        self.round_length_max = max(self.round_length_max, other.round_length_max)
        self.score_totals = [a + b for a, b in zip(self.score_totals, other.score_totals, strict=True)]
        self.extra.update(other.extra)
        self.notes.update(other.notes)


def simulate(game: Any, options: Mapping[str, str], ruleset: str | None, games: int, seed: int,
             progress: Callable[[int], None] | None = None, jobs: int = 1,
             executor: Executor | None = None) -> SimulationStats:
    """Play ``games`` matches of random legal play and gather statistics, in ``jobs`` processes or
    on ``executor`` (see :mod:`hanafuda.parallel`; the same statistics either way; ``progress`` gets
    the number of matches done)."""
    if executor is None or executor.in_process:
        if executor is not None or jobs <= 1 or games <= 1:
            return _simulate_range(game, options, ruleset, 0, games, seed, progress)
        with open_executor(jobs) as ex:
            return simulate(game, options, ruleset, games, seed, progress, executor=ex)
    # ranges of about a quarter of a worker's share, so that progress is reported as they finish
    size = max(1, -(-games // (executor.workers * 4)))
    starts = range(0, games, size)
    work = partial(_simulate_key_range, game.spec.key, dict(options), ruleset, games=games, size=size, seed=seed)
    total: SimulationStats | None = None
    for start, part in zip(starts, executor.map(work, starts), strict=True):  # in range order
        if total is None:
            total = part
        else:
            total.add(part)
        if progress is not None:
            progress(min(games, start + size))
    assert total is not None
    return total


def _simulate_key_range(key: str, options: dict[str, str], ruleset: str | None, start: int, *, games: int,
                        size: int, seed: int) -> SimulationStats:
    """Matches ``start .. start + size - 1`` (at most ``games``) of a game named by key (what a
    worker is sent)."""
    return _simulate_range(game_by_key(key), options, ruleset, start, min(size, games - start), seed)


def _simulate_range(game: Any, options: Mapping[str, str], ruleset: str | None, start: int, count: int,
                    seed: int, progress: Callable[[int], None] | None = None) -> SimulationStats:
    """Matches ``start .. start + count - 1`` of the run seeded with ``seed``."""
    rules = game.rules(ruleset, options)
    stats = SimulationStats(game.spec.key, game.spec.resolve(ruleset, options))
    stats.score_totals = [0] * game.seats(rules)
    master = SplitMix64((seed + 2 * start * GOLDEN) & MASK64)  # two outputs per match
    for i in range(count):
        match_seed = master.next()
        info, deals = play_match(game, rules, match_seed, _random_policy(SplitMix64(master.next())))
        for played in deals:
            stats.actions += len(played)
            stats.round_length_max = max(stats.round_length_max, len(played))
        for r in info.history:
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
        stats.end_reasons[info.end_reason or "over"] += 1
        winners = info.winners
        if winners and len(winners) < len(info.scores):
            for w in winners:  # a team's win counts for both partners
                stats.wins[str(w)] += 1
        else:
            stats.drawn_games += 1
        for s, v in enumerate(info.scores):
            stats.score_totals[s] += v
        if progress is not None:
            progress(i + 1)
    return stats


def _random_policy(policy: SplitMix64) -> Callable[[Sequence[Any]], Any]:
    """The random player of a match: each choice is ``legal[policy.below(len(legal))]``."""
    return lambda legal: legal[policy.below(len(legal))]
