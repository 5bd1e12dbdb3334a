"""The corpus's illegal-action and stacked-deal suites (``hanafuda vectors``, issue 30): each illegal
record is refused at its last action with the rule id it names, each stacked record validates and
reaches the situation it names."""

from __future__ import annotations

from typing import Any

import pytest
from hanafuda.illegal import illegal_records
from hanafuda.records import validate_document
from hanafuda.registry import game
from hanafuda.stacked import STACKS, stacked_deals, stacked_records


def _records(key: str) -> list[Any]:
    return list(stacked_records(key))


def _stacked(key: str, rule_id: str) -> list[Any]:
    """The game's stacked records that name ``rule_id``, in the suite's order."""
    return [r for r in _records(key) if rule_id in r["meta"]["stacked"]["rule_ids"]]


def _illegal(key: str) -> list[Any]:
    return list(illegal_records(game(key)))


def _refused_where_named(doc: Any) -> None:
    report = validate_document(doc)
    refused = doc["meta"]["refused"]
    assert not report.ok
    first = report.problems[0]
    assert first.rule_id == refused["rule_id"], (first.rule_id, first.reason)
    assert refused["action"] == len(doc["actions"]) - 1
    assert f"$.actions[{refused['action']}]" in str(first.where.path), first.where


def test_KE_TURN_2_every_kekoro_illegal_record_is_refused_with_its_rule_id() -> None:
    recs = _illegal("kekoro")
    ids = {r["meta"]["refused"]["rule_id"] for r in recs}
    assert {"KE-TURN-2", "KE-CAP-1", "KE-CAP-2", "KE-CAP-6", "KE-IV-1", "KE-IV-3"} <= ids
    for r in recs:
        _refused_where_named(r)


def test_KG_PLAY_3_kusurigui_illegal_records_name_the_willow_rules() -> None:
    recs = _illegal("kusurigui")
    assert {"KG-PLAY-1", "KG-PLAY-3", "KG-ONI-1"} <= {r["meta"]["refused"]["rule_id"] for r in recs}
    for r in recs:
        _refused_where_named(r)


@pytest.mark.parametrize("key", sorted({s.game for s in STACKS}))
def test_every_stacked_record_validates(key: str) -> None:
    for r in _records(key):
        report = validate_document(r)
        assert report.ok, [p.reason for p in report.problems]
        assert r["meta"]["stacked"]["rule_ids"]


def test_KK_DEAL_8_the_stacked_four_goes_to_the_dealer_and_the_draw_pile_runs_out() -> None:
    first, second = _stacked("koikoi", "KK-DEAL-8")[:2]
    after = dict(first["actions"][0]["after"]["zones"])
    assert {10, 11, 12, 13} <= set(after["captured.0"])  # the dealer took the four before play
    stocks = [len(dict(a["after"]["zones"])["stock"]) for a in second["actions"]]
    assert stocks[0] < 20 - 8 and 0 in stocks  # KK-TURN-5: eight replaced cards, the pile ends early
    assert second["result"]["rounds"][0]["reason"] == "exhaustive"


def test_KJ_YAKU_1_the_stacked_deal_forms_danjou_at_the_deal() -> None:
    (rec,) = _stacked("kujuroku", "KJ-YAKU-5")
    assert [a["action"] for a in rec["actions"]] == ["collect 0 10", "collect 40 41"]
    (rnd,) = rec["result"]["rounds"]
    assert rnd["reason"] == "dekiyaku" and any(y["id"] == "danjou" for side in rnd["yaku"] for y in side)


def test_MB_DEAL_4_a_stacked_whole_month_on_the_table_voids_the_deal() -> None:
    (rec,) = _stacked("musashino", "MB-DEAL-4")
    assert rec["actions"] == [] and rec["result"]["rounds"][0]["reason"] == "misdeal"
    assert validate_document(rec).ok
    deals: Any = stacked_deals("musashino")
    (row,) = [d for d in deals["deals"] if d["deck"] == rec["deck"]]
    assert row["legal"] == [] and {10, 11, 12, 13} <= set(dict(row["dealt"]["zones"])["field"])


def test_MB_END_1_an_insta_win_by_a_hand_capture_ends_the_round_before_the_draw() -> None:
    """insta_win_check=capture: the dealer's third hand play completes Five Kings; the round ends there,
    the draw pile as it was before that play (no draw), and the insta-win pays."""
    (rec,) = _stacked("musashino", "MB-END-1")
    assert rec["rules"]["options"]["insta_win_check"] == "capture"
    last, before = rec["actions"][-1], rec["actions"][-2]
    assert (last["seat"], last["action"]) == (0, "play 121")
    assert {10, 30, 80, 110, 120} <= set(dict(last["after"]["zones"])["captured.0"])
    assert dict(last["after"]["zones"])["stock"] == dict(before["after"]["zones"])["stock"]
    (rnd,) = rec["result"]["rounds"]
    assert (rnd["reason"], rnd["winner"], rnd["yaku"][0]) == ("insta-win", 0, [{"id": "five-kings", "points": 8}])


@pytest.mark.parametrize("key", sorted({s.game for s in STACKS}))
def test_every_stacked_deal_vector_is_the_deal_of_its_record(key: str) -> None:
    deals: Any = stacked_deals(key)
    for row, rec in zip(deals["deals"], _records(key), strict=True):
        assert row["deck"] == rec["deck"]
        assert row["legal"] or not rec["actions"] or rec["actions"][0]["action"] in row["legal"]


def test_KK_DEAL_8_fours_the_draw_pile_keeps_bringing_void_the_deal() -> None:
    rec = _stacked("koikoi", "KK-DEAL-8")[2]
    assert rec["actions"] == [] and rec["result"]["rounds"][0]["reason"] == "misdeal"


def test_KK_DEAL_3_dealer_wins_with_a_four_on_the_table() -> None:
    for dealer, rec in enumerate(_stacked("koikoi", "KK-DEAL-3")):
        (rnd,) = rec["result"]["rounds"]
        assert rec["first_dealer"] == dealer
        assert (rnd["reason"], rnd["winner"], sorted(rnd["deltas"])) == ("field-teyaku", dealer, [0, 6])


def test_KK_WILD_3_the_drawn_wild_lightning_takes_a_card_of_another_month() -> None:
    (rec,) = _stacked("koikoi", "KK-WILD-3")
    take = rec["actions"][1]["action"]
    assert take.startswith("take ") and int(take.split()[1]) // 10 != 11
    assert 113 in dict(rec["actions"][1]["after"]["zones"])["captured.0"]


@pytest.mark.parametrize(("rule_id", "configuration", "yaku", "points"),
                         [("KJ-YAKU-6", "B", "danjou", 8), ("KJ-YAKU-8", "D", "danna", 15)])
def test_KJ_YAKU_6_and_8_stacked_deals_form_a_dekiyaku_of_their_configuration(
        rule_id: str, configuration: str, yaku: str, points: int) -> None:
    rec = _stacked("kujuroku", rule_id)[0]  # the first deal of its configuration
    assert rec["rules"]["options"]["configuration"] == configuration
    assert rec["result"]["rounds"][0]["yaku"][0] == [{"id": yaku, "points": points}]


def test_KJ_JIZO_2_the_drawn_jizo_sends_the_onis_capture_back() -> None:
    (rec,) = _stacked("kujuroku", "KJ-JIZO-2")
    first = rec["actions"][0]
    zones = dict(first["after"]["zones"])
    assert first["action"] == "play 0 20"
    assert 20 in zones["field"] and {0, 1} <= set(zones["captured.0"])


def test_KK_SCORE_6_the_additive_bonus_of_a_fourth_call() -> None:
    """multiplier=additive: the winner called koi-koi four times, so the bonus is the base (times the
    seven-point doubling) once more, not 4 (exhaustive=last-yaku gives the round to the last improver)."""
    (rec,) = _stacked("koikoi", "KK-SCORE-6")
    (rnd,) = rec["result"]["rounds"]
    w = rnd["winner"]
    assert sum(a["action"] == "koikoi" and a["seat"] == w for a in rec["actions"]) == 4
    notes = dict(rnd["notes"])
    assert notes["koikoi_bonus"] == notes["base"] * notes["seven"] != 4


def test_KK_GAME_2_a_match_to_50_ends_on_exactly_50() -> None:
    (rec,) = _stacked("koikoi", "KK-GAME-2")
    assert rec["status"] == "complete" and rec["result"]["end_reason"] == "target"
    assert max(rec["result"]["scores"]) == 50


def test_KJ_ONI_3_the_drawn_oni_facing_one_card_takes_it_at_once() -> None:
    """The last hand play takes the 4 beside I-tsun, the Oni comes next off the draw pile and takes
    I-tsun, the table's one card, with no choice offered."""
    (rec,) = _stacked("kujuroku", "KJ-ONI-3")
    before, last = (dict(a["after"]["zones"]) for a in rec["actions"][-2:])
    assert (before["field"], before["stock"][0], rec["actions"][-1]["action"]) == ([10, 40], 0, "play 41")
    assert last["field"] == [] and {0, 10, 40, 41} <= set(last[f"captured.{rec['actions'][-1]['seat']}"])
    assert all(not a["action"].startswith("take") for a in rec["actions"])


def test_KJ_YAKU_7_shi_dan_formed_with_smaller_dekiyaku_pays_12() -> None:
    """Configuration C: the capture of I-shi completes Shi Yaku, Danjou and Shi-Dan at once; the highest,
    Shi-Dan's 12, is paid by each of the other two."""
    (rec,) = _stacked("kujuroku", "KJ-YAKU-7")
    assert rec["rules"]["options"]["configuration"] == "C"
    (rnd,) = rec["result"]["rounds"]
    assert (rnd["reason"], rnd["winner"], rnd["yaku"][0]) == ("dekiyaku", 0, [{"id": "shi-dan", "points": 12}])
    assert rnd["deltas"][:3] == [24, -12, -12]
    assert validate_document(rec).ok


def test_KJ_YAKU_8_nejikomi_formed_with_san_shima_and_danna_pays_30() -> None:
    """Configuration D with the Jizo: the Oni's capture of I-shi is checked after the draw, which takes the
    last 3, so Nejikomi forms with San Shima and Danna; its 30 is paid."""
    rec = _stacked("kujuroku", "KJ-YAKU-8")[-1]
    assert rec["rules"]["options"]["configuration"] == "D" and rec["actions"][-1]["action"] == "play 0 40"
    (rnd,) = rec["result"]["rounds"]
    assert (rnd["reason"], rnd["winner"], rnd["yaku"][0]) == ("dekiyaku", 0, [{"id": "nejikomi", "points": 30}])
    assert rnd["deltas"][:3] == [60, -30, -30]
    assert validate_document(rec).ok


def test_KG_SCORE_3_a_payment_is_cut_to_the_payers_chips_under_bust_end_only() -> None:
    """Seed 6's match: in round 11 seat 1 holds 4 chips and loses by 30. bust=end cuts the payment to 4 and
    the match ends on 0; bust=debt takes the whole 30 and play goes on below zero."""
    end, debt = _stacked("kusurigui", "KG-SCORE-3")
    assert (end["rules"]["options"]["bust"], debt["rules"]["options"]["bust"]) == ("end", "debt")
    assert end["result"]["rounds"][10]["deltas"] == [4, -4] and debt["result"]["rounds"][10]["deltas"] == [30, -30]
    assert (end["result"]["end_reason"], end["result"]["scores"]) == ("bust", [200, 0])
    assert (len(debt["result"]["rounds"]), debt["result"]["scores"]) == (12, [221, -21])
    assert validate_document(end).ok and validate_document(debt).ok
