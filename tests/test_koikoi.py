"""Koi-Koi: one test per rule id (KK-…), stacked decks for the rare cases, random play."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hanafuda.adapter import ReferenceAdapter, start_from_deck
from hanafuda.engine import Action, IllegalActionError, Match, RoundSetup
from hanafuda.fishing import Table
from hanafuda.games.koikoi import GAME, INDEX, KoiKoiState, Phase
from hanafuda_spec.cards import HANAFUDA, card
from hanafuda_spec.games import koikoi as kk_spec
from hanafuda_spec.games.koikoi import PROFILE, SPEC
from hanafuda_spec.invariants import run_random
from hanafuda_spec.shuffle import SHUFFLE_VECTORS
from hanafuda_spec.yaku import best_per_group
from hypothesis import given
from hypothesis import strategies as st

from tests.stacking import koikoi_order


def yaku(ids: list[int], month: int | None = None, **opts: str) -> dict[str, int]:
    rules = GAME.rules(None, opts)
    return {y.id: y.points for y in GAME.score(rules, [card(i) for i in ids], month).yaku}


def state(hands: tuple[list[int], list[int]], field: list[int], stock: list[int],
          captured: tuple[list[int], list[int]] = ([], []), turn: int = 0, **opts: str) -> KoiKoiState:
    rules = GAME.rules(None, opts)
    t = Table.deal(INDEX, [[card(i) for i in h] for h in hands], [card(i) for i in field],
                   [card(i) for i in stock], [[card(i) for i in c] for c in captured])
    return KoiKoiState(rules, RoundSetup(1, 0, (0, 1), (0, 0)), t, turn, Phase.PLAY)


def ids(cards: tuple[object, ...]) -> list[int]:
    return [c.id for c in cards]  # type: ignore[attr-defined]


# -- dealing ------------------------------------------------------------------------------

def test_KK_DEAL_1_packets_of_four_opponent_table_dealer() -> None:
    deck = list(SHUFFLE_VECTORS[("hanafuda", 1)])
    m = start_from_deck(GAME, GAME.rules(None, {"field_pairs": "play", "teyaku": "off"}), deck)
    t = m.state.table
    # Dealer is seat 0; the opponent (seat 1) receives the first packet.
    assert ids(t.hands[1]) == sorted(deck[0:4] + deck[12:16])
    assert ids(t.field) == sorted(deck[4:8] + deck[16:20])
    assert ids(t.hands[0]) == sorted(deck[8:12] + deck[20:24])
    assert ids(t.stock) == deck[24:]


def test_KK_DEAL_1_packets_of_two() -> None:
    deck = list(SHUFFLE_VECTORS[("hanafuda", 1)])
    m = start_from_deck(GAME, GAME.rules(None, {"packets": "2", "field_pairs": "play",
                                                "teyaku": "off"}), deck)
    assert ids(m.state.table.hands[1]) == sorted(deck[i] for i in (0, 1, 6, 7, 12, 13, 18, 19))


def test_KK_DEAL_3_four_of_a_month_on_the_table_is_a_misdeal() -> None:
    order = koikoi_order([20, 21, 30, 31, 40, 41, 50, 60], [10, 11, 12, 13, 70, 80, 90, 100],
                         [22, 32, 42, 51, 61, 71, 81, 91])
    m = start_from_deck(GAME, GAME.rules(), order, seed=3)
    assert m.info.history[0].reason == "misdeal"
    assert not m.info.history[0].counts
    assert m.info.rounds_played == 0 and m.info.dealer == 0


def test_KK_DEAL_4_lucky_hand_wins_six() -> None:
    order = koikoi_order([10, 11, 12, 13, 20, 30, 40, 50], [21, 31, 41, 51, 61, 71, 81, 91],
                         [22, 32, 42, 52, 62, 72, 82, 92])
    m = start_from_deck(GAME, GAME.rules(), order, seed=3)
    r = m.info.history[0]
    assert r.reason == "teyaku" and r.winner == 1 and r.deltas == (0, 6)
    assert m.info.dealer == 1  # KK-END-3: the winner deals next


def test_KK_DEAL_4_both_players_lucky_is_a_draw() -> None:
    order = koikoi_order([10, 11, 12, 13, 20, 30, 40, 50], [21, 31, 41, 51, 61, 71, 81, 91],
                         [60, 62, 70, 73, 80, 83, 90, 92])  # four pairs
    m = start_from_deck(GAME, GAME.rules(), order, seed=3)
    r = m.info.history[0]
    assert r.reason == "teyaku-draw" and r.deltas == (0, 0) and m.info.dealer == 0


def test_KK_DEAL_5_both_lucky_hands_in_one_hand() -> None:
    hand = [10, 11, 12, 13, 20, 21, 30, 31]  # four of a kind and four pairs
    order = koikoi_order(hand, [22, 32, 41, 51, 61, 71, 81, 91], [23, 33, 42, 52, 62, 72, 82, 92])
    for both, want in (("6", 6), ("12", 12)):
        m = start_from_deck(GAME, GAME.rules(None, {"teyaku_both": both}), order, seed=3)
        assert m.info.history[0].deltas == (0, want)


# -- capturing ----------------------------------------------------------------------------

def test_KK_CAP_1_one_match_captures_the_pair() -> None:
    s = state(([10, 20], [30]), [11, 40], [50, 60])
    s = GAME.apply(s, Action("play", (10,)))
    assert ids(s.table.captured[0]) == [10, 11]
    assert 50 in ids(s.table.field)  # KK-TURN-2: the drawn card is played too


def test_KK_CAP_2_two_matches_the_player_chooses() -> None:
    s = state(([10, 20], [30]), [11, 12, 40], [50, 60])
    assert Action("play", (10,)) not in GAME.legal_actions(s)
    assert {a for a in GAME.legal_actions(s) if a.cards[0] == 10} == {Action("play", (10, 11)),
                                                                     Action("play", (10, 12))}
    s = GAME.apply(s, Action("play", (10, 12)))
    assert ids(s.table.captured[0]) == [10, 12] and 11 in ids(s.table.field)
    with pytest.raises(IllegalActionError) as e:
        GAME.apply(state(([10, 20], [30]), [11, 12, 40], [50, 60]), Action("play", (10,)))
    assert e.value.rule_id == "KK-CAP-2"


def test_KK_CAP_3_three_matches_capture_all_four() -> None:
    s = state(([10, 20], [30]), [11, 12, 13, 40], [50, 60])
    s = GAME.apply(s, Action("play", (10,)))
    assert ids(s.table.captured[0]) == [10, 11, 12, 13]


def test_KK_CAP_4_no_match_stays_on_the_table() -> None:
    s = state(([10, 20], [30]), [40], [50, 60])
    s = GAME.apply(s, Action("play", (20,)))
    assert 20 in ids(s.table.field) and not s.table.captured[0]


def test_KK_CAP_5_free_discard_and_the_must_capture_option() -> None:
    free = state(([10, 20], [30]), [11], [50, 60])
    assert Action("play", (20,)) in GAME.legal_actions(free)
    strict = state(([10, 20], [30]), [11], [50, 60], discard="must-capture")
    assert GAME.legal_actions(strict) == (Action("play", (10,)),)
    with pytest.raises(IllegalActionError) as e:
        GAME.apply(strict, Action("play", (20,)))
    assert e.value.rule_id == "KK-CAP-5"


def test_KK_CAP_6_drawn_card_with_two_matches_waits_for_a_choice() -> None:
    s = state(([20, 21], [30]), [11, 12], [10, 60])
    s = GAME.apply(s, Action("play", (20,)))
    assert s.phase is Phase.TAKE and GAME.legal_actions(s) == (Action("take", (11,)), Action("take", (12,)))
    s = GAME.apply(s, Action("take", (11,)))
    assert ids(s.table.captured[0]) == [10, 11]
    assert s.turn == 1


# -- koi-koi and shōbu ------------------------------------------------------------------------

def test_KK_TURN_3_new_yaku_offers_koikoi_or_stop() -> None:
    s = state(([60, 23], [33]), [100, 62], [101, 13], captured=([70, 71], []))
    s = GAME.apply(s, Action("play", (60,)))
    assert s.phase is Phase.CALL
    assert GAME.legal_actions(s) == (Action("koikoi"), Action("stop"))
    stopped = GAME.apply(s, Action("stop"))
    r = GAME.round_result(stopped)
    assert r.reason == "shobu" and r.deltas == (5, 0)


def test_KK_TURN_3_no_new_yaku_passes_the_turn() -> None:
    s = state(([20, 23], [33]), [40], [50, 13])
    s = GAME.apply(s, Action("play", (20,)))
    assert s.phase is Phase.PLAY and s.turn == 1


def test_KK_TURN_4_minimum_points_to_call_koikoi() -> None:
    s = state(([60, 23], [33]), [100, 62], [101, 13], captured=([70, 71], []), koikoi_min="6")
    s = GAME.apply(s, Action("play", (60,)))
    assert s.phase is Phase.OVER and s.end == "shobu"


def test_KK_SCORE_1_opponent_koikoi_doubles_and_seven_doubles() -> None:
    s = state(([60, 23], [33]), [100, 62], [101, 13], captured=([70, 71], []))
    s = GAME.apply(s, Action("play", (60,)))
    s = replace(s, calls=(0, 1))
    r = GAME.round_result(GAME.apply(s, Action("stop")))
    assert r.deltas == (10, 0)  # base 5, opponent called: x2
    s2 = state(([120, 23], [33]), [121], [101, 13], captured=([10, 30, 80, 110], []))
    s2 = GAME.apply(s2, Action("play", (120,)))
    r2 = GAME.round_result(GAME.apply(s2, Action("stop")))
    assert r2.deltas == (30, 0)  # Five Brights 15 >= 7: x2


@pytest.mark.parametrize(("mode", "own", "other", "mult"), [
    ("opponent", 1, 0, 1), ("opponent", 0, 2, 2), ("self", 1, 0, 2), ("anyone", 1, 0, 2),
    ("count", 0, 3, 4), ("none", 2, 2, 1),
    # no call at all: no multiplier in any mode (a mutation run found "anyone" doubling such a round untested)
    ("opponent", 0, 0, 1), ("self", 0, 0, 1), ("self", 0, 1, 1), ("anyone", 0, 0, 1), ("anyone", 0, 1, 2),
    ("count", 0, 0, 1),
])
def test_KK_SCORE_1_multiplier_modes(mode: str, own: int, other: int, mult: int) -> None:
    s = state(([60, 23], [33]), [100, 62], [101, 13], captured=([70, 71], []), multiplier=mode)
    s = GAME.apply(s, Action("play", (60,)))
    s = replace(s, calls=(own, other))
    assert GAME.round_result(GAME.apply(s, Action("stop"))).deltas == (5 * mult, 0)


def test_KK_SCORE_2_zero_sum() -> None:
    s = state(([60, 23], [33]), [100, 62], [101, 13], captured=([70, 71], []), zero_sum="on")
    s = GAME.apply(s, Action("play", (60,)))
    assert GAME.round_result(GAME.apply(s, Action("stop"))).deltas == (5, -5)


def test_KK_END_2_exhaustive_draw_scores_nothing_and_keeps_the_dealer() -> None:
    s = state(([20], []), [40], [50, 13])
    s = replace(s, setup=RoundSetup(1, 1, (0, 1), (0, 0)))
    s = GAME.apply(s, Action("play", (20,)))
    assert s.phase is Phase.OVER and s.end == "exhaustive"
    r = GAME.round_result(s)
    assert r.deltas == (0, 0) and r.next_dealer == 1
    priv = GAME.round_result(replace(s, rules=GAME.rules(None, {"oyaken": "6"})))
    assert priv.deltas == (0, 6)


# -- yaku ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("pile", "want"), [
    ([10, 30, 80, 110, 120], {"five-brights": 15}),
    ([10, 30, 80, 120], {"four-brights": 8}),
    ([10, 30, 110, 120], {"rainy-four-brights": 7}),
    ([10, 30, 80], {"three-brights": 6}),
    ([10, 30, 110], {}),
])
def test_KK_YAKU_2_to_5_bright_yaku_are_exclusive(pile: list[int], want: dict[str, int]) -> None:
    assert yaku(pile) == want


def test_KK_YAKU_2_nintendo_values() -> None:
    assert yaku([10, 30, 80, 110, 120], five_brights="10") == {"five-brights": 10}
    assert yaku([10, 30, 80], three_brights="5") == {"three-brights": 5}


def test_KK_YAKU_6_7_animals() -> None:
    assert yaku([60, 70, 100]) == {"boar-deer-butterfly": 5}
    assert yaku([60, 70, 100, 20, 40]) == {"boar-deer-butterfly": 7}
    assert yaku([20, 40, 50, 81, 111]) == {"animals": 1}
    assert yaku([20, 40, 50, 81, 111, 90]) == {"animals": 2}


def test_KK_YAKU_8_to_11_ribbons() -> None:
    assert yaku([11, 21, 31]) == {"poetry-ribbons": 5}
    assert yaku([11, 21, 31, 41]) == {"poetry-ribbons": 6}
    assert yaku([61, 91, 101]) == {"blue-ribbons": 5}
    assert yaku([11, 21, 31, 61, 91, 101]) == {"poetry-blue-ribbons": 10}
    assert yaku([11, 21, 31, 61, 91, 101, 41]) == {"poetry-blue-ribbons": 11}
    assert yaku([41, 51, 71, 112, 11]) == {"ribbons": 1}


def test_KK_YAKU_1_older_system_stacks_without_increments() -> None:
    got = yaku([11, 21, 31, 61, 91, 101], yaku_system="older")
    assert got == {"poetry-ribbons": 5, "blue-ribbons": 5, "ribbons": 2}


def test_KK_YAKU_12_13_viewing_and_its_options() -> None:
    assert yaku([90, 30, 80]) == {"flower-viewing": 5, "moon-viewing": 5}
    assert yaku([90, 30], viewing="off") == {}
    assert yaku([90, 30], viewing="need-other") == {}
    assert yaku([90, 30, 10, 80, 120], viewing="need-other")["flower-viewing"] == 5


def test_KK_YAKU_12_weather_rule_uses_the_table() -> None:
    from hanafuda.games.koikoi import score_mask

    rules = GAME.rules(None, {"viewing": "weather"})
    pile = card(90).mask | card(30).mask | card(80).mask
    assert {y.id for y in score_mask(rules, pile, None, card(111).mask)} == {"moon-viewing"}
    assert {y.id for y in score_mask(rules, pile, None, card(122).mask)} == {"flower-viewing"}


def test_KK_YAKU_14_cards_of_the_month() -> None:
    assert yaku([30, 31, 32, 33], month=3) == {"cards-of-the-month": 4, "three-brights": 0} or \
        yaku([30, 31, 32, 33], month=3) == {"cards-of-the-month": 4}
    assert yaku([30, 31, 32, 33], month=4) == {}
    assert yaku([30, 31, 32, 33], month=3, month_cards="off") == {}


def test_KK_YAKU_15_chaff_counts_the_sake_cup() -> None:
    chaff = [12, 13, 22, 23, 32, 33, 42, 43, 52]
    assert yaku(chaff) == {}
    assert yaku([*chaff, 90]) == {"chaff": 1}
    assert yaku([*chaff, 90], sake_cup="animal") == {}
    assert yaku([*chaff, 53, 62]) == {"chaff": 2}
    assert yaku([12, 13, 22, 23, 32, 33, 42, 43, 90], chaff_doubles="on") == {"chaff": 1}
    assert yaku([12, 13, 22, 23, 32, 33, 42, 43], chaff_doubles="on") == {}


def test_KK_YAKU_15_sake_cup_either_takes_the_better_reading() -> None:
    chaff = [12, 13, 22, 23, 32, 33, 42, 43, 52]
    assert yaku([*chaff, 90], sake_cup="either") == {"chaff": 1}
    assert yaku([20, 40, 50, 81, 90, *chaff], sake_cup="either") == {"animals": 1}


def test_KK_YAKU_1_best_only_counting() -> None:
    assert yaku([10, 30, 80, 60, 70, 100], yaku_count="best") == {"three-brights": 6}


# -- the game -----------------------------------------------------------------------------

@pytest.mark.parametrize("length", ["1", "3", "6", "12"])
def test_KK_GAME_1_game_length(length: str) -> None:
    rules = GAME.rules(None, {"length": length})
    m = Match.start(GAME, rules, seed=11)
    while not m.over:
        m = m.apply(m.legal_actions()[0])
    assert m.info.rounds_played == int(length)


def test_KK_GAME_2_to_fifty() -> None:
    from hanafuda_spec.shuffle import SplitMix64

    m = Match.start(GAME, GAME.rules(None, {"length": "to-50"}), seed=5)
    rng = SplitMix64(1)
    while not m.over:
        legal = m.legal_actions()
        m = m.apply(legal[rng.below(len(legal))])
    assert max(m.info.scores) >= 50 and m.info.winners


def test_illegal_actions_name_their_rule() -> None:
    s = state(([10, 20], [30]), [40], [50, 60])
    with pytest.raises(IllegalActionError) as e:
        GAME.apply(s, Action("play", (30,)))
    assert e.value.rule_id == "KK-TURN-2" and "not in seat 0's hand" in str(e.value)
    with pytest.raises(IllegalActionError) as e:
        GAME.apply(s, Action("stop"))
    assert e.value.rule_id == "KK-TURN-3"


def test_every_rule_named_in_errors_is_in_the_catalogue() -> None:
    import re
    from pathlib import Path

    src = Path(__file__).parents[1].joinpath("reference/hanafuda/games/koikoi.py").read_text()
    for rid in set(re.findall(r"KK-[A-Z]+-\d+", src)):
        assert SPEC.has_rule(rid), rid


# -- random play under random options -----------------------------------------------------

options = st.fixed_dictionaries({o.key: st.sampled_from(o.choices) for o in SPEC.options})


@given(options, st.integers(0, 2**32), st.integers(0, 2**32))
def test_random_play_keeps_every_invariant(opts: dict[str, str], seed: int, policy: int) -> None:
    opts["length"] = "3" if opts["length"] in ("12", "to-50") else opts["length"]
    rep = run_random(ReferenceAdapter(), PROFILE, SPEC.resolve(None, opts), seed, policy)
    assert not rep.violations, str(rep.violations[0])


def test_KK_TURN_5_empty_draw_pile_after_dealer_capture_with_ten_cards() -> None:
    opts = {"hand_size": "10", "field_teyaku": "dealer-captures", "teyaku": "off"}
    order = koikoi_order([20, 21, 22, 30, 31, 32, 40, 41, 42, 50], [10, 11, 12, 13, 60, 70, 80, 90],
                         [23, 33, 43, 51, 52, 61, 62, 71, 72, 81], packet=4, hand=10)
    m = start_from_deck(GAME, GAME.rules(None, opts), order)
    t = m.state.table
    assert ids(t.captured[0]) == [10, 11, 12, 13] and len(t.field) == 8 and len(t.stock) == 16
    while m.info.rounds_played == 0 and not m.over:
        m = m.apply(m.legal_actions()[0])
    assert m.info.history[-1].counts


def test_KK_TURN_6_draw_first_then_play_two() -> None:
    order = koikoi_order([20, 21, 22, 30, 31, 32, 40, 41], [10, 50, 60, 70, 80, 90, 100, 110],
                         [23, 33, 42, 51, 61, 71, 81, 91], stock=[11])
    m = start_from_deck(GAME, GAME.rules(None, {"turn": "draw-first"}), order)
    s = m.state
    assert 11 in ids(s.table.hands[0]) and len(s.table.hands[0]) == 9  # the dealer drew first
    s = GAME.apply(s, Action("play", (11,)))
    assert s.phase is Phase.PLAY_SECOND and ids(s.table.captured[0]) == [10, 11]
    s = GAME.apply(s, Action("play", (23,)))
    assert s.turn == 1 and len(s.table.hands[0]) == 7 and len(s.table.hands[1]) == 9


def test_KK_TURN_7_keep_unmatched_drawn_card() -> None:
    rules = GAME.rules(None, {"turn": "keep-unmatched"})
    base = state(([20, 21], [30]), [40], [111, 60])
    s = replace(base, rules=rules)
    s = GAME.apply(s, Action("play", (20,)))
    assert s.phase is Phase.PLAY_SECOND and ids(s.table.hands[0]) == [21, 111]
    s = GAME.apply(s, Action("play", (111,)))
    assert s.turn == 1 and 111 in ids(s.table.field) and ids(s.table.stock) == [60]


def test_KK_END_5_draw_pile_turns_after_the_hands() -> None:
    rules = GAME.rules(None, {"after_hands": "draw-pile"})
    s = replace(state(([20], []), [40], [50, 13, 62]), rules=rules, setup=RoundSetup(1, 1, (0, 1), (0, 0)))
    s = GAME.apply(s, Action("play", (20,)))
    assert s.phase is Phase.DRAW and s.turn == 1 and GAME.legal_actions(s) == (Action("draw"),)
    s = GAME.apply(s, Action("draw"))
    assert s.phase is Phase.DRAW and s.turn == 0
    s = GAME.apply(s, Action("draw"))
    assert s.phase is Phase.OVER and s.end == "exhaustive" and not s.table.stock


# -- the wild Lightning (lightning=wild) ------------------------------------------------------

def wild(s: KoiKoiState) -> KoiKoiState:
    return replace(s, rules=GAME.rules(None, {"lightning": "wild"}), lightning_wild=True)


def test_KK_WILD_1_lightning_from_the_hand_takes_any_non_willow_card() -> None:
    s = wild(state(([113, 20], [30]), [40, 110, 61], [50, 60, 70]))
    legal = GAME.legal_actions(s)
    assert {Action("play", (113, 40)), Action("play", (113, 61)), Action("play", (113,))} <= set(legal)
    assert Action("play", (113, 110)) not in legal  # a Willow is taken by ordinary matching only
    s2 = GAME.apply(s, Action("play", (113, 61)))
    assert {61, 113} <= set(ids(s2.table.captured[0])) and 61 not in ids(s2.table.field)
    s3 = GAME.apply(s, Action("play", (113,)))  # played as an ordinary Willow: takes the Rain Man
    assert {110, 113} <= set(ids(s3.table.captured[0]))
    normal = state(([113, 20], [30]), [40, 110, 61], [50, 60, 70])
    assert Action("play", (113, 40)) not in GAME.legal_actions(normal)


def test_KK_WILD_1_lightning_takes_a_paulownia_card_and_leaves_the_willow() -> None:
    """The Lightning's wild capture of a card of the twelfth month (the month after the Willow's): that
    card and the Lightning are taken, the Willow on the field stays (mutation run 8: the month tested
    for 'not a Willow' changed to the twelfth went unnoticed)."""
    s = wild(state(([113, 20], [30]), [120, 110], [50, 60, 70]))
    s2 = GAME.apply(s, Action("play", (113, 120)))
    assert set(ids(s2.table.captured[0])) == {113, 120}
    assert 110 in ids(s2.table.field) and 120 not in ids(s2.table.field)


def test_KK_WILD_2_first_non_willow_drawn_takes_the_lightning() -> None:
    s = wild(state(([20, 21], [30]), [113, 41, 42], [40, 60]))
    s = GAME.apply(s, Action("play", (20,)))  # draws 40, a Wisteria card matching two table cards
    assert set(ids(s.table.captured[0])) == {40, 113}
    assert {41, 42} <= set(ids(s.table.field))


def test_KK_WILD_3_drawn_lightning_must_take_a_non_willow_card() -> None:
    s = wild(state(([20, 21], [30]), [41, 61, 110], [113, 60]))
    s = GAME.apply(s, Action("play", (20,)))
    assert s.phase is Phase.TAKE
    # the played 20 stayed on the table, so it can be taken too; the Willow 110 cannot
    assert GAME.legal_actions(s) == (Action("take", (20,)), Action("take", (41,)), Action("take", (61,)))
    s = GAME.apply(s, Action("take", (61,)))
    assert set(ids(s.table.captured[0])) == {61, 113}
    only_willows = wild(state(([20, 23], [30]), [110, 111, 21], [113, 60]))  # 20 takes 21: Willows remain
    only_willows = GAME.apply(only_willows, Action("play", (20,)))
    assert 113 in ids(only_willows.table.field) and set(ids(only_willows.table.captured[0])) == {20, 21}


def test_KK_WILD_4_last_drawn_lightning_takes_the_whole_table() -> None:
    s = wild(state(([20], [30]), [41, 61, 110], [113]))
    s = GAME.apply(s, Action("play", (20,)))
    assert not s.table.field and set(ids(s.table.captured[0])) == {20, 41, 61, 110, 113}


def test_KK_WILD_5_wild_only_with_susuki_dealt_to_the_table() -> None:
    deck = list(SHUFFLE_VECTORS[("hanafuda", 1)])
    rules = GAME.rules(None, {"lightning": "wild-if-susuki", "field_pairs": "play", "teyaku": "off"})
    m = start_from_deck(GAME, rules, deck)
    dealt_susuki = any(c.suit == 8 for c in m.state.table.field)
    assert m.state.lightning_wild == dealt_susuki
    assert start_from_deck(GAME, GAME.rules(None, {"lightning": "wild", "teyaku": "off",
                                                   "field_pairs": "play"}), deck).state.lightning_wild


_CARD_IDS = [c.id for c in HANAFUDA.cards]
#: Piles of about 12 or 24 cards: a random 48-bit mask, or two of them intersected.
_piles = st.builds(lambda a, b, sparse: {i for n, i in enumerate(_CARD_IDS) if (a & b if sparse else a) >> n & 1},
                   st.integers(0, 2**48 - 1), st.integers(0, 2**48 - 1), st.booleans())


@given(_piles, st.integers(1, 12),
       st.sampled_from(("15", "10")), st.sampled_from(("on", "off")), st.sampled_from(("both", "animal")),
       st.sampled_from(("off", "on")), st.sampled_from(("modern", "older")))
def test_KK_YAKU_1_the_compiled_scorer_agrees_with_the_catalogue_rows(
        pile: set[int], month: int, five: str, month_cards: str, sake: str, chaff_doubles: str, system: str) -> None:
    """The reference's scorer (rows compiled to bit masks, small groups of rows to lookup tables) finds
    what the catalogue's rows define: per group the most valuable yaku, first listed on ties."""
    values = SPEC.resolve(None, {"five_brights": five, "month_cards": month_cards, "sake_cup": sake,
                                 "chaff_doubles": chaff_doubles, "yaku_system": system, "viewing": "on"})
    table = kk_spec.yaku_table(values, month if month_cards == "on" else None)
    want = sorted((y.id, y.points) for y in best_per_group(table, pile))
    got = yaku(sorted(pile), month, **{k: values[k] for k in (
        "five_brights", "month_cards", "sake_cup", "chaff_doubles", "yaku_system")})
    assert sorted(got.items()) == want


@pytest.mark.parametrize("options", [
    {},
    {"discard": "must-capture", "turn": "draw-first", "after_hands": "draw-pile", "koikoi_limit": "once-per-round",
     "koikoi_last_turn": "forbidden", "koikoi_min": "3", "viewing_value": "1-3"},
    {"turn": "keep-unmatched"},
])
def test_KK_TURN_3_the_round_reads_the_rules_own_readings(options: dict[str, str]) -> None:
    """The readings a turn makes (KK-CAP-2, KK-CAP-5, KK-TURN-3…9, KK-END-5) are the rules' own, computed when
    the rules object is made into plain instance attributes (no descriptor of the class: the quick read), a
    deviation's hooks answered by its properties; every round of those rules reads the rules it holds."""
    from hanafuda.deviations import deviant_rules, deviation
    from hanafuda.games.koikoi import KoiKoiRound, KoiKoiRules

    turn = ("must_capture", "named_captures", "draw_first", "keep_unmatched", "call_before_draw", "call_on_held",
            "koikoi_min", "call_revalues", "draw_only_turns", "koikoi_once", "koikoi_needs_hand")
    values = SPEC.resolve(None, options)
    reference = GAME.make_rules(values)
    deviant = deviant_rules(values, tuple(deviation(d) for d in ("call-before-draw", "three-takes-one",
                                                                 "call-on-any-yaku")))
    for rules in (reference, deviant):
        assert all(name in vars(rules) and name not in vars(KoiKoiRules) for name in turn)
        m = Match.start(GAME, rules, seed=3)
        r = GAME.round_of(m.state)
        assert r.rules is rules and r.copy().rules is rules and isinstance(r, KoiKoiRound)
    assert reference.must_capture is (values["discard"] == "must-capture")
    assert reference.koikoi_min == int(values["koikoi_min"])
    assert (reference.named_captures, reference.call_before_draw, reference.call_on_held) == (1 << 2, False, False)
    assert (deviant.named_captures, deviant.call_before_draw, deviant.call_on_held) == (1 << 2 | 1 << 3, True, True)
