"""Perft: the number of legal action sequences from a seeded deal, a check of move generation.

As in chess programming (python-chess's ``perft``), *perft(d)* is the number of distinct
sequences of exactly ``d`` legal actions a match can take from its start: the match dealt from
``seed`` with the documented shuffle (:mod:`hanafuda_spec.shuffle`), the first dealer seat 0.
Sequences run through round ends (the next round is dealt from the same generator, as in play);
a sequence that ends the match before ``d`` actions has no continuation and counts nothing.
``perft(0)`` is 1. The leaves are also counted by the kind of their last action (``play``,
``take``, ``koikoi``, ``declare`` ...), like the capture and check columns of chess tables.

Two engines that agree on every count of a table agree on which actions are legal along every
sequence that table covers; where they differ, the ``divide`` form (the count below each first
action) narrows the disagreement down to one sequence in a few runs.

:func:`perft_adapter` counts through the adapter protocol, so it checks any implementation, and
is written to be obviously correct rather than fast: every leaf sequence is replayed from the
start, with nothing cached or shared. The reference has a fast count (``hanafuda.perft``);
the conformance corpus (``hanafuda vectors``) publishes tables of both, which must agree.

>>> PerftCount("koikoi", 0, 2, 72, (("play", 72),)).to_json()["nodes"]
72
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hanafuda_spec.adapter import EngineAdapter

__all__ = ["PerftCount", "action_kind", "compare", "perft_adapter"]


@dataclass(frozen=True)
class PerftCount:
    """A perft count: ``nodes`` leaf sequences of ``depth`` actions from the deal of ``seed``,
    and how many of them end with each kind of action (sorted by kind)."""

    game: str
    seed: int
    depth: int
    nodes: int
    by_kind: tuple[tuple[str, int], ...]

    def to_json(self) -> dict[str, object]:
        return {"game": self.game, "seed": self.seed, "depth": self.depth, "nodes": self.nodes,
                "by_kind": dict(self.by_kind)}


def action_kind(action: str) -> str:
    """The kind of an action in text form: its first word (``"play 31 30"`` -> ``"play"``)."""
    return action.split(maxsplit=1)[0]


def perft_adapter(adapter: EngineAdapter, game: str, options: Mapping[str, str], seed: int,
                  depth: int) -> PerftCount:
    """Perft through any implementation's adapter, by brute force: for every sequence, start a
    new match and replay the sequence from the deal. Cost: about ``nodes * depth`` actions."""
    if depth < 0:
        raise ValueError(f"perft depth {depth}: must be 0 or more")
    kinds: Counter[str] = Counter()

    def replay(prefix: Sequence[str]) -> list[str]:
        adapter.start(game, options, seed)
        for action in prefix:
            adapter.apply(action)
        return [] if adapter.match_over() else list(adapter.legal_actions())

    def walk(prefix: list[str]) -> None:
        if len(prefix) == depth:
            replay(prefix)  # the whole sequence is played, not just generated
            kinds[action_kind(prefix[-1]) if prefix else ""] += 1
            return
        for action in replay(prefix):
            walk([*prefix, action])

    walk([])
    nodes = sum(kinds.values())
    by_kind = tuple(sorted((k, n) for k, n in kinds.items() if k))
    return PerftCount(game, seed, depth, nodes, by_kind)


def compare(expected: PerftCount, got: PerftCount) -> str | None:
    """``None`` when two counts agree, else one line saying what differs."""
    if (expected.game, expected.seed, expected.depth) != (got.game, got.seed, got.depth):
        return (f"different positions: {expected.game} seed {expected.seed} depth {expected.depth} "
                f"against {got.game} seed {got.seed} depth {got.depth}")
    if expected == got:
        return None
    diffs = [f"nodes {got.nodes} (expected {expected.nodes})"] if expected.nodes != got.nodes else []
    want, have = dict(expected.by_kind), dict(got.by_kind)
    diffs += [f"{k} {have.get(k, 0)} (expected {want.get(k, 0)})"
              for k in sorted(set(want) | set(have)) if want.get(k, 0) != have.get(k, 0)]
    return f"{got.game} seed {got.seed} depth {got.depth}: " + ", ".join(diffs)
