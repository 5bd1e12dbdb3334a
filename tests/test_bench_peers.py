"""The peer benchmark (benchmarks/bench_peers.py) gives every engine the same piles, drawn as it says,
names our cards in each peer's numbering one to one, and refuses bad input with one line and exit 2.
The measurement itself never runs here (no peer checkout is needed)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hanafuda_spec.cards import HANAFUDA, Kind, card
from hanafuda_spec.shuffle import SplitMix64, shuffled

ROOT = Path(__file__).resolve().parent.parent


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_peers", ROOT / "benchmarks" / "bench_peers.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["bench_peers"] = mod
    spec.loader.exec_module(mod)
    return mod


TOOL = _tool()
IDS = {c.id for c in HANAFUDA.cards}


def test_piles_are_uniform_subsets_of_4_to_23_cards() -> None:
    piles = TOOL.random_piles()
    assert len(piles) == 1000
    assert all(len(set(p)) == len(p) and set(p) <= IDS for p in piles)
    sizes = [len(p) for p in piles]
    assert set(sizes) == set(range(4, 24))  # every size drawn, none outside (1,000 draws of 20 sizes)
    assert TOOL.random_piles() == piles and TOOL.random_piles(seed=3) != piles


def test_piles_are_those_of_the_other_koikoi_benchmarks() -> None:
    # benchmarks/_bench.py: shuffled(cards, SplitMix64(2))[: 4 + rng.below(20)], 1,000 times
    rng = SplitMix64(2)
    expected = [tuple(c.id for c in shuffled(HANAFUDA.cards, rng)[: 4 + rng.below(20)]) for _ in range(1000)]
    assert TOOL.random_piles() == expected


def test_pile_sizes_out_of_the_deck_are_refused() -> None:
    with pytest.raises(ValueError, match="pile sizes"):
        TOOL.random_piles(10, 1, 5, 49)
    assert all(len(p) == 48 for p in TOOL.random_piles(5, 1, 48, 48))


def test_peer_numberings_are_one_to_one_and_keep_each_card() -> None:
    koikoi_ai = {c.id: TOOL.koikoi_ai_card(c.id) for c in HANAFUDA.cards}
    battle = {c.id: TOOL.battle_hanafuda_card(c.id) for c in HANAFUDA.cards}
    assert sorted(koikoi_ai.values()) == [(m, r) for m in range(1, 13) for r in range(1, 5)]
    assert sorted(battle.values()) == list(range(48))
    # KoiKoi-AI ranks a month's cards from the most valuable, Battle Hanafuda from the least.
    assert koikoi_ai[110] == (11, 1) and koikoi_ai[111] == (11, 2) and koikoi_ai[90] == (9, 1)
    assert battle[110] == 43 and battle[111] == 42 and battle[113] == 40 and battle[90] == 35
    for c in HANAFUDA.cards:
        if card(c.id).kind is Kind.BRIGHT:
            assert battle[c.id] % 4 == 3 and koikoi_ai[c.id][1] == 1


@pytest.mark.parametrize("bad", [0, 9, 14, 130, -10])
def test_numberings_refuse_what_is_not_a_card(bad: int) -> None:
    with pytest.raises(ValueError, match="not a hanafuda card id"):
        TOOL.koikoi_ai_card(bad)
    with pytest.raises(ValueError, match="not a hanafuda card id"):
        TOOL.battle_hanafuda_card(bad)


@pytest.mark.parametrize("argv", [["--koikoi-ai", "/nonexistent"], ["--open-hanafuda-ai", "/nonexistent"],
                                  ["--old", "/nonexistent"], ["--koikoi-ai-python", sys.executable],
                                  ["--koikoi-ai-python", "/nonexistent"], ["--seconds", "0"], ["--seconds", "nan"],
                                  ["--runs", "0"], ["--runs", "x"], ["--bogus"]])
def test_bad_input_is_one_line_and_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert TOOL.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("bench_peers.py: ") and captured.err.count("\n") == 1
    assert captured.out == ""
