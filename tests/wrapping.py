"""A pass-through adapter for tests that build a deliberately wrong engine: subclass
:class:`Delegate` and override the one method the wrong engine gets wrong."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hanafuda.adapter import ReferenceAdapter
from hanafuda_spec.adapter import RoundOutcome
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.yaku import ScoredYaku


class Delegate:
    """The reference adapter, passed through (an :class:`~hanafuda_spec.adapter.EngineAdapter`)."""

    def __init__(self) -> None:
        self.inner = ReferenceAdapter()

    def start(self, game: str, options: Mapping[str, str], seed: int, deck: Sequence[int] | None = None) -> None:
        self.inner.start(game, options, seed, deck)

    def legal_actions(self) -> Sequence[str]:
        return self.inner.legal_actions()

    def apply(self, action: str) -> None:
        self.inner.apply(action)

    def snapshot(self) -> Snapshot:
        return self.inner.snapshot()

    def rounds_ended(self) -> Sequence[RoundOutcome]:
        return self.inner.rounds_ended()

    def match_over(self) -> bool:
        return self.inner.match_over()

    def score_pile(self, game: str, options: Mapping[str, str], cards: Sequence[int],
                   month: int | None) -> tuple[tuple[ScoredYaku, ...], int | None]:
        return self.inner.score_pile(game, options, cards, month)
