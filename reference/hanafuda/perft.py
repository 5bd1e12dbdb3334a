"""The reference's fast perft (the definition is :mod:`hanafuda_spec.perft`).

Matches are immutable, so the walk branches by applying each action to the same match value;
at the last ply the legal actions are counted without being applied (bulk counting).

>>> from hanafuda.registry import game
>>> g = game("koikoi")
>>> perft(g, g.rules(), seed=1, depth=3).nodes
504
>>> [(str(a), c.nodes) for a, c in divide(g, g.rules(), seed=1, depth=2)][:2]
[('play 21', 9), ('play 23', 9)]
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hanafuda_spec.perft import PerftCount

from hanafuda.engine import Action, Game, Match
from hanafuda.progress import OnProgress

__all__ = ["divide", "perft"]

AnyGame = Game[Any, Any]


def _walk(m: Match[Any, Any], depth: int, kinds: Counter[str]) -> None:
    legal = m.legal_actions()
    if depth == 1:
        for a in legal:
            kinds[a.kind] += 1
        return
    for a in legal:
        _walk(m.apply(a), depth - 1, kinds)


def _count(g: AnyGame, m: Match[Any, Any], seed: int, depth: int) -> PerftCount:
    if depth < 0:
        raise ValueError(f"perft depth {depth}: must be 0 or more")
    if depth == 0:
        return PerftCount(g.spec.key, seed, 0, 1, ())
    kinds: Counter[str] = Counter()
    _walk(m, depth, kinds)
    return PerftCount(g.spec.key, seed, depth, sum(kinds.values()), tuple(sorted(kinds.items())))


def perft(g: AnyGame, rules: Any, seed: int, depth: int) -> PerftCount:
    """The number of legal action sequences of ``depth`` actions from the deal of ``seed``
    (first dealer seat 0), with the leaves counted by the kind of their last action."""
    return _count(g, Match.start(g, rules, seed), seed, depth)


def divide(g: AnyGame, rules: Any, seed: int, depth: int,
           on_progress: OnProgress | None = None) -> list[tuple[Action, PerftCount]]:
    """Perft split by first action: for each legal first action, the count of the sequences of
    ``depth`` actions that begin with it (``depth`` at least 1). The counts add up to
    ``perft(...).nodes``. ``on_progress`` is told the first actions done, of all of them."""
    if depth < 1:
        raise ValueError(f"divide depth {depth}: must be 1 or more")
    m = Match.start(g, rules, seed)
    legal = m.legal_actions()
    out: list[tuple[Action, PerftCount]] = []
    for a in legal:
        out.append((a, _count(g, m.apply(a), seed, depth - 1)))
        if on_progress is not None:
            on_progress(len(out), len(legal))
    return out
