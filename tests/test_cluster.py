"""``--cluster ADDRESS`` (issue 17): on a local Dask cluster of two worker processes, every command
gives the output of one process, byte for byte (``verify``: every check and result, times aside).

One cluster serves the whole module (2 worker processes, 1 thread each, no dashboard)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hanafuda.cli import main
from hanafuda.parallel import open_executor
from hanafuda.records import record_match
from hanafuda.registry import game

distributed = pytest.importorskip("dask.distributed")


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """The scheduler address of a local cluster: 2 worker processes, 1 thread each."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  host="127.0.0.1") as local:
        yield str(local.scheduler_address)


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def _same(args: list[str], address: str, capsys: pytest.CaptureFixture[str]) -> str:
    """The command's output in one process and on the cluster: equal; the output."""
    one = _run([*args, "--jobs", "1"], capsys)
    there = _run([*args, "--cluster", address], capsys)
    assert there == one
    return one[1]


def test_executor_map_keeps_the_order_of_the_items(cluster: str) -> None:
    with open_executor(cluster=cluster) as ex:
        assert ex.workers == 2 and not ex.in_process
        assert list(ex.map(abs, range(-50, 0), chunksize=7)) == list(range(50, 0, -1))


def test_simulate_on_the_cluster_equals_one_process(cluster: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = _same(["simulate", "kekoro", "--games", "60", "--seed", "3", "--json"], cluster, capsys)
    assert json.loads(out)["games"] == 60


def test_validate_on_the_cluster_equals_one_process(cluster: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """200 records (more than 64 per worker), one broken, one not JSON; text and --json output."""
    lines = [json.dumps(record_match(game("kekoro"), None, {}, s, s)) for s in range(200)]
    lines[150] = lines[150].replace('"play ', '"play 1', 1)
    lines.insert(70, "{not json")
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = _same(["validate", str(path)], cluster, capsys)
    assert "201 record(s), 199 valid, 1 invalid, 1 unusable" in out
    _same(["validate", str(path), "--json"], cluster, capsys)


def test_validate_on_the_cluster_with_errors_on_block_boundaries(cluster: str, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A cluster's workers get blocks of 128 records: broken records and a line that is not JSON on
    each side of the blocks, and option values tried for the first invalid records."""
    lines = [json.dumps(record_match(game("kekoro"), None, {}, s, s)) for s in range(300)]
    for i in (0, 127, 128, 255, 256, 299):
        lines[i] = lines[i].replace('"play ', '"play 1', 1)
    lines.insert(128, "{not json")
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = _same(["validate", str(path), "-o", "values=kusaba"], cluster, capsys)
    assert "301 record(s)" in out and ": hint: " in out
    _same(["validate", str(path), "--json"], cluster, capsys)


def _outline(text: str) -> list[dict[str, Any]]:
    checks: list[dict[str, Any]] = json.loads(text)["checks"]
    return [{k: v for k, v in c.items() if k != "seconds"} for c in checks]


def test_verify_on_the_cluster_gives_the_same_checks_and_results(cluster: str,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    args = ["verify", "--quick", "--game", "kekoro", "--json"]
    code, out, err = _run([*args, "--jobs", "1"], capsys)
    there = _run([*args, "--cluster", cluster], capsys)
    assert (there[0], there[2]) == (code, err) == (0, "")
    assert _outline(there[1]) == _outline(out)
    assert len(_outline(out)) > 10


def test_vectors_on_the_cluster_equal_one_process(cluster: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    trees = []
    for where in (["--jobs", "1"], ["--cluster", cluster]):
        out = tmp_path / where[0]
        code, _, err = _run(["vectors", str(out), "--game", "kekoro", "--games", "4", "--piles", "20", "--no-z3",
                             *where], capsys)
        assert (code, err) == (0, "")
        trees.append({str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()})
    assert trees[0] == trees[1]
    # README, shuffle, 4 files for each of Kekoro's 3 rulesets, 3 options, 2 separating (records, summary),
    # the illegal-action suite, the stacked-deal suite (records, deals)
    assert len(trees[0]) == 1 + 1 + 4 * 3 + 3 + 2 + 1 + 2


def test_identify_on_the_cluster_equals_one_process(cluster: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """One record no assignment explains: every ruleset ties as a start, and the starts after the first are
    searched by the cluster's workers, one task each."""
    docs = [record_match(game("koikoi"), "battle-hanafuda", {"length": "1", "seven_double": "off"}, s, s + 100)
            for s in range(4)]
    actions = docs[1]["actions"]
    assert isinstance(actions, list)
    actions[1] = "koikoi"  # a record that no assignment explains
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    out = _same(["identify", "koikoi", str(path), "--json"], cluster, capsys)
    assert json.loads(out)["valid"] == 3


def test_cluster_and_jobs_together_is_one_line_exit_2(cluster: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(["simulate", "kekoro", "--cluster", cluster, "--jobs", "2"], capsys)
    assert (code, out) == (2, "")
    assert err.splitlines() == ["hanafuda: error: --cluster and --jobs: choose one (with --cluster the cluster's "
                                "workers set how much runs at once)"]


def test_without_dask_cluster_is_one_line_exit_2(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Dask not installed (its import fails): one line naming the extra, exit 2, nothing written."""
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(["vectors", "out", "--games", "1", "--cluster", "127.0.0.1:8786"], capsys)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and "install 'hanafuda[cluster]'" in err, err
    assert list(tmp_path.iterdir()) == []


def test_the_connect_timeout_can_be_set(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("HANAFUDA_CLUSTER_TIMEOUT", "soon")
    code, _, err = _run(["simulate", "kekoro", "--cluster", "127.0.0.1:1"], capsys)
    assert code == 2 and err.splitlines() == [
        "hanafuda: error: HANAFUDA_CLUSTER_TIMEOUT='soon' is not a number of seconds more than 0 and at most 3600"]
