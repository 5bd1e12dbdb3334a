"""``--jobs``: the same output for every number of worker processes (issue 17)."""

from __future__ import annotations

import pytest
from hanafuda.cli import main
from hanafuda.registry import game
from hanafuda.simulate import simulate


@pytest.mark.parametrize("key", ["koikoi", "kusurigui", "musashino"])
def test_simulate_statistics_do_not_depend_on_jobs(key: str) -> None:
    g = game(key)
    one = simulate(g, {}, None, 13, 2**64 - 5)  # a seed near the top: the jumped generator wraps
    assert simulate(g, {}, None, 13, 2**64 - 5, jobs=2) == one
    assert simulate(g, {}, None, 13, 2**64 - 5, jobs=5) == one


def test_simulate_command_output_is_identical_for_1_and_2_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for jobs in ("1", "2"):
        assert main(["simulate", "kekoro", "--games", "60", "--seed", "9", "--json", "--jobs", jobs]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert '"games": 60' in outputs[0]
