"""Game records: the hanafuda-record/1 format, its JSON Schema, ``hanafuda record``/``validate``/``vectors``.

Every test runs for every game implemented so far (``hanafuda.registry.available()``).
"""

from __future__ import annotations

import copy
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hanafuda.cli import main
from hanafuda.records import (
    problems_of,
    read_documents,
    record_match,
    validate_document,
    validate_stream,
)
from hanafuda.registry import available
from hanafuda_spec.records import FORMAT, FORMATS, RECORD_RULES, parse_record, schema
from hanafuda_spec.shuffle import SplitMix64, shuffled
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

GAMES = [g.spec.key for g in available()]
_CACHE: dict[tuple[str, int, bool], dict[str, Any]] = {}


def rec(key: str, seed: int = 5, snapshots: bool = False) -> dict[str, Any]:
    """A fresh copy of a recorded random match."""
    k = (key, seed, snapshots)
    if k not in _CACHE:
        from hanafuda.registry import game

        _CACHE[k] = record_match(game(key), None, {}, seed, seed, snapshots=snapshots)
    return copy.deepcopy(_CACHE[k])


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, doc: Any, name: str = "r.json") -> str:
    p = tmp_path / name
    p.write_text(json.dumps(doc), encoding="utf-8")
    return str(p)


# -- the shipped JSON Schema, checked by jsonschema ---------------------------------------------------


def schema_errors(doc: Any, sch: dict[str, Any] | None = None) -> list[str]:
    """Every way ``doc`` breaks a shipped schema (``hanafuda_spec/schema``; default: format 1), by the
    jsonschema library."""
    validator = Draft202012Validator(sch if sch is not None else schema(),
                                     format_checker=Draft202012Validator.FORMAT_CHECKER)
    return [f"{e.json_path}: {e.message}" for e in validator.iter_errors(doc)]


@pytest.mark.parametrize("version", sorted(FORMATS))
def test_the_schema_is_a_valid_draft_2020_12_schema(version: str) -> None:
    s = schema(version)
    assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(s)  # against the meta-schema; raises SchemaError
    broken = dict(s, properties={"format": {"type": "no-such-type"}})
    with pytest.raises(SchemaError):
        Draft202012Validator.check_schema(broken)


def test_schema_ships_and_names_the_format() -> None:
    s = schema()
    assert s["properties"]["format"]["const"] == FORMAT
    assert set(s["required"]) == {"format", "game", "players", "deck", "actions", "result"}


@pytest.mark.parametrize("key", GAMES)
def test_recorded_records_conform_to_the_schema(key: str) -> None:
    assert schema_errors(rec(key)) == []
    assert schema_errors(rec(key, 6, snapshots=True)) == []


@pytest.mark.parametrize("name", sorted(p.name for p in (Path(__file__).parent / "golden").glob("*.jsonl")))
def test_golden_records_conform_to_the_schema(name: str) -> None:
    lines = (Path(__file__).parent / "golden" / name).read_text(encoding="utf-8").splitlines()
    assert lines and all(schema_errors(json.loads(x)) == [] for x in lines if x.strip())


@pytest.mark.parametrize("mutation", [
    lambda d: d.pop("deck"),
    lambda d: d.update(deck="10 11"),
    lambda d: d.update(colour="red"),
    lambda d: d["result"].pop("scores"),
    lambda d: d["result"]["rounds"][0].update(deltas="x"),
    lambda d: d.update(actions=[1]),
    lambda d: d.update(format="hanafuda-record/2"),
    lambda d: d["rules"].update(options={"x": 1}),
])
def test_schema_and_parser_agree_on_structural_faults(mutation: Any) -> None:
    d = rec(GAMES[0])
    mutation(d)
    _, problems = parse_record(d)
    assert schema_errors(d) and problems


def test_every_record_rule_has_a_text() -> None:
    assert all(re.fullmatch(r"REC-[A-Z]+-\d", k) and v for k, v in RECORD_RULES.items())


# -- must show: record, validate, and every kind of corruption ---------------------------------------


@pytest.mark.parametrize("key", GAMES)
def test_record_then_validate_exits_0(key: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["record", key, "--seed", "5"], capsys)
    assert code == 0 and err == ""
    p = tmp_path / "r.json"
    p.write_text(out, encoding="utf-8")
    code, out, err = run_cli(["validate", str(p)], capsys)
    assert code == 0, out + err
    assert "1 valid, 0 invalid" in out


def _corrupt(kind: str, d: dict[str, Any]) -> dict[str, Any]:
    if kind == "card-removed":
        d["deck"].pop(7)
    elif kind == "card-duplicated":
        d["deck"][7] = d["deck"][8]
    elif kind == "action-deleted":
        del d["actions"][len(d["actions"]) // 2]
    elif kind == "actions-swapped":
        i = next(i for i in range(len(d["actions"]) // 2, len(d["actions"]) - 1)
                 if d["actions"][i] != d["actions"][i + 1])
        d["actions"][i], d["actions"][i + 1] = d["actions"][i + 1], d["actions"][i]
    elif kind == "wrong-final-score":
        d["result"]["scores"][0] += 1
    elif kind == "wrong-round-result":
        d["result"]["rounds"][-1]["deltas"][0] += 1
    return d


CORRUPTIONS = {
    "card-removed": r"deal 1, \$\.deck: \[REC-DECK-1\] .*missing card",
    "card-duplicated": r"deal 1, \$\.deck: \[REC-DECK-1\] .*duplicated card",
    "action-deleted": r"(action \d+|\$\.result\.rounds).*\[[A-Z]+-[A-Z]+-\d+\]",
    "actions-swapped": r"deal \d+, action \d+.*\[[A-Z]+-[A-Z]+-\d+\]",
    "wrong-final-score": r"\$\.result\.scores: \[REC-RESULT-2\]",
    "wrong-round-result": r"deal \d+, \$\.result\.rounds\[\d+\]\.deltas: \[REC-RESULT-1\]",
}


@pytest.mark.parametrize("key", GAMES)
@pytest.mark.parametrize("kind", sorted(CORRUPTIONS))
def test_corrupted_record_is_invalid_and_located(key: str, kind: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, _corrupt(kind, rec(key)))
    code, out, err = run_cli(["validate", path], capsys)
    assert code == 1, out + err
    assert re.search(r"record 1, .*" + CORRUPTIONS[kind], out), out
    assert "Traceback" not in out + err


@pytest.mark.parametrize("key", GAMES)
def test_truncated_file_is_unusable_and_located(key: str, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    text = json.dumps(rec(key))
    p = tmp_path / "t.json"
    p.write_text(text[: len(text) // 2], encoding="utf-8")
    code, out, err = run_cli(["validate", str(p)], capsys)
    assert code == 2
    assert re.search(r"record 1, line 1: \[REC-JSON-1\] malformed JSON at column \d+.*truncated", err), err
    assert "Traceback" not in out + err


@pytest.mark.parametrize("key", GAMES)
def test_replay_reports_all_problems_not_only_the_first(key: str) -> None:
    d = rec(key)
    d["result"]["scores"][0] += 1
    d["result"]["rounds"][0]["deltas"][0] += 1
    rules = {p.rule_id for p in problems_of(d)}
    assert {"REC-RESULT-1", "REC-RESULT-2"} <= rules


@pytest.mark.parametrize("key", GAMES)
def test_replay_resumes_at_the_next_deal_after_an_illegal_action(key: str) -> None:
    for seed in range(5, 40):  # a match with at least two deals with actions
        d = rec(key, seed)
        counts = [r["actions"] for r in d["result"]["rounds"]]
        if len([c for c in counts if c]) >= 2:
            break
    else:
        pytest.fail("no match with two deals found")
    first = next(i for i, c in enumerate(counts) if c)
    d["actions"][0] = "play 9999"  # illegal in the first deal with actions
    d["result"]["scores"][1] += 5  # and a problem at the end
    probs = problems_of(d)
    assert probs[0].where.action == 0 and probs[0].where.deal == first + 1
    assert any(p.rule_id == "REC-RESULT-2" for p in probs), [str(p) for p in probs]


@pytest.mark.parametrize("key", GAMES)
def test_snapshots_are_checked(key: str) -> None:
    d = rec(key, 6, snapshots=True)
    assert problems_of(d) == []
    a = d["actions"][3]
    zone = next(z for z, cards in a["after"]["zones"].items() if cards)
    a["after"]["zones"][zone] = a["after"]["zones"][zone][1:]
    d["actions"][5]["seat"] = (d["actions"][5]["seat"] + 1) % len(d["players"])
    got = {(p.rule_id, p.where.action) for p in problems_of(d)}
    assert ("REC-SNAPSHOT-1", 3) in got and ("REC-SEAT-1", 5) in got


@pytest.mark.parametrize("key", GAMES)
def test_stacked_record_without_seed_lists_every_deal(key: str) -> None:
    d = rec(key)
    del d["seed"]
    assert problems_of(d) == []
    if d["deals"]:
        d["deals"].pop()
        assert any(p.rule_id == "REC-DEALS-1" for p in problems_of(d))


@pytest.mark.parametrize("key", GAMES)
def test_a_seeded_record_must_follow_the_documented_shuffle(key: str) -> None:
    d = rec(key)
    d["seed"] += 1
    probs = problems_of(d)
    assert probs and all(p.rule_id == "REC-SHUFFLE-1" for p in probs)
    assert probs[0].where.path.startswith("$.deck[")


def test_deal_orders_are_the_seeds_successive_shuffles() -> None:
    from hanafuda.registry import game

    d = rec(GAMES[0])
    g = game(d["game"])
    rng = SplitMix64(d["seed"])
    cards = g.deck(g.rules()).cards
    orders = [[c.id for c in shuffled(cards, rng)] for _ in range(1 + len(d["deals"]))]
    assert orders == [d["deck"], *d["deals"]]


@pytest.mark.parametrize("key", GAMES)
def test_a_record_replayed_again_gets_the_same_report_from_the_kept_shuffles(key: str) -> None:
    """``replay(..., again=True)`` keeps the deck orders a seed gives (identify replays one record
    hundreds of times): the first and later replays report what a plain replay does, for a record that
    follows its seed and for one whose later deal does not (the generator state after a kept shuffle is
    the one the next deal's shuffle starts from)."""
    from hanafuda.records import replay

    good = rec(key)
    bad = rec(key)
    if bad["deals"]:
        bad["deals"][-1] = list(reversed(bad["deals"][-1]))
    else:
        bad["deck"] = list(reversed(bad["deck"]))
    reports = []
    for doc in (good, bad):
        parsed, problems = parse_record(doc)
        assert parsed is not None and not problems
        plain = [str(p) for p in replay(parsed).problems]
        assert [str(p) for p in replay(parsed, again=True).problems] == plain
        assert [str(p) for p in replay(parsed, again=True).problems] == plain
        reports.append(plain)
    assert not reports[0] and any("REC-SHUFFLE-1" in p for p in reports[1])


def test_kept_shuffles_are_the_shuffle_and_leave_the_generator_where_it_does() -> None:
    from hanafuda.engine import fast_shuffled
    from hanafuda.records import _seeded_order

    deck, other = list(range(48)), list(range(100, 148))
    for _ in range(2):  # the first time shuffled, then kept
        mine, theirs = SplitMix64(77), SplitMix64(77)
        assert _seeded_order(deck, mine) == tuple(fast_shuffled(deck, theirs)) and mine.state == theirs.state
        assert _seeded_order(deck, mine) == tuple(fast_shuffled(deck, theirs)) and mine.state == theirs.state
    mine, theirs = SplitMix64(77), SplitMix64(77)  # another deck from the same state: not the kept one
    assert _seeded_order(other, mine) == tuple(fast_shuffled(other, theirs)) and mine.state == theirs.state


# -- bad input -------------------------------------------------------------------------------------


def _validate_bytes(data: bytes, lenient: bool = False, limit: int | None = None) -> list[str]:
    return [str(p) for r in validate_stream(io.BytesIO(data), lenient, limit) for p in r.problems]


@pytest.mark.parametrize(("mutate", "expected"), [
    (lambda d: d.update(game="chess"), r"\$\.game: \[REC-GAME-1\] unknown game 'chess'"),
    (lambda d: d["rules"]["options"].update(nope="1"), r"\$\.rules: \[REC-RULES-1\] unknown option 'nope'"),
    (lambda d: d["rules"].update(ruleset="nope"), r"\$\.rules: \[REC-RULES-1\] unknown ruleset 'nope'"),
    (lambda d: d["deck"].__setitem__(0, 9999), r"\$\.deck: \[REC-DECK-1\] .*unknown card\(s\) 9999"),
    (lambda d: d.update(deck=[True]), r"\$\.deck: \[REC-FIELD-1\] must be a list of card ids"),
    (lambda d: d.update(seed=-1), r"\$\.seed: \[REC-FIELD-1\]"),
    (lambda d: d.update(seed=10**40), r"\$\.seed: \[REC-SIZE-1\] a huge number"),
    (lambda d: d.update(actions=[17]), r"\$\.actions\[0\]: \[REC-FIELD-1\]"),
    (lambda d: d["actions"].__setitem__(2, "PLAY !"), r"action 2, \$\.actions\[2\]: \[REC-ACTION-1\]"),
    (lambda d: d["actions"].__setitem__(2, "play 9999"), r"action 2, \$\.actions\[2\]: \[[A-Z]+-[A-Z]+-\d+\]"),
    (lambda d: d["actions"].append(d["actions"][-1]), r"\[REC-ROUNDS-1\] 1 action\(s\) after the match ended"),
    (lambda d: d["actions"].pop(), r"\[REC-ROUNDS-1\] the actions end before the match does"),
    (lambda d: d["result"]["rounds"].append(dict(d["result"]["rounds"][-1], deal=len(d["result"]["rounds"]) + 1)),
     r"\[REC-(ROUNDS|COUNT)-1\]"),
    (lambda d: d["result"]["rounds"][0].update(deal=7), r"\$\.result\.rounds\[0\]\.deal: \[REC-FIELD-1\]"),
    (lambda d: d.update(players=["solo"]), r"\$\.players: \[REC-PLAYERS-1\]"),
    (lambda d: d.update(extra=1), r"\$\.extra: \[REC-FIELD-2\] unknown field"),
    (lambda d: d.update(format=None), r"\$\.format: \[REC-FORMAT-1\]"),
])
def test_bad_records_name_the_problem_and_its_location(mutate: Any, expected: str) -> None:
    for key in GAMES:
        d = rec(key)
        mutate(d)
        msgs = [str(p) for p in problems_of(d)]
        assert any(re.search(expected, m) for m in msgs), (key, msgs)


def test_lenient_tolerates_unknown_fields_only() -> None:
    d = rec(GAMES[0])
    d["comment"] = "hi"
    d["result"]["by"] = "me"
    assert problems_of(d) != [] and problems_of(d, lenient=True) == []
    d["deck"].pop()
    assert problems_of(d, lenient=True) != []


@pytest.mark.parametrize(("data", "expected"), [
    (b'{"format": ', r"line 1: \[REC-JSON-1\] malformed JSON at column \d+: .*truncated"),
    (b"{'a': 1}\n", r"line 1: \[REC-JSON-1\] malformed JSON"),
    (b'{"x": "\xff\xfe"}\n', r"line 1: \[REC-JSON-1\] not UTF-8: byte 0xff at byte 8"),
    (b'{"x": NaN}\n', r"\[REC-JSON-1\] unusable JSON value"),
    (b'{"x": ' + b"9" * 5000 + b"}\n", r"\[REC-JSON-1\] unusable JSON value"),
    (b"[" * 100_000 + b"\n", r"\[REC-(SIZE|JSON)-1\]"),
    (b"42\n", r"\$: \[REC-FORMAT-1\] a record is a JSON object, not a number"),
    (b'"hanafuda"\n', r"\$: \[REC-FORMAT-1\]"),
])
def test_unusable_bytes_give_located_errors(data: bytes, expected: str) -> None:
    msgs = _validate_bytes(data)
    assert msgs and re.search(expected, msgs[0]), msgs


def test_absurd_sizes_are_refused_in_bounded_memory() -> None:
    line = json.dumps(rec(GAMES[0])).encode()
    msgs = _validate_bytes(line + b"\n" + b"x" * (2 * len(line)) + b"\n" + line + b"\n", limit=len(line) + 10)
    assert msgs == [f"record 2, line 2: [REC-SIZE-1] a record longer than {len(line) + 10} bytes"]
    d = rec(GAMES[0])
    d["actions"] = ["koikoi"] * 1_000_001
    assert [p.rule_id for p in problems_of(d)] == ["REC-SIZE-1"]


def test_json_lines_report_each_record_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = json.dumps(rec(GAMES[0]))
    bad = _corrupt("wrong-final-score", rec(GAMES[-1]))
    p = tmp_path / "many.jsonl"
    p.write_text("\n".join([good, "", json.dumps(bad), good]) + "\n", encoding="utf-8")
    code, out, _ = run_cli(["validate", str(p), "--json"], capsys)
    assert code == 1
    j = json.loads(out)
    f = j["files"][0]
    assert (f["records"], f["valid"], f["invalid"]) == (3, 2, 1)
    # every record has a summary (valid ones included); the invalid one is record 2, on line 3
    assert [(r["record"], r["line"], r["ok"]) for r in f["reports"]] == [(1, 1, True), (2, 3, False), (3, 4, True)]


def test_pretty_document_and_stdin(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run_cli(["record", GAMES[0], "--seed", "3", "--pretty"], capsys)
    assert code == 0 and out.startswith("{\n")
    srcs = list(read_documents(io.BytesIO(out.encode())))
    assert len(srcs) == 1 and srcs[0].problem is None
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(out.encode())))
    code, out, _ = run_cli(["validate", "-"], capsys)
    assert code == 0, out


def test_missing_file_and_empty_input_are_unusable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["validate", str(tmp_path / "nope.json")], capsys)
    assert code == 2 and "cannot read" in err
    (tmp_path / "empty.json").write_text("")
    code, _, err = run_cli(["validate", str(tmp_path / "empty.json")], capsys)
    assert code == 2 and "no records" in err
    (tmp_path / "n.json").write_text("42\n")
    code, _, err = run_cli(["validate", str(tmp_path / "n.json")], capsys)
    assert code == 2 and "[REC-FORMAT-1]" in err


def test_record_many_games_as_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["record", GAMES[0], "--games", "3", "--seed", "9"], capsys)
    lines = out.splitlines()
    assert code == 0 and len(lines) == 3
    assert [json.loads(x)["seed"] for x in lines] == [9, 10, 11]
    reports = list(validate_stream(io.BytesIO(out.encode())))
    assert [r.ok for r in reports] == [True, True, True]


def test_record_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["record", "chess"], capsys)[0] == 2
    assert run_cli(["record", GAMES[0], "--option", "nope=1"], capsys)[0] == 2
    assert run_cli(["record", GAMES[0], "--games", "0"], capsys)[0] == 2


# -- fuzzing ---------------------------------------------------------------------------------------

_JUNK = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.text(max_size=8),
                  st.lists(st.integers(-5, 200), max_size=5), st.dictionaries(st.text(max_size=3), st.integers(),
                                                                              max_size=2))


def _paths(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, (*path, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:60]):
            out += _paths(v, (*path, i))
    return out


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any]:
    key = draw(st.sampled_from(GAMES))
    d = rec(key, draw(st.sampled_from([5, 6])), snapshots=draw(st.booleans()))
    for _ in range(draw(st.integers(1, 4))):
        paths = _paths(d)
        path = draw(st.sampled_from(paths[1:]))
        parent: Any = d
        for k in path[:-1]:
            parent = parent[k]
        op = draw(st.sampled_from(["replace", "delete", "swap", "duplicate"]))
        last = path[-1]
        if op == "replace":
            parent[last] = draw(_JUNK)
        elif op == "delete":
            del parent[last]
        elif isinstance(parent, list) and len(parent) > 1:
            j = draw(st.integers(0, len(parent) - 1))
            if op == "swap":
                parent[last], parent[j] = parent[j], parent[last]
            else:
                parent.insert(j, copy.deepcopy(parent[last]))
    return d


@given(mutated())
def test_fuzz_mutated_records_never_crash_validate(doc: dict[str, Any]) -> None:
    report = validate_document(doc)
    for p in report.problems:
        assert re.fullmatch(r"[A-Z]+(-[A-Z]+)*-\d+", p.rule_id), p
        assert "\n" not in p.reason


@given(st.sampled_from(GAMES), st.integers(0, 10_000), st.sampled_from(["play", "take", "koikoi", "stop", "declare",
                                                                        "pass", "discard", "x"]),
       st.lists(st.integers(0, 10**12), max_size=3), st.sampled_from(["", "instant-victory", "zz"]))
def test_fuzz_action_texts_never_crash_validate(key: str, where: int, kind: str, cards: list[int], label: str) -> None:
    d = rec(key)
    i = where % len(d["actions"])
    d["actions"][i] = " ".join([kind, *map(str, cards), label]).strip()
    for p in problems_of(d):
        assert "\n" not in str(p)


@given(st.binary(max_size=300), st.integers(0, 2000))
def test_fuzz_bytes_never_crash_validate(junk: bytes, cut: int) -> None:
    data = json.dumps(rec(GAMES[0])).encode()
    mixed = data[:cut] + junk + data[cut:]
    for r in validate_stream(io.BytesIO(mixed)):
        assert r.problems or r.ok


# -- vectors -----------------------------------------------------------------------------------------


def test_vectors_export_a_corpus_that_checks_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from hanafuda.registry import game

    code, _, _ = run_cli(["vectors", str(tmp_path), "--games", "1", "--piles", "20", "--no-z3"], capsys)
    assert code == 0
    readme = (tmp_path / "README.md").read_text()
    assert "shuffle.json" in readme and "scoring.json" in readme
    shuffle = json.loads((tmp_path / "shuffle.json").read_text())
    assert shuffle["outputs"][0]["next"][0] == SplitMix64(0).next()
    for key in GAMES:
        g = game(key)
        for rs in g.spec.rulesets:
            d = tmp_path / key / rs.name
            assert f"| {key} | {rs.name} |" in readme
            deals = json.loads((d / "deals.json").read_text())
            rng = SplitMix64(deals[1]["seed"])
            cards = g.deck(g.rules(rs.name)).cards
            assert deals[1]["deals"][0] == [c.id for c in shuffled(cards, rng)]
            reports = list(validate_stream(open(d / "games.jsonl", "rb")))  # noqa: SIM115
            assert reports and all(r.ok for r in reports), [str(p) for r in reports for p in r.problems]
            scoring = json.loads((d / "scoring.json").read_text())
            rules = g.rules(rs.name)
            deck = g.deck(rules)
            for row in scoring["piles"][:40]:
                ps = g.score(rules, [deck.by_id(c) for c in row["cards"]], row["month"])
                assert [{"id": y.id, "points": y.points} for y in ps.yaku] == row["yaku"]
            minimal = [r for r in scoring["piles"] if r["kind"].startswith("minimal:")]
            for row in minimal:
                yid = row["kind"].split(":", 1)[1]
                assert any(y["id"] == yid for y in row["yaku"])


def test_vectors_include_the_z3_boundary_piles_when_the_model_covers_the_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run_cli(["vectors", str(tmp_path), "--game", "koikoi", "--games", "0", "--piles", "0"], capsys)
    assert code == 0
    for d in (tmp_path / "koikoi").iterdir():
        scoring = json.loads((d / "scoring.json").read_text())
        z3_rows = [r for r in scoring["piles"] if r["kind"].startswith("z3:")]
        assert scoring["z3"] == "included" and z3_rows, scoring["z3"]
        assert any("just formed" in r["kind"] and r["yaku"] for r in z3_rows)


def test_unknown_fields_do_not_stop_the_replay() -> None:
    d = rec(GAMES[0])
    d["comment"] = "x"
    d["result"]["scores"][0] += 1
    assert [p.rule_id for p in problems_of(d)] == ["REC-FIELD-2", "REC-RESULT-2"]
