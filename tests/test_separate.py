"""``hanafuda separate`` and the separating suite (issue 30): every record produced validates under the
rules it names and fails under ``meta.fails_under`` with the rule id it names; equivalences are
explained without a search; bad input is one line, exit 2, nothing written."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest
from hanafuda.cli import main
from hanafuda.records import validate_document
from hanafuda.registry import game
from hanafuda.separate import (
    Outcome,
    RuleChoice,
    explain_equivalence,
    separate,
    shipped_suite,
    suite_pairs,
    suite_records,
)
from hanafuda_spec.shuffle import SplitMix64

GAMES = ("koikoi", "kusurigui", "kujuroku", "musashino", "kekoro")


def _fails_with(doc: dict[str, Any]) -> tuple[bool, list[str]]:
    """Whether ``doc`` validates under its own rules, and the rule ids named under ``meta.fails_under``."""
    good = validate_document(doc).ok
    bad = doc["meta"]["fails_under"]
    rep = validate_document(doc, ruleset=bad["ruleset"], options=bad["options"])
    return good, [p.rule_id for p in rep.problems]


@functools.cache
def _nintendo_fudawiki() -> Outcome:
    return separate(game("koikoi"), RuleChoice("nintendo"), RuleChoice("fudawiki"), bound=30, random_deals=8)


def test_nintendo_and_fudawiki_are_told_apart_both_ways() -> None:
    got = _nintendo_fudawiki()
    assert {k for k, *_ in got.differing} == {"five_brights", "three_brights", "month_cards", "packets"}
    assert got.a_not_b is not None and got.b_not_a is not None
    for sep, good, bad in ((got.a_not_b, "nintendo", "fudawiki"), (got.b_not_a, "fudawiki", "nintendo")):
        doc: dict[str, Any] = sep.record
        assert doc["rules"]["ruleset"] == good and doc["meta"]["fails_under"]["ruleset"] == bad
        ok, ids = _fails_with(doc)
        assert ok and ids and ids[0] == sep.rule_ids[0]
        assert sep.actions == len(doc["actions"])
        assert 0 < sep.actions <= 30


def test_KK_YAKU_5_three_brights_worth_6_or_5_is_told_apart() -> None:
    g = game("koikoi")
    got = separate(g, RuleChoice(None, (("three_brights", "6"),)), RuleChoice(None, (("three_brights", "5"),)),
                   bound=30, random_deals=2)
    assert got.a_not_b is not None
    ok, ids = _fails_with(got.a_not_b.record)
    assert ok and ids
    assert "KK-YAKU-5" in got.a_not_b.reason or "KK-YAKU-5" in str(got.a_not_b.record)


def test_KK_GAME_1_a_shorter_match_is_told_apart_with_no_action() -> None:
    g = game("koikoi")
    got = separate(g, RuleChoice(None, (("length", "1"),)), RuleChoice(None, (("length", "2"),)), bound=10)
    assert got.a_not_b is not None and got.a_not_b.actions == 0 and got.a_not_b.minimal == "proved"
    ok, ids = _fails_with(got.a_not_b.record)
    assert ok and ids == list(got.a_not_b.rule_ids)


def test_the_same_values_are_explained_without_a_search() -> None:
    g = game("koikoi")
    got = separate(g, RuleChoice("nintendo"), RuleChoice("nintendo", (("packets", "2"),)))
    assert got.equivalent is not None and got.a_not_b is None and got.b_not_a is None
    assert got.searched.startswith("nothing")


def test_MB_STORM_4_a_sun_implied_by_the_storm_is_explained_by_its_link() -> None:
    g = game("musashino")
    why = explain_equivalence(g, RuleChoice(None, (("storm", "cards"),)),
                              RuleChoice(None, (("storm", "cards"), ("sun", "after"))))
    assert why is not None and "storm=cards" in why
    assert explain_equivalence(g, RuleChoice(None, (("storm", "cards"),)), RuleChoice()) is None


def test_suite_pairs_cover_every_pair_of_every_option() -> None:
    for key in GAMES:
        g = game(key)
        pairs = list(suite_pairs(g))
        assert len(pairs) == sum(len(o.choices) * (len(o.choices) - 1) // 2 for o in g.spec.options)
    kj = {(p[0], p[1], p[2]): p[3] for p in suite_pairs(game("kujuroku"))}
    assert kj[("jizo_timing", "after-draw", "at-capture")] == (("jizo", "on"),)  # refused under jizo=off


@pytest.mark.parametrize("key", GAMES)
def test_a_seeded_sample_of_the_shipped_suite_still_separates(key: str) -> None:
    suite = shipped_suite(key)
    assert suite, f"no separating suite ships for {key}"
    assert {(e["option"], *e["values"]) for e in suite} == {p[:3] for p in suite_pairs(game(key))}
    recs: list[dict[str, Any]] = list(suite_records(suite))
    rng = SplitMix64(30)
    sample = [recs[rng.below(len(recs))] for _ in range(min(4, len(recs)))]
    for doc in sample:
        ok, ids = _fails_with(doc)
        assert ok, doc["meta"]
        assert ids and ids[0] == doc["meta"]["rule_ids"][0], (ids, doc["meta"])


def test_cli_writes_records_that_separate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.jsonl"
    code = main(["separate", "koikoi", "--a", "length=1", "--b", "length=3", "--out", str(out), "--bound", "5"])
    text = capsys.readouterr().out
    assert code == 0 and "A, not B" in text and "proved" in text
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 2
    for doc in lines:
        ok, ids = _fails_with(doc)
        assert ok and ids == doc["meta"]["rule_ids"]


def test_cli_json_explains_an_equivalence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["separate", "musashino", "--a", "storm=cards", "--b", "storm=cards,sun=after", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["equivalent"] and "MB-14" in got["equivalent"] and got["a_not_b"] is None


@pytest.mark.parametrize(("args", "message"), [
    (["--a", "nope"], "unknown ruleset 'nope'"),
    (["--b", "five_brights=11"], "five_brights"),
    (["--a", "sun=after"], "conflicts with storm=off"),
])
def test_bad_rules_are_one_line_exit_2_and_nothing_written(args: list[str], message: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    key = "musashino" if "sun" in args[1] else "koikoi"
    out = tmp_path / "r.jsonl"
    assert main(["separate", key, *args, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not out.exists()


def test_vectors_write_the_suite_records_and_summary(tmp_path: Path) -> None:
    from hanafuda.commands.vectors import separating_vectors

    assert separating_vectors(tmp_path, "kujuroku") == 2
    summary = json.loads((tmp_path / "kujuroku.json").read_text())
    assert sum(summary["counts"].values()) == len(summary["pairs"]) == len(list(suite_pairs(game("kujuroku"))))
    recs = [json.loads(line) for line in (tmp_path / "kujuroku.jsonl").read_text().splitlines()]
    assert recs and all(r["meta"]["vector"]["option"] and r["meta"]["fails_under"] for r in recs)
    ok, ids = _fails_with(recs[0])
    assert ok and ids and ids[0] == recs[0]["meta"]["rule_ids"][0]
