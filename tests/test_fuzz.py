"""The seeded mutation fuzzer (benchmarks/fuzz_inputs.py) on a small budget: mutated real logs and
records through both importers and ``validate`` are refused in one printable line or accepted,
never a crash (issue 31.5). The inputs are drawn from fixed seeds (the same on every run); the large
run is the benchmark's (benchmarks/README.md). Every crash a run found is a case of
``test_found_crashes_stay_fixed``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fuzz_inputs", ROOT / "benchmarks" / "fuzz_inputs.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_inputs"] = mod
    spec.loader.exec_module(mod)
    return mod


FUZZ = _tool()
BUDGET = {"koikoi-ai": 120, "battle-hanafuda": 200, "validate": 120}

#: (target, seed, input index) of the inputs that crashed a run before their fix.
FOUND: list[tuple[str, int, int]] = []


@pytest.mark.parametrize("target", FUZZ.TARGETS)
def test_mutated_inputs_never_crash(target: str) -> None:
    tally = FUZZ.run(target, BUDGET[target], seed=1)
    assert tally.crashes == [] and tally.inputs == BUDGET[target]
    # the budget reaches both outcomes, so the oracle is exercised on each
    assert len(tally.outcomes) >= 2, tally.outcomes


def test_the_inputs_depend_on_the_seed_and_index_alone() -> None:
    seeds = [b"Watch Start: P1=a CPU=b rounds=1 no_sake=0\n[Round Start]\n", b"[1, 2, 3]\n"]
    a = [FUZZ.mutated("battle-hanafuda", seeds, 7, i) for i in range(20)]
    assert a == [FUZZ.mutated("battle-hanafuda", seeds, 7, i) for i in range(20)]
    assert a != [FUZZ.mutated("battle-hanafuda", seeds, 8, i) for i in range(20)]


def test_the_oracle_reports_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    """A target that raises anything but a located refusal, or prints a message on two lines, is a
    crash: the oracle can fail."""

    class Broken:
        def read(self, source: str, data: bytes) -> list[dict[str, object]]:
            raise KeyError("planted")

    class Forger:
        def read(self, source: str, data: bytes) -> list[dict[str, object]]:
            raise FUZZ.ImporterError(1, "expected x\nhanafuda: error: forged")

    for planted in (Broken(), Forger()):
        monkeypatch.setattr(FUZZ, "BATTLE", planted)
        tally = FUZZ.run("battle-hanafuda", 3, seed=1)
        assert len(tally.crashes) == 3 and tally.outcomes == {"crash": 3}


@pytest.mark.parametrize(("target", "seed", "index"), FOUND or [pytest.param("", 0, 0, marks=pytest.mark.skip)])
def test_found_crashes_stay_fixed(target: str, seed: int, index: int) -> None:
    assert FUZZ.run(target, 1, seed=seed, start=index).crashes == []
