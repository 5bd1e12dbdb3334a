"""``--jobs``: the same output for every number of worker processes (issue 17): ``simulate``,
``validate``, ``verify``, ``vectors`` and ``identify``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda.cli import main
from hanafuda.records import record_match, validate_stream
from hanafuda.registry import game
from hanafuda.simulate import simulate
from hanafuda_spec.verify import QUICK, run_checks_in_parallel


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


def test_validate_output_is_identical_for_1_and_2_jobs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """300 records (enough for the workers to start), some broken, one not JSON: every report, in
    the same order, with the same exit code."""
    lines = [json.dumps(record_match(game("kekoro"), None, {}, s, s)) for s in range(300)]
    lines = [line.replace('"play ', '"play 1', 1) if i % 37 == 5 else line for i, line in enumerate(lines)]
    lines.insert(100, "{not json")
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    runs = []
    for jobs in ("1", "2"):
        for extra in ([], ["--json"]):
            code = main(["validate", str(path), "--jobs", jobs, *extra])
            out = capsys.readouterr()
            runs.append((jobs, extra, code, out.out, out.err))
    for i in (0, 1):
        one, two = runs[i], runs[i + 2]
        assert one[2:] == two[2:], (one[:2], two[:2])
    assert runs[0][2] == 2 and "300 record(s)" not in runs[0][3] and "301 record(s)" in runs[0][3]
    assert "8 invalid" in runs[0][3]


def test_validate_stream_reports_come_back_in_order() -> None:
    lines = b"".join(json.dumps(record_match(game("koikoi"), None, {}, s, s)).encode() + b"\n" for s in range(130))
    reports = list(validate_stream(io.BytesIO(lines), jobs=2))
    assert [r.record for r in reports] == list(range(1, 131))
    assert all(not r.problems for r in reports)


def test_verify_gives_the_same_checks_and_results_for_1_and_2_jobs() -> None:
    """The same checks in the same order with the same results (their times aside), for one game."""
    def outline(jobs: int) -> list[tuple[str, str, bool, int]]:
        return [(r.game, r.check, r.ok, r.examples)
                for r in run_checks_in_parallel(ReferenceAdapter, ["kekoro"], QUICK, 7, jobs)]

    one = outline(1)
    assert one == outline(2)
    assert len(one) > 10 and all(ok for _, _, ok, _ in one)


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_vectors_corpus_is_byte_identical_for_1_and_2_jobs(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Every file, byte for byte (the matches split into ranges across the workers)."""
    trees = []
    for jobs in ("1", "2"):
        out = tmp_path / jobs
        assert main(["vectors", str(out), "--game", "kekoro", "--game", "kusurigui", "--games", "5", "--piles", "20",
                     "--no-z3", "--jobs", jobs]) == 0
        trees.append(_tree(out))
    capsys.readouterr()
    assert trees[0] == trees[1]
    assert trees[0]["kekoro/fudawiki/games.jsonl"].count(b"\n") == 5


def test_identify_output_is_identical_for_1_and_2_jobs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Records under changed options, one of them broken: the same identification and problems."""
    options = {"length": "1", "seven_double": "off"}
    docs = [record_match(game("koikoi"), "battle-hanafuda", options, s, s + 100) for s in range(5)]
    actions = docs[2]["actions"]
    assert isinstance(actions, list)
    actions[1] = "koikoi"  # a record that no assignment explains
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    runs = []
    for jobs in ("1", "2"):
        code = main(["identify", "koikoi", str(path), "--json", "--jobs", jobs])
        runs.append((code, capsys.readouterr().out))
    assert runs[0] == runs[1]
    assert runs[0][0] == 1 and '"valid": 4' in runs[0][1]
