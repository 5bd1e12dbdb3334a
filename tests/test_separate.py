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


# -- the open pairs of issue 30 (session 29): every pair settled ------------------------------------


@pytest.mark.parametrize("key", GAMES)
def test_every_pair_of_the_shipped_suite_is_separated_or_explained(key: str) -> None:
    """No pair is left unresolved, and a pair separated one way only says why the other way cannot
    exist, with an argument :mod:`hanafuda.separate_explained` runs."""
    from hanafuda.separate import settled
    from hanafuda.separate_explained import PROOFS, explained

    for e in shipped_suite(key):
        assert settled(e), (e["option"], e["values"], e["status"])
        ways = {w for w in ("a_not_b", "b_not_a") if e[w] is None}
        if e["status"] != "explained" or ways != {"a_not_b", "b_not_a"} or "explained" in e:
            known = explained(key, e["option"], *e["values"])
            assert ways <= set(known), (e["option"], e["values"], ways)
            assert all(known[w].proof in PROOFS for w in ways)


@pytest.mark.parametrize(("key", "option"), [("koikoi", "discard"), ("koikoi", "koikoi_limit"),
                                             ("koikoi", "koikoi_last_turn"), ("kusurigui", "oni_play")])
def test_KK_CAP_5_KK_TURN_8_KK_TURN_9_KG_ONI_1_an_option_that_only_forbids(key: str, option: str) -> None:
    """The narrow value's attribute is read only where legal actions are listed or explained, and on
    sampled positions its actions are among the wide value's with the same outcome: no record valid
    under the narrow value fails under the wide one."""
    from hanafuda.separate_explained import restriction_holds

    assert restriction_holds(key, option, games=12) is None


def test_a_reader_of_the_option_elsewhere_breaks_the_restriction_argument() -> None:
    """The source scan finds every function that reads the attribute (so the argument can fail)."""
    from hanafuda.games import koikoi
    from hanafuda.separate_explained import option_readers, package_readers

    assert option_readers(koikoi, "must_capture") == {"KoiKoiRound.legal", "KoiKoiRound.plays_from_masks"}
    assert "KoiKoiRound._decides" in option_readers(koikoi, "koikoi_min")
    assert package_readers("Discard", "discard") == {"hanafuda.games.koikoi:KoiKoiRules.must_capture"}
    assert "hanafuda.games.koikoi:KoiKoiRound._decides" in package_readers("koikoi_min")


def test_KK_TURN_4_koikoi_min_0_and_1_act_alike_every_yaku_is_worth_a_point() -> None:
    import inspect

    from hanafuda.separate_explained import koikoi_min_one_holds
    from hanafuda_spec.games import koikoi as spec

    assert koikoi_min_one_holds() is None
    source = inspect.getsource(spec)
    assert '8, DRY_BRIGHTS, 4, "KK-YAKU-3"' in source
    broken = koikoi_min_one_holds(source.replace('8, DRY_BRIGHTS, 4, "KK-YAKU-3"', '0, DRY_BRIGHTS, 4, "KK-YAKU-3"'))
    assert broken is not None and "may be below 1" in broken


def test_KK_DEAL_5_both_lucky_hands_are_told_apart_with_no_action() -> None:
    g = game("koikoi")
    got = separate(g, RuleChoice(None, (("teyaku_both", "6"),)), RuleChoice(None, (("teyaku_both", "12"),)),
                   bound=10, random_deals=1)
    for sep in (got.a_not_b, got.b_not_a):
        assert sep is not None and sep.actions == 0 and "4+2+2" in sep.how
        ok, ids = _fails_with(sep.record)
        assert ok and ids == list(sep.rule_ids)


def test_KK_YAKU_18_poetry_and_blue_stacking_is_told_apart_from_a_stacked_deal() -> None:
    g = game("koikoi")
    got = separate(g, RuleChoice(None, (("yaku_system", "older"),)),
                   RuleChoice(None, (("yaku_system", "older-stacked"),)), bound=60, random_deals=2)
    assert got.a_not_b is not None and got.b_not_a is not None
    for sep in (got.a_not_b, got.b_not_a):
        ok, ids = _fails_with(sep.record)
        assert ok and ids and sep.how.startswith("stacked")


def test_suite_update_searches_only_the_unsettled_pairs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--suite --update`` keeps every settled entry as it is and searches again an entry left open."""
    shipped = (Path(__file__).parents[1] / "reference/hanafuda/separating/kekoro.jsonl").read_text().splitlines()
    entries = [json.loads(line) for line in shipped]
    i = next(k for k, e in enumerate(entries) if e["option"] == "tie_dealer")
    opened = dict(entries[i], status="unresolved", a_not_b=None, b_not_a=None)
    out = tmp_path / "kekoro.jsonl"
    out.write_text("".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n"
                           for e in [*entries[:i], opened, *entries[i + 1:]]), encoding="utf-8")
    assert main(["separate", "kekoro", "--suite", "--update", "--out", str(out)]) == 0
    got = out.read_text(encoding="utf-8").splitlines()
    assert [line for k, line in enumerate(got) if k != i] == [line for k, line in enumerate(shipped) if k != i]
    again = json.loads(got[i])
    assert again["status"] == "separated" and again["a_not_b"] is not None
    assert "wrote 15 vectors" in capsys.readouterr().out


def test_suite_update_keeps_what_an_earlier_search_found() -> None:
    from hanafuda.separate import better

    old = {"status": "separated one way", "a_not_b": {"actions": 3}, "b_not_a": None}
    new = {"status": "unresolved", "a_not_b": None, "b_not_a": None}
    assert better(old, new) == old
    assert better(None, new) is new


def test_KK_CAP_5_separate_says_which_way_no_record_can_take(capsys: pytest.CaptureFixture[str]) -> None:
    """The argued way is not searched: the answer says why none can exist, whichever side is named first."""
    from hanafuda.separate import argued

    g = game("koikoi")
    narrow, wide = RuleChoice(None, (("discard", "must-capture"),)), RuleChoice(None, (("discard", "free"),))
    assert set(argued(g, narrow, wide)) == {"a_not_b"} and set(argued(g, wide, narrow)) == {"b_not_a"}
    assert argued(g, RuleChoice("nintendo", (("discard", "must-capture"),)), wide) == {}  # more than one option
    assert main(["separate", "koikoi", "--a", "discard=must-capture", "--b", "discard=free", "--bound", "5"]) == 0
    out = capsys.readouterr().out
    assert "A, not B: none can exist: discard=must-capture only forbids" in out
    assert "B, not A: a record of" in out and "KK-CAP-5" in out


def test_KK_TURN_4_koikoi_min_0_and_1_are_equivalent_without_a_search() -> None:
    got = separate(game("koikoi"), RuleChoice("nintendo", (("koikoi_min", "1"),)), RuleChoice("nintendo"))
    assert got.equivalent is not None and "koikoi_min_one_holds" in got.equivalent
    assert got.searched.startswith("nothing") and dict(got.impossible).keys() == {"a_not_b", "b_not_a"}


def test_suite_update_names_the_rule_ids_afresh_and_drops_a_record_that_no_longer_separates() -> None:
    from hanafuda.separate import recheck

    g = game("kekoro")
    entry = next(e for e in shipped_suite("kekoro") if e["a_not_b"] is not None)
    stale = json.loads(json.dumps(entry))
    stale["a_not_b"]["rule_ids"] = ["stale"]
    stale["a_not_b"]["record"]["meta"]["rule_ids"] = ["stale"]
    got = recheck(g, stale)
    assert got is not None and got["a_not_b"]["rule_ids"] == entry["a_not_b"]["rule_ids"]
    assert got["a_not_b"]["record"]["meta"]["rule_ids"] == entry["a_not_b"]["rule_ids"]
    broken = json.loads(json.dumps(entry))
    broken["a_not_b"]["record"]["meta"]["fails_under"] = broken["a_not_b"]["record"]["rules"]  # fails nowhere
    assert recheck(g, broken) is None


def test_KK_CAP_5_KK_TURN_8_KK_TURN_9_the_round_reads_each_reading_under_its_name() -> None:
    """The round reads a restricted reading from the rules object under the reading's own name (no copy passes
    it on), so the scan by name sees every reader; its value differs between the two values of the option."""
    from hanafuda.games import koikoi
    from hanafuda.games.koikoi import GAME
    from hanafuda.separate_explained import RESTRICTIONS, option_readers

    for key, option, narrow, wide, attr, allowed, *_ in RESTRICTIONS:
        if key != "koikoi":
            continue
        assert option_readers(koikoi, attr) == set(allowed)
        assert getattr(GAME.rules(None, {option: narrow}), attr) != getattr(GAME.rules(None, {option: wide}), attr)
