"""Record format ``hanafuda-record/1.1`` and the diagnostics of ``hanafuda validate``.

Deals as zones, ``meta``, ``status``, unknown (null) claims, captures and draw entries; the
conversion 1 <-> 1.1; the option hints, the grouping of consequences, --select/--ignore and the
--json summary of every record.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hanafuda.cli import main
from hanafuda.records import (
    convert,
    deal_layout,
    order_from_zones,
    problems_of,
    record_match,
    suggest_options,
    validate_document,
    zones_from_order,
)
from hanafuda.registry import available, game
from hanafuda_spec.records import FORMAT, FORMAT_1_1, RECORD_RULES, DealZones, parse_record, schema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.test_records import schema_errors

GAMES = [g.spec.key for g in available()]
_CACHE: dict[tuple[str, int, tuple[tuple[str, str], ...]], dict[str, Any]] = {}


def rec(key: str, seed: int = 5, options: dict[str, str] | None = None) -> dict[str, Any]:
    k = (key, seed, tuple(sorted((options or {}).items())))
    if k not in _CACHE:
        _CACHE[k] = record_match(game(key), None, options or {}, seed, seed)
    return copy.deepcopy(_CACHE[k])


def v11(doc: dict[str, Any]) -> dict[str, Any]:
    """The record in format 1.1, every deal as zones, without its seed (so that zones are all)."""
    out = convert(doc, FORMAT_1_1)
    out.pop("seed", None)
    return out


def keys(problems: list[Any]) -> list[tuple[str, int | None, int | None]]:
    return [(p.rule_id, p.where.deal, p.where.action) for p in problems]


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


# -- deals as zones --------------------------------------------------------------------------------


@pytest.mark.parametrize("key", GAMES)
def test_deal_layout_inverts_every_games_deal(key: str) -> None:
    """REC-ZONES-1: the layout is the game's own deal: dealing the order built from zones puts every
    card in its zone, for every dealer."""
    g = game(key)
    rules = g.rules(None, {})
    order = [c.id for c in g.deck(rules).cards]
    for dealer in range(g.seats(rules)):
        layout = deal_layout(g, rules, dealer)
        zones = zones_from_order(layout, order, g.seats(rules))
        assert sorted(zones.cards()) == sorted(order)
        assert order_from_zones(layout, zones, g.seats(rules)) == tuple(order)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAMES), st.integers(0, 2**32), st.randoms(use_true_random=False),
       st.sampled_from(["none", "action", "score", "claim"]))
def test_zones_and_deck_orders_validate_identically(key: str, seed: int, rnd: Any, corrupt: str) -> None:
    """The same record, its deals as deck orders (1) or as zones (1.1, hands and table in any
    order), gets the same problems: none for a random game, the same ones for a corrupted one."""
    doc = rec(key, seed)
    doc.pop("seed")  # both forms list every deal
    if corrupt == "action" and len(doc["actions"]) > 3:
        doc["actions"][len(doc["actions"]) // 2] = doc["actions"][0]
    elif corrupt == "score":
        doc["result"]["scores"][0] += 1
    elif corrupt == "claim" and doc["result"]["rounds"]:
        doc["result"]["rounds"][-1]["deltas"][0] += 3
    zoned = v11(doc)
    for d in [zoned["deck"], *zoned["deals"]]:
        for hand in d["hands"]:
            rnd.shuffle(hand)
        rnd.shuffle(d["field"])
    assert keys(problems_of(zoned)) == keys(problems_of(doc))
    if corrupt == "none":
        assert problems_of(zoned) == []


@pytest.mark.parametrize("key", GAMES)
def test_round_trip_1_to_1_1_to_1_preserves_the_record_and_its_validity(key: str) -> None:
    for corrupt in (False, True):
        doc = rec(key, 7)
        if corrupt:
            doc["result"]["scores"][0] += 1
        there = convert(doc, FORMAT_1_1)
        back = convert(there, FORMAT)
        assert back["deck"] == doc["deck"] and back["deals"] == doc["deals"]
        assert keys(problems_of(back)) == keys(problems_of(there)) == keys(problems_of(doc))
        assert schema_errors(there, schema(FORMAT_1_1)) == []
        assert schema_errors(back, schema(FORMAT)) == []


def test_zones_of_the_wrong_size_are_named() -> None:
    """REC-ZONES-1: a zone with the wrong number of cards is named, with what the rules deal."""
    doc = v11(rec("koikoi"))
    d = doc["deck"]
    d["field"].append(d["hands"][0].pop())
    got = problems_of(doc)
    assert [p.rule_id for p in got][:1] == ["REC-ZONES-1"]
    assert "seat 0's hand holds 7 cards; the rules deal it 8" in got[0].reason


def test_zones_that_are_not_the_deck_are_refused() -> None:
    doc = v11(rec("kekoro"))
    doc["deck"]["stock"][0] = doc["deck"]["stock"][1]
    p = problems_of(doc)[0]
    assert p.rule_id == "REC-ZONES-1" and "duplicated card(s)" in p.reason and p.where.path == "$.deck"


def test_version_1_records_cannot_use_1_1_fields() -> None:
    doc = rec("koikoi")
    doc["meta"] = {"x": 1}
    doc["deck"] = v11(rec("koikoi"))["deck"]
    got = [str(p) for p in problems_of(doc)]
    assert any("$.meta: [REC-FIELD-2]" in p for p in got) and any("$.deck: [REC-FIELD-1]" in p for p in got)


# -- meta, status, unknown claims -----------------------------------------------------------------


def test_meta_is_kept_and_echoed_never_interpreted() -> None:
    doc = v11(rec("musashino"))
    doc["meta"] = {"source": {"file": "game.log", "line": 12}, "engine": "x", "nested": [1, {"a": None}]}
    rep = validate_document(doc)
    assert rep.ok and rep.to_json()["meta"] == doc["meta"]


@pytest.mark.parametrize("key", GAMES)
def test_abandoned_record_is_valid_up_to_where_it_stops(key: str) -> None:
    """A record cut after its first deal, or in the middle of its second, is valid when marked
    abandoned, and broken when not."""
    doc = rec(key, 11)
    rounds = doc["result"]["rounds"]
    if len(rounds) < 2:
        pytest.skip("a one-deal match")
    g = game(key)
    first = rounds[0]["actions"]
    for cut, listed in ((first, 1), (first + max(1, rounds[1]["actions"] // 2), 1)):
        if rounds[1]["actions"] == 0 and cut > first:
            continue
        d = v11(doc)
        d["actions"] = d["actions"][:cut]
        d["result"]["rounds"] = d["result"]["rounds"][:listed]
        scores = list(g.new_match(g.rules(None, {}), 0).scores)
        d["result"]["scores"] = [s + x for s, x in zip(scores, rounds[0]["deltas"], strict=True)]
        d["result"].pop("winners")
        d["result"].pop("end_reason")
        d["status"] = "abandoned"
        rep = validate_document(d)
        assert rep.ok, [str(p) for p in rep.problems]
        assert rep.to_json()["status"] == "abandoned"
        d["status"] = "complete"
        assert "REC-ROUNDS-1" in [p.rule_id for p in problems_of(d)]


@pytest.mark.parametrize("key", GAMES)
def test_REC_COUNT_1_REC_RESULT_1_an_abandoned_record_s_unfinished_deal(key: str) -> None:
    """The unfinished deal an abandoned record lists counts the actions the record holds for it and
    claims no result: a wrong count is REC-COUNT-1, a claimed reason or deltas REC-RESULT-1."""
    doc = rec(key, 11)
    rounds = doc["result"]["rounds"]
    if len(rounds) < 2 or rounds[1]["actions"] < 2:
        pytest.skip("no second deal to cut")
    g = game(key)
    first, half = rounds[0]["actions"], rounds[1]["actions"] // 2
    d = v11(doc)
    d["actions"] = d["actions"][:first + half]
    d["result"]["rounds"] = [rounds[0], {"actions": half}]
    scores = list(g.new_match(g.rules(None, {}), 0).scores)
    d["result"]["scores"] = [s + x for s, x in zip(scores, rounds[0]["deltas"], strict=True)]
    d["result"].pop("winners")
    d["result"].pop("end_reason")
    d["status"] = "abandoned"
    assert problems_of(d) == []
    d["result"]["rounds"][1] = {"actions": half + 1}
    assert [p.rule_id for p in problems_of(d)] == ["REC-COUNT-1"]
    d["result"]["rounds"][1] = {"actions": half, "reason": rounds[1]["reason"], "deltas": rounds[1]["deltas"]}
    assert [p.rule_id for p in problems_of(d)] == ["REC-RESULT-1"]
    d["actions"] = d["actions"][:first]  # stopped between deals: the listed second deal holds no action
    d["result"]["rounds"][1] = {"actions": 0}
    assert problems_of(d) == []
    d["result"]["rounds"][1] = {"actions": 3}
    assert [p.rule_id for p in problems_of(d)] == ["REC-COUNT-1"]


def test_abandoned_must_really_stop_early() -> None:
    doc = v11(rec("kekoro"))
    doc["status"] = "abandoned"
    assert [p.rule_id for p in problems_of(doc)] == ["REC-ROUNDS-1"]


@pytest.mark.parametrize("key", GAMES)
def test_REC_ZONES_1_an_abandoned_record_s_unplayed_deal_is_checked(key: str) -> None:
    """A record abandoned before its first action still lists its deal: a zone missing a card is named,
    and the same record with its deal whole is valid."""
    doc = v11(rec(key))
    doc["actions"], doc["result"]["rounds"], doc["status"] = [], [], "abandoned"
    g = game(key)
    doc["result"]["scores"] = list(g.new_match(g.rules(doc.get("ruleset"), doc.get("options") or {}), 0).scores)
    doc["result"].pop("winners")
    doc["result"].pop("end_reason")
    assert problems_of(doc) == []
    doc["deck"]["stock"].pop()
    assert [p.rule_id for p in problems_of(doc)] == ["REC-ZONES-1"]


def test_unknown_claims_are_not_checked() -> None:
    doc = v11(rec("koikoi"))
    for r in doc["result"]["rounds"]:
        r["reason"] = None
        r["notes"] = None
        if r.get("yaku"):
            r["yaku"][1] = None  # the loser's yaku, say, are not known
    doc["result"]["scores"] = None
    assert problems_of(doc) == []
    doc["result"]["rounds"][0]["deltas"] = None
    assert problems_of(doc) == []


# -- captures and draw entries --------------------------------------------------------------------


def _with_captures(doc: dict[str, Any]) -> dict[str, Any]:
    """A Koi-Koi record rewritten as a log gives it: each play with the table cards it took (a
    target only there), then a draw entry with the card turned and what it took."""
    from hanafuda.engine import Action, RoundSetup

    g = game("koikoi")
    rules = g.rules(doc["rules"]["ruleset"], doc["rules"]["options"])
    by_id = {c.id: c for c in g.deck(rules).cards}
    info = g.new_match(rules, doc["first_dealer"])
    out: list[Any] = []
    counts = []
    pos = 0
    for k, claim in enumerate(doc["result"]["rounds"]):
        order = [doc["deck"], *doc["deals"]][k]
        setup = RoundSetup(info.rounds_played + 1, info.dealer, g.seats_in_play(rules, info), info.scores)
        state = g.start_round(rules, [by_id[c] for c in order], setup)
        start = len(out)
        drawn = None
        for text in doc["actions"][pos:pos + claim["actions"]]:
            a = Action.parse(text)
            before = g.snapshot(state)
            state = g.do(state, a)
            after = g.snapshot(state)
            if a.kind == "play":
                field = [c for c in dict(before.zones)["field"] if c // 10 == a.cards[0] // 10]
                took = list(a.cards[1:]) if len(a.cards) > 1 else field if len(field) != 2 else []
                out.append({"action": f"play {a.cards[0]}", "captures": took})
                stock0 = dict(before.zones)["stock"]
                drawn = stock0[0] if dict(after.zones)["stock"] != stock0 else None
                if drawn is not None and not (g.to_move(state) is not None
                                              and all(x.kind == "take" for x in g.legal_actions(state))):
                    moved = {c for z, cs in after.zones if z.startswith("captured") for c in cs} - {
                        c for z, cs in before.zones if z.startswith("captured") for c in cs}
                    out.append({"draw": drawn, "captures": sorted(moved - {a.cards[0], drawn} - set(took))})
            elif a.kind == "take":
                out.append({"draw": drawn, "captures": [a.cards[0]]})
            else:
                out.append(text)
        counts.append(len(out) - start)
        pos += claim["actions"]
        info = g.settle(rules, info, g.round_result(state))
    new = v11(doc)
    new["actions"] = out
    for r, n in zip(new["result"]["rounds"], counts, strict=True):
        r["actions"] = n
    return new


def test_captures_and_draw_entries_validate() -> None:
    """REC-CAPTURE-1, REC-DRAW-1: a record written as a log gives it (each play with the cards it
    took, a draw entry per drawn card, targets only in captures) validates like the canonical one."""
    doc = rec("koikoi", 3)
    logged = _with_captures(doc)
    assert validate_document(logged).problems == []


def test_wrong_captures_and_wrong_draws_are_located() -> None:
    logged = _with_captures(rec("koikoi", 3))
    i = next(i for i, a in enumerate(logged["actions"]) if isinstance(a, dict) and a.get("captures"))
    bad = copy.deepcopy(logged)
    bad["actions"][i]["captures"] = [10 if bad["actions"][i]["captures"][0] != 10 else 20]
    p = problems_of(bad)[0]
    assert p.rule_id == "REC-CAPTURE-1" and p.where.action == i
    j = next(i for i, a in enumerate(logged["actions"]) if isinstance(a, dict) and "draw" in a)
    bad = copy.deepcopy(logged)
    bad["actions"][j]["draw"] = 10 if bad["actions"][j]["draw"] != 10 else 20
    p = problems_of(bad)[0]
    assert p.rule_id == "REC-DRAW-1" and "the top of the draw pile is" in p.reason and p.where.action == j


def test_lenient_accepts_a_target_where_there_is_no_choice() -> None:
    """Strict: 'play X T' with one match is illegal; lenient: it is 'play X', T checked as captured."""
    doc = rec("koikoi", 3)
    g = game("koikoi")
    rules = g.rules(None, {})
    by_id = {c.id: c for c in g.deck(rules).cards}
    from hanafuda.engine import Action, RoundSetup

    info = g.new_match(rules, 0)
    state = g.start_round(rules, [by_id[c] for c in doc["deck"]],
                          RoundSetup(1, info.dealer, g.seats_in_play(rules, info), info.scores))
    for i, text in enumerate(doc["actions"]):  # noqa: B007 (i is the action found)
        a = Action.parse(text)
        if a.kind == "play" and len(a.cards) == 1:
            month = a.cards[0] // 10
            field = [c for c in dict(g.snapshot(state).zones)["field"] if c // 10 == month]
            if len(field) == 1:
                break
        state = g.do(state, a)
    else:
        pytest.skip("no single-match play in the first deal")
    doc["actions"][i] = f"play {a.cards[0]} {field[0]}"
    assert problems_of(doc)[0].where.action == i
    assert problems_of(doc, lenient=True) == []
    other = next(c for c in [*dict(g.snapshot(state).zones)["hand.0"], 999] if c // 10 != month)
    doc["actions"][i] = f"play {a.cards[0]} {other}"
    assert problems_of(doc, lenient=True)


# -- diagnostics ------------------------------------------------------------------------------------


def _drawn_dealer_record() -> dict[str, Any]:
    """A Koi-Koi match played with draw_dealer=pass in which the deal does pass after a draw."""
    for seed in range(200):
        doc = rec("koikoi", seed, {"draw_dealer": "pass"})
        rounds = doc["result"]["rounds"]
        if any(r["reason"] == "exhaustive" for r in rounds[:-1]):
            doc["rules"] = {"ruleset": "fudawiki", "options": {}}  # the claim: plain rules
            return doc
    raise AssertionError("no drawn round in 200 matches")


def test_one_option_that_explains_the_first_divergence_is_named() -> None:
    doc = _drawn_dealer_record()
    rep = validate_document(doc)
    assert not rep.ok and rep.source is not None
    hints = suggest_options(rep.source, rep)
    assert any(h.startswith("with `draw_dealer=pass`") and "the whole record validates" in h for h in hints), hints


def test_validate_prints_the_hint_and_groups_consequences(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = _drawn_dealer_record()
    p = tmp_path / "r.jsonl"
    p.write_text(json.dumps(doc) + "\n", encoding="utf-8")
    code, out, err = run_cli(["validate", str(p)], capsys)
    assert code == 1 and err == ""
    assert "hint: with `draw_dealer=pass` the whole record validates" in out
    code, out, _ = run_cli(["validate", str(p), "-o", "draw_dealer=pass"], capsys)
    assert code == 0, out


def test_claim_mismatch_shows_the_score_breakdown() -> None:
    """REC-RESULT-1: beside a wrong claim, the yaku with points and rule ids, the multipliers."""
    doc = rec("koikoi", 5)
    i = next(i for i, r in enumerate(doc["result"]["rounds"]) if r["reason"] == "shobu")
    doc["result"]["rounds"][i]["deltas"][doc["result"]["rounds"][i]["winner"]] += 1
    msg = next(p.reason for p in problems_of(doc) if p.where.path.endswith(".deltas"))
    assert "the rules score seat" in msg and "[KK-YAKU-" in msg and "base " in msg


def test_select_and_ignore(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = rec("koikoi", 5)
    doc["result"]["scores"][0] += 1
    p = tmp_path / "r.jsonl"
    p.write_text(json.dumps(doc) + "\n", encoding="utf-8")
    assert run_cli(["validate", str(p), "--ignore", "REC-RESULT-2"], capsys)[0] == 0
    assert run_cli(["validate", str(p), "--select", "KK-"], capsys)[0] == 0
    code, out, _ = run_cli(["validate", str(p), "--select", "REC-"], capsys)
    assert code == 1 and "[REC-RESULT-2]" in out


def test_json_summarises_every_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = v11(rec("kekoro"))
    good["meta"] = {"file": "a.log"}
    p = tmp_path / "r.jsonl"
    p.write_text(json.dumps(good) + "\n" + json.dumps(rec("kekoro", 6)) + "\n", encoding="utf-8")
    code, out, _ = run_cli(["validate", str(p), "--json"], capsys)
    j = json.loads(out)
    reports = j["files"][0]["reports"]
    assert code == 0 and [r["ok"] for r in reports] == [True, True]
    assert reports[0]["meta"] == {"file": "a.log"} and reports[0]["deals"] >= 1
    assert reports[0]["scores"] == good["result"]["scores"] and reports[0]["status"] == "complete"


def test_help_states_the_limits(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["validate", "--help"])
    out = capsys.readouterr().out
    assert "Limits:" in out and "1000 problems" in out.replace("\n", " ") and "more_records" in out


def test_record_rules_are_documented() -> None:
    for rid in ("REC-ZONES-1", "REC-CAPTURE-1", "REC-DRAW-1"):
        assert rid in RECORD_RULES


def test_parse_keeps_1_1_fields() -> None:
    doc = v11(rec("kusurigui"))
    doc["meta"] = [1, 2]
    r, problems = parse_record(doc)
    assert problems == [] and r is not None and isinstance(r.deck, DealZones) and r.meta == [1, 2]
    assert r.deck.zone("facedown") is not None and len(r.deck.field) == 1


@pytest.mark.parametrize("args", [["-r", "nosuch"], ["-o", "nosuch=1"], ["--select", ""], ["-o", "junk"]])
def test_bad_rule_arguments_are_usage_errors(args: list[str], tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "r.jsonl"
    p.write_text(json.dumps(rec("kekoro")) + "\n", encoding="utf-8")
    code, out, err = run_cli(["validate", str(p), *args], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err
