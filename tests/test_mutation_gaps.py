"""Tests written to kill mutants that survived a mutation run (docs/mutation.md): each names the
module and the mistake it catches."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda.games.musashino import GAME as MUSASHINO
from hanafuda_spec.games import GAME_KEYS, spec_for
from hanafuda_spec.shuffle import SplitMix64

BRIGHTS = frozenset({10, 30, 80, 110, 120})


def _play(game: str, options: Mapping[str, str], seed: int) -> ReferenceAdapter:
    a = ReferenceAdapter()
    a.start(game, dict(spec_for(game).resolve(None, dict(options))), seed)
    return a


@pytest.mark.parametrize("game", GAME_KEYS)
def test_the_deal_count_covers_every_round_played(game: str) -> None:
    """``MatchInfo.deals`` counts every deal, misdeals and the last one included, however the match ends
    (reference/hanafuda/games/kekoro.py: an instant victory counted two deals)."""
    opts = {"koikoi": {"length": "3"}, "kusurigui": {"rounds": "6"}, "musashino": {"length": "3"}}.get(game, {})
    for seed in (1, 2, 3):
        a = _play(game, opts, seed)
        rng = SplitMix64(seed)
        while not a.match_over():
            acts = a.legal_actions()
            a.apply(acts[rng.below(len(acts))])
        info = a.match.info
        assert info.deals == len(info.history), (seed, info.deals, len(info.history))


@pytest.mark.parametrize("mode", ["double", "count"])
def test_KK_SCORE_3_koikoi_field_multiplier_follows_the_brights_dealt(mode: str) -> None:
    """KK-SCORE-3: with field_multiplier=double a round is doubled only if a Bright was dealt to the
    table; with count, multiplied by one more than their number (reference/hanafuda/games/koikoi.py:
    'double' doubled every round)."""
    seen = set()
    for seed in range(1, 6):
        a = _play("koikoi", {"field_multiplier": mode, "length": "6"}, seed)
        rng = SplitMix64(seed)
        dealt = len(BRIGHTS & set(a.snapshot().zone("field")))
        while not a.match_over():
            acts = a.legal_actions()
            a.apply(acts[rng.below(len(acts))])
            for o in a.rounds_ended():
                notes = dict(o.notes)
                if "field" in notes:
                    want = (2 if dealt else 1) if mode == "double" else dealt + 1
                    assert notes["field"] == want, (seed, dealt, notes)
                    seen.add(dealt > 0)
            if a.rounds_ended() and not a.match_over():
                dealt = len(BRIGHTS & set(a.snapshot().zone("field")))
    assert seen == {True, False}  # both kinds of deal were scored


def test_MB_STORM_musashino_no_storm_without_the_storm_rule() -> None:
    """With storm=off nobody is ever stormed, though storm cards are captured (reference/hanafuda/games/
    musashino.py: the early 'storm is off' answer deleted)."""
    checked = 0
    for seed in (1, 2):
        a = _play("musashino", {"length": "3"}, seed)
        rng = SplitMix64(seed)
        while not a.match_over():
            state = a.match.state
            if state.taken:
                checked += 1
                assert not any(MUSASHINO.stormed(state, side) for side in range(3))
            acts = a.legal_actions()
            a.apply(acts[rng.below(len(acts))])
    assert checked


def test_an_action_compares_unequal_to_other_things() -> None:
    """``Action == x`` for an ``x`` that is not an action is False, not an error (reference/hanafuda/
    engine.py: the NotImplemented answer deleted)."""
    from hanafuda.engine import Action

    a = Action.parse("play 31 30")
    assert a not in ("play 31 30", ("play", (31, 30), ""), None, 3)
    assert a == Action("play", (31, 30)) and a in [None, "x", Action("play", (31, 30))]
