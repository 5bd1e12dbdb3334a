"""The encodings of the game-AI views (``hanafuda.aiview``), without the frameworks: every action the
engine offers under every option value has a number that decodes back to it, and the observation
shows a seat its own hand and not the others'."""

from __future__ import annotations

import struct
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


RULESETS = [(g.spec.key, rs.name) for g in available() for rs in g.spec.rulesets]


@pytest.mark.parametrize(("key", "ruleset"), RULESETS)
def test_observation_bytes_are_the_snapshots_observation(key: str, ruleset: str) -> None:
    # the float32 values the PettingZoo view reads (from the fishing table's masks where it can) are
    # Encoding.observe of the neutral snapshot, from every seat, at every position of random matches
    g = next(x for x in available() if x.spec.key == key)
    rules = g.rules(ruleset)
    enc = encoding(key)
    unpack = struct.Struct(f"={enc.observation_size}f").unpack
    seen = 0
    for seed in (3, 8):
        rng = SplitMix64(seed)
        m = Match.start(g, rules, seed)
        while not m.over and m.info.rounds_played < 2:
            for seat in range(g.seats(rules)):
                got = unpack(enc.observation_bytes(g, m.state, m.info, seat))
                assert list(got) == enc.observe(m.snapshot(), seat), (seed, seat, str(m.snapshot()))
                seen += 1
            legal = m.legal_actions()
            m = m.apply(legal[rng.below(len(legal))])
    assert seen > 0
