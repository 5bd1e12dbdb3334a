"""The OpenSpiel view (``hanafuda.openspiel``): OpenSpiel's random simulation test (with
serialization) for every game and named ruleset, and records of random episodes that validate."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

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


def _play(state: Any, rng: random.Random, until: Callable[[Any], bool]) -> None:
    """Random play (chance nodes included) from ``state`` until ``until(state)`` holds."""
    while not until(state):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_information_state_tensor_tells_histories_apart() -> None:
    # perfect recall: at the second deal's first chance node the observation shows only the scores, the
    # dealer and the round, so first rounds played differently often look the same there; their
    # information-state tensors (and strings) must still differ, for each seat
    game = pyspiel.load_game(ho.short_name("koikoi"), {ho.ROUNDS: 2})
    seen: dict[tuple[float, ...], Any] = {}
    pairs = 0
    for seed in range(40):
        state = game.new_initial_state()
        _play(state, random.Random(seed), lambda s: s.p.info.rounds_played == 1 and s.is_chance_node())
        key = tuple(state.observation_tensor(0)) + tuple(state.observation_tensor(1))
        other = seen.setdefault(key, state)
        if other is state:
            continue
        pairs += 1
        for seat in (0, 1):
            assert other.observation_tensor(seat) == state.observation_tensor(seat)
            assert other.information_state_tensor(seat) != state.information_state_tensor(seat)
            assert other.information_state_string(seat) != state.information_state_string(seat)
    assert pairs > 0


def test_information_state_tensor_hides_what_the_seat_does_not_see() -> None:
    # two deals alike but for the order of the last two cards of the stock: neither seat can tell them
    # apart before those are drawn, so each seat's information-state tensor is the same in both
    game = pyspiel.load_game(ho.short_name("koikoi"), {ho.ROUNDS: 1})
    order = list(range(48))
    random.Random(8).shuffle(order)
    states = []
    for deck in (order, [*order[:-2], order[-1], order[-2]]):
        state = game.new_initial_state()
        for card in deck:
            state.apply_action(card)
        states.append(state)
    a, b = states
    assert str(a) != str(b)
    for _ in range(3):  # the first plays, the same in both
        for seat in (0, 1):
            assert a.information_state_tensor(seat) == b.information_state_tensor(seat)
        action = a.legal_actions()[0]
        a.apply_action(action)
        b.apply_action(action)


def test_information_state_tensor_reads_back_the_seats_own_actions() -> None:
    game = pyspiel.load_game(ho.short_name("kekoro"), {ho.ROUNDS: 1})
    state = game.new_initial_state()
    mine: list[int] = []
    rng = random.Random(2)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        elif state.current_player() == 0:
            mine.append(rng.choice(state.legal_actions()))
            state.apply_action(mine[-1])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    size = game.observation_tensor_size()
    tensor = state.information_state_tensor(0)
    assert tensor[:size] == state.observation_tensor(0) and tensor[size] == len(state.history())
    events = [tuple(tensor[i:i + 3]) for i in range(size + 1, len(tensor), 3)]
    assert [int(i) - size for _, i, _ in events if i >= size] == mine


def test_information_state_tensor_too_small_a_room_is_an_error() -> None:
    game = pyspiel.load_game(ho.short_name("koikoi"), {ho.ROUNDS: 1, ho.HISTORY: 5})
    assert game.information_state_tensor_size() == game.observation_tensor_size() + 1 + 15
    state = game.new_initial_state()
    _play(state, random.Random(1), lambda s: not s.is_chance_node())
    with pytest.raises(ValueError, match="history_events"):
        state.information_state_tensor(0)
    assert len(pyspiel.load_game(ho.short_name("koikoi"), {ho.HISTORY: 0}).new_initial_state()
               .information_state_tensor(0)) == game.observation_tensor_size()
