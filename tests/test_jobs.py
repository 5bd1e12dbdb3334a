"""``--jobs``: the same output for every number of worker processes (issue 17): ``simulate``,
``validate``, ``verify``, ``vectors`` and ``identify``."""

from __future__ import annotations

import io
import json
import re
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda.cli import main
from hanafuda.records import record_match, validate_stream
from hanafuda.registry import game
from hanafuda.simulate import simulate
from hanafuda_spec.games import GAME_KEYS, profile_for
from hanafuda_spec.invariants import run_random
from hanafuda_spec.proofs import proof_check_names, proof_checks
from hanafuda_spec.shuffle import SplitMix64
from hanafuda_spec.verify import (
    PARTS,
    QUICK,
    THOROUGH,
    CheckResult,
    Level,
    Unit,
    count_checks,
    option_sets,
    plan_units,
    random_play_checks,
    random_play_name,
    run_checks_in_parallel,
    run_unit,
    schedule,
)


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


def _without_times(r: CheckResult) -> tuple[object, ...]:
    """A check's result, times aside (its own and those a proof's detail may give)."""
    return (r.game, r.check, r.kind, r.examples, r.ok, re.sub(r"\d+\.\d+s\b", "_s", r.detail),
            json.dumps(r.counterexample, sort_keys=True), r.cases)


def test_verify_gives_the_same_checks_and_results_for_1_and_2_jobs() -> None:
    """The same checks in the same order with the same results (their times aside), for one game."""
    def outline(jobs: int) -> list[tuple[object, ...]]:
        return [_without_times(r) for r in run_checks_in_parallel(ReferenceAdapter, ["kekoro"], QUICK, 7, jobs)]

    one = outline(1)
    assert one == outline(2)
    assert len(one) > 10 and all(r[4] for r in one)


@pytest.mark.parametrize("level", [QUICK, THOROUGH], ids=["quick", "thorough"])
def test_verify_units_hold_every_check_once_in_report_order(level: Level) -> None:
    """``plan_units``: every check of every game in exactly one unit, the units in report order
    (per game: the random play of each option set, each state machine, the proofs as listed), as
    many checks as ``count_checks`` says."""
    units = plan_units(None, level)
    assert all(u.checks and u.part in PARTS for u in units)
    named = [(u.game, c) for u in units for c in u.checks]
    assert len(named) == len(set(named)) == count_checks(None, level)
    assert [g for g in dict.fromkeys(u.game for u in units)] == list(GAME_KEYS)
    for g in GAME_KEYS:
        mine = [u for u in units if u.game == g]
        assert [u.part for u in mine] == sorted((u.part for u in mine), key=PARTS.index)
        assert [c for u in mine if u.part == "random play" for c in u.checks] == [
            random_play_name(label) for label, _ in option_sets(g)]
        assert [c for u in mine if u.part == "proofs" for c in u.checks] == proof_check_names(g, level.quick)
    # every option set and every proof is a unit of its own: two workers share the longest part
    assert max(len(u.checks) for u in units) == 1
    assert len([u for u in units if u.game == "koikoi" and u.part == "proofs"]) > 100


def test_verify_proofs_run_unit_by_unit_give_the_results_of_one_whole_run() -> None:
    """Each proof run as a unit of its own (here in reverse order, by a pool of 2 processes) has
    the outcome it has when the game's proofs all run in one go in one process."""
    whole = [(o.game, o.check, o.kind, o.examples, o.ok, re.sub(r"\d+\.\d+s\b", "_s", o.detail),
              json.dumps(dict(o.counterexample), sort_keys=True), tuple((c.text, c.gap) for c in o.cases))
             for o in proof_checks(ReferenceAdapter(), "kujuroku", True)]
    units = [u for u in plan_units(["kujuroku"], QUICK) if u.part == "proofs"]
    with ProcessPoolExecutor(max_workers=2) as pool:
        got = list(pool.map(partial(run_unit, ReferenceAdapter, QUICK, 7), units[::-1]))[::-1]
    assert [_without_times(r) for rs in got for r in rs] == whole
    assert len(whole) > 10


def test_verify_random_play_of_each_option_set_continues_one_generator() -> None:
    """The random play of an option set run alone (a unit) plays the matches a single generator
    gives when every option set runs in turn: two seeds per match, option set after option set."""
    level, seed, adapter, profile = Level("test", 2), 2**64 - 3, ReferenceAdapter(), profile_for("kekoro")
    master = SplitMix64(seed)  # the generator wraps past 2**64
    expected = []
    for _, opts in option_sets("kekoro"):
        reports = [run_random(adapter, profile, opts, master.next(), master.next()) for _ in range(level.matches)]
        expected.append(f"{sum(r.actions for r in reports)} actions")
    alone = [r.detail for label, _ in option_sets("kekoro")[::-1]
             for r in random_play_checks(adapter, "kekoro", level, seed, {random_play_name(label)})][::-1]
    assert alone == expected and len(set(expected)) > 1


def test_verify_unit_with_unknown_checks_is_refused() -> None:
    with pytest.raises(ValueError, match="no such"):
        run_unit(ReferenceAdapter, QUICK, 7, Unit("kekoro", "proofs", ("no such proof",)))
    with pytest.raises(ValueError, match="no such"):
        run_unit(ReferenceAdapter, QUICK, 7, Unit("kekoro", "random play", ("invariants, random play, nowhere",)))


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


# -- the parallel paths of issue 17's speed-ups: block boundaries, small inputs, the JSON text -----


def _kekoro_lines(n: int) -> list[str]:
    return [json.dumps(record_match(game("kekoro"), None, {}, s, s)) for s in range(n)]


def _validate_runs(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> list[tuple[int, str, str]]:
    """``validate`` of ``path`` with 1, 2 and 3 jobs: exit code, stdout and stderr of each."""
    runs = []
    for jobs in ("1", "2", "3"):
        code = main(["validate", str(path), "--jobs", jobs, *extra])
        out = capsys.readouterr()
        runs.append((code, out.out, out.err))
    return runs


@pytest.mark.parametrize("extra", [[], ["--json"], ["--all", "--no-suggest"], ["--select", "REC-", "--json"],
                                   ["-o", "values=kusaba"], ["-o", "values=kusaba", "--json"]])
def test_validate_errors_on_block_boundaries_are_reported_as_in_one_process(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str]) -> None:
    """Broken records and unusable lines on each side of the workers' blocks (32 records) and of
    the first window (64 records a worker), blank lines that shift the line numbers, and more
    invalid records than option values are tried for (20): the same reports with 1, 2 and 3 jobs."""
    import hanafuda.commands.validate as command

    assert (command._BLOCK, command._MIN_PER_JOB, command._SUGGEST) == (32, 64, 20)
    lines = _kekoro_lines(330)
    for i in (0, 30, 31, 32, 33, 63, 64, 127, 128, 129, 191, 192, 255, 256, 300, 310, 311, 312, 313, 314, 315,
              316, 317, 318, 319, 320, 321, 322, 323, 324, 325, 326, 327, 328, 329):
        lines[i] = lines[i].replace('"play ', '"play 1', 1)
    for i in (96, 64, 32):
        lines.insert(i, "{not json")
    lines.insert(200, "")
    lines.insert(10, "   ")
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8")  # no newline after the last record
    runs = _validate_runs(path, capsys, *extra)
    assert runs[0] == runs[1] == runs[2]
    assert runs[0][0] == 2
    if not extra:
        assert "333 record(s), 295 valid, 35 invalid, 3 unusable" in runs[0][1]
    if extra == ["-o", "values=kusaba"]:  # option values tried for the first 20 invalid records only
        hinted = {line.split(": record ")[1].split(":")[0] for line in runs[0][1].splitlines() if ": hint: " in line}
        assert 10 < len(hinted) <= 20


def test_validate_keeps_the_same_json_summaries_past_the_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """--json keeps the first _KEEP summaries (a worker writes those of valid records): with the
    limit inside a block, the same summaries and the same count of the others."""
    import hanafuda.commands.validate as command

    monkeypatch.setattr(command, "_KEEP", 45)
    lines = _kekoro_lines(200)
    lines[44] = lines[44].replace('"play ', '"play 1', 1)
    lines[46] = lines[46].replace('"play ', '"play 1', 1)
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    runs = _validate_runs(path, capsys, "--json")
    assert runs[0] == runs[1] == runs[2]
    report = json.loads(runs[0][1])["files"][0]
    assert len(report["reports"]) == 45 and report["more_records"] == 155
    assert [r["ok"] for r in report["reports"][43:]] == [True, False]


@pytest.mark.parametrize("n", [0, 1, 127, 128])
def test_validate_of_few_records_is_the_same_for_every_number_of_jobs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], n: int) -> None:
    """No record (exit 2, one line on stderr), one, and just below and at the 64 records a worker
    from which the workers are used."""
    lines = _kekoro_lines(n)
    if n:
        lines[-1] = lines[-1].replace('"play ', '"play 1', 1)
    path = tmp_path / "r.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    for extra in ([], ["--json"]):
        runs = _validate_runs(path, capsys, *extra)
        assert runs[0] == runs[1] == runs[2]
        assert runs[0][0] == (2 if n == 0 else 1)
    if n == 0:
        assert runs[0][2].count("\n") == 1 and "no records" in runs[0][2]


def test_validate_json_text_is_what_json_dump_writes() -> None:
    """The --json document put together from summaries written apart equals json.dump of the whole."""
    from hanafuda.commands.validate import _json_output, _report_json
    from hanafuda.records import validate_document

    reps = [validate_document(record_match(game("kekoro"), None, {}, s, s), s + 1) for s in range(3)]
    reps[1].problems.clear()
    files: list[dict[str, object]] = [
        {"file": 'a "quoted"\\name\u3042', "records": 3, "reports": reps},
        {"file": "\x00", "records": 0, "reports": [], "error": "no records"},
        {"file": "b", "records": 1, "reports": reps[:1]},
    ]
    want = json.dumps({"ok": False, "exit": 2, "files": [{**f, "reports": [r.to_json() for r in f["reports"]]}  # type: ignore[attr-defined]
                                                         for f in files]}, ensure_ascii=False, indent=2) + "\n"
    got = _json_output(2, [{**f, "reports": [_report_json(r) for r in f["reports"]]} for f in files])  # type: ignore[attr-defined]
    assert got == want


def test_a_worker_that_dies_is_one_line() -> None:
    import os

    from hanafuda.commands._common import UsageError
    from hanafuda.parallel import open_executor

    with open_executor(2) as ex, pytest.raises(UsageError, match="worker process stopped") as e:
        list(ex.map(os._exit, [3, 3]))
    assert "\n" not in str(e.value)


def _long_item(marker: str) -> None:
    """A worker's long item: it marks its start, and its end (which an interrupted item never reaches)."""
    Path(marker + ".started").write_text("")
    time.sleep(120)
    Path(marker + ".ended").write_text("")


def test_a_run_stopped_here_stops_the_workers_items_under_way_and_queued(tmp_path: Path) -> None:
    """When the run stops in this process (an error, or an interrupt of this process alone), the workers'
    items under way are stopped and those queued to them are not run, rather than waited for (closing
    would wait two minutes here, and the items would mark their end)."""
    from hanafuda.parallel import open_executor

    markers = [str(tmp_path / f"item{k}") for k in range(4)]
    with pytest.raises(ValueError, match="stopped here"), open_executor(2) as ex:
        ex.map(_long_item, markers)
        for _ in range(3000):  # until a worker is under way (a wait, not a timing)
            if any(Path(m + ".started").exists() for m in markers):
                break
            time.sleep(0.01)
        raise ValueError("stopped here")
    assert any(Path(m + ".started").exists() for m in markers)
    assert not any(Path(m + ".ended").exists() for m in markers)


def _collector_on(_: int) -> bool:
    import gc

    return gc.isenabled()


def test_workers_run_without_the_collector_only_when_asked() -> None:
    """``open_executor(collector=False)`` (what ``identify`` asks for): the workers run with the cyclic
    garbage collector off; by default they keep it."""
    from hanafuda.parallel import open_executor

    with open_executor(2) as ex:
        assert list(ex.map(_collector_on, range(4))) == [True] * 4
    with open_executor(2, collector=False) as ex:
        assert list(ex.map(_collector_on, range(4))) == [False] * 4


def test_this_process_runs_without_the_collector_while_the_executor_is_open_when_asked() -> None:
    """``collector=False`` pauses the collector here too, for every kind of executor, and only while it
    is open (the program's setting, applied once by the execution layer)."""
    import gc

    from hanafuda.parallel import open_executor

    for jobs in (1, 2):
        with open_executor(jobs) as ex:
            assert gc.isenabled()
            assert list(ex.map(_collector_on, range(2))) == [True] * 2
        with open_executor(jobs, collector=False) as ex:
            assert not gc.isenabled()
            assert list(ex.map(_collector_on, range(2))) == [False] * 2
        assert gc.isenabled()


def test_workers_are_forked_only_while_one_thread_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """fork copies only the calling thread: with another thread running, the workers are spawned
    (and give the same results)."""
    import sys
    import threading

    from hanafuda import parallel

    with monkeypatch.context() as m:
        m.setattr(threading, "active_count", lambda: 1)
        assert parallel.start_method() == ("fork" if sys.platform.startswith("linux") else "spawn")
        m.setattr(threading, "active_count", lambda: 2)
        assert parallel.start_method() == "spawn"
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert parallel.start_method() == "spawn"
        with parallel.open_executor(2) as ex:
            assert list(ex.map(abs, range(-5, 0), chunksize=2)) == [5, 4, 3, 2, 1]
    finally:
        stop.set()
        other.join()


@pytest.mark.parametrize("jobs", ["2", "3"])
def test_vectors_sent_largest_first_are_written_in_order(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         jobs: str) -> None:
    trees = []
    for j in ("1", jobs):
        out = tmp_path / j
        assert main(["vectors", str(out), "--game", "kekoro", "--game", "musashino", "--games", "7", "--piles", "10",
                     "--no-z3", "--jobs", j]) == 0
        trees.append(_tree(out))
    capsys.readouterr()
    assert trees[0] == trees[1]


def _die(*args: object, **kwargs: object) -> None:
    import os

    os._exit(9)


def test_validate_whose_worker_dies_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker killed (here: one that exits at its first block) stops the command: one line on
    stderr, exit 2, nothing on stdout."""
    import hanafuda.commands.validate as command

    path = tmp_path / "r.jsonl"
    path.write_text("".join(line + "\n" for line in _kekoro_lines(130)), encoding="utf-8")
    monkeypatch.setattr(command, "_check_block", _die)
    code = main(["validate", str(path), "--jobs", "2", "--json"])
    out = capsys.readouterr()
    assert code == 2 and out.out == ""
    assert out.err.count("\n") == 1 and "worker process stopped" in out.err


def test_verify_schedule_hands_out_the_long_units_first_and_each_unit_once() -> None:
    """``schedule``: every unit once; the bounded proofs first, then the sampled proofs and the state
    machines, then the random play, then the other proofs and the reports, each in report order."""
    units = plan_units(None, THOROUGH)
    order = schedule(units)
    assert sorted(order) == list(range(len(units)))

    def rank(u: Unit) -> int:
        if u.part == "random play":
            return 2
        if u.part == "state machines" or u.kind == "sampled":
            return 1
        return 0 if u.kind == "bounded" else 3
    assert order == sorted(range(len(units)), key=lambda i: (rank(units[i]), i))
    assert units[order[0]].kind == "bounded" and units[order[-1]].kind in ("proof", "report")
