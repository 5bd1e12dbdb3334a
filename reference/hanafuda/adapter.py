"""The reference implementation behind the spec's adapter protocol
(:class:`hanafuda_spec.adapter.EngineAdapter`), so the spec checks it like any other engine."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from hanafuda_spec.adapter import RoundOutcome
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.shuffle import SplitMix64
from hanafuda_spec.yaku import ScoredYaku

from hanafuda.engine import Action, Match, RoundSetup
from hanafuda.registry import game

__all__ = ["ReferenceAdapter", "start_from_deck"]


def start_from_deck(g: Any, rules: Any, order: Sequence[int], first_dealer: int = 0,
                    seed: int = 0) -> Match[Any, Any]:
    """A match whose first deal uses an explicit deck order (top first): a stacked deck.
    Later deals use the shuffle with ``seed``."""
    deck = g.deck(rules)
    cards = [deck.by_id(i) for i in order]
    if sorted(c.id for c in cards) != [c.id for c in deck.cards]:
        raise ValueError(f"a stacked deck must hold each card of the {deck.name} deck exactly once")
    m = Match.start(g, rules, seed, first_dealer)
    info = g.new_match(rules, first_dealer)
    setup = RoundSetup(1, info.dealer, g.seats_in_play(rules, info), info.scores)
    state = g.start_round(rules, cards, setup)
    return Match.advance(replace(m, info=info, state=state, deck_order=tuple(order)))


class ReferenceAdapter:
    """Drives :class:`hanafuda.engine.Match` for the spec's harness."""

    def __init__(self) -> None:
        self._m: Match[Any, Any] | None = None
        self._ended: list[RoundOutcome] = []

    @property
    def match(self) -> Match[Any, Any]:
        if self._m is None:
            raise RuntimeError("start() first")
        return self._m

    def start(self, game_name: str, options: Mapping[str, str], seed: int,
              deck: Sequence[int] | None = None) -> None:
        g = game(game_name)
        rules = g.rules(None, options)
        self._m = Match.start(g, rules, seed) if deck is None else start_from_deck(g, rules, deck, 0, seed)
        self._ended = []

    def start_with_scores(self, game_name: str, options: Mapping[str, str], seed: int,
                          scores: Sequence[int]) -> None:
        """:meth:`~hanafuda.adapter.ReferenceAdapter.start` with every seat holding ``scores`` (the spec's optional
        :class:`~hanafuda_spec.adapter.ScoresAdapter` capability)."""
        g = game(game_name)
        rules = g.rules(None, options)
        info = g.new_match(rules)
        if len(scores) != len(info.scores):
            raise ValueError(f"{len(scores)} scores for {len(info.scores)} seats")
        info = replace(info, scores=tuple(scores))
        self._m = Match.advance(Match._deal(g, rules, info, SplitMix64(seed)))
        self._ended = []

    def legal_actions(self) -> Sequence[str]:
        return [str(a) for a in self.match.legal_actions()]

    def apply(self, action: str) -> None:
        m = self.match
        before = len(m.info.history)
        finals: list[Snapshot] = []
        self._m = m.apply(Action.parse(action), lambda state, info: finals.append(m.game.snapshot(state, info)))
        self._ended = [_outcome(r, f) for r, f in zip(self._m.info.history[before:], finals, strict=True)]

    def snapshot(self) -> Snapshot:
        return self.match.snapshot()

    def rounds_ended(self) -> Sequence[RoundOutcome]:
        return list(self._ended)

    def match_over(self) -> bool:
        return self.match.over

    def score_pile(self, game_name: str, options: Mapping[str, str], cards: Sequence[int],
                   month: int | None) -> tuple[tuple[ScoredYaku, ...], int | None]:
        g = game(game_name)
        rules = g.rules(None, options)
        deck = g.deck(rules)
        ps = g.score(rules, [deck.by_id(c) for c in cards], month)
        return ps.yaku, ps.card_points


def _outcome(r: Any, final: Snapshot) -> RoundOutcome:
    return RoundOutcome(r.reason, tuple(r.deltas), bool(r.counts), tuple(tuple(s) for s in r.yaku),
                        tuple(r.notes), None if r.card_points is None else tuple(r.card_points), final)
