"""The mutation tool (benchmarks/mutation.py) plants what it says, picks the same sample for a seed,
and refuses bad input with one line and exit 2. The measurement itself never runs here."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_tool", ROOT / "benchmarks" / "mutation.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["mutation_tool"] = mod
    spec.loader.exec_module(mod)
    return mod


TOOL = _tool()

SOURCE = '''"""Doc."""
__all__ = ["f"]


def f(x: int) -> int:
    """Doc."""
    if x < 3 and x != 0:
        return 1
    return 2
'''


def test_sites_are_the_classic_operators_and_skip_docstrings() -> None:
    found = [(s.operator, s.detail) for s in TOOL.sites(SOURCE)]
    assert ("flip-comparison", "< -> >=") in found and ("flip-comparison", "!= -> ==") in found
    assert ("constant-plus-one", "3 -> 4") in found and ("and-or", "and -> or") in found
    assert ("negate-condition", "if not") in found
    assert ("delete-statement", "return deleted") in found
    assert all("Doc" not in d for _, d in found)


def test_each_mutant_changes_the_behaviour_it_names() -> None:
    def run(src: str, x: int) -> object:
        env: dict[str, object] = {}
        exec(compile(src, "<mutant>", "exec"), env)
        return env["f"](x)  # type: ignore[operator]

    for s in TOOL.sites(SOURCE):
        mutant = TOOL.mutate(SOURCE, s.index)
        assert mutant != SOURCE
        if s.operator == "flip-comparison" and s.detail == "< -> >=":
            assert run(mutant, 1) == 2 and run(mutant, 5) == 1
        if s.operator == "constant-plus-one" and s.detail == "3 -> 4":
            assert run(mutant, 3) == 1


def test_the_sample_is_seeded() -> None:
    a, b = TOOL.sample(100, 10, 19), TOOL.sample(100, 10, 19)
    assert a == b and len(set(a)) == 10 and TOOL.sample(100, 10, 20) != a
    assert TOOL.sample(3, 10, 1) == [0, 1, 2]


@pytest.mark.parametrize("argv", [["--module", "nope.py"], ["--sample", "0"], ["--sample", "x"], ["--bogus"]])
def test_bad_input_is_one_line_and_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert TOOL.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("mutation.py: ") and err.count("\n") == 1


def test_a_bad_results_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "r.json"
    bad.write_text("{not json", encoding="utf-8")
    assert TOOL.main(["--render", "--out", str(bad)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_every_rule_module_is_measured() -> None:
    for mod, (tests, _kw) in TOOL.MODULES.items():
        assert (ROOT / mod).is_file(), mod
        assert all((ROOT / t).is_file() for t in tests), mod
