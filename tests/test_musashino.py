"""Musashino-Bana: one test per rule id (MB-…), stacked decks for the rare cases, random play."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from hanafuda.adapter import ReferenceAdapter, start_from_deck
from hanafuda.cli import main
from hanafuda.engine import Action, IllegalActionError, Match, RoundSetup, fast_shuffled
from hanafuda.fishing import Table
from hanafuda.games.musashino import GAME, INDEX, MusashinoState, Phase, score_mask
from hanafuda.simulate import simulate
from hanafuda_spec.adapter import RoundOutcome
from hanafuda_spec.cards import HANAFUDA, card
from hanafuda_spec.catalogue import OptionError
from hanafuda_spec.games.musashino import (
    BANQUETS,
    DEALS,
    GAPS,
    INSTA_WIN,
    PROFILE,
    SEED_ROWS_NOT_USED,
    SPEC,
    dealer_draw,
    score_pile,
    side_of,
    yaku_table,
)
from hanafuda_spec.invariants import Step, run_random
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.shuffle import SHUFFLE_VECTORS, SplitMix64
from hanafuda_spec.yaku import ScoredYaku
from hypothesis import given
from hypothesis import strategies as st

from tests.stacking import fill

# -- helpers ---------------------------------------------------------------------------------


def yaku(ids: Sequence[int], **opts: str) -> dict[str, int]:
    rules = GAME.rules(None, opts)
    return {y.id: y.points for y in GAME.score(rules, [card(i) for i in ids]).yaku}


def make_state(hands: Sequence[Sequence[int]], field: Sequence[int], stock: Sequence[int],
               captured: Sequence[Sequence[int]] | None = None, *, turn: int = 0, dealer: int = 0,
               taken: tuple[tuple[int, int, int], ...] = (), turns: int = 1,
               options: dict[str, str] | None = None, **opts: str) -> MusashinoState:
    opts = {**(options or {}), **opts}
    rules = GAME.rules(None, opts)
    caps = [list(c) for c in captured] if captured is not None else [[] for _ in range(rules.sides)]
    assert len(hands) == rules.seats and len(caps) == rules.sides
    t = Table.deal(INDEX, [[card(i) for i in h] for h in hands], [card(i) for i in field],
                   [card(i) for i in stock], [[card(i) for i in c] for c in caps])
    setup = RoundSetup(1, dealer, tuple(range(rules.seats)), (0,) * rules.seats)
    return MusashinoState(rules, setup, t, turn, Phase.PLAY, turns=turns, taken=taken)


def over(captured: Sequence[Sequence[int]], dealer: int = 0, **opts: str) -> MusashinoState:
    """A round that ended on empty hands with these capture piles."""
    rules = GAME.rules(None, opts)
    s = make_state([[] for _ in range(rules.seats)], [], [], captured, dealer=dealer, options=opts)
    return replace(s, phase=Phase.OVER, end="hands-empty")


def ids(cards: Sequence[object]) -> list[int]:
    return [c.id for c in cards]  # type: ignore[attr-defined]


def deal_order(players: str, dealer: int, hands: dict[int, Sequence[int]], field: Sequence[int] = (),
               stock: Sequence[int] = ()) -> list[int]:
    """A deck order (top first) dealing these cards (padded with others) by MB-DEAL-3's packets."""
    plan = DEALS[players]
    n = plan.players
    want = {str(s): list(hands.get(s, [])) for s in range(n)}
    want["field"] = list(field)
    for k, v in want.items():
        size = plan.field if k == "field" else plan.hand
        assert len(v) <= size, k
        want[k] = v + [None] * (size - len(v))  # type: ignore[list-item]
    slots: list[int | None] = []
    pos = dict.fromkeys(want, 0)
    for per_hand, to_field in plan.packets:
        for seat in [(dealer + k) % n for k in range(1, n + 1)]:
            key = str(seat)
            slots.extend(want[key][pos[key]:pos[key] + per_hand])
            pos[key] += per_hand
        slots.extend(want["field"][pos["field"]:pos["field"] + to_field])
        pos["field"] += to_field
    slots.extend(stock)
    return fill(HANAFUDA, slots)


# -- equipment and seating ----------------------------------------------------------------------

def test_MB_EQ_1_no_card_points() -> None:
    ps = GAME.score(GAME.rules(), [card(i) for i in (10, 30, 80, 110, 120, 12, 13)])
    assert ps.card_points is None
    assert GAME.deck(GAME.rules()) is HANAFUDA


@pytest.mark.parametrize(("players", "seats", "sides"), [("3", 3, 3), ("4", 4, 2), ("4-no-field", 4, 2)])
def test_MB_EQ_2_players_and_sides(players: str, seats: int, sides: int) -> None:
    rules = GAME.rules(None, {"players": players})
    assert (rules.seats, rules.sides, GAME.seats(rules)) == (seats, sides, seats)
    assert [rules.side(s) for s in range(seats)] == [side_of(players, s) for s in range(seats)]
    if seats == 4:
        assert [rules.side(s) for s in range(4)] == [0, 1, 0, 1]  # partners sit opposite (MB-16)


# -- dealing ------------------------------------------------------------------------------------

def test_MB_DEAL_1_and_3_three_players_packets() -> None:
    deck = list(SHUFFLE_VECTORS[("hanafuda", 1)])
    m = start_from_deck(GAME, GAME.rules(), deck)
    t = m.state.table
    # dealer 0: seat 1, seat 2, dealer get 4 each, field 3; then 3 each, field 3
    assert ids(t.hands[1]) == sorted(deck[0:4] + deck[15:18])
    assert ids(t.hands[2]) == sorted(deck[4:8] + deck[18:21])
    assert ids(t.hands[0]) == sorted(deck[8:12] + deck[21:24])
    assert ids(t.field) == sorted(deck[12:15] + deck[24:27])
    assert ids(t.stock) == deck[27:]
    assert (len(t.hands[0]), len(t.field), len(t.stock)) == (7, 6, 21)


def test_MB_DEAL_2_and_3_four_players_with_field() -> None:
    deck = list(SHUFFLE_VECTORS[("hanafuda", 1)])
    m = start_from_deck(GAME, GAME.rules(None, {"players": "4"}), deck, first_dealer=2)
    t = m.state.table
    # dealer 2: seats 3, 0, 1, 2 get 3 each, field 4; then 2 each, field 4
    assert ids(t.hands[3]) == sorted(deck[0:3] + deck[16:18])
    assert ids(t.hands[2]) == sorted(deck[9:12] + deck[22:24])
    assert ids(t.field) == sorted(deck[12:16] + deck[24:28])
    assert ids(t.stock) == deck[28:]
    assert [len(h) for h in t.hands] == [5] * 4 and len(t.stock) == 20
    assert len(t.captured) == 2


def test_MB_DEAL_2_and_3_four_players_without_field() -> None:
    deck = list(SHUFFLE_VECTORS[("hanafuda", 1)])
    m = start_from_deck(GAME, GAME.rules(None, {"players": "4-no-field"}), deck)
    t = m.state.table
    assert ids(t.hands[1]) == sorted(deck[0:3] + deck[12:15])
    assert ids(t.hands[0]) == sorted(deck[9:12] + deck[21:24])
    assert t.field == () and ids(t.stock) == deck[24:]


@pytest.mark.parametrize("players", list(DEALS))
def test_MB_DEAL_2_draw_pile_matches_the_hands(players: str) -> None:
    plan = DEALS[players]
    assert plan.players * plan.hand + plan.field + plan.stock == 48
    assert plan.stock == plan.players * plan.hand
    assert sum(h for h, _ in plan.packets) == plan.hand and sum(f for _, f in plan.packets) == plan.field


def test_MB_DEAL_4_four_of_a_month_on_the_field_is_a_misdeal() -> None:
    order = deal_order("3", 0, {}, field=[10, 11, 12, 13, 20, 30])
    m = start_from_deck(GAME, GAME.rules(), order, seed=3)
    r = m.info.history[0]
    assert r.reason == "misdeal" and not r.counts and r.deltas == (0, 0, 0)
    assert m.info.rounds_played == 0 and m.info.dealer == 0 and m.state.setup.number == 1


def test_MB_DEAL_4_three_of_a_month_is_not_a_misdeal_and_the_fourth_takes_all() -> None:
    order = deal_order("3", 0, {0: [13]}, field=[10, 11, 12, 20, 30, 40])
    m = start_from_deck(GAME, GAME.rules(), order, seed=3)
    assert not m.info.history
    m = m.apply(Action("play", (13,)))
    assert {10, 11, 12, 13} <= set(ids(m.state.table.captured[0]))  # MB-CAP-3


def test_MB_DEAL_5_four_of_a_month_in_a_hand_is_not_a_misdeal() -> None:
    order = deal_order("3", 0, {1: [10, 11, 12, 13]}, field=[20, 30, 40, 50, 60, 70])
    m = start_from_deck(GAME, GAME.rules(), order, seed=3)
    assert not m.info.history and m.state.phase is Phase.PLAY


def test_MB_DEAL_6_dealer_draw() -> None:
    assert dealer_draw([42, 11, 13]) == 1
    assert dealer_draw([121, 120]) == 1  # same month: index 0 ranks highest (MB-9)
    with pytest.raises(ValueError):
        dealer_draw([10, 10])
    m = Match.start(GAME, GAME.rules(), seed=1, first_dealer=2)
    assert m.state.dealer == 2 and m.state.turn == 2


# -- turns and captures ------------------------------------------------------------------------------

def test_MB_TURN_1_dealer_first_then_to_the_right() -> None:
    s = make_state([[20], [30], [40]], [50], [60, 70, 80], dealer=2, turn=2)
    order = []
    for _ in range(3):
        order.append(s.turn)
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    assert order == [2, 0, 1]


def test_MB_TURN_1_teams_alternate() -> None:
    s = make_state([[20], [30], [40], [50]], [], [60, 70, 80, 90], players="4-no-field", dealer=1, turn=1)
    seen = []
    for _ in range(4):
        seen.append((s.turn, s.rules.side(s.turn)))
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    assert seen == [(1, 1), (2, 0), (3, 1), (0, 0)]


def test_MB_TURN_2_hand_play_then_draw() -> None:
    s = make_state([[20, 21], [30], [40]], [50], [60, 70, 80])
    s = GAME.apply(s, Action("play", (20,)))
    assert ids(s.table.stock) == [70, 80] and {20, 60} <= set(ids(s.table.field)) and s.turn == 1


def test_MB_CAP_1_one_match_captures_the_pair() -> None:
    s = GAME.apply(make_state([[10, 20], [30], [40]], [11, 50], [60, 70, 80]), Action("play", (10,)))
    assert ids(s.table.captured[0]) == [10, 11]


def test_MB_CAP_2_two_matches_the_player_chooses() -> None:
    s = make_state([[10, 20], [30], [40]], [11, 12, 50], [60, 70, 80])
    assert {a for a in GAME.legal_actions(s) if a.cards[0] == 10} == {Action("play", (10, 11)),
                                                                     Action("play", (10, 12))}
    with pytest.raises(IllegalActionError) as e:
        GAME.apply(s, Action("play", (10,)))
    assert e.value.rule_id == "MB-CAP-2"
    s = GAME.apply(s, Action("play", (10, 12)))
    assert ids(s.table.captured[0]) == [10, 12] and 11 in ids(s.table.field)


def test_MB_CAP_3_three_matches_capture_all_four() -> None:
    s = GAME.apply(make_state([[10, 20], [30], [40]], [11, 12, 13], [60, 70, 80]), Action("play", (10,)))
    assert ids(s.table.captured[0]) == [10, 11, 12, 13]


def test_MB_CAP_4_no_match_stays() -> None:
    s = GAME.apply(make_state([[10, 20], [30], [40]], [50], [60, 70, 80]), Action("play", (20,)))
    assert 20 in ids(s.table.field) and not s.table.captured[0]


def test_MB_CAP_5_free_discard_but_a_match_must_capture() -> None:
    s = make_state([[10, 20], [30], [40]], [11], [60, 70, 80])
    assert Action("play", (20,)) in GAME.legal_actions(s)
    with pytest.raises(IllegalActionError) as e:
        GAME.apply(s, Action("play", (10, 11)))  # one match: no target to name
    assert e.value.rule_id == "MB-CAP-1"


def test_MB_CAP_6_drawn_card_with_two_matches_waits_for_a_choice() -> None:
    s = make_state([[20, 21], [30], [40]], [11, 12], [10, 60, 70])
    s = GAME.apply(s, Action("play", (20,)))
    assert s.phase is Phase.TAKE and GAME.legal_actions(s) == (Action("take", (11,)), Action("take", (12,)))
    with pytest.raises(IllegalActionError) as e:
        GAME.apply(s, Action("play", (21,)))
    assert e.value.rule_id == "MB-CAP-6"
    s = GAME.apply(s, Action("take", (12,)))
    assert ids(s.table.captured[0]) == [10, 12] and s.turn == 1


def test_MB_CAP_7_partners_share_one_pile() -> None:
    s = make_state([[20], [30], [10], [40]], [11, 31], [60, 70, 80, 90], players="4", turn=2)
    s = GAME.apply(s, Action("play", (10,)))
    assert ids(s.table.captured[0]) == [10, 11] and s.turn == 3
    s = GAME.apply(s, GAME.legal_actions(s)[0])
    s = GAME.apply(s, Action("play", (20,)))  # seat 0, same team as seat 2
    s = GAME.apply(s, Action("play", (30,)))  # seat 1 takes 31 for team 1
    assert ids(s.table.captured[0]) == [10, 11] and ids(s.table.captured[1]) == [30, 31]
    snap = GAME.snapshot(s)
    assert [z for z in snap.zone_names() if z.startswith("captured.")] == ["captured.0", "captured.1"]


# -- dekiyaku ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("pile", "want"), [
    ([10, 30, 80, 110, 120], {"five-kings": 8}),
    ([11, 21, 31, 41, 51, 71, 112], {"seven-red-ribbons": 8}),
    ([10, 80, 113, 120], {"four-brights": 4}),
    ([10, 30, 100, 110], {"kemari-court": 4}),
    ([10, 80, 120], {"three-brights": 2}),
    ([10, 60, 90], {"takasago": 2}),
    ([10, 20, 30], {"front-sugawara": 2}),
    ([11, 21, 31], {"back-sugawara": 2}),
    ([61, 91, 101], {"purple-ribbons": 2}),
    ([10, 81, 120], {"large-birds": 2}),
    ([20, 40, 111], {"small-birds": 2}),
    ([70, 100, 81], {"crop-pests": 2}),
    ([22, 63, 72], {"three-red-flowers": 2}),
    ([43, 52, 122], {"three-purple-flowers": 2}),
    ([90, 120], {"coat-of-arms": 1}),
    ([90, 80], {"moon-banquet": 1}),
    ([90, 31], {"flower-banquet": 1}),
    ([90, 101], {"autumn-leaves": 1}),
    ([40, 80], {"cuckoo-with-moon": 1}),
    ([60, 30], {"butterflies-with-flowers": 1}),
    ([70, 60], {"boar-with-peony": 1}),
    ([20, 21, 22, 23], {"plum-pot": 1}),
    ([40, 41, 42, 43], {"wisteria-pot": 1}),
    ([50, 51, 52, 53], {"iris-bridge": 1}),
    ([120, 121, 122, 123], {"paulownia-pot": 1}),
])
def test_MB_YAKU_2_to_23_each_dekiyaku(pile: list[int], want: dict[str, int]) -> None:
    assert yaku(pile) == want
    for i in pile:  # every card is needed
        rest = [c for c in pile if c != i]
        assert not set(want) & set(yaku(rest)), (i, yaku(rest))


def test_MB_YAKU_1_everything_stacks() -> None:
    got = yaku([10, 20, 30, 60, 70, 90, 100, 101, 120])
    assert got == {"takasago": 2, "front-sugawara": 2, "coat-of-arms": 1, "flower-banquet": 1,
                   "autumn-leaves": 1, "butterflies-with-flowers": 1, "boar-with-peony": 1}


def test_MB_YAKU_1_insta_win_scores_alone() -> None:
    got = yaku([10, 30, 80, 110, 120, 100, 90, 60])
    assert got == {"five-kings": 8}  # Kemari, Takasago, Moon Banquet… are not counted


def test_MB_YAKU_1_seed_rows_are_not_used() -> None:
    assert {r.gap for r in SEED_ROWS_NOT_USED} <= {"MB-1", "MB-2", "MB-3", "MB-4"}
    assert yaku([10, 120, 80]) == {"three-brights": 2}  # not Pine-Paulownia-Moon 20
    assert yaku([11, 21, 31]) == {"back-sugawara": 2}  # not Poetry Ribbons 40
    assert yaku([11, 21, 31, 41, 51, 61, 71]) == {"back-sugawara": 2}  # not Seven Ribbons 40
    assert all(r.value >= 20 for r in SEED_ROWS_NOT_USED)


def test_MB_YAKU_4_four_brights_absorbs_three_brights() -> None:
    assert yaku([10, 80, 113, 120]) == {"four-brights": 4}
    assert yaku([10, 30, 80, 120], four_brights="curtain") == {"four-brights": 4}
    assert yaku([10, 30, 80, 120]) == {"three-brights": 2}
    assert yaku([10, 80, 113, 120], four_brights="curtain") == {"three-brights": 2}


def test_MB_YAKU_5_kemari_stacks_with_front_sugawara() -> None:
    assert yaku([10, 20, 30, 100, 110]) == {"kemari-court": 4, "front-sugawara": 2}
    assert yaku([10, 20, 30, 80, 100, 110, 113, 120]) == {"five-kings": 8}


def test_MB_YAKU_18_19_banquets_counted_once() -> None:
    assert yaku([90, 30, 31]) == {"flower-banquet": 1}
    assert yaku([90, 100, 101]) == {"autumn-leaves": 1}


def test_MB_YAKU_14_15_flower_dekiyaku_rules() -> None:
    assert yaku([22, 23, 62, 63, 72, 73]) == {"three-red-flowers": 2}
    assert yaku([42, 52, 121]) == {}  # the yellow Paulownia Chaff is not purple (MB-21)
    assert yaku([21, 61, 71]) == {}  # ribbons are not flowers


@given(st.sets(st.sampled_from([c.id for c in HANAFUDA.cards]), max_size=24),
       st.sampled_from(["lightning", "curtain"]), st.sampled_from(["8", "4", "16"]))
def test_MB_YAKU_1_reference_scorer_equals_the_spec_definition(pile: set[int], fb: str, value: str) -> None:
    opts = {"four_brights": fb, "insta_win_value": value}
    rules = GAME.rules(None, opts)
    mask = sum(card(i).mask for i in pile)
    want = score_pile(yaku_table(SPEC.resolve(None, opts)), pile)
    assert score_mask(rules, mask) == want
    # the Storm's second version voids the banquets (MB-STORM-2); an insta-win scores alone all the same
    insta = any(y.id in INSTA_WIN for y in want)
    assert score_mask(rules, mask, banquets_void=True) == (want if insta else
                                                          tuple(y for y in want if y.id not in BANQUETS))


# -- the end of a round and insta-wins ----------------------------------------------------------------

def five_kings_turn(**opts: str) -> MusashinoState:
    """Seat 0 completes Five Kings with its hand play (120 takes 121); 42 is the next draw."""
    return make_state([[120, 22], [23], [32]], [121, 50], [42, 43, 52],
                      [[10, 30, 80, 110], [], []], options=opts)


def test_MB_END_1_insta_win_after_both_plays() -> None:
    s = GAME.apply(five_kings_turn(), Action("play", (120,)))
    assert s.phase is Phase.OVER and s.end == "insta-win" and s.winner == 0
    assert ids(s.table.stock) == [43, 52]  # the draw was made: checked at the end of the turn
    r = GAME.round_result(s)
    assert r.deltas == (16, -8, -8) and r.yaku[0] == (ScoredYaku("five-kings", 8),) and r.yaku[1] == ()


@pytest.mark.parametrize("cap", ["8", "none"])
def test_MB_22_two_insta_wins_at_once_pay_the_value_once(cap: str) -> None:
    """Seat 0 completes Five Kings and Seven Red Ribbons with one turn: both are listed, the win is paid
    once (8 by each loser), with or without the payment cap."""
    s = make_state([[120, 22], [23], [32]], [121, 50], [42, 43, 52],
                   [[10, 30, 80, 110, 11, 21, 31, 41, 51, 71, 112], [], []], payment_cap=cap)
    s = GAME.apply(s, Action("play", (120,)))
    assert s.end == "insta-win" and s.winner == 0
    r = GAME.round_result(s)
    assert {y.id for y in r.yaku[0]} == {"five-kings", "seven-red-ribbons"}
    assert r.deltas == (16, -8, -8)


def test_MB_22_without_the_cap_the_value_is_paid_once_not_summed() -> None:
    s = make_state([[120, 22], [23], [32]], [121, 50], [42, 43, 52],
                   [[10, 30, 80, 110, 11, 21, 31, 41, 51, 71, 112], [], []], payment_cap="none", insta_win_value="12")
    r = GAME.round_result(GAME.apply(s, Action("play", (120,))))
    assert r.deltas == (24, -12, -12)  # 12 from each loser, not 24


def test_MB_22_the_spec_settlement_check_pays_two_insta_wins_once() -> None:
    """The spec's settlement invariant follows MB-22 too: found by random play (seed 15456, policy
    287538), side 0 forms Five Kings and Seven Red Ribbons in one turn of the team game without the cap
    and is paid 8 by the other team, once; the check used to expect the sum, 16."""
    opts = {"players": "4-no-field", "payment_cap": "none", "insta_win_value": "8", "four_brights": "lightning",
            "insta_win_check": "turn", "storm": "off", "sun": "off", "length": "3"}
    rep = run_random(ReferenceAdapter(), PROFILE, SPEC.resolve(None, opts), 15456, 287538)
    assert rep.violations == ()
    m = Match.start(GAME, GAME.rules(None, opts), 15456)
    rng = SplitMix64(287538)
    while not m.info.history or m.info.history[-1].reason != "insta-win":
        legal = m.legal_actions()
        m = m.apply(legal[rng.below(len(legal))])
    r = m.info.history[-1]
    assert {y.id for y in r.yaku[0]} == {"five-kings", "seven-red-ribbons"} and r.deltas == (8, -8, 8, -8)


def test_MB_END_1_insta_win_checked_on_capture() -> None:
    s = GAME.apply(five_kings_turn(insta_win_check="capture"), Action("play", (120,)))
    assert s.phase is Phase.OVER and s.end == "insta-win"
    assert ids(s.table.stock) == [42, 43, 52]  # stopped before the draw


def test_MB_END_1_round_ends_when_the_hands_are_empty() -> None:
    s = make_state([[20], [30], [40]], [], [50, 60, 70], dealer=1, turn=1)
    for _ in range(3):
        assert s.phase is Phase.PLAY
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    assert s.phase is Phase.OVER and s.end == "hands-empty" and not s.table.stock
    assert GAME.legal_actions(s) == ()


def test_MB_END_2_winner_deals_next_three_players() -> None:
    r = GAME.round_result(over([[], [10, 80, 120], []]))
    assert r.next_dealer == 1 and r.winner == 1


@pytest.mark.parametrize(("dealer", "winning_side", "want"), [(0, 0, 0), (0, 1, 1), (1, 0, 2), (3, 0, 0),
                                                              (3, 1, 3), (2, 1, 3)])
def test_MB_END_2_team_deal(dealer: int, winning_side: int, want: int) -> None:
    piles: list[list[int]] = [[], []]
    piles[winning_side] = [10, 80, 120]
    r = GAME.round_result(over(piles, dealer=dealer, players="4"))
    assert r.next_dealer == want


# -- scoring ----------------------------------------------------------------------------------------

def test_MB_SCORE_1_each_loser_pays_the_insta_win_value() -> None:
    for value, cap, want in (("4", "8", 4), ("8", "8", 8), ("16", "8", 8), ("16", "none", 16)):
        s = GAME.apply(five_kings_turn(insta_win_value=value, payment_cap=cap), Action("play", (120,)))
        assert GAME.round_result(s).deltas == (2 * want, -want, -want)


def test_MB_SCORE_1_losing_team_pays_once() -> None:
    s = make_state([[120], [23], [32], [33]], [121], [42, 43, 52, 53], [[10, 30, 80, 110], []], players="4")
    s = GAME.apply(s, Action("play", (120,)))
    assert GAME.round_result(s).deltas == (8, -8, 8, -8)


def test_MB_SCORE_2_losers_pay_the_difference() -> None:
    r = GAME.round_result(over([[10, 80, 120, 90], [60, 30], []]))  # 4, 1, 0
    assert r.deltas == (7, -3, -4) and r.reason == "hands-empty"
    assert dict(r.notes)["total.0"] == 4


def test_MB_SCORE_3_tie_for_first_goes_to_turn_order_from_the_dealer() -> None:
    piles = [[90, 120], [40, 80], [70, 60]]  # 1, 1, 1: all tie
    r = GAME.round_result(over(piles, dealer=1))
    assert r.deltas == (0, 0, 0) and r.next_dealer == 1
    r = GAME.round_result(over([[90, 120], [40, 80], []], dealer=1))  # 1, 1, 0
    assert r.deltas == (0, 1, -1) and r.next_dealer == 1
    r = GAME.round_result(over([[90, 120], [40, 80], []], dealer=2))  # seat 2, then 0
    assert r.deltas == (1, 0, -1) and r.next_dealer == 0
    r = GAME.round_result(over([[], [], []], dealer=2))
    assert r.deltas == (0, 0, 0) and r.next_dealer == 2


def test_MB_SCORE_4_payment_cap() -> None:
    piles = [[10, 20, 30, 60, 80, 90, 100, 113, 120], [], []]
    assert sum(yaku(piles[0]).values()) == 13
    assert GAME.round_result(over(piles)).deltas == (16, -8, -8)
    assert GAME.round_result(over(piles, payment_cap="none")).deltas == (26, -13, -13)


def test_MB_SCORE_5_partners_share_the_score() -> None:
    r = GAME.round_result(over([[40, 80], [90, 120]], players="4"))  # 1 against 1: dealer's team
    assert r.deltas == (0, 0, 0, 0)
    r = GAME.round_result(over([[], [10, 81, 120]], players="4"))
    assert r.deltas == (-2, 2, -2, 2) and r.next_dealer == 1


# -- the Storm and the Sun -------------------------------------------------------------------------

def test_MB_STORM_1_storm_cards_void_the_victims() -> None:
    s = over([[10, 80, 120, 90], [110], []], storm="cards")
    s = replace(s, taken=((110, 1, 1),))
    r = GAME.round_result(s)
    assert r.yaku[0] == (ScoredYaku("coat-of-arms", 1),)  # Three Brights and Moon Banquet lose the Moon
    assert r.deltas == (2, -1, -1)


def test_MB_STORM_1_holder_and_partner_are_not_stormed() -> None:
    s = replace(over([[10, 80, 120, 113], []], players="4", storm="cards"), taken=((113, 0, 2),))
    assert not GAME.stormed(s, 0) and GAME.stormed(s, 1)
    assert GAME.round_result(s).yaku[0] == (ScoredYaku("four-brights", 4),)


def test_MB_STORM_2_banquets_void() -> None:
    s = replace(over([[90, 80, 30, 120], [113], []], storm="banquets"), taken=((113, 1, 3),))
    assert GAME.round_result(s).yaku[0] == (ScoredYaku("coat-of-arms", 1),)
    s = replace(s, rules=GAME.rules(None, {"storm": "off"}))
    assert {y.id for y in GAME.round_result(s).yaku[0]} == {"coat-of-arms", "moon-banquet", "flower-banquet"}


def test_MB_STORM_3_a_stormed_card_cannot_complete_an_insta_win() -> None:
    piles = [[11, 21, 41, 51, 71, 112], [113], []]
    s = make_state([[31, 22], [23], [32]], [33, 60], [42, 43, 52], piles, storm="cards", taken=((113, 1, 1),),
                   turns=4)
    s = GAME.apply(s, Action("play", (31,)))
    assert s.phase is Phase.PLAY and s.turn == 1  # Seven Red Ribbons is not formed
    s_off = make_state([[31, 22], [23], [32]], [33, 60], [42, 43, 52], piles)
    assert GAME.apply(s_off, Action("play", (31,))).end == "insta-win"


@pytest.mark.parametrize(("sun", "crane_turn", "cancelled"), [
    ("off", 5, False), ("after", 5, True), ("after", 1, False), ("any-order", 1, True),
])
def test_MB_STORM_4_the_sun_cancels_the_storm(sun: str, crane_turn: int, cancelled: bool) -> None:
    taken = ((113, 1, 3), (10, 2, crane_turn))
    s = replace(over([[80, 90], [113], [10]], storm="cards", sun=sun), taken=taken)
    assert GAME.stormed(s, 0) is not cancelled
    crane_own = replace(s, taken=((113, 1, 3), (10, 1, 5)))  # the holder's own Crane cancels nothing
    assert GAME.stormed(crane_own, 0)


def test_MB_STORM_4_sun_lifts_a_storm_during_another_players_turn() -> None:
    piles = [[113], [11, 21, 31, 41, 51, 71, 112], []]
    s = make_state([[20], [23], [12]], [10, 60], [42, 43, 52], piles, turn=2, storm="cards", sun="after",
                   taken=((113, 0, 1),), turns=5)
    assert GAME.stormed(s, 1)
    s = GAME.apply(s, Action("play", (12,)))  # seat 2 takes the Crane: side 0's Lightning is cancelled
    assert s.end == "insta-win" and s.winner == 1  # checked for every side (MB-10)
    assert GAME.round_result(s).deltas == (-8, 16, -8)


# -- the game -------------------------------------------------------------------------------------

@pytest.mark.parametrize("length", ["3", "6", "12"])
def test_MB_GAME_1_game_length(length: str) -> None:
    m = Match.start(GAME, GAME.rules(None, {"length": length}), seed=11)
    while not m.over:
        m = m.apply(m.legal_actions()[0])
    assert m.info.rounds_played == int(length)
    assert sum(m.info.scores) == 0


def test_MB_GAME_2_winners_team_partners_win_together() -> None:
    m = Match.start(GAME, GAME.rules(None, {"players": "4", "length": "3"}), seed=5)
    while not m.over:
        m = m.apply(m.legal_actions()[-1])
    sc = m.info.scores
    top = max(sc)
    assert m.info.winners == tuple(i for i in range(4) if sc[i] == top) and len(m.info.winners) in (2, 4)


# -- errors, catalogue, invariants ---------------------------------------------------------------

def test_illegal_actions_name_their_rule() -> None:
    s = make_state([[10, 20], [30], [40]], [50], [60, 70, 80])
    with pytest.raises(IllegalActionError) as e:
        GAME.apply(s, Action("play", (30,)))
    assert e.value.rule_id == "MB-TURN-2" and "not in seat 0's hand" in str(e.value)
    for bad in (Action("koikoi"), Action("take", (50,))):
        with pytest.raises(IllegalActionError) as e:
            GAME.apply(s, bad)
        assert SPEC.has_rule(e.value.rule_id)


def test_every_rule_named_in_the_reference_is_in_the_catalogue() -> None:
    src = Path(__file__).parents[1].joinpath("reference/hanafuda/games/musashino.py").read_text()
    named = set(re.findall(r"MB-[A-Z]+-\d+", src))
    assert named and all(SPEC.has_rule(rid) for rid in named)
    table_rules = {y.rule for y in yaku_table(SPEC.resolve())}
    assert all(SPEC.has_rule(r) for r in table_rules)


def test_every_dossier_gap_has_a_decision() -> None:
    gap_ids = {g.id for g in GAPS}
    assert {f"MB-{i}" for i in range(1, 20)} <= gap_ids
    assert all(g.decision and g.reason for g in GAPS)
    for o in SPEC.options:  # every option is tied to a gap or a rule
        assert any(o.key in g.options for g in GAPS) or any(r.option == o.key for r in SPEC.rules), o.key


def test_cli_bad_input_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "musashino", "999"]) == 2
    assert main(["simulate", "musashino", "-o", "players=5"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("hanafuda: error:") for line in err)


def test_simulation_is_reproducible() -> None:
    a = simulate(GAME, {"players": "4", "length": "3"}, None, 4, 9).to_json()
    b = simulate(GAME, {"players": "4", "length": "3"}, None, 4, 9).to_json()
    assert a == b and a["rounds"] == 12


def _step(deltas: tuple[int, ...], yaku: tuple[tuple[ScoredYaku, ...], ...], players: str) -> Step:
    n = DEALS[players].players
    zones = tuple((f"captured.{i}", ()) for i in range(3 if players == "3" else 2))
    before = Snapshot("musashino", zones, 0, "play", 0, 1, (0,) * n)
    after = Snapshot("musashino", zones, 1, "play", 0, 2, deltas)
    o = RoundOutcome("hands-empty", deltas, True, yaku)
    return Step(SPEC.resolve(None, {"players": players}), before, "play 10", after, ("play 20",), (o,), False, 0)


def test_invariants_catch_a_wrong_settlement() -> None:
    checks = dict(PROFILE.invariants)
    settle = checks["MB-SCORE-1..5 settlement follows the dekiyaku"]
    good = ((ScoredYaku("three-brights", 2),), (), ())
    assert settle(_step((4, -2, -2), good, "3")) is None
    assert settle(_step((2, -2, 0), good, "3")) is not None
    teams = checks["MB-EQ-2 teams share a pile and a score"]
    assert teams(_step((2, -2, 2, -2), ((ScoredYaku("three-brights", 2),), ()), "4")) is None
    assert teams(_step((4, -2, 0, -2), ((ScoredYaku("three-brights", 2),), ()), "4")) is not None


# -- random play under random options -------------------------------------------------------------

def _consistent(opts: dict[str, str]) -> bool:
    """Option values that do not conflict (OptionLink: e.g. a Sun without a Storm is refused)."""
    try:
        SPEC.resolve(None, opts)
    except OptionError:
        return False
    return True


options = st.fixed_dictionaries({o.key: st.sampled_from(o.choices) for o in SPEC.options
                                 if o.key != "length"}).filter(_consistent)


@given(options, st.integers(0, 2**32), st.integers(0, 2**32))
def test_random_play_keeps_every_invariant(opts: dict[str, str], seed: int, policy: int) -> None:
    opts["length"] = "3"
    rep = run_random(ReferenceAdapter(), PROFILE, SPEC.resolve(None, opts), seed, policy)
    assert not rep.violations, str(rep.violations[0])
    assert rep.rounds == 3


@given(options, st.integers(0, 2**64 - 1), st.integers(0, 3), st.integers(0, 2**32))
def test_deal_fast_is_start_round_then_the_round(opts: dict[str, str], seed: int, dealer: int, policy: int) -> None:
    """``deal_fast`` deals the first position ``start_round`` deals, into a round that plays on as the
    reference (legal actions, positions and result); None only for a misdeal (MB-DEAL-4)."""
    rules = GAME.rules(None, opts)
    order = fast_shuffled([c.id for c in HANAFUDA.cards], SplitMix64(seed))
    setup = RoundSetup(1, dealer % rules.seats, tuple(range(rules.seats)), (0,) * rules.seats)
    fast, state = GAME.deal_fast(rules, order, setup), GAME.start_round(rules, [card(i) for i in order], setup)
    assert (fast is None) == GAME.is_terminal(state)
    rng = SplitMix64(policy)
    while fast is not None and not fast.over():
        legal = GAME.legal_actions(state)
        assert fast.state() == state and tuple(fast.legal()) == legal
        a = legal[rng.below(len(legal))]
        fast.play(a)
        state = GAME.apply(state, a)
    assert fast is None or (fast.state() == state and fast.result() == GAME.round_result(state))


def test_deal_fast_leaves_a_misdeal_to_start_round() -> None:
    rules = GAME.rules()
    order = deal_order("3", 0, {}, field=[10, 11, 12, 13, 20, 30])
    setup = RoundSetup(1, 0, (0, 1, 2), (0, 0, 0))
    assert GAME.deal_fast(rules, order, setup) is None
    assert GAME.start_round(rules, [card(i) for i in order], setup).end == "misdeal"


# -- MB-14: the Sun comes with the Storm -----------------------------------------------------------

#: Seed 366, first round: side 1 takes the Rain Man in turn 5, side 0 the Crane in turn 10 and the
#: Lightning in turn 19. With the Sun, side 0's Crane cancels side 1's Rain Man and side 0 wins 16.
MB14_ACTIONS = ("play 11", "play 83", "play 82", "play 23", "play 70", "play 71", "play 81", "play 112", "play 61",
                "play 60", "play 21", "play 33", "play 80", "play 92", "play 91", "play 52", "play 73", "play 20",
                "play 121", "play 122", "play 63")


def _mb14_round(opts: dict[str, str]) -> tuple[tuple[int, ...], tuple[tuple[int, int, int], ...]]:
    m = Match.start(GAME, GAME.rules(None, opts), seed=366)
    taken: tuple[tuple[int, int, int], ...] = ()
    for a in MB14_ACTIONS:
        taken = m.state.taken
        m = m.apply(Action.parse(a))
    assert m.info.rounds_played == 1
    return m.info.scores, taken


def test_MB_14_the_storm_brings_the_sun() -> None:
    """storm=cards alone plays the Sun too (sun=after): side 0's Crane, taken after side 1's Rain Man,
    cancels it, and side 0 is paid 8 by each. A Storm without the Sun must be chosen (sun=off)."""
    assert SPEC.resolve(None, {"storm": "cards"})["sun"] == "after"
    assert SPEC.resolve(None, {"storm": "banquets"})["sun"] == "after"
    scores, taken = _mb14_round({"storm": "cards"})
    assert {(110, 1, 5), (10, 0, 10)} <= set(taken)
    assert scores == (16, -8, -8)
    assert _mb14_round({"storm": "cards", "sun": "after"})[0] == (16, -8, -8)
    assert _mb14_round({"storm": "cards", "sun": "off"})[0] == (7, -4, -3)  # side 0 stormed by the Rain Man


@pytest.mark.parametrize("sun", ["after", "any-order"])
def test_MB_14_a_sun_without_a_storm_is_refused(sun: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(OptionError, match=rf"sun={sun} conflicts with storm=off \(MB-14"):
        SPEC.resolve(None, {"sun": sun})
    assert main(["simulate", "musashino", "--option", f"sun={sun}", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "MB-14" in err and "Traceback" not in err


def test_MB_TURN_1_a_round_is_at_most_two_actions_for_each_hand_card() -> None:
    """The spec's bound on a round's length (the generic bounded-round invariant): each turn is a hand
    play and a take, one turn per hand card, so the largest deal (players x hand) bounds it; a looser
    bound would let a runaway engine go unnoticed for longer."""
    assert PROFILE.max_round_actions == 2 * max(d.players * d.hand for d in DEALS.values()) == 48


def test_MB_YAKU_2_3_the_insta_win_rows_say_they_stop_the_round() -> None:
    """The rulebook's condition text of each dekiyaku says when it is an insta-win, and only then."""
    for y in yaku_table(SPEC.resolve()):
        assert y.condition.endswith("; stops the round") == (y.id in INSTA_WIN), y.id
