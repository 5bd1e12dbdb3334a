"""The OpenSpiel view (``hanafuda.openspiel``): OpenSpiel's random simulation test (with
serialization) for every game and named ruleset, and records of random episodes that validate."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed (uv sync --extra openspiel)")

from hanafuda import openspiel as ho  # noqa: E402  (after the skip: it imports pyspiel)
from hanafuda.records import problems_of  # noqa: E402
from hanafuda.registry import available  # noqa: E402

RULESETS = [(g.spec.key, rs.name) for g in available() for rs in g.spec.rulesets]
#: Options that keep a whole match short, per game.
SHORT = {"koikoi": {"length": "1"}, "kusurigui": {"rounds": "6"}, "kujuroku": {},
         "musashino": {"length": "3"}, "kekoro": {"round_limit": "3"}}


@pytest.mark.parametrize(("key", "ruleset"), RULESETS)
def test_openspiel_random_sim_test(key: str, ruleset: str) -> None:
    game = pyspiel.load_game(ho.short_name(key), {"ruleset": ruleset, ho.ROUNDS: 1})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("key", list(SHORT))
def test_random_episode_is_a_valid_record(key: str) -> None:
    game = pyspiel.load_game(ho.short_name(key), SHORT[key])
    state = game.new_initial_state()
    rng = random.Random(7)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(rng.choice(outcomes))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    doc = state.record()
    assert doc["actions"] and problems_of(doc) == []
    assert sum(state.returns()) == sum(doc["result"]["scores"]) - sum(state.p.start_scores)


def test_numeric_options_load_back_from_the_game_string() -> None:
    game = pyspiel.load_game(ho.short_name("koikoi"), {"length": "1", "viewing": "off"})
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.config.options == {"length": "1", "viewing": "off"}


def test_information_state_strings_differ_by_seat() -> None:
    game = pyspiel.load_game(ho.short_name("koikoi"), {ho.ROUNDS: 1})
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    assert state.information_state_string(0) != state.information_state_string(1)
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()


def test_mcts_example_plays_koikoi(capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parent.parent / "examples" / "openspiel_mcts_koikoi.py"
    spec = importlib.util.spec_from_file_location("openspiel_mcts_koikoi", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(1, 5)
    assert "total over 1 episodes" in capsys.readouterr().out


def test_illegal_action_leaves_the_state_unchanged() -> None:
    from hanafuda.engine import IllegalActionError

    game = pyspiel.load_game(ho.short_name("koikoi"), {ho.ROUNDS: 1})
    state = game.new_initial_state()
    rng = random.Random(5)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    before = str(state)
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(IllegalActionError):
        state.apply_action(illegal)
    assert str(state) == before and len(state.p.steps) == 48
