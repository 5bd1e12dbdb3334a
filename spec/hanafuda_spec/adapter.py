"""The adapter protocol: how the spec drives any implementation, ours included.

An implementation under test provides an :class:`EngineAdapter`. Everything crosses the
boundary in the neutral form: actions as text, positions as
:class:`~hanafuda_spec.neutral.Snapshot`, scores as integers. The spec never imports the
reference implementation; the reference ships an adapter of its own
(``hanafuda.adapter.ReferenceAdapter``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.yaku import ScoredYaku

__all__ = ["EngineAdapter", "RoundOutcome", "ScoresAdapter"]


@dataclass(frozen=True)
class RoundOutcome:
    """A finished round in the neutral form. ``notes`` are game-specific named counts (multipliers,
    on-the-spot payments) the implementation reports with the round. ``card_points`` (per side, for
    games that count card values) and ``final`` (the position the round ended in, before it was
    settled) are optional: an implementation that reports them is checked exactly against them (the
    round's result recomputed from its final capture piles); one that does not, only within bounds."""

    reason: str
    deltas: tuple[int, ...]
    counts: bool
    yaku: tuple[tuple[ScoredYaku, ...], ...]
    notes: tuple[tuple[str, int], ...] = ()
    card_points: tuple[int, ...] | None = None
    final: Snapshot | None = None


@runtime_checkable
class EngineAdapter(Protocol):
    """One match of one game, driven step by step."""

    def start(self, game: str, options: Mapping[str, str], seed: int, deck: Sequence[int] | None = None) -> None:
        """Start a match (``deck``: an explicit first deal, top first, instead of the shuffle)."""

    def legal_actions(self) -> Sequence[str]:
        """Legal actions in text form; empty when the match is over."""

    def apply(self, action: str) -> None:
        """Apply an action (raise ``ValueError`` if illegal)."""

    def snapshot(self) -> Snapshot:
        """The current position."""

    def rounds_ended(self) -> Sequence[RoundOutcome]:
        """The rounds that ended with the last action (misdeals and rounds decided at the next
        deal included), oldest first; empty if none did."""

    def match_over(self) -> bool:
        """Whether the match has ended."""

    def score_pile(self, game: str, options: Mapping[str, str], cards: Sequence[int],
                   month: int | None) -> tuple[tuple[ScoredYaku, ...], int | None]:
        """Yaku and card points of a capture pile."""


@runtime_checkable
class ScoresAdapter(Protocol):
    """An optional capability of an adapter: starting a match with given scores (chips) instead of
    the game's starting ones, so that checks reach positions random play never does (a player near
    0 chips). Checks that need it are skipped, and say so, for an adapter without it."""

    def start_with_scores(self, game: str, options: Mapping[str, str], seed: int, scores: Sequence[int]) -> None:
        """Start a match as :meth:`~hanafuda_spec.adapter.EngineAdapter.start` does, every seat holding
        ``scores``."""
