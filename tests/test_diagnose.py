"""``hanafuda diagnose`` and the deviation library: planted engine mistakes are named, with the number of
rounds each one changes; no coincidence is offered; bad input is one line."""

from __future__ import annotations

import functools
import importlib.util
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hanafuda.cli import main
from hanafuda.deviations import Deviation, deviant_rules, deviation, library
from hanafuda.diagnose import Loaded, Round, diagnose, failing_rounds
from hanafuda.records import record_match, replay
from hanafuda.registry import game
from hanafuda_spec.cards import card
from hanafuda_spec.records import FORMAT_1_1, GameRecord, parse_record

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@functools.cache
def _engine() -> ModuleType:
    spec = importlib.util.spec_from_file_location("deviant_engine", EXAMPLES / "deviant_engine.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["deviant_engine"] = mod
    spec.loader.exec_module(mod)
    return mod


def _corpus(bugs: tuple[str, ...], n: int = 20) -> list[Loaded]:
    g = _engine().WrongKoiKoi(bugs)
    out = []
    for seed in range(n):
        rec, problems = parse_record(record_match(g, None, {"length": "3"}, seed=seed, policy_seed=seed))
        assert rec is not None, problems
        out.append(Loaded("wrong.jsonl", seed + 1, rec))
    return out


def _truth(records: list[Loaded], bugs: tuple[str, ...], bug: str) -> int:
    """The rounds that fail under the engine's own rules without ``bug``: the rounds the bug changes."""
    rules_of = _engine().WrongRules
    n = 0
    for ld in records:
        values = game("koikoi").spec.resolve(ld.rec.ruleset, dict(ld.rec.options))
        rules = rules_of(tuple(sorted(values.items())), tuple(b for b in bugs if b != bug))
        failing = failing_rounds(replay(ld.rec), ld.rec)
        n += len(failing_rounds(replay(ld.rec, rules=rules), ld.rec).keys() & failing.keys())
    return n


#: The example engine's mistakes, and the explanations that name them (an option of the catalogue is one).
NAMES = {"sake-not-chaff": {("option", "sake_cup"), ("deviation", "card-class")},
         "bottom-draw": {("deviation", "reversed-stock")},
         "alternate-dealer": {("deviation", "dealer-alternates")}}


def test_diagnose_names_each_planted_deviation_with_its_count() -> None:
    """Three mistakes at once: each is among the explanations, its count within 5 % of the rounds it changes,
    and every failing round is explained."""
    bugs = _engine().BUGS
    records = _corpus(bugs)
    found = diagnose(records)
    assert found.failing and not found.unexplained
    named = {(e.candidate.kind, e.candidate.id): len(e.explains) for e in found.explanations}
    assert len(found.explanations) == len(bugs)
    for bug in bugs:
        hits = [n for k, n in named.items() if k in NAMES[bug]]
        assert len(hits) == 1, (bug, named)
        truth = _truth(records, bugs, bug)
        assert abs(hits[0] - truth) <= 0.05 * truth, (bug, hits[0], truth)


def test_diagnose_of_one_deviation_names_it_alone() -> None:
    records = _corpus(("bottom-draw",), 8)
    found = diagnose(records)
    assert [(e.candidate.kind, e.candidate.id) for e in found.explanations] == [("deviation", "reversed-stock")]
    assert found.explanations[0].candidate.rule == "KK-DEAL-1"
    assert not found.unexplained


def test_diagnose_of_valid_records_finds_nothing() -> None:
    g = game("koikoi")
    recs = [parse_record(record_match(g, None, {"length": "3"}, seed=s, policy_seed=s))[0] for s in range(3)]
    found = diagnose([Loaded("ok", i + 1, r) for i, r in enumerate(recs) if r is not None])
    assert found.failing == [] and found.explanations == [] and found.rounds >= 3


def _cut(doc: dict[str, Any], rounds: int, **top: Any) -> GameRecord:
    """A record of ``doc`` ended after its first ``rounds`` rounds (``top``: top-level fields replaced)."""
    r = doc["result"]
    cut = sum(x["actions"] for x in r["rounds"][:rounds])
    rec, problems = parse_record({**doc, "deals": doc["deals"][:rounds - 1], "actions": doc["actions"][:cut],
                                  "result": {**r, "rounds": r["rounds"][:rounds]}, **top})
    assert rec is not None, problems
    return rec


def test_a_deal_the_rules_play_after_a_records_last_round_is_not_a_failing_round() -> None:
    """A 3-round match cut after its second round: the rules would play a third deal, which the record does
    not hold. The record has 2 rounds and its last one fails (it ends the match too early), explained by
    ``length=2``; cut and marked abandoned, it is judged on what it holds: nothing fails."""
    doc: dict[str, Any] = record_match(game("koikoi"), None, {"length": "3"}, seed=1, policy_seed=1)
    assert len(doc["result"]["rounds"]) == 3
    found = diagnose([Loaded("short", 1, _cut(doc, 2))])
    assert found.rounds == 2 and found.failing == [Round(0, 2)]
    assert [(e.candidate.id, e.candidate.parameters, len(e.explains)) for e in found.explanations] == [
        ("length", (("value", "2"),), 1)]
    assert not found.unexplained
    found = diagnose([Loaded("short", 1, _cut(doc, 2, format=FORMAT_1_1, status="abandoned"))])
    assert found.rounds == 2 and found.failing == []


def test_every_deviation_names_a_catalogue_rule_and_changes_the_rules() -> None:
    ids = {r.id for r in game("koikoi").spec.rules}
    devs = list(library())
    assert len(devs) == len(set(devs)) > 100
    for d in devs:
        assert d.rule in ids, d
        assert d.description


def test_KK_YAKU_15_a_card_out_of_the_chaff() -> None:
    g = game("koikoi")
    d = deviation("card-class", card="90", out_of="chaff", into="none")
    rules = deviant_rules(g.spec.resolve(None, {"month_cards": "off"}), (d,))
    chaff = [card(c) for c in (12, 13, 22, 23, 32, 33, 42, 43, 52, 90)]
    assert g.score(g.rules(None, {"month_cards": "off"}), chaff).yaku_total == 1  # ten Chaff with the Sake Cup
    assert g.score(rules, chaff).yaku_total == 0


def test_KK_YAKU_1_every_yaku_of_a_group_summed() -> None:
    g = game("koikoi")
    values = g.spec.resolve(None, {"month_cards": "off"})
    pile = [card(c) for c in (11, 21, 31, 61, 91, 101)]  # Poetry and Blue Ribbons
    plain = g.score(g.rules(None, {"month_cards": "off"}), pile).yaku_total
    summed = g.score(deviant_rules(values, (deviation("yaku-groups-summed"),)), pile).yaku_total
    assert (plain, summed) == (10, 10 + 8 + 8 + 2)  # both Ribbons yaku with 3 more Ribbons each, and Ribbons


def test_unknown_deviation_is_refused() -> None:
    with pytest.raises(ValueError, match="no deviation"):
        deviation("card-class", card="90", out_of="brights", into="none")
    assert isinstance(deviation("reversed-stock"), Deviation)


# -- the command ----------------------------------------------------------------------------------


def _write(path: Path, records: list[Loaded]) -> None:
    path.write_text("".join(json.dumps(ld.rec.to_json()) + "\n" for ld in records), encoding="utf-8")


def test_command_text_json_and_witnesses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = _corpus(("bottom-draw",), 6)
    f = tmp_path / "wrong.jsonl"
    _write(f, records)
    assert main(["diagnose", "koikoi", str(f), "--json", "--witness", str(tmp_path / "w")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"records", "rounds", "failing_rounds", "explanations", "unexplained"}
    assert out["records"] == 6 and out["failing_rounds"] > 0 and out["unexplained"] == []
    (e,) = out["explanations"]
    assert (e["kind"], e["id"], e["parameters"], e["explains"]) == ("deviation", "reversed-stock", {},
                                                                    out["failing_rounds"])
    assert set(e["example"]) == {"file", "record", "round", "action"}
    (w,) = sorted((tmp_path / "w").iterdir())
    assert w.name == "01-reversed-stock.json"
    doc = json.loads(w.read_text())
    rec, problems = parse_record(doc)
    assert rec is not None and rec.status == "abandoned", problems
    assert len(rec.rounds) == e["example"]["round"] or len(rec.rounds) == 1
    assert replay(rec).problems  # the witness fails under the reference ...
    values = game("koikoi").spec.resolve(rec.ruleset, dict(rec.options))
    assert not replay(rec, rules=deviant_rules(values, (deviation("reversed-stock"),))).problems  # ... not under it
    assert main(["diagnose", "koikoi", str(f)]) == 0
    text = capsys.readouterr().out
    assert "reversed-stock [KK-DEAL-1]" in text and "every failing round explained" in text


BAD = {
    "an empty file": (b"", "no records in the input"),
    "garbage": (b"garbage\n", "malformed JSON"),
    "not a record": (b'{"format": "x"}\n', "not a usable record"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_input_is_one_line(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, err = BAD[name]
    f = tmp_path / "F"
    f.write_bytes(data)
    assert main(["diagnose", "koikoi", str(f), "--witness", str(tmp_path / "w")]) == 2
    out, got = capsys.readouterr()
    assert out == "" and len(got.splitlines()) == 1 and err in got and "Traceback" not in got
    assert not (tmp_path / "w").exists()


def test_records_of_another_game_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "F"
    f.write_text(json.dumps(record_match(game("kekoro"), None, {}, 1, 1)) + "\n")
    assert main(["diagnose", "koikoi", str(f)]) == 2
    assert "is a kekoro record, not koikoi" in capsys.readouterr().err


def test_valid_records_have_nothing_to_diagnose(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "F"
    f.write_text(json.dumps(record_match(game("koikoi"), None, {"length": "1"}, 1, 1)) + "\n")
    assert main(["diagnose", "koikoi", str(f), "--witness", str(tmp_path / "w")]) == 0
    assert "nothing to diagnose" in capsys.readouterr().out
    assert not (tmp_path / "w").exists()


# -- honest hints and per-round verdicts ----------------------------------------------------------


def _wrong_record(bugs: tuple[str, ...], seed: int, length: str = "6") -> dict[str, Any]:
    doc: dict[str, Any] = record_match(_engine().WrongKoiKoi(bugs), None, {"length": length}, seed=seed,
                                          policy_seed=seed)
    return doc


def test_a_hint_is_a_cause_never_a_coincidence() -> None:
    """An engine whose Chaff forgets the Sake Cup: in this record the first divergent deal also validates
    under yaku_count=best, by coincidence (it scores one yaku per side there), but that value breaks
    deals that validate; only sake_cup=animal, the cause, is offered."""
    from hanafuda.records import suggest_options

    rec, _ = parse_record(_wrong_record(("sake-not-chaff",), 36))
    assert rec is not None
    rep = replay(rec)
    deal = rep.first_deal()
    assert deal is not None
    g = game("koikoi")
    base = g.spec.resolve(rec.ruleset, dict(rec.options))
    coincidence = replay(rec, ruleset=g.spec.default_ruleset, options={**base, "yaku_count": "best"},
                         until_deal=deal)
    assert not [p for p in coincidence.problems if p.where.deal is None or p.where.deal <= deal]  # the old hint
    assert suggest_options(rec, rep) == ["with `sake_cup=animal` the whole record validates"]


def test_validate_per_round_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "r.jsonl"
    f.write_text("".join(json.dumps(_wrong_record(("sake-not-chaff",), s, "3")) + "\n" for s in range(3)))
    assert main(["validate", str(f), "--per-round", "--no-suggest"]) == 1
    out = capsys.readouterr().out
    assert "record 1: rounds: 1 valid, 2 valid, 3 valid (3 of 3 valid)" in out
    assert "record 2: rounds: 1 invalid [KK-TURN-2], 2 valid, 3 valid (2 of 3 valid)" in out
    assert main(["validate", str(f), "--per-round", "--json", "--no-suggest"]) == 1
    reports = json.loads(capsys.readouterr().out)["files"][0]["reports"]
    verdicts = [[r["verdict"] for r in rep["rounds"]] for rep in reports]
    assert verdicts[:2] == [["valid"] * 3, ["invalid", "valid", "valid"]]
    assert reports[1]["rounds"][0]["problem"]["rule"] == "KK-TURN-2"


# -- messages: what the reference expects -------------------------------------------------------------

PEER = Path(__file__).resolve().parent / "fixtures" / "peer-logs"


def _kkai(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """A real KoiKoi-AI game imported (format 1.1, with its captures and draw entries)."""
    assert main(["import", "koikoi-ai", str(PEER / "koikoi-ai" / "1.json")]) == 0
    doc: dict[str, Any] = json.loads(capsys.readouterr().out.splitlines()[0])
    return doc


def test_REC_ROUNDS_1_says_what_the_reference_expects_next() -> None:
    doc = record_match(game("koikoi"), None, {"length": "1"}, seed=3, policy_seed=3)
    acts = doc["actions"]
    assert isinstance(acts, list)
    cut = next(i for i, a in enumerate(acts) if a in ("koikoi", "stop"))
    doc["actions"] = acts[:cut]
    rec, _ = parse_record(doc)
    assert rec is not None
    found = [p for p in replay(rec).problems if p.rule_id == "REC-ROUNDS-1"]
    assert "the reference expects the koi-koi decision: 'koikoi', 'stop'" in found[0].reason
    doc["actions"] = acts[:1]
    rec, _ = parse_record(doc)
    assert rec is not None
    found = [p for p in replay(rec).problems if p.rule_id == "REC-ROUNDS-1"]
    assert "the reference expects a hand play: 'play " in found[0].reason


def test_REC_CAPTURE_1_separates_the_hand_play_and_the_draw(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _kkai(capsys)
    acts = doc["actions"]
    assert isinstance(acts, list)
    k = next(i for i, a in enumerate(acts) if isinstance(a, dict) and a.get("draw") is not None and a["captures"])
    play, draw = acts[k - 1], acts[k]
    wrong = next(c for c in range(10, 124) if c // 10 == draw["draw"] // 10 and c not in (draw["draw"],
                                                                                         *draw["captures"]))
    acts[k] = {**draw, "captures": [wrong]}
    rec, problems = parse_record(doc)
    assert rec is not None, problems
    (p,) = [p for p in replay(rec).problems if p.rule_id == "REC-CAPTURE-1"]
    played = play["action"].split()[1]
    took = ", ".join(map(str, sorted(play["captures"]))) or "nothing"
    assert p.reason.startswith(f"the hand play of {played} captured {took} and the draw of {draw['draw']} "
                               f"captured {', '.join(map(str, sorted(draw['captures'])))}; the record says {took} "
                               f"and {wrong}"), p.reason


def test_an_illegal_action_says_what_the_reference_expects() -> None:
    rec, _ = parse_record(_wrong_record(("sake-not-chaff",), 1, "3"))
    assert rec is not None
    p = replay(rec).problems[0]
    assert p.rule_id == "KK-TURN-2" and "(the reference expects the koi-koi decision: 'koikoi', 'stop')" in p.reason


def test_the_docs_list_every_kind_of_deviation() -> None:
    from hanafuda.deviations import catalogue

    text = (Path(__file__).resolve().parent.parent / "docs" / "validating.md").read_text(encoding="utf-8")
    for kind, _rule, _what in catalogue():
        assert f"| `{kind}` |" in text, kind
    for d in library():
        if not d.parameters:
            assert f"| `{d.id}` | {d.rule} |" in text, d


def test_diagnose_names_four_deviations_of_the_library_at_once() -> None:
    """Records written by an engine with four deviations of the library (a yaku's value, the seven-point
    doubling, the deal's layout, the moment of the decision): each is named, with the rounds it changes."""
    from hanafuda.games.koikoi import KoiKoi, KoiKoiRules

    devs = (deviation("yaku-points", yaku="flower-viewing", points="6"), deviation("seven-after-multiplier"),
            deviation("deal-slices", order="dealer,ko,field"), deviation("call-on-any-yaku"))

    class Deviant(KoiKoi):
        def __init__(self, with_: tuple[Deviation, ...]) -> None:
            super().__init__()
            self.with_ = with_

        def make_rules(self, values: Mapping[str, str]) -> KoiKoiRules:
            return deviant_rules(values, self.with_)

    g = Deviant(devs)
    records = []
    for seed in range(30):
        rec, _ = parse_record(record_match(g, None, {"length": "3"}, seed=seed, policy_seed=seed))
        assert rec is not None
        records.append(Loaded("d", seed + 1, rec))
    found = diagnose(records)
    assert not found.unexplained
    named = {e.candidate.deviation: len(e.explains) for e in found.explanations}
    assert set(named) == set(devs), named
    for d in devs:
        truth = 0
        for ld in records:
            values = game("koikoi").spec.resolve(ld.rec.ruleset, dict(ld.rec.options))
            rep = replay(ld.rec, rules=deviant_rules(values, [o for o in devs if o != d]))
            truth += len({p.where.deal for p in rep.problems if p.where.deal is not None})
        assert abs(named[d] - truth) <= 0.05 * truth, (d, named[d], truth)
