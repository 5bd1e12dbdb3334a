"""``--jobs``: the same output for every number of worker processes (issue 17): ``simulate``,
``validate``, ``verify``, ``vectors`` and ``identify``."""

from __future__ import annotations

import io
import json
import re
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
    whole = [(o.game, o.check, "proof", o.examples, o.ok, re.sub(r"\d+\.\d+s\b", "_s", o.detail),
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
