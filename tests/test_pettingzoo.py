"""The PettingZoo view (``hanafuda.pettingzoo``): PettingZoo's own API and seed tests for every game
and named ruleset, records of random episodes that validate, and the Gymnasium single-agent view."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed (uv sync --extra pettingzoo)")

from hanafuda import pettingzoo as hp
from hanafuda.aiview import encoding
from hanafuda.engine import IllegalActionError
from hanafuda.records import problems_of
from hanafuda.registry import available
from pettingzoo.test import api_test, seed_test

RULESETS = [(g.spec.key, rs.name) for g in available() for rs in g.spec.rulesets]
#: Options that keep a whole match short, per game.
SHORT = {"koikoi": {"length": "1"}, "kusurigui": {"rounds": "6"}, "kujuroku": {},
         "musashino": {"length": "3"}, "kekoro": {"round_limit": "3"}}


def play_random(e: hp.HanafudaEnv, seed: int) -> None:
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        del agent


@pytest.mark.parametrize(("key", "ruleset"), RULESETS)
def test_pettingzoo_api_test(key: str, ruleset: str) -> None:
    api_test(hp.env(key, ruleset), num_cycles=30)


@pytest.mark.parametrize(("key", "ruleset"), RULESETS)
def test_pettingzoo_seed_test(key: str, ruleset: str) -> None:
    seed_test(lambda: hp.env(key, ruleset), num_cycles=30)


@pytest.mark.parametrize("key", list(SHORT))
def test_random_episode_is_a_valid_record(key: str) -> None:
    e = hp.env(key, options=SHORT[key])
    play_random(e, 11)
    assert all(e.terminations.values()) or not e.agents
    doc = e.record()
    assert doc["actions"] and problems_of(doc) == []


@pytest.mark.parametrize("key", list(SHORT))
def test_rewards_add_up_to_the_settlement(key: str) -> None:
    e = hp.env(key, options=SHORT[key])
    rng = np.random.default_rng(5)
    e.reset(seed=5)
    total = dict.fromkeys(e.possible_agents, 0.0)
    start = e.match.info.scores
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        total[agent] += reward
        e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    final = e.match.info.scores
    assert [total[a] for a in e.possible_agents] == [float(f - s) for f, s in zip(final, start, strict=True)]


def test_illegal_action_is_rejected_by_the_engine() -> None:
    e = hp.env("koikoi")
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(illegal)


@pytest.mark.parametrize("key", list(SHORT))
def test_every_legal_action_has_a_number(key: str) -> None:
    enc = encoding(key)
    e = hp.env(key, options=SHORT[key])
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    while not e.match.over:
        legal = e.match.legal_actions()
        numbers = enc.mask(legal)
        assert sorted(enc.decode(n) for n in numbers) == sorted(legal)
        e.step(int(rng.choice(numbers)))


def test_max_cycles_truncates_the_episode() -> None:
    e = hp.env("koikoi", max_cycles=4)
    play_random(e, 3)
    assert max(e._turns.values()) == 4


@pytest.mark.parametrize("key", list(SHORT))
def test_single_agent_env_plays_a_match(key: str) -> None:
    env = hp.SingleAgentEnv(key, options=SHORT[key])
    obs, _ = env.reset(seed=4)
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(4)
    done = False
    total = 0.0
    while not done:
        obs, reward, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += reward
        done = terminated or truncated
    m = env.aec.match
    assert m.over
    assert total == float(m.info.scores[0] - env.aec.game.new_match(env.aec.rules).scores[0])
