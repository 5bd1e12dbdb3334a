"""The encodings of the game-AI views (``hanafuda.aiview``), without the frameworks: every action the
engine offers under every option value has a number that decodes back to it, and the observation
shows a seat its own hand and not the others'."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hanafuda.aiview import encoding
from hanafuda.engine import Action, Match, play_match
from hanafuda.registry import available
from hanafuda_spec.catalogue import OptionError
from hanafuda_spec.shuffle import SplitMix64

CASES = [(g.spec.key, o.key, v) for g in available() for o in g.spec.options for v in o.choices]


@pytest.mark.parametrize(("key", "option", "value"), CASES)
def test_every_legal_action_has_a_number(key: str, option: str, value: str) -> None:
    g = next(x for x in available() if x.spec.key == key)
    try:
        rules = g.rules(None, {option: value})
    except OptionError:
        pytest.skip(f"{option}={value} needs other options")
    enc = encoding(key)
    rng = SplitMix64(9)
    seen = 0

    def choose(legal: Sequence[Action]) -> Action:
        nonlocal seen
        for a in legal:
            assert enc.decode(enc.encode(a)) == a
        seen += len(legal)
        return legal[rng.below(len(legal))]

    play_match(g, rules, 9, choose)
    assert seen > 0


@pytest.mark.parametrize("key", [g.spec.key for g in available()])
def test_observation_shows_own_hand_only(key: str) -> None:
    g = next(x for x in available() if x.spec.key == key)
    m = Match.start(g, g.rules(), 4)
    snap = m.snapshot()
    enc = encoding(key)
    u = len(enc.cards)
    for seat in range(g.seats(g.rules())):
        obs = enc.observe(snap, seat)
        assert len(obs) == enc.observation_size
        hand = {enc.cards[i] for i in range(u) if obs[i] == 1.0}
        assert hand == set(snap.zone(f"hand.{seat}"))
    assert enc.observation_string(snap, 0) != enc.observation_string(snap, 1)
