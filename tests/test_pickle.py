"""Matches and rules survive pickling (multiprocessing, checkpoints of training runs): a match pickled in
the middle of a round plays on exactly as the one it was copied from."""

from __future__ import annotations

import copy
import pickle

import pytest
from hanafuda.engine import Match
from hanafuda.registry import available
from hanafuda_spec.shuffle import SplitMix64


@pytest.mark.parametrize("key", [g.spec.key for g in available()])
def test_a_match_pickled_mid_round_plays_on_identically(key: str) -> None:
    g = next(g for g in available() if g.spec.key == key)
    for seed in range(3):
        rng = SplitMix64(seed)
        m = Match.start(g, g.rules(), seed)
        for _ in range(9 + seed):
            if m.over:
                break
            legal = m.legal_actions()
            m = m.apply(legal[rng.below(len(legal))])
        copies = [pickle.loads(pickle.dumps(m)), copy.deepcopy(m)]
        for c in copies:
            assert c.legal_actions() == m.legal_actions()
        a, bs = m, copies
        while not a.over:
            legal = a.legal_actions()
            choice = legal[rng.below(len(legal))]
            a = a.apply(choice)
            bs = [b.apply(choice) for b in bs]
        for b in bs:
            assert b.over and b.info == a.info
