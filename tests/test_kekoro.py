"""Kekoro: one test per rule id (KE-…), stacked decks for the rare cases, random play."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from hanafuda.adapter import ReferenceAdapter, start_from_deck
from hanafuda.cli import main
from hanafuda.engine import Action, IllegalActionError, Match, MatchInfo, RoundResult, RoundSetup
from hanafuda.fishing import Table
from hanafuda.games import kekoro as ref
from hanafuda.games.kekoro import GAME, KekoroState, Phase
from hanafuda.simulate import simulate
from hanafuda_spec.adapter import RoundOutcome
from hanafuda_spec.cards import HANAFUDA, Kind, card
from hanafuda_spec.games.kekoro import (
    ANIMALS,
    CARD_VALUES,
    CHAFF,
    CURTAIN_PHOENIX,
    PROFILE,
    RIBBONS,
    SPEC,
    WEAK_BRIGHTS,
    card_points,
    yaku_count,
    yaku_table,
)
from hanafuda_spec.invariants import Step, run_random
from hanafuda_spec.shuffle import SHUFFLE_VECTORS, SplitMix64
from hanafuda_spec.yaku import YakuDef, count_yaku
from hypothesis import given
from hypothesis import strategies as st

from tests.stacking import koikoi_order

DECLARE = Action("declare", (), "instant-victory")
CONTINUE = Action("continue")
ALL = [c.id for c in HANAFUDA.cards]


def yaku(ids: list[int], **opts: str) -> dict[str, int]:
    rules = GAME.rules(None, opts)
    return {y.id: y.points for y in GAME.score(rules, [card(i) for i in ids]).yaku}


def state(hands: tuple[list[int], list[int]], field: list[int], stock: list[int],
          captured: tuple[list[int], list[int]] = ([], []), turn: int = 0, dealer: int = 0,
          **opts: str) -> KekoroState:
    rules = GAME.rules(None, opts)
    t = Table.deal(ref.INDEX, [[card(i) for i in h] for h in hands], [card(i) for i in field],
                   [card(i) for i in stock], [[card(i) for i in c] for c in captured])
    return KekoroState(rules, RoundSetup(1, dealer, (0, 1), (0, 0)), t, turn, Phase.PLAY)


def ids(cards: tuple[object, ...]) -> list[int]:
    return [c.id for c in cards]  # type: ignore[attr-defined]


def play_out(s: KekoroState, choose: Callable[[tuple[Action, ...]], Action] = lambda a: a[0]) -> KekoroState:
    while s.phase is not Phase.OVER:
        s = GAME.apply(s, choose(GAME.legal_actions(s)))
    return s


# A stacked first deal (dealer seat 0) in which the dealer reaches three yaku to none on their third
# turn: Mist Island (120 40 20), Gundari (20 100 120) and Eight Islands (80 40 20).
IV_ORDER = koikoi_order(opponent=[62, 80, 51, 52, 53, 70, 71, 90],
                        field=[120, 121, 122, 20, 21, 22, 40, 100],
                        dealer=[123, 42, 83, 10, 11, 30, 31, 50],
                        stock=[23, 72, 102, 112, 13])
IV_PLAYS = ["play 123", "play 62", "play 42", "play 80", "play 83"]


def iv_match(**opts: str) -> Match[KekoroState, ref.KekoroRules]:
    m = start_from_deck(GAME, GAME.rules(None, opts), IV_ORDER, seed=5)
    for a in IV_PLAYS:
        m = m.apply(Action.parse(a))
    return m


# -- equipment and dealing ------------------------------------------------------------------

def test_KE_EQ_1_two_players_and_the_full_deck() -> None:
    rules = GAME.rules()
    assert GAME.seats(rules) == 2 and GAME.deck(rules) is HANAFUDA and len(HANAFUDA) == 48


def test_KE_DEAL_1_packets_of_four_opponent_table_dealer() -> None:
    deck = list(SHUFFLE_VECTORS[("hanafuda", 1)])
    m = start_from_deck(GAME, GAME.rules(None, {"misdeal": "off"}), deck)
    t = m.state.table
    assert ids(t.hands[1]) == sorted(deck[0:4] + deck[12:16])
    assert ids(t.field) == sorted(deck[4:8] + deck[16:20])
    assert ids(t.hands[0]) == sorted(deck[8:12] + deck[20:24])
    assert ids(t.stock) == deck[24:] and len(t.stock) == 24


def test_KE_DEAL_1_packets_of_two() -> None:
    deck = list(SHUFFLE_VECTORS[("hanafuda", 1)])
    m = start_from_deck(GAME, GAME.rules(None, {"packets": "2", "misdeal": "off"}), deck)
    assert ids(m.state.table.hands[1]) == sorted(deck[i] for i in (0, 1, 6, 7, 12, 13, 18, 19))
    assert ids(m.state.table.field) == sorted(deck[i] for i in (2, 3, 8, 9, 14, 15, 20, 21))


def test_KE_DEAL_2_the_first_dealer_is_given_and_leads() -> None:
    m = Match.start(GAME, GAME.rules(), seed=4, first_dealer=1)
    assert m.info.dealer == 1 and m.state.dealer == 1 and GAME.to_move(m.state) == 1


def test_KE_DEAL_3_four_of_a_month_on_the_table_is_a_misdeal() -> None:
    order = koikoi_order([20, 21, 30, 31, 40, 41, 50, 60], [10, 11, 12, 13, 70, 80, 90, 100],
                         [22, 32, 42, 51, 61, 71, 81, 91])
    m = start_from_deck(GAME, GAME.rules(), order, seed=3)
    r = m.info.history[0]
    assert r.reason == "misdeal" and not r.counts and r.deltas == (0, 0)
    assert m.info.rounds_played == 0 and m.info.dealer == 0 and m.state.setup.number == 1
    played = start_from_deck(GAME, GAME.rules(None, {"misdeal": "off"}), order, seed=3)
    assert not played.info.history and played.state.phase is Phase.PLAY


def test_KE_DEAL_3_four_in_a_hand_only_with_field_or_hand() -> None:
    order = koikoi_order([10, 11, 12, 13, 20, 30, 40, 50], [21, 31, 41, 51, 61, 71, 81, 91],
                         [22, 32, 42, 52, 62, 72, 82, 92])
    assert not start_from_deck(GAME, GAME.rules(), order, seed=3).info.history
    m = start_from_deck(GAME, GAME.rules(None, {"misdeal": "field-or-hand"}), order, seed=3)
    assert m.info.history[0].reason == "misdeal"


def test_KE_DEAL_4_no_lucky_hands() -> None:
    # four of a month and four pairs in hand: a Koi-Koi teyaku, nothing at all in Kekoro
    order = koikoi_order([10, 11, 12, 13, 20, 21, 30, 31], [22, 32, 41, 51, 61, 71, 81, 91],
                         [23, 33, 42, 52, 62, 72, 82, 92])
    m = start_from_deck(GAME, GAME.rules(), order, seed=3)
    assert not m.info.history and m.state.phase is Phase.PLAY and m.info.scores == (0, 0)


# -- the turn and capturing -----------------------------------------------------------------

def test_KE_TURN_1_the_dealer_leads_and_turns_alternate() -> None:
    s = state(([20, 30], [50, 60]), [40], [70, 80, 90, 100], turn=1, dealer=1)
    assert GAME.to_move(s) == 1
    s = GAME.apply(s, Action("play", (50,)))
    assert GAME.to_move(s) == 0
    s = GAME.apply(s, Action("play", (20,)))
    assert GAME.to_move(s) == 1


def test_KE_TURN_2_the_drawn_card_is_played_too() -> None:
    s = state(([20, 30], [50]), [40, 11], [12, 80, 90])
    s = GAME.apply(s, Action("play", (20,)))
    assert ids(s.table.captured[0]) == [11, 12]  # the drawn 12 captured the 11
    assert 20 in ids(s.table.field) and ids(s.table.stock) == [80, 90]


def test_KE_CAP_1_one_match_captures_the_pair() -> None:
    s = state(([10, 20], [30]), [11, 40], [50, 60])
    s = GAME.apply(s, Action("play", (10,)))
    assert ids(s.table.captured[0]) == [10, 11]


def test_KE_CAP_2_two_matches_the_player_chooses() -> None:
    s = state(([10, 20], [30]), [11, 12, 40], [50, 60])
    assert {a for a in GAME.legal_actions(s) if a.cards[0] == 10} == {Action("play", (10, 11)),
                                                                     Action("play", (10, 12))}
    after = GAME.apply(s, Action("play", (10, 12)))
    assert ids(after.table.captured[0]) == [10, 12] and 11 in ids(after.table.field)
    with pytest.raises(IllegalActionError) as e:
        GAME.apply(s, Action("play", (10,)))
    assert e.value.rule_id == "KE-CAP-2"


def test_KE_CAP_3_three_matches_capture_all_four() -> None:
    s = state(([10, 20], [30]), [11, 12, 13, 40], [50, 60])
    s = GAME.apply(s, Action("play", (10,)))
    assert ids(s.table.captured[0]) == [10, 11, 12, 13] and ids(s.table.field) == [40, 50]


def test_KE_CAP_4_no_match_stays_on_the_table() -> None:
    s = state(([10, 20], [30]), [40], [50, 60])
    s = GAME.apply(s, Action("play", (20,)))
    assert 20 in ids(s.table.field) and not s.table.captured[0]


def test_KE_CAP_5_a_matching_card_must_capture_but_discarding_is_free() -> None:
    s = state(([10, 20], [30]), [11], [50, 60])
    assert GAME.legal_actions(s) == (Action("play", (10,)), Action("play", (20,)))
    after = GAME.apply(s, Action("play", (10,)))
    assert ids(after.table.captured[0]) == [10, 11]  # no way to lay 10 beside 11
    with pytest.raises(IllegalActionError) as e:
        GAME.apply(s, Action("play", (10, 11)))
    assert e.value.rule_id == "KE-CAP-1"


def test_KE_CAP_6_the_drawn_card_with_two_matches_waits_for_a_choice() -> None:
    s = state(([20, 21], [30]), [11, 12], [10, 60])
    s = GAME.apply(s, Action("play", (20,)))
    assert s.phase is Phase.TAKE and GAME.legal_actions(s) == (Action("take", (11,)), Action("take", (12,)))
    s = GAME.apply(s, Action("take", (12,)))
    assert ids(s.table.captured[0]) == [10, 12] and s.turn == 1


# -- card values ----------------------------------------------------------------------------

def test_KE_VAL_1_card_values_of_the_source() -> None:
    assert (len(CHAFF), len(CURTAIN_PHOENIX), len(WEAK_BRIGHTS), len(ANIMALS), len(RIBBONS)) == (24, 2, 3, 9, 10)
    values = CARD_VALUES["source"]
    assert sorted(values) == ALL and sum(values.values()) == 330
    for c in map(card, ALL):  # the classes are the standard kinds (decision KE-7)
        want = {Kind.CHAFF: 10, Kind.ANIMAL: 5, Kind.RIBBON: 1}.get(c.kind)
        if want is None:
            want = 10 if c.id in (30, 120) else 5
        assert values[c.id] == want, c.id
    assert (values[113], values[121], values[90], values[111], values[112]) == (10, 10, 5, 5, 1)
    assert GAME.score(GAME.rules(), [card(i) for i in ALL]).card_points == 330


def test_KE_VAL_2_kusaba_values() -> None:
    src, kus = CARD_VALUES["source"], CARD_VALUES["kusaba"]
    assert sum(kus.values()) == 272
    assert {c for c in ALL if src[c] != kus[c]} == CHAFF | CURTAIN_PHOENIX
    assert {kus[c] for c in CHAFF} == {8} and {kus[c] for c in CURTAIN_PHOENIX} == {5}
    assert GAME.score(GAME.rules("kusaba"), [card(i) for i in ALL]).card_points == 272
    assert GAME.score(GAME.rules(None, {"values": "kusaba"}), [card(i) for i in (120, 40, 20)]).card_points == 15


# -- yaku -----------------------------------------------------------------------------------

TABLE = yaku_table(SPEC.resolve())


def test_KE_YAKU_1_twenty_six_yaku_of_thirty_points() -> None:
    assert len(TABLE) == 26 and {y.points for y in TABLE} == {30}
    assert all(len(y.pool) == 3 and y.need == 3 and y.group is None for y in TABLE)
    assert len({y.pool for y in TABLE}) == 26  # no two yaku share their cards
    ribbon = [y.id for y in TABLE if y.id.endswith("-ribbons")]
    assert len(ribbon) == 12 and all(r.removesuffix("-ribbons") in {y.id for y in TABLE} for r in ribbon)
    ps = GAME.score(GAME.rules(), [card(i) for i in (120, 40, 20)])
    assert [y.id for y in ps.yaku] == ["mist-island"] and ps.yaku_total == 30 and ps.card_points == 20


@pytest.mark.parametrize("row", TABLE, ids=lambda y: y.id)
def test_KE_YAKU_1_each_yaku_needs_all_three_cards(row: YakuDef) -> None:
    pool = sorted(row.pool)
    assert yaku(pool) == {row.id: 30}
    for missing in pool:
        assert row.id not in yaku([c for c in ALL if c != missing])


def test_KE_YAKU_2_a_card_counts_in_every_yaku_it_completes() -> None:
    assert yaku([50, 60, 100, 30, 40]) == {"elder": 30, "three-five-six": 30, "five-four-six": 30}
    ps = GAME.score(GAME.rules(), [card(i) for i in ALL])
    assert len(ps.yaku) == 26 and ps.yaku_total == 780


def test_KE_YAKU_3_ribbon_forms_use_the_geese_and_the_yellow_paulownia() -> None:
    assert yaku([121, 41, 21]) == {"mist-island-ribbons": 30}
    assert yaku([122, 41, 21]) == {} and yaku([123, 41, 21]) == {}
    assert yaku([81, 71, 91]) == {"nakazo-ribbons": 30}
    uses = {c for y in TABLE if y.id.endswith("-ribbons") or y.id.endswith("seven-eight") for c in y.pool}
    assert uses - RIBBONS == {81, 121}


def test_KE_YAKU_4_teikei_gundari_ribbons() -> None:
    assert yaku([21, 101, 121]) == {"gundari-ribbons": 30}
    assert yaku([21, 101, 121], gundari_ribbons="teikei") == {}



def test_KE_9_a_card_set_scores_once_under_the_teikei_swap() -> None:
    """The swap gives Gundari Ribbons exactly the cards of Mist Island Ribbons: one yaku, 30 points, one
    toward the instant victory's lead (decision KE-9)."""
    assert yaku([21, 41, 121], gundari_ribbons="teikei") == {"mist-island-ribbons": 30}
    table = yaku_table(SPEC.resolve("teikei-1921"))
    assert len(table) == 25 and len({y.pool for y in table}) == 25
    assert "gundari-ribbons" not in {y.id for y in table}
    rules = GAME.rules("teikei-1921")
    assert GAME.score(rules, [card(i) for i in (21, 41, 121)]).yaku_total == 30


def test_KE_YAKU_5_teikei_eight_islands() -> None:
    assert yaku([80, 40, 110], eight_islands="teikei") == {"eight-islands": 30}
    assert yaku([80, 40, 20], eight_islands="teikei") == {}
    assert len(GAME.score(GAME.rules("teikei-1921"), [card(i) for i in ALL]).yaku) == 25  # KE-9


# -- round scoring and the next dealer -------------------------------------------------------

def _last_turn(captured: tuple[list[int], list[int]], **opts: str) -> KekoroState:
    """Seat 1 (not the dealer) plays the round's last card, 112, capturing 113 (1 + 10 points)."""
    stock = [23, 33, 43, 53, 63, 73, 83, 93, 103]
    s = replace(state(([], [112]), [113], stock, captured, turn=1), rules=GAME.rules(None, opts))
    s = GAME.apply(s, Action("play", (112,)))
    assert s.phase is Phase.OVER
    return s


def test_KE_SCORE_1_card_values_plus_thirty_per_yaku() -> None:
    r = GAME.round_result(_last_turn(([120, 40, 20, 80], [10, 11])))
    # seat 0: 10+5+5+5 with Mist Island and Eight Islands; seat 1: 10, 11, 112, 113 = 5+1+1+10
    assert r.reason == "played-out" and r.card_points == (25, 17)
    assert r.deltas == (25 + 60, 17) and r.winner == 0
    assert [len(y) for y in r.yaku] == [2, 0]
    k = GAME.round_result(_last_turn(([120, 40, 20, 80], [10, 11]), values="kusaba"))
    assert k.deltas == (5 + 5 + 5 + 5 + 60, 5 + 1 + 1 + 8)


def test_KE_END_1_the_round_ends_with_both_hands_empty_and_eight_undrawn() -> None:
    order = list(SHUFFLE_VECTORS[("hanafuda", 1)])
    m = start_from_deck(GAME, GAME.rules(None, {"misdeal": "off"}), order)
    s = play_out(m.state)  # 'continue' sorts first: the round is always played out
    assert s.end == "played-out" and not any(s.table.hands) and len(s.table.stock) == 8
    assert ids(s.table.stock) == order[-8:]
    assert len(s.table.field) + sum(len(c) for c in s.table.captured) == 40


def test_KE_END_2_the_greater_round_score_deals_next() -> None:
    assert GAME.round_result(_last_turn(([120, 40, 20], [10]))).next_dealer == 0
    assert GAME.round_result(_last_turn(([12], [10, 11, 30, 31]))).next_dealer == 1


def test_KE_END_3_equal_round_scores() -> None:
    for dealer in (0, 1):
        s = replace(state(([], []), [], [], ([12, 120, 40, 20], [22, 30, 50, 60]), dealer=dealer),
                    phase=Phase.OVER, end="played-out")
        r = GAME.round_result(s)
        assert r.deltas == (60, 60) and r.winner is None and r.next_dealer == dealer
        r2 = GAME.round_result(replace(s, rules=GAME.rules(None, {"tie_dealer": "pass"})))
        assert r2.next_dealer == 1 - dealer


# -- the instant victory ---------------------------------------------------------------------

def test_KE_IV_1_a_lead_of_three_yaku_offers_the_declaration() -> None:
    m = start_from_deck(GAME, GAME.rules(), IV_ORDER, seed=5)
    assert ids(m.state.table.field) == [20, 21, 22, 40, 100, 120, 121, 122]
    for a in IV_PLAYS[:-1]:
        m = m.apply(Action.parse(a))
        assert DECLARE not in m.legal_actions()  # a lead of 0, 0, 2, then 2
        if a == "play 123":  # KE-CAP-3 twice: the played 123 and the drawn 23 each take three
            assert ids(m.state.table.captured[0]) == [20, 21, 22, 23, 120, 121, 122, 123]
    m = m.apply(Action.parse(IV_PLAYS[-1]))
    assert m.state.phase is Phase.DECLARE and m.state.yaku_counts() == (3, 0)
    assert m.legal_actions() == (CONTINUE, DECLARE)
    assert str(DECLARE) == "declare instant-victory"
    m = m.apply(DECLARE)
    r = m.info.history[-1]
    assert r.reason == "instant-victory" and r.ends_game and r.winner == 0 and r.deltas == (0, 0)
    assert m.over and m.info.winners == (0,) and m.info.end_reason == "instant-victory"
    assert m.legal_actions() == ()


def test_KE_IV_1_not_offered_with_a_lead_of_two() -> None:
    m = iv_match(eight_islands="teikei")  # Eight Islands now needs the Rain Man
    assert m.state.yaku_counts() == (2, 0) and DECLARE not in m.legal_actions()
    s = state(([62], [72]), [], [92, 93], captured=([120, 40, 20, 100, 80], [10, 110, 30]))
    s = GAME.apply(s, Action("play", (62,)))
    assert s.yaku_counts() == (3, 1) and s.phase is Phase.PLAY and s.turn == 1


def test_KE_IV_1_declaring_is_illegal_elsewhere() -> None:
    s = state(([62], [72]), [], [92, 93], captured=([120, 40, 20, 100, 80], []))
    assert s.yaku_counts() == (3, 0)  # a lead, but mid-round at the start of a turn
    with pytest.raises(IllegalActionError) as e:
        GAME.apply(s, DECLARE)
    assert e.value.rule_id == "KE-IV-1" and "3 yaku to 0" in str(e.value)
    with pytest.raises(IllegalActionError) as e:
        GAME.apply(s, Action("declare", (), "victory"))
    assert e.value.rule_id == "KE-IV-1"


def test_KE_IV_1_the_opponents_lead_is_declared_on_their_own_turn_only() -> None:
    s = state(([62, 63], [72, 73]), [], [92, 93, 102, 103], captured=([], [120, 40, 20, 100, 80]))
    s = GAME.apply(s, Action("play", (62,)))
    assert s.phase is Phase.PLAY and s.turn == 1  # seat 0's turn ended: no choice for seat 1
    s = GAME.apply(s, Action("play", (72,)))
    assert s.phase is Phase.DECLARE and s.turn == 1


def test_KE_IV_2_plain_and_ribbon_forms_count_separately() -> None:
    s = state(([62], [72]), [], [92, 93], captured=([120, 40, 20, 121, 41], [10]))
    assert s.yaku_counts() == (1, 0)
    s = state(([21], [72]), [22], [92, 93], captured=([120, 40, 20, 121, 41], [10]))
    s = GAME.apply(s, Action("play", (21,)))  # Mist Island Ribbons beside Mist Island
    assert s.yaku_counts() == (2, 0) and s.phase is Phase.PLAY
    s = state(([21], [72]), [22], [92, 93], captured=([120, 40, 20, 121, 41, 100], [10]))
    s = GAME.apply(s, Action("play", (21,)))  # mist-island, its ribbons, gundari
    assert s.yaku_counts() == (3, 0) and s.phase is Phase.DECLARE


def test_KE_IV_3_continue_and_declare_later_while_the_lead_holds() -> None:
    m = iv_match().apply(CONTINUE)
    assert m.state.phase is Phase.PLAY and GAME.to_move(m.state) == 1
    assert DECLARE not in m.legal_actions()
    m = m.apply(Action.parse("play 51"))  # seat 1 forms nothing
    assert GAME.to_move(m.state) == 0 and DECLARE not in m.legal_actions()
    m = m.apply(Action.parse("play 10"))
    assert m.state.phase is Phase.DECLARE and m.legal_actions() == (CONTINUE, DECLARE)
    with pytest.raises(IllegalActionError) as e:
        GAME.apply(replace(m.state, phase=Phase.PLAY), CONTINUE)
    assert e.value.rule_id == "KE-IV-3"


def test_KE_IV_3_continuing_on_the_last_turn_scores_the_round() -> None:
    s = state(([62], []), [], [92, 13, 23, 33, 43, 53, 63, 73, 83], captured=([120, 40, 20, 100, 80], []))
    s = replace(s, setup=RoundSetup(1, 1, (0, 1), (0, 0)))  # seat 0 is not the dealer: last to play
    s = GAME.apply(s, Action("play", (62,)))
    assert s.phase is Phase.DECLARE
    s = GAME.apply(s, CONTINUE)
    r = GAME.round_result(s)
    assert r.reason == "played-out" and r.deltas == (10 + 5 + 5 + 5 + 5 + 90, 0)
    assert not r.ends_game and len(s.table.stock) == 8


# -- the game ------------------------------------------------------------------------------

def _settle(deltas: tuple[int, int], scores: tuple[int, int] = (0, 0), played: int = 0,
            **opts: str) -> MatchInfo:
    rules = GAME.rules(None, opts)
    info = MatchInfo(scores, 0, played)
    return GAME.settle(rules, info, RoundResult("played-out", deltas, None, next_dealer=0))


def test_KE_GAME_1_a_lead_of_ninety_ends_the_game() -> None:
    over = _settle((120, 30))
    assert over.over and over.winners == (0,) and over.end_reason == "90-point-lead"
    assert not _settle((119, 30)).over
    behind = _settle((10, 50), scores=(0, 50))
    assert behind.over and behind.winners == (1,) and behind.scores == (10, 100)
    assert not _settle((120, 30), lead_test="more-than").over
    assert _settle((121, 30), lead_test="more-than").over


def test_KE_GAME_2_the_instant_victory_wins_even_when_behind() -> None:
    m = start_from_deck(GAME, GAME.rules(), IV_ORDER, seed=5)
    m = replace(m, info=replace(m.info, scores=(0, 85)))
    for a in IV_PLAYS:
        m = m.apply(Action.parse(a))
    m = m.apply(DECLARE)
    assert m.over and m.info.winners == (0,) and m.info.scores == (0, 85)


def test_KE_GAME_3_round_limit() -> None:
    assert not _settle((50, 30), played=1, round_limit="3").over
    last = _settle((50, 30), played=2, round_limit="3")
    assert last.over and last.end_reason == "round-limit" and last.winners == (0,)
    drawn = _settle((30, 30), played=2, round_limit="3")
    assert drawn.over and drawn.winners == (0, 1)
    assert not _settle((50, 30), played=2).over  # no limit by default
    m = Match.start(GAME, GAME.rules(None, {"round_limit": "3", "lead_test": "more-than"}), seed=9)
    while not m.over:
        m = m.apply(m.legal_actions()[0])  # never declares
    assert m.info.rounds_played <= 3 and m.info.end_reason in ("90-point-lead", "round-limit")
    if m.info.end_reason == "round-limit":
        assert m.info.rounds_played == 3


def test_random_games_end_by_lead_or_instant_victory() -> None:
    rules = GAME.rules()
    for seed in range(20):
        m = Match.start(GAME, rules, seed)
        pol = seed
        while not m.over:
            legal = m.legal_actions()
            pol = (pol * 6364136223846793005 + 1442695040888963407) % 2**64
            m = m.apply(legal[(pol >> 33) % len(legal)])
        lead = abs(m.info.scores[0] - m.info.scores[1])
        assert (m.info.end_reason == "90-point-lead" and lead >= 90) or m.info.end_reason == "instant-victory"


# -- errors, catalogue and command line ------------------------------------------------------

def test_illegal_actions_name_their_rule() -> None:
    s = state(([10, 20], [30]), [40], [50, 60])
    cases = [(Action("play", (30,)), "KE-TURN-2"), (Action("take", (40,)), "KE-CAP-6"),
             (CONTINUE, "KE-IV-3"), (DECLARE, "KE-IV-1"), (Action("koikoi"), "KE-TURN-2")]
    for action, rule in cases:
        with pytest.raises(IllegalActionError) as e:
            GAME.apply(s, action)
        assert e.value.rule_id == rule and SPEC.has_rule(rule)


def test_every_rule_has_a_test_and_every_named_rule_exists() -> None:
    src = Path(__file__).parents[1].joinpath("reference/hanafuda/games/kekoro.py").read_text()
    for rid in set(re.findall(r"KE-[A-Z]+-\d+", src)):
        assert SPEC.has_rule(rid), rid
    tested = {m.replace("_", "-") for m in re.findall(r"def test_(KE_[A-Z]+_\d+)", Path(__file__).read_text())}
    assert {r.id for r in SPEC.rules} <= tested, sorted({r.id for r in SPEC.rules} - tested)
    for y in yaku_table(SPEC.resolve("teikei-1921")):
        assert SPEC.has_rule(y.rule)


def test_every_dossier_gap_has_a_decision() -> None:
    assert [g.id for g in SPEC.gaps] == [f"KE-{i}" for i in range(1, 14)]
    assert all(g.decision and g.reason for g in SPEC.gaps)
    decided = {r.gap for r in SPEC.rules if r.gap}
    assert {"KE-1", "KE-2", "KE-3", "KE-4", "KE-5", "KE-6", "KE-7", "KE-8", "KE-9"} <= decided


def test_cli_score_must_show(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "kekoro", "120", "40", "20", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [y["id"] for y in out["yaku"]] == ["mist-island"]
    assert out["yaku_total"] == 30 and out["card_points"] == 20
    every = [str(i) for i in ALL]
    assert main(["score", "kekoro", *every, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["yaku"]) == 26 and out["card_points"] == 330
    assert main(["score", "kekoro", *every, "--option", "values=kusaba", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["card_points"] == 272


@pytest.mark.parametrize("argv", [
    ["score", "kekoro", "120", "120"], ["score", "kekoro", "999"], ["score", "kekoro", "--option", "values=x"],
    ["simulate", "kekoro", "--option", "round_limit=7"], ["score", "kekoro", "--ruleset", "nintendo"],
])
def test_cli_bad_input_is_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("hanafuda: error:")


def test_simulate_is_reproducible_and_reports_how_games_end() -> None:
    a = simulate(GAME, {}, None, 40, 2).to_json()
    b = simulate(GAME, {}, None, 40, 2).to_json()
    assert a == b
    reasons = a["game_end_reasons"]
    assert set(reasons) <= {"90-point-lead", "instant-victory"} and sum(reasons.values()) == 40


# -- random play and random piles --------------------------------------------------------------

options = st.fixed_dictionaries({o.key: st.sampled_from(o.choices) for o in SPEC.options})


@given(options, st.sets(st.sampled_from(ALL)))
def test_scorer_agrees_with_the_catalogue_data(opts: dict[str, str], pile: set[int]) -> None:
    values = SPEC.resolve(None, opts)
    rules = GAME.make_rules(values)
    ps = GAME.score(rules, [card(i) for i in sorted(pile)])
    assert ps.yaku == count_yaku(yaku_table(values), pile)
    assert ps.card_points == card_points(values, pile)
    mask = ref.INDEX.mask_of(card(i) for i in pile)  # the instant victory's count, all yaku side by side
    assert rules.scorer.yaku_count(mask) == len(ps.yaku) == yaku_count(yaku_table(values), pile)


@given(options, st.integers(0, 2**32), st.integers(0, 2**32))
def test_random_play_keeps_every_invariant(opts: dict[str, str], seed: int, policy: int) -> None:
    rep = run_random(ReferenceAdapter(), PROFILE, SPEC.resolve(None, opts), seed, policy)
    assert not rep.violations, str(rep.violations[0])


def _first_violation(opts: dict[str, str]) -> str:
    for seed in range(40):
        rep = run_random(ReferenceAdapter(), PROFILE, SPEC.resolve(None, opts), seed, seed + 1)
        if rep.violations:
            return rep.violations[0].invariant
    return ""


def test_invariants_catch_a_missing_declaration(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ref.KekoroRound, "_end_turn", ref.KekoroRound._pass)
    assert _first_violation({}) == "KE-IV-1 instant victory exactly on a lead of 3"


def test_invariants_catch_a_game_that_ignores_the_lead(monkeypatch: pytest.MonkeyPatch) -> None:
    settle = ref.Kekoro.settle

    def never_at_ninety(self: ref.Kekoro, rules: ref.KekoroRules, info: MatchInfo, r: RoundResult) -> MatchInfo:
        out = settle(self, rules, info, r)
        return replace(out, over=False, winners=(), end_reason="") if out.end_reason == "90-point-lead" else out

    monkeypatch.setattr(ref.Kekoro, "settle", never_at_ninety)
    assert _first_violation({}) == "KE-GAME-1 game end"


def _played_out_round(seed: int = 3) -> tuple[dict[str, str], RoundOutcome]:
    """A Kekoro round played out by the reference (random play), as the adapter reports it."""
    options = SPEC.resolve()
    adapter, rng = ReferenceAdapter(), SplitMix64(seed)
    adapter.start("kekoro", options, seed)
    while True:
        legal = adapter.legal_actions()
        adapter.apply(legal[rng.below(len(legal))])
        for o in adapter.rounds_ended():
            if o.reason not in ("misdeal", "instant-victory"):
                return options, o


def test_KE_SCORE_1_exact_from_the_final_position() -> None:
    """With the final position reported, the round score is checked exactly, not only within bounds:
    one point more for a side still passes the bounds and is caught."""
    options, o = _played_out_round()
    check = dict(PROFILE.invariants)["KE-SCORE-1 round score"]
    assert o.final is not None and o.card_points is not None
    final = o.final

    def step(outcome: RoundOutcome) -> Step:
        return Step(options, None, "play 10", final, (), (outcome,), False, 0)

    assert check(step(o)) is None
    tampered = replace(o, deltas=(o.deltas[0] + 1, o.deltas[1]))
    assert "delta" in (check(step(tampered)) or "")
    assert check(step(replace(tampered, final=None))) is None  # the bounds alone do not see it
