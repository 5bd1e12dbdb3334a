"""``hanafuda identify``: the search finds the rules records were written under."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar, cast

import pytest
from hanafuda.cli import main
from hanafuda.identify import identify, parse_all
from hanafuda.identify.search import Search as _Search
from hanafuda.identify.workers import _chunk_of
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
            if fn is _chunk_of:  # a chunk of a batch: its items' function, once for each
                inner, chunk = cast(tuple[Callable[..., Any], list[Any]], item)
                self.ran.extend([inner.__name__] * len(chunk))
            else:
                self.ran.append(getattr(fn, "__name__", "fits"))
            yield fn(item)


def test_identify_with_workers_equals_one_process_when_several_starts_tie() -> None:
    """One broken record: no assignment explains every record, every ruleset ties at the start and each
    is searched (the first here in batches, the others one task each but the one sent last, also here in
    batches): the same answer as one process."""
    docs = _records("battle-hanafuda", {"length": "1", "seven_double": "off"}, range(4))
    docs[1] = {**docs[1], "actions": ["koikoi", *docs[1]["actions"][1:]]}
    recs, bad = parse_all(docs)
    assert not bad
    lazy = _Lazy()
    assert identify("koikoi", recs, lazy) == identify("koikoi", recs)
    assert lazy.ran.count("_search_of") == len(SPEC.rulesets) - 2  # the first start and the last sent: here


def test_identify_with_workers_stops_at_the_first_start_that_explains_every_record(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The starts are searched in order, and the first whose end point explains every record ends the
    search: with workers, the searches sent after it are cancelled (not run), and the answer is the one
    process's. (A search that ends with every record valid is made up here: the second start's; the
    searches are sent in the order of the starts, not longest first, so that the second start's is sent
    first.)"""
    import hanafuda.identify.workers as module

    docs = _records("battle-hanafuda", {"length": "1", "seven_double": "off"}, range(3))
    docs[0] = {**docs[0], "actions": ["koikoi", *docs[0]["actions"][1:]]}
    recs, _ = parse_all(docs)
    searched: list[str] = []
    run = _Search.run

    def pretend(self: _Search, values: Any, score: Any) -> Any:
        searched.append(self.ruleset)
        found = run(self, values, score)
        second = len(searched) > 1 and self.ruleset == searched[1]  # the second start searched alone
        return ((len(recs), 0), found[1]) if second else found

    monkeypatch.setattr(_Search, "run", pretend)
    monkeypatch.setattr(module, "_longest_first", lambda starts, near: list(range(len(starts))))
    alone = identify("koikoi", recs)
    first = list(searched)
    lazy = _Lazy()
    assert identify("koikoi", recs, lazy) == alone
    assert searched == first + first and len(first) == 2
    assert lazy.ran.count("_search_of") == 1  # the second start's; the third and later never ran


def test_identify_with_workers_drops_the_early_checks_of_a_point_a_later_start_beats(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """While the other starts are searched, step 4's first checks are sent for the first start's end point;
    when a later start ends better (made up here: the third start's end scores higher), they are dropped
    and step 4 runs for the better point: the answer is the one process's. When the first start's end
    stays the best, they are taken."""
    import hanafuda.identify.workers as module

    docs = _records("battle-hanafuda", {"length": "1", "seven_double": "off"}, range(3))
    docs[1] = {**docs[1], "actions": ["koikoi", *docs[1]["actions"][1:]]}
    recs, _ = parse_all(docs)
    settled: list[bool] = []
    settle = module._Early.settle

    def spy(self: Any, wanted: bool) -> None:
        if self.sent is not None:
            settled.append(wanted)
        settle(self, wanted)

    monkeypatch.setattr(module._Early, "settle", spy)
    assert identify("koikoi", recs, _Lazy()) == identify("koikoi", recs)
    assert settled == [True]
    searched: list[str] = []
    run = _Search.run

    def pretend(self: _Search, values: Any, score: Any) -> Any:
        searched.append(self.ruleset)
        found = run(self, values, score)
        third = len(searched) > 2 and self.ruleset == searched[2]
        return ((found[0][0], 10**12), found[1]) if third else found

    monkeypatch.setattr(_Search, "run", pretend)
    settled.clear()
    alone = identify("koikoi", recs)
    assert identify("koikoi", recs, _Lazy()) == alone and alone.ruleset == searched[2]
    assert settled == [False]


class _Forgetful(dict[str, Any]):
    """A worker's store of records that keeps nothing: every batch's items come back asking for them."""

    def __setitem__(self, key: str, value: Any) -> None:
        pass


def test_identify_with_workers_that_lack_the_records_sends_them_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches after the first send record numbers only; a worker that does not hold the records (here:
    none ever does) answers so, and its items go again with the records: the same answer."""
    import hanafuda.identify.workers as module

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


def test_identify_batches_go_out_in_shrinking_chunks() -> None:
    """A batch is cut into chunks of what is left over twice the workers (or eight times), none under the
    least (the last excepted), every item once and in order; with the records, the first chunk of each
    worker carries them."""
    from hanafuda.identify.workers import _guided

    lazy = _Lazy()
    sizes: list[int] = []

    def seen(item: tuple[Any, ...]) -> tuple[Any, ...]:
        return item

    real = lazy.map

    def counting(fn: Callable[[T], R], items: Iterable[T], chunksize: int = 1) -> Iterator[R]:
        items = list(items)
        sizes.extend(len(chunk) for _, chunk in cast(list[tuple[Any, list[Any]]], items))
        return real(fn, items, chunksize)

    lazy.map = counting  # type: ignore[method-assign]
    items = [("token", None, k) for k in range(100)]
    records = (object(),)
    out = list(_guided(lazy, seen, items, (8, 2), records))  # type: ignore[arg-type]
    assert sizes == [25, 19, 14, 11, 8, 8, 8, 7]
    assert [k for _, _, k in out] == list(range(100))  # type: ignore[misc]
    assert [r is records for _, r, _ in out] == [True] * 44 + [False] * 56  # type: ignore[misc]
    sizes.clear()
    assert list(_guided(lazy, seen, items[:5], (1, 8))) == items[:5]
    assert sizes == [1] * 5


def test_identify_with_workers_forked_holding_the_records_sends_none(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers forked while the records are held (as the program does) have them: no batch carries them,
    and the answer is the one process's. Workers that do not have them (a pool opened before, or not
    forked) ask for them and get them: the same answer."""
    import hanafuda.identify.workers as module
    from hanafuda.parallel import open_executor

    docs = _records("battle-hanafuda", {"length": "1", "seven_double": "off"}, range(4))
    docs[1] = {**docs[1], "actions": ["koikoi", *docs[1]["actions"][1:]]}
    recs, _ = parse_all(docs)
    alone = identify("koikoi", recs)
    carried: list[int] = []
    with_records = module._with_records

    def spy(item: Any, records: Any) -> Any:
        carried.append(1)
        return with_records(item, records)

    monkeypatch.setattr(module, "_with_records", spy)
    with module.held_for_workers(recs) as held, open_executor(2) as ex:
        assert identify("koikoi", recs, ex, held=held) == alone
    assert not carried or not ex.forked  # elsewhere than Linux the workers are spawned: records sent
    with open_executor(2) as ex, module.held_for_workers(recs) as held:  # the workers began without them
        assert identify("koikoi", recs, ex, held=held) == alone
    assert carried
