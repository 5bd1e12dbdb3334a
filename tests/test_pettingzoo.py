"""The PettingZoo view (``hanafuda.pettingzoo``): PettingZoo's own API and seed tests for every game
and named ruleset, records of random episodes that validate, and the Gymnasium single-agent view."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed (uv sync --extra pettingzoo)")

from hanafuda import pettingzoo as hp
from hanafuda.aiview import encoding
from hanafuda.engine import IllegalActionError
from hanafuda.records import problems_of
from hanafuda.registry import available
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test

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


@pytest.mark.parametrize("key", list(SHORT))
def test_observations_are_the_snapshots_observation(key: str) -> None:
    # every agent's observation at every step of a random episode: Encoding.observe of the neutral snapshot
    # as writable float32 arrays, and the mask of the legal actions of the agent to move (no other)
    e = hp.env(key, options=SHORT[key])
    enc = encoding(key)
    rng = np.random.default_rng(4)
    e.reset(seed=4)
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        m = e.match
        for other in e.agents:
            o = e.observe(other)
            want = np.array(enc.observe(m.snapshot(), e._seats[other]), dtype=np.float32)
            assert o["observation"].dtype == np.float32 and o["observation"].flags.writeable
            assert np.array_equal(o["observation"], want)
            legal = enc.mask(m.legal_actions()) if other == agent and not (terminated or truncated) else []
            assert np.flatnonzero(o["action_mask"]).tolist() == legal
        e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


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


def _seeded(e: Any, seed: int) -> Any:
    """``e`` with its action spaces seeded (their samples are then the same on every run)."""
    for i, agent in enumerate(e.possible_agents):
        e.action_space(agent).seed(seed + i)
    return e


@pytest.mark.parametrize("key", list(SHORT))
def test_pettingzoo_max_cycles_test(key: str) -> None:
    # the AEC and parallel environments in cycle form: the agents act in turn, waiting when not to move
    mod = SimpleNamespace(
        env=lambda max_cycles: _seeded(hp.env(key, max_cycles=max_cycles, cycle=True, seed=1), 1),
        parallel_env=lambda max_cycles: _seeded(hp.parallel_env(key, max_cycles=max_cycles, seed=1), 1))
    max_cycles_test(mod)


@pytest.mark.parametrize("key", list(SHORT))
def test_pettingzoo_parallel_api_test(key: str) -> None:
    parallel_api_test(_seeded(hp.parallel_env(key, options=SHORT[key], seed=2), 2), num_cycles=30)


def test_cycle_form_plays_a_whole_match_as_a_valid_record() -> None:
    par = _seeded(hp.parallel_env("kekoro", options=SHORT["kekoro"]), 6)
    par.reset(seed=6)
    waits = 0
    total = dict.fromkeys(par.possible_agents, 0.0)
    while par.agents:
        actions = {a: par.action_space(a).sample() for a in par.agents}
        waits += sum(int(n) == par.unwrapped.wait for n in actions.values())
        _, rewards, _, _, _ = par.step(actions)
        for a, r in rewards.items():
            total[a] += r
    aec = par.unwrapped
    assert waits > 0 and aec.match.over and problems_of(aec.record()) == []
    start = aec.game.new_match(aec.rules).scores
    assert [total[a] for a in aec.possible_agents] == [float(f - s) for f, s in zip(aec.match.info.scores, start,
                                                                                      strict=True)]


def test_cycle_form_refuses_a_move_out_of_turn() -> None:
    e = hp.env("koikoi", cycle=True)
    e.reset(seed=1)
    if e.observe("player_0")["action_mask"][e.wait] == 0:  # player_0 acts in this cycle: player_1 waits
        e.step(int(e.action_space("player_0").sample()))
    agent = e.agent_selection
    assert np.flatnonzero(e.observe(agent)["action_mask"]).tolist() == [e.wait]
    legal = e.encoding.encode(e.match.legal_actions()[0])  # a legal action of the game, out of turn
    with pytest.raises(ValueError, match="not to move"):
        e.step(legal)
    e.step(e.wait)
    assert e.agent_selection != agent


def test_sampling_an_action_space_draws_a_legal_action() -> None:
    e = _seeded(hp.env("koikoi"), 3)
    e.reset(seed=3)
    for _ in range(40):
        mask = e.observe(e.agent_selection)["action_mask"]
        action = int(e.action_space(e.agent_selection).sample())
        assert mask[action] == 1
        e.step(action)


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
