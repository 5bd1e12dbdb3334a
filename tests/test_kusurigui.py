"""Kusuri-gui: one test per rule id (KG-…), stacked decks for every willow and payment case, random play."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest
from hanafuda.adapter import ReferenceAdapter, start_from_deck
from hanafuda.cli import main
from hanafuda.engine import Action, IllegalActionError, Match, MatchInfo, RoundSetup
from hanafuda.games.kusurigui import GAME, KusuriGuiState, Phase
from hanafuda_spec.cards import KUSURIGUI, Card, card
from hanafuda_spec.games import kusurigui as kg
from hanafuda_spec.games.kusurigui import PART_OF, PROFILE, SPEC, dekiyaku, implies, yaku_table
from hanafuda_spec.invariants import run_random
from hanafuda_spec.yaku import YakuDef
from hypothesis import given
from hypothesis import strategies as st

from tests.stacking import fill

# -- helpers --------------------------------------------------------------------------------

KO_SLOTS, OYA_SLOTS, FACEDOWN_SLOTS, UP_SLOT = (0, 1, 7, 8), (2, 3, 9, 10), (4, 5, 6), 11


def kg_order(oya: Sequence[int], ko: Sequence[int], facedown: Sequence[int], up: int,
             stock: Sequence[int] = ()) -> list[int]:
    """A deck order (top first) dealing these cards by KG-DEAL-2: ko 2, oya 2, field 3 face down, ko 2,
    oya 2, field 1 face up; then ``stock`` on top of the stock, the rest in id order."""
    slots: list[int | None] = [None] * 12
    for pos, c in zip(KO_SLOTS, ko, strict=False):
        slots[pos] = c
    for pos, c in zip(OYA_SLOTS, oya, strict=False):
        slots[pos] = c
    for pos, c in zip(FACEDOWN_SLOTS, facedown, strict=False):
        slots[pos] = c
    slots[UP_SLOT] = up
    return fill(KUSURIGUI, [*slots, *stock])


def deal(oya: Sequence[int], ko: Sequence[int], facedown: Sequence[int], up: int, first_dealer: int = 0,
         stock: Sequence[int] = (), **opts: str) -> Match[Any, Any]:
    rules = GAME.rules(None, opts)
    return start_from_deck(GAME, rules, kg_order(oya, ko, facedown, up, stock), first_dealer, seed=9)


def play(m: Match[Any, Any], *actions: str) -> Match[Any, Any]:
    for a in actions:
        m = m.apply(Action.parse(a))
    return m


def ids(cards: Sequence[Card]) -> list[int]:
    return [c.id for c in cards]


def cards(xs: Sequence[int]) -> tuple[Card, ...]:
    return tuple(card(i) for i in xs)


def yaku(pile: Sequence[int], **opts: str) -> dict[str, int]:
    rules = GAME.rules(None, opts)
    return {y.id: y.points for y in GAME.score(rules, [card(i) for i in pile]).yaku}


def finished(cap0: Sequence[int], cap1: Sequence[int], paid: tuple[int, int] = (0, 0),
             scores: tuple[int, int] = (100, 100), dealer: int = 0, number: int = 1,
             **opts: str) -> KusuriGuiState:
    """A played-out round with these capture piles (the other cards are of no concern to the result)."""
    rules = GAME.rules(None, opts)
    return KusuriGuiState(rules, RoundSetup(number, dealer, (0, 1), scores), ((), ()), (), (),
                          (tuple(sorted(cards(cap0))), tuple(sorted(cards(cap1)))), (), (), 1 - dealer,
                          Phase.OVER, 40, 4, None, paid, (0, 0), "played-out")


# -- equipment and the deal -------------------------------------------------------------------

def test_KG_EQ_1_44_cards_without_clover_and_maple_chaff() -> None:
    deck = [c.id for c in GAME.deck(GAME.rules())]
    assert len(deck) == 44 and tuple(deck) == kg.DECK
    assert not {72, 73, 102, 103} & set(deck)
    assert len(kg.CHAFF) == 20 and set(deck) >= kg.CHAFF
    assert len(kg.BRIGHTS | kg.ANIMALS | kg.RIBBONS | kg.CHAFF) == 44


@pytest.mark.parametrize(("chips", "want"), [("100", 100), ("200", 200)])
def test_KG_EQ_2_chips_per_player(chips: str, want: int) -> None:
    m = Match.start(GAME, GAME.rules(None, {"chips": chips}), seed=2)
    assert m.info.scores == (want, want) and m.snapshot().scores == (want, want)


@pytest.mark.parametrize("dealer", [0, 1])
def test_KG_DEAL_2_deal_sequence(dealer: int) -> None:
    order = kg_order([21, 22, 31, 32], [41, 42, 51, 52], [61, 62, 63], 20)
    m = start_from_deck(GAME, GAME.rules(), order, dealer)
    s = m.state
    ko = 1 - dealer
    assert ids(s.hands[ko]) == sorted(order[i] for i in KO_SLOTS) == [41, 42, 51, 52]
    assert ids(s.hands[dealer]) == sorted(order[i] for i in OYA_SLOTS) == [21, 22, 31, 32]
    assert ids(s.facedown) == [61, 62, 63]  # KG-DEAL-3: out of play
    assert ids(s.pile) == [20] and not s.willows
    assert ids(s.stock) == order[12:] and len(s.stock) == 32
    assert GAME.to_move(s) == dealer  # KG-PLAY-1


def test_KG_DEAL_2_a_seeded_deck_reproduces_the_table() -> None:
    m = Match.start(GAME, GAME.rules(), seed=1)
    o = m.deck_order
    assert card(o[UP_SLOT]).month != 11
    snap = m.snapshot()
    assert snap.zone("hand.1") == tuple(sorted(o[i] for i in KO_SLOTS))
    assert snap.zone("hand.0") == tuple(sorted(o[i] for i in OYA_SLOTS))
    assert snap.zone("out.facedown") == tuple(o[i] for i in FACEDOWN_SLOTS)
    assert snap.zone("pile") == (o[UP_SLOT],) and snap.zone("stock") == o[12:]


@pytest.mark.parametrize(("facedown", "pile", "willows", "rest"), [
    ([20, 21, 22], [20], [113], [21, 22]),
    ([110, 21, 22], [21], [113, 110], [22]),
    ([110, 111, 22], [22], [113, 110, 111], []),
])
def test_KG_DEAL_4_willow_face_up_turns_the_face_down_cards(facedown: list[int], pile: list[int],
                                                             willows: list[int], rest: list[int]) -> None:
    m = deal([31, 32, 41, 42], [51, 52, 61, 62], facedown, 113)
    s = m.state
    assert ids(s.pile) == pile and ids(s.willows) == willows and ids(s.facedown) == rest
    snap = m.snapshot()
    assert snap.zone("out.willows") == tuple(willows) and snap.zone("out.facedown") == tuple(rest)
    assert len(snap.zone("out.willows")) + len(snap.zone("out.facedown")) == 3


def test_KG_DEAL_4_face_down_willows_stay_hidden_under_a_plain_face_up_card() -> None:
    s = deal([31, 32, 41, 42], [51, 52, 61, 62], [110, 111, 112], 20).state
    assert ids(s.pile) == [20] and ids(s.facedown) == [110, 111, 112] and not s.willows


def test_KG_DEAL_5_four_willows_on_the_field_is_a_misdeal() -> None:
    m = deal([31, 32, 41, 42], [51, 52, 61, 62], [110, 111, 112], 113, first_dealer=1)
    r = m.info.history[0]
    assert r.reason == "misdeal" and not r.counts and r.deltas == (0, 0)
    assert m.info.rounds_played == 0 and m.info.dealer == 1 and m.info.scores == (100, 100)
    # The same dealer deals again from a fresh shuffle.
    assert m.state.phase is Phase.PLAY and m.state.setup.dealer == 1 and m.state.setup.number == 1
    assert len(m.state.pile) == 1


def test_KG_DEAL_5_misdeal_position_keeps_every_card() -> None:
    order = kg_order([31, 32, 41, 42], [51, 52, 61, 62], [110, 111, 112], 113)
    s = GAME.start_round(GAME.rules(), [KUSURIGUI.by_id(i) for i in order], RoundSetup(1, 0, (0, 1), (100, 100)))
    assert s.phase is Phase.OVER and s.end == "misdeal"
    snap = GAME.snapshot(s)
    assert sorted(snap.all_cards()) == list(kg.DECK) and snap.zone("out.willows") == (113, 110, 111, 112)


# -- play ------------------------------------------------------------------------------------

def test_KG_PLAY_1_dealer_leads_and_plays_one_card() -> None:
    m = deal([21, 22, 31, 32], [41, 42, 51, 52], [61, 62, 63], 20, first_dealer=1)
    assert m.state.turn == 1
    assert [str(a) for a in m.legal_actions()] == ["play 21", "play 22", "play 31", "play 32"]
    m = play(m, "play 31")
    assert m.state.turn == 0
    with pytest.raises(IllegalActionError) as e:
        play(m, "play 21")
    assert e.value.rule_id == "KG-PLAY-1" and "not in seat 0's hand" in str(e.value)
    with pytest.raises(IllegalActionError) as e:
        play(m, "play 41 42")
    assert e.value.rule_id == "KG-PLAY-1"


def test_KG_PLAY_2_same_month_takes_the_whole_pile() -> None:
    m = deal([23, 40, 50, 60], [30, 41, 52, 62], [12, 13, 22], 21)
    m = play(m, "play 40", "play 30", "play 50")  # pile 21, 40, 30, 50 (top: iris)
    assert ids(m.state.pile) == [21, 40, 30, 50]
    m = play(m, "play 52")
    assert not m.state.pile and ids(m.state.captured[1]) == [21, 30, 40, 50, 52]


def test_KG_PLAY_3_other_months_are_discarded_on_top() -> None:
    m = deal([21, 40, 50, 60], [30, 41, 52, 62], [12, 13, 22], 20)
    m = play(m, "play 40")
    assert ids(m.state.pile) == [20, 40] and not m.state.captured[0]
    m = play(m, "play 41", "play 21")  # 41 takes the pile; 21 goes onto the empty pile
    assert ids(m.state.pile) == [21] and ids(m.state.captured[1]) == [20, 40, 41]


def test_KG_PLAY_4_four_re_deals_non_dealer_first() -> None:
    m = deal([21, 22, 31, 32], [41, 42, 51, 52], [61, 62, 63], 20, first_dealer=1)
    s = m.state
    redeals = 0
    plays = 0
    while not GAME.is_terminal(s):
        before = s
        s = GAME.apply(s, GAME.legal_actions(s)[0])
        plays += 1
        if len(s.stock) != len(before.stock):
            redeals += 1
            st = ids(before.stock)
            assert ids(s.hands[0]) == sorted(st[0:2] + st[4:6])  # seat 0 is the non-dealer
            assert ids(s.hands[1]) == sorted(st[2:4] + st[6:8])
            assert s.turn == 1  # KG-PLAY-5
    assert redeals == 4 and plays == kg.PLAYS_PER_ROUND and s.redeals == 4


def test_KG_PLAY_5_dealer_leads_every_cycle_of_eight() -> None:
    m = Match.start(GAME, GAME.rules(), seed=4)
    s = m.state
    n = 0
    while not GAME.is_terminal(s):
        assert s.turn == (s.dealer if n % 2 == 0 else 1 - s.dealer)
        if n % 8 == 0:
            assert [len(h) for h in s.hands] == [4, 4]
        s = GAME.apply(s, GAME.legal_actions(s)[-1])
        n += 1


def test_KG_END_1_round_ends_after_forty_plays_and_the_pile_belongs_to_nobody() -> None:
    m = Match.start(GAME, GAME.rules(), seed=6)
    s = m.state
    while not GAME.is_terminal(s):
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    assert s.plays == 40 and not s.stock and not any(s.hands)
    r = GAME.round_result(s)
    assert r.reason == "played-out" and dict(r.notes)["left_on_pile"] == len(s.pile)
    snap = GAME.snapshot(s)
    assert snap.to_move is None and sorted(snap.all_cards()) == list(kg.DECK)
    kept = set(snap.zone("captured.0")) | set(snap.zone("captured.1"))
    assert not kept & set(snap.zone("pile"))


# -- Oni-fuda: the willows in play -----------------------------------------------------------

@pytest.mark.parametrize("willow", [110, 111, 112, 113])
def test_KG_ONI_1_a_willow_takes_the_pile_whatever_its_top(willow: int) -> None:
    others = [w for w in (110, 111, 112, 113) if w != willow]
    m = deal([willow, 40, 50, 60], [30, 41, 52, 62], others, 20)
    m = play(m, "play 40", "play 30")
    assert ids(m.state.pile) == [20, 40, 30]
    m = play(m, f"play {willow}")
    assert not m.state.pile and ids(m.state.captured[0]) == sorted([20, 40, 30, willow])


def test_KG_ONI_1_oni_play_choice_allows_discarding_a_willow() -> None:
    m = deal([110, 40, 50, 60], [30, 41, 52, 62], [12, 13, 22], 20)
    assert "discard 110" not in [str(a) for a in m.legal_actions()]
    with pytest.raises(IllegalActionError) as e:
        play(m, "discard 110")
    assert e.value.rule_id == "KG-ONI-1"
    with pytest.raises(IllegalActionError) as e:
        play(m, "discard 40")
    assert e.value.rule_id == "KG-PLAY-3"
    m = deal([110, 40, 50, 60], [30, 41, 52, 62], [12, 13, 22], 20, oni_play="choice")
    assert [str(a) for a in m.legal_actions()] == ["discard 110", "play 40", "play 50", "play 60", "play 110"]
    m = play(m, "discard 110")
    assert ids(m.state.pile) == [20, 110] and not m.state.captured[0]
    m = play(m, "play 30")  # the willow on top: a non-willow cannot take it
    assert ids(m.state.pile) == [20, 110, 30]


def test_KG_ONI_2_a_willow_onto_an_empty_pile_is_discarded_and_only_a_willow_takes_it() -> None:
    m = deal([21, 40, 112, 60], [110, 41, 52, 62], [12, 13, 22], 20, oni_play="choice")
    m = play(m, "play 21", "play 110")  # the dealer empties the pile, the willow goes onto it
    assert ids(m.state.pile) == [110] and not m.state.captured[1]
    with pytest.raises(IllegalActionError):
        play(m, "discard 40")
    m2 = play(m, "play 40")  # a non-willow is discarded on top
    assert ids(m2.state.pile) == [110, 40]
    m3 = play(m, "play 112")  # another willow takes it
    assert not m3.state.pile and ids(m3.state.captured[0]) == [20, 21, 110, 112]


def test_KG_ONI_2_a_covered_willow_is_an_ordinary_card() -> None:
    m = deal([21, 31, 50, 60], [110, 30, 52, 62], [12, 13, 22], 20)
    m = play(m, "play 21", "play 110", "play 31")
    assert ids(m.state.pile) == [110, 31]
    m = play(m, "play 30")  # a cherry takes the pile, the buried willow with it
    assert ids(m.state.captured[1]) == [30, 31, 110]


def test_KG_ONI_2_discard_onto_an_empty_pile_is_refused_with_its_rule() -> None:
    m = deal([21, 111, 50, 60], [110, 41, 52, 62], [12, 13, 22], 20, oni_play="choice")
    m = play(m, "play 21")
    assert "discard 110" not in [str(a) for a in m.legal_actions()]
    with pytest.raises(IllegalActionError) as e:
        play(m, "discard 110")
    assert e.value.rule_id == "KG-ONI-2"


# -- Kusuri-gui payments ---------------------------------------------------------------------

def test_KG_PAY_1_eating_a_fresh_discard_pays_at_once() -> None:
    m = deal([21, 31, 50, 60], [30, 41, 52, 62], [12, 13, 22], 20)
    m = play(m, "play 21")  # takes the dealt card: never a Kusuri-gui
    assert m.state.paid == (0, 0)
    m = play(m, "play 30")  # onto the emptied pile
    assert m.state.bait == 1
    m = play(m, "play 31")  # eats it
    assert m.state.paid == (1, -1) and m.state.eaten == (1, 0) and not m.state.pile
    assert m.snapshot().scores == (100, 100)  # booked in the round's result, not before


def test_KG_PAY_1_a_two_card_pile_is_not_a_kusurigui() -> None:
    m = deal([21, 31, 50, 60], [30, 41, 52, 62], [12, 13, 22], 20)
    m = play(m, "play 21", "play 30", "play 31")  # one payment so far
    m = play(m, "play 41", "play 50", "play 52")  # 41 onto the empty pile, 50 on top, 52 takes both
    assert ids(m.state.captured[1]) == [41, 50, 52] and m.state.paid == (1, -1)


def test_KG_PAY_1_either_player_can_eat() -> None:
    m = deal([21, 31, 50, 60], [30, 41, 52, 62], [12, 13, 22], 20)
    m = play(m, "play 21", "play 30", "play 31", "play 41", "play 50", "play 52", "play 60", "play 62")
    assert m.state.paid == (0, 0) and m.state.eaten == (1, 1)


def test_KG_PAY_1_kusurigui_in_succession() -> None:
    m = deal([21, 31, 43, 60], [30, 42, 52, 62], [12, 13, 22], 20)
    m = play(m, "play 21", "play 30", "play 31", "play 42", "play 43")
    assert m.state.paid == (2, -2) and m.state.eaten == (2, 0)


def test_KG_PAY_1_the_payment_is_booked_in_the_round_result() -> None:
    m = deal([21, 31, 43, 60], [30, 42, 52, 62], [12, 13, 22], 20)
    m = play(m, "play 21", "play 30", "play 31", "play 42", "play 43")
    s = m.state
    while not GAME.is_terminal(s):
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    r = GAME.round_result(s)
    notes = dict(r.notes)
    assert notes["kusurigui.0"] >= 2 and notes["payments.0"] == s.paid[0] == -s.paid[1]
    totals = [sum(y.points for y in side) for side in r.yaku]
    settle = abs(totals[0] - totals[1])
    sign = 0 if totals[0] == totals[1] else (1 if totals[0] > totals[1] else -1)
    assert r.deltas == (s.paid[0] + sign * settle, s.paid[1] - sign * settle)
    assert sum(r.deltas) == 0


def test_KG_PAY_2_payment_of_two() -> None:
    m = deal([21, 31, 50, 60], [30, 41, 52, 62], [12, 13, 22], 20, payment="2")
    m = play(m, "play 21", "play 30", "play 31")
    assert m.state.paid == (2, -2)


@pytest.mark.parametrize("eater", [111, 112])
def test_KG_PAY_3_eating_a_willow_is_no_kusurigui(eater: int) -> None:
    m = deal([21, eater, 50, 60], [110, 41, 52, 62], [12, 13, 22], 20)
    m = play(m, "play 21", "play 110", f"play {eater}")
    assert ids(m.state.captured[0]) == sorted([20, 21, 110, eater])
    assert m.state.paid == (0, 0) and m.state.eaten == (0, 0)


@pytest.mark.parametrize(("oni_pays", "paid"), [("yes", (1, -1)), ("no", (0, 0))])
def test_KG_PAY_4_eating_with_a_willow(oni_pays: str, paid: tuple[int, int]) -> None:
    m = deal([21, 111, 50, 60], [30, 41, 52, 62], [12, 13, 22], 20, oni_pays=oni_pays)
    m = play(m, "play 21", "play 30", "play 111")
    assert ids(m.state.captured[0]) == [20, 21, 30, 111] and m.state.paid == paid


def test_KG_PAY_1_a_bait_left_before_a_re_deal_is_eaten_after_it() -> None:
    # The eighth play of a cycle puts a card onto the emptied pile; the dealer eats it after the re-deal.
    m = deal([21, 31, 40, 50], [22, 30, 41, 62], [12, 13, 23], 20, stock=[32, 33, 63, 42, 43, 52, 53, 61])
    m = play(m, "play 21", "play 22", "play 40", "play 41", "play 50", "play 30", "play 31")
    assert m.state.paid == (0, 0) and not m.state.pile  # 31 took a two-card pile
    m = play(m, "play 62")
    assert ids(m.state.pile) == [62] and m.state.bait == 1 and m.state.redeals == 1
    assert ids(m.state.hands[0]) == [42, 53, 61, 63] and ids(m.state.hands[1]) == [32, 33, 43, 52]
    m = play(m, "play 63")
    assert m.state.paid == (1, -1) and m.state.eaten == (1, 0)


def test_KG_SCORE_3_a_payment_is_cut_to_the_payers_chips() -> None:
    def eat(**opts: str) -> tuple[int, int]:
        rules = GAME.rules(None, opts)
        s = KusuriGuiState(rules, RoundSetup(3, 0, (0, 1), (199, 1)), (cards([31, 40]), cards([41])), cards([30]),
                           (), ((), ()), (), (), 0, Phase.PLAY, plays=3, bait=1)
        return GAME.apply(s, Action.parse("play 31")).paid
    assert eat(payment="2") == (1, -1)
    assert eat(payment="2", bust="debt") == (2, -2)
    assert eat(payment="1") == (1, -1)


# -- dekiyaku --------------------------------------------------------------------------------

@pytest.mark.parametrize(("pile", "want"), [
    ([10, 30, 80, 110, 120], {"five-brights": 10}),
    ([10, 30, 80, 120], {"four-brights": 4}),
    ([10, 30, 80], {"three-brights": 3}),
    ([10, 30, 110], {"rainy-three-brights": 2}),
    ([10, 110], {}),
    ([60, 70, 100], {"hot-pot": 4}),
    ([70, 100], {"hand-cannon": 3}),
    ([20, 40, 50, 81, 111], {"animals": 1}),
    ([20, 40, 50, 81, 111, 90, 60], {"animals": 3}),
    ([11, 21, 31], {"poetry-ribbons": 2}),
    ([61, 91, 101], {"blue-ribbons": 2}),
    ([41, 51, 71], {"grass-ribbons": 2}),
    ([41, 51, 112], {}),
    ([12, 13, 22, 23, 32, 33, 42, 43, 52, 113], {"chaff": 1}),
    ([12, 13, 22, 23, 32, 33, 42, 43, 52, 113, 121, 122], {"chaff": 3}),
])
def test_KG_YAKU_3_to_14_the_dekiyaku_table(pile: list[int], want: dict[str, int]) -> None:
    assert yaku(pile) == want


def test_KG_YAKU_1_must_show_four_brights_and_hand_cannon() -> None:
    assert yaku([10, 30, 80, 120]) == {"four-brights": 4}
    assert yaku([10, 30, 80, 120, 70, 100]) == {"four-brights": 4, "hand-cannon": 3}
    assert yaku([10, 30, 80, 120, 70, 100], dekiyaku="exclusive") == {"four-brights": 4}


def test_KG_YAKU_1_stacking_and_exclusive_modes() -> None:
    pile = [10, 30, 80, 110, 120, 60, 70, 100, 11, 21, 31]
    assert yaku(pile) == {"five-brights": 10, "hot-pot": 4, "poetry-ribbons": 2}
    assert yaku(pile, dekiyaku="exclusive") == {"five-brights": 10}
    # Exclusive: equal values go to the first listed dekiyaku.
    assert yaku([11, 21, 31, 61, 91, 101], dekiyaku="exclusive") == {"poetry-ribbons": 2}
    assert yaku([11, 21, 31, 61, 91, 101]) == {"poetry-ribbons": 2, "blue-ribbons": 2, "ribbons": 2}


def test_KG_YAKU_2_part_of_is_exactly_the_documented_pairs() -> None:
    assert {("four-brights", "five-brights"), ("three-brights", "five-brights"),
                       ("rainy-three-brights", "five-brights"), ("three-brights", "four-brights"),
                       ("hand-cannon", "hot-pot")} == PART_OF
    for key in ("five_brights", "hot_pot", "hand_cannon", "sake_cup"):
        for v in SPEC.option(key).choices:
            assert kg.part_of(yaku_table(SPEC.resolve(None, {key: v}))) == PART_OF


def _minimal_piles(b: YakuDef) -> list[frozenset[int]]:
    free = sorted(b.pool - b.required)
    k = max(0, b.need - len(b.pool & b.required))
    return [b.required | frozenset(s) for s in itertools.combinations(free, k)]


def _least_pile(b: YakuDef, a: YakuDef) -> frozenset[int]:
    """The smallest pile forming ``b`` with as few of ``a``'s cards as possible."""
    free = sorted(b.pool - b.required, key=lambda c: (c in a.required, c in a.pool, c))
    k = max(0, b.need - len(b.pool & b.required))
    return b.required | frozenset(free[:k])


def test_KG_YAKU_2_implication_agrees_with_the_card_sets() -> None:
    rows = yaku_table(SPEC.resolve(None, {"sake_cup": "both"}))
    for a, b in itertools.permutations(rows, 2):
        if implies(b, a):
            piles = _minimal_piles(b)
            assert len(piles) < 1000, (a.id, b.id)
            assert all(a.value(p) > 0 for p in piles), (a.id, b.id)
        else:
            p = _least_pile(b, a)
            assert b.value(p) > 0 and a.value(p) == 0, (a.id, b.id, sorted(p))


def test_KG_YAKU_6_rain_man_with_three_dry_brights() -> None:
    assert yaku([10, 30, 80, 110]) == {"three-brights": 3, "rainy-three-brights": 2}
    assert yaku([10, 30, 80, 110], rainy_overlap="higher") == {"three-brights": 3}
    assert yaku([10, 30, 110], rainy_overlap="higher") == {"rainy-three-brights": 2}
    assert yaku([10, 30, 80, 110], dekiyaku="exclusive") == {"three-brights": 3}


@pytest.mark.parametrize(("opts", "pile", "want"), [
    ({"five_brights": "8"}, [10, 30, 80, 110, 120], {"five-brights": 8}),
    ({"five_brights": "9"}, [10, 30, 80, 110, 120], {"five-brights": 9}),
    ({"hot_pot": "3"}, [60, 70, 100], {"hot-pot": 3}),
    ({"hand_cannon": "2"}, [70, 100], {"hand-cannon": 2}),
    ({"hot_pot": "3", "hand_cannon": "3"}, [60, 70, 100], {"hot-pot": 3}),
])
def test_KG_YAKU_3_7_8_values_fixed_before_play(opts: dict[str, str], pile: list[int],
                                                 want: dict[str, int]) -> None:
    assert yaku(pile, **opts) == want


def test_KG_YAKU_14_the_sake_cup_is_an_animal_only_by_default() -> None:
    chaff = [12, 13, 22, 23, 32, 33, 42, 43, 52]
    assert yaku([*chaff, 90]) == {}
    assert yaku([*chaff, 90], sake_cup="both") == {"chaff": 1}
    assert yaku([20, 40, 50, 81, 90], sake_cup="both") == {"animals": 1}


def test_KG_YAKU_15_willows_keep_their_printed_kinds() -> None:
    assert yaku([11, 41, 51, 71, 112]) == {"grass-ribbons": 2, "ribbons": 1}
    assert yaku([20, 40, 50, 81, 111]) == {"animals": 1}
    assert yaku([12, 13, 22, 23, 32, 33, 42, 43, 52, 113]) == {"chaff": 1}
    assert yaku([10, 30, 110]) == {"rainy-three-brights": 2}


options = st.fixed_dictionaries({o.key: st.sampled_from(o.choices) for o in SPEC.options})


@given(options, st.sets(st.sampled_from(kg.DECK), max_size=30))
def test_KG_YAKU_1_reference_scorer_matches_the_spec(opts: dict[str, str], pile: set[int]) -> None:
    values = SPEC.resolve(None, opts)
    got = GAME.score(GAME.rules(None, opts), [card(i) for i in sorted(pile)]).yaku
    assert got == dekiyaku(values, pile)


# -- settlement and the game -----------------------------------------------------------------

def test_KG_SCORE_1_higher_total_takes_the_difference() -> None:
    r = GAME.round_result(finished([10, 30, 80, 120], [70, 100]))
    assert r.deltas == (1, -1) and r.winner == 0 and r.next_dealer == 0
    r = GAME.round_result(finished([70, 100], [10, 30, 80, 110, 120], dealer=0))
    assert r.deltas == (-7, 7) and r.winner == 1 and r.next_dealer == 1  # KG-END-2


def test_KG_SCORE_1_payments_and_settlement_add_up() -> None:
    r = GAME.round_result(finished([10, 30, 80, 120], [], paid=(-2, 2)))
    assert r.deltas == (2, -2)
    assert dict(r.notes)["payments.0"] == -2 and dict(r.notes)["settlement"] == 4


@pytest.mark.parametrize(("tie_dealer", "dealer", "nxt"), [("stay", 0, 0), ("stay", 1, 1), ("pass", 0, 1)])
def test_KG_SCORE_2_equal_totals(tie_dealer: str, dealer: int, nxt: int) -> None:
    r = GAME.round_result(finished([11, 21, 31], [61, 91, 101], dealer=dealer, paid=(1, -1),
                                   tie_dealer=tie_dealer))
    assert r.winner is None and r.deltas == (1, -1) and r.next_dealer == nxt
    r0 = GAME.round_result(finished([], [], dealer=dealer, tie_dealer=tie_dealer))
    assert r0.deltas == (0, 0) and r0.next_dealer == nxt


def test_KG_SCORE_3_settlement_cut_to_the_losers_chips() -> None:
    end = finished([10, 30, 80, 110, 120], [], scores=(197, 3), paid=(1, -1))
    r = GAME.round_result(end)
    assert r.deltas == (3, -3) and r.ends_game
    r = GAME.round_result(replace(end, rules=GAME.rules(None, {"bust": "debt"})))
    assert r.deltas == (11, -11) and not r.ends_game


def test_KG_GAME_3_running_out_of_chips_ends_the_game() -> None:
    rules = GAME.rules()
    r = GAME.round_result(finished([10, 30, 80, 110, 120], [], scores=(195, 5)))
    info = GAME.settle(rules, MatchInfo((195, 5), 0, 3), r)
    assert info.over and info.end_reason == "bust" and info.winners == (0,) and info.scores == (200, 0)
    debt = GAME.rules(None, {"bust": "debt"})
    r = GAME.round_result(finished([10, 30, 80, 110, 120], [], scores=(195, 5), bust="debt"))
    info = GAME.settle(debt, MatchInfo((195, 5), 0, 3), r)
    assert not info.over and info.scores == (205, -5)


@pytest.mark.parametrize("rounds", ["6", "12"])
def test_KG_GAME_1_game_length(rounds: str) -> None:
    m = Match.start(GAME, GAME.rules(None, {"rounds": rounds, "bust": "debt"}), seed=11)
    while not m.over:
        m = m.apply(m.legal_actions()[0])
    assert m.info.rounds_played == int(rounds) and m.info.end_reason == "rounds"
    assert sum(m.info.scores) == 200


def test_KG_GAME_2_most_chips_wins_and_equal_chips_is_drawn() -> None:
    rules = GAME.rules(None, {"rounds": "6"})
    r = GAME.round_result(finished([], [], number=6))
    assert GAME.settle(rules, MatchInfo((100, 100), 0, 5), r).winners == (0, 1)
    r = GAME.round_result(finished([70, 100], [], number=6))
    info = GAME.settle(rules, MatchInfo((100, 100), 0, 5), r)
    assert info.over and info.winners == (0,) and info.scores == (103, 97)


# -- the command line ------------------------------------------------------------------------

def cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("extra", "total"), [([], 4), (["70", "100"], 7),
                                              (["70", "100", "--option", "dekiyaku=exclusive"], 4)])
def test_cli_score_must_show(extra: list[str], total: int, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(["score", "kusurigui", "10", "30", "80", "120", *extra, "--json"], capsys)
    got = json.loads(out)
    assert code == 0 and got["yaku_total"] == total and got["yaku"][0] == {"id": "four-brights", "points": 4}


def test_cli_simulate_is_deterministic_and_reports_chips(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "kusurigui", "--games", "12", "--seed", "3", "--json", "--option", "rounds=6"]
    _, a, _ = cli(args, capsys)
    _, b, _ = cli(args, capsys)
    assert a == b
    stats = json.loads(a)
    assert sum(stats["total_score_by_seat"]) == 12 * 200
    assert stats["mean_actions_per_round"] == 40


@pytest.mark.parametrize("args", [
    ["score", "kusurigui", "72"],
    ["score", "kusurigui", "103"],
    ["score", "kusurigui", "10", "--option", "dekiyaku=both"],
    ["score", "kusurigui", "10", "--option", "five_brights=15"],
    ["score", "kusurigui", "10", "--option", "payment=3"],
])
def test_cli_bad_input_is_one_line(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(args, capsys)
    assert code == 2 and not out and err.count("\n") == 1 and err.startswith("hanafuda: error:")


# -- random play under random options ---------------------------------------------------------

@given(options, st.integers(0, 2**32), st.integers(0, 2**32))
def test_random_play_keeps_every_invariant(opts: dict[str, str], seed: int, policy: int) -> None:
    opts["rounds"] = "6"
    rep = run_random(ReferenceAdapter(), PROFILE, SPEC.resolve(None, opts), seed, policy)
    assert not rep.violations, str(rep.violations[0])
    assert rep.rounds >= 1


def test_the_invariants_catch_a_wrong_payment(monkeypatch: pytest.MonkeyPatch) -> None:
    from hanafuda.games import kusurigui as ref

    real = ref.KusuriGuiRound._pay

    def twice(self: ref.KusuriGuiRound, payer: int, payee: int) -> None:
        real(self, payer, payee)
        real(self, payer, payee)

    monkeypatch.setattr(ref.KusuriGuiRound, "_pay", twice)
    bad = [run_random(ReferenceAdapter(), PROFILE, SPEC.resolve(None, {"rounds": "6"}), seed, 1).violations
           for seed in range(3)]
    assert any(v and "Kusuri-gui payments" in v[0].message for v in bad)


def test_the_invariants_catch_a_wrong_redeal_order(monkeypatch: pytest.MonkeyPatch) -> None:
    from hanafuda.games import kusurigui as ref

    real = ref.KusuriGuiRound._next

    def swapped(self: ref.KusuriGuiRound) -> None:
        redeals = self.redeals
        real(self)
        if self.redeals > redeals:
            self.hands.reverse()

    monkeypatch.setattr(ref.KusuriGuiRound, "_next", swapped)
    rep = run_random(ReferenceAdapter(), PROFILE, SPEC.resolve(), 1, 1)
    assert rep.violations and "re-deal" in rep.violations[0].message
