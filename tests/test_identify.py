"""``hanafuda identify``: the search finds the rules records were written under."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hanafuda.cli import main
from hanafuda.identify import _Search, identify, parse_all
from hanafuda.parallel import Executor
from hanafuda.records import record_match, replay
from hanafuda.registry import game
from hanafuda_spec.games.koikoi import SPEC
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

KK = game("koikoi")
T = TypeVar("T")
R = TypeVar("R")
OPTIONS = list(SPEC.options)
#: Game lengths the property test draws (longer games only make the records slower to replay).
SHORT = ("1", "3")


def _records(ruleset: str, options: dict[str, str], seeds: range) -> list[dict[str, Any]]:
    return [record_match(KK, ruleset, options, seed=s, policy_seed=s + 100) for s in seeds]


def _valid_under(ruleset: str, values: dict[str, str], docs: list[dict[str, Any]]) -> bool:
    recs, _ = parse_all(docs)
    return all(not replay(replace(r, ruleset=ruleset, options=values), i + 1).problems for i, r in enumerate(recs))


@settings(derandomize=True, max_examples=5, deadline=None, phases=(Phase.explicit, Phase.generate))
@given(ruleset=st.sampled_from([rs.name for rs in SPEC.rulesets]),
       changes=st.lists(st.tuples(st.sampled_from(range(len(OPTIONS))), st.integers(0, 20)),
                        min_size=0, max_size=len(OPTIONS), unique_by=lambda c: c[0]))
def test_identify_finds_an_assignment_equal_on_every_distinguishable_option(
        ruleset: str, changes: list[tuple[int, int]]) -> None:
    """Records written under a random ruleset with any number of options (none to all of them) set to
    random values: identify returns an assignment under which every record replays with no problem, equal
    to the original on every option it does not report as undetermined."""
    options: dict[str, str] = {}
    for k, v in changes:
        o = OPTIONS[k]
        options[o.key] = o.choices[v % len(o.choices)]
    options["length"] = options["length"] if options.get("length") in SHORT else SHORT[len(changes) % 2]
    original = SPEC.resolve(ruleset, options)
    docs = _records(ruleset, options, range(3))
    recs, bad = parse_all(docs)
    assert not bad
    found = identify("koikoi", recs)
    values = {**SPEC.resolve(found.ruleset), **found.options}
    assert found.valid == found.records == 3, found.unexplained
    assert _valid_under(found.ruleset, values, docs)
    for key, value in original.items():
        if key not in found.undetermined:
            assert values[key] == value, (key, found)


def test_identify_finds_several_differences() -> None:
    options = {"multiplier": "self", "seven_double": "off", "length": "3"}
    recs, _ = parse_all(_records("battle-hanafuda", options, range(6)))
    found = identify("koikoi", recs)
    assert found.valid == 6
    values = {**SPEC.resolve(found.ruleset), **found.options}
    assert all(values[k] == v for k, v in options.items() if k not in found.undetermined)
    assert found.ruleset == "battle-hanafuda" and "multiplier" not in found.undetermined


def test_identify_names_each_profile() -> None:
    for profile in ("battle-hanafuda", "koikoi-japan", "go-koikoi", "koikoi-scorer"):
        recs, _ = parse_all(_records(profile, {}, range(2)))
        found = identify("koikoi", recs)
        assert found.ruleset == profile and found.valid == 2 and not found.options, found


def test_identify_reports_the_first_problem_of_an_unexplained_record(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    docs = _records("fudawiki", {"length": "1"}, range(3))
    broken = dict(docs[1])
    broken["actions"] = ["play 999", *broken["actions"][1:]]
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in (docs[0], broken, docs[2])), encoding="utf-8")
    assert main(["identify", "koikoi", str(path), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"game", "ruleset", "options", "undetermined", "records", "valid", "unexplained"}
    assert out["records"] == 3 and out["valid"] == 2
    assert [u["record"] for u in out["unexplained"]] == [2] and out["unexplained"][0]["rule"] == "KK-TURN-2"


@pytest.mark.parametrize("content", ["", "not json\n", '{"format": "x"}\n'])
def test_identify_bad_input_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               content: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    assert main(["identify", "koikoi", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1


def test_identify_missing_file_and_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["identify", "koikoi", "/nonexistent/x.jsonl"]) == 2
    assert main(["identify", "nosuchgame", "/nonexistent/x.jsonl"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "Traceback" not in err


class _Lazy(Executor):
    """Workers, as the search sees them (``in_process`` False: batches, starts searched as tasks), but
    each task run here only when its result is asked for: a task the search no longer wants is never run,
    as a cancelled one in a pool."""

    workers = 2
    in_process = False
    where = "test"

    def __init__(self) -> None:
        self.ran: list[str] = []

    def map(self, fn: Callable[[T], R], items: Iterable[T], chunksize: int = 1) -> Iterator[R]:
        for item in items:
            self.ran.append(getattr(fn, "__name__", "fits"))
            yield fn(item)


def test_identify_with_workers_equals_one_process_when_several_starts_tie() -> None:
    """One broken record: no assignment explains every record, every ruleset ties at the start and each
    is searched (the first here in batches, the others one task each): the same answer as one process."""
    docs = _records("battle-hanafuda", {"length": "1", "seven_double": "off"}, range(4))
    docs[1] = {**docs[1], "actions": ["koikoi", *docs[1]["actions"][1:]]}
    recs, bad = parse_all(docs)
    assert not bad
    lazy = _Lazy()
    assert identify("koikoi", recs, lazy) == identify("koikoi", recs)
    assert lazy.ran.count("_search_of") == len(SPEC.rulesets) - 1


def test_identify_with_workers_stops_at_the_first_start_that_explains_every_record(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The starts are searched in order, and the first whose end point explains every record ends the
    search: with workers, the searches of the later starts are cancelled (not run), and the answer is the
    one process's. (A search that ends with every record valid is made up here: the second start's.)"""
    docs = _records("battle-hanafuda", {"length": "1", "seven_double": "off"}, range(3))
    docs[0] = {**docs[0], "actions": ["koikoi", *docs[0]["actions"][1:]]}
    recs, _ = parse_all(docs)
    searched: list[str] = []
    run = _Search.run

    def pretend(self: _Search, values: Any, score: Any) -> Any:
        searched.append(self.ruleset)
        found = run(self, values, score)
        return ((len(recs), 0), found[1]) if len(searched) in (2, 4) else found  # the second start of each run

    monkeypatch.setattr(_Search, "run", pretend)
    alone = identify("koikoi", recs)
    first = list(searched)
    lazy = _Lazy()
    assert identify("koikoi", recs, lazy) == alone
    assert searched == first + first and len(first) == 2
    assert lazy.ran.count("_search_of") == 1  # the second start's; the third and later never ran


class _Forgetful(dict[str, Any]):
    """A worker's store of records that keeps nothing: every batch's items come back asking for them."""

    def __setitem__(self, key: str, value: Any) -> None:
        pass


def test_identify_with_workers_that_lack_the_records_sends_them_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches after the first send record numbers only; a worker that does not hold the records (here:
    none ever does) answers so, and its items go again with the records: the same answer."""
    import hanafuda.identify as module

    docs = _records("battle-hanafuda", {"length": "1", "seven_double": "off"}, range(3))
    docs[1] = {**docs[1], "actions": ["koikoi", *docs[1]["actions"][1:]]}
    recs, _ = parse_all(docs)
    alone = identify("koikoi", recs)
    holding = _Lazy()
    assert identify("koikoi", recs, holding) == alone
    monkeypatch.setattr(module, "_WORKER_RECORDS", _Forgetful())
    lazy = _Lazy()
    assert identify("koikoi", recs, lazy) == alone
    for task in ("_summary_of", "_fits_of"):  # every item after the first batch was sent twice
        assert holding.ran.count(task) < lazy.ran.count(task) <= 2 * holding.ran.count(task), task
