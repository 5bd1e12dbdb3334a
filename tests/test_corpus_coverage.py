"""The conformance corpus's rule coverage (benchmarks/corpus_adequacy.py, issue 30): the recorded data
covers today's catalogues, the page shows what the data says, and a rule broken in a forked process is
told apart by the corpus's vectors. The measurement itself never runs here."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hanafuda.registry import game
from hanafuda_spec.games import all_specs

ROOT = Path(__file__).resolve().parent.parent


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("corpus_adequacy", ROOT / "benchmarks" / "corpus_adequacy.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["corpus_adequacy"] = mod
    spec.loader.exec_module(mod)
    return mod


TOOL = _tool()


def test_the_coverage_data_lists_every_rule_id_of_every_catalogue() -> None:
    data = json.loads(TOOL.RESULTS.read_text(encoding="utf-8"))
    catalogue = sorted(r.id for s in all_specs() for r in s.rules)
    assert data["rules"] == catalogue, "a rule id was added or removed: run benchmarks/corpus_adequacy.py again"
    assert set(TOOL.coverage(data)) == set(catalogue)
    assert set(TOOL.MODULES) <= set(data["modules"]) <= set(TOOL.MODULES) | set(TOOL.DATA_MODULES), (
        "every game module is measured")


def test_the_page_shows_the_coverage_data() -> None:
    page = TOOL.PAGE.read_text(encoding="utf-8")
    assert TOOL.MARKER in page
    assert page.split(TOOL.MARKER)[1].strip() == TOOL.render(TOOL.RESULTS).strip(), (
        "docs/verification.md is stale: run benchmarks/corpus_adequacy.py --render")


def test_every_verdict_names_a_mutant_of_a_game_module() -> None:
    for key in TOOL.load_verdicts(TOOL.VERDICTS):
        mod, _, rest = key.partition("::")
        assert mod in TOOL.MODULES or mod in TOOL.DATA_MODULES, key
        line, op, _detail = rest.split(":", 2)
        assert line.isdigit() and op in ("flip-comparison", "constant-plus-one", "and-or", "negate-condition",
                                         "delete-statement"), key


def test_KK_YAKU_3_a_broken_four_brights_is_detected_by_a_pile_vector() -> None:
    """Four Brights' points plus one, the mutation tool's own mutant of the catalogue's row, mapped to
    KK-YAKU-3 and told apart by the pile that forms it, in a forked process that imports the mutant."""
    path = "spec/hanafuda_spec/games/koikoi.py"
    source = (ROOT / path).read_text(encoding="utf-8")
    lines = source.splitlines()
    row = next(i + 1 for i, text in enumerate(lines) if 'YakuDef("four-brights"' in text)
    known = frozenset(r.id for s in all_specs() for r in s.rules)
    rules = TOOL.site_rules(source, known)
    k = next(i for i, s in enumerate(TOOL.sites(source))
             if s.line == row and s.operator == "constant-plus-one" and s.detail == "8 -> 9")
    assert rules[k] == ["KK-YAKU-3"]
    g = game("koikoi")
    rules_obj = g.rules("nintendo")
    deck = g.deck(rules_obj)
    cards = [10, 30, 80, 120]
    ps = g.score(rules_obj, [deck.by_id(c) for c in cards], None)
    pile = {"cards": cards, "month": None, "yaku": [{"id": y.id, "points": y.points} for y in ps.yaku],
            "card_points": ps.card_points}
    other = {"cards": [10, 20], "month": None, "yaku": [], "card_points": None}
    vectors = [TOOL.Vector("four-brights", "koikoi", "pile", ("nintendo", pile)),
               TOOL.Vector("two-cards", "koikoi", "pile", ("nintendo", other))]
    baseline = TOOL.check(vectors)
    assert baseline == {"four-brights": True, "two-cards": True}
    status, got, _ = TOOL._in_child(TOOL._mutant_run("hanafuda_spec.games.koikoi", TOOL.mutate(source, k), vectors,
                                                     baseline, full=True), timeout=600)
    assert status == "ok"
    assert got == {"four-brights": False, "two-cards": True}


@pytest.mark.parametrize("argv, message", [
    (["--module", "reference/hanafuda/nothing.py"], "unknown game module"),
    (["--sample", "-1"], "at least 0"),
    (["--corpus", "/nonexistent/corpus"], "not a directory"),
    (["--rule", "no-such-rule", "--out", "/nonexistent/out.json"], "unknown rule id"),
    (["--rule", "no-such-rule"], "a file of its own"),
])
def test_bad_arguments_are_one_line_and_exit_2(argv: list[str], message: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert TOOL.main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_the_options_suite_plays_every_other_option_value_and_validates() -> None:
    """The corpus's options suite (``hanafuda vectors``): one option set per value no ruleset holds,
    each with a deal, a record that validates and perft rows the reference agrees with."""
    from hanafuda.commands.vectors import option_deal_vectors, option_perft_vectors, option_records
    from hanafuda_spec.verify import option_sets_beyond_rulesets as beyond

    g = game("kekoro")
    sets = beyond(g.spec.key)
    rulesets = [g.spec.resolve(rs.name) for rs in g.spec.rulesets]
    assert sets and all(values not in rulesets for _, values in sets)
    changed = {(k, v) for _, values in sets for k, v in values.items() if v != g.spec.resolve()[k]}
    assert {(o.key, v) for o in g.spec.options for v in o.choices if v != o.default} <= changed | {
        (k, v) for r in rulesets for k, v in r.items()}
    vectors = [TOOL.Vector(f"record#{i}", "kekoro", "record", json.loads(line))
               for i, line in enumerate(option_records(g).splitlines())]
    vectors += [TOOL.Vector(f"deal#{i}", "kekoro", "deal", ("options", d))
                for i, d in enumerate(option_deal_vectors(g))]
    counts = option_perft_vectors(g)["counts"]
    assert isinstance(counts, list)
    vectors += [TOOL.Vector(f"perft#{i}", "kekoro", "perft", (None, c)) for i, c in enumerate(counts)]
    assert len(vectors) > 3 * len(sets)
    # a record: valid with no problem, and played again from its seed the same
    assert all(x is True or x == [[True, []], True] for x in TOOL.check(vectors).values())


def test_a_record_that_must_fail_is_checked_for_its_rule_ids() -> None:
    """A record's outcome holds the rule ids of its problems, under its own rules and under each of
    its ``meta.fails_under`` rules (the separating records of ``hanafuda vectors``)."""
    from hanafuda.records import record_match
    from hanafuda_spec.records import FORMAT_1_1

    doc = record_match(game("koikoi"), "nintendo", {}, 3, 3)
    doc["format"] = FORMAT_1_1
    doc["meta"] = {"fails_under": [{"ruleset": "nintendo", "options": {"length": "1"}}, {"ruleset": "nintendo"}]}
    assert TOOL._record_outcome(doc) == [[True, []], [False, ["REC-RESULT-2", "REC-ROUNDS-1"]], [True, []]]
    doc["meta"] = {"fails_under": {"ruleset": "nintendo", "options": {"length": "1"}}}  # one, as separate writes
    assert TOOL._record_outcome(doc) == [[True, []], [False, ["REC-RESULT-2", "REC-ROUNDS-1"]]]


def test_a_seeded_record_is_played_again_from_its_seed() -> None:
    """A record of seeded random play is also checked by playing its match again from its seed: a
    record whose actions were changed (still legal) is told apart."""
    from hanafuda.records import record_match

    g = game("kekoro")
    doc = record_match(g, "fudawiki", {}, 2, 2)
    assert TOOL._record_outcome(doc) == [[True, []], True]
    doc["seed"] = 3  # another match's seed: the deals differ
    assert TOOL._record_outcome(doc)[-1] is False


def test_KG_EQ_1_the_deck_data_outside_the_game_modules_is_mutated_and_detected() -> None:
    """The decks of hanafuda_spec/cards.py are rule data too (DATA_MODULES): the Kusuri-gui deck's sites
    map to KG-EQ-1, and a mutant that puts a Bush Clover chaff back into the deck (72 -> 73 in the cards
    left out) is told apart by a pile holding that card, in a forked process that imports the mutant in
    place of the module (every module of both packages imported again)."""
    path = "spec/hanafuda_spec/cards.py"
    source = (ROOT / path).read_text(encoding="utf-8")
    known = frozenset(r.id for s in all_specs() for r in s.rules)
    rules = TOOL.data_site_rules(path, source, known)
    row = next(i + 1 for i, text in enumerate(source.splitlines()) if text.startswith("KUSURIGUI = "))
    k = next(i for i, s in enumerate(TOOL.sites(source))
             if s.line == row and s.operator == "constant-plus-one" and s.detail == "72 -> 73")
    assert rules[k] == ["KG-EQ-1"]
    assert {r for ids in rules for r in ids} == {"KK-EQ-1", "KE-EQ-1", "MB-EQ-1", "KG-EQ-1", "KJ-EQ-1", "KJ-EQ-2"}
    vectors = [TOOL.Vector("clover-chaff", "kusurigui", "pile",
                           ("fudawiki", {"cards": [72, 70], "month": None, "yaku": [], "card_points": None})),
               TOOL.Vector("crane", "kusurigui", "pile",
                           ("fudawiki", {"cards": [10], "month": None, "yaku": [], "card_points": None}))]
    baseline = TOOL.check(vectors)
    assert baseline == {"clover-chaff": "error: UnknownCardError", "crane": True}
    status, got, _ = TOOL._in_child(TOOL._mutant_run("hanafuda_spec.cards", TOOL.mutate(source, k), vectors,
                                                     baseline, full=True), timeout=600)
    assert status == "ok"
    assert got == {"clover-chaff": True, "crane": True}


def test_a_per_rule_run_adds_its_mutants_to_the_rows_and_keeps_the_sample() -> None:
    """``--merge`` of a per-rule run (``--rule``): its mutants join the module's rows outside the
    sample, a site of the sample keeps its row, a later run's row replaces an earlier run's, and the run
    is recorded for the page."""
    mod = "reference/hanafuda/games/kekoro.py"
    at = TOOL.sites((ROOT / mod).read_text(encoding="utf-8"))

    def row(k: int, status: str, in_sample: bool) -> dict[str, Any]:
        return {"site": k, "line": at[k].line, "operator": at[k].operator, "detail": at[k].detail,
                "rules": ["KE-EQ-1"], "status": status, "detecting": {}, "seconds": 1.0, "in_sample": in_sample}

    data: dict[str, Any] = {"seed": 30, "rules": ["KE-EQ-1"],
                            "modules": {mod: {"mutants": [row(3, "survived", True)], "reached_per_rule": {}}}}
    run: dict[str, Any] = {"seed": 30, "rules": ["KE-EQ-1"], "rule_ids": ["KE-EQ-1"], "per_rule": 3, "date": "d",
                           "commit": "c", "corpus": "x", "vectors": {"kekoro": 1},
                           "modules": {mod: {"mutants": [row(3, "detected", False), row(5, "detected", False)],
                                             "reached_per_rule": {"KE-EQ-1": 2}}}}
    TOOL.add_rule_run(data, run, Path("run.json"))
    rows = data["modules"][mod]["mutants"]
    assert [(r["site"], r["status"], r["in_sample"]) for r in rows] == [(3, "survived", True), (5, "detected", False)]
    assert data["modules"][mod]["reached_per_rule"] == {"KE-EQ-1": 2}
    assert [r["mutants"] for r in data["rule_runs"]] == [2]
    again = {**run, "rule_ids": ["KE-EQ-1", "KE-DEAL-2"],
             "modules": {mod: {"mutants": [row(5, "survived", False)], "reached_per_rule": {}}}}
    TOOL.add_rule_run(data, again, Path("again.json"))
    assert [(r["site"], r["status"]) for r in data["modules"][mod]["mutants"]] == [(3, "survived"), (5, "survived")]
    assert [r["rule_ids"] for r in data["rule_runs"]] == [["KE-EQ-1"], ["KE-EQ-1", "KE-DEAL-2"]]
    moved = {**run, "modules": {mod: {"mutants": [{**row(5, "detected", False), "line": 1}], "reached_per_rule": {}}}}
    with pytest.raises(TOOL.UsageError, match="changed since the per-rule run"):
        TOOL.add_rule_run(data, moved, Path("moved.json"))
    with pytest.raises(TOOL.UsageError, match="another seed"):
        TOOL.add_rule_run(data, {**run, "seed": 31}, Path("run.json"))
